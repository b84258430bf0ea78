#!/bin/sh
# test.sh: install what is missing, build Tide, and run every test (unit
# tests and MPI programs through mpiexec). The last line is the summary:
# "N passed, N failed[, N skipped]".
top=$(cd "$(dirname "$0")/.." && pwd)
sh "$top/tools/deps.sh" || { echo "0 passed, 1 failed"; exit 1; }
sh "$top/tools/build.sh" || { echo "0 passed, 1 failed"; exit 1; }
exec sh "$top/tests/run-all.sh" "$top/_build" "$top"
