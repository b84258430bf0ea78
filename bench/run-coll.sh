#!/bin/sh
# run-coll.sh: latency (microseconds) of MPI_Barrier, MPI_Bcast,
# MPI_Allreduce, MPI_Allgather and MPI_Alltoall from 8 B to 1 MiB, at 2, 4
# and 8 ranks on this node, Tide next to Open MPI and MPICH. Each value is
# the median of RUNS runs (the runs of the implementations interleaved, so
# a noisy moment hurts them alike); the ratios are Tide's time divided by
# the other's (below 1: Tide is faster). With more ranks than cores the
# runs are oversubscribed, which is part of the test.
# Environment: RUNS (5), NPROCS ("2 4 8"), OPS (all five; coll.c also
# times reduce, gather, scatter, allgatherv, alltoallv and
# reduce_scatter_block, named the same way), MINB (8),
# MAXB (1048576), COLL_BENCH_SECONDS (0.1: time per size and run),
# TIDE_EXTRA / OMPI_EXTRA / MPICH_EXTRA (extra launcher options).
. "$(dirname "$0")/common.sh"
RUNS=${RUNS:-5}
NPROCS=${NPROCS:-"2 4 8"}
OPS=${OPS:-barrier,bcast,allreduce,allgather,alltoall}
MINB=${MINB:-8}
MAXB=${MAXB:-1048576}
export COLL_BENCH_SECONDS=${COLL_BENCH_SECONDS:-0.1}
bench_build "$BENCH_DIR/coll.c"

extra() {
    case $1 in tide) echo "$TIDE_EXTRA" ;; openmpi) echo "$OMPI_EXTRA" ;; mpich) echo "$MPICH_EXTRA" ;; esac
}

echo "cores: $(nproc 2>/dev/null || echo ?); runs: $RUNS; implementations: $IMPLS"
for n in $NPROCS; do
    i=0
    while [ $i -lt $RUNS ]; do
        for impl in $IMPLS; do
            timeout 1200 $(impl_run $impl) $(extra $impl) -n $n "$OUT/coll.$impl" $OPS $MINB $MAXB \
                > "$OUT/coll.$n.$impl.$i" 2>/dev/null
        done
        i=$((i + 1))
    done
    for op in $(echo $OPS | tr , ' '); do
        echo "== $op, $n ranks (us)"
        printf '%10s' bytes
        for impl in $IMPLS; do printf ' %10s' $impl; done
        for impl in $IMPLS; do [ $impl = tide ] || printf ' %12s' "tide/$impl"; done
        echo
        cat "$OUT"/coll.$n.tide.* | awk -v op=$op '$1 == op {print $2}' | sort -n -u > "$OUT/sizes"
        for s in $(cat "$OUT/sizes"); do
            printf '%10s' $s
            for impl in $IMPLS; do
                v=$(cat "$OUT"/coll.$n.$impl.[0-9]* 2>/dev/null | awk -v op=$op -v s=$s '$1 == op && $2 == s {print $3}' | median)
                eval "v_$impl=\$v"
                printf ' %10s' "$v"
            done
            for impl in $IMPLS; do
                [ $impl = tide ] && continue
                eval "o=\$v_$impl"
                printf ' %12s' "$(ratio "$v_tide" "$o")"
            done
            echo
        done
    done
done
