/*
 * coll_errors.c: bad arguments to collectives, under MPI_ERRORS_RETURN:
 * the error class, a message naming the function, and the ranks still in
 * step afterwards (a correct collective follows every error).
 *
 *   coll_errors          errors every rank can see for itself: negative
 *                        counts, invalid or uncommitted types, roots out of
 *                        range, forbidden (op, type) pairs and MPI_OP_NULL,
 *                        MPI_IN_PLACE where it is not allowed, NULL buffers
 *                        and requests, counts
 *                        whose sum or span overflows, send blocks larger than
 *                        receive blocks, the same buffer as sendbuf and
 *                        recvbuf (the root-only case: the others learn of
 *                        it; see also coll_refused),
 *                        truncation at a receiver (also in a long bcast
 *                        through the shared region).
 *   coll_errors check    run with coll_check=1: mismatched roots, counts and
 *                        operations, blocks of different sizes (even forms),
 *                        and one rank's bad argument, are errors
 *                        on every rank, blocking and nonblocking, no hang;
 *                        so are receive blocks that overlap (without
 *                        coll_check those calls run, as elsewhere).
 * Prints "coll_errors: ok".
 */
#include "testutil.h"

#include <limits.h>
#include <stdint.h>

static int rank, size;

static void names(int rc, const char *fn)
{
    char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    CHECK(rc != MPI_SUCCESS, "%s succeeded", fn);
    MPI_Error_string(rc, s, &len);
    CHECK(strstr(s, fn) != NULL, "message '%s' does not name %s", s, fn);
}

#define EXPECT(call, cls, fn)      \
    do {                           \
        int rc__ = (call);         \
        CHECK_ERR(rc__, cls);      \
        names(rc__, fn);           \
    } while (0)

