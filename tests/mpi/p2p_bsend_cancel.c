/*
 * p2p_bsend_cancel.c: MPI_Cancel of buffered-mode sends (MPI_Ibsend, and
 * MPI_Bsend_init started) whose message the receiver has not matched:
 * eager and large, to a peer and to self. The request is reported
 * cancelled, the message never arrives and its space in the attached
 * buffer is free again. A buffered send that has been received is not
 * cancelled.
 */
#include "testutil.h"

#define BIG (1 << 20)

static char *attached;
static int attached_size;

static void attach_for(int bytes)
{
    int ps;
    CHECK_OK(MPI_Pack_size(bytes, MPI_CHAR, MPI_COMM_WORLD, &ps));
    attached_size = ps + MPI_BSEND_OVERHEAD;
    attached = malloc((size_t)attached_size);
    CHECK_OK(MPI_Buffer_attach(attached, attached_size));
}

static void detach(void)
{
    void *b;
    int n;
    CHECK_OK(MPI_Buffer_detach(&b, &n));
    CHECK(b == attached && n == attached_size, "detach gave %p %d", b, n);
    free(attached);
}

/* Cancel a buffered send of n bytes to peer; the buffer holds just this
 * message, so a second one of the same size fits only if the space of
 * the cancelled one came back. */
static void cancel_bsend(int n, int peer, int tag, int persistent)
{
    char *b = calloc((size_t)n, 1);
    MPI_Request r;
    MPI_Status st;
    int flag;
    attach_for(n);
    if (persistent) {
        CHECK_OK(MPI_Bsend_init(b, n, MPI_CHAR, peer, tag, MPI_COMM_WORLD, &r));
        CHECK_OK(MPI_Start(&r));
    } else {
        CHECK_OK(MPI_Ibsend(b, n, MPI_CHAR, peer, tag, MPI_COMM_WORLD, &r));
    }
    CHECK_OK(MPI_Cancel(&r));
    CHECK_OK(MPI_Wait(&r, &st));
    CHECK_OK(MPI_Test_cancelled(&st, &flag));
    CHECK(flag, "%s of %d bytes to %d (unmatched) was not cancelled", persistent ? "bsend_init" : "ibsend", n,
          peer);
    if (persistent) {
        /* started again, the request sends again, and can be cancelled again */
        CHECK_OK(MPI_Start(&r));
        CHECK_OK(MPI_Cancel(&r));
        CHECK_OK(MPI_Wait(&r, &st));
        CHECK_OK(MPI_Test_cancelled(&st, &flag));
        CHECK(flag, "restarted bsend_init of %d bytes to %d was not cancelled", n, peer);
        CHECK_OK(MPI_Request_free(&r));
    }
    /* the space is free again: another message of the same size fits */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK_OK(MPI_Ibsend(b, n, MPI_CHAR, peer, tag, MPI_COMM_WORLD, &r));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    CHECK_OK(MPI_Cancel(&r));
    CHECK_OK(MPI_Wait(&r, &st));
    CHECK_OK(MPI_Test_cancelled(&st, &flag));
    CHECK(flag, "second ibsend of %d bytes to %d was not cancelled", n, peer);
    detach();
    free(b);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, flag, v = 5;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int persistent = 0; persistent < 2; persistent++) {
        cancel_bsend(4, rank, 50, persistent);
        cancel_bsend(BIG, rank, 51, persistent);
        if (rank == 0 && size > 1) {
            cancel_bsend(16, 1, 60, persistent);
            cancel_bsend(BIG, 1, 61, persistent);
        }
    }
    if (rank == 0 && size > 1) {
        /* a received buffered send is not cancelled */
        MPI_Request r;
        MPI_Status st;
        attach_for((int)sizeof v);
        CHECK_OK(MPI_Ibsend(&v, 1, MPI_INT, 1, 62, MPI_COMM_WORLD, &r));
        CHECK_OK(MPI_Recv(NULL, 0, MPI_CHAR, 1, 63, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_OK(MPI_Cancel(&r));
        CHECK_OK(MPI_Wait(&r, &st));
        CHECK_OK(MPI_Test_cancelled(&st, &flag));
        CHECK(!flag, "a delivered buffered send was reported cancelled");
        detach();
        CHECK_OK(MPI_Send(NULL, 0, MPI_CHAR, 1, 64, MPI_COMM_WORLD));
    } else if (rank == 1) {
        int got = 0;
        CHECK_OK(MPI_Recv(&got, 1, MPI_INT, 0, 62, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(got == 5, "received %d", got);
        CHECK_OK(MPI_Send(NULL, 0, MPI_CHAR, 0, 63, MPI_COMM_WORLD));
        CHECK_OK(MPI_Recv(NULL, 0, MPI_CHAR, 0, 64, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        /* everything rank 0 sent before tag 64 is here: no cancelled message */
        CHECK_OK(MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
        CHECK(!flag, "a cancelled buffered message was delivered");
    }
    CHECK_OK(MPI_Iprobe(rank, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    CHECK(!flag, "a cancelled buffered send to self was delivered");
    MPI_Finalize();
    return 0;
}
