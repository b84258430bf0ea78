#!/bin/sh
# run-output.sh: the cost of how ranks' stdout is buffered and carried.
# NPROCS (16) ranks each print LINES (100000) lines of ~60 bytes
# (output_lines.c) through Tide's mpiexec into a file; the wall time of
# the whole run, median of RUNS (5), in three settings, one run of each in
# turn per round (the machine is shared):
#   full   stdout_line_buffered=0: a pipe, fully buffered by C's stdio
#   line   the default: a pipe, line-buffered by libmpi at MPI_Init
#   pty    stdout_pty=1: a pseudo-terminal (line-buffered by C's stdio)
# and the lines that arrived (all of them, or the run is marked "!").
. "$(dirname "$0")/common.sh"
RUNS=${RUNS:-5}
NPROCS=${NPROCS:-16}
LINES=${LINES:-100000}
"$TIDE_CC" -O2 -o "$OUT/output_lines.tide" "$BENCH_DIR/output_lines.c" || exit 1
sink="$OUT/output_lines.out"
for mode in full line pty; do : > "$OUT/output.$mode.times"; done
want=$((NPROCS * LINES))
bad=""
r=0
while [ $r -lt "$RUNS" ]; do
    for mode in full line pty; do
        case $mode in
            full) opts="--param stdout_line_buffered=0" ;;
            line) opts="" ;;
            pty) opts="--param stdout_pty=1" ;;
        esac
        t0=$(date +%s%N)
        timeout 600 "$TIDE_RUN" -n "$NPROCS" $opts "$OUT/output_lines.tide" "$LINES" > "$sink" 2>/dev/null
        t1=$(date +%s%N)
        got=$(wc -l < "$sink")
        [ "$got" -eq "$want" ] || bad="$bad $mode"
        echo $(( (t1 - t0) / 1000000 )) >> "$OUT/output.$mode.times"
    done
    r=$((r + 1))
done
rm -f "$sink"
echo "# $NPROCS ranks x $LINES lines, median of $RUNS runs (ms)"
base=$(median < "$OUT/output.full.times")
for mode in full line pty; do
    m=$(median < "$OUT/output.$mode.times")
    flag=""
    case " $bad " in *" $mode "*) flag="!" ;; esac
    printf '%-5s %8s ms%s  x%s of full   (runs: %s)\n' "$mode" "$m" "$flag" "$(ratio "$m" "$base")" \
        "$(tr '\n' ' ' < "$OUT/output.$mode.times")"
done
