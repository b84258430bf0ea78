/*
 * coll_refused.c: a collective call that one rank's local argument check
 * refuses (coll_check off, MPI_ERRORS_RETURN) leaves no rank waiting in
 * it. For every collective family, blocking, nonblocking and persistent,
 * with the root and then another rank refusing, on a fresh duplicate of
 * MPI_COMM_WORLD:
 *   - the refusing rank gets its own error class;
 *   - every rank whose result needs the refusing rank gets MPI_ERR_OTHER,
 *     with a message naming the refusing rank and its argument check
 *     (the others may have finished their part: success or that error);
 *   - point-to-point on the communicator still works;
 *   - a correct allreduce on it then either gives the right sum on every
 *     rank, or (the communicator's collectives were revoked because ranks
 *     had taken part in the refused call) fails on every rank, never a mix.
 * In the second pass ("late") the refusing rank goes first and the others
 * make the call only after its notice must have arrived: they fail at
 * once, nobody took part, and the next collective must succeed.
 *
 *   coll_refused [big]   big: blocks of 1 MiB (rendezvous messages, the
 *                        shared region's long paths) instead of 4 ints
 *   COLL_REFUSED_TRACE=1 in the environment: each rank names each case first
 * Prints "coll_refused: ok".
 */
#include "testutil.h"

#include <stdbool.h>

enum form { BLOCKING, NONBLOCKING, PERSISTENT, NFORMS };
static const char *form_name[] = {"blocking", "nonblocking", "persistent"};

enum fam {
    F_BCAST, F_GATHER, F_GATHERV, F_SCATTER, F_SCATTERV, F_ALLGATHER, F_ALLGATHERV, F_ALLTOALL, F_ALLTOALLV,
    F_ALLTOALLW, F_REDUCE, F_ALLREDUCE, F_REDUCE_SCATTER, F_REDUCE_SCATTER_BLOCK, F_SCAN, F_EXSCAN, NFAMS
};
static const char *fam_name[] = {"bcast",     "gather",    "gatherv",  "scatter",        "scatterv",
                                 "allgather", "allgatherv", "alltoall", "alltoallv",      "alltoallw",
                                 "reduce",    "allreduce", "reduce_scatter", "reduce_scatter_block", "scan",
                                 "exscan"};

static int rank, size, blk;
static int *sbuf, *rbuf, *counts, *displs, *wcounts, *wdispls;
static MPI_Datatype *types, *nulltypes;

/* Call family f in form fm on c; bad: this rank passes a locally wrong
 * argument (a null datatype; the root of gatherv: recvbuf overlapping
 * sendbuf). Returns the call's result (for the nonblocking and persistent
 * forms: the wait's, unless the call itself failed). */
