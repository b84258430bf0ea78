#!/bin/sh
# expect_ranks.sh N UNIVERSE COMMAND...: runs COMMAND (which runs
# slurm_ring.c's program), shows its output, and succeeds when the command
# did and its output has a hello line from each of the ranks 0..N-1 "of N"
# (with "universe UNIVERSE" unless UNIVERSE is -), no other hello line, and
# the ring's "ok" line.
n=$1; u=$2; shift 2
out=$("$@")
rc=$?
printf '%s\n' "$out"
[ $rc -eq 0 ] || { echo "expect_ranks: the command failed ($rc)" >&2; exit 1; }
ulabel="universe $u"
[ "$u" = - ] && ulabel="universe [0-9-]*"
i=0
while [ $i -lt "$n" ]; do
    if ! printf '%s\n' "$out" | grep -q "^hello from rank $i of $n $ulabel on "; then
        echo "expect_ranks: no hello from rank $i of $n ($ulabel)" >&2
        exit 1
    fi
    i=$((i + 1))
done
h=$(printf '%s\n' "$out" | grep -c '^hello from rank')
[ "$h" -eq "$n" ] || { echo "expect_ranks: $h hello lines, expected $n" >&2; exit 1; }
printf '%s\n' "$out" | grep -q "^ring ok across $n ranks" || { echo "expect_ranks: no ring ok line" >&2; exit 1; }
exit 0
