/*
 * p2p_persistent.c: persistent requests of every mode reused many times
 * (MPI_Start, MPI_Startall), inactive requests in MPI_Wait/MPI_Test, and
 * MPI_Request_free of an inactive and of an active persistent request.
 */
#include "testutil.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int peer = rank ^ 1;
    int bsz = 4 * (1000 + MPI_BSEND_OVERHEAD) + 64 * 1024;
    void *bb = malloc((size_t)bsz);
    MPI_Buffer_attach(bb, bsz);
    int round = 0;
    for (int size = 1; size <= 1 << 18; size *= 8, round++) {
        int *sb = malloc((size_t)size * sizeof(int)), *rb = malloc((size_t)size * sizeof(int));
        MPI_Request req[5];
        int nreq = 0;
        if (rank < 2) {
            CHECK_OK(MPI_Recv_init(rb, size, MPI_INT, peer, 1, MPI_COMM_WORLD, &req[nreq++]));
            int mode = round % 3;
            if (mode == 0 || size > 1000)
                CHECK_OK(MPI_Send_init(sb, size, MPI_INT, peer, 1, MPI_COMM_WORLD, &req[nreq++]));
            else if (mode == 1)
                CHECK_OK(MPI_Ssend_init(sb, size, MPI_INT, peer, 1, MPI_COMM_WORLD, &req[nreq++]));
            else
                CHECK_OK(MPI_Bsend_init(sb, size, MPI_INT, peer, 1, MPI_COMM_WORLD, &req[nreq++]));
            /* an inactive persistent request completes at once with an empty status */
            MPI_Status st;
            int flag;
            CHECK_OK(MPI_Test(&req[0], &flag, &st));
            CHECK(flag && st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG, "inactive test");
            int iters = size > 10000 ? 50 : 1000;
            for (int it = 0; it < iters; it++) {
                for (int i = 0; i < size; i += 17)
                    sb[i] = it * 1000 + i + rank;
                sb[size - 1] = it;
                if (it % 2)
                    CHECK_OK(MPI_Startall(nreq, req));
                else
                    for (int k = 0; k < nreq; k++)
                        CHECK_OK(MPI_Start(&req[k]));
                MPI_Status sts[2];
                CHECK_OK(MPI_Waitall(nreq, req, sts));
                CHECK(req[0] != MPI_REQUEST_NULL, "persistent request freed by MPI_Waitall");
                CHECK(sts[0].MPI_SOURCE == peer && sts[0].MPI_TAG == 1, "status");
                for (int i = 0; i < size - 1; i += 17)
                    CHECK(rb[i] == it * 1000 + i + peer, "iteration %d element %d: %d", it, i, rb[i]);
                CHECK(rb[size - 1] == it, "last element");
            }
            for (int k = 0; k < nreq; k++) {
                CHECK_OK(MPI_Request_free(&req[k]));
                CHECK(req[k] == MPI_REQUEST_NULL, "free");
            }
        }
        free(sb);
        free(rb);
    }
    /* freeing an active persistent request: the operation still completes */
    if (rank < 2) {
        int v = rank, w = -1;
        MPI_Request s, r;
        CHECK_OK(MPI_Recv_init(&w, 1, MPI_INT, peer, 9, MPI_COMM_WORLD, &r));
        CHECK_OK(MPI_Send_init(&v, 1, MPI_INT, peer, 9, MPI_COMM_WORLD, &s));
        CHECK_OK(MPI_Start(&s));
        CHECK_OK(MPI_Request_free(&s));
        CHECK_OK(MPI_Start(&r));
        CHECK_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        CHECK(w == peer, "got %d", w);
        CHECK_OK(MPI_Request_free(&r));
    }
    void *det;
    int ds;
    MPI_Buffer_detach(&det, &ds);
    free(bb);
    MPI_Finalize();
    return 0;
}
