# suite_fortran.sh: the Fortran bindings. Each program of tests/fortran is
# compiled with the build tree's mpifort (include 'mpif.h' or use mpi) and
# run with mpiexec: hello, ring with statuses, nonblocking with arrays of
# statuses, collectives on Fortran types, MPI-IO, communicator names, a derived
# type, error handlers and ierror, spawn between C and Fortran. Skipped
# when Tide was built without Fortran.

if [ -x "$B/bin/mpifort" ]; then
    FB="$B/tests/fortran/bin"
    mkdir -p "$FB"
    for src in "$S"/tests/fortran/*.f90; do
        n=$(basename "$src" .f90)
        # with mpif.h gfortran warns of buffers of several types (no
        # interfaces); `use mpi` programs build with -Werror
        werror=-Werror
        grep -q "include 'mpif.h'" "$src" && werror=
        tcase fortran.build.$n -t 120 -- \
            "$B/bin/mpifort" -O1 -g -Wall $werror -fcheck=bounds -o "$FB/$n" "$src"
    done
    tcase fortran.build.c_spawn_parent -t 120 -- \
        "$B/bin/mpicc" -O1 -g -Wall -Wextra -Werror -o "$FB/c_spawn_parent" "$S/tests/fortran/c_spawn_parent.c"
    tcase fortran.mpifort-show -t 10 -out "-lmpi_mpifh -lmpi" -- "$B/bin/mpif90" -show x.f90
    tcase fortran.mpifort-fc -t 10 -out "^myfc " -- env TIDE_FC=myfc OMPI_FC=other "$B/bin/mpifort" -showme x.f90
    tcase fortran.mpifort-ompi-fc -t 10 -out "^other " -- env -u TIDE_FC OMPI_FC=other "$B/bin/mpif77" -showme x.f90

    tcase fortran.hello -t 60 -out "hello rank 2 of 3 on " -- $MPIEXEC -n 3 "$FB/f_hello"
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
    tcase fortran.io -t 60 -out "io on 4 ok" -- $MPIEXEC -n 4 "$FB/f_io"
    tcase fortran.io-1 -t 60 -out "io on 1 ok" -- $MPIEXEC -n 1 "$FB/f_io"
    tcase fortran.spawn-c-child -t 90 -out "fortran parent: 2 C children answered" -- \
        $MPIEXEC -n 2 "$FB/f_spawn_parent" "$TB/dpm_spawn" 2
    tcase fortran.spawn-fortran-child -t 90 -out "C parent: 2 Fortran children answered" -- \
        $MPIEXEC -n 1 "$FB/c_spawn_parent" "$FB/f_spawn_child" 2
else
    tskip fortran "Tide built without Fortran (no mpifort)"
fi
