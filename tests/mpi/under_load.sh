#!/bin/sh
# under_load.sh LOOPS COMMAND...: runs COMMAND on CPU 0 alone while LOOPS
# busy shell loops keep that CPU busy too (as on a machine whose load is
# far above its cores); the loops end with the command, however it ends.
# Exit status: the command's, or 77 when taskset is missing.
loops=$1
shift
command -v taskset > /dev/null 2>&1 || { echo "under_load.sh: no taskset" >&2; exit 77; }
pids=""
cmd=""
stop() {
    [ -n "$pids" ] && kill $pids 2> /dev/null
    pids=""
}
# the command runs in the background so that a signal to this script
# (a timeout) is acted on at once, not when the command has ended
trap 'stop; [ -n "$cmd" ] && kill $cmd 2> /dev/null; exit 143' TERM INT HUP
i=0
while [ "$i" -lt "$loops" ]; do
    taskset -c 0 sh -c 'while :; do :; done' &
    pids="$pids $!"
    i=$((i + 1))
done
taskset -c 0 "$@" &
cmd=$!
wait $cmd
rc=$?
cmd=""
stop
exit $rc
