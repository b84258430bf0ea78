#!/bin/sh
# run.sh SRCDIR OUTDIR [SECONDS] [NAME...]: builds the libFuzzer targets
# tests/fuzz/fuzz_NAME.c (every one, or the NAMEs given) with clang
# -fsanitize=fuzzer,address,undefined and runs each for SECONDS (default
# 30) on a copy of its seed corpus tests/fuzz/corpus/NAME/, so new inputs
# never land in the source tree. Prints per target one line
#   fuzz.NAME: N executions in S s, C crashes
# and keeps crash, leak, timeout and oom inputs in OUTDIR/crashes/NAME/.
# Exit status 0 when every target built and ran without a crash, else 1.
#
# A target names what it is compiled with in comment lines near its top:
#   /* sources: common/wire.c common/argv.c */   (relative to SRCDIR)
#   /* libs: -lcrypto */                          (optional)
#   /* cflags: -DSOMETHING */                     (optional)
# SECONDS=0 only builds. Environment: TIDE_FUZZ_JOBS (targets run at once,
# default 1), TIDE_FUZZ_BUILDDIR (the configured build tree whose config.h
# to use; default SRCDIR/_build when it has one), CC (default clang),
# TIDE_FUZZ_ARGS (extra libFuzzer options).
set -u

if [ "${1:-}" = "--one" ]; then
    # internal: run one built target (called through xargs for parallelism)
    name=$2
    bin="$OUT/bin/fuzz_$name"
    work="$OUT/corpus/$name"
    crashes="$OUT/crashes/$name"
    log="$OUT/logs/$name.log"
    rm -rf "$work" "$crashes"
    mkdir -p "$work" "$crashes"
    if [ -d "$SRC/tests/fuzz/corpus/$name" ]; then
        cp -R "$SRC/tests/fuzz/corpus/$name/." "$work/" 2>/dev/null
    fi
    start=$(date +%s)
    # libFuzzer stops by itself after SECONDS; the outer timeout only
    # guards against a wedged process.
    # shellcheck disable=SC2086
    timeout -k 10 $((SECS + 120)) "$bin" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$crashes/" ${TIDE_FUZZ_ARGS:-} "$work" \
        > "$log" 2>&1
    rc=$?
    secs=$(($(date +%s) - start))
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    [ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9][0-9]*\).*/\1/p' "$log" | tail -n 1)
    [ -n "$execs" ] || execs=0
    ncrash=$(find "$crashes" -type f | wc -l | tr -d ' ')
    if [ "$rc" -ne 0 ] && [ "$ncrash" -eq 0 ]; then
        ncrash=1 # died without leaving an input (e.g. killed by the outer timeout)
    fi
    {
        echo "fuzz.$name: $execs executions in $secs s, $ncrash crashes"
        if [ "$ncrash" -gt 0 ]; then
            find "$crashes" -type f | sed 's/^/  input: /'
            grep -E 'ERROR: |runtime error: |SUMMARY: ' "$log" | head -n 5 | sed 's/^/  /'
            echo "  log: $log"
        fi
    } > "$OUT/results/$name.txt"
    cat "$OUT/results/$name.txt"
    exit 0
fi

if [ $# -lt 2 ]; then
    echo "usage: $0 SRCDIR OUTDIR [SECONDS] [NAME...]" >&2
    exit 2
fi
SRC=$(cd "$1" && pwd) || exit 2
mkdir -p "$2" || exit 2
OUT=$(cd "$2" && pwd) || exit 2
SECS=${3:-30}
[ $# -ge 3 ] && shift 3 || shift $#
export SRC OUT SECS
CC=${CC:-clang}
JOBS=${TIDE_FUZZ_JOBS:-1}

if ! command -v "$CC" > /dev/null 2>&1; then
    echo "run.sh: $CC not found (tools/deps.sh installs clang and libclang-rt-14-dev)" >&2
    exit 2
fi

# The targets: the NAMEs given, else every tests/fuzz/fuzz_*.c.
names=""
if [ $# -gt 0 ]; then
    names="$*"
else
    for f in "$SRC"/tests/fuzz/fuzz_*.c; do
        [ -f "$f" ] || continue
        n=$(basename "$f" .c)
        names="$names ${n#fuzz_}"
    done
fi
if [ -z "$names" ]; then
    echo "run.sh: no fuzz targets in $SRC/tests/fuzz" >&2
    exit 2
fi

# config.h: from the configured build tree, or an empty stand-in (the
# decoders under test do not depend on what configure found).
BUILD=${TIDE_FUZZ_BUILDDIR:-$SRC/_build}
mkdir -p "$OUT/include" "$OUT/bin" "$OUT/logs" "$OUT/results" "$OUT/corpus" "$OUT/crashes"
if [ -f "$BUILD/config.h" ]; then
    cfg="-I$BUILD"
else
    : > "$OUT/include/config.h"
    cfg="-I$OUT/include"
fi
base="-std=gnu11 -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined \
-fno-sanitize-recover=all -I$SRC $cfg -I$SRC/common -I$SRC/pmix-glue -I$SRC/libmpi/include"
pc=$(pkg-config --cflags pmix libevent 2>/dev/null || true)

# the value of a "/* key: ... */" comment line of a target
meta() {
    sed -n "s|^/\* *$1: *\(.*\) *\*/ *\$|\1|p" "$2" | head -n 1
}

status=0
for n in $names; do
    t="$SRC/tests/fuzz/fuzz_$n.c"
    rm -f "$OUT/results/$n.txt"
    if [ ! -f "$t" ]; then
        echo "fuzz.$n: no such target ($t)" | tee "$OUT/results/$n.txt"
        status=1
        continue
    fi
    srcs=""
    for s in $(meta sources "$t"); do srcs="$srcs $SRC/$s"; done
    libs=$(meta libs "$t")
    extra=$(meta cflags "$t")
    # shellcheck disable=SC2086
    if ! $CC $base $pc $extra -o "$OUT/bin/fuzz_$n" "$t" $srcs $libs > "$OUT/logs/$n.build.log" 2>&1; then
        {
            echo "fuzz.$n: build failed"
            head -n 20 "$OUT/logs/$n.build.log" | sed 's/^/  /'
        } | tee "$OUT/results/$n.txt"
        status=1
    fi
done
[ "$SECS" -gt 0 ] 2> /dev/null || exit $status

built=""
for n in $names; do
    [ -x "$OUT/bin/fuzz_$n" ] && [ ! -f "$OUT/results/$n.txt" ] && built="$built $n"
done
# shellcheck disable=SC2086
printf '%s\n' $built | grep . | xargs -r -P "$JOBS" -n 1 sh "$0" --one
for n in $built; do
    if ! grep -q ', 0 crashes$' "$OUT/results/$n.txt" 2> /dev/null; then
        status=1
    fi
done
exit $status
