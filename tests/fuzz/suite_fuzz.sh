# suite_fuzz.sh: sourced by tests/run-all.sh. One case fuzz.NAME per
# libFuzzer target tests/fuzz/fuzz_NAME.c: tests/fuzz/run.sh builds it
# and runs it for TIDE_FUZZ_SECONDS (default 20) on a copy of its seed
# corpus, two targets at a time; the case fails on a crash, a leak, a
# hang or a build failure. Crash inputs are kept in $B/tests/fuzz/crashes.
# Skipped when clang or its libFuzzer runtime is missing (tools/deps.sh
# installs clang and libclang-rt-14-dev).

fz_names=""
for fz_src in "$S"/tests/fuzz/fuzz_*.c; do
    [ -f "$fz_src" ] || continue
    fz_n=$(basename "$fz_src" .c)
    fz_n=${fz_n#fuzz_}
    if [ -n "$T_FILTER" ] && ! echo "fuzz.$fz_n" | grep -Eq "$T_FILTER"; then
        continue
    fi
    fz_names="$fz_names $fz_n"
done

fz_skip=""
if [ -n "$fz_names" ]; then
    if ! command -v clang > /dev/null 2>&1; then
        fz_skip="clang is not installed (tools/deps.sh installs it)"
    elif ! echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; return (int)n * 0; }' |
            clang -x c -fsanitize=fuzzer -o "$T_LOGDIR/fuzz-probe" - > "$T_LOGDIR/fuzz-probe.log" 2>&1; then
        fz_skip="clang cannot link -fsanitize=fuzzer (the libFuzzer runtime, libclang-rt-14-dev, is missing)"
    fi
    rm -f "$T_LOGDIR/fuzz-probe"
fi

if [ -n "$fz_skip" ]; then
    for fz_n in $fz_names; do tskip "fuzz.$fz_n" "$fz_skip"; done
elif [ -n "$fz_names" ]; then
    fz_secs=${TIDE_FUZZ_SECONDS:-20}
    fz_out="$B/tests/fuzz"
    # shellcheck disable=SC2086
    TIDE_FUZZ_JOBS=2 TIDE_FUZZ_BUILDDIR="$B" timeout -k 10 $(( (fz_secs + 150) * 8 )) \
        sh "$S/tests/fuzz/run.sh" "$S" "$fz_out" "$fz_secs" $fz_names \
        > "$T_LOGDIR/fuzz-run.out" 2>&1
    for fz_n in $fz_names; do
        # the verdict run.sh wrote: "fuzz.NAME: N executions in S s, 0 crashes"
        tcase "fuzz.$fz_n" -t 10 -out ', 0 crashes$' -- cat "$fz_out/results/$fz_n.txt"
        [ -f "$fz_out/results/$fz_n.txt" ] && head -n 1 "$fz_out/results/$fz_n.txt"
    done
fi
unset fz_names fz_src fz_n fz_skip fz_secs fz_out
