/*
 * launch.c: the launch-scaling benchmark's program (bench/launch_scaling.sh):
 * MPI_Init, then the first MPI_Barrier timed on every rank; rank 0 prints
 * the slowest rank's time as "first_barrier_us N". Plain MPI, so it
 * builds with any implementation.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double t0 = MPI_Wtime();
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime() - t0, slowest = 0;
    MPI_Reduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("first_barrier_us %.1f\n", slowest * 1e6);
    MPI_Finalize();
    return 0;
}
