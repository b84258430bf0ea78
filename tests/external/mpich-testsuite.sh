#!/bin/sh
# tests/external/mpich-testsuite.sh [BUILD_DIR]: builds MPICH's test suite
# (test/mpi of Debian's mpich source package) with an MPI's compiler
# wrappers (by default Tide's, from BUILD_DIR, itself by default _build next
# to this tree) and runs its tests as MPICH's testlist files describe them
# (number of processes, arguments, environment, time limit, expected
# failures), each under a timeout. A test passes when it exits 0 and prints
# "No Errors", as MPICH's runtests decides. Prints one line per test and a
# final "N passed, N failed"; each test's output is kept in the log
# directory named at the end. Not part of tests/run-all.sh: it downloads the
# MPICH source (once) and takes a while to build.
#
# Environment:
#   MPICH_WORK     where the source and builds are kept between runs
#                  (/var/tmp/tide-mpich); one build per MPI
#   MPICH_MPI      the MPI's prefix: its bin/ has mpicc, mpifort (mpif77,
#                  mpif90) and mpiexec (BUILD_DIR)
#   MPICH_MPIEXEC  launcher (MPICH_MPI/bin/mpiexec)
#   MPICH_MPIEXEC_ARGS  its options before -n (for an mpiexec taking it,
#                  "--universe-size 64": the spawn tests go on only where
#                  MPI_UNIVERSE_SIZE exceeds the size of MPI_COMM_WORLD, the
#                  spawned children's included, and the machine's cores are
#                  the default universe)
#   MPICH_DIRS     directories of test/mpi to build and run, e.g.
#                  "f77 f90 f08" or "f77/io coll" (all of test/mpi's testlist)
#   MPICH_TESTS    names of tests to run within them (all); a regex (grep -E)
#   MPICH_TIMEOUT  seconds per test when its testlist gives no timeLimit (180,
#                  as MPICH's runtests)
#   MPICH_XFAIL=1  run the tests the testlists mark xfail too (counted as
#                  expected failures unless they pass)
#   MPICH_CLEAN=1  configure and build again from scratch
# The source comes from `apt-get source mpich`; a deb-src entry for the
# Debian archive is added under /etc/apt/sources.list.d when none exists.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src_dir=$(cd "$here/../.." && pwd)
build_dir=${1:-$src_dir/_build}
[ -d "$build_dir" ] && build_dir=$(cd "$build_dir" && pwd)
mpi=${MPICH_MPI:-$build_dir}
mpiexec=${MPICH_MPIEXEC:-$mpi/bin/mpiexec}
default_timeout=${MPICH_TIMEOUT:-180}
if [ -z "${MPICH_MPIEXEC_ARGS+set}" ]; then
    MPICH_MPIEXEC_ARGS=
    "$mpiexec" --help 2>&1 | grep -q -- '--universe-size' && MPICH_MPIEXEC_ARGS="--universe-size 64"
fi
work=${MPICH_WORK:-/var/tmp/tide-mpich}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

die() { echo "mpich-testsuite: $*" >&2; exit 1; }
. "$here/../debsrc.sh"
[ -x "$mpi/bin/mpicc" ] || die "no mpicc in $mpi/bin (build Tide first, or set MPICH_MPI)"
command -v "$mpiexec" >/dev/null 2>&1 || die "no mpiexec: $mpiexec"
mkdir -p "$work" || die "cannot create $work"

# 1. the source, once
src=$(ls -d "$work"/src/mpich-*/ 2>/dev/null | head -n 1)
if [ -z "$src" ] || [ ! -x "$src/test/mpi/configure" ]; then
    ensure_deb_src || die "no deb-src entry for apt-get source"
    rm -rf "$work/src"
    mkdir -p "$work/src"
    (cd "$work/src" && apt-get source mpich > "$work/apt-source.log" 2>&1) || die "apt-get source mpich failed, see $work/apt-source.log"
    src=$(ls -d "$work"/src/mpich-*/ | head -n 1)
    [ -x "$src/test/mpi/configure" ] || die "no test/mpi/configure in $src"
fi
src=${src%/}/test/mpi

