# suite_fortran.sh: the Fortran bindings. Each program of tests/fortran is
# compiled with the build tree's mpifort (include 'mpif.h' or use mpi) and
# run with mpiexec: hello, ring with statuses, nonblocking with arrays of
# statuses, collectives on Fortran types, attributes with Fortran
# callbacks, MPI-IO, communicator names, a derived
# type, error handlers and ierror, spawn between C and Fortran; the same
# with `use mpi_f08` (f08_*.f90: handle types, TYPE(MPI_Status), optional
# ierror, large counts, TYPE(C_PTR) memory and RMA, attribute callbacks,
# non-contiguous array sections as choice buffers, the status conversions
# of `use mpi`);
# memory as Cray pointers and TYPE(C_PTR) in mpif.h and `use mpi`;
# generalized requests and data representations with Fortran callbacks;
# MPI_Comm_spawn_multiple of a Fortran child; a Fortran ocean and a
# C atmosphere, two jobs coupled through a port; failure mitigation
# (use mpi_ext, use mpi_ext_f08) with a rank killed; endpoints with OpenMP
# threads (use mpi_ext, use mpi_ext_f08). Skipped when Tide was
# built without Fortran.

# the C side of the mpi_f08 statuses (tests/mpi/status_f08.c), with or
# without Fortran
tcase fortran.status-f08-c -t 60 -out "status_f08: ok on 2 ranks" -- $MPIEXEC -n 2 "$TB/status_f08"

