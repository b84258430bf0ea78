#!/bin/sh
# run-latency.sh [lat|bw|bibw|msgrate|stencil|lu ...]: Tide next to Open
# MPI and MPICH on this node, from single messages up to two small
# applications (default: all six parts).
#   lat      ping-pong latency, half the round trip (us), 2 ranks (p2p.c)
#   bw       bandwidth, windows of 64 nonblocking sends (MB/s), 2 ranks
#   bibw     the same in both directions at once (MB/s), 2 ranks
#            (lat, bw, bibw: sizes 1 B to MAXN at powers of 2 and of 3)
#   msgrate  8-byte messages in windows of 64 (millions of messages/s,
#            all pairs together), 1 pair at 2 ranks, 2 pairs at 4 ranks
#            (msgrate.c)
#   stencil  2-D Jacobi with halo exchange, time to solution (s) and the
#            final residual (stencil.c), at NPROCS ranks
#   lu       LU factorization with partial pivoting, HPL style, time to
#            solution (s) and the scaled residual (lu.c), at NPROCS ranks
# Each value is the median of RUNS runs (default 5), each under
# `timeout 300`; in every round each part and implementation runs once in
# turn, so load from elsewhere on the machine falls on all alike. Ratios
# are Tide/other: for latency and times below 1 means Tide is better, for
# bandwidth and rates above 1 means Tide is better (each table says which).
# A cell reads "fail" when no run produced it and has a "!" after it when
# some runs did not; the failed commands are listed at the end. The
# residuals do not depend on the implementation or the number of ranks;
# they are printed so that one can see that all runs computed the same.
# With more ranks than cores (8 on 2 cores) the runs are oversubscribed.
# Environment: RUNS (5), MAXN (4194304), NPROCS ("2 4 8"),
# MSGRATE_NPROCS ("2 4"), STENCIL_ARGS ("1024 500": grid and iterations),
# LU_ARGS ("1000 64": order and block), TIDE_EXTRA / OMPI_EXTRA /
# MPICH_EXTRA (extra launcher options).
. "$(dirname "$0")/common.sh"
RUNS=${RUNS:-5}
MAXN=${MAXN:-4194304}
NPROCS=${NPROCS:-"2 4 8"}
MSGRATE_NPROCS=${MSGRATE_NPROCS:-"2 4"}
STENCIL_ARGS=${STENCIL_ARGS:-"1024 500"}
LU_ARGS=${LU_ARGS:-"1000 64"}
TIMEOUT=300
parts=${*:-lat bw bibw msgrate stencil lu}
prefix="$OUT/latency"
failures="$prefix.failures"
: > "$failures"

for part in $parts; do
    case $part in lat | bw | bibw | msgrate | stencil | lu) ;;
    *) echo "unknown part $part (lat bw bibw msgrate stencil lu)"; exit 1 ;;
    esac
done

program_of() { case $1 in lat | bw | bibw) echo p2p ;; *) echo $1 ;; esac; }
impl_extra() { case $1 in tide) echo "$TIDE_EXTRA" ;; openmpi) echo "$OMPI_EXTRA" ;; mpich) echo "$MPICH_EXTRA" ;; esac; }
# rank counts of a part
part_nprocs() { case $1 in lat | bw | bibw) echo 2 ;; msgrate) echo $MSGRATE_NPROCS ;; *) echo $NPROCS ;; esac; }
part_args() {
    case $1 in
    lat | bw | bibw) echo "$1 $MAXN sizes=pow23" ;;
    msgrate) echo "" ;;
    stencil) echo "$STENCIL_ARGS" ;;
    lu) echo "$LU_ARGS" ;;
    esac
}
# sizes 1..MAXN at powers of 2 and of 3, as p2p.c's sizes=pow23
pow23_sizes() {
    awk -v m=$MAXN 'BEGIN { for (p = 1; p <= m; p *= 2) print p; for (p = 3; p <= m; p *= 3) print p }' | sort -n
}

# build each program needed with each implementation; a failed build
# leaves the implementation out of that program's runs
programs=$(for part in $parts; do program_of $part; done | sort -u)
for program in $programs; do
    eval "built_$program=''"
    for impl in $IMPLS; do
        if $(impl_cc $impl) -O2 -o "$OUT/$program.$impl" "$BENCH_DIR/$program.c" -lm \
            > "$OUT/$program.$impl.build" 2>&1; then
            eval "built_$program=\"\$built_$program $impl\""
        else
            echo "note: build of $program with $impl failed, see $OUT/$program.$impl.build"
        fi
    done
done
is_built() { eval "case \" \$built_$1 \" in *\" $2 \"*) return 0 ;; esac"; return 1; }

