/*
 * coll_persistent.c: persistent collective operations (MPI-4.0 6.13).
 * Every _init call makes an inactive request; each MPI_Start runs the
 * collective with what the buffers hold then, MPI_Wait/MPI_Test make it
 * inactive again; it runs several times with changed contents and the
 * results are checked. Also: MPI_Start and MPI_Startall over persistent
 * collectives on different communicators, in another order on odd ranks
 * than on even ones (only the init calls are ordered), a blocking
 * collective before the start on some ranks and after it on others,
 * intercommunicators, the neighbourhood forms on a
 * ring, datatypes and communicators freed while a request holds them,
 * MPI_Request_free of inactive requests (and its error on an active
 * one), inactive requests in Wait/Test/Request_get_status, and the error
 * classes of bad arguments at init.
 */
#include "testutil.h"

#define ITERS 3

static int rank, size;

/* the value rank r contributes at element j in iteration it */
static int v(int r, int j, int it)
{
    return r * 100 + j * 7 + it * 1000;
}

static void start_wait(MPI_Request *r)
{
    CHECK_OK(MPI_Start(r));
    CHECK(*r != MPI_REQUEST_NULL, "MPI_Start changed the handle");
    MPI_Status st;
    CHECK_OK(MPI_Wait(r, &st));
    CHECK(*r != MPI_REQUEST_NULL, "MPI_Wait freed a persistent request");
}

static void free_req(MPI_Request *r)
{
    CHECK_OK(MPI_Request_free(r));
    CHECK(*r == MPI_REQUEST_NULL, "MPI_Request_free did not set MPI_REQUEST_NULL");
}

static void rooted(MPI_Comm comm)
{
    int n = size, root = size - 1;
    MPI_Request r;
    int *sb = malloc(4 * (size_t)n * sizeof(int)), *rb = malloc(4 * (size_t)n * sizeof(int));
    int *cnt = malloc((size_t)n * sizeof(int)), *dsp = malloc((size_t)n * sizeof(int));
    int tot = 0;
    for (int i = 0; i < n; i++) {
        cnt[i] = i % 3 + 1;
        dsp[i] = tot;
        tot += cnt[i];
    }

    /* bcast: the root's contents of each iteration */
    int bb[5];
    CHECK_OK(MPI_Bcast_init(bb, 5, MPI_INT, root, comm, MPI_INFO_NULL, &r));
    for (int it = 0; it < ITERS; it++) {
        for (int j = 0; j < 5; j++)
            bb[j] = rank == root ? v(root, j, it) : -1;
        start_wait(&r);
        for (int j = 0; j < 5; j++)
            CHECK(bb[j] == v(root, j, it), "bcast it %d j %d: %d", it, j, bb[j]);
    }
    free_req(&r);

    /* gather of 2 each at root 0 */
    CHECK_OK(MPI_Gather_init(sb, 2, MPI_INT, rb, 2, MPI_INT, 0, comm, MPI_INFO_NULL, &r));
    for (int it = 0; it < ITERS; it++) {
        for (int j = 0; j < 2; j++)
            sb[j] = v(rank, j, it);
        start_wait(&r);
        if (rank == 0)
            for (int i = 0; i < n; i++)
                for (int j = 0; j < 2; j++)
                    CHECK(rb[i * 2 + j] == v(i, j, it), "gather it %d from %d", it, i);
    }
    free_req(&r);

    /* gatherv: rank i sends cnt[i] */
    CHECK_OK(MPI_Gatherv_init(sb, cnt[rank], MPI_INT, rb, cnt, dsp, MPI_INT, root, comm, MPI_INFO_NULL, &r));
    for (int it = 0; it < ITERS; it++) {
        for (int j = 0; j < cnt[rank]; j++)
            sb[j] = v(rank, j, it);
        start_wait(&r);
        if (rank == root)
            for (int i = 0; i < n; i++)
                for (int j = 0; j < cnt[i]; j++)
                    CHECK(rb[dsp[i] + j] == v(i, j, it), "gatherv it %d from %d", it, i);
    }
    free_req(&r);

    /* scatter of 2 each from root 0 */
    CHECK_OK(MPI_Scatter_init(sb, 2, MPI_INT, rb, 2, MPI_INT, 0, comm, MPI_INFO_NULL, &r));
    for (int it = 0; it < ITERS; it++) {
        if (rank == 0)
            for (int i = 0; i < n; i++)
                for (int j = 0; j < 2; j++)
                    sb[i * 2 + j] = v(i, j, it);
        start_wait(&r);
        for (int j = 0; j < 2; j++)
            CHECK(rb[j] == v(rank, j, it), "scatter it %d j %d", it, j);
    }
    free_req(&r);

    /* scatterv: rank i gets cnt[i] */
    CHECK_OK(MPI_Scatterv_init(sb, cnt, dsp, MPI_INT, rb, cnt[rank], MPI_INT, root, comm, MPI_INFO_NULL, &r));
    for (int it = 0; it < ITERS; it++) {
        if (rank == root)
            for (int i = 0; i < n; i++)
                for (int j = 0; j < cnt[i]; j++)
                    sb[dsp[i] + j] = v(i, j, it);
        start_wait(&r);
        for (int j = 0; j < cnt[rank]; j++)
            CHECK(rb[j] == v(rank, j, it), "scatterv it %d j %d", it, j);
    }
    free_req(&r);

    /* reduce (sum) of 3 at root 0 */
    CHECK_OK(MPI_Reduce_init(sb, rb, 3, MPI_INT, MPI_SUM, 0, comm, MPI_INFO_NULL, &r));
    for (int it = 0; it < ITERS; it++) {
        for (int j = 0; j < 3; j++)
            sb[j] = v(rank, j, it);
        start_wait(&r);
        if (rank == 0)
            for (int j = 0; j < 3; j++) {
                int want = 0;
                for (int i = 0; i < n; i++)
                    want += v(i, j, it);
                CHECK(rb[j] == want, "reduce it %d j %d: %d, want %d", it, j, rb[j], want);
            }
    }
    free_req(&r);
    free(sb);
    free(rb);
    free(cnt);
    free(dsp);
}