if [ -x "$B/bin/mpifort" ]; then
    FB="$B/tests/fortran/bin"
    mkdir -p "$FB"
    # the C half of f08_status_c
    tcase fortran.build.c_status_f08 -t 120 -- \
        "$B/bin/mpicc" -O1 -g -Wall -Wextra -Werror -c -o "$FB/c_status_f08.o" "$S/tests/fortran/c_status_f08.c"
    # the C half of f_attr_lang
    tcase fortran.build.c_attr_lang -t 120 -- \
        "$B/bin/mpicc" -O1 -g -Wall -Wextra -Werror -c -o "$FB/c_attr_lang.o" "$S/tests/fortran/c_attr_lang.c"
    for src in "$S"/tests/fortran/*.f90; do
        n=$(basename "$src" .f90)
        # with mpif.h gfortran warns of buffers of several types (no
        # interfaces); `use mpi` programs build with -Werror; the module
        # files of the programs' own modules go to bin/, not the cwd
        werror=-Werror
        grep -q "include 'mpif.h'" "$src" && werror=
        # a program may ask for more flags: "! build-flags: -fcray-pointer"
        extra=$(sed -n 's/^! build-flags: //p' "$src")
        [ "$n" = f08_status_c ] && extra="$extra $FB/c_status_f08.o"
        [ "$n" = f_attr_lang ] && extra="$extra $FB/c_attr_lang.o"
        tcase fortran.build.$n -t 120 -- \
            "$B/bin/mpifort" -O1 -g -Wall $werror -fcheck=bounds $extra -J "$FB" -o "$FB/$n" "$src"
    done
    # fixed form: mpif.h must keep to 72 columns (a longer line is cut)
    tcase fortran.build.f_fixed -t 120 -- "$B/bin/mpifort" -O1 -g -Wall -Werror=line-truncation \
        -o "$FB/f_fixed" "$S/tests/fortran/f_fixed.f"
    tcase fortran.build.c_spawn_parent -t 120 -- \
        "$B/bin/mpicc" -O1 -g -Wall -Wextra -Werror -o "$FB/c_spawn_parent" "$S/tests/fortran/c_spawn_parent.c"
    tcase fortran.build.c_atmosphere -t 120 -- \
        "$B/bin/mpicc" -O1 -g -Wall -Wextra -Werror -o "$FB/c_atmosphere" "$S/tests/fortran/c_atmosphere.c"
    tcase fortran.mpifort-show -t 10 -out "-lmpi_mpifh -lmpi" -- "$B/bin/mpif90" -show x.f90
    tcase fortran.mpifort-fc -t 10 -out "^myfc " -- env TIDE_FC=myfc OMPI_FC=other "$B/bin/mpifort" -showme x.f90
    tcase fortran.mpifort-ompi-fc -t 10 -out "^other " -- env -u TIDE_FC OMPI_FC=other "$B/bin/mpif77" -showme x.f90

    tcase fortran.hello -t 60 -out "hello rank 2 of 3 on " -- $MPIEXEC -n 3 "$FB/f_hello"
    tcase fortran.fixed-form -t 60 -out "fixed form ok" -- $MPIEXEC -n 2 "$FB/f_fixed"
    tcase fortran.hello-module -t 60 -out "module hello rank 1 of 2" -- $MPIEXEC -n 2 "$FB/f_hello_mod"
    tcase fortran.ring -t 60 -out "ring of 4 ok" -- $MPIEXEC -n 4 "$FB/f_ring"
    tcase fortran.nonblocking -t 60 -out "nonblocking 3 ok" -- $MPIEXEC -n 3 "$FB/f_nonblock"
    tcase fortran.collectives -t 60 -out "collectives on 4 ok" -- $MPIEXEC -n 4 "$FB/f_coll"
    tcase fortran.collectives-1 -t 60 -out "collectives on 1 ok" -- $MPIEXEC -n 1 "$FB/f_coll"
    tcase fortran.comm-split-names -t 60 -out "split ok: half0 world MPI_COMM_WORLD" -- \
        $MPIEXEC -n 3 "$FB/f_comm"
    tcase fortran.derived-type -t 60 -out "vector received +21\. +22\. +23\. +24\. +25\." -- \
        $MPIEXEC -n 2 "$FB/f_dtype"
    tcase fortran.errors-return -t 60 -out "error returned: " -- $MPIEXEC -n 2 "$FB/f_errors"
    tcase fortran.attributes -t 60 -out "attributes ok" -- $MPIEXEC -n 2 "$FB/f_attr"
    tcase fortran.io -t 60 -out "io on 4 ok" -- $MPIEXEC -n 4 "$FB/f_io"
    tcase fortran.io-1 -t 60 -out "io on 1 ok" -- $MPIEXEC -n 1 "$FB/f_io"
    tcase fortran.f08-hello -t 60 -out "f08 hello rank 2 of 3 on " -- $MPIEXEC -n 3 "$FB/f08_hello"
    tcase fortran.f08-ring -t 60 -out "f08 ring of 4 ok" -- $MPIEXEC -n 4 "$FB/f08_ring"
    tcase fortran.f08-nonblocking -t 60 -out "f08 nonblocking 3 ok" -- $MPIEXEC -n 3 "$FB/f08_nonblock"
    tcase fortran.f08-collectives -t 60 -out "f08 collectives on 4 ok" -- $MPIEXEC -n 4 "$FB/f08_coll"
    tcase fortran.f08-collectives-1 -t 60 -out "f08 collectives on 1 ok" -- $MPIEXEC -n 1 "$FB/f08_coll"
    tcase fortran.f08-derived-type -t 60 -out "f08 row received +21\.0 +22\.0 +23\.0 +24\.0 +25\.0$" -- \
        $MPIEXEC -n 2 "$FB/f08_dtype"
    tcase fortran.f08-comm-split-compare -t 60 -out "f08 split ok: half0 world MPI_COMM_WORLD" -- \
        $MPIEXEC -n 3 "$FB/f08_comm"
    tcase fortran.f08-errors -t 60 -out "f08 error returned: " -- $MPIEXEC -n 2 "$FB/f08_errors"
    tcase fortran.f08-io -t 60 -out "f08 io on 4 ok" -- $MPIEXEC -n 4 "$FB/f08_io"
    tcase fortran.f08-io-1 -t 60 -out "f08 io on 1 ok" -- $MPIEXEC -n 1 "$FB/f08_io"
    tcase fortran.f08-subarrays -t 60 -out "f08 subarrays on 2 ok" -- $MPIEXEC -n 2 "$FB/f08_subarray"
    tcase fortran.f08-subarrays-3 -t 60 -out "f08 subarrays on 3 ok" -- $MPIEXEC -n 3 "$FB/f08_subarray"
    tcase fortran.f08-status-to-c -t 60 -out "f08 status to C ok" -- $MPIEXEC -n 1 "$FB/f08_status_c"
    # User-Level Failure Mitigation: use mpi_ext, use mpi_ext_f08
    tcase fortran.ulfm -t 60 -out "f_ulfm: ok .3 survivors" -- $MPIEXEC --enable-recovery -n 4 "$FB/f_ulfm"
    tcase fortran.f08-ulfm -t 60 -out "f08_ulfm: ok .3 survivors" -- $MPIEXEC --enable-recovery -n 4 "$FB/f08_ulfm"
    tcase fortran.endpoints -t 60 -out "f_endpoints: ok on 6 endpoints" -- $MPIEXEC -n 3 "$FB/f_endpoints"
    tcase fortran.f08-endpoints -t 60 -out "f08_endpoints: ok on 12 endpoints" -- $MPIEXEC -n 4 "$FB/f08_endpoints"
    tcase fortran.status-f08-module -t 60 -out "status f08 conversions ok" -- $MPIEXEC -n 1 "$FB/f_status_f08"
    tcase fortran.mpi1-kinds -t 60 -out "mpi1 kinds on 2 ok" -- $MPIEXEC -n 2 "$FB/f_mpi1_kinds"
    tcase fortran.mpi1-kinds-module -t 60 -out "mpi1 kinds on 2 ok" -- $MPIEXEC -n 2 "$FB/f_mpi1_kinds_mod"
    tcase fortran.info-strings -t 60 -out "info strings ok" -- $MPIEXEC -n 1 "$FB/f_info"
    tcase fortran.profiling -t 60 -out "profiled sends 205 recvs 2" -- $MPIEXEC -n 2 "$FB/f_profile"
    tcase fortran.profiling-module -t 60 -out "module profiled recvs 1" -- $MPIEXEC -n 2 "$FB/f_profile_mod"
    tcase fortran.f08-profiling -t 60 -out "f08 profiled 2 6 2 2$" -- $MPIEXEC -n 2 "$FB/f08_profile"
    tcase fortran.io-view-current -t 60 -out "io view current on 3 ok" -- $MPIEXEC -n 3 "$FB/f_io_view"
    tcase fortran.io-view-current-module -t 60 -out "io view current on 2 ok" -- $MPIEXEC -n 2 "$FB/f_io_view_mod"
    tcase fortran.status-error-field -t 60 -out "status error field ok" -- $MPIEXEC -n 2 "$FB/f_status_error"
    tcase fortran.attributes-languages -t 60 -out "attributes between languages ok" -- \
        $MPIEXEC -n 1 "$FB/f_attr_lang"
    tcase fortran.sizeof-character -t 60 -out "^sizeof 1 1 5 8 5$" -- $MPIEXEC -n 1 "$FB/f_sizeof_char"
    tcase fortran.f08-rma -t 60 -out "f08 rma on 3 ok" -- $MPIEXEC -n 3 "$FB/f08_rma"
    tcase fortran.f08-rma-1 -t 60 -out "f08 rma on 1 ok" -- $MPIEXEC -n 1 "$FB/f08_rma"
    tcase fortran.memory-cray-pointer -t 60 -out "memory on 3 ok" -- $MPIEXEC -n 3 "$FB/f_memory"
    tcase fortran.memory-cray-pointer-1 -t 60 -out "memory on 1 ok" -- $MPIEXEC -n 1 "$FB/f_memory"
    tcase fortran.memory-module -t 60 -out "module memory on 3 ok" -- $MPIEXEC -n 3 "$FB/f_memory_mod"
    tcase fortran.f08-attributes -t 60 -out "f08 attributes ok" -- $MPIEXEC -n 2 "$FB/f08_attr"
    tcase fortran.callbacks -t 60 -out "callbacks on 2 ok" -- \
        $MPIEXEC -n 2 "$FB/f_callbacks" "$FB/f_callbacks.$$.dat"
    tcase fortran.callbacks-module -t 60 -out "module callbacks on 2 ok" -- \
        $MPIEXEC -n 2 "$FB/f_callbacks_mod" "$FB/f_callbacks_mod.$$.dat"
    tcase fortran.f08-callbacks -t 60 -out "f08 callbacks on 2 ok" -- \
        $MPIEXEC -n 2 "$FB/f08_callbacks" "$FB/f08_callbacks.$$.dat"
    tcase fortran.spawn-multiple -t 90 -out "spawn_multiple: 3 Fortran children of 2 apps answered" -- \
        $MPIEXEC -n 2 "$FB/f_spawn_multi" "$FB/f_spawn_multi_child"
    tcase fortran.f08-spawn-multiple -t 90 -out "f08 spawn_multiple: 2 Fortran children of 2 apps answered" -- \
        $MPIEXEC -n 1 "$FB/f08_spawn_multi" "$FB/f_spawn_multi_child"
    tcase fortran.spawn-c-child -t 90 -out "fortran parent: 2 C children answered" -- \
        $MPIEXEC -n 2 "$FB/f_spawn_parent" "$TB/dpm_spawn" 2
    tcase fortran.spawn-fortran-child -t 90 -out "C parent: 2 Fortran children answered" -- \
        $MPIEXEC -n 1 "$FB/c_spawn_parent" "$FB/f_spawn_child" 2
    # a Fortran ocean and a C atmosphere, two mpiexec jobs, coupled
    # through a port: the ocean writes the port's name to a file
    fortran_coupled() {
        pf="$FB/ocean-port.$$"
        rm -f "$pf"
        $MPIEXEC --timeout 60 -n 3 "$FB/f_ocean" "$pf" > "$FB/ocean.out" 2>&1 &
        opid=$!
        i=0
        while [ ! -s "$pf" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
        [ -s "$pf" ] || { echo "no port file"; cat "$FB/ocean.out"; kill $opid; return 1; }
        $MPIEXEC --timeout 60 -n 2 "$FB/c_atmosphere" "$pf" || { kill $opid; return 1; }
        wait $opid || { cat "$FB/ocean.out"; return 1; }
        cat "$FB/ocean.out"
        rm -f "$pf"
        grep -q "ocean of 3 coupled with an atmosphere of 2 ok" "$FB/ocean.out"
    }
    tcheck fortran.ocean-atmosphere fortran_coupled
else
    tskip fortran "Tide built without Fortran (no mpifort)"
fi
