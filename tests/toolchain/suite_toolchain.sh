# suite_toolchain.sh: Tide as users' builds find it. Installs Tide into a
# prefix, moves the installation (it must keep working where it lands),
# then checks the wrappers' options (mpicc, mpicxx) and builds a small
# project (tests/toolchain/proj) with CMake's find_package(MPI), Meson's
# dependency('mpi') (through pkg-config, and through the wrappers) and
# autoconf's AX_MPI with Tide's bin first on PATH; each program must run
# under Tide's mpiexec and be linked with Tide's libmpi.

TC_TMP="$B/tests/toolchain-tmp"
TC_PROJ="$S/tests/toolchain/proj"
TC_P="$TC_TMP/moved"
# the CMake and Meson projects build Fortran programs too (use mpi, use
# mpi_f08) when Tide has the Fortran bindings
TC_FORTRAN=OFF
[ -x "$B/bin/mpifort" ] && TC_FORTRAN=ON

# tc_selected: does the filter select any case of this suite?
tc_selected() {
    [ -z "$T_FILTER" ] && return 0
    echo "toolchain.install toolchain.wrappers toolchain.relocated toolchain.cxx toolchain.cmake
toolchain.meson-pkgconfig toolchain.meson-wrappers toolchain.autotools toolchain.fortran" | tr ' ' '\n' | grep -Eq "$T_FILTER"
}

# install (staged with DESTDIR, as packagers do), then move the prefix
tc_install() {
    rm -rf "$TC_TMP"
    mkdir -p "$TC_TMP"
    prefix=$(sed -n 's/^prefix = //p' "$B/Makefile")
    make -s -C "$B" install DESTDIR="$TC_TMP/stage" > "$TC_TMP/install.log" 2>&1 ||
        { tail -20 "$TC_TMP/install.log"; return 1; }
    mv "$TC_TMP/stage$prefix" "$TC_P"
    for f in bin/mpicc bin/mpicxx bin/mpic++ bin/mpiCC bin/mpiexec bin/tided include/mpi.h \
             lib/pkgconfig/mpi.pc lib/pkgconfig/mpi-c.pc lib/pkgconfig/mpi-cxx.pc lib/pkgconfig/tide.pc; do
        [ -e "$TC_P/$f" ] || { echo "not installed: $f"; return 1; }
    done
}

