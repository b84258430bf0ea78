/*
 * wait_loaded.c: ranks that wait for each other's messages on a core
 * other processes keep busy (run by suite_p2p.sh under taskset with busy
 * loops on the same core). Usage: wait_loaded ROUNDS. Each round rank 0
 * receives a message from every other rank, then answers each; prints the
 * time per round. A waiting rank that yields its core instead of sleeping
 * gets almost no time to run there (each yield puts it behind every busy
 * loop), and the rounds crawl.
 */
#include "testutil.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rounds = argc > 1 ? atoi(argv[1]) : 100, rank, size, v = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= 2, "needs at least 2 ranks");
    double t = MPI_Wtime();
    for (int i = 0; i < rounds; i++) {
        if (rank == 0) {
            for (int j = 1; j < size; j++)
                CHECK_OK(MPI_Recv(&v, 1, MPI_INT, j, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            for (int j = 1; j < size; j++)
                CHECK_OK(MPI_Send(&i, 1, MPI_INT, j, 0, MPI_COMM_WORLD));
        } else {
            CHECK_OK(MPI_Send(&i, 1, MPI_INT, 0, 0, MPI_COMM_WORLD));
            CHECK_OK(MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(v == i, "round %d got %d", i, v);
        }
    }
    if (rank == 0)
        printf("wait_loaded: %d rounds on %d ranks in %.2f s (%.1f ms a round)\n", rounds, size, MPI_Wtime() - t,
               (MPI_Wtime() - t) * 1e3 / rounds);
    MPI_Finalize();
    return 0;
}
