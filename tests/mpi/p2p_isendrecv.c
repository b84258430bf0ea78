/*
 * p2p_isendrecv.c: MPI_Isendrecv and MPI_Isendrecv_replace (MPI-4.0
 * 3.10): around a ring at eager and rendezvous sizes, with derived
 * datatypes, MPI_PROC_NULL on either side and both, the send and the
 * receive with the same peer and tag, several at once completed by
 * MPI_Testany and MPI_Waitall, MPI_Request_get_status, MPI_Cancel of one
 * whose message never comes, and the error classes of bad arguments.
 */
#include "testutil.h"

static int rank, size, left, right;

static double val(int r, int i, int salt)
{
    return r * 1000.0 + i * 0.5 + salt;
}

static void ring_contig(int n)
{
    double *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
    for (int i = 0; i < n; i++) {
        a[i] = val(rank, i, 1);
        b[i] = -1;
    }
    MPI_Request r;
    MPI_Status st;
    CHECK_OK(MPI_Isendrecv(a, n, MPI_DOUBLE, right, 7, b, n, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, &r));
    CHECK_OK(MPI_Wait(&r, &st));
    CHECK(r == MPI_REQUEST_NULL, "the request is not freed by MPI_Wait");
    int cnt;
    MPI_Get_count(&st, MPI_DOUBLE, &cnt);
    CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 7 && cnt == n, "status: source %d tag %d count %d (n %d)",
          st.MPI_SOURCE, st.MPI_TAG, cnt, n);
    for (int i = 0; i < n; i++)
        CHECK(b[i] == val(left, i, 1), "isendrecv data at %d of %d: %g", i, n, b[i]);
    /* replace: the buffer goes right and comes from the left */
    CHECK_OK(MPI_Isendrecv_replace(a, n, MPI_DOUBLE, right, 8, left, 8, MPI_COMM_WORLD, &r));
    CHECK_OK(MPI_Wait(&r, &st));
    MPI_Get_count(&st, MPI_DOUBLE, &cnt);
    CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 8 && cnt == n, "replace status");
    for (int i = 0; i < n; i++)
        CHECK(a[i] == val(left, i, 1), "isendrecv_replace data at %d of %d: %g", i, n, a[i]);
    free(a);
    free(b);
}

/* every other double of 2n (a vector type), and the replace form with it */
static void ring_vector(int n)
{
    MPI_Datatype vec;
    CHECK_OK(MPI_Type_vector(n, 1, 2, MPI_DOUBLE, &vec));
    CHECK_OK(MPI_Type_commit(&vec));
    double *a = malloc(2 * (size_t)n * sizeof *a), *b = malloc(2 * (size_t)n * sizeof *b);
    for (int i = 0; i < 2 * n; i++) {
        a[i] = val(rank, i, 2);
        b[i] = -1;
    }
    MPI_Request r;
    /* sent as a vector, received contiguous into the first n of b */
    CHECK_OK(MPI_Isendrecv(a, 1, vec, right, 9, b, n, MPI_DOUBLE, left, 9, MPI_COMM_WORLD, &r));
    CHECK_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int i = 0; i < n; i++)
        CHECK(b[i] == val(left, 2 * i, 2), "vector isendrecv data at %d of %d", i, n);
    for (int i = n; i < 2 * n; i++)
        CHECK(b[i] == -1, "vector isendrecv wrote past the message at %d", i);
    /* replace with the vector: only the even slots change, from the left */
    CHECK_OK(MPI_Isendrecv_replace(a, 1, vec, right, 10, left, 10, MPI_COMM_WORLD, &r));
    CHECK_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int i = 0; i < 2 * n; i++) {
        double want = i % 2 == 0 ? val(left, i, 2) : val(rank, i, 2);
        CHECK(a[i] == want, "vector isendrecv_replace data at %d of %d: %g, want %g", i, 2 * n, a[i], want);
    }
    MPI_Type_free(&vec);
    free(a);
    free(b);
}

