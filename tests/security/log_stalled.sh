#!/bin/sh
# log_stalled.sh MPIEXEC HOSTILE SPAWNER PROBE OUTDIR: tided and mpiexec
# must go on serving while nobody reads their log. Runs a one-rank job at
# -vv whose rank is tests/security/tided_probe.sh (flood: 1000 hostile
# PMIx connections, each dropped with a log line, then a timed spawn),
# with mpiexec's stderr (where tided's log goes too) a FIFO whose reader
# shrank it to one page and stopped itself before reading anything. The job's verdict lines go to a
# file. When the rank has given its last verdict (or a deadline has
# passed) the reader is resumed, the job ends, and the log is checked. Prints "log-stall ok" or why
# not.
MPX=$1; H=$2; SPAWNER=$3; PROBE=$4; D=$5
rm -rf "$D"; mkdir -p "$D"
mkfifo "$D/err"
# the reader: opens the FIFO, makes it hold one page (F_SETPIPE_SZ), stops
# itself, then reads (once resumed)
perl -e 'open(my $f, ">", "$ARGV[0]/reader.pid") or die; print $f "$$\n"; close($f);
         fcntl(STDIN, 1031, 4096) or die "F_SETPIPE_SZ: $!"; kill("STOP", $$); exec("cat") or die' \
    "$D" < "$D/err" > "$D/err.log" &
rdr_wrap=$!
# the job: its stderr is the FIFO (opening it waits for the reader)
TIDE_PROBE_SPAWN_MAX_MS=${TIDE_PROBE_SPAWN_MAX_MS:-20000} \
    timeout -k 5 "${LOG_STALL_TIMEOUT:-60}" $MPX -v -v -n 1 sh "$PROBE" "$H" "$SPAWNER" flood \
    > "$D/out" 2> "$D/err" &
job=$!
# the reader must be stopped before it reads: wait for its stop
i=0
while [ $i -lt 200 ]; do
    if [ -s "$D/reader.pid" ]; then
        st=$(awk '{print $3}' /proc/"$(cat "$D/reader.pid")"/stat 2>/dev/null)
        [ "$st" = T ] && break
    fi
    sleep 0.05; i=$((i + 1))
done
[ "$st" = T ] || { echo "the reader did not stop"; kill $job; exit 1; }
# the rank's last verdict, all while nobody reads the log (bounded wait)
i=0
while [ $i -lt "${LOG_STALL_WAIT:-800}" ] && ! grep -q "fds back down\|fds STILL UP" "$D/out" &&
      kill -0 $job 2> /dev/null; do
    sleep 0.05; i=$((i + 1))
done
grep -q "fds back down" "$D/out" && served=1 || served=0
# now the log is read: what was kept comes out and the job ends
kill -CONT "$(cat "$D/reader.pid")"
wait $job
rc=$?
wait $rdr_wrap
cat "$D/out"
echo "mpiexec exit status $rc"
drops=$(grep -c "dropped a PMIx connection" "$D/err.log")
lost=$(sed -n 's/.*: \([0-9]*\) log lines dropped.*/\1/p' "$D/err.log" | awk '{s += $1} END {print s + 0}')
echo "log: $drops lines of dropped connections, $lost log lines reported lost, $(wc -c < "$D/err.log") bytes"
ok=1
[ $served = 1 ] || { echo "the job did not go on while its log was not read"; ok=0; }
[ $rc -eq 0 ] || { echo "the job failed or hung (status $rc)"; ok=0; }
grep -q "spawn ok" "$D/out" || { echo "the spawn did not finish in time while the log was not read"; ok=0; }
grep -q "fds bounded" "$D/out" || ok=0
# what the log says the probe did: its dropped connections are there
[ $drops -gt 0 ] || { echo "no dropped connection in the log"; ok=0; }
[ $ok = 1 ] && echo "log-stall ok"
