#!/bin/sh
# launch_scaling.sh: launch time over several hosts, with Tide, Open MPI and
# MPICH side by side. The hosts are network namespaces of this machine
# (tests/multinode/hosts.sh; needs root), reached through a launch agent:
# tests/multinode/ns-agent (AGENT=ns, the default) or ssh to an sshd in
# every namespace (AGENT=ssh). For 1..MAX_HOSTS hosts (default 4) and
# PPN ranks per host (default "1 2 4"), RUNS runs each (default 5), it
# prints the medians of
#   - the wall time of mpiexec running bench/launch.c (milliseconds),
#   - that program's first MPI_Barrier after MPI_Init (slowest rank, us),
# and the ratios Tide/other (below 1: Tide is faster). A failed run shows
# as "fail" (its output is kept in $OUT/launch.last.<impl>.err).
. "$(dirname "$0")/common.sh"
RUNS=${RUNS:-5}
MAX_HOSTS=${MAX_HOSTS:-4}
PPN=${PPN:-1 2 4}
AGENT=${AGENT:-ns}
TMO=${TMO:-60}

MN_HERE="$SRC_DIR/tests/multinode"
. "$MN_HERE/hosts.sh"
mn_setup "$MAX_HOSTS"
rc=$?
if [ $rc -ne 0 ]; then
    echo "launch_scaling: cannot make the hosts: ${MN_SKIP_REASON:-mn_setup failed}" >&2
    exit 1
fi
case $AGENT in
ns) agent=$MN_AGENT ;;
ssh) mn_start_sshd || { echo "launch_scaling: no sshd: $MN_SKIP_REASON" >&2; mn_teardown; exit 1; }
     agent=$MN_SSH_AGENT ;;
*) echo "AGENT is ns or ssh" >&2; mn_teardown; exit 2 ;;
esac
bench_build "$BENCH_DIR/launch.c"

# the launcher command of IMPL for hosts LIST (h:ppn,...) and N ranks
launch_cmd() {
    impl=$1; list=$2; n=$3
    case $impl in
    tide) echo "$TIDE_RUN --launch-agent $agent --host $list -n $n --param if_include=$MN_NET $OUT/launch.tide" ;;
    openmpi) echo "mpiexec.openmpi --oversubscribe --host $list -n $n --mca plm_rsh_agent $agent \
--mca oob_tcp_if_include $MN_NET --mca btl_tcp_if_include $MN_NET $OUT/launch.openmpi" ;;
    mpich) echo "mpiexec.hydra -launcher ssh -launcher-exec $agent -iface tmnb$MN_PID -hosts $list -n $n $OUT/launch.mpich" ;;
    esac
}

# one timed run: prints "WALL_MS BARRIER_US", or fails
run_once() {
    t0=$(date +%s%N)
    timeout -k 5 "$TMO" $1 > "$OUT/launch.out" 2> "$OUT/launch.err" < /dev/null
    rc=$?
    t1=$(date +%s%N)
    # whatever failed, nothing may linger in the namespaces
    for p in $(mn_pids_except_sshd | awk '{print $2}'); do kill -KILL "$p" 2>/dev/null; done
    b=$(sed -n 's/^first_barrier_us //p' "$OUT/launch.out")
    [ $rc -eq 0 ] && [ -n "$b" ] || return 1
    echo "$(( (t1 - t0) / 1000 ))" "$b" | awk '{printf "%.2f %s\n", $1 / 1000, $2}'
}

printf '%-6s %-4s %-4s' hosts ppn n
for impl in $IMPLS; do printf ' %11s' "$impl(ms)"; done
for impl in $IMPLS; do [ $impl = tide ] || printf ' %10s' "t/$impl"; done
for impl in $IMPLS; do printf ' %15s' "$impl-bar(us)"; done
for impl in $IMPLS; do [ $impl = tide ] || printf ' %10s' "t/$impl"; done
echo
h=1
while [ $h -le "$MAX_HOSTS" ]; do
    for ppn in $PPN; do
        list=""
        k=0
        for ip in $MN_HOSTS; do
            k=$((k + 1))
            [ $k -gt $h ] && break
            list="${list:+$list,}$ip:$ppn"
        done
        n=$((h * ppn))
        printf '%-6s %-4s %-4s' "$h" "$ppn" "$n"
        for impl in $IMPLS; do
            cmd=$(launch_cmd $impl "$list" $n)
            : > "$OUT/launch.wall"
            : > "$OUT/launch.bar"
            # one warm-up run, then RUNS timed ones; the first failure ends
            # this configuration for this implementation
            ok=1
            run_once "$cmd" > /dev/null || ok=0
            i=0
            while [ $ok -eq 1 ] && [ $i -lt "$RUNS" ]; do
                if r=$(run_once "$cmd"); then
                    echo "$r" | awk '{print $1}' >> "$OUT/launch.wall"
                    echo "$r" | awk '{print $2}' >> "$OUT/launch.bar"
                else
                    ok=0
                fi
                i=$((i + 1))
            done
            if [ $ok -eq 1 ]; then
                eval "wall_$impl=$(median < "$OUT/launch.wall")"
                eval "bar_$impl=$(median < "$OUT/launch.bar")"
            else
                eval "wall_$impl=fail bar_$impl=fail"
                cp "$OUT/launch.err" "$OUT/launch.last.$impl.err"
            fi
            eval "printf ' %11s' \"\$wall_$impl\""
        done
        for impl in $IMPLS; do
            [ $impl = tide ] && continue
            eval "o=\$wall_$impl"
            case "$wall_tide$o" in *fail*) printf ' %10s' - ;; *) printf ' %10s' "$(ratio "$wall_tide" "$o")" ;; esac
        done
        for impl in $IMPLS; do eval "printf ' %15s' \"\$bar_$impl\""; done
        for impl in $IMPLS; do
            [ $impl = tide ] && continue
            eval "o=\$bar_$impl"
            case "$bar_tide$o" in *fail*) printf ' %10s' - ;; *) printf ' %10s' "$(ratio "$bar_tide" "$o")" ;; esac
        done
        echo
    done
    h=$((h + 1))
done
mn_teardown
