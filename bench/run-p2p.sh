#!/bin/sh
# run-p2p.sh [lat|bw|bibw ...]: point-to-point latency (us) and bandwidth
# (MB/s) of Tide, Open MPI and MPICH, 2 ranks on this node, side by side.
# Each value is the median of RUNS runs. Ratios: for latency Tide/other
# (below 1 is better), for bandwidth Tide/other (above 1 is better).
# TIDE_EXTRA / OMPI_EXTRA add launcher options (e.g. TCP only:
# TIDE_EXTRA="-x TIDE_TRANSPORTS=tcp,self" OMPI_EXTRA="--mca btl tcp,self").
. "$(dirname "$0")/common.sh"
RUNS=${RUNS:-5}
MAXN=${MAXN:-4194304}
bench_build "$BENCH_DIR/p2p.c"
modes=${*:-lat bw bibw}
for mode in $modes; do
    echo "== $mode ($( [ $mode = lat ] && echo us || echo MB/s ))"
    for impl in $IMPLS; do
        extra=""
        [ $impl = tide ] && extra="$TIDE_EXTRA"
        [ $impl = openmpi ] && extra="$OMPI_EXTRA"
        i=0
        while [ $i -lt $RUNS ]; do
            $(impl_run $impl) $extra -n 2 "$OUT/p2p.$impl" $mode $MAXN > "$OUT/p2p.$mode.$impl.$i" 2>/dev/null
            i=$((i + 1))
        done
        # median per size
        cat "$OUT"/p2p.$mode.$impl.* | awk '{print $1}' | sort -n -u > "$OUT/sizes"
        : > "$OUT/p2p.$mode.$impl.med"
        for s in $(cat "$OUT/sizes"); do
            m=$(cat "$OUT"/p2p.$mode.$impl.[0-9]* | awk -v s=$s '$1 == s {print $2}' | median)
            echo "$s $m" >> "$OUT/p2p.$mode.$impl.med"
        done
    done
    printf '%10s' bytes
    for impl in $IMPLS; do printf ' %10s' $impl; done
    for impl in $IMPLS; do [ $impl = tide ] || printf ' %12s' "tide/$impl"; done
    echo
    for s in $(cat "$OUT/sizes"); do
        printf '%10s' $s
        for impl in $IMPLS; do
            v=$(awk -v s=$s '$1 == s {print $2}' "$OUT/p2p.$mode.$impl.med")
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
