/*
 * print_then_die.c: the last rank prints a line without fflush and dies
 * at once; mpiexec's output must hold the line. Usage:
 *   print_then_die kill    printf after MPI_Init, then SIGKILL
 *   print_then_die early   printf before MPI_Init, then SIGKILL after it
 *   print_then_die abort   printf, then MPI_Abort
 *   print_then_die tty     prints whether its stdout is a terminal
 * The other ranks wait for a message that never comes (the job ends).
 */
#include "testutil.h"

#include <signal.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "kill";
    if (strcmp(mode, "early") == 0)
        printf("print_then_die: before MPI_Init\n");
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (strcmp(mode, "tty") == 0) {
        printf("print_then_die: rank %d stdout %s a terminal\n", rank, isatty(STDOUT_FILENO) ? "is" : "is not");
        MPI_Finalize();
        return 0;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == size - 1) {
        printf("print_then_die: rank %d's last words\n", rank);
        if (strcmp(mode, "abort") == 0)
            MPI_Abort(MPI_COMM_WORLD, 9);
        raise(SIGKILL);
    }
    int v;
    MPI_Recv(&v, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