# 2. configure (test/mpi's own configure, against the MPI's wrappers), one
# build directory per MPI
tag=$(printf '%s' "$mpi" | cksum | cut -d' ' -f1)
obj="$work/build-$tag"
[ "${MPICH_CLEAN:-0}" = 1 ] && rm -rf "$obj"
mkdir -p "$obj"
echo "mpich-testsuite: source $src"
echo "mpich-testsuite: build $obj (MPI $mpi)"
if [ ! -f "$obj/config.status" ]; then
    (cd "$obj" && "$src/configure" --with-mpi="$mpi" --enable-fortran=all --disable-cxx \
        --enable-romio --enable-spawn --enable-rma MPIEXEC="$mpiexec" \
        > configure.log 2>&1) || die "configure failed, see $obj/configure.log"
    # test/mpi's configure enables its f08 part (the helper library
    # util/libmtest_f08.la, the conditional HAS_F08) only when MPICH's own
    # configure runs it (FROM_MPICH=yes, which also points it into MPICH's
    # build tree): turn the conditional on in config.status and make the
    # Makefiles again
    if grep -q 'S\["HAS_F08_TRUE"\]="#"' "$obj/config.status"; then
        sed -i -e 's/^S\["HAS_F08_TRUE"\]="#"/S["HAS_F08_TRUE"]=""/' \
            -e 's/^S\["HAS_F08_FALSE"\]=""/S["HAS_F08_FALSE"]="#"/' \
            -e 's/^S\["f08dir"\]="#"/S["f08dir"]="f08"/' "$obj/config.status"
        (cd "$obj" && ./config.status > config-f08.log 2>&1) || die "config.status failed, see $obj/config-f08.log"
    fi
fi

# 3. the directories: those named, else every one the top testlist names
dirs=${MPICH_DIRS:-$(grep -v '^#' "$obj/testlist" | awk 'NF { print $1 }')}

