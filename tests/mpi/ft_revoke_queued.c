/*
 * ft_revoke_queued.c: a send still queued here when its communicator is
 * revoked ends with MPIX_ERR_REVOKED (run with 2 ranks on one node,
 * --enable-recovery). Rank 1 stays out of MPI (it spins on a flag in a
 * shared window) while rank 0 fills the shared-memory ring to it with
 * small sends, until one cannot go out, then starts a large (rendezvous)
 * send, which waits behind them, and revokes the communicator. Rank 1
 * then reads: the messages of the revoked communicator are dropped, the
 * rendezvous's first message too, so the large send must end with the
 * revocation instead of waiting for an answer.
 */
#include "testutil.h"

#include <mpi-ext.h>

#define SMALL 1024
#define MAX_SMALL 100000
#define BIG (4 << 20)

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size == 2, "needs 2 ranks");
    MPI_Comm comm;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    int *flag;
    MPI_Win win;
    CHECK_OK(MPI_Win_allocate_shared(rank == 0 ? sizeof(int) : 0, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                                     &flag, &win));
    MPI_Aint sz;
    int du;
    CHECK_OK(MPI_Win_shared_query(win, 0, &sz, &du, &flag));
    if (rank == 0)
        *flag = 0;
    MPI_Barrier(MPI_COMM_WORLD);

    if (rank == 1) {
        /* out of MPI until rank 0 has revoked */
        while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE)) {
        }
        int revoked = 0;
        double t0 = MPI_Wtime();
        while (!revoked && MPI_Wtime() - t0 < 30)
            CHECK_OK(MPIX_Comm_is_revoked(comm, &revoked));
        CHECK(revoked, "the revocation did not arrive");
    } else {
        static char small[SMALL], big[BIG];
        MPI_Request *reqs = malloc((MAX_SMALL + 1) * sizeof *reqs);
        CHECK(reqs, "out of memory");
        int n = 0, done = 1;
        while (done && n < MAX_SMALL) {
            CHECK_OK(MPI_Isend(small, SMALL, MPI_CHAR, 1, 5, comm, &reqs[n]));
            CHECK_OK(MPI_Request_get_status(reqs[n++], &done, MPI_STATUS_IGNORE));
        }
        CHECK(!done, "%d sends went out with nobody reading", n);
        MPI_Request bigreq;
        CHECK_OK(MPI_Isend(big, BIG, MPI_CHAR, 1, 6, comm, &bigreq));
        CHECK_OK(MPIX_Comm_revoke(comm));
        __atomic_store_n(flag, 1, __ATOMIC_RELEASE);
        int rc = MPI_Wait(&bigreq, MPI_STATUS_IGNORE);
        int cls = -1;
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPIX_ERR_REVOKED, "the queued large send ended with class %d, not MPIX_ERR_REVOKED", cls);
        /* the small ones end, either way */
        for (int i = 0; i < n; i++)
            MPI_Wait(&reqs[i], MPI_STATUS_IGNORE);
        printf("ft_revoke_queued: ok (%d small sends filled the ring)\n", n);
        free(reqs);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