/* a chain: rank 0 receives from MPI_PROC_NULL, the last sends to it */
static void chain_proc_null(void)
{
    int src = rank == 0 ? MPI_PROC_NULL : rank - 1;
    int dst = rank == size - 1 ? MPI_PROC_NULL : rank + 1;
    int a[4] = {rank, rank, rank, rank}, b[4] = {-5, -5, -5, -5};
    MPI_Request r;
    MPI_Status st;
    CHECK_OK(MPI_Isendrecv(a, 4, MPI_INT, dst, 11, b, 4, MPI_INT, src, 11, MPI_COMM_WORLD, &r));
    CHECK_OK(MPI_Wait(&r, &st));
    int cnt;
    MPI_Get_count(&st, MPI_INT, &cnt);
    if (src == MPI_PROC_NULL) {
        CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && cnt == 0,
              "receive from MPI_PROC_NULL: source %d tag %d count %d", st.MPI_SOURCE, st.MPI_TAG, cnt);
        CHECK(b[0] == -5 && b[3] == -5, "receive from MPI_PROC_NULL changed the buffer");
    } else {
        CHECK(st.MPI_SOURCE == src && cnt == 4 && b[0] == src && b[3] == src, "chain data");
    }
    int c[2] = {rank, rank};
    CHECK_OK(MPI_Isendrecv_replace(c, 2, MPI_INT, dst, 12, src, 12, MPI_COMM_WORLD, &r));
    CHECK_OK(MPI_Wait(&r, &st));
    if (src == MPI_PROC_NULL)
        CHECK(c[0] == rank && c[1] == rank && st.MPI_SOURCE == MPI_PROC_NULL, "replace from MPI_PROC_NULL");
    else
        CHECK(c[0] == src && c[1] == src, "replace chain data");
    /* both sides MPI_PROC_NULL, with nothing to move */
    CHECK_OK(MPI_Isendrecv(NULL, 0, MPI_DATATYPE_NULL, MPI_PROC_NULL, 0, NULL, 0, MPI_DATATYPE_NULL, MPI_PROC_NULL,
                           0, MPI_COMM_WORLD, &r));
    int flag = 0;
    CHECK_OK(MPI_Test(&r, &flag, &st));
    CHECK(flag && r == MPI_REQUEST_NULL && st.MPI_SOURCE == MPI_PROC_NULL, "both MPI_PROC_NULL: complete at once");
    CHECK_OK(MPI_Isendrecv_replace(c, 2, MPI_INT, MPI_PROC_NULL, 0, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r));
    CHECK_OK(MPI_Wait(&r, &st));
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "replace, both MPI_PROC_NULL");
}

/* partners exchange: the send and the receive name the same peer and tag */
static void same_peer_tag(int n)
{
    int peer = rank ^ 1;
    if (peer >= size)
        peer = MPI_PROC_NULL;
    double *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
    for (int i = 0; i < n; i++)
        a[i] = val(rank, i, 3);
    MPI_Request r;
    MPI_Status st;
    CHECK_OK(MPI_Isendrecv(a, n, MPI_DOUBLE, peer, 5, b, n, MPI_DOUBLE, peer, 5, MPI_COMM_WORLD, &r));
    CHECK_OK(MPI_Wait(&r, &st));
    if (peer != MPI_PROC_NULL)
        for (int i = 0; i < n; i++)
            CHECK(b[i] == val(peer, i, 3), "same peer and tag data at %d of %d", i, n);
    CHECK_OK(MPI_Isendrecv_replace(a, n, MPI_DOUBLE, peer, 5, peer, 5, MPI_COMM_WORLD, &r));
    CHECK_OK(MPI_Wait(&r, &st));
    if (peer != MPI_PROC_NULL)
        for (int i = 0; i < n; i++)
            CHECK(a[i] == val(peer, i, 3), "same peer and tag replace data at %d of %d", i, n);
    free(a);
    free(b);
}

/* several at once, both directions, completed with Testany then Waitall */
static void many(int n)
{
    enum { K = 4 };
    double *buf[K], *out[K];
    MPI_Request r[K];
    for (int k = 0; k < K; k++) {
        buf[k] = malloc((size_t)n * sizeof(double));
        out[k] = malloc((size_t)n * sizeof(double));
        for (int i = 0; i < n; i++)
            out[k][i] = val(rank, i, 10 + k);
        int to = k % 2 ? left : right, from = k % 2 ? right : left;
        if (k < 2)
            CHECK_OK(MPI_Isendrecv(out[k], n, MPI_DOUBLE, to, 20 + k, buf[k], n, MPI_DOUBLE, from, 20 + k,
                                   MPI_COMM_WORLD, &r[k]));
        else
            CHECK_OK(MPI_Isendrecv_replace(out[k], n, MPI_DOUBLE, to, 20 + k, from, 20 + k, MPI_COMM_WORLD, &r[k]));
    }
    /* the first to complete through Testany, checked by its status */
    int index = MPI_UNDEFINED, flag = 0;
    MPI_Status st;
    while (!flag)
        CHECK_OK(MPI_Testany(K, r, &index, &flag, &st));
    CHECK(index >= 0 && index < K && r[index] == MPI_REQUEST_NULL, "Testany index %d", index);
    CHECK(st.MPI_TAG == 20 + index && st.MPI_SOURCE == (index % 2 ? right : left), "Testany status");
    /* Request_get_status leaves it for the Waitall */
    int other = (index + 1) % K;
    flag = 0;
    while (!flag)
        CHECK_OK(MPI_Request_get_status(r[other], &flag, &st));
    CHECK(r[other] != MPI_REQUEST_NULL && st.MPI_TAG == 20 + other, "Request_get_status");
    MPI_Status sts[K];
    CHECK_OK(MPI_Waitall(K, r, sts));
    for (int k = 0; k < K; k++) {
        int from = k % 2 ? right : left;
        if (k != index)
            CHECK(sts[k].MPI_SOURCE == from && sts[k].MPI_TAG == 20 + k, "Waitall status %d", k);
        const double *got = k < 2 ? buf[k] : out[k];
        for (int i = 0; i < n; i++)
            CHECK(got[i] == val(from, i, 10 + k), "many: request %d data at %d of %d", k, i, n);
        free(buf[k]);
        free(out[k]);
    }
}

