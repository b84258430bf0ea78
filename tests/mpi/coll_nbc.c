/*
 * coll_nbc.c: what nonblocking collectives promise beyond their results:
 * many in flight on one communicator, completed in another order; progress
 * through MPI_Test alone; the any/some/all completion calls and
 * MPI_Request_get_status over a mix of collective and point-to-point
 * requests; the datatype, the op and the communicator freed while the
 * operation is pending; point-to-point traffic interleaved; MPI_COMM_SELF.
 * Prints "coll_nbc: ok".
 */
#include "testutil.h"

static int rank, size;

static void many_in_flight(void)
{
    enum { N = 40, K = 17 };
    static int in[N][K], out[N][K];
    MPI_Request rq[N];
    for (int j = 0; j < N; j++) {
        for (int i = 0; i < K; i++)
            in[j][i] = rank * (j + 1) + i;
        CHECK_OK(MPI_Iallreduce(in[j], out[j], K, MPI_INT, j % 2 ? MPI_MAX : MPI_SUM, MPI_COMM_WORLD, &rq[j]));
    }
    for (int j = N - 1; j >= 0; j--)
        CHECK_OK(MPI_Wait(&rq[j], MPI_STATUS_IGNORE));
    for (int j = 0; j < N; j++)
        for (int i = 0; i < K; i++) {
            int want = j % 2 ? (size - 1) * (j + 1) + i : (j + 1) * size * (size - 1) / 2 + size * i;
            CHECK(out[j][i] == want, "many in flight: op %d element %d: %d want %d", j, i, out[j][i], want);
        }
}

static void test_only(void)
{
    int n = 1 << 18;
    int *b = malloc((size_t)n * sizeof *b);
    for (int i = 0; i < n; i++)
        b[i] = rank == size / 2 ? i ^ 0x5a5a : -1;
    MPI_Request rq;
    CHECK_OK(MPI_Ibcast(b, n, MPI_INT, size / 2, MPI_COMM_WORLD, &rq));
    int flag = 0;
    long polls = 0;
    while (!flag) {
        CHECK_OK(MPI_Test(&rq, &flag, MPI_STATUS_IGNORE));
        polls++;
    }
    CHECK(rq == MPI_REQUEST_NULL, "MPI_Test did not free the request");
    for (int i = 0; i < n; i++)
        CHECK(b[i] == (i ^ 0x5a5a), "ibcast by MPI_Test: element %d", i);
    free(b);
}

static void completion_calls(void)
{
    int x = rank, sum = 0, mx = 0, tok = -1;
    MPI_Request rq[4];
    CHECK_OK(MPI_Iallreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq[0]));
    CHECK_OK(MPI_Irecv(&tok, 1, MPI_INT, (rank - 1 + size) % size, 5, MPI_COMM_WORLD, &rq[1]));
    CHECK_OK(MPI_Isend(&x, 1, MPI_INT, (rank + 1) % size, 5, MPI_COMM_WORLD, &rq[2]));
    CHECK_OK(MPI_Iallreduce(&x, &mx, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &rq[3]));
    int flag = 0;
    MPI_Status st;
    st.MPI_ERROR = MPI_ERR_PENDING; /* single-status calls leave MPI_ERROR alone */
    do {
        CHECK_OK(MPI_Request_get_status(rq[3], &flag, &st));
    } while (!flag);
    CHECK(st.MPI_ERROR == MPI_ERR_PENDING, "get_status changed MPI_ERROR to %d", st.MPI_ERROR);
    int done = 0;
    while (done < 4) {
        int idx[4], outc;
        CHECK_OK(MPI_Waitsome(4, rq, &outc, idx, MPI_STATUSES_IGNORE));
        CHECK(outc != MPI_UNDEFINED, "waitsome: nothing active");
        done += outc;
    }
    CHECK(sum == size * (size - 1) / 2 && mx == size - 1 && tok == (rank - 1 + size) % size, "mixed completion");
    /* waitany and testany */
    int a = 1, b = 0, c = 0;
    CHECK_OK(MPI_Iallreduce(&a, &b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq[0]));
    CHECK_OK(MPI_Ibarrier(MPI_COMM_WORLD, &rq[1]));
    CHECK_OK(MPI_Iscan(&a, &c, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq[2]));
    for (int k = 0; k < 3; k++) {
        int idx;
        if (k == 1) {
            int fl = 0;
            while (!fl)
                CHECK_OK(MPI_Testany(3, rq, &idx, &fl, MPI_STATUS_IGNORE));
        } else {
            CHECK_OK(MPI_Waitany(3, rq, &idx, MPI_STATUS_IGNORE));
        }
        CHECK(idx >= 0 && idx < 3, "waitany index");
    }
    CHECK(b == size && c == rank + 1, "waitany results");
}