static int call(enum fam f, enum form fm, MPI_Comm c, int root, bool bad, int *expect_cls)
{
    MPI_Datatype t = bad ? MPI_DATATYPE_NULL : MPI_INT;
    MPI_Datatype *ts = bad ? nulltypes : types;
    void *rb = rbuf;
    *expect_cls = MPI_ERR_TYPE;
    if (f == F_GATHERV && bad && rank == root) {
        t = MPI_INT;
        rb = sbuf; /* overlaps sendbuf: block `root` lands on it */
        *expect_cls = MPI_ERR_BUFFER;
    }
    MPI_Request rq = MPI_REQUEST_NULL;
    MPI_Request *r = fm == BLOCKING ? NULL : &rq;
    MPI_Info in = MPI_INFO_NULL;
    int rc = MPI_ERR_INTERN;
#define FORM2(B, I, args, iargs) rc = fm == BLOCKING ? B args : I iargs
    switch (f) {
    case F_BCAST:
        if (fm == PERSISTENT)
            rc = MPI_Bcast_init(sbuf, blk, t, root, c, in, r);
        else
            FORM2(MPI_Bcast, MPI_Ibcast, (sbuf, blk, t, root, c), (sbuf, blk, t, root, c, r));
        break;
    case F_GATHER:
        if (fm == PERSISTENT)
            rc = MPI_Gather_init(sbuf, blk, t, rb, blk, t, root, c, in, r);
        else
            FORM2(MPI_Gather, MPI_Igather, (sbuf, blk, t, rb, blk, t, root, c),
                  (sbuf, blk, t, rb, blk, t, root, c, r));
        break;
    case F_GATHERV:
        if (fm == PERSISTENT)
            rc = MPI_Gatherv_init(sbuf, blk, t, rb, counts, displs, t, root, c, in, r);
        else
            FORM2(MPI_Gatherv, MPI_Igatherv, (sbuf, blk, t, rb, counts, displs, t, root, c),
                  (sbuf, blk, t, rb, counts, displs, t, root, c, r));
        break;
    case F_SCATTER:
        if (fm == PERSISTENT)
            rc = MPI_Scatter_init(sbuf, blk, t, rbuf, blk, t, root, c, in, r);
        else
            FORM2(MPI_Scatter, MPI_Iscatter, (sbuf, blk, t, rbuf, blk, t, root, c),
                  (sbuf, blk, t, rbuf, blk, t, root, c, r));
        break;
    case F_SCATTERV:
        if (fm == PERSISTENT)
            rc = MPI_Scatterv_init(sbuf, counts, displs, t, rbuf, blk, t, root, c, in, r);
        else
            FORM2(MPI_Scatterv, MPI_Iscatterv, (sbuf, counts, displs, t, rbuf, blk, t, root, c),
                  (sbuf, counts, displs, t, rbuf, blk, t, root, c, r));
        break;
    case F_ALLGATHER:
        if (fm == PERSISTENT)
            rc = MPI_Allgather_init(sbuf, blk, t, rbuf, blk, t, c, in, r);
        else
            FORM2(MPI_Allgather, MPI_Iallgather, (sbuf, blk, t, rbuf, blk, t, c),
                  (sbuf, blk, t, rbuf, blk, t, c, r));
        break;
    case F_ALLGATHERV:
        if (fm == PERSISTENT)
            rc = MPI_Allgatherv_init(sbuf, blk, t, rbuf, counts, displs, t, c, in, r);
        else
            FORM2(MPI_Allgatherv, MPI_Iallgatherv, (sbuf, blk, t, rbuf, counts, displs, t, c),
                  (sbuf, blk, t, rbuf, counts, displs, t, c, r));
        break;
    case F_ALLTOALL:
        if (fm == PERSISTENT)
            rc = MPI_Alltoall_init(sbuf, blk, t, rbuf, blk, t, c, in, r);
        else
            FORM2(MPI_Alltoall, MPI_Ialltoall, (sbuf, blk, t, rbuf, blk, t, c),
                  (sbuf, blk, t, rbuf, blk, t, c, r));
        break;
    case F_ALLTOALLV:
        if (fm == PERSISTENT)
            rc = MPI_Alltoallv_init(sbuf, counts, displs, t, rbuf, counts, displs, t, c, in, r);
        else
            FORM2(MPI_Alltoallv, MPI_Ialltoallv, (sbuf, counts, displs, t, rbuf, counts, displs, t, c),
                  (sbuf, counts, displs, t, rbuf, counts, displs, t, c, r));
        break;
    case F_ALLTOALLW:
        if (fm == PERSISTENT)
            rc = MPI_Alltoallw_init(sbuf, wcounts, wdispls, ts, rbuf, wcounts, wdispls, ts, c, in, r);
        else
            FORM2(MPI_Alltoallw, MPI_Ialltoallw,
                  (sbuf, wcounts, wdispls, ts, rbuf, wcounts, wdispls, ts, c),
                  (sbuf, wcounts, wdispls, ts, rbuf, wcounts, wdispls, ts, c, r));
        break;
    case F_REDUCE:
        if (fm == PERSISTENT)
            rc = MPI_Reduce_init(sbuf, rbuf, blk, t, MPI_SUM, root, c, in, r);
        else
            FORM2(MPI_Reduce, MPI_Ireduce, (sbuf, rbuf, blk, t, MPI_SUM, root, c),
                  (sbuf, rbuf, blk, t, MPI_SUM, root, c, r));
        break;
    case F_ALLREDUCE:
        if (fm == PERSISTENT)
            rc = MPI_Allreduce_init(sbuf, rbuf, blk, t, MPI_SUM, c, in, r);
        else
            FORM2(MPI_Allreduce, MPI_Iallreduce, (sbuf, rbuf, blk, t, MPI_SUM, c),
                  (sbuf, rbuf, blk, t, MPI_SUM, c, r));
        break;
    case F_REDUCE_SCATTER:
        if (fm == PERSISTENT)
            rc = MPI_Reduce_scatter_init(sbuf, rbuf, counts, t, MPI_SUM, c, in, r);
        else
            FORM2(MPI_Reduce_scatter, MPI_Ireduce_scatter, (sbuf, rbuf, counts, t, MPI_SUM, c),
                  (sbuf, rbuf, counts, t, MPI_SUM, c, r));
        break;
    case F_REDUCE_SCATTER_BLOCK:
        if (fm == PERSISTENT)
            rc = MPI_Reduce_scatter_block_init(sbuf, rbuf, blk, t, MPI_SUM, c, in, r);
        else
            FORM2(MPI_Reduce_scatter_block, MPI_Ireduce_scatter_block,
                  (sbuf, rbuf, blk, t, MPI_SUM, c), (sbuf, rbuf, blk, t, MPI_SUM, c, r));
        break;
    case F_SCAN:
        if (fm == PERSISTENT)
            rc = MPI_Scan_init(sbuf, rbuf, blk, t, MPI_SUM, c, in, r);
        else
            FORM2(MPI_Scan, MPI_Iscan, (sbuf, rbuf, blk, t, MPI_SUM, c), (sbuf, rbuf, blk, t, MPI_SUM, c, r));
        break;
    case F_EXSCAN:
        if (fm == PERSISTENT)
            rc = MPI_Exscan_init(sbuf, rbuf, blk, t, MPI_SUM, c, in, r);
        else
            FORM2(MPI_Exscan, MPI_Iexscan, (sbuf, rbuf, blk, t, MPI_SUM, c),
                  (sbuf, rbuf, blk, t, MPI_SUM, c, r));
        break;
    default:
        break;
    }
#undef FORM2
    if (rc != MPI_SUCCESS || fm == BLOCKING)
        return rc;
    if (fm == PERSISTENT) {
        rc = MPI_Start(&rq);
        if (rc != MPI_SUCCESS) {
            MPI_Request_free(&rq);
            return rc;
        }
    }
    rc = MPI_Wait(&rq, MPI_STATUS_IGNORE);
    if (fm == PERSISTENT)
        MPI_Request_free(&rq);
    return rc;
}