static void all(MPI_Comm comm)
{
    int n = size;
    MPI_Request r;
    int *sb = malloc(4 * (size_t)n * sizeof(int)), *rb = malloc(4 * (size_t)n * sizeof(int));
    int *scnt = malloc((size_t)n * sizeof(int)), *sdsp = malloc((size_t)n * sizeof(int));
    int *rcnt = malloc((size_t)n * sizeof(int)), *rdsp = malloc((size_t)n * sizeof(int));
    MPI_Datatype *types = malloc((size_t)n * sizeof(MPI_Datatype));

    CHECK_OK(MPI_Barrier_init(comm, MPI_INFO_NULL, &r));
    for (int it = 0; it < ITERS; it++)
        start_wait(&r);
    free_req(&r);

    /* allgather of 2 */
    CHECK_OK(MPI_Allgather_init(sb, 2, MPI_INT, rb, 2, MPI_INT, comm, MPI_INFO_NULL, &r));
    for (int it = 0; it < ITERS; it++) {
        for (int j = 0; j < 2; j++)
            sb[j] = v(rank, j, it);
        start_wait(&r);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < 2; j++)
                CHECK(rb[i * 2 + j] == v(i, j, it), "allgather it %d from %d", it, i);
    }
    free_req(&r);

    /* allgatherv: rank i contributes i % 3 + 1 */
    int tot = 0;
    for (int i = 0; i < n; i++) {
        rcnt[i] = i % 3 + 1;
        rdsp[i] = tot;
        tot += rcnt[i];
    }
    CHECK_OK(MPI_Allgatherv_init(sb, rcnt[rank], MPI_INT, rb, rcnt, rdsp, MPI_INT, comm, MPI_INFO_NULL, &r));
    for (int it = 0; it < ITERS; it++) {
        for (int j = 0; j < rcnt[rank]; j++)
            sb[j] = v(rank, j, it);
        start_wait(&r);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < rcnt[i]; j++)
                CHECK(rb[rdsp[i] + j] == v(i, j, it), "allgatherv it %d from %d", it, i);
    }
    free_req(&r);

    /* alltoall of 2: the block for d is (rank, d) */
    CHECK_OK(MPI_Alltoall_init(sb, 2, MPI_INT, rb, 2, MPI_INT, comm, MPI_INFO_NULL, &r));
    for (int it = 0; it < ITERS; it++) {
        for (int d = 0; d < n; d++)
            for (int j = 0; j < 2; j++)
                sb[d * 2 + j] = v(rank, d * 2 + j, it);
        start_wait(&r);
        for (int s = 0; s < n; s++)
            for (int j = 0; j < 2; j++)
                CHECK(rb[s * 2 + j] == v(s, rank * 2 + j, it), "alltoall it %d from %d", it, s);
    }
    free_req(&r);

    /* alltoallv: to d go d % 3 + 1 elements */
    int st = 0, rt = 0;
    for (int i = 0; i < n; i++) {
        scnt[i] = i % 3 + 1;
        sdsp[i] = st;
        st += scnt[i];
        rcnt[i] = rank % 3 + 1;
        rdsp[i] = rt;
        rt += rcnt[i];
    }
    CHECK_OK(MPI_Alltoallv_init(sb, scnt, sdsp, MPI_INT, rb, rcnt, rdsp, MPI_INT, comm, MPI_INFO_NULL, &r));
    for (int it = 0; it < ITERS; it++) {
        for (int d = 0; d < n; d++)
            for (int j = 0; j < scnt[d]; j++)
                sb[sdsp[d] + j] = v(rank, d * 10 + j, it);
        start_wait(&r);
        for (int s = 0; s < n; s++)
            for (int j = 0; j < rcnt[s]; j++)
                CHECK(rb[rdsp[s] + j] == v(s, rank * 10 + j, it), "alltoallv it %d from %d", it, s);
    }
    free_req(&r);

    /* alltoallw: one int each, byte displacements, with a derived type for
     * the receive that is freed after init */
    MPI_Datatype one;
    CHECK_OK(MPI_Type_contiguous(1, MPI_INT, &one));
    CHECK_OK(MPI_Type_commit(&one));
    for (int i = 0; i < n; i++) {
        scnt[i] = rcnt[i] = 1;
        sdsp[i] = rdsp[i] = i * (int)sizeof(int);
        types[i] = MPI_INT;
    }
    MPI_Datatype *rtypes = malloc((size_t)n * sizeof(MPI_Datatype));
    for (int i = 0; i < n; i++)
        rtypes[i] = one;
    CHECK_OK(MPI_Alltoallw_init(sb, scnt, sdsp, types, rb, rcnt, rdsp, rtypes, comm, MPI_INFO_NULL, &r));
    CHECK_OK(MPI_Type_free(&one));
    for (int it = 0; it < ITERS; it++) {
        for (int d = 0; d < n; d++)
            sb[d] = v(rank, d, it);
        start_wait(&r);
        for (int s = 0; s < n; s++)
            CHECK(rb[s] == v(s, rank, it), "alltoallw it %d from %d", it, s);
    }
    free_req(&r);
    free(rtypes);

    /* allreduce (max), and in place (sum) */
    CHECK_OK(MPI_Allreduce_init(sb, rb, 2, MPI_INT, MPI_MAX, comm, MPI_INFO_NULL, &r));
    MPI_Request r2;
    CHECK_OK(MPI_Allreduce_init(MPI_IN_PLACE, sb + 2, 2, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &r2));
    for (int it = 0; it < ITERS; it++) {
        for (int j = 0; j < 4; j++)
            sb[j] = v(rank, j, it);
        start_wait(&r);
        start_wait(&r2);
        for (int j = 0; j < 2; j++) {
            CHECK(rb[j] == v(n - 1, j, it), "allreduce it %d j %d", it, j);
            int want = 0;
            for (int i = 0; i < n; i++)
                want += v(i, j + 2, it);
            CHECK(sb[j + 2] == want, "allreduce in place it %d j %d: %d, want %d", it, j, sb[j + 2], want);
        }
    }
    free_req(&r);
    free_req(&r2);

    /* reduce_scatter_block of 2 each, and reduce_scatter of i % 2 + 1 */
    CHECK_OK(MPI_Reduce_scatter_block_init(sb, rb, 2, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &r));
    for (int it = 0; it < ITERS; it++) {
        for (int k = 0; k < 2 * n; k++)
            sb[k] = v(rank, k, it);
        start_wait(&r);
        for (int j = 0; j < 2; j++) {
            int want = 0;
            for (int i = 0; i < n; i++)
                want += v(i, rank * 2 + j, it);
            CHECK(rb[j] == want, "reduce_scatter_block it %d j %d", it, j);
        }
    }
    free_req(&r);
    tot = 0;
    for (int i = 0; i < n; i++) {
        rcnt[i] = i % 2 + 1;
        rdsp[i] = tot;
        tot += rcnt[i];
    }
    CHECK_OK(MPI_Reduce_scatter_init(sb, rb, rcnt, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &r));
    for (int it = 0; it < ITERS; it++) {
        for (int k = 0; k < tot; k++)
            sb[k] = v(rank, k, it);
        start_wait(&r);
        for (int j = 0; j < rcnt[rank]; j++) {
            int want = 0;
            for (int i = 0; i < n; i++)
                want += v(i, rdsp[rank] + j, it);
            CHECK(rb[j] == want, "reduce_scatter it %d j %d", it, j);
        }
    }
    free_req(&r);

    /* scan and exscan (sum) */
    CHECK_OK(MPI_Scan_init(sb, rb, 2, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &r));
    CHECK_OK(MPI_Exscan_init(sb + 2, rb + 2, 2, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &r2));
    for (int it = 0; it < ITERS; it++) {
        for (int j = 0; j < 4; j++)
            sb[j] = v(rank, j, it);
        start_wait(&r);
        start_wait(&r2);
        for (int j = 0; j < 2; j++) {
            int want = 0, exwant = 0;
            for (int i = 0; i <= rank; i++)
                want += v(i, j, it);
            for (int i = 0; i < rank; i++)
                exwant += v(i, j + 2, it);
            CHECK(rb[j] == want, "scan it %d j %d", it, j);
            if (rank > 0)
                CHECK(rb[j + 2] == exwant, "exscan it %d j %d", it, j);
        }
    }
    free_req(&r);
    free_req(&r2);
    free(sb);
    free(rb);
    free(scnt);
    free(sdsp);
    free(rcnt);
    free(rdsp);
    free(types);
}

