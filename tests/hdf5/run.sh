#!/bin/sh
# tests/hdf5/run.sh [BUILD_DIR]: builds the parallel HDF5 library from
# Debian's source package with an MPI's mpicc (by default Tide's, from
# BUILD_DIR, itself by default _build next to this tree) and runs HDF5's
# parallel test programs (testpar/, the ones "make check" runs there), each
# under a timeout. Prints one line per test program and a final
# "N passed, N failed"; the output of each program is kept in the log
# directory named at the end. Not part of tests/run-all.sh: it downloads
# the HDF5 source (once) and takes a while to build.
#
# Environment:
#   HDF5_WORK     where the source and builds are kept between runs
#                 (/var/tmp/tide-hdf5); one build per mpicc
#   HDF5_MPICC    compiler wrapper (BUILD_DIR/bin/mpicc); e.g. mpicc.mpich
#   HDF5_MPIEXEC  launcher (BUILD_DIR/bin/mpiexec); e.g. mpiexec.mpich
#   HDF5_NPROCS   ranks per test (6, as HDF5's own default)
#   HDF5_TIMEOUT  seconds per test program (1800; t_cache_image, which is
#                 mostly HDF5's own computation, took 600-1000 s with
#                 6 ranks on 2 cores)
#   HDF5_TESTS    test programs to run (all of testpar's)
#   HDF5_CLEAN=1  configure and build again from scratch
#   HDF5_TESTFLAGS extra arguments for every test program
# The source comes from `apt-get source hdf5`; a deb-src entry for the
# Debian archive is added under /etc/apt/sources.list.d when none exists.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src_dir=$(cd "$here/../.." && pwd)
build_dir=${1:-$src_dir/_build}
[ -d "$build_dir" ] && build_dir=$(cd "$build_dir" && pwd)
mpicc=${HDF5_MPICC:-$build_dir/bin/mpicc}
mpiexec=${HDF5_MPIEXEC:-$build_dir/bin/mpiexec}
nprocs=${HDF5_NPROCS:-6}
per_test_timeout=${HDF5_TIMEOUT:-1800}
work=${HDF5_WORK:-/var/tmp/tide-hdf5}
all_tests="t_mpi t_bigio testphdf5 t_cache t_cache_image t_pread t_pshutdown t_prestart t_init_term t_shapesame t_filters_parallel t_pflush"
tests=${HDF5_TESTS:-$all_tests}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

die() { echo "hdf5: $*" >&2; exit 1; }
. "$here/../debsrc.sh"
command -v "$mpicc" >/dev/null 2>&1 || die "no mpicc: $mpicc (build Tide first, or set HDF5_MPICC)"
command -v "$mpiexec" >/dev/null 2>&1 || die "no mpiexec: $mpiexec"
mkdir -p "$work" || die "cannot create $work"

# 1. the source, once
src=$(ls -d "$work"/src/hdf5-*/ 2>/dev/null | head -n 1)
if [ -z "$src" ] || [ ! -x "$src/configure" ]; then
    ensure_deb_src || die "no deb-src entry for apt-get source"
    rm -rf "$work/src"
    mkdir -p "$work/src"
    (cd "$work/src" && apt-get source hdf5 > "$work/apt-source.log" 2>&1) || die "apt-get source hdf5 failed, see $work/apt-source.log"
    src=$(ls -d "$work"/src/hdf5-*/ | head -n 1)
    [ -x "$src/configure" ] || die "no configure in $src"
fi
src=${src%/}

# 2. configure and build, one build directory per compiler wrapper
tag=$(printf '%s' "$(command -v "$mpicc")" | cksum | cut -d' ' -f1)
obj="$work/build-$(basename "$mpicc")-$tag"
[ "${HDF5_CLEAN:-0}" = 1 ] && rm -rf "$obj"
mkdir -p "$obj"
echo "hdf5: source $src"
echo "hdf5: build $obj (CC=$mpicc)"
t0=$(date +%s)
if [ ! -f "$obj/config.status" ]; then
    (cd "$obj" && CC="$mpicc" "$src/configure" --enable-parallel --disable-shared \
        --disable-fortran --disable-cxx --disable-java --disable-hl --disable-tools \
        --enable-build-mode=production RUNPARALLEL="$mpiexec -n $nprocs" \
        > configure.log 2>&1) || die "configure failed, see $obj/configure.log"
fi
# the library, the test support library, then the parallel test programs
(cd "$obj" && make -j2 -C src > make.log 2>&1 && make -j2 -C test libh5test.la >> make.log 2>&1 &&
    make -j2 -C testpar t_mpi t_bigio testphdf5 t_cache t_cache_image t_pread t_pshutdown \
        t_prestart t_init_term t_shapesame t_filters_parallel t_pflush1 t_pflush2 >> make.log 2>&1) ||
    die "build failed, see $obj/make.log"
echo "hdf5: built in $(( $(date +%s) - t0 )) s"

# 3. the tests, in testpar's order (t_prestart reads what t_pshutdown wrote)
logs="$obj/logs"
rm -rf "$logs"
mkdir -p "$logs"
cd "$obj/testpar" || die "no $obj/testpar"
passed=0
failed=0
failed_names=""
run_one() { # name, program: runs it under the timeout, output in $logs/name.log
    timeout -k 10 "$per_test_timeout" $mpiexec -n "$nprocs" "./$2" ${HDF5_TESTFLAGS:-} >> "$logs/$1.log" 2>&1
}
for t in $tests; do
    start=$(date +%s)
    : > "$logs/$t.log"
    if [ "$t" = t_pflush ]; then
        # t_pflush1 leaves without closing the file (exits before
        # MPI_Finalize on purpose); only t_pflush2's status counts
        run_one "$t" t_pflush1
        run_one "$t" t_pflush2
    else
        run_one "$t" "$t"
    fi
    rc=$?
    secs=$(( $(date +%s) - start ))
    if [ $rc -eq 0 ]; then
        passed=$((passed + 1))
        printf 'PASS  %-20s %5s s\n' "$t" "$secs"
    else
        failed=$((failed + 1))
        failed_names="$failed_names $t"
        why="exit $rc"
        [ $rc -eq 124 ] || [ $rc -eq 137 ] && why="timeout after $per_test_timeout s"
        printf 'FAIL  %-20s %5s s  (%s)\n' "$t" "$secs" "$why"
        grep -iE 'fail|error|abort|assert|signal|wrong|mismatch' "$logs/$t.log" | head -n 5 | sed 's/^/      /'
    fi
done
echo "logs: $logs"
[ -n "$failed_names" ] && echo "failed:$failed_names"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
