#!/bin/sh
# run-ft.sh: costs of fault tolerance (see ft.c), medians of RUNS runs:
#  - failure-free overhead of recovery mode: 8 B ping-pong latency and
#    8 B MPI_Allreduce at NPROCS ranks, Tide without and with
#    --enable-recovery (goal: within 2%), beside Open MPI and MPICH;
#  - MPIX_Comm_agree and MPIX_Comm_shrink latency without failures, and
#    the time from a rank's death to the last survivor's error return,
#    at 4, 8 and 16 ranks (FT_SIZES).
# Debian 12's Open MPI (4.1) has no ULFM (it came with 5.0), and MPICH
# 4.0.2's ch4 device stops on an assertion in MPIX_Comm_agree, so the ULFM
# figures are Tide's alone.
# Environment: RUNS (5), NPROCS (2), FT_SIZES ("4 8 16").
. "$(dirname "$0")/common.sh"
RUNS=${RUNS:-5}
NPROCS=${NPROCS:-2}
FT_SIZES=${FT_SIZES:-4 8 16}
bench_build "$BENCH_DIR/ft.c"

# value NAME FILE: the value of line NAME
value() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }

res="$OUT/ft.results"
: > "$res"
for i in $(seq "$RUNS"); do
    for v in $IMPLS tide-recovery; do
        case $v in
        tide-recovery) run="$TIDE_RUN --enable-recovery"; bin="$OUT/ft.tide" ;;
        *) run=$(impl_run $v); bin="$OUT/ft.$v" ;;
        esac
        timeout 120 $run -n "$NPROCS" "$bin" overhead 2>/dev/null | sed "s/^/$v /" >> "$res"
    done
done
echo "failure-free cost, $NPROCS ranks (microseconds, median of $RUNS; ratio: Tide with recovery / other)"
printf '%-16s %10s %10s %10s %10s %10s %10s\n' figure tide recovery openmpi mpich "rec/tide" "rec/ompi"
for f in pingpong_8B_us allreduce_8B_us; do
    m() { awk -v v="$1" -v k="$f" '$1 == v && $2 == k { print $3 }' "$res" | median; }
    t=$(m tide); r=$(m tide-recovery); o=$(m openmpi); p=$(m mpich)
    printf '%-16s %10s %10s %10s %10s %10s %10s\n' $f "$t" "$r" "$o" "$p" "$(ratio "$r" "$t")" "$(ratio "$r" "$o")"
done

echo
echo "ULFM (Tide, --enable-recovery; microseconds, median of $RUNS)"
printf '%-6s %12s %12s %14s\n' ranks agree shrink death-to-error
for n in $FT_SIZES; do
    : > "$OUT/ft.ulfm"
    for i in $(seq "$RUNS"); do
        timeout 120 $TIDE_RUN --enable-recovery -n "$n" "$OUT/ft.tide" agree 2>/dev/null >> "$OUT/ft.ulfm"
        timeout 120 $TIDE_RUN --enable-recovery -n "$n" "$OUT/ft.tide" detect 3 2>/dev/null >> "$OUT/ft.ulfm"
    done
    a=$(awk '$1 == "agree_us" { print $2 }' "$OUT/ft.ulfm" | median)
    s=$(awk '$1 == "shrink_us" { print $2 }' "$OUT/ft.ulfm" | median)
    d=$(awk '$1 == "detect_us" { print $2 }' "$OUT/ft.ulfm" | median)
    printf '%-6s %12s %12s %14s\n' "$n" "$a" "$s" "$d"
done