# Fortran module files changed since the last build (the MPI rebuilt):
# gfortran records the module procedures' names in the objects, and
# nothing in MPICH's Makefiles depends on the modules, so the objects
# (util/'s helper libraries included) are made again
incdirs=$("$mpi/bin/mpifort" -showme:incdirs 2>/dev/null)
modsum=$(for d in $incdirs; do cat "$d"/*.mod 2>/dev/null; done | cksum)
if [ -f "$obj/.modsum" ] && [ "$(cat "$obj/.modsum")" != "$modsum" ]; then
    echo "mpich-testsuite: the MPI's Fortran modules changed: cleaning the build"
    for d in util $dirs; do make -C "$obj/$d" clean > /dev/null 2>&1; done
    # (util's clean leaves the helper libraries' .la files, which then
    # look up to date)
    rm -rf "$obj"/util/*.la "$obj"/util/*.lo "$obj"/util/*.o "$obj"/util/.libs
fi
echo "$modsum" > "$obj/.modsum"

# each directory is built with make -k: a test that does not build fails
# alone (its line says so); the f08 tests' helper library (util/
# libmtest_f08.la) is built by their Makefiles
t0=$(date +%s)
for d in $dirs; do
    [ -d "$obj/$d" ] || die "no directory $d in $obj"
    make -k -j2 -C "$obj/$d" > "$obj/$(echo "$d" | tr / _)-make.log" 2>&1
done
echo "mpich-testsuite: built in $(( $(date +%s) - t0 )) s"

logs="$obj/logs"
rm -rf "$logs"
mkdir -p "$logs"
passed=0
failed=0
xfailed=0
skipped=0
failed_names=""

# one testlist line: name nprocs [arg=..] [env=..] [timeLimit=..] [xfail=..]
# [mpiversion=..] [strict=..] [mem=..]
run_line() { # dir, the line's words
    dir=$1
    shift
    name=$1
    np=$2
    shift 2
    args=""
    envs=""
    limit=$default_timeout
    xfail=""
    for kv in "$@"; do
        case $kv in
            arg=*) args="$args ${kv#arg=}" ;;
            env=*) envs="$envs ${kv#env=}" ;;
            timeLimit=*) limit=${kv#timeLimit=} ;;
            xfail=*) xfail=${kv#xfail=} ;;
            mem=*) echo "SKIP  $dir/$name (needs ${kv#mem=} GB of memory)"; skipped=$((skipped + 1)); return ;;
        esac
    done
    if [ -n "$xfail" ] && [ "${MPICH_XFAIL:-0}" != 1 ]; then
        skipped=$((skipped + 1))
        return
    fi
    label="$dir/$name"
    [ -n "$args" ] && label="$label$(echo "$args" | tr ' ' '_')"
    [ "$np" != 1 ] && label="$label:$np"
    log="$logs/$(echo "$label" | tr '/: ' '___').log"
    start=$(date +%s)
    # a program make all leaves out (EXTRA_PROGRAMS, as f08/ext/allocmemf90)
    # is made when it is run, as MPICH's runtests does
    [ -x "$obj/$dir/$name" ] || make -C "$obj/$dir" "$name" > /dev/null 2>&1
    if [ ! -x "$obj/$dir/$name" ]; then
        rc=127
        echo "not built (see $obj/$(echo "${dir%%/*}" | tr / _)-make.log)" > "$log"
    else
        # shellcheck disable=SC2086
        (cd "$obj/$dir" && env $envs timeout -k 10 "$limit" "$mpiexec" $MPICH_MPIEXEC_ARGS -n "$np" "./$name" $args) > "$log" 2>&1
        rc=$?
    fi
    secs=$(( $(date +%s) - start ))
    ok=0
    [ $rc -eq 0 ] && grep -q '^ *No Errors *$' "$log" && ok=1
    if [ $ok = 1 ] && [ -z "$xfail" ]; then
        passed=$((passed + 1))
        printf 'PASS  %-40s %4s s\n' "$label" "$secs"
    elif [ $ok = 0 ] && [ -n "$xfail" ]; then
        xfailed=$((xfailed + 1))
        printf 'XFAIL %-40s %4s s  (%s)\n' "$label" "$secs" "$xfail"
    else
        failed=$((failed + 1))
        failed_names="$failed_names $label"
        why="exit $rc"
        [ $rc -eq 124 ] || [ $rc -eq 137 ] && why="timeout after $limit s"
        [ $rc -eq 127 ] && why="not built"
        [ $rc -eq 0 ] && why="no \"No Errors\""
        [ $ok = 1 ] && why="passed, but marked xfail: $xfail"
        printf 'FAIL  %-40s %4s s  (%s)\n' "$label" "$secs" "$why"
        grep -v '^ *No Errors' "$log" | head -n 5 | sed 's/^/      /'
    fi
}

# every test line under a directory, as "dir words...": a line of one word
# naming a subdirectory is that directory's testlist
list_tests() { # dir (relative to $obj)
    # configure writes the testlists made from testlist.in; the others are
    # read from the source
    tl="$obj/$1/testlist"
    [ -f "$tl" ] || tl="$src/$1/testlist"
    [ -f "$tl" ] || { echo "mpich-testsuite: no testlist in $1" >&2; return; }
    sed 's/#.*//' "$tl" | awk 'NF' | while read -r first rest; do
        if [ -z "$rest" ] && [ -d "$obj/$1/$first" ]; then
            list_tests "$1/$first"
        elif [ -z "$rest" ]; then
            : # a directory configure left out (@iodir@ and the like when disabled)
        else
            echo "$1 $first $rest"
        fi
    done
}
all_lines=$(for d in $dirs; do list_tests "$d"; done)
oldifs=$IFS
IFS='
'
for line in $all_lines; do
    IFS=$oldifs
    # shellcheck disable=SC2086
    set -- $line
    if [ -z "${MPICH_TESTS:-}" ] || echo "$2" | grep -Eq "^(${MPICH_TESTS})$"; then
        run_line "$@" < /dev/null
    fi
done
IFS=$oldifs
echo "logs: $logs"
[ -n "$failed_names" ] && echo "failed:$failed_names"
echo "$passed passed, $failed failed ($xfailed expected failures, $skipped not run)"
[ $failed -eq 0 ]