# run_once PART NP IMPL RUN: one run. Its "key value" lines go to
# $prefix.PART.IMPL.values (key: message size for lat/bw/bibw, the number
# of ranks otherwise); for stencil and lu the residual goes to
# $prefix.PART.IMPL.residuals as "ranks residual".
run_once() {
    run_part=$1 run_np=$2 run_impl=$3 run_index=$4
    run_program=$(program_of $run_part)
    is_built $run_program $run_impl || return 0
    run_log="$prefix.$run_part.$run_np.$run_impl.$run_index"
    run_command="$(impl_run $run_impl) $(impl_extra $run_impl) -n $run_np $OUT/$run_program.$run_impl $(part_args $run_part)"
    timeout -k 5 $TIMEOUT $run_command > "$run_log" 2> "$run_log.err"
    run_status=$?
    case $run_part in
    lat | bw | bibw) awk 'NF == 2 && $1 ~ /^[0-9]+$/ {print $1, $2}' "$run_log" ;;
    msgrate) awk -v np=$run_np 'NF == 2 && $2 ~ /^[0-9.eE+-]+$/ {print np, $2; exit}' "$run_log" ;;
    *) awk -v np=$run_np 'NF == 2 && $1 ~ /^[0-9.eE+-]+$/ {print np, $1; exit}' "$run_log" ;;
    esac > "$run_log.values"
    case $run_part in stencil | lu)
        [ $run_status -eq 0 ] && awk -v np=$run_np 'NF >= 2 {print np, $2; exit}' "$run_log" \
            >> "$prefix.$run_part.$run_impl.residuals" ;;
    esac
    if [ $run_status -eq 0 ] && [ -s "$run_log.values" ]; then
        cat "$run_log.values" >> "$prefix.$run_part.$run_impl.values"
    else
        # keep what a failed run measured before it stopped (p2p sizes)
        [ $run_status -ne 0 ] && cat "$run_log.values" >> "$prefix.$run_part.$run_impl.values"
        echo "exit $run_status: timeout $TIMEOUT $run_command ($(tail -c 300 "$run_log.err" | tr '\n' ' '))" >> "$failures"
    fi
}

is_number() { case $1 in '' | *[!0-9.eE+-]*) return 1 ;; *) return 0 ;; esac; }
# ratio of two cells, "-" unless both are numbers
cell_ratio() {
    a=${1%!}
    b=${2%!}
    if is_number "$a" && is_number "$b"; then ratio "$a" "$b"; else echo "-"; fi
}
# cell PART IMPL KEY: the median of the runs' values, "!" if some runs
# gave none, "fail" if none did
cell() {
    cell_values=$(awk -v k=$3 '$1 == k {print $2}' "$prefix.$1.$2.values" 2> /dev/null)
    cell_count=$(echo "$cell_values" | grep -c .)
    if [ "$cell_count" -eq 0 ]; then
        echo fail
    elif [ "$cell_count" -lt "$RUNS" ]; then
        echo "$(echo "$cell_values" | median)!"
    else
        echo "$cell_values" | median
    fi
}
# residual PART IMPL NP: the residual if all runs agree, "varies" if not
residual() {
    residual_values=$(awk -v k=$3 '$1 == k {print $2}' "$prefix.$1.$2.residuals" 2> /dev/null | sort -u)
    case $(echo "$residual_values" | grep -c .) in
    0) echo "-" ;;
    1) echo "$residual_values" ;;
    *) echo varies ;;
    esac
}

for part in $parts; do
    for impl in $IMPLS; do
        : > "$prefix.$part.$impl.values"
        : > "$prefix.$part.$impl.residuals"
    done
done
# the machine is shared: the load around the runs tells how far to trust them
load_average() { cut -d' ' -f1-3 /proc/loadavg 2> /dev/null || echo "?"; }
load_at_start=$(load_average)
run=0
while [ $run -lt $RUNS ]; do
    for part in $parts; do
        for np in $(part_nprocs $part); do
            for impl in $IMPLS; do run_once $part $np $impl $run; done
        done
    done
    run=$((run + 1))
done

echo "cores: $(nproc 2> /dev/null || echo ?); runs: $RUNS; implementations: $IMPLS; load average before: $load_at_start, after: $(load_average)"
for part in $parts; do
    case $part in
    lat) title="ping-pong latency, 2 ranks (us; tide/other below 1: Tide is better)" key=bytes ;;
    bw) title="bandwidth, 2 ranks (MB/s; tide/other above 1: Tide is better)" key=bytes ;;
    bibw) title="bidirectional bandwidth, 2 ranks (MB/s; tide/other above 1: Tide is better)" key=bytes ;;
    msgrate) title="message rate, 8-byte messages, ranks/2 pairs (millions of messages/s; tide/other above 1: Tide is better)" key=ranks ;;
    stencil) title="2-D Jacobi stencil, grid and iterations $STENCIL_ARGS, time to solution (s; tide/other below 1: Tide is better)" key=ranks ;;
    lu) title="LU factorization, order and block $LU_ARGS, time to solution (s; tide/other below 1: Tide is better)" key=ranks ;;
    esac
    echo "== $part: $title"
    printf '%10s' $key
    for impl in $IMPLS; do printf ' %10s' $impl; done
    for impl in $IMPLS; do [ $impl = tide ] || printf ' %12s' "tide/$impl"; done
    case $part in stencil | lu)
        for impl in $IMPLS; do printf ' %19s' "residual:$impl"; done ;;
    esac
    echo
    case $part in lat | bw | bibw) keys=$(pow23_sizes) ;; *) keys=$(part_nprocs $part) ;; esac
    for k in $keys; do
        printf '%10s' $k
        for impl in $IMPLS; do
            v=$(cell $part $impl $k)
            eval "v_$impl=\$v"
            printf ' %10s' "$v"
        done
        for impl in $IMPLS; do
            [ $impl = tide ] && continue
            eval "o=\$v_$impl"
            printf ' %12s' "$(cell_ratio "$v_tide" "$o")"
        done
        case $part in stencil | lu)
            for impl in $IMPLS; do printf ' %19s' "$(residual $part $impl $k)"; done ;;
        esac
        echo
    done
done

if [ -s "$failures" ]; then
    echo "== failed runs"
    cat "$failures"
fi
