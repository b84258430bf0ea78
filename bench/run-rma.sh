#!/bin/sh
# run-rma.sh [GROUP ...]: one-sided (RMA) costs of Tide, Open MPI and MPICH
# side by side, 2 ranks on this node (see rma.c): put/get latency inside
# lock/unlock and as op + flush in a lock_all epoch, put/get bandwidth (64
# ops then flush), accumulate / fetch_and_op rates, fetch_and_op and
# compare_and_swap latency, empty lock+unlock, PSCW and fence epochs (fence
# also at FENCE_NPROCS ranks), and put/get on an MPI_Win_create window
# (group "create"). Each value is the median of RUNS runs, the runs of the
# implementations interleaved. Ratios are Tide/other: for times below 1 is
# better, for bandwidths and rates above 1 is better. All groups run in
# one launch, under a timeout; when it fails, the groups after the one it
# failed in are launched again, so a failing or hanging implementation only
# loses the figures it could not give (shown as n/a).
# Environment: RUNS (3), RMA_GROUPS (lat,bw,sync,create,atomic), MINB (8),
# MAXB (1048576), FENCE_NPROCS (4; empty to skip), RMA_BENCH_SECONDS (0.03:
# timed loop per figure), RMA_TIMEOUT (60 s per launch),
# TIDE_EXTRA / OMPI_EXTRA / MPICH_EXTRA (extra launcher options).
# Open MPI 4.1's default one-sided component on one node (osc/rdma over the
# vader BTL) crashes in MPI_Compare_and_swap, so its cas_lat shows n/a;
# OMPI_EXTRA="--mca osc sm,pt2pt" gives every figure (shared-memory windows
# for MPI_Win_allocate, messages for MPI_Win_create).
. "$(dirname "$0")/common.sh"
RUNS=${RUNS:-3}
RMA_GROUPS=${*:-${RMA_GROUPS:-lat,bw,sync,create,atomic}}
RMA_GROUPS=$(echo $RMA_GROUPS | tr ' ' ,)
MINB=${MINB:-8}
MAXB=${MAXB:-1048576}
FENCE_NPROCS=${FENCE_NPROCS-4}
RMA_TIMEOUT=${RMA_TIMEOUT:-60}
export RMA_BENCH_SECONDS=${RMA_BENCH_SECONDS:-0.03}
bench_build "$BENCH_DIR/rma.c"

extra() {
    case $1 in tide) echo "$TIDE_EXTRA" ;; openmpi) echo "$OMPI_EXTRA" ;; mpich) echo "$MPICH_EXTRA" ;; esac
}

# run the groups $2 (comma-separated) of implementation $1 at 2 ranks in one
# launch, appending to $3; if the launch fails, the group it stopped in
# loses its remaining figures and the groups after it are launched again
launch_groups() {
    todo=$2
    while [ -n "$todo" ]; do
        timeout $RMA_TIMEOUT $(impl_run $1) $(extra $1) -n 2 "$OUT/rma.$1" $todo $MINB $MAXB \
            > "$OUT/rma.last" 2>/dev/null && { cat "$OUT/rma.last" >> "$3"; return; }
        cat "$OUT/rma.last" >> "$3"
        rest=""
        failed=""
        for g in $(echo $todo | tr , ' '); do
            if [ -z "$failed" ]; then
                grep -qx "#done $g" "$OUT/rma.last" && continue
                failed=$g
                echo "run $i: $1 failed in group $g" >&2
            else
                rest="${rest:+$rest,}$g"
            fi
        done
        todo=$rest
    done
}

rm -f "$OUT"/rma.*.[0-9]*
echo "cores: $(nproc 2>/dev/null || echo ?); load: $(cut -d" " -f1-3 /proc/loadavg 2>/dev/null); runs: $RUNS; implementations: $IMPLS"
i=0
while [ $i -lt $RUNS ]; do
    for impl in $IMPLS; do
        f="$OUT/rma.$impl.$i"
        : > "$f"
        launch_groups $impl $RMA_GROUPS "$f"
        for n in $FENCE_NPROCS; do
            timeout $RMA_TIMEOUT $(impl_run $impl) $(extra $impl) -n $n "$OUT/rma.$impl" fence \
                >> "$f" 2>/dev/null || echo "run $i: $impl failed in fence at $n ranks" >&2
        done
    done
    i=$((i + 1))
done

# medians per (metric, size) of every implementation: $OUT/rma.<impl>.med
for impl in $IMPLS; do
    cat "$OUT"/rma.$impl.[0-9]* | awk 'NF == 3 && $1 !~ /^#/ { print $1, $2 }' | awk '!seen[$0]++' > "$OUT/rma.keys.$impl"
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

section() { # title, metric names in the order to show
    title=$1
    shift
    echo "== $title"
    printf '%-14s %8s' metric bytes
    for impl in $IMPLS; do printf ' %10s' $impl; done
    for impl in $IMPLS; do [ $impl = tide ] || printf ' %12s' "tide/$impl"; done
    echo
    for m in "$@"; do
        awk -v m=$m '$1 == m' "$OUT/rma.keys" | sort -k2,2n | while read name size; do
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
    done
}

section "latency (us, lower is better)" put_lock get_lock put_flush get_flush put_flush_wc get_flush_wc
section "bandwidth (MB/s, higher is better)" put_bw get_bw put_bw_wc get_bw_wc
section "atomics (fop_lat, cas_lat: us, lower is better; rates: million ops/s, higher is better)" \
    acc_rate fop_rate fop_lat cas_lat
section "synchronisation, no ops (us, lower is better; fence: bytes = ranks)" lock_unlock pscw fence
