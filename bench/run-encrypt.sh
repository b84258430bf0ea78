#!/bin/sh
# run-encrypt.sh: the cost of --param encrypt=1 (every TCP frame between
# ranks sealed with AES-256-GCM). Two ranks on this node forced onto TCP
# (--param transports=self,tcp), ping-pong latency (half round trip, us)
# and bandwidth (windows of 64 nonblocking sends, MB/s) of p2p.c at a few
# sizes, encrypt=0 and encrypt=1 in turn; each value is the median of
# RUNS runs (default 5). Ratios are encrypt=1 / encrypt=0: above 1 for
# latency and below 1 for bandwidth is what encryption costs.
# Environment: RUNS (5), SIZES ("1,1024,65536,1048576,4194304"),
# TIDE_EXTRA (extra mpiexec options).
. "$(dirname "$0")/common.sh"
RUNS=${RUNS:-5}
SIZES=${SIZES:-1,1024,65536,1048576,4194304}
TIMEOUT=300
prefix="$OUT/encrypt"
"$TIDE_CC" -O2 -o "$OUT/p2p.tide" "$BENCH_DIR/p2p.c" -lm || { echo "build of p2p failed"; exit 1; }
rm -f "$prefix".*.raw
run=1
while [ $run -le "$RUNS" ]; do
    for part in lat bw; do
        for enc in 0 1; do
            timeout $TIMEOUT "$TIDE_RUN" $TIDE_EXTRA -n 2 --param transports=self,tcp --param encrypt=$enc \
                "$OUT/p2p.tide" $part 4194304 sizes="$SIZES" >> "$prefix.$part.$enc.raw" 2> "$prefix.err" ||
                echo "run $run of $part encrypt=$enc failed: $(tail -n 3 "$prefix.err")" >&2
        done
    done
    run=$((run + 1))
done
for part in lat bw; do
    if [ $part = lat ]; then unit="latency (us)"; else unit="bandwidth (MB/s)"; fi
    printf '%s, median of %s runs\n%10s %14s %14s %8s\n' "$unit" "$RUNS" size encrypt=0 encrypt=1 ratio
    for s in $(echo "$SIZES" | tr ',' ' '); do
        a=$(awk -v s="$s" '$1 == s {print $2}' "$prefix.$part.0.raw" | median)
        b=$(awk -v s="$s" '$1 == s {print $2}' "$prefix.$part.1.raw" | median)
        r=$(awk -v a="$a" -v b="$b" 'BEGIN { if (a > 0) printf "%.2f", b / a; else print "nan" }')
        printf '%10s %14s %14s %8s\n' "$s" "$a" "$b" "$r"
    done
    echo
done
