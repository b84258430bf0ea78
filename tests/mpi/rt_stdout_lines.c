/*
 * rt_stdout_lines.c: a rank's stdout is buffered by line (parameter
 * stdout_line_buffered), so what a rank printed before it died reaches
 * mpiexec's output. Run with --enable-recovery and 2 ranks: rank 1 prints
 * a line and kills itself, rank 0 learns of it (a barrier that fails) and
 * finishes.
 */
#include "testutil.h"

#include <mpi-ext.h>
#include <signal.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 1) {
        printf("rt_stdout_lines: rank 1 says this and dies\n");
        raise(SIGKILL);
    }
    CHECK_ERR(MPI_Barrier(MPI_COMM_WORLD), MPIX_ERR_PROC_FAILED);
    if (rank == 0)
        printf("rt_stdout_lines: rank 0 done\n");
    MPI_Finalize();
    return 0;
}
