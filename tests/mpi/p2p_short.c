/*
 * p2p_short.c: the everyday small-message calls (MPI_Send, MPI_Isend,
 * MPI_Recv, MPI_Irecv, MPI_Sendrecv, MPI_Wait, MPI_Waitall) as the
 * standard defines them, at every payload size from 0 to 200 bytes (so
 * across the sizes where a shared-memory entry's header and payload
 * share a cache line and where they do not): contents, statuses (source,
 * tag, MPI_Get_count), MPI_ANY_SOURCE and MPI_ANY_TAG, non-overtaking
 * between messages that arrive before their receive and after,
 * truncation (MPI_ERR_TRUNCATE returned by MPI_Recv, MPI_Wait and
 * MPI_Sendrecv, in the status from MPI_Waitall), MPI_Waitall over null,
 * inactive persistent and finished requests, a send type whose data
 * starts past the buffer's address (true lower bound above 0), a receive
 * into a strided type, MPI_Cancel of a small send, and argument errors
 * with their classes. Run on 2 processes.
 */
#include "testutil.h"

#define TAG 11
#define MAXB 200

static unsigned char pattern(int size, int i)
{
    return (unsigned char)(size * 7 + i * 13 + 1);
}

static void fill(unsigned char *buf, int size)
{
    for (int i = 0; i < size; i++)
        buf[i] = pattern(size, i);
}

static void check_buf(const unsigned char *buf, int size, int guard, const char *what)
{
    for (int i = 0; i < size; i++)
        CHECK(buf[i] == pattern(size, i), "%s: size %d byte %d is %d", what, size, i, buf[i]);
    for (int i = size; i < size + guard; i++)
        CHECK(buf[i] == 0xee, "%s: size %d: byte %d past the message was written", what, size, i);
}

static void check_status(const MPI_Status *st, int src, int tag, int count, const char *what)
{
    int n = -1;
    MPI_Get_count(st, MPI_BYTE, &n);
    CHECK(st->MPI_SOURCE == src && st->MPI_TAG == tag && n == count, "%s: source %d tag %d count %d", what,
          st->MPI_SOURCE, st->MPI_TAG, n);
}