/* Must this rank fail when `bad` refuses? (Its result needs the bad
 * rank's part; the others may have finished theirs.) */
static bool needs(enum fam f, int root, int bad)
{
    switch (f) {
    case F_BCAST:
    case F_SCATTER:
    case F_SCATTERV:
        return rank != root && bad == root;
    case F_GATHER:
    case F_GATHERV:
    case F_REDUCE:
        return rank == root && bad != root;
    case F_SCAN:
    case F_EXSCAN:
        return rank > bad;
    default:
        return true;
    }
}

/* Point-to-point on c, twice round: every rank hears from every other.
 * After two rounds every notice sent before this point has arrived (the
 * messages of one pair of processes keep their order), and so have the
 * revocations their arrival caused. */
static void settle(MPI_Comm c)
{
    MPI_Request *rq = malloc(sizeof(MPI_Request) * 2 * (size_t)size);
    int *in = malloc(sizeof(int) * (size_t)size), out = rank * 10 + 1;
    for (int round = 0; round < 2; round++) {
        int n = 0;
        for (int i = 0; i < size; i++) {
            if (i == rank)
                continue;
            CHECK_OK(MPI_Irecv(&in[i], 1, MPI_INT, i, 77 + round, c, &rq[n++]));
            CHECK_OK(MPI_Isend(&out, 1, MPI_INT, i, 77 + round, c, &rq[n++]));
        }
        CHECK_OK(MPI_Waitall(n, rq, MPI_STATUSES_IGNORE));
        for (int i = 0; i < size; i++)
            CHECK(i == rank || in[i] == i * 10 + 1, "point-to-point after a refused call: %d from %d", in[i], i);
    }
    free(in);
    free(rq);
}

static int cls_of(int rc)
{
    int cls = MPI_SUCCESS;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    return cls;
}