# tc_linked_to_tide PROGRAM: its libmpi is the moved installation's
tc_linked_to_tide() {
    lib=$(ldd "$1" | awk '/libmpi/ {print $3}')
    case "$lib" in
    "$TC_P"/lib/*) return 0 ;;
    *) echo "$1 is linked with '$lib', not $TC_P/lib"; return 1 ;;
    esac
}

# tc_run PROGRAM WANT: runs it on 3 ranks with the moved mpiexec
tc_run() {
    out=$(timeout -k 5 60 "$TC_P/bin/mpiexec" -n 3 "$1" < /dev/null 2>&1)
    echo "$out"
    echo "$out" | grep -q "$2" || { echo "expected '$2'"; return 1; }
}

tc_wrappers() {
    w="$TC_P/bin"
    [ "$("$w/mpicc" -showme:compile)" = "-I$TC_P/include" ] || { echo "-showme:compile: $("$w/mpicc" -showme:compile)"; return 1; }
    [ "$("$w/mpicc" -showme:link)" = "-L$TC_P/lib -Wl,-rpath,$TC_P/lib -lmpi" ] ||
        { echo "-showme:link: $("$w/mpicc" -showme:link)"; return 1; }
    [ "$("$w/mpicxx" --showme:incdirs)" = "$TC_P/include" ] || return 1
    [ "$("$w/mpicxx" -showme:libdirs)" = "$TC_P/lib" ] || return 1
    [ "$("$w/mpicc" -showme:libs)" = "mpi" ] || return 1
    "$w/mpicc" -showme:version | grep -q "^mpicc: Tide MPI .* (Language: C)$" || return 1
    "$w/mpiCC" -showme:version | grep -q "^mpiCC: Tide MPI .* (Language: C++)$" || return 1
    # the whole command, and MPICH's forms
    "$w/mpicc" -show -O2 x.c | grep -q "^[^ ]* -I$TC_P/include -L$TC_P/lib -Wl,-rpath,$TC_P/lib -O2 x.c -lmpi$" ||
        { echo "-show: $("$w/mpicc" -show -O2 x.c)"; return 1; }
    "$w/mpicc" -compile_info -c x.c | grep -q -- "-I$TC_P/include -c x.c$" || return 1
    "$w/mpicc" -link_info x.o | grep -q -- "-L$TC_P/lib .* x.o -lmpi$" || return 1
    # the base compiler: Tide's variable, then Open MPI's, then MPICH's
    [ "$(MPICH_CC=m OMPI_CC=o TIDE_CC=t "$w/mpicc" -show x.c | cut -d' ' -f1)" = t ] || return 1
    [ "$(MPICH_CC=m OMPI_CC=o "$w/mpicc" -show x.c | cut -d' ' -f1)" = o ] || return 1
    [ "$(MPICH_CC=m "$w/mpicc" -show x.c | cut -d' ' -f1)" = m ] || return 1
    [ "$(MPICH_CXX=m OMPI_CXX=o TIDE_CXX=t "$w/mpicxx" -show x.cc | cut -d' ' -f1)" = t ] || return 1
    [ "$(OMPI_CXX=o "$w/mpic++" -show x.cc | cut -d' ' -f1)" = o ] || return 1
    "$w/mpicc" --help | grep -q "TIDE_CC, \$OMPI_CC, \$MPICH_CC" || { echo "--help does not name the variables"; return 1; }
    "$w/mpicc" -showme:bogus 2>&1 | grep -q "unknown option -showme:bogus" || return 1
    ! "$w/mpicc" -showme:bogus 2> /dev/null || return 1
    # pkg-config, from the moved tree
    for pc in mpi mpi-c mpi-cxx ompi-c; do
        flags=$(PKG_CONFIG_PATH="$TC_P/lib/pkgconfig" pkg-config --cflags --libs "$pc") || return 1
        echo "$flags" | grep -q -- "-I$TC_P/lib/pkgconfig/../../include" || { echo "$pc: $flags"; return 1; }
        echo "$flags" | grep -q -- "-lmpi" || return 1
    done
}

tc_relocated() {
    cd "$TC_TMP" || return 1
    "$TC_P/bin/mpicc" -o reloc_c "$TC_PROJ/hello.c" || return 1
    tc_linked_to_tide reloc_c || return 1
    tc_run ./reloc_c "proj-c: 3 ranks, sum 3, library Tide" || return 1
    # a wrapper that is not where the installation is: TIDE_PREFIX names it
    cp "$TC_P/bin/mpicc" "$TC_TMP/elsewhere-mpicc"
    [ "$(TIDE_PREFIX="$TC_P" sh "$TC_TMP/elsewhere-mpicc" -showme:incdirs)" = "$TC_P/include" ] ||
        { echo "TIDE_PREFIX ignored"; return 1; }
}

tc_cxx() {
    cd "$TC_TMP" || return 1
    for w in mpicxx mpic++ mpiCC; do
        "$TC_P/bin/$w" -Wall -Wextra -Werror -o "cxx_$w" "$TC_PROJ/hello.cc" || return 1
    done
    tc_linked_to_tide cxx_mpicxx || return 1
    tc_run ./cxx_mpiCC "proj-cxx: 3 ranks, sum 3"
}

tc_fortran() {
    cd "$TC_TMP" || return 1
    for w in mpifort mpif90 mpif77; do
        [ -x "$TC_P/bin/$w" ] || { echo "not installed: $w"; return 1; }
    done
    for f in mpif.h mpi.mod mpi_f08.mod mpif-ext.h mpi_ext.mod mpi_ext_f08.mod mpi-ext.h; do
        [ -f "$TC_P/include/$f" ] || { echo "not installed: include/$f"; return 1; }
    done
    "$TC_P/bin/mpifort" -showme:version | grep -q "^mpifort: Tide MPI .* (Language: Fortran)$" || return 1
    [ "$("$TC_P/bin/mpif90" -showme:libs)" = "mpi_mpifh mpi" ] || return 1
    "$TC_P/bin/mpifort" -Werror -o f_mod "$TC_PROJ/hello_mod.f90" || return 1
    "$TC_P/bin/mpif77" -o f_fh "$TC_PROJ/hello_fh.f90" || return 1
    "$TC_P/bin/mpif90" -Wall -Werror -o f_f08 "$TC_PROJ/hello_f08.f90" || return 1
    tc_linked_to_tide f_mod && tc_linked_to_tide f_f08 || return 1
    tc_run ./f_mod "proj-f: 3 ranks, sum 3" && tc_run ./f_fh "proj-fh: 3 ranks, sum 3" &&
        tc_run ./f_f08 "proj-f08: 3 ranks, sum 3"
}

tc_cmake() {
    rm -rf "$TC_TMP/cmake"
    PATH="$TC_P/bin:$PATH" cmake -DWITH_FORTRAN=$TC_FORTRAN -S "$TC_PROJ" -B "$TC_TMP/cmake" > "$TC_TMP/cmake.log" 2>&1 ||
        { tail -30 "$TC_TMP/cmake.log"; return 1; }
    cat "$TC_TMP/cmake/found.txt"
    grep -q "^MPIEXEC_EXECUTABLE=$TC_P/bin/mpiexec$" "$TC_TMP/cmake/found.txt" || { echo "mpiexec not Tide's"; return 1; }
    cmake --build "$TC_TMP/cmake" > "$TC_TMP/cmake-build.log" 2>&1 || { tail -30 "$TC_TMP/cmake-build.log"; return 1; }
    tc_linked_to_tide "$TC_TMP/cmake/proj_c" && tc_linked_to_tide "$TC_TMP/cmake/proj_cxx" || return 1
    tc_run "$TC_TMP/cmake/proj_c" "proj-c: 3 ranks, sum 3, library Tide" &&
        tc_run "$TC_TMP/cmake/proj_cxx" "proj-cxx: 3 ranks, sum 3" || return 1
    [ $TC_FORTRAN = OFF ] || { tc_linked_to_tide "$TC_TMP/cmake/proj_f" && tc_run "$TC_TMP/cmake/proj_f" "proj-f: 3 ranks, sum 3" &&
        tc_linked_to_tide "$TC_TMP/cmake/proj_f08" && tc_run "$TC_TMP/cmake/proj_f08" "proj-f08: 3 ranks, sum 3"; }
}

# tc_meson METHOD ENV...: configure with dependency('mpi', method: METHOD)
tc_meson() {
    method=$1; shift
    d="$TC_TMP/meson-$method"
    rm -rf "$d"
    mf=false; [ $TC_FORTRAN = OFF ] || mf=true
    env "$@" meson setup -Dmpi_method="$method" -Dwith_fortran=$mf "$d" "$TC_PROJ" > "$d.log" 2>&1 || { tail -30 "$d.log"; return 1; }
    ninja -C "$d" > "$d-build.log" 2>&1 || { tail -30 "$d-build.log"; return 1; }
    tc_linked_to_tide "$d/proj_c" && tc_linked_to_tide "$d/proj_cxx" || return 1
    tc_run "$d/proj_c" "proj-c: 3 ranks, sum 3, library Tide" && tc_run "$d/proj_cxx" "proj-cxx: 3 ranks, sum 3" || return 1
    [ $mf = false ] || { tc_linked_to_tide "$d/proj_f" && tc_run "$d/proj_f" "proj-f: 3 ranks, sum 3" &&
        tc_linked_to_tide "$d/proj_f08" && tc_run "$d/proj_f08" "proj-f08: 3 ranks, sum 3"; }
}

tc_autotools() {
    d="$TC_TMP/autotools"
    rm -rf "$d"
    mkdir -p "$d/m4"
    cp "$TC_PROJ/configure.ac" "$TC_PROJ/Makefile.in" "$TC_PROJ/hello.c" "$d/"
    cd "$d" || return 1
    autoreconf -i > autoreconf.log 2>&1 || { tail -20 autoreconf.log; return 1; }
    PATH="$TC_P/bin:$PATH" ./configure CC="$TC_P/bin/mpicc" > configure.log 2>&1 || { tail -30 configure.log; return 1; }
    # as a user whose PATH has Tide first (AX_MPI records the name mpicc)
    PATH="$TC_P/bin:$PATH" make > make.log 2>&1 || { tail -20 make.log; return 1; }
    tc_linked_to_tide proj_c && tc_run ./proj_c "proj-c: 3 ranks, sum 3, library Tide"
}

# tc_need TOOL...: skip the case (with a reason) when a tool is missing
tc_have() {
    for t in "$@"; do
        command -v "$t" > /dev/null 2>&1 || return 1
    done
}

if tc_selected; then
    tcheck toolchain.install tc_install
    if [ -x "$TC_P/bin/mpicc" ]; then
        tcheck toolchain.wrappers tc_wrappers
        tcheck toolchain.relocated tc_relocated
        if tc_have g++; then tcheck toolchain.cxx tc_cxx; else tskip toolchain.cxx "no g++"; fi
        if [ -x "$B/bin/mpifort" ]; then tcheck toolchain.fortran tc_fortran; else tskip toolchain.fortran "built without Fortran"; fi
        if tc_have cmake g++; then tcheck toolchain.cmake tc_cmake; else tskip toolchain.cmake "no cmake"; fi
        if tc_have meson ninja g++; then
            tcheck toolchain.meson-pkgconfig tc_meson pkg-config PKG_CONFIG_PATH="$TC_P/lib/pkgconfig"
            tcheck toolchain.meson-wrappers tc_meson config-tool PATH="$TC_P/bin:$PATH"
        else
            tskip toolchain.meson "no meson/ninja"
        fi
        if tc_have autoreconf && [ -f /usr/share/aclocal/ax_mpi.m4 ]; then
            tcheck toolchain.autotools tc_autotools
        else
            tskip toolchain.autotools "no autoconf-archive (AX_MPI)"
        fi
    fi
fi
