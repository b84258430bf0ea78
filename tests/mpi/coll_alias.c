/*
 * coll_alias.c: sendbuf and recvbuf at the same address are an error only
 * where the bytes a collective reads and the bytes it writes overlap
 * (MPI-2.2 2.6.1: no OUT argument may alias another argument, and the
 * in-place form is MPI_IN_PLACE). Two distinct zero-length buffers may
 * share an address (a language binding's empty arrays often do), and so
 * may send and receive blocks that lie side by side in one array.
 *
 * Every rank checks, for every collective and its nonblocking form:
 *   - counts all 0, sendbuf == recvbuf: succeeds on every rank (no rank
 *     is left waiting for another that refused the call);
 *   - blocks side by side in one array: succeeds, with the right data;
 *   - blocks that really overlap: MPI_ERR_BUFFER on every rank.
 * Prints "coll_alias: ok".
 */
#include "testutil.h"

static int rank, size;

/* Blocking and nonblocking forms of the same call. */
#define BOTH(call, icall)                                                          \
    do {                                                                           \
        MPI_Request rq_;                                                           \
        CHECK_OK(call);                                                            \
        CHECK_OK(icall);                                                           \
        CHECK_OK(MPI_Wait(&rq_, MPI_STATUS_IGNORE));                               \
    } while (0)

static void zero_counts(void)
{
    int *zc = calloc((size_t)size, sizeof(int)), *zd = calloc((size_t)size, sizeof(int));
    MPI_Datatype *types = malloc((size_t)size * sizeof *types);
    for (int i = 0; i < size; i++)
        types[i] = MPI_INT;
    int word = 0;
    void *same = &word; /* two empty buffers at one address */
    MPI_Comm w = MPI_COMM_WORLD;
    BOTH(MPI_Allgatherv(same, 0, MPI_INT, same, zc, zd, MPI_INT, w),
         MPI_Iallgatherv(same, 0, MPI_INT, same, zc, zd, MPI_INT, w, &rq_));
    BOTH(MPI_Alltoallv(same, zc, zd, MPI_INT, same, zc, zd, MPI_INT, w),
         MPI_Ialltoallv(same, zc, zd, MPI_INT, same, zc, zd, MPI_INT, w, &rq_));
    BOTH(MPI_Alltoallw(same, zc, zd, types, same, zc, zd, types, w),
         MPI_Ialltoallw(same, zc, zd, types, same, zc, zd, types, w, &rq_));
    for (int root = 0; root < size && root < 3; root++) {
        BOTH(MPI_Gatherv(same, 0, MPI_INT, same, zc, zd, MPI_INT, root, w),
             MPI_Igatherv(same, 0, MPI_INT, same, zc, zd, MPI_INT, root, w, &rq_));
        BOTH(MPI_Scatterv(same, zc, zd, MPI_INT, same, 0, MPI_INT, root, w),
             MPI_Iscatterv(same, zc, zd, MPI_INT, same, 0, MPI_INT, root, w, &rq_));
        BOTH(MPI_Gather(same, 0, MPI_INT, same, 0, MPI_INT, root, w),
             MPI_Igather(same, 0, MPI_INT, same, 0, MPI_INT, root, w, &rq_));
        BOTH(MPI_Scatter(same, 0, MPI_INT, same, 0, MPI_INT, root, w),
             MPI_Iscatter(same, 0, MPI_INT, same, 0, MPI_INT, root, w, &rq_));
        BOTH(MPI_Reduce(same, same, 0, MPI_INT, MPI_SUM, root, w),
             MPI_Ireduce(same, same, 0, MPI_INT, MPI_SUM, root, w, &rq_));
    }
    BOTH(MPI_Allgather(same, 0, MPI_INT, same, 0, MPI_INT, w),
         MPI_Iallgather(same, 0, MPI_INT, same, 0, MPI_INT, w, &rq_));
    BOTH(MPI_Alltoall(same, 0, MPI_INT, same, 0, MPI_INT, w),
         MPI_Ialltoall(same, 0, MPI_INT, same, 0, MPI_INT, w, &rq_));
    BOTH(MPI_Allreduce(same, same, 0, MPI_INT, MPI_SUM, w),
         MPI_Iallreduce(same, same, 0, MPI_INT, MPI_SUM, w, &rq_));
    BOTH(MPI_Scan(same, same, 0, MPI_INT, MPI_SUM, w), MPI_Iscan(same, same, 0, MPI_INT, MPI_SUM, w, &rq_));
    BOTH(MPI_Exscan(same, same, 0, MPI_INT, MPI_SUM, w), MPI_Iexscan(same, same, 0, MPI_INT, MPI_SUM, w, &rq_));
    BOTH(MPI_Reduce_scatter(same, same, zc, MPI_INT, MPI_SUM, w),
         MPI_Ireduce_scatter(same, same, zc, MPI_INT, MPI_SUM, w, &rq_));
    BOTH(MPI_Reduce_scatter_block(same, same, 0, MPI_INT, MPI_SUM, w),
         MPI_Ireduce_scatter_block(same, same, 0, MPI_INT, MPI_SUM, w, &rq_));
    /* only some ranks have empty blocks: the root's own block is empty,
     * so its sendbuf may be anywhere, recvbuf included */
    int *cnt = malloc((size_t)size * sizeof(int)), *dsp = malloc((size_t)size * sizeof(int));
    int *all = calloc((size_t)size + 1, sizeof(int));
    for (int i = 0; i < size; i++) {
        cnt[i] = i == 0 ? 0 : 1;
        dsp[i] = i;
    }
    int v = rank * 7;
    const void *sb = rank == 0 ? (void *)all : (void *)&v;
    CHECK_OK(MPI_Gatherv(sb, rank == 0 ? 0 : 1, MPI_INT, all, cnt, dsp, MPI_INT, 0, w));
    for (int i = 1; rank == 0 && i < size; i++)
        CHECK(all[i] == i * 7, "gatherv with an empty root block: block %d is %d", i, all[i]);
    free(all);
    free(cnt);
    free(dsp);
    free(zc);
    free(zd);
    free(types);
}

