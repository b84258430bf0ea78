#!/bin/sh
# launcher_sigusr.sh usr1|usr2 NRANKS: SIGUSR1/SIGUSR2 sent to mpiexec reach
# every rank once, and the same signal sent to tided does not kill it.
# The ranks (tests/mpi/rt_sigforward) say when their handlers are in place.
sig=$1 n=$2
SIG=$(echo "$sig" | tr a-z A-Z)
dir=$(mktemp -d "${TMPDIR:-/tmp}/tide-sigusr.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
mkfifo "$dir/out"
"$MPIEXEC" -n "$n" "$TB/rt_sigforward" "$sig" > "$dir/out" 2>&1 &
pid=$!
exec 3< "$dir/out"
ready=no
while read -r line <&3; do
    echo "$line"
    [ "$line" = ready ] && { ready=yes; break; }
done
[ $ready = yes ] || { echo "the job never got ready"; wait "$pid"; exit 1; }
tided=$(pgrep -P "$pid" -x tided)
[ -n "$tided" ] || { echo "no tided under mpiexec $pid"; exit 1; }
kill -"$SIG" "$tided"
kill -"$SIG" "$pid"
got=0
while read -r line <&3; do
    echo "$line"
    case "$line" in "rank "*" got SIG$SIG 1") got=$((got + 1)) ;; esac
done
wait "$pid"
rc=$?
echo "mpiexec status $rc; $got of $n ranks got SIG$SIG exactly once"
[ "$rc" -eq 0 ] && [ "$got" -eq "$n" ]
