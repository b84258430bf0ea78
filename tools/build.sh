#!/bin/sh
# build.sh [CONFIGURE-ARGS...]: configure and build Tide in _build/ (out
# of the source tree), warnings as errors.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
[ -x configure ] || autoreconf -fi > /dev/null 2>&1
mkdir -p _build
cd _build
if [ ! -f Makefile ] || [ "$top/configure" -nt Makefile ]; then
    "$top/configure" --enable-werror "$@" > configure.log 2>&1 || { tail -20 configure.log; exit 1; }
fi
jobs=$(nproc 2>/dev/null || echo 2)
make -j"$jobs" > build.log 2>&1 || { grep -E 'error|Error' build.log | head -40; tail -20 build.log; exit 1; }
make -j"$jobs" check-programs > build-tests.log 2>&1 || { grep -E 'error|Error' build-tests.log | head -40; exit 1; }
echo "built Tide in $top/_build"
