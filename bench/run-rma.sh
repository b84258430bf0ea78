#!/bin/sh
# run-rma.sh [GROUP ...]: one-sided (RMA) costs of Tide, Open MPI and MPICH
# side by side, 2 ranks on this node (see rma.c): put/get latency inside
# lock/unlock and as op + flush in a lock_all epoch, put/get bandwidth (64
# ops then flush), accumulate / fetch_and_op rates, fetch_and_op and
# compare_and_swap latency, empty lock+unlock, PSCW and fence epochs (fence
# also at FENCE_NPROCS ranks), and put/get on an MPI_Win_create window
# (group "create"). Each value is the median of RUNS runs, the runs of the
# implementations interleaved. Ratios are Tide/other: for times below 1 is
# better, for bandwidths and rates above 1 is better. Each group is a
# separate launch under a timeout, so a failing or hanging implementation
# only loses its figures (shown as n/a).
# Environment: RUNS (3), RMA_GROUPS (lat,bw,atomic,sync,create), MINB (8),
# MAXB (1048576), FENCE_NPROCS (4; empty to skip), RMA_BENCH_SECONDS (0.05:
# timed loop per figure), RMA_TIMEOUT (120 s per launch),
# TIDE_EXTRA / OMPI_EXTRA / MPICH_EXTRA (extra launcher options).
. "$(dirname "$0")/common.sh"
RUNS=${RUNS:-3}
RMA_GROUPS=${*:-${RMA_GROUPS:-lat,bw,atomic,sync,create}}
RMA_GROUPS=$(echo $RMA_GROUPS | tr ' ' ,)
MINB=${MINB:-8}
MAXB=${MAXB:-1048576}
FENCE_NPROCS=${FENCE_NPROCS-4}
RMA_TIMEOUT=${RMA_TIMEOUT:-120}
export RMA_BENCH_SECONDS=${RMA_BENCH_SECONDS:-0.05}
bench_build "$BENCH_DIR/rma.c"

extra() {
    case $1 in tide) echo "$TIDE_EXTRA" ;; openmpi) echo "$OMPI_EXTRA" ;; mpich) echo "$MPICH_EXTRA" ;; esac
}

echo "cores: $(nproc 2>/dev/null || echo ?); runs: $RUNS; implementations: $IMPLS"
i=0
while [ $i -lt $RUNS ]; do
    for impl in $IMPLS; do
        f="$OUT/rma.$impl.$i"
        : > "$f"
        for g in $(echo $RMA_GROUPS | tr , ' '); do
            timeout $RMA_TIMEOUT $(impl_run $impl) $(extra $impl) -n 2 "$OUT/rma.$impl" $g $MINB $MAXB \
                >> "$f" 2>/dev/null || echo "run $i: $impl failed in group $g" >&2
        done
        for n in $FENCE_NPROCS; do
            timeout $RMA_TIMEOUT $(impl_run $impl) $(extra $impl) -n $n "$OUT/rma.$impl" fence \
                >> "$f" 2>/dev/null || echo "run $i: $impl failed in fence at $n ranks" >&2
        done
    done
    i=$((i + 1))
done

# medians per (metric, size) of every implementation: $OUT/rma.<impl>.med
for impl in $IMPLS; do
    cat "$OUT"/rma.$impl.[0-9]* | awk 'NF == 3 { print $1, $2 }' | awk '!seen[$0]++' > "$OUT/rma.keys.$impl"
    : > "$OUT/rma.$impl.med"
    while read name size; do
        m=$(cat "$OUT"/rma.$impl.[0-9]* | awk -v k="$name" -v s="$size" '$1 == k && $2 == s { print $3 }' | median)
        echo "$name $size $m" >> "$OUT/rma.$impl.med"
    done < "$OUT/rma.keys.$impl"
done
# every metric seen, in order of first appearance
cat $(for impl in $IMPLS; do echo "$OUT/rma.keys.$impl"; done) | awk '!seen[$0]++' > "$OUT/rma.keys"

value() { awk -v k="$2" -v s="$3" '$1 == k && $2 == s { v = $3 } END { print (v == "" || v == "nan") ? "n/a" : v }' "$OUT/rma.$1.med"; }
ratio_na() { if [ "$1" = n/a ] || [ "$2" = n/a ]; then echo -; else ratio "$1" "$2"; fi; }

section() { # title, awk regex on the metric name
    echo "== $1"
    printf '%-14s %8s' metric bytes
    for impl in $IMPLS; do printf ' %10s' $impl; done
    for impl in $IMPLS; do [ $impl = tide ] || printf ' %12s' "tide/$impl"; done
    echo
    awk -v re="$2" '$1 ~ re' "$OUT/rma.keys" | while read name size; do
        printf '%-14s %8s' $name $size
        for impl in $IMPLS; do
            v=$(value $impl $name $size)
            eval "v_$impl=\$v"
            printf ' %10s' "$v"
        done
        for impl in $IMPLS; do
            [ $impl = tide ] && continue
            eval "o=\$v_$impl"
            printf ' %12s' "$(ratio_na "$v_tide" "$o")"
        done
        echo
    done
}

section "latency (us, lower is better; fence: bytes = ranks)" '^(put_lock|get_lock|put_flush|get_flush|fop_lat|cas_lat|lock_unlock|pscw|fence)'
section "bandwidth (MB/s, higher is better)" '_bw'
section "rate (million ops/s, higher is better)" '_rate'
