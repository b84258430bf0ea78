#!/bin/sh
# run-dpm.sh: spawn (1, 2, 8 children, up to their first message),
# connect/accept between two separately started jobs, and publish+lookup,
# for Tide, Open MPI and MPICH where they can (Debian's MPICH, built with
# UCX, refuses spawn and ports: its lines say so). Medians, milliseconds.
. "$(dirname "$0")/common.sh"
REPS=${REPS:-10}
bench_build "$BENCH_DIR/dpm.c"
for impl in $IMPLS; do
    run=$(impl_run $impl)
    echo "== $impl"
    for n in 1 2 8; do
        timeout 120 $run -n 1 "$OUT/dpm.$impl" spawn $n $REPS 2>&1 | grep -E "^spawn" || echo "spawn $n: failed"
    done
    pf="$OUT/dpm.port.$impl"
    rm -f "$pf"
    timeout 120 $run -n 1 "$OUT/dpm.$impl" server "$pf" $REPS > /dev/null 2>&1 &
    i=0
    while [ ! -s "$pf" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
    if [ -s "$pf" ]; then
        timeout 120 $run -n 1 "$OUT/dpm.$impl" client "$pf" $REPS 2>&1 | grep -E "^connect" || echo "connect/accept: failed"
    else
        echo "connect/accept: failed (no port)"
    fi
    wait
    if [ $impl = openmpi ]; then
        echo "publish+lookup: needs ompi-server (not measured)"
    else
        timeout 60 $run -n 1 "$OUT/dpm.$impl" names 50 2>&1 | grep -E "^publish" || echo "publish+lookup: failed"
    fi
done