/* every size, each way of sending against each way of receiving */
static void sizes(int rank)
{
    int peer = 1 - rank;
    unsigned char out[MAXB + 8], in[MAXB + 8];
    for (int size = 0; size <= MAXB; size++) {
        fill(out, size);
        for (int way = 0; way < 4; way++) {
            int tag = TAG + way;
            memset(in, 0xee, sizeof in);
            MPI_Status st;
            if (rank == 0) {
                if (way & 1) {
                    MPI_Request r;
                    CHECK_OK(MPI_Isend(out, size, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &r));
                    CHECK_OK(MPI_Wait(&r, &st));
                    CHECK(r == MPI_REQUEST_NULL, "MPI_Wait left the request");
                } else {
                    CHECK_OK(MPI_Send(out, size, MPI_BYTE, peer, tag, MPI_COMM_WORLD));
                }
                /* the echo, received the other way */
                if (way & 2) {
                    CHECK_OK(MPI_Recv(in, MAXB, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
                } else {
                    MPI_Request r;
                    CHECK_OK(MPI_Irecv(in, MAXB, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &r));
                    CHECK_OK(MPI_Waitall(1, &r, &st));
                }
                check_status(&st, peer, tag, size, "echo");
                check_buf(in, size, 8, "echo");
            } else {
                if (way & 2) {
                    MPI_Request r;
                    CHECK_OK(MPI_Irecv(in, MAXB, MPI_BYTE, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &r));
                    CHECK_OK(MPI_Wait(&r, &st));
                } else {
                    CHECK_OK(MPI_Recv(in, MAXB, MPI_BYTE, peer, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
                }
                check_status(&st, peer, tag, size, "message");
                check_buf(in, size, 8, "message");
                CHECK_OK(MPI_Send(in, size, MPI_BYTE, peer, tag, MPI_COMM_WORLD));
            }
        }
    }
}

/* MPI_Sendrecv between the two at many sizes, both ways at once; one
 * with a receive too short for what comes */
static void exchange(int rank)
{
    int peer = 1 - rank;
    unsigned char out[MAXB + 8], in[MAXB + 8];
    for (int size = 0; size <= MAXB; size += 7) {
        fill(out, size);
        memset(in, 0xee, sizeof in);
        MPI_Status st;
        CHECK_OK(MPI_Sendrecv(out, size, MPI_BYTE, peer, TAG + rank, in, MAXB, MPI_BYTE, peer, TAG + peer,
                              MPI_COMM_WORLD, &st));
        check_status(&st, peer, TAG + peer, size, "MPI_Sendrecv");
        check_buf(in, size, 8, "MPI_Sendrecv");
    }
    fill(out, 30);
    memset(in, 0xee, sizeof in);
    int rc = MPI_Sendrecv(out, 30, MPI_BYTE, peer, TAG, in, rank == 0 ? 10 : 30, MPI_BYTE, peer, TAG, MPI_COMM_WORLD,
                          MPI_STATUS_IGNORE);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == (rank == 0 ? MPI_ERR_TRUNCATE : MPI_SUCCESS), "MPI_Sendrecv into %d bytes of 30: class %d",
          rank == 0 ? 10 : 30, cls);
    CHECK(in[rank == 0 ? 10 : 30] == 0xee, "MPI_Sendrecv wrote past its receive");
    CHECK_ERR(MPI_Sendrecv(out, 1, MPI_BYTE, 5, TAG, in, 1, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
              MPI_ERR_RANK);
}

/* messages that arrive before their receives keep their order, and so do
 * later ones matched by receives posted in advance */
static void order(int rank)
{
    enum { N = 40 };
    int v[N];
    if (rank == 0) {
        for (int i = 0; i < N; i++) {
            v[i] = i;
            CHECK_OK(MPI_Send(&v[i], 1, MPI_INT, 1, i % 3, MPI_COMM_WORLD));
        }
        CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
        MPI_Request r[N];
        for (int i = 0; i < N; i++)
            CHECK_OK(MPI_Isend(&v[i], 1, MPI_INT, 1, TAG, MPI_COMM_WORLD, &r[i]));
        CHECK_OK(MPI_Waitall(N, r, MPI_STATUSES_IGNORE));
    } else {
        CHECK_OK(MPI_Barrier(MPI_COMM_WORLD)); /* every message of the first part has been sent */
        MPI_Request r[N];
        MPI_Status st[N];
        for (int i = 0; i < N; i++)
            CHECK_OK(MPI_Irecv(&v[i], 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &r[i]));
        CHECK_OK(MPI_Waitall(N, r, st));
        for (int i = 0; i < N; i++) {
            CHECK(v[i] == i && st[i].MPI_TAG == i % 3, "early message %d: %d tag %d", i, v[i], st[i].MPI_TAG);
            CHECK(r[i] == MPI_REQUEST_NULL, "MPI_Waitall left request %d", i);
        }
        for (int i = 0; i < N; i++)
            CHECK_OK(MPI_Irecv(&v[i], 1, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &r[i]));
        CHECK_OK(MPI_Waitall(N, r, st));
        for (int i = 0; i < N; i++)
            CHECK(v[i] == i && st[i].MPI_SOURCE == 0, "posted message %d: %d source %d", i, v[i], st[i].MPI_SOURCE);
    }
}

/* a pause before a send, so that the receive is most likely waiting
 * already (the results must be the same either way: only which of the
 * receiver's paths takes the message depends on it) */
static void pause_ms(double ms)
{
    double until = MPI_Wtime() + ms / 1000;
    while (MPI_Wtime() < until)
        ;
}

/* a message longer than its receive: MPI_ERR_TRUNCATE, the receive's
 * bytes filled and no more; once with the message there before the
 * receive, once (most likely) after */
static void truncation(int rank, int late)
{
    unsigned char out[64], in[64];
    fill(out, 40);
    if (rank == 0) {
        for (int k = 0; k < 3; k++) {
            if (late) {
                CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
                pause_ms(20);
            }
            CHECK_OK(MPI_Send(out, 40, MPI_BYTE, 1, TAG, MPI_COMM_WORLD));
        }
        if (!late) /* after the three: once it is received, they are there */
            CHECK_OK(MPI_Send(NULL, 0, MPI_BYTE, 1, TAG + 20, MPI_COMM_WORLD));
        CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
        return;
    }
    if (!late)
        CHECK_OK(MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG + 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MPI_Status st[2];
    MPI_Request r[2];
    memset(in, 0xee, sizeof in);
    if (late)
        CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    int rc = MPI_Recv(in, 20, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, &st[0]);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TRUNCATE, "MPI_Recv of 40 bytes into 20: class %d", cls);
    for (int i = 0; i < 20; i++)
        CHECK(in[i] == pattern(40, i), "truncated MPI_Recv: byte %d", i);
    CHECK(in[20] == 0xee, "truncated MPI_Recv wrote past its buffer");
    if (late)
        CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_OK(MPI_Irecv(in, 10, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, &r[0]));
    rc = MPI_Wait(&r[0], &st[0]);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TRUNCATE, "MPI_Wait of a truncated receive: class %d", cls);
    /* the failing request of a Waitall: MPI_ERR_IN_STATUS */
    int small;
    r[0] = MPI_REQUEST_NULL;
    if (late)
        CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_OK(MPI_Irecv(&small, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, &r[1]));
    rc = MPI_Waitall(2, r, st);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_IN_STATUS, "MPI_Waitall with a truncated receive: class %d", cls);
    MPI_Error_class(st[1].MPI_ERROR, &cls);
    CHECK(cls == MPI_ERR_TRUNCATE, "status of the truncated receive: class %d", cls);
    CHECK(st[0].MPI_ERROR == MPI_SUCCESS && st[0].MPI_SOURCE == MPI_ANY_SOURCE && st[0].MPI_TAG == MPI_ANY_TAG,
          "status of the null request: error %d source %d tag %d", st[0].MPI_ERROR, st[0].MPI_SOURCE,
          st[0].MPI_TAG);
    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
}

/* MPI_Waitall over null, an inactive persistent request, finished sends
 * and receives; the persistent request stays */
static void mixed_waitall(int rank)
{
    int a = 5, b = 0, c = 0;
    MPI_Request r[5];
    MPI_Status st[5];
    MPI_Request pers;
    if (rank == 0) {
        CHECK_OK(MPI_Send_init(&a, 1, MPI_INT, 1, TAG, MPI_COMM_WORLD, &pers));
        r[0] = MPI_REQUEST_NULL;
        r[1] = pers;
        CHECK_OK(MPI_Isend(&a, 1, MPI_INT, 1, TAG + 1, MPI_COMM_WORLD, &r[2]));
        CHECK_OK(MPI_Irecv(&b, 1, MPI_INT, 1, TAG + 2, MPI_COMM_WORLD, &r[3]));
        r[4] = MPI_REQUEST_NULL;
        CHECK_OK(MPI_Waitall(5, r, st));
        CHECK(r[1] == pers, "MPI_Waitall changed an inactive persistent request");
        CHECK(r[0] == MPI_REQUEST_NULL && r[2] == MPI_REQUEST_NULL && r[3] == MPI_REQUEST_NULL,
              "MPI_Waitall left requests");
        CHECK(b == 6 && st[3].MPI_SOURCE == 1 && st[3].MPI_TAG == TAG + 2, "receive: %d", b);
        CHECK(st[0].MPI_SOURCE == MPI_ANY_SOURCE && st[1].MPI_SOURCE == MPI_ANY_SOURCE,
              "empty statuses: sources %d %d", st[0].MPI_SOURCE, st[1].MPI_SOURCE);
        /* and active: it completes with the rest */
        CHECK_OK(MPI_Start(&pers));
        CHECK_OK(MPI_Isend(&a, 1, MPI_INT, 1, TAG + 3, MPI_COMM_WORLD, &r[0]));
        r[1] = pers;
        CHECK_OK(MPI_Waitall(2, r, st));
        CHECK(r[1] == pers && r[0] == MPI_REQUEST_NULL, "MPI_Waitall with an active persistent request");
        CHECK_OK(MPI_Request_free(&pers));
    } else {
        b = 6;
        CHECK_OK(MPI_Recv(&c, 1, MPI_INT, 0, TAG + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_OK(MPI_Send(&b, 1, MPI_INT, 0, TAG + 2, MPI_COMM_WORLD));
        CHECK_OK(MPI_Recv(&c, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_OK(MPI_Recv(&c, 1, MPI_INT, 0, TAG + 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(c == 5, "got %d", c);
    }
}

/* a send type whose data starts 8 bytes past buf, and a strided receive */
static void types(int rank)
{
    MPI_Datatype offset, strided;
    int len = 3, disp = 2; /* three ints starting at buf + 8 */
    CHECK_OK(MPI_Type_create_indexed_block(1, len, &disp, MPI_INT, &offset));
    CHECK_OK(MPI_Type_commit(&offset));
    CHECK_OK(MPI_Type_vector(3, 1, 2, MPI_INT, &strided));
    CHECK_OK(MPI_Type_commit(&strided));
    int buf[6] = {-1, -1, 10, 11, 12, -1}, got[6] = {0, 0, 0, 0, 0, 0};
    if (rank == 0) {
        CHECK_OK(MPI_Send(buf, 1, offset, 1, TAG, MPI_COMM_WORLD));
        MPI_Request r;
        CHECK_OK(MPI_Isend(buf, 1, offset, 1, TAG, MPI_COMM_WORLD, &r));
        CHECK_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    } else {
        CHECK_OK(MPI_Recv(got, 3, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(got[0] == 10 && got[1] == 11 && got[2] == 12, "offset type: %d %d %d", got[0], got[1], got[2]);
        memset(got, 0, sizeof got);
        MPI_Request r;
        MPI_Status st;
        CHECK_OK(MPI_Irecv(got, 1, strided, 0, TAG, MPI_COMM_WORLD, &r));
        CHECK_OK(MPI_Waitall(1, &r, &st));
        CHECK(got[0] == 10 && got[1] == 0 && got[2] == 11 && got[3] == 0 && got[4] == 12,
              "strided receive: %d %d %d %d %d", got[0], got[1], got[2], got[3], got[4]);
        int n = -1;
        MPI_Get_count(&st, strided, &n);
        CHECK(n == 1, "strided receive: count %d", n);
    }
    MPI_Type_free(&offset);
    MPI_Type_free(&strided);
}

/* a small send cancelled: either it was cancelled and never arrives, or
 * it completed and arrives */
static void cancel(int rank)
{
    int v = 77, flag = 0;
    if (rank == 0) {
        MPI_Request r;
        MPI_Status st;
        CHECK_OK(MPI_Isend(&v, 1, MPI_INT, 1, TAG + 9, MPI_COMM_WORLD, &r));
        CHECK_OK(MPI_Cancel(&r));
        CHECK_OK(MPI_Wait(&r, &st));
        CHECK_OK(MPI_Test_cancelled(&st, &flag));
        CHECK_OK(MPI_Send(&flag, 1, MPI_INT, 1, TAG + 8, MPI_COMM_WORLD));
    } else {
        CHECK_OK(MPI_Recv(&flag, 1, MPI_INT, 0, TAG + 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        int there = 0;
        CHECK_OK(MPI_Iprobe(0, TAG + 9, MPI_COMM_WORLD, &there, MPI_STATUS_IGNORE));
        CHECK(there == !flag, "cancelled %d, yet the message is %s", flag, there ? "there" : "not there");
        if (there) {
            CHECK_OK(MPI_Recv(&v, 1, MPI_INT, 0, TAG + 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(v == 77, "got %d", v);
        }
    }
}

/* bad arguments: the error class, nothing sent */
static void errors(int rank)
{
    int v = 1;
    MPI_Request r;
    CHECK_ERR(MPI_Send(&v, 1, MPI_INT, 2, TAG, MPI_COMM_WORLD), MPI_ERR_RANK);
    CHECK_ERR(MPI_Isend(&v, 1, MPI_INT, -5, TAG, MPI_COMM_WORLD, &r), MPI_ERR_RANK);
    CHECK_ERR(MPI_Send(&v, 1, MPI_INT, 1 - rank, -3, MPI_COMM_WORLD), MPI_ERR_TAG);
    CHECK_ERR(MPI_Send(&v, -1, MPI_INT, 1 - rank, TAG, MPI_COMM_WORLD), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Send(&v, 1, MPI_DATATYPE_NULL, 1 - rank, TAG, MPI_COMM_WORLD), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Isend(&v, 1, MPI_INT, 1 - rank, TAG, MPI_COMM_NULL, &r), MPI_ERR_COMM);
    CHECK_ERR(MPI_Isend(&v, 1, MPI_INT, 1 - rank, TAG, MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Irecv(&v, 1, MPI_INT, 7, TAG, MPI_COMM_WORLD, &r), MPI_ERR_RANK);
    CHECK_ERR(MPI_Irecv(&v, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Recv(&v, 1, MPI_INT, 0, -7, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_ERR_TAG);
    CHECK_ERR(MPI_Recv(NULL, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_ERR_BUFFER);
    CHECK_ERR(MPI_Wait(NULL, MPI_STATUS_IGNORE), MPI_ERR_ARG);
    MPI_Request bogus[2] = {MPI_REQUEST_NULL, (MPI_Request)12345};
    CHECK_ERR(MPI_Waitall(2, bogus, MPI_STATUSES_IGNORE), MPI_ERR_REQUEST);
    CHECK_ERR(MPI_Waitall(-1, bogus, MPI_STATUSES_IGNORE), MPI_ERR_COUNT);
    /* to and from MPI_PROC_NULL: done at once, the empty status */
    MPI_Status st;
    CHECK_OK(MPI_Send(&v, 1, MPI_INT, MPI_PROC_NULL, TAG, MPI_COMM_WORLD));
    CHECK_OK(MPI_Recv(&v, 1, MPI_INT, MPI_PROC_NULL, TAG, MPI_COMM_WORLD, &st));
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG, "receive from MPI_PROC_NULL: %d %d",
          st.MPI_SOURCE, st.MPI_TAG);
    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size == 2, "needs 2 processes");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    sizes(rank);
    exchange(rank);
    order(rank);
    truncation(rank, 0);
    truncation(rank, 1);
    mixed_waitall(rank);
    types(rank);
    cancel(rank);
    errors(rank);
    MPI_Finalize();
    if (rank == 0)
        printf("p2p_short: ok\n");
    return 0;
}
