/*
 * p2p_sendrecv.c: MPI_Sendrecv and MPI_Sendrecv_replace around a ring, at
 * sizes that are eager and rendezvous, plus generalized requests.
 */
#include "testutil.h"

static int queried, freed;

static int q_fn(void *extra, MPI_Status *st)
{
    queried++;
    MPI_Status_set_cancelled(st, 0);
    st->MPI_SOURCE = *(int *)extra;
    st->MPI_TAG = 42;
    return MPI_SUCCESS;
}
static int f_fn(void *extra)
{
    (void)extra;
    freed++;
    return MPI_SUCCESS;
}
static int c_fn(void *extra, int complete)
{
    (void)extra;
    (void)complete;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (int n = 1; n <= 1 << 20; n *= 32) {
        double *a = malloc((size_t)n * sizeof(double)), *b = malloc((size_t)n * sizeof(double));
        for (int i = 0; i < n; i++)
            a[i] = rank + i * 0.5;
        MPI_Status st;
        CHECK_OK(MPI_Sendrecv(a, n, MPI_DOUBLE, right, 1, b, n, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &st));
        CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 1, "sendrecv status");
        for (int i = 0; i < n; i++)
            CHECK(b[i] == left + i * 0.5, "sendrecv data");
        CHECK_OK(MPI_Sendrecv_replace(a, n, MPI_DOUBLE, right, 2, left, 2, MPI_COMM_WORLD, &st));
        for (int i = 0; i < n; i++)
            CHECK(a[i] == left + i * 0.5, "sendrecv_replace data");
        free(a);
        free(b);
    }
    /* generalized requests */
    MPI_Request g;
    int who = 3;
    CHECK_OK(MPI_Grequest_start(q_fn, f_fn, c_fn, &who, &g));
    int flag;
    MPI_Status st;
    CHECK_OK(MPI_Test(&g, &flag, &st));
    CHECK(!flag, "generalized request complete too early");
    CHECK_OK(MPI_Grequest_complete(g));
    CHECK_OK(MPI_Wait(&g, &st));
    CHECK(g == MPI_REQUEST_NULL && queried == 1 && freed == 1, "grequest: queried %d freed %d", queried, freed);
    CHECK(st.MPI_SOURCE == 3 && st.MPI_TAG == 42, "grequest status");
    CHECK_OK(MPI_Grequest_start(q_fn, f_fn, c_fn, &who, &g));
    MPI_Request g2 = g;
    CHECK_OK(MPI_Request_free(&g));
    CHECK_OK(MPI_Grequest_complete(g2));
    CHECK(freed == 2, "free_fn after MPI_Request_free + complete: %d", freed);
    MPI_Finalize();
    return 0;
}
