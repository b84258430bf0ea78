/*
 * p2p_order.c: non-overtaking order with mixed sizes (0 B to 8 MiB, so
 * eager and rendezvous messages interleave) and wildcard receives mixed
 * with specific ones; and the progress rule: both sides post only
 * nonblocking operations, then wait.
 */
#include "testutil.h"

#define NMSG 120

static int msg_size(int i)
{
    static const int s[] = {0, 8, 5000, 100, 70000, 1 << 20, 16, 8 << 20, 3, 200000};
    return s[i % 10];
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= 2, "needs 2 ranks");
    int peer = rank ^ 1;
    if (peer >= size) {
        MPI_Finalize();
        return 0;
    }
    /* 1. a stream of messages with two tags, received with a mix of
     * wildcards; order per (source, tag) must hold */
    if (rank % 2 == 0) {
        for (int i = 0; i < NMSG; i++) {
            int n = msg_size(i);
            char *b = malloc((size_t)n + 8);
            memset(b, i & 0xff, (size_t)n);
            int tag = i % 3 == 0 ? 1 : 2;
            if (i % 7 == 0) {
                CHECK_OK(MPI_Ssend(b, n, MPI_CHAR, peer, tag, MPI_COMM_WORLD));
            } else {
                MPI_Request r;
                CHECK_OK(MPI_Isend(b, n, MPI_CHAR, peer, tag, MPI_COMM_WORLD, &r));
                CHECK_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
            }
            free(b);
        }
    } else {
        int next[3] = {0, 0, 0}; /* next expected index per tag */
        char *b = malloc((8 << 20) + 8);
        for (int k = 0; k < NMSG; k++) {
            MPI_Status st;
            int src = k % 4 == 0 ? MPI_ANY_SOURCE : peer;
            int tag = k % 5 == 0 ? MPI_ANY_TAG : MPI_ANY_TAG;
            CHECK_OK(MPI_Recv(b, (8 << 20) + 8, MPI_CHAR, src, tag, MPI_COMM_WORLD, &st));
            int t = st.MPI_TAG;
            CHECK(t == 1 || t == 2, "tag %d", t);
            /* the message with the smallest index of that tag not yet seen */
            int i = next[t];
            while ((i % 3 == 0 ? 1 : 2) != t)
                i++;
            next[t] = i + 1;
            int n = msg_size(i), count;
            MPI_Get_count(&st, MPI_CHAR, &count);
            CHECK(count == n, "message %d: %d bytes, expected %d (order broken?)", i, count, n);
            for (int j = 0; j < n; j += 997)
                CHECK(b[j] == (char)(i & 0xff), "message %d byte %d", i, j);
        }
        free(b);
    }
    /* 2. specific-tag receives posted in the opposite order of the sends */
    if (rank % 2 == 0) {
        for (int t = 0; t < 10; t++) {
            int v = t * 11;
            CHECK_OK(MPI_Send(&v, 1, MPI_INT, peer, 100 + t, MPI_COMM_WORLD));
        }
    } else {
        MPI_Request r[10];
        int v[10];
        for (int t = 9; t >= 0; t--)
            CHECK_OK(MPI_Irecv(&v[t], 1, MPI_INT, peer, 100 + t, MPI_COMM_WORLD, &r[t]));
        CHECK_OK(MPI_Waitall(10, r, MPI_STATUSES_IGNORE));
        for (int t = 0; t < 10; t++)
            CHECK(v[t] == t * 11, "tag %d got %d", 100 + t, v[t]);
    }
    /* 3. progress rule: both sides Isend large then Irecv, then wait */
    int n = 4 << 20;
    char *sb = malloc((size_t)n), *rb = malloc((size_t)n);
    memset(sb, rank + 1, (size_t)n);
    MPI_Request rq[2];
    CHECK_OK(MPI_Isend(sb, n, MPI_CHAR, peer, 7, MPI_COMM_WORLD, &rq[0]));
    CHECK_OK(MPI_Irecv(rb, n, MPI_CHAR, peer, 7, MPI_COMM_WORLD, &rq[1]));
    MPI_Status sts[2];
    CHECK_OK(MPI_Waitall(2, rq, sts));
    CHECK(rb[0] == peer + 1 && rb[n - 1] == peer + 1, "exchange data");
    CHECK(sts[1].MPI_SOURCE == peer && sts[1].MPI_TAG == 7, "exchange status");
    free(sb);
    free(rb);
    MPI_Finalize();
    return 0;
}
