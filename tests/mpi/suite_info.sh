# suite_info.sh: info objects (every function, limits and error classes)
# and MPI_INFO_ENV (command, argv, maxprocs, thread level, wdir).
tcase info.basic.1 -out "info_basic: ok" -- $MPIEXEC -n 1 $TB/info_basic
tcase info.basic.4 -out "info_basic: ok" -- $MPIEXEC -n 4 $TB/info_basic
tcase info.env.1 -out "info_env: ok" -- $MPIEXEC -n 1 $TB/info_env 1 single
tcase info.env.4-multiple -out "info_env: ok" -- $MPIEXEC -n 4 $TB/info_env 4 multiple alpha beta
mkdir -p "$B/tests/info-wdir"
tcase info.env.wdir -out "info_env: ok" -- $MPIEXEC -n 2 --wdir "$B/tests/info-wdir" $TB/info_env 2 single
# MPI 4.0's mpiexec -initial-errhandler, and the key that tells it
tcase info.env.errh-default -out "mpi_initial_errhandler mpi_errors_are_fatal" -- $MPIEXEC -n 1 $TB/info_env 1 single
tcase info.env.errh-return -out "mpi_initial_errhandler mpi_errors_return" -- \
    $MPIEXEC -initial-errhandler mpi_errors_return -n 2 $TB/info_env 2 single
tcase info.env.singleton -out "info_env: ok" -- $TB/info_env 1 single x
tcase info.string.1 -t 30 -out "info_string: ok" -- $MPIEXEC -n 1 $TB/info_string 1
tcase info.string.3 -t 30 -out "info_string: ok" -- $MPIEXEC -n 3 $TB/info_string 3 alpha "b c"
tcase info.string.singleton -t 30 -out "info_string: ok" -- $TB/info_string 1 x
