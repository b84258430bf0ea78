/*
 * p2p_bsend_size.c: an attached buffer sized by the standard's rule (for
 * each message its MPI_Pack_size plus MPI_BSEND_OVERHEAD) holds those
 * messages all at once, whatever their sizes (odd ones too) and wherever
 * the buffer starts; one byte less and the last of them does not fit.
 * Rank 1 receives only after rank 0 has sent them all. A one-char
 * message fits a buffer of its packed size plus MPI_BSEND_OVERHEAD.
 */
#include "testutil.h"

#define NMSG 4

/* chars, all beyond the eager limit (held until received) */
static const int sizes[NMSG] = {300001, 200003, 100005, 70001};

static int needed(int nmsg)
{
    int total = 0;
    for (int i = 0; i < nmsg; i++) {
        int s;
        CHECK_OK(MPI_Pack_size(sizes[i], MPI_CHAR, MPI_COMM_WORLD, &s));
        total += s + MPI_BSEND_OVERHEAD;
    }
    return total;
}

static void receive_all(int round)
{
    for (int i = 0; i < NMSG; i++) {
        char *b = malloc((size_t)sizes[i]);
        MPI_Status st;
        CHECK_OK(MPI_Recv(b, sizes[i], MPI_CHAR, 0, i, MPI_COMM_WORLD, &st));
        int n;
        MPI_Get_count(&st, MPI_CHAR, &n);
        CHECK(n == sizes[i], "round %d message %d: %d chars", round, i, n);
        for (int k = 0; k < n; k++)
            CHECK(b[k] == (char)(i + k + round), "round %d message %d byte %d", round, i, k);
        free(b);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    /* a single one-char message in a buffer of exactly its size */
    if (rank == 0) {
        int one, ps;
        CHECK_OK(MPI_Pack_size(1, MPI_CHAR, MPI_COMM_WORLD, &ps));
        one = ps + MPI_BSEND_OVERHEAD;
        char *buf = malloc((size_t)one), c = 'x';
        CHECK_OK(MPI_Buffer_attach(buf, one));
        CHECK_OK(MPI_Bsend(&c, 1, MPI_CHAR, 1, 99, MPI_COMM_WORLD));
        void *got;
        int gsize;
        CHECK_OK(MPI_Buffer_detach(&got, &gsize));
        free(buf);
    } else if (rank == 1) {
        char c = 0;
        CHECK_OK(MPI_Recv(&c, 1, MPI_CHAR, 0, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(c == 'x', "one char: got %d", c);
    }
    int total = needed(NMSG);
    /* round 0: the buffer at an aligned address, round 1: at an odd one */
    for (int round = 0; round < 2; round++) {
        if (rank == 0) {
            char *mem = malloc((size_t)total + 1), *buf = mem + round;
            char *msg[NMSG];
            MPI_Request req[NMSG];
            CHECK_OK(MPI_Buffer_attach(buf, total));
            for (int i = 0; i < NMSG; i++) {
                msg[i] = malloc((size_t)sizes[i]);
                for (int k = 0; k < sizes[i]; k++)
                    msg[i][k] = (char)(i + k + round);
                CHECK_OK(MPI_Ibsend(msg[i], sizes[i], MPI_CHAR, 1, i, MPI_COMM_WORLD, &req[i]));
            }
            CHECK_OK(MPI_Waitall(NMSG, req, MPI_STATUSES_IGNORE));
            for (int i = 0; i < NMSG; i++)
                free(msg[i]);
            CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
            void *got;
            int gsize;
            CHECK_OK(MPI_Buffer_detach(&got, &gsize));
            CHECK(got == buf && gsize == total, "detach gave %p %d", got, gsize);
            free(mem);
        } else if (rank == 1) {
            CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
            receive_all(round);
        } else {
            CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
        }
    }
    /* one byte short for the two big messages: the first is held (its
     * receive is not posted yet), the second does not fit */
    int b1, b2;
    CHECK_OK(MPI_Pack_size(sizes[0], MPI_CHAR, MPI_COMM_WORLD, &b1));
    CHECK_OK(MPI_Pack_size(sizes[1], MPI_CHAR, MPI_COMM_WORLD, &b2));
    int two = b1 + b2 + 2 * MPI_BSEND_OVERHEAD;
    if (rank == 0) {
        char *buf = malloc((size_t)two);
        char *big = calloc((size_t)sizes[0], 1);
        MPI_Request req, req2 = MPI_REQUEST_NULL;
        CHECK_OK(MPI_Buffer_attach(buf, two - 1));
        CHECK_OK(MPI_Ibsend(big, sizes[0], MPI_CHAR, 1, 100, MPI_COMM_WORLD, &req));
        CHECK_ERR(MPI_Ibsend(big, sizes[1], MPI_CHAR, 1, 101, MPI_COMM_WORLD, &req2), MPI_ERR_BUFFER);
        CHECK_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
        void *got;
        int gsize;
        CHECK_OK(MPI_Buffer_detach(&got, &gsize));
        free(buf);
        free(big);
    } else if (rank == 1) {
        CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
        char *b = malloc((size_t)sizes[0]);
        CHECK_OK(MPI_Recv(b, sizes[0], MPI_CHAR, 0, 100, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        free(b);
    } else {
        CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    }
    MPI_Finalize();
    return 0;
}
