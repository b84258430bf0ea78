/*
 * rma_progress.c: passive target without the target's help. Rank 0
 * spins on its own window memory, making no MPI call, until every other
 * rank's locked accumulate has landed there. On a window in shared
 * memory the origins write it themselves; on one in private memory
 * (TIDE_RMA_SHM=0, or over TCP) this needs rma_progress_thread=1, and the
 * program hangs (its case times out) if the thread does not serve it.
 * A watchdog of 30 s turns a hang into a failure message.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int *buf;
    MPI_Win win;
    MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &buf, &win);
    buf[0] = buf[1] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        volatile int *count = buf;
        double until = MPI_Wtime() + 30; /* MPI_Wtime is a local clock read, not a progress call */
        while (*count < n - 1) {
            if (MPI_Wtime() > until) {
                fprintf(stderr, "rma_progress: only %d of %d accumulates arrived while the target computed\n",
                        *count, n - 1);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
        }
    } else {
        int one = 1;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Accumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win);
        MPI_Win_unlock(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    if (rank == 0)
        printf("rma_progress: ok\n");
    MPI_Finalize();
    return 0;
}