static void in_step(void)
{
    int x = rank, s = 0;
    CHECK_OK(MPI_Allreduce(&x, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(s == size * (size - 1) / 2, "ranks out of step after an error");
}

static void local_errors(void)
{
    int buf[64] = {0}, out[64 * 32];
    int *cnt = calloc((size_t)size, sizeof(int)), *dsp = calloc((size_t)size, sizeof(int));
    MPI_Request rq;
    /* counts */
    EXPECT(MPI_Bcast(buf, -1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT, "MPI_Bcast");
    EXPECT(MPI_Allreduce(buf, out, -3, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_COUNT, "MPI_Allreduce");
    EXPECT(MPI_Iallgather(buf, -1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD, &rq), MPI_ERR_COUNT,
           "MPI_Iallgather");
    EXPECT(MPI_Reduce_scatter_block(buf, out, -2, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_COUNT,
           "MPI_Reduce_scatter_block");
    for (int i = 0; i < size; i++)
        cnt[i] = i == size - 1 ? -1 : 1;
    EXPECT(MPI_Alltoallv(buf, cnt, dsp, MPI_INT, out, cnt, dsp, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT,
           "MPI_Alltoallv");
    EXPECT(MPI_Reduce_scatter(buf, out, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_COUNT,
           "MPI_Reduce_scatter");
    in_step();
    /* types */
    EXPECT(MPI_Bcast(buf, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD), MPI_ERR_TYPE, "MPI_Bcast");
    MPI_Datatype unc;
    MPI_Type_contiguous(2, MPI_INT, &unc);
    EXPECT(MPI_Allgather(buf, 1, unc, out, 1, unc, MPI_COMM_WORLD), MPI_ERR_TYPE, "MPI_Allgather");
    MPI_Type_free(&unc);
    /* roots */
    EXPECT(MPI_Bcast(buf, 1, MPI_INT, size, MPI_COMM_WORLD), MPI_ERR_ROOT, "MPI_Bcast");
    EXPECT(MPI_Reduce(buf, out, 1, MPI_INT, MPI_SUM, -1, MPI_COMM_WORLD), MPI_ERR_ROOT, "MPI_Reduce");
    EXPECT(MPI_Igather(buf, 1, MPI_INT, out, 1, MPI_INT, MPI_ROOT, MPI_COMM_WORLD, &rq), MPI_ERR_ROOT,
           "MPI_Igather");
    EXPECT(MPI_Scatter(buf, 1, MPI_INT, out, 1, MPI_INT, MPI_PROC_NULL, MPI_COMM_WORLD), MPI_ERR_ROOT,
           "MPI_Scatter");
    in_step();
    /* operations */
    float f[2] = {1, 2}, g[2];
    EXPECT(MPI_Allreduce(f, g, 2, MPI_FLOAT, MPI_BAND, MPI_COMM_WORLD), MPI_ERR_OP, "MPI_Allreduce");
    EXPECT(MPI_Reduce(buf, out, 1, MPI_INT, MPI_OP_NULL, 0, MPI_COMM_WORLD), MPI_ERR_OP, "MPI_Reduce");
    EXPECT(MPI_Scan(buf, out, 1, MPI_INT, MPI_REPLACE, MPI_COMM_WORLD), MPI_ERR_OP, "MPI_Scan");
    EXPECT(MPI_Iexscan(buf, out, 1, MPI_2INT, MPI_SUM, MPI_COMM_WORLD, &rq), MPI_ERR_OP, "MPI_Iexscan");
    EXPECT(MPI_Reduce_scatter_block(buf, out, 1, MPI_C_BOOL, MPI_PROD, MPI_COMM_WORLD), MPI_ERR_OP,
           "MPI_Reduce_scatter_block");
    in_step();
    /* MPI_IN_PLACE where it is not allowed (every rank sees it) */
    EXPECT(MPI_Bcast(MPI_IN_PLACE, 1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Bcast");
    EXPECT(MPI_Allreduce(buf, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER,
           "MPI_Allreduce");
    EXPECT(MPI_Allgather(buf, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER,
           "MPI_Allgather");
    EXPECT(MPI_Alltoall(buf, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER,
           "MPI_Alltoall");
    EXPECT(MPI_Scan(buf, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Scan");
    in_step();
    /* NULL buffers and requests */
    EXPECT(MPI_Allreduce(NULL, out, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Allreduce");
    EXPECT(MPI_Bcast(NULL, 4, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Bcast");
    EXPECT(MPI_Ibarrier(MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "MPI_Ibarrier");
    EXPECT(MPI_Iallreduce(buf, out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "MPI_Iallreduce");
    EXPECT(MPI_Reduce_scatter(buf, out, NULL, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_ARG,
           "MPI_Reduce_scatter");
    /* communicators */
    EXPECT(MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM, "MPI_Barrier");
    EXPECT(MPI_Allreduce(buf, out, 1, MPI_INT, MPI_SUM, (MPI_Comm)0x7fffffff), MPI_ERR_COMM, "MPI_Allreduce");
    in_step();
    /* receive blocks that overlap make the call erroneous, but without
     * coll_check it runs (as elsewhere): each location gets one of the
     * blocks written to it */
    for (int i = 0; i < size; i++) {
        cnt[i] = 2;
        dsp[i] = i; /* blocks of 2 one element apart */
        buf[i] = rank;
    }
    if (size > 1) {
        CHECK_OK(MPI_Allgatherv(buf, 2, MPI_INT, out, cnt, dsp, MPI_INT, MPI_COMM_WORLD));
        CHECK(out[0] == 0 && out[size] == size - 1, "overlapping allgatherv: %d %d", out[0], out[size]);
        CHECK_OK(MPI_Alltoallv(buf, cnt, dsp, MPI_INT, out, cnt, dsp, MPI_INT, MPI_COMM_WORLD));
        CHECK_OK(MPI_Gatherv(buf, 2, MPI_INT, out, cnt, dsp, MPI_INT, 0, MPI_COMM_WORLD));
    }
    in_step();
    /* sums and spans that overflow */
    for (int i = 0; i < size; i++)
        cnt[i] = INT_MAX / 2 + 1;
    if (size > 1)
        EXPECT(MPI_Reduce_scatter(buf, out, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_COUNT,
               "MPI_Reduce_scatter");
    MPI_Datatype huge;
    MPI_Type_create_resized(MPI_INT, 0, (MPI_Aint)1 << 40, &huge);
    MPI_Type_commit(&huge);
    for (int i = 0; i < size; i++) {
        cnt[i] = 1;
        dsp[i] = INT_MAX - i;
    }
    EXPECT(MPI_Allgatherv(buf, 1, MPI_INT, out, cnt, dsp, huge, MPI_COMM_WORLD), MPI_ERR_COUNT,
           "MPI_Allgatherv");
    MPI_Type_free(&huge);
    in_step();
    /* more data sent than there is room for */
    EXPECT(MPI_Allgather(buf, 4, MPI_INT, out, 2, MPI_INT, MPI_COMM_WORLD), MPI_ERR_TRUNCATE, "MPI_Allgather");
    EXPECT(MPI_Alltoall(buf, 2, MPI_DOUBLE, out, 3, MPI_INT, MPI_COMM_WORLD), MPI_ERR_TRUNCATE, "MPI_Alltoall");
    in_step();
    /* the same buffer as sendbuf and recvbuf (MPI_IN_PLACE is the in-place
     * form): every rank sees it for itself */
    EXPECT(MPI_Allreduce(buf, buf, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Allreduce");
    EXPECT(MPI_Iallreduce(buf, buf, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq), MPI_ERR_BUFFER, "MPI_Iallreduce");
    EXPECT(MPI_Alltoall(out, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Alltoall");
    EXPECT(MPI_Scan(buf, buf, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Scan");
    EXPECT(MPI_Reduce_scatter_block(out, out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER,
           "MPI_Reduce_scatter_block");
    /* sendbuf where this rank's own block lands */
    EXPECT(MPI_Allgather(out + rank, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Allgather");
    in_step();
    /* seen at the root only: the root refuses the call and tells the
     * others (coll_notice.h), who fail it too where they need the root's
     * part (here: nowhere, the non-roots only send, so they may also have
     * finished); on a duplicate, whose collectives may end up revoked */
    {
        MPI_Comm d;
        CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &d));
        MPI_Comm_set_errhandler(d, MPI_ERRORS_RETURN);
        int v = rank + 1, r = -1;
        int rc = MPI_Reduce(&v, rank == 0 ? (void *)&v : (void *)&r, 1, MPI_INT, MPI_SUM, 0, d);
        if (rank == 0) {
            CHECK_ERR(rc, MPI_ERR_BUFFER);
            names(rc, "MPI_Reduce");
        } else if (rc != MPI_SUCCESS) {
            CHECK_ERR(rc, MPI_ERR_OTHER);
            names(rc, "MPI_Reduce");
        }
        CHECK_OK(MPI_Comm_free(&d));
        CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &d));
        MPI_Comm_set_errhandler(d, MPI_ERRORS_RETURN);
        int *g = malloc((size_t)size * sizeof(int));
        rc = MPI_Gather(&v, 1, MPI_INT, rank == 0 ? (void *)&v : (void *)g, 1, MPI_INT, 0, d);
        if (rank == 0)
            CHECK_ERR(rc, MPI_ERR_BUFFER);
        else if (rc != MPI_SUCCESS)
            CHECK_ERR(rc, MPI_ERR_OTHER);
        free(g);
        CHECK_OK(MPI_Comm_free(&d));
    }
    in_step();
    /* truncation where only a receiver can see it: rank 1 gets the root's
     * 8 ints (from the root itself, in every broadcast algorithm); ranks
     * further down may get only the 4 their parent kept */
    if (size > 1) {
        int rc = MPI_Bcast(buf, rank == 0 ? 8 : 4, MPI_INT, 0, MPI_COMM_WORLD);
        if (rank == 0)
            CHECK_OK(rc);
        else if (rank == 1)
            CHECK_ERR(rc, MPI_ERR_TRUNCATE);
        else if (rc != MPI_SUCCESS)
            CHECK_ERR(rc, MPI_ERR_TRUNCATE);
    }
    in_step();
    /* the same through the shared region, long enough to go in pieces:
     * every other rank gets MPI_ERR_TRUNCATE and the region stays in step
     * (the next bcast on it is right) */
    if (size > 1) {
        enum { LONG = 300000 };
        MPI_Comm region;
        CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &region));
        tu_set_coll_hint(region, "bcast=shm");
        int *lb = malloc(sizeof(int) * LONG);
        for (int i = 0; i < LONG; i++)
            lb[i] = rank == 0 ? i : -1;
        int rc = MPI_Bcast(lb, rank == 0 ? LONG : LONG / 3, MPI_INT, 0, region);
        if (rank == 0)
            CHECK_OK(rc);
        else {
            CHECK_ERR(rc, MPI_ERR_TRUNCATE);
            names(rc, "MPI_Bcast");
        }
        for (int i = 0; i < LONG / 3; i++)
            CHECK(lb[i] == i, "truncated bcast: element %d is %d", i, lb[i]);
        for (int i = 0; i < LONG; i++)
            lb[i] = rank == 0 ? 7 * i : -1;
        CHECK_OK(MPI_Bcast(lb, LONG, MPI_INT, 0, region));
        for (int i = 0; i < LONG; i++)
            if (lb[i] != 7 * i)
                CHECK(0, "bcast after a truncated one: element %d is %d", i, lb[i]);
        free(lb);
        CHECK_OK(MPI_Comm_free(&region));
    }
    in_step();
    free(cnt);
    free(dsp);
}

/* coll_check: disagreements are errors on every rank */
static void check_mode(void)
{
    int buf[16] = {0}, out[16 * 64];
    MPI_Request rq;
    if (size > 1) {
        EXPECT(MPI_Bcast(buf, 1, MPI_INT, rank == 0 ? 0 : 1, MPI_COMM_WORLD), MPI_ERR_ROOT, "MPI_Bcast");
        EXPECT(MPI_Reduce(buf, out, 1, MPI_INT, MPI_SUM, rank % 2, MPI_COMM_WORLD), MPI_ERR_ROOT, "MPI_Reduce");
        EXPECT(MPI_Gather(buf, 1, MPI_INT, out, 1, MPI_INT, rank == size - 1 ? 0 : size - 1, MPI_COMM_WORLD),
               MPI_ERR_ROOT, "MPI_Gather");
        CHECK_OK(MPI_Ibcast(buf, 1, MPI_INT, rank == 0 ? 1 : 0, MPI_COMM_WORLD, &rq));
        int rc = MPI_Wait(&rq, MPI_STATUS_IGNORE);
        CHECK_ERR(rc, MPI_ERR_ROOT);
        names(rc, "MPI_Ibcast");
        EXPECT(MPI_Bcast(buf, rank == 0 ? 2 : 1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_TRUNCATE, "MPI_Bcast");
        EXPECT(MPI_Allreduce(buf, out, 1, MPI_INT, rank == 0 ? MPI_MAX : MPI_SUM, MPI_COMM_WORLD), MPI_ERR_OP,
               "MPI_Allreduce");
        /* one rank's bad argument: everyone learns of it */
        EXPECT(MPI_Allreduce(buf, out, rank == size - 1 ? -1 : 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_COUNT,
               "MPI_Allreduce");
        EXPECT(MPI_Bcast(buf, 1, MPI_INT, rank == 0 ? size : 0, MPI_COMM_WORLD), MPI_ERR_ROOT, "MPI_Bcast");
        /* blocks of different sizes where each rank's own call looks fine
         * (even forms: every block is the same size) */
        EXPECT(MPI_Scatter(out, 1, MPI_INT, buf, rank == 0 ? 1 : 2, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_TRUNCATE,
               "MPI_Scatter");
        EXPECT(MPI_Gather(buf, rank == 0 ? 2 : 1, MPI_INT, out, 2, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_TRUNCATE,
               "MPI_Gather");
        /* a rank sending less than it receives */
        EXPECT(MPI_Allgather(buf, rank == 0 ? 1 : 2, MPI_INT, out, 2, MPI_INT, MPI_COMM_WORLD), MPI_ERR_TRUNCATE,
               "MPI_Allgather");
        /* MPI_IN_PLACE at a non-root: the root hears of it too */
        EXPECT(MPI_Gather(rank == 1 ? MPI_IN_PLACE : (void *)buf, 1, MPI_INT, out, 1, MPI_INT, 0, MPI_COMM_WORLD),
               MPI_ERR_BUFFER, "MPI_Gather");
        /* receive blocks that overlap: no location may be written twice */
        int cnt[64], dsp[64], sb[66] = {0};
        for (int i = 0; i < size && i < 64; i++) {
            cnt[i] = 2;
            dsp[i] = i; /* blocks of 2 one element apart */
        }
        if (size <= 64) {
            EXPECT(MPI_Allgatherv(sb, 2, MPI_INT, out, cnt, dsp, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER,
                   "MPI_Allgatherv");
            EXPECT(MPI_Alltoallv(sb, cnt, dsp, MPI_INT, out, cnt, dsp, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER,
                   "MPI_Alltoallv");
            /* seen at the root only: everyone learns of it */
            EXPECT(MPI_Gatherv(sb, 2, MPI_INT, out, cnt, dsp, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER,
                   "MPI_Gatherv");
        }
        /* a nonblocking one with a bad argument somewhere */
        rc = MPI_Ialltoall(buf, rank == 0 ? -1 : 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD, &rq);
        if (rank == 0) {
            CHECK_ERR(rc, MPI_ERR_COUNT);
        } else {
            CHECK_OK(rc);
            CHECK_ERR(MPI_Wait(&rq, MPI_STATUS_IGNORE), MPI_ERR_COUNT);
        }
    }
    in_step();
    /* and correct calls still work in check mode */
    int x = rank, s = -1;
    CHECK_OK(MPI_Bcast(&x, 1, MPI_INT, size - 1, MPI_COMM_WORLD));
    CHECK(x == size - 1, "bcast in check mode");
    CHECK_OK(MPI_Reduce(&rank, &s, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD));
    CHECK(rank != 0 || s == size - 1, "reduce in check mode");
    CHECK_OK(MPI_Ibarrier(MPI_COMM_WORLD, &rq));
    CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (argc > 1 && !strcmp(argv[1], "check"))
        check_mode();
    else
        local_errors();
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("coll_errors: ok\n");
    MPI_Finalize();
    return 0;
}
