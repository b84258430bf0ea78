/*
 * alloc_where.c: prints where each rank runs for the allocation tests:
 * "rank R of N universe U on HOST", one line per rank, in rank order.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, flag, len;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *usize = NULL;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &usize, &flag);
    char host[MPI_MAX_PROCESSOR_NAME];
    MPI_Get_processor_name(host, &len);
    for (int r = 0; r < size; r++) {
        if (r == rank) {
            printf("rank %d of %d universe %d on %s\n", rank, size, flag ? *usize : -1, host);
            fflush(stdout);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
