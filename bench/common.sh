# common.sh: shared by the bench/run-*.sh scripts. Finds Tide's build and
# the other MPI implementations installed on this machine, and times
# commands (medians of several runs: the machine is shared and noisy).

BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
SRC_DIR=$(cd "$BENCH_DIR/.." && pwd)
TIDE_BUILD=${TIDE_BUILD:-$SRC_DIR/_build}
OUT=${BENCH_OUT:-$TIDE_BUILD/bench}
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# impls: name, compiler, launcher (extra launcher flags after the launcher)
IMPLS="tide"
TIDE_CC="$TIDE_BUILD/bin/mpicc"
TIDE_RUN="$TIDE_BUILD/bin/mpiexec"
if command -v mpicc.openmpi >/dev/null 2>&1 && command -v mpiexec.openmpi >/dev/null 2>&1; then
    IMPLS="$IMPLS openmpi"
fi
OPENMPI_CC=mpicc.openmpi
OPENMPI_RUN="mpiexec.openmpi --oversubscribe"
if command -v mpicc.mpich >/dev/null 2>&1 && command -v mpiexec.mpich >/dev/null 2>&1; then
    IMPLS="$IMPLS mpich"
fi
MPICH_CC=mpicc.mpich
MPICH_RUN=mpiexec.mpich

impl_cc() { case $1 in tide) echo "$TIDE_CC" ;; openmpi) echo "$OPENMPI_CC" ;; mpich) echo "$MPICH_CC" ;; esac; }
impl_run() { case $1 in tide) echo "$TIDE_RUN" ;; openmpi) echo "$OPENMPI_RUN" ;; mpich) echo "$MPICH_RUN" ;; esac; }

# build SRC for every implementation: $OUT/<name>.<impl>
bench_build() {
    src=$1
    name=$(basename "$src" .c)
    for impl in $IMPLS; do
        $(impl_cc $impl) -O2 -o "$OUT/$name.$impl" "$src" -lm || { echo "build of $name with $impl failed"; exit 1; }
    done
}

# median of the numbers on stdin
median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) print "nan"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

# wall time of a command in milliseconds
time_ms() {
    t0=$(date +%s%N)
    "$@" > /dev/null 2>&1
    t1=$(date +%s%N)
    echo $(( (t1 - t0) / 1000 )) | awk '{printf "%.2f\n", $1 / 1000}'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
