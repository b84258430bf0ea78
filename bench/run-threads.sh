#!/bin/sh
# run-threads.sh [comm|tag|ep ...]: multithreaded message rate
# (msgrate_threads.c) of Tide, Open MPI and MPICH, 2 processes on this
# node with T = 1, 2, 4, 8 threads each, in millions of 8-byte messages
# per second summed over all thread pairs. PROCS=1 runs the pairs inside
# one process instead (2T threads), where the implementations' locking
# rather than the transport sets the rate. "tidelock" is Tide with its
# multithreaded fast path off (thread_fastpath=0: every call under one
# lock), to show what the fast path brings. Each value is the median of
# RUNS runs (default 5), each under a timeout of 120 s; for each T the
# modes and implementations take turns, one run each per round. Ratios are
# Tide/other (above 1 is better). Mode ep (MPI Endpoints) runs only for
# Tide. A cell reads "fail" when no run succeeded and has a "!" after it
# when some did not; the failed commands are listed at the end.
# TIDE_EXTRA / OMPI_EXTRA / MPICH_EXTRA add launcher options (OMPI_EXTRA
# defaults to "--mca btl self,vader").
. "$(dirname "$0")/common.sh"
RUNS=${RUNS:-5}
PROCS=${PROCS:-2}
# seconds a run may take (MPICH livelocks with its pairs in one process)
RUN_TIMEOUT=${RUN_TIMEOUT:-$([ "$PROCS" = 1 ] && echo 30 || echo 120)}
IMPLS="tide tidelock ${IMPLS#tide}"
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
    [ $impl = tidelock ] && continue
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

case " $built_impls " in *" tide "*)
    cp "$OUT/$program.tide" "$OUT/$program.tidelock"
    built_impls="$built_impls tidelock" ;;
esac
impl_extra() { case $1 in tide | tidelock) echo "$TIDE_EXTRA" ;; openmpi) echo "$OMPI_EXTRA" ;; mpich) echo "$MPICH_EXTRA" ;; esac; }
threads_run() { if [ $1 = tidelock ]; then echo "env TIDE_THREAD_FASTPATH=0 $TIDE_RUN"; else impl_run $1; fi; }
is_number() { case $1 in '' | *[!0-9.eE+-]*) return 1 ;; *) return 0 ;; esac; }
# ratio of two cells, "-" unless both are numbers
cell_ratio() {
    a=${1%!}
    b=${2%!}
    if is_number "$a" && is_number "$b"; then ratio "$a" "$b"; else echo "-"; fi
}

# run_once IMPL MODE T RUN: one run, its rate appended to the cell's values
run_once() {
    # (variables named run_* so as not to clobber the callers' loops)
    run_impl=$1 run_mode=$2 run_threads=$3 run_index=$4
    run_values="$OUT/$program.$run_mode.$run_impl.$run_threads.values"
    case " $built_impls " in *" $run_impl "*) ;; *) return ;; esac
    run_log="$OUT/$program.$run_mode.$run_impl.$run_threads.$run_index"
    run_command="$(threads_run $run_impl) $(impl_extra $run_impl) -n $PROCS $OUT/$program.$run_impl $run_mode $run_threads"
    timeout -k 5 $RUN_TIMEOUT $run_command > "$run_log" 2> "$run_log.err"
    run_status=$?
    run_value=$(awk -v t=$run_threads '$1 == t {print $2}' "$run_log" | head -1)
    if [ $run_status -eq 0 ] && [ -n "$run_value" ]; then
        echo "$run_value" >> "$run_values"
    else
        echo "exit $run_status: $run_command ($(tail -c 200 "$run_log.err" | tr '\n' ' '))" >> "$failures"
    fi
}

rounded() { awk '{printf "%.3f\n", $1}'; }

# cell IMPL MODE T: the median of the cell's values, "fail", or "nan"
cell() {
    values="$OUT/$program.$2.$1.$3.values"
    succeeded=$(wc -l < "$values")
    if [ "$succeeded" -eq 0 ]; then
        echo fail
    elif grep -q nan "$values"; then
        echo nan
    elif [ "$succeeded" -lt "$RUNS" ]; then
        echo "$(median < "$values" | rounded)!"
    else
        median < "$values" | rounded
    fi
}

mode_impls() { if [ $1 = ep ]; then echo tide tidelock; else echo $IMPLS; fi; }

# Measure first: every mode and implementation takes its turn in each
# round, so that load from elsewhere on the machine falls on all alike.
for threads in $THREAD_COUNTS; do
    for mode in $modes; do
        for impl in $(mode_impls $mode); do : > "$OUT/$program.$mode.$impl.$threads.values"; done
    done
    run=0
    while [ $run -lt $RUNS ]; do
        for mode in $modes; do
            for impl in $(mode_impls $mode); do run_once $impl $mode $threads $run; done
        done
        run=$((run + 1))
    done
done

for mode in $modes; do
    if [ "$PROCS" = 1 ]; then
        echo "== $mode (millions of messages/s, T pairs of threads in 1 process)"
    else
        echo "== $mode (millions of messages/s, $PROCS processes x T threads)"
    fi
    printf '%3s' T
    for impl in $(mode_impls $mode); do printf ' %10s' $impl; done
    for impl in $(mode_impls $mode); do [ $impl = tide ] || printf ' %12s' "tide/$impl"; done
    echo
    for threads in $THREAD_COUNTS; do
        printf '%3s' $threads
        for impl in $(mode_impls $mode); do
            v=$(cell $impl $mode $threads)
            echo "$v" > "$OUT/$program.$mode.$impl.$threads.med"
            eval "v_$impl=\$v"
            printf ' %10s' "$v"
        done
        for impl in $(mode_impls $mode); do
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
