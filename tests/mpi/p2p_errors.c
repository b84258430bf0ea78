/*
 * p2p_errors.c: bad arguments to point-to-point calls give the right
 * error class through MPI_ERRORS_RETURN, with a message naming the call
 * and the argument; truncation gives MPI_ERR_TRUNCATE with the status
 * filled; MPI_PROC_NULL sends and receives complete at once (also
 * empty ones naming MPI_DATATYPE_NULL).
 */
#include "testutil.h"

static void expect_msg(int rc, const char *fn, const char *arg)
{
    char s[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(rc, s, &len);
    CHECK(strstr(s, fn) && (!arg || strstr(s, arg)), "message '%s' should name %s and %s", s, fn,
          arg ? arg : "");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int v = 1;
    MPI_Request r;
    MPI_Status st;
    CHECK_ERR(MPI_Send(&v, 1, MPI_INT, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    expect_msg(MPI_Send(&v, 1, MPI_INT, size, 0, MPI_COMM_WORLD), "MPI_Send", "dest");
    CHECK_ERR(MPI_Send(&v, 1, MPI_INT, -5, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    CHECK_ERR(MPI_Send(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    CHECK_ERR(MPI_Recv(&v, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK);
    expect_msg(MPI_Recv(&v, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD, &st), "MPI_Recv", "source");
    CHECK_ERR(MPI_Send(&v, 1, MPI_INT, 0, -3, MPI_COMM_WORLD), MPI_ERR_TAG);
    CHECK_ERR(MPI_Send(&v, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD), MPI_ERR_TAG);
    CHECK_ERR(MPI_Irecv(&v, 1, MPI_INT, 0, -7, MPI_COMM_WORLD, &r), MPI_ERR_TAG);
    expect_msg(MPI_Isend(&v, 1, MPI_INT, 0, -3, MPI_COMM_WORLD, &r), "MPI_Isend", "tag");
    CHECK_ERR(MPI_Send(&v, -1, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Send(&v, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    expect_msg(MPI_Send(&v, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD), "MPI_Send", "datatype");
    CHECK_ERR(MPI_Send(&v, 1, 12345, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_NULL), MPI_ERR_COMM);
    expect_msg(MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_NULL), "MPI_Send", "comm");
    CHECK_ERR(MPI_Send(NULL, 3, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK_ERR(MPI_Isend(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    MPI_Request bogus = 0x18000123;
    CHECK_ERR(MPI_Wait(&bogus, &st), MPI_ERR_REQUEST);
    CHECK_ERR(MPI_Start(&bogus), MPI_ERR_REQUEST);
    CHECK_ERR(MPI_Request_free(&bogus), MPI_ERR_REQUEST);
    int fl;
    CHECK_ERR(MPI_Iprobe(size, 0, MPI_COMM_WORLD, &fl, &st), MPI_ERR_RANK);
    CHECK_ERR(MPI_Buffer_attach(&v, -1), MPI_ERR_ARG);
    CHECK_ERR(MPI_Bsend(&v, 1, MPI_INT, MPI_PROC_NULL == 0 ? 1 : 0, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);

    /* MPI_PROC_NULL */
    CHECK_OK(MPI_Send(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD));
    st.MPI_SOURCE = 99;
    CHECK_OK(MPI_Recv(&v, 1, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &st));
    int count = -1;
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && count == 0, "proc null status");
    CHECK_OK(MPI_Irecv(&v, 1, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &r));
    CHECK_OK(MPI_Wait(&r, &st));
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "proc null irecv");
    CHECK_OK(MPI_Probe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st));
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "proc null probe");
    CHECK_OK(MPI_Sendrecv(&v, 1, MPI_INT, MPI_PROC_NULL, 0, &v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st));
    /* an empty message to or from MPI_PROC_NULL may name MPI_DATATYPE_NULL
     * (as MPICH allows); with a real peer or a count it is still an error */
    st.MPI_SOURCE = 99;
    CHECK_OK(MPI_Irecv(NULL, 0, MPI_DATATYPE_NULL, MPI_PROC_NULL, 10, MPI_COMM_WORLD, &r));
    CHECK_OK(MPI_Waitall(1, &r, &st));
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG, "proc null irecv of datatype null");
    st.MPI_SOURCE = 99;
    CHECK_OK(MPI_Recv(NULL, 0, MPI_DATATYPE_NULL, MPI_PROC_NULL, 10, MPI_COMM_WORLD, &st));
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG, "proc null recv of datatype null");
    CHECK_OK(MPI_Send(NULL, 0, MPI_DATATYPE_NULL, MPI_PROC_NULL, 10, MPI_COMM_WORLD));
    CHECK_OK(MPI_Isend(NULL, 0, MPI_DATATYPE_NULL, MPI_PROC_NULL, 10, MPI_COMM_WORLD, &r));
    CHECK_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_ERR(MPI_Recv(NULL, 0, MPI_DATATYPE_NULL, 0, 10, MPI_COMM_WORLD, &st), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Recv(&v, 1, MPI_DATATYPE_NULL, MPI_PROC_NULL, 10, MPI_COMM_WORLD, &st), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Send(NULL, 0, MPI_DATATYPE_NULL, 0, 10, MPI_COMM_WORLD), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Irecv(NULL, 0, MPI_DATATYPE_NULL, MPI_PROC_NULL, -2, MPI_COMM_WORLD, &r), MPI_ERR_TAG);

    /* truncation, eager and rendezvous, to self and to a peer */
    int sizes[2] = {10, 200000};
    for (int k = 0; k < 2; k++) {
        int n = sizes[k];
        int *big = calloc((size_t)n, sizeof(int)), *small = calloc((size_t)n, sizeof(int));
        for (int i = 0; i < n; i++)
            big[i] = i;
        int dst = (rank + 1) % size, src = (rank + size - 1) % size;
        CHECK_OK(MPI_Isend(big, n, MPI_INT, dst, 3, MPI_COMM_WORLD, &r));
        st.MPI_ERROR = MPI_ERR_OTHER; /* a single-status call returns its error, not in the status */
        int rc = MPI_Recv(small, n / 2, MPI_INT, src, 3, MPI_COMM_WORLD, &st);
        int cls;
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_TRUNCATE, "truncation class %d", cls);
        CHECK(st.MPI_ERROR == MPI_ERR_OTHER, "status MPI_ERROR changed to %d", st.MPI_ERROR);
        CHECK(st.MPI_SOURCE == src && st.MPI_TAG == 3, "truncated status source %d tag %d", st.MPI_SOURCE,
              st.MPI_TAG);
        for (int i = 0; i < n / 2; i++)
            CHECK(small[i] == i, "truncated data %d", i);
        CHECK_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        free(big);
        free(small);
    }
    MPI_Finalize();
    return 0;
}