static void freed_while_pending(void)
{
    MPI_Datatype vec;
    MPI_Type_vector(3, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int s[6], r[6] = {0};
    for (int i = 0; i < 6; i++)
        s[i] = rank + i;
    MPI_Comm d;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    MPI_Request rq[2];
    CHECK_OK(MPI_Iallreduce(s, r, 1, vec, MPI_MAX, d, &rq[0]));
    CHECK_OK(MPI_Ibarrier(d, &rq[1]));
    MPI_Type_free(&vec);
    MPI_Comm_free(&d);
    CHECK_OK(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    CHECK(r[0] == size - 1 && r[2] == size + 1 && r[4] == size + 3 && r[1] == 0, "freed type/comm: %d %d %d",
          r[0], r[2], r[4]);
}

static void user_max(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    int *a = in, *b = inout;
    for (int i = 0; i < *len; i++)
        if (a[i] > b[i])
            b[i] = a[i];
}

static void freed_op(void)
{
    MPI_Op op;
    MPI_Op_create(user_max, 1, &op);
    int s[3] = {rank, -rank, 7}, r[3];
    MPI_Request rq;
    CHECK_OK(MPI_Ireduce(s, r, 3, MPI_INT, op, 0, MPI_COMM_WORLD, &rq));
    MPI_Op_free(&op);
    CHECK(op == MPI_OP_NULL, "op_free");
    CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    if (rank == 0)
        CHECK(r[0] == size - 1 && r[1] == 0 && r[2] == 7, "freed op");
}

static void interleaved(void)
{
    enum { K = 1000 };
    static int a[K], b[K];
    for (int i = 0; i < K; i++)
        a[i] = rank + i;
    MPI_Request rq;
    CHECK_OK(MPI_Ialltoall(a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD, &rq));
    /* a ring of messages while the alltoall is pending */
    int tok = rank, got = -1;
    for (int step = 0; step < 3; step++) {
        CHECK_OK(MPI_Sendrecv(&tok, 1, MPI_INT, (rank + 1) % size, 11, &got, 1, MPI_INT, (rank - 1 + size) % size,
                              11, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        tok = got;
    }
    CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    for (int j = 0; j < size; j++)
        CHECK(b[j] == j + rank, "interleaved alltoall: block %d", j);
    CHECK(tok == ((rank - 3) % size + size) % size, "interleaved ring");
}

static void self(void)
{
    int x = 5, y = 0;
    MPI_Request rq;
    CHECK_OK(MPI_Iallreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF, &rq));
    CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK(y == 5, "self iallreduce");
    CHECK_OK(MPI_Ibarrier(MPI_COMM_SELF, &rq));
    MPI_Status st;
    st.MPI_ERROR = MPI_ERR_PENDING;
    CHECK_OK(MPI_Wait(&rq, &st));
    CHECK(st.MPI_ERROR == MPI_ERR_PENDING, "self ibarrier status: MPI_ERROR changed to %d", st.MPI_ERROR);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    many_in_flight();
    test_only();
    completion_calls();
    freed_while_pending();
    freed_op();
    interleaved();
    self();
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("coll_nbc: ok\n");
    MPI_Finalize();
    return 0;
}
