/*
 * startup.c: the startup benchmark's program: MPI_Init, MPI_Comm_rank,
 * MPI_Finalize. Plain MPI, so it builds with any implementation.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Finalize();
    return 0;
}