/* Send and receive blocks side by side in one array: even elements are
 * sent, odd ones received. */
static void side_by_side(void)
{
    int n = size;
    int *buf = malloc((size_t)(2 * n) * sizeof(int));
    int *cnt = malloc((size_t)n * sizeof(int)), *sd = malloc((size_t)n * sizeof(int)),
        *rd = malloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++) {
        buf[2 * i] = rank * 100 + i;
        buf[2 * i + 1] = -1;
        cnt[i] = 1;
        sd[i] = 2 * i;
        rd[i] = 2 * i + 1;
    }
    CHECK_OK(MPI_Alltoallv(buf, cnt, sd, MPI_INT, buf, cnt, rd, MPI_INT, MPI_COMM_WORLD));
    for (int i = 0; i < n; i++) {
        CHECK(buf[2 * i + 1] == i * 100 + rank, "alltoallv side by side: block %d is %d", i, buf[2 * i + 1]);
        CHECK(buf[2 * i] == rank * 100 + i, "alltoallv side by side: send block %d changed", i);
    }
    /* allgatherv: the own contribution at the front, the blocks after it */
    for (int i = 0; i < n; i++)
        rd[i] = 1 + i;
    buf[0] = rank + 1;
    CHECK_OK(MPI_Allgatherv(buf, 1, MPI_INT, buf, cnt, rd, MPI_INT, MPI_COMM_WORLD));
    for (int i = 0; i < n; i++)
        CHECK(buf[1 + i] == i + 1, "allgatherv side by side: block %d is %d", i, buf[1 + i]);
    /* gatherv at root 0: the same */
    buf[0] = rank + 10;
    CHECK_OK(MPI_Gatherv(buf, 1, MPI_INT, buf, cnt, rd, MPI_INT, 0, MPI_COMM_WORLD));
    for (int i = 0; rank == 0 && i < n; i++)
        CHECK(buf[1 + i] == i + 10, "gatherv side by side: block %d is %d", i, buf[1 + i]);
    /* scatterv at root 0: the blocks first, the root's receive slot after them */
    for (int i = 0; i < n; i++) {
        buf[i] = 1000 + i;
        rd[i] = i;
    }
    buf[n] = -1;
    CHECK_OK(MPI_Scatterv(buf, cnt, rd, MPI_INT, rank == 0 ? buf + n : buf, 1, MPI_INT, 0, MPI_COMM_WORLD));
    CHECK(buf[rank == 0 ? n : 0] == 1000 + rank, "scatterv side by side: got %d", buf[rank == 0 ? n : 0]);
    free(buf);
    free(cnt);
    free(sd);
    free(rd);
}

static void expect_overlap(int rc, const char *fn)
{
    CHECK_ERR(rc, MPI_ERR_BUFFER);
    char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, s, &len);
    CHECK(strstr(s, fn) && strstr(s, "sendbuf"), "message '%s' names neither %s nor sendbuf", s, fn);
}

/* Real overlap, seen by every rank for itself. */
static void overlapping(void)
{
    int n = size;
    int *buf = calloc((size_t)(2 * n + 2), sizeof(int)), *cnt = malloc((size_t)n * sizeof(int)),
        *dsp = malloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++) {
        cnt[i] = 1;
        dsp[i] = i;
    }
    MPI_Request rq;
    expect_overlap(MPI_Alltoallv(buf, cnt, dsp, MPI_INT, buf, cnt, dsp, MPI_INT, MPI_COMM_WORLD), "MPI_Alltoallv");
    expect_overlap(MPI_Ialltoallv(buf, cnt, dsp, MPI_INT, buf, cnt, dsp, MPI_INT, MPI_COMM_WORLD, &rq),
                   "MPI_Ialltoallv");
    expect_overlap(MPI_Allgatherv(buf, 1, MPI_INT, buf, cnt, dsp, MPI_INT, MPI_COMM_WORLD), "MPI_Allgatherv");
    expect_overlap(MPI_Allreduce(buf, buf, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
    free(buf);
    free(cnt);
    free(dsp);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    zero_counts();
    side_by_side();
    overlapping();
    /* still in step */
    int one = 1, sum = 0;
    CHECK_OK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(sum == size, "allreduce afterwards: %d", sum);
    MPI_Finalize();
    if (rank == 0)
        printf("coll_alias: ok\n");
    return 0;
}
