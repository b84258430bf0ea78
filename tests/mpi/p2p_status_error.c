/*
 * p2p_status_error.c: the MPI_ERROR field of a status. Receives, probes,
 * matched probes and receives, and the single-completion calls leave it
 * as the caller set it; the multiple-completion calls leave it too when
 * they succeed, and when one of their requests fails they return
 * MPI_ERR_IN_STATUS with every status's MPI_ERROR set (MPI_SUCCESS for
 * the requests that succeeded).
 */
#include "testutil.h"

#define MARK 4242 /* not an error code Tide returns */
#define TAG 7

static void mark(MPI_Status *st, int n)
{
    for (int i = 0; i < n; i++) {
        memset(&st[i], 0, sizeof st[i]);
        st[i].MPI_ERROR = MARK;
    }
}

static void check_kept(const MPI_Status *st, const char *what)
{
    CHECK(st->MPI_ERROR == MARK, "%s changed MPI_ERROR to %d", what, st->MPI_ERROR);
    CHECK(st->MPI_SOURCE == 0 && st->MPI_TAG == TAG, "%s: source %d tag %d", what, st->MPI_SOURCE,
          st->MPI_TAG);
}

static void send_ints(int n, int v)
{
    int buf[2] = {v, v + 1};
    CHECK_OK(MPI_Send(buf, n, MPI_INT, 1, TAG, MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= 2, "needs 2 processes");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        for (int i = 0; i < 12; i++)
            send_ints(1, i);
        send_ints(1, 100); /* for the failing waitall: fits */
        send_ints(2, 200); /* too long for its receive */
        send_ints(2, 300); /* the failing waitsome */
        send_ints(2, 400); /* the failing wait */
    } else if (rank == 1) {
        MPI_Status st[2];
        MPI_Request req[2];
        MPI_Message msg;
        int v[2], flag = 0, index, outcount, indices[2];

        mark(st, 1);
        CHECK_OK(MPI_Probe(0, TAG, MPI_COMM_WORLD, st));
        check_kept(st, "MPI_Probe");
        mark(st, 1);
        while (!flag)
            CHECK_OK(MPI_Iprobe(0, TAG, MPI_COMM_WORLD, &flag, st));
        check_kept(st, "MPI_Iprobe");
        mark(st, 1);
        CHECK_OK(MPI_Recv(v, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, st));
        check_kept(st, "MPI_Recv");

        mark(st, 1);
        CHECK_OK(MPI_Mprobe(0, TAG, MPI_COMM_WORLD, &msg, st));
        check_kept(st, "MPI_Mprobe");
        mark(st, 1);
        CHECK_OK(MPI_Mrecv(v, 1, MPI_INT, &msg, st));
        check_kept(st, "MPI_Mrecv");
        mark(st, 1);
        flag = 0;
        while (!flag)
            CHECK_OK(MPI_Improbe(0, TAG, MPI_COMM_WORLD, &flag, &msg, st));
        check_kept(st, "MPI_Improbe");
        CHECK_OK(MPI_Imrecv(v, 1, MPI_INT, &msg, req));
        mark(st, 1);
        CHECK_OK(MPI_Wait(req, st));
        check_kept(st, "MPI_Wait");

        CHECK_OK(MPI_Irecv(v, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, req));
        mark(st, 1);
        flag = 0;
        while (!flag)
            CHECK_OK(MPI_Request_get_status(req[0], &flag, st));
        check_kept(st, "MPI_Request_get_status");
        mark(st, 1);
        flag = 0;
        while (!flag)
            CHECK_OK(MPI_Test(req, &flag, st));
        check_kept(st, "MPI_Test");

        CHECK_OK(MPI_Irecv(v, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, req));
        mark(st, 1);
        CHECK_OK(MPI_Waitany(1, req, &index, st));
        check_kept(st, "MPI_Waitany");
        CHECK_OK(MPI_Irecv(v, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, req));
        mark(st, 1);
        flag = 0;
        while (!flag)
            CHECK_OK(MPI_Testany(1, req, &index, &flag, st));
        check_kept(st, "MPI_Testany");

        /* successful multiple completions: MPI_ERROR untouched */
        CHECK_OK(MPI_Irecv(&v[0], 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, &req[0]));
        CHECK_OK(MPI_Irecv(&v[1], 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, &req[1]));
        mark(st, 2);
        CHECK_OK(MPI_Waitall(2, req, st));
        check_kept(&st[0], "MPI_Waitall");
        check_kept(&st[1], "MPI_Waitall");
        CHECK_OK(MPI_Irecv(&v[0], 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, &req[0]));
        CHECK_OK(MPI_Irecv(&v[1], 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, &req[1]));
        mark(st, 2);
        flag = 0;
        while (!flag)
            CHECK_OK(MPI_Testall(2, req, &flag, st));
        check_kept(&st[0], "MPI_Testall");
        check_kept(&st[1], "MPI_Testall");
        CHECK_OK(MPI_Irecv(&v[0], 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, &req[0]));
        mark(st, 1);
        CHECK_OK(MPI_Waitsome(1, req, &outcount, indices, st));
        CHECK(outcount == 1, "waitsome completed %d", outcount);
        check_kept(st, "MPI_Waitsome");
        CHECK_OK(MPI_Irecv(&v[0], 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, &req[0]));
        mark(st, 1);
        outcount = 0;
        while (outcount == 0)
            CHECK_OK(MPI_Testsome(1, req, &outcount, indices, st));
        check_kept(st, "MPI_Testsome");

        /* a failed request in MPI_Waitall: every status says how its request went */
        CHECK_OK(MPI_Irecv(&v[0], 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, &req[0]));
        CHECK_OK(MPI_Irecv(&v[1], 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, &req[1]));
        mark(st, 2);
        CHECK_ERR(MPI_Waitall(2, req, st), MPI_ERR_IN_STATUS);
        CHECK(st[0].MPI_ERROR == MPI_SUCCESS, "waitall: good request's MPI_ERROR %d", st[0].MPI_ERROR);
        int cls = -1;
        MPI_Error_class(st[1].MPI_ERROR, &cls);
        CHECK(cls == MPI_ERR_TRUNCATE, "waitall: truncated request's MPI_ERROR class %d", cls);
        CHECK(v[0] == 100, "waitall received %d", v[0]);

        /* and in MPI_Waitsome */
        CHECK_OK(MPI_Irecv(&v[0], 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, &req[0]));
        mark(st, 1);
        CHECK_ERR(MPI_Waitsome(1, req, &outcount, indices, st), MPI_ERR_IN_STATUS);
        cls = -1;
        MPI_Error_class(st[0].MPI_ERROR, &cls);
        CHECK(cls == MPI_ERR_TRUNCATE, "waitsome: MPI_ERROR class %d", cls);

        /* a single completion returns the error and leaves the status's field */
        CHECK_OK(MPI_Irecv(&v[0], 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, &req[0]));
        mark(st, 1);
        CHECK_ERR(MPI_Wait(req, st), MPI_ERR_TRUNCATE);
        check_kept(st, "a failed MPI_Wait");
    }
    MPI_Finalize();
    return 0;
}