/* MPI_Cancel: the message never comes, so the receive is cancelled and
 * the request completes with a cancelled status */
static void cancel(void)
{
    int x = -3, y = 42;
    MPI_Request r;
    MPI_Status st;
    CHECK_OK(MPI_Isendrecv(&y, 1, MPI_INT, MPI_PROC_NULL, 0, &x, 1, MPI_INT, left, 999, MPI_COMM_WORLD, &r));
    CHECK_OK(MPI_Cancel(&r));
    CHECK_OK(MPI_Wait(&r, &st));
    int c = 0;
    CHECK_OK(MPI_Test_cancelled(&st, &c));
    CHECK(c && x == -3, "cancelled isendrecv: cancelled %d, buffer %d", c, x);
    /* one that has completed is not cancelled */
    CHECK_OK(MPI_Isendrecv(&y, 1, MPI_INT, right, 30, &x, 1, MPI_INT, left, 30, MPI_COMM_WORLD, &r));
    int flag = 0;
    while (!flag)
        CHECK_OK(MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Cancel(&r));
    CHECK_OK(MPI_Wait(&r, &st));
    CHECK_OK(MPI_Test_cancelled(&st, &c));
    CHECK(!c && x == 42, "completed isendrecv: cancelled %d, buffer %d", c, x);
}

static void errors(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int a = 0, b = 0;
    MPI_Request r;
    CHECK_ERR(MPI_Isendrecv(&a, 1, MPI_INT, size, 0, &b, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &r), MPI_ERR_RANK);
    CHECK_ERR(MPI_Isendrecv(&a, 1, MPI_INT, right, 0, &b, 1, MPI_INT, -7, 0, MPI_COMM_WORLD, &r), MPI_ERR_RANK);
    CHECK_ERR(MPI_Isendrecv(&a, -1, MPI_INT, right, 0, &b, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &r), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Isendrecv(&a, 1, MPI_INT, right, -2, &b, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &r), MPI_ERR_TAG);
    CHECK_ERR(MPI_Isendrecv(&a, 1, MPI_DATATYPE_NULL, right, 0, &b, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &r),
              MPI_ERR_TYPE);
    CHECK_ERR(MPI_Isendrecv(&a, 1, MPI_INT, right, 0, &b, 1, MPI_INT, left, 0, MPI_COMM_NULL, &r), MPI_ERR_COMM);
    CHECK_ERR(MPI_Isendrecv(&a, 1, MPI_INT, right, 0, &b, 1, MPI_INT, left, 0, MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Isendrecv_replace(&a, 1, MPI_INT, size, 0, left, 0, MPI_COMM_WORLD, &r), MPI_ERR_RANK);
    CHECK_ERR(MPI_Isendrecv_replace(&a, -1, MPI_INT, right, 0, left, 0, MPI_COMM_WORLD, &r), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Isendrecv_replace(&a, 1, MPI_INT, right, 0, left, -5, MPI_COMM_WORLD, &r), MPI_ERR_TAG);
    CHECK_ERR(MPI_Isendrecv_replace(&a, 1, MPI_INT, right, 0, left, 0, MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    /* 1 element, a few KiB (eager), 2 MiB (rendezvous) */
    const int sizes[] = {1, 500, 1 << 18};
    for (int s = 0; s < 3; s++) {
        ring_contig(sizes[s]);
        ring_vector(sizes[s]);
        same_peer_tag(sizes[s]);
        many(sizes[s]);
    }
    chain_proc_null();
    cancel();
    errors();
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("p2p_isendrecv: ok\n");
    MPI_Finalize();
    return 0;
}
