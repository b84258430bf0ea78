#!/bin/sh
# run-datatype.sh BUILDDIR [RUNS] [pack|sendrecv|all]: the datatype
# benchmark (bench/dt_bench.c) built with Tide's mpicc (from BUILDDIR),
# Open MPI's mpicc.openmpi and MPICH's mpicc.mpich, run RUNS times each
# (interleaved, 2 ranks on this machine), then one line per case with the
# median MB/s of every MPI and Tide's ratio to each:
#   op type bytes  tide ompi mpich  tide/ompi tide/mpich
# An MPI that is not installed is skipped.
B=${1:?usage: run-datatype.sh BUILDDIR [RUNS] [pack|sendrecv|all]}
RUNS=${2:-5}
WHAT=${3:-all}
S=$(cd "$(dirname "$0")/.." && pwd)
W=$(mktemp -d /tmp/tide-dtbench.XXXXXX)
trap 'rm -rf "$W"' EXIT

"$B/bin/mpicc" -O2 -o "$W/tide" "$S/bench/dt_bench.c" || exit 1
impls="tide"
if command -v mpicc.openmpi > /dev/null && mpicc.openmpi -O2 -o "$W/ompi" "$S/bench/dt_bench.c"; then
    impls="$impls ompi"
fi
if command -v mpicc.mpich > /dev/null && mpicc.mpich -O2 -o "$W/mpich" "$S/bench/dt_bench.c"; then
    impls="$impls mpich"
fi

# run IMPL NPROCS WHAT
run() {
    case $1 in
    tide) "$B/bin/mpiexec" -n "$2" "$W/tide" "$3" ;;
    ompi) OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
          mpiexec.openmpi --oversubscribe -n "$2" "$W/ompi" "$3" ;;
    mpich) mpiexec.mpich -n "$2" "$W/mpich" "$3" ;;
    esac
}

r=1
while [ $r -le "$RUNS" ]; do
    for i in $impls; do
        if [ "$WHAT" = pack ] || [ "$WHAT" = all ]; then
            run "$i" 1 pack 2>> "$W/$i.err" | sed "s/^/$i /" >> "$W/all"
        fi
        if [ "$WHAT" = sendrecv ] || [ "$WHAT" = all ]; then
            run "$i" 2 sendrecv 2>> "$W/$i.err" | sed "s/^/$i /" >> "$W/all"
        fi
    done
    r=$((r + 1))
done

# median per (impl, op, type, bytes), then the table
awk -v impls="$impls" '
function median(list,    n, a, i, j, t) {
    n = split(list, a, " ")
    for (i = 2; i <= n; i++) {
        t = a[i] + 0
        for (j = i - 1; j >= 1 && a[j] + 0 > t; j--)
            a[j + 1] = a[j]
        a[j + 1] = t
    }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
NF == 5 {
    key = $2 " " $3 " " $4
    v[$1, key] = v[$1, key] " " $5
    if (!(key in seen)) { seen[key] = 1; order[++nk] = key }
}
END {
    printf "%-9s %-8s %9s %9s %9s %9s %10s %11s\n", "op", "type", "bytes", "tide", "ompi", "mpich", "tide/ompi", "tide/mpich"
    for (k = 1; k <= nk; k++) {
        key = order[k]
        split(key, p, " ")
        t = median(v["tide", key]); o = ("ompi", key) in v ? median(v["ompi", key]) : 0
        m = ("mpich", key) in v ? median(v["mpich", key]) : 0
        printf "%-9s %-8s %9s %9.0f %9.0f %9.0f %10s %11s\n", p[1], p[2], p[3], t, o, m,
            o ? sprintf("%.2f", t / o) : "-", m ? sprintf("%.2f", t / m) : "-"
    }
}' "$W/all"
