/*
 * p2p_cancel.c: MPI_Cancel of receives (always succeeds when unmatched)
 * and of sends the receiver has not matched (eager and rendezvous; to a
 * peer and to self): the cancelled message never arrives. A send that has
 * been received cannot be cancelled, nor does a persistent send report
 * a cancel of its previous round.
 */
#include "testutil.h"

static void cancel_send(int n, int peer, int tag)
{
    char *b = calloc((size_t)n + 1, 1);
    MPI_Request r;
    MPI_Status st;
    int flag;
    CHECK_OK(MPI_Isend(b, n, MPI_CHAR, peer, tag, MPI_COMM_WORLD, &r));
    CHECK_OK(MPI_Cancel(&r));
    CHECK_OK(MPI_Wait(&r, &st));
    CHECK_OK(MPI_Test_cancelled(&st, &flag));
    CHECK(flag, "send of %d bytes to %d (unmatched) was not cancelled", n, peer);
    free(b);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Status st;
    int flag, v = 0;
    /* receives */
    MPI_Request r;
    CHECK_OK(MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 77, MPI_COMM_WORLD, &r));
    CHECK_OK(MPI_Cancel(&r));
    CHECK_OK(MPI_Wait(&r, &st));
    CHECK_OK(MPI_Test_cancelled(&st, &flag));
    CHECK(flag && r == MPI_REQUEST_NULL, "receive not cancelled");
    /* sends to self */
    cancel_send(4, rank, 50);
    cancel_send(3 << 20, rank, 51);
    /* sends to a peer that does not receive them */
    if (rank == 0 && size > 1) {
        cancel_send(16, 1, 60);
        cancel_send(2 << 20, 1, 61);
        /* a received send cannot be cancelled */
        CHECK_OK(MPI_Isend(&v, 1, MPI_INT, 1, 62, MPI_COMM_WORLD, &r));
        CHECK_OK(MPI_Recv(NULL, 0, MPI_CHAR, 1, 63, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_OK(MPI_Cancel(&r));
        CHECK_OK(MPI_Wait(&r, &st));
        CHECK_OK(MPI_Test_cancelled(&st, &flag));
        CHECK(!flag, "a delivered send was reported cancelled");
        /* a persistent send cancelled, started again and received: the
         * second round is not reported cancelled */
        CHECK_OK(MPI_Send_init(&v, 1, MPI_INT, 1, 65, MPI_COMM_WORLD, &r));
        CHECK_OK(MPI_Start(&r));
        CHECK_OK(MPI_Cancel(&r));
        CHECK_OK(MPI_Wait(&r, &st));
        CHECK_OK(MPI_Test_cancelled(&st, &flag));
        CHECK(flag, "persistent send (unmatched) was not cancelled");
        CHECK_OK(MPI_Send(NULL, 0, MPI_CHAR, 1, 64, MPI_COMM_WORLD));
        CHECK_OK(MPI_Start(&r));
        CHECK_OK(MPI_Wait(&r, &st));
        CHECK_OK(MPI_Test_cancelled(&st, &flag));
        CHECK(!flag, "a persistent send's received round was reported cancelled");
        CHECK_OK(MPI_Request_free(&r));
    } else if (rank == 1) {
        CHECK_OK(MPI_Recv(&v, 1, MPI_INT, 0, 62, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_OK(MPI_Send(NULL, 0, MPI_CHAR, 0, 63, MPI_COMM_WORLD));
        CHECK_OK(MPI_Recv(NULL, 0, MPI_CHAR, 0, 64, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        /* everything rank 0 sent before tag 64 has arrived: the cancelled
         * messages must not be here */
        CHECK_OK(MPI_Iprobe(0, 60, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
        CHECK(!flag, "a cancelled eager message was delivered");
        CHECK_OK(MPI_Iprobe(0, 61, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
        CHECK(!flag, "a cancelled large message was delivered");
        CHECK_OK(MPI_Recv(&v, 1, MPI_INT, 0, 65, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }
    CHECK_OK(MPI_Iprobe(rank, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    CHECK(!flag, "a cancelled send to self was delivered");
    MPI_Finalize();
    return 0;
}
