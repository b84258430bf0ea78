#!/bin/sh
# run-all.sh BUILDDIR SRCDIR: runs every test (unit tests, then the MPI
# suites in tests/mpi/suite_*.sh, security, fuzz and the multi-host suite
# tests/multinode) and ends with one summary line:
#   N passed, N failed[, N skipped]
# TIDE_TEST_FILTER=REGEX runs only the cases whose names match.
# both made absolute: tests change directory and hand paths to daemons
B=$(cd "${1:-.}" && pwd) || exit 1
S=$(cd "${2:-$(dirname "$0")/..}" && pwd) || exit 1
export B S
export T_LOGDIR="$B/tests/logs"
# a ThreadSanitizer build (--enable-sanitizers=thread) runs the tests of
# threads: MPI_THREAD_MULTIPLE, endpoints, progress threads
if "$B/bin/mpicc" -show x.c 2>/dev/null | grep -q fsanitize=thread; then
    export TSAN_OPTIONS="suppressions=$S/tests/tsan.supp:halt_on_error=1:exitcode=66:report_signal_unsafe=0"
    export TIDE_TEST_FILTER="${TIDE_TEST_FILTER:-^(ep\.|p2p\.mprobe-threads|p2p\.threads|comm\.concurrent|mpit\.basic\.multiple|rma\.progress\.thread|info\.env\.4-multiple)}"
    export T_SANITIZED=1
elif "$B/bin/mpicc" -show x.c 2>/dev/null | grep -q fsanitize; then
    # libpmix and libevent keep some memory until exit
    export LSAN_OPTIONS="suppressions=$S/tests/lsan.supp:print_suppressions=0"
    export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
    # suites shorten their longest loops: a sanitized rank runs ~5x slower
    export T_SANITIZED=1
fi
rm -rf "$T_LOGDIR"
# the per-user name service of the tests: private to this tree, and gone
# soon after the last job
export TIDE_NS_DIR="$B/tests/ns-home"
export TIDE_NAMESERVER_IDLE_EXIT=2
. "$S/tests/lib.sh"

# Unit tests: each cmocka case counts as one test.
for t in "$B"/tests/unit/test_*; do
    [ -x "$t" ] || continue
    case "$t" in *.o|*.c) continue ;; esac
    n=$(basename "$t")
    if [ -n "$T_FILTER" ] && ! echo "unit.$n" | grep -Eq "$T_FILTER"; then continue; fi
    out=$(timeout -k 5 300 "$t" 2>&1)
    rc=$?
    ok=$(printf '%s\n' "$out" | grep -E '^\[       OK \]' | sed -E 's/^\[       OK \] //')
    bad=$(printf '%s\n' "$out" | grep -E '^\[  (FAILED|ERROR) \] [a-z_]' | sed -E 's/^\[  (FAILED|ERROR) \] //')
    for c in $ok; do tpass "unit.$n.$c"; done
    for c in $bad; do T_FAIL=$((T_FAIL + 1)); echo "FAIL unit.$n.$c"; done
    if [ $rc -ne 0 ] && [ -z "$bad" ]; then
        tfail "unit.$n" "exit status $rc"
        printf '%s\n' "$out" | tail -n 20
    elif [ -n "$bad" ]; then
        printf '%s\n' "$out" | grep -vE '^\[       OK \]|^\[ RUN      \]' | tail -n 30
    fi
done

# MPI test programs: built with the build tree's mpicc, like a user would.
export TB="$B/tests/mpi/bin"
mkdir -p "$TB"
build_fail=""
for src in "$S"/tests/mpi/*.c; do
    [ -f "$src" ] || continue
    n=$(basename "$src" .c)
    if [ ! -x "$TB/$n" ] || [ "$src" -nt "$TB/$n" ] || [ "$B/lib/.libs/libmpi.so" -nt "$TB/$n" ] || \
       [ "$S/libmpi/include/mpi.h" -nt "$TB/$n" ]; then
        echo "$src"
    fi
done | xargs -r -P 2 -I{} sh -c 'n=$(basename {} .c); f=$(grep -m1 -o "^/\* test-build-flags:.*\*/" {} | sed "s/^.*test-build-flags://; s/\*\/\$//"); "$B/bin/mpicc" -O1 -g -Wall -Wextra -Werror $f -o "$TB/$n" {} -lm 2>"$TB/$n.build.log" || echo "$n" >> "$TB/failed-builds"'
if [ -f "$TB/failed-builds" ]; then
    for n in $(cat "$TB/failed-builds"); do
        tfail "build.$n" "does not compile: $(head -c 600 "$TB/$n.build.log")"
    done
    rm -f "$TB/failed-builds"
fi
export MPIEXEC="$B/bin/mpiexec"
for suite in "$S"/tests/mpi/suite_*.sh "$S"/tests/fortran/suite_*.sh "$S"/tests/security/suite_*.sh "$S"/tests/fuzz/suite_*.sh \
             "$S"/tests/multinode/suite_*.sh "$S"/tests/toolchain/suite_*.sh \
             "$S"/tests/slurm/suite_*.sh; do
    [ -f "$suite" ] || continue
    . "$suite"
done

if [ $T_FAIL -gt 0 ]; then
    echo "failed:$T_FAILED_NAMES"
fi
if [ $T_SKIP -gt 0 ]; then
    echo "$T_PASS passed, $T_FAIL failed, $T_SKIP skipped"
else
    echo "$T_PASS passed, $T_FAIL failed"
fi
[ $T_FAIL -eq 0 ]
