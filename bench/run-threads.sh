#!/bin/sh
# run-threads.sh [comm|tag|ep ...]: multithreaded message rate
# (msgrate_threads.c) of Tide, Open MPI and MPICH, 2 processes on this
# node with T = 1, 2, 4, 8 threads each, in millions of 8-byte messages
# per second summed over all thread pairs. Each value is the median of
# RUNS runs (default 5), each under a timeout of 120 s. Ratios are
# Tide/other (above 1 is better). Mode ep (MPI Endpoints) runs only for
# Tide. A cell reads "fail" when no run succeeded and has a "!" after it
# when some did not; the failed commands are listed at the end.
# TIDE_EXTRA / OMPI_EXTRA / MPICH_EXTRA add launcher options (OMPI_EXTRA
# defaults to "--mca btl self,vader").
. "$(dirname "$0")/common.sh"
RUNS=${RUNS:-5}
THREAD_COUNTS=${THREAD_COUNTS:-1 2 4 8}
OMPI_EXTRA=${OMPI_EXTRA---mca btl self,vader}
modes=${*:-comm tag ep}
program=msgrate_threads
failures="$OUT/$program.failures"
: > "$failures"

# Build with -pthread. Tide's mpi-ext.h may declare endpoints before the
# library has them: then build without, and ep prints nan.
built_impls=""
for impl in $IMPLS; do
    if $(impl_cc $impl) -O2 -pthread -o "$OUT/$program.$impl" "$BENCH_DIR/$program.c" \
        > "$OUT/$program.$impl.build" 2>&1; then
        built_impls="$built_impls $impl"
    elif $(impl_cc $impl) -O2 -pthread -DMSGRATE_WITHOUT_ENDPOINTS -o "$OUT/$program.$impl" \
        "$BENCH_DIR/$program.c" > /dev/null 2>&1; then
        echo "note: $impl: built without endpoints ($(grep -o 'undefined reference to [^ ]*' "$OUT/$program.$impl.build" | head -1)); ep reads nan"
        built_impls="$built_impls $impl"
    else
        echo "note: build with $impl failed, see $OUT/$program.$impl.build"
    fi
done

impl_extra() { case $1 in tide) echo "$TIDE_EXTRA" ;; openmpi) echo "$OMPI_EXTRA" ;; mpich) echo "$MPICH_EXTRA" ;; esac; }
is_number() { case $1 in '' | *[!0-9.eE+-]*) return 1 ;; *) return 0 ;; esac; }
# ratio of two cells, "-" unless both are numbers
cell_ratio() {
    a=${1%!}
    b=${2%!}
    if is_number "$a" && is_number "$b"; then ratio "$a" "$b"; else echo "-"; fi
}

# run_cell IMPL MODE T: prints the median of the runs, "fail", or "nan"
run_cell() {
    impl=$1 mode=$2 threads=$3
    case " $built_impls " in *" $impl "*) ;; *) echo fail; return ;; esac
    values="$OUT/$program.$mode.$impl.$threads.values"
    : > "$values"
    failed=0
    i=0
    while [ $i -lt $RUNS ]; do
        log="$OUT/$program.$mode.$impl.$threads.$i"
        command="$(impl_run $impl) $(impl_extra $impl) -n 2 $OUT/$program.$impl $mode $threads"
        timeout -k 5 120 $command > "$log" 2> "$log.err"
        status=$?
        value=$(awk -v t=$threads '$1 == t {print $2}' "$log" | head -1)
        if [ $status -eq 0 ] && [ -n "$value" ]; then
            echo "$value" >> "$values"
        else
            failed=$((failed + 1))
            echo "exit $status: $command ($(tail -c 200 "$log.err" | tr '\n' ' '))" >> "$failures"
        fi
        i=$((i + 1))
    done
    if [ $failed -eq $RUNS ]; then
        echo fail
    elif grep -q nan "$values"; then
        echo nan
    elif [ $failed -gt 0 ]; then
        echo "$(median < "$values")!"
    else
        median < "$values"
    fi
}

for mode in $modes; do
    if [ $mode = ep ]; then mode_impls=tide; else mode_impls=$IMPLS; fi
    echo "== $mode (millions of messages/s, 2 processes x T threads)"
    printf '%3s' T
    for impl in $mode_impls; do printf ' %10s' $impl; done
    for impl in $mode_impls; do [ $impl = tide ] || printf ' %12s' "tide/$impl"; done
    echo
    for threads in $THREAD_COUNTS; do
        printf '%3s' $threads
        for impl in $mode_impls; do
            v=$(run_cell $impl $mode $threads)
            echo "$v" > "$OUT/$program.$mode.$impl.$threads.med"
            eval "v_$impl=\$v"
            printf ' %10s' "$v"
        done
        for impl in $mode_impls; do
            [ $impl = tide ] && continue
            eval "o=\$v_$impl"
            printf ' %12s' "$(cell_ratio "$v_tide" "$o")"
        done
        echo
    done
done

# Tide's three ways of giving each thread its own traffic, side by side
case " $modes " in *" ep "*)
    echo "== tide: endpoints vs communicators vs tags (millions of messages/s)"
    printf '%3s %10s %10s %10s %10s %10s\n' T ep comm tag ep/comm ep/tag
    for threads in $THREAD_COUNTS; do
        for mode in ep comm tag; do
            f="$OUT/$program.$mode.tide.$threads.med"
            if [ -f "$f" ] && case " $modes " in *" $mode "*) true ;; *) false ;; esac; then
                eval "t_$mode=\$(cat \"\$f\")"
            else
                eval "t_$mode=-"
            fi
        done
        printf '%3s %10s %10s %10s %10s %10s\n' $threads "$t_ep" "$t_comm" "$t_tag" \
            "$(cell_ratio "$t_ep" "$t_comm")" "$(cell_ratio "$t_ep" "$t_tag")"
    done
    ;;
esac

if [ -s "$failures" ]; then
    echo "== failed runs"
    cat "$failures"
fi