static void one(enum fam f, enum form fm, int root, int bad, bool late, int *revoked)
{
    MPI_Comm c;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    /* a first blocking collective learns the node layout (a collective
     * exchange, also in a call that is then refused): done, the refused
     * call synchronises nothing, and the late pass may make the others
     * wait for the refusing rank's word */
    CHECK_OK(MPI_Barrier(c));
    char what[160];
    snprintf(what, sizeof what, "%s %s, root %d, rank %d refusing%s, %d ranks, blocks of %d ints", form_name[fm],
             fam_name[f], root, bad, late ? " first" : "", size, blk);
    if (getenv("COLL_REFUSED_TRACE"))
        fprintf(stderr, "[%d] %s\n", rank, what);
    int go = 0;
    if (late && rank != bad)
        CHECK_OK(MPI_Recv(&go, 1, MPI_INT, bad, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    int expect_cls;
    int rc = call(f, fm, c, root, rank == bad, &expect_cls);
    if (late && rank == bad)
        for (int i = 0; i < size; i++)
            if (i != bad)
                CHECK_OK(MPI_Send(&go, 1, MPI_INT, i, 5, MPI_COMM_WORLD));
    int cls = cls_of(rc);
    if (rank == bad) {
        CHECK(cls == expect_cls, "%s: the refusing rank got class %d, expected %d", what, cls, expect_cls);
    } else if (rc != MPI_SUCCESS || needs(f, root, bad) || late) {
        char msg[MPI_MAX_ERROR_STRING], want[32];
        int len = 0;
        MPI_Error_string(rc, msg, &len);
        CHECK(cls == MPI_ERR_OTHER, "%s: class %d (%s), expected MPI_ERR_OTHER", what, cls, msg);
        snprintf(want, sizeof want, "rank %d ", bad);
        CHECK(strstr(msg, want) && strstr(msg, "argument check"), "%s: message '%s' does not name rank %d", what,
              msg, bad);
    }
    settle(c);
    /* the next collective: right everywhere, or revoked everywhere */
    int x = rank + 1, sum = 0;
    rc = MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, c);
    int ok = rc == MPI_SUCCESS, nok = 0;
    if (ok)
        CHECK(sum == size * (size + 1) / 2, "%s: the next allreduce gives %d", what, sum);
    else
        CHECK(cls_of(rc) == MPI_ERR_OTHER, "%s: the next allreduce fails with class %d", what, cls_of(rc));
    CHECK_OK(MPI_Allreduce(&ok, &nok, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(nok == 0 || nok == size, "%s: the next allreduce succeeds on %d ranks of %d", what, nok, size);
    CHECK(!late || nok == size, "%s: the next allreduce failed after a call nobody took part in", what);
    if (!ok) {
        char msg[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(rc, msg, &len);
        CHECK(strstr(msg, "revoked") != NULL, "%s: the next allreduce fails with '%s'", what, msg);
        (*revoked)++;
    }
    settle(c); /* point-to-point after a revocation too */
    CHECK_OK(MPI_Comm_free(&c));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    bool big = argc > 1 && strcmp(argv[1], "big") == 0;
    blk = big ? (1 << 20) / (int)sizeof(int) : 4;
    size_t n = (size_t)blk * (size_t)size;
    sbuf = malloc(n * sizeof(int));
    rbuf = malloc(n * sizeof(int));
    counts = malloc(sizeof(int) * (size_t)size);
    displs = malloc(sizeof(int) * (size_t)size);
    wcounts = malloc(sizeof(int) * (size_t)size);
    wdispls = malloc(sizeof(int) * (size_t)size);
    types = malloc(sizeof(MPI_Datatype) * (size_t)size);
    nulltypes = malloc(sizeof(MPI_Datatype) * (size_t)size);
    for (size_t i = 0; i < n; i++)
        sbuf[i] = rank + (int)i;
    for (int i = 0; i < size; i++) {
        counts[i] = wcounts[i] = blk;
        displs[i] = i * blk;
        wdispls[i] = i * blk * (int)sizeof(int);
        types[i] = MPI_INT;
        nulltypes[i] = MPI_DATATYPE_NULL;
    }
    int revoked = 0, cases = 0;
    for (int late = 0; late < 2; late++)
        for (int f = 0; f < NFAMS; f++)
            for (int fm = 0; fm < NFORMS; fm++) {
                int root = size > 2 ? 1 : 0;
                one((enum fam)f, (enum form)fm, root, root, late, &revoked);
                one((enum fam)f, (enum form)fm, root, size - 1 == root ? 0 : size - 1, late, &revoked);
                cases += 2;
            }
    if (rank == 0)
        printf("coll_refused: %d cases, %d left the communicator's collectives revoked\n", cases, revoked);
    free(sbuf);
    free(rbuf);
    free(counts);
    free(displs);
    free(wcounts);
    free(wdispls);
    free(types);
    free(nulltypes);
    MPI_Finalize();
    if (rank == 0)
        printf("coll_refused: ok\n");
    return 0;
}
