/*
 * p2p_probe.c: MPI_Probe/MPI_Iprobe report the first matching message
 * without receiving it; MPI_Mprobe/MPI_Improbe take it so only
 * MPI_Mrecv/MPI_Imrecv get it; MPI_MESSAGE_NO_PROC for MPI_PROC_NULL.
 */
#include "testutil.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int peer = (rank + 1) % size, from = (rank + size - 1) % size;
    int sizes[3] = {3, 5000, 300000};
    for (int k = 0; k < 3; k++) {
        int n = sizes[k];
        int *sb = malloc((size_t)n * sizeof(int)), *rb = malloc((size_t)n * sizeof(int));
        for (int i = 0; i < n; i++)
            sb[i] = i * (k + 1);
        MPI_Request r[2];
        CHECK_OK(MPI_Isend(sb, n, MPI_INT, peer, 10 + k, MPI_COMM_WORLD, &r[0]));
        CHECK_OK(MPI_Isend(sb, n, MPI_INT, peer, 20 + k, MPI_COMM_WORLD, &r[1]));
        MPI_Status st;
        CHECK_OK(MPI_Probe(from, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
        CHECK(st.MPI_TAG == 10 + k && st.MPI_SOURCE == from, "probe found tag %d", st.MPI_TAG);
        int count;
        MPI_Get_count(&st, MPI_INT, &count);
        CHECK(count == n, "probe count %d", count);
        int flag = 0;
        while (!flag)
            CHECK_OK(MPI_Iprobe(MPI_ANY_SOURCE, 20 + k, MPI_COMM_WORLD, &flag, &st));
        CHECK(st.MPI_TAG == 20 + k, "iprobe tag");
        /* matched probe removes the first message from the queue */
        MPI_Message m;
        CHECK_OK(MPI_Mprobe(from, 10 + k, MPI_COMM_WORLD, &m, &st));
        CHECK(m != MPI_MESSAGE_NULL, "mprobe message");
        CHECK_OK(MPI_Iprobe(from, 10 + k, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
        CHECK(!flag, "message still visible after MPI_Mprobe");
        CHECK_OK(MPI_Mrecv(rb, n, MPI_INT, &m, &st));
        CHECK(m == MPI_MESSAGE_NULL && st.MPI_TAG == 10 + k, "mrecv");
        for (int i = 0; i < n; i++)
            CHECK(rb[i] == i * (k + 1), "mrecv data %d", i);
        flag = 0;
        while (!flag)
            CHECK_OK(MPI_Improbe(from, 20 + k, MPI_COMM_WORLD, &flag, &m, &st));
        MPI_Request rr;
        CHECK_OK(MPI_Imrecv(rb, n, MPI_INT, &m, &rr));
        CHECK_OK(MPI_Wait(&rr, &st));
        MPI_Get_count(&st, MPI_INT, &count);
        CHECK(count == n && st.MPI_TAG == 20 + k, "imrecv status");
        CHECK(rb[n - 1] == (n - 1) * (k + 1), "imrecv data");
        CHECK_OK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
        free(sb);
        free(rb);
    }
    MPI_Message m;
    MPI_Status st;
    int flag;
    CHECK_OK(MPI_Improbe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &flag, &m, &st));
    CHECK(flag && m == MPI_MESSAGE_NO_PROC && st.MPI_SOURCE == MPI_PROC_NULL, "no proc");
    int v = 7;
    CHECK_OK(MPI_Mrecv(&v, 1, MPI_INT, &m, &st));
    CHECK(m == MPI_MESSAGE_NULL && v == 7 && st.MPI_SOURCE == MPI_PROC_NULL, "mrecv no proc");
    MPI_Finalize();
    return 0;
}