/* Start and Startall over persistent collectives on three communicators,
 * in one order on even ranks and the reverse on odd ones; then a blocking
 * collective on the same communicator on either side of a start */
static void startall(void)
{
    MPI_Comm dup, half;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_OK(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
    int hrank, hsize;
    MPI_Comm_rank(half, &hrank);
    MPI_Comm_size(half, &hsize);
    int bc[3], sum_in, sum_out, hin, hall[64];
    MPI_Request rq[4];
    CHECK_OK(MPI_Bcast_init(bc, 3, MPI_INT, 0, dup, MPI_INFO_NULL, &rq[0]));
    CHECK_OK(MPI_Allreduce_init(&sum_in, &sum_out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &rq[1]));
    CHECK_OK(MPI_Allgather_init(&hin, 1, MPI_INT, hall, 1, MPI_INT, half, MPI_INFO_NULL, &rq[2]));
    CHECK_OK(MPI_Barrier_init(dup, MPI_INFO_NULL, &rq[3]));
    /* the communicators may go: the requests hold them */
    CHECK_OK(MPI_Comm_free(&dup));
    for (int it = 0; it < ITERS; it++) {
        for (int j = 0; j < 3; j++)
            bc[j] = rank == 0 ? v(0, j, it) : -1;
        sum_in = v(rank, 0, it);
        hin = v(rank, 1, it);
        /* the ranks need not start them in the same order (MPI-4.0 6.13
         * orders the init calls only): odd ranks go backwards */
        MPI_Request back[4] = {rq[3], rq[2], rq[1], rq[0]};
        if (it == 1) {
            for (int k = 0; k < 4; k++)
                CHECK_OK(MPI_Start(rank % 2 ? &back[k] : &rq[k]));
        } else {
            CHECK_OK(MPI_Startall(4, rank % 2 ? back : rq));
        }
        MPI_Status sts[4];
        if (it % 2 == 0) {
            CHECK_OK(MPI_Waitall(4, rq, sts));
        } else {
            int done = 0;
            while (done < 4) {
                int idx, flag;
                CHECK_OK(MPI_Testany(4, rq, &idx, &flag, MPI_STATUS_IGNORE));
                if (flag && idx != MPI_UNDEFINED)
                    done++;
                else if (flag)
                    break; /* every request inactive */
            }
            CHECK(done == 4, "Testany completed %d of 4", done);
        }
        for (int k = 0; k < 4; k++)
            CHECK(rq[k] != MPI_REQUEST_NULL, "completion freed persistent request %d", k);
        int want = 0;
        for (int i = 0; i < size; i++)
            want += v(i, 0, it);
        CHECK(sum_out == want, "startall allreduce it %d", it);
        for (int j = 0; j < 3; j++)
            CHECK(bc[j] == v(0, j, it), "startall bcast it %d", it);
        for (int i = 0; i < hsize; i++)
            CHECK(hall[i] == v(i * 2 + rank % 2, 1, it), "startall allgather on the half, it %d from %d", it, i);
    }
    /* a blocking collective on the same communicator before the start on
     * some ranks, after it on the others */
    sum_in = 5;
    int x = rank, xs = 0;
    if (rank % 2)
        CHECK_OK(MPI_Allreduce(&x, &xs, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK_OK(MPI_Start(&rq[1]));
    if (rank % 2 == 0)
        CHECK_OK(MPI_Allreduce(&x, &xs, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK_OK(MPI_Wait(&rq[1], MPI_STATUS_IGNORE));
    CHECK(sum_out == 5 * size && xs == size * (size - 1) / 2, "persistent and blocking allreduce mixed");
    for (int k = 0; k < 4; k++)
        free_req(&rq[k]);
    CHECK_OK(MPI_Comm_free(&half));
}

/* an inactive request in the completion calls, and MPI_Request_free of
 * an active one (an error: it stays active) */
static void inactive_and_free(void)
{
    MPI_Request r;
    int b = 0;
    CHECK_OK(MPI_Bcast_init(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    MPI_Status st;
    int flag = 0;
    CHECK_OK(MPI_Test(&r, &flag, &st));
    CHECK(flag && st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG, "Test of an inactive request");
    CHECK_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    flag = 0;
    CHECK_OK(MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE));
    CHECK(flag && r != MPI_REQUEST_NULL, "Request_get_status of an inactive request");
    /* never started: freed */
    free_req(&r);

    CHECK_OK(MPI_Bcast_init(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    b = rank == 0 ? 77 : 0;
    CHECK_OK(MPI_Start(&r));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Request keep = r;
    CHECK_ERR(MPI_Request_free(&r), MPI_ERR_REQUEST);
    CHECK(r == keep, "a failed MPI_Request_free changed the handle");
    CHECK_ERR(MPI_Start(&r), MPI_ERR_REQUEST); /* already active */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    CHECK_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(b == 77, "bcast after the refused free: %d", b);
    free_req(&r);
}

static void errors(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int a[8] = {0}, b[8 * 64] = {0};
    int cnt[64], dsp[64];
    for (int i = 0; i < 64; i++) {
        cnt[i] = 1;
        dsp[i] = i;
    }
    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Info info;
    MPI_Info_create(&info);
    CHECK_OK(MPI_Info_set(info, "some_hint", "1"));
    /* a valid info is accepted, a freed one is not */
    CHECK_OK(MPI_Barrier_init(MPI_COMM_WORLD, info, &r));
    free_req(&r);
    MPI_Info stale = info;
    MPI_Info_free(&info);
    CHECK_ERR(MPI_Barrier_init(MPI_COMM_WORLD, stale, &r), MPI_ERR_INFO);
    CHECK_ERR(MPI_Barrier_init(MPI_COMM_NULL, MPI_INFO_NULL, &r), MPI_ERR_COMM);
    CHECK_ERR(MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Bcast_init(a, 1, MPI_INT, size, MPI_COMM_WORLD, MPI_INFO_NULL, &r), MPI_ERR_ROOT);
    CHECK_ERR(MPI_Bcast_init(a, -1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Bcast_init(a, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Bcast_init(a, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Gather_init(a, 1, MPI_INT, b, 1, MPI_INT, -3, MPI_COMM_WORLD, MPI_INFO_NULL, &r), MPI_ERR_ROOT);
    CHECK_ERR(MPI_Scatter_init(a, 1, MPI_INT, b, -1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Allgather_init(a, 1, MPI_INT, b, 1, MPI_DATATYPE_NULL, MPI_COMM_WORLD, MPI_INFO_NULL, &r),
              MPI_ERR_TYPE);
    cnt[0] = -1;
    CHECK_ERR(MPI_Allgatherv_init(a, 1, MPI_INT, b, cnt, dsp, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &r),
              MPI_ERR_COUNT);
    CHECK_ERR(MPI_Alltoallv_init(a, cnt, dsp, MPI_INT, b, cnt, dsp, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &r),
              MPI_ERR_COUNT);
    cnt[0] = 1;
    CHECK_ERR(MPI_Alltoall_init(a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Reduce_init(a, b, 1, MPI_INT, MPI_OP_NULL, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r), MPI_ERR_OP);
    CHECK_ERR(MPI_Allreduce_init(a, b, -2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Reduce_scatter_block_init(a, b, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r),
              MPI_ERR_COUNT);
    CHECK_ERR(MPI_Reduce_scatter_init(a, b, NULL, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r), MPI_ERR_ARG);
    CHECK_ERR(MPI_Scan_init(a, b, 1, MPI_DATATYPE_NULL, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Exscan_init(a, a, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r), MPI_ERR_BUFFER);
    CHECK_ERR(MPI_Neighbor_allgather_init(a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &r),
              MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Alltoallw_init(a, cnt, dsp, NULL, b, cnt, dsp, NULL, MPI_COMM_WORLD, MPI_INFO_NULL, &r),
              MPI_ERR_ARG);
    CHECK(r == MPI_REQUEST_NULL, "a failed init set the request");
    /* MPI_Start of something not a request */
    MPI_Request junk = MPI_REQUEST_NULL;
    CHECK_ERR(MPI_Start(&junk), MPI_ERR_REQUEST);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* intercommunicator forms: the two halves of the world */
static void inter(void)
{
    if (size < 2)
        return;
    int grp = rank < size / 2 ? 0 : 1;
    MPI_Comm local, ic;
    CHECK_OK(MPI_Comm_split(MPI_COMM_WORLD, grp, rank, &local));
    CHECK_OK(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, grp == 0 ? size / 2 : 0, 77, &ic));
    int lrank, lsize, rsize;
    MPI_Comm_rank(local, &lrank);
    MPI_Comm_size(local, &lsize);
    MPI_Comm_remote_size(ic, &rsize);
    MPI_Request rq[4];
    int bb[2], ag_in, ag_out[64], ar_in, ar_out;
    int root = grp == 0 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    CHECK_OK(MPI_Bcast_init(bb, 2, MPI_INT, root, ic, MPI_INFO_NULL, &rq[0]));
    CHECK_OK(MPI_Allgather_init(&ag_in, 1, MPI_INT, ag_out, 1, MPI_INT, ic, MPI_INFO_NULL, &rq[1]));
    CHECK_OK(MPI_Allreduce_init(&ar_in, &ar_out, 1, MPI_INT, MPI_SUM, ic, MPI_INFO_NULL, &rq[2]));
    CHECK_OK(MPI_Barrier_init(ic, MPI_INFO_NULL, &rq[3]));
    for (int it = 0; it < ITERS; it++) {
        bb[0] = bb[1] = -1;
        if (root == MPI_ROOT) {
            bb[0] = v(0, 0, it);
            bb[1] = v(0, 1, it);
        }
        ag_in = v(grp, lrank, it);
        ar_in = v(grp, lrank, it);
        CHECK_OK(MPI_Startall(4, rq));
        CHECK_OK(MPI_Waitall(4, rq, MPI_STATUSES_IGNORE));
        if (grp == 1)
            CHECK(bb[0] == v(0, 0, it) && bb[1] == v(0, 1, it), "inter bcast it %d", it);
        else
            CHECK(bb[0] == (root == MPI_ROOT ? v(0, 0, it) : -1), "inter bcast touched a root-side buffer");
        int want = 0;
        for (int i = 0; i < rsize; i++) {
            CHECK(ag_out[i] == v(1 - grp, i, it), "inter allgather it %d from %d", it, i);
            want += v(1 - grp, i, it);
        }
        CHECK(ar_out == want, "inter allreduce it %d: %d, want %d", it, ar_out, want);
    }
    for (int k = 0; k < 4; k++)
        free_req(&rq[k]);
    /* scan is not defined there */
    MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN);
    MPI_Request r;
    CHECK_ERR(MPI_Scan_init(&ar_in, &ar_out, 1, MPI_INT, MPI_SUM, ic, MPI_INFO_NULL, &r), MPI_ERR_COMM);
    CHECK_OK(MPI_Comm_free(&ic));
    CHECK_OK(MPI_Comm_free(&local));
    (void)lsize;
}

/* neighbourhood collectives on a periodic ring: left and right neighbours */
static void neighbor(void)
{
    int dims[1] = {size}, per[1] = {1};
    MPI_Comm ring;
    CHECK_OK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, per, 0, &ring));
    int src, dst;
    MPI_Cart_shift(ring, 0, 1, &src, &dst); /* src = left, dst = right */
    int nb[2] = {src, dst}; /* the neighbour order of a 1-D cart: -1, +1 */
    int sb[8], rb[8], cnt[2] = {2, 2}, dsp[2] = {0, 2}, one[2] = {1, 1};
    MPI_Aint bd[2] = {0, sizeof(int)};
    MPI_Datatype ty[2] = {MPI_INT, MPI_INT};
    MPI_Request rq[5];
    CHECK_OK(MPI_Neighbor_allgather_init(sb, 2, MPI_INT, rb, 2, MPI_INT, ring, MPI_INFO_NULL, &rq[0]));
    CHECK_OK(MPI_Neighbor_allgatherv_init(sb, 2, MPI_INT, rb, cnt, dsp, MPI_INT, ring, MPI_INFO_NULL, &rq[1]));
    CHECK_OK(MPI_Neighbor_alltoall_init(sb, 2, MPI_INT, rb, 2, MPI_INT, ring, MPI_INFO_NULL, &rq[2]));
    CHECK_OK(MPI_Neighbor_alltoallv_init(sb, cnt, dsp, MPI_INT, rb, cnt, dsp, MPI_INT, ring, MPI_INFO_NULL, &rq[3]));
    CHECK_OK(MPI_Neighbor_alltoallw_init(sb, one, bd, ty, rb, one, bd, ty, ring, MPI_INFO_NULL, &rq[4]));
    for (int it = 0; it < ITERS; it++) {
        for (int k = 0; k < 5; k++) {
            for (int j = 0; j < 4; j++)
                sb[j] = v(rank, j + 10 * k, it);
            for (int j = 0; j < 8; j++)
                rb[j] = -1;
            start_wait(&rq[k]);
            for (int i = 0; i < 2; i++) {
                int from = nb[i];
                /* what neighbour i sent this way: the allgathers send the
                 * same block to both; the alltoalls block 1 - i (the
                 * left neighbour's block for its right, and so on) */
                if (k <= 1) {
                    for (int j = 0; j < 2; j++)
                        CHECK(rb[i * 2 + j] == v(from, j + 10 * k, it), "neighbor %d it %d from %d", k, it, i);
                } else if (k <= 3) {
                    for (int j = 0; j < 2; j++)
                        CHECK(rb[i * 2 + j] == v(from, (1 - i) * 2 + j + 10 * k, it), "neighbor %d it %d from %d",
                              k, it, i);
                } else {
                    CHECK(rb[i] == v(from, (1 - i) + 10 * k, it), "neighbor alltoallw it %d from %d", it, i);
                }
            }
        }
    }
    for (int k = 0; k < 5; k++)
        free_req(&rq[k]);
    CHECK_OK(MPI_Comm_free(&ring));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size <= 64, "at most 64 ranks");
    rooted(MPI_COMM_WORLD);
    all(MPI_COMM_WORLD);
    startall();
    inactive_and_free();
    inter();
    neighbor();
    errors();
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("coll_persistent: ok\n");
    MPI_Finalize();
    return 0;
}
