#!/bin/sh
# launcher_sigterm.sh NRANKS BOUND_MS [SIGNAL]: a launch in progress ends
# promptly on SIGTERM (or SIGNAL: INT). Starts a job of NRANKS ranks (each
# tells a fifo it started, then sleeps), waits until 16 of them have started (the launch is under way),
# sends the signal to mpiexec and checks that mpiexec ends within BOUND_MS
# milliseconds with status 128 + the signal and leaves no rank behind.
n=$1 bound=$2 sig=${3:-TERM}
case $sig in TERM) expect=143 ;; INT) expect=130 ;; *) echo "bad signal $sig"; exit 2 ;; esac
dir=$(mktemp -d "${TMPDIR:-/tmp}/tide-sigterm.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
mkfifo "$dir/up"
exec 3<> "$dir/up"
mark="60.$$"
"$MPIEXEC" $L_EXTRA --oversubscribe --param max_ranks_per_core=0 --param transports=self,tcp -n "$n" \
    sh -c "echo up > $dir/up; exec sleep $mark" > "$dir/out" 2>&1 &
pid=$!
i=0
while [ $i -lt 16 ] && read -r _ <&3; do i=$((i + 1)); done
t0=$(date +%s%N)
kill -"$sig" "$pid"
wait "$pid"
rc=$?
t1=$(date +%s%N)
ms=$(( (t1 - t0) / 1000000 ))
started=$(pgrep -c -f "^sleep $mark\$")
echo "mpiexec ended ${ms} ms after SIG$sig with status $rc; ranks left: $started"
cat "$dir/out"
[ "$rc" -eq "$expect" ] || { echo "expected status $expect"; exit 1; }
[ "$ms" -le "$bound" ] || { echo "took longer than $bound ms"; exit 1; }
[ "$started" -eq 0 ] || { pkill -KILL -f "^sleep $mark\$"; echo "ranks left running"; exit 1; }
exit 0
