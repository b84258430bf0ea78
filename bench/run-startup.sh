#!/bin/sh
# run-startup.sh: time `mpiexec -n N` of a program that only initialises
# and finalises, for N = 1, 2, 8, 16, with Tide, Open MPI and MPICH side by
# side (medians of RUNS runs), printed as milliseconds and as ratios
# (Tide's time divided by the other's: below 1 means Tide is faster).
. "$(dirname "$0")/common.sh"
RUNS=${RUNS:-11}
bench_build "$BENCH_DIR/startup.c"
printf '%-4s' "N"
for impl in $IMPLS; do printf ' %12s' "$impl(ms)"; done
for impl in $IMPLS; do [ $impl = tide ] || printf ' %14s' "tide/$impl"; done
echo
for n in 1 2 8 16; do
    printf '%-4s' "$n"
    for impl in $IMPLS; do
        run=$(impl_run $impl)
        # one warm-up run
        $run -n $n "$OUT/startup.$impl" > /dev/null 2>&1
        i=0
        : > "$OUT/startup.times"
        while [ $i -lt $RUNS ]; do
            time_ms $run -n $n "$OUT/startup.$impl" >> "$OUT/startup.times"
            i=$((i + 1))
        done
        m=$(median < "$OUT/startup.times")
        eval "med_$impl=$m"
        printf ' %12s' "$m"
    done
    for impl in $IMPLS; do
        [ $impl = tide ] && continue
        eval "other=\$med_$impl"
        printf ' %14s' "$(ratio "$med_tide" "$other")"
    done
    echo
done
