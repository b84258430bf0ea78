#!/bin/sh
# launcher_limit.sh REGEX REFUSED OK: a limit of mpiexec, both ways. The
# shell command REFUSED must exit 2 before starting anything, with stderr
# matching the extended regular expression REGEX (the limit named); then
# the shell command OK (the same job within the limit) must succeed.
re=$1 refused=$2 ok=$3
err=$(sh -c "$refused" 2>&1 > /dev/null)
rc=$?
echo "refused: status $rc: $err"
[ "$rc" -eq 2 ] || { echo "expected status 2"; exit 1; }
printf '%s\n' "$err" | grep -Eq -- "$re" || { echo "the message does not match /$re/"; exit 1; }
sh -c "$ok" || { echo "within the limit: failed"; exit 1; }
echo "within the limit: ran"
