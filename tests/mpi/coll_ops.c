/*
 * coll_ops.c: every collective operation on intracommunicators, checked
 * element by element against a reference computed locally from the
 * formula that made each rank's data. Covered: counts 0, 1, a prime and
 * (with "big") 1 Mi elements; several roots; MPI_IN_PLACE; a derived
 * datatype with holes (which must stay untouched) and send and receive
 * types that differ but match in signature; predefined and user ops, a
 * non-commutative one whose result shows the order of application (also
 * on a resized type); blocking and nonblocking forms; MPI_COMM_WORLD and
 * the two halves of a split (ranks interleaved, so not the identity map);
 * and each algorithm forced in turn through the communicator hint
 * tide_coll_tuning (ignored by other MPI implementations).
 *
 * usage: coll_ops [quick|full] [big] [only=OP]
 * Prints "coll_ops: ok N checks" on success.
 */
#include "testutil.h"

#include <stdbool.h>
#include <stdint.h>

#define SENT (-99999)
#define BYTE_SENT 0xA5

static int wrank, wsize;
static long nchecks;
static int full, big;
static const char *only;

/* ---- element layouts of int data ---- */

struct ty {
    const char *name;
    MPI_Datatype dt;
    int nv;      /* values per element */
    int stride;  /* ints per extent */
    int off[2];  /* where the values are */
};

static struct ty T_INT = {"MPI_INT", MPI_INT, 1, 1, {0, 0}};
static struct ty T_VEC = {"vector(2,1,2)", MPI_DATATYPE_NULL, 2, 3, {0, 2}};
static struct ty T_2INT = {"contig(2,MPI_INT)", MPI_DATATYPE_NULL, 2, 2, {0, 1}};

static int val(int r, long i)
{
    return (int)(((long)r * 1009 + i * 31) % 2003) - 1000;
}

static int *mk(const struct ty *t, long count)
{
    long n = count * t->stride + 8;
    int *b = malloc((size_t)n * sizeof *b);
    CHECK(b, "out of memory for %ld ints", n);
    for (long i = 0; i < n; i++)
        b[i] = SENT;
    return b;
}

static int *slot(const struct ty *t, int *buf, long k, int j)
{
    return &buf[k * t->stride + t->off[j]];
}

/* values [base, base + count * nv) of source r into elements [at, at + count) */
static void fill(const struct ty *t, int *buf, long at, long count, int r, long base)
{
    for (long k = 0; k < count; k++)
        for (int j = 0; j < t->nv; j++)
            *slot(t, buf, at + k, j) = val(r, base + k * t->nv + j);
}

static void expect(const struct ty *t, int *buf, long at, long count, int r, long base, const char *what)
{
    for (long k = 0; k < count; k++)
        for (int j = 0; j < t->nv; j++) {
            int got = *slot(t, buf, at + k, j), want = val(r, base + k * t->nv + j);
            CHECK(got == want, "%s: element %ld value %d: got %d, want %d (from rank %d)", what, at + k, j, got,
                  want, r);
        }
    nchecks++;
}

/* every int of buf outside the values of elements [0, count) is untouched */
static void holes(const struct ty *t, int *buf, long count, const char *what)
{
    for (long k = 0; k < count; k++)
        for (int s = 0; s < t->stride; s++) {
            bool isval = false;
            for (int j = 0; j < t->nv; j++)
                isval |= t->off[j] == s;
            if (!isval)
                CHECK(buf[k * t->stride + s] == SENT, "%s: hole at element %ld slot %d overwritten (%d)", what, k,
                      s, buf[k * t->stride + s]);
        }
    for (int g = 0; g < 8; g++)
        CHECK(buf[count * t->stride + g] == SENT, "%s: wrote past the end of the buffer", what);
}

static bool want(const char *op)
{
    return !only || strcmp(only, op) == 0;
}

static void wait_or(int nb, MPI_Request *rq)
{
    if (nb)
        CHECK_OK(MPI_Wait(rq, MPI_STATUS_IGNORE));
}

/* ---- bcast ---- */

static void t_bcast(MPI_Comm c, const struct ty *t, long count, int root, int nb)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    int *b = mk(t, count);
    if (me == root)
        fill(t, b, 0, count, root, 0);
    MPI_Request rq;
    if (nb)
        CHECK_OK(MPI_Ibcast(b, (int)count, t->dt, root, c, &rq));
    else
        CHECK_OK(MPI_Bcast(b, (int)count, t->dt, root, c));
    wait_or(nb, &rq);
    expect(t, b, 0, count, root, 0, "bcast");
    holes(t, b, count, "bcast");
    free(b);
}

/* ---- gather / scatter ---- */

/* st/sc: what each rank sends; rt: the root's receive type (rc elements per
 * block, rc * rt->nv == sc * st->nv) */
static void t_gather(MPI_Comm c, const struct ty *st, const struct ty *rt, long sc, int root, int inplace, int nb)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    long rc = sc * st->nv / rt->nv;
    int *s = mk(st, sc), *r = me == root ? mk(rt, rc * n) : NULL;
    fill(st, s, 0, sc, me, 0);
    const void *sb = s;
    if (inplace && me == root) {
        fill(rt, r, rc * me, rc, me, 0);
        sb = MPI_IN_PLACE;
    }
    MPI_Request rq;
    if (nb)
        CHECK_OK(MPI_Igather(sb, (int)sc, st->dt, r, (int)rc, rt->dt, root, c, &rq));
    else
        CHECK_OK(MPI_Gather(sb, (int)sc, st->dt, r, (int)rc, rt->dt, root, c));
    wait_or(nb, &rq);
    if (me == root) {
        for (int b = 0; b < n; b++)
            expect(rt, r, rc * b, rc, b, 0, "gather");
        holes(rt, r, rc * n, "gather");
    }
    expect(st, s, 0, sc, me, 0, "gather: send buffer changed");
    free(s);
    free(r);
}

static void t_scatter(MPI_Comm c, const struct ty *st, const struct ty *rt, long sc, int root, int inplace, int nb)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    long rc = sc * st->nv / rt->nv;
    int *s = me == root ? mk(st, sc * n) : NULL, *r = mk(rt, rc);
    if (me == root)
        for (int b = 0; b < n; b++)
            fill(st, s, sc * b, sc, b, 0);
    void *rb = r;
    if (inplace && me == root)
        rb = MPI_IN_PLACE;
    MPI_Request rq;
    if (nb)
        CHECK_OK(MPI_Iscatter(s, (int)sc, st->dt, rb, (int)rc, rt->dt, root, c, &rq));
    else
        CHECK_OK(MPI_Scatter(s, (int)sc, st->dt, rb, (int)rc, rt->dt, root, c));
    wait_or(nb, &rq);
    if (rb != MPI_IN_PLACE) {
        expect(rt, r, 0, rc, me, 0, "scatter");
        holes(rt, r, rc, "scatter");
    }
    if (me == root)
        for (int b = 0; b < n; b++)
            expect(st, s, sc * b, sc, b, 0, "scatter: send buffer changed");
    free(s);
    free(r);
}

/* v-forms: block b has cnt(b) elements, blocks stored in reverse order with
 * a one-element gap */
static int vcnt(int b, long count)
{
    return count == 0 ? 0 : (int)((count + 3L * b) % (count + 1));
}

static long vdispls(int n, long count, int *cnts, int *displs)
{
    long at = 0;
    for (int b = n - 1; b >= 0; b--) {
        cnts[b] = vcnt(b, count);
        displs[b] = (int)at;
        at += cnts[b] + 1;
    }
    return at;
}

static void t_gatherv(MPI_Comm c, const struct ty *t, long count, int root, int inplace, int nb)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    int *cnts = malloc((size_t)n * sizeof *cnts), *displs = malloc((size_t)n * sizeof *displs);
    long total = vdispls(n, count, cnts, displs);
    int *s = mk(t, cnts[me]), *r = me == root ? mk(t, total) : NULL;
    fill(t, s, 0, cnts[me], me, 0);
    const void *sb = s;
    if (inplace && me == root) {
        fill(t, r, displs[me], cnts[me], me, 0);
        sb = MPI_IN_PLACE;
    }
    MPI_Request rq;
    if (nb)
        CHECK_OK(MPI_Igatherv(sb, cnts[me], t->dt, r, cnts, displs, t->dt, root, c, &rq));
    else
        CHECK_OK(MPI_Gatherv(sb, cnts[me], t->dt, r, cnts, displs, t->dt, root, c));
    wait_or(nb, &rq);
    if (me == root) {
        for (int b = 0; b < n; b++) {
            expect(t, r, displs[b], cnts[b], b, 0, "gatherv");
            for (int j = 0; j < t->nv; j++)
                CHECK(*slot(t, r, displs[b] + cnts[b], j) == SENT, "gatherv: gap after block %d written", b);
        }
    }
    free(s);
    free(r);
    free(cnts);
    free(displs);
}

static void t_scatterv(MPI_Comm c, const struct ty *t, long count, int root, int inplace, int nb)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    int *cnts = malloc((size_t)n * sizeof *cnts), *displs = malloc((size_t)n * sizeof *displs);
    long total = vdispls(n, count, cnts, displs);
    int *s = me == root ? mk(t, total) : NULL, *r = mk(t, cnts[me]);
    if (me == root)
        for (int b = 0; b < n; b++)
            fill(t, s, displs[b], cnts[b], b, 0);
    void *rb = inplace && me == root ? MPI_IN_PLACE : r;
    MPI_Request rq;
    if (nb)
        CHECK_OK(MPI_Iscatterv(s, cnts, displs, t->dt, rb, cnts[me], t->dt, root, c, &rq));
    else
        CHECK_OK(MPI_Scatterv(s, cnts, displs, t->dt, rb, cnts[me], t->dt, root, c));
    wait_or(nb, &rq);
    if (rb != MPI_IN_PLACE) {
        expect(t, r, 0, cnts[me], me, 0, "scatterv");
        holes(t, r, cnts[me], "scatterv");
    }
    free(s);
    free(r);
    free(cnts);
    free(displs);
}

/* ---- allgather ---- */

static void t_allgather(MPI_Comm c, const struct ty *st, const struct ty *rt, long sc, int inplace, int nb)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    long rc = sc * st->nv / rt->nv;
    int *s = mk(st, sc), *r = mk(rt, rc * n);
    fill(st, s, 0, sc, me, 0);
    const void *sb = s;
    if (inplace) {
        fill(rt, r, rc * me, rc, me, 0);
        sb = MPI_IN_PLACE;
    }
    MPI_Request rq;
    if (nb)
        CHECK_OK(MPI_Iallgather(sb, (int)sc, st->dt, r, (int)rc, rt->dt, c, &rq));
    else
        CHECK_OK(MPI_Allgather(sb, (int)sc, st->dt, r, (int)rc, rt->dt, c));
    wait_or(nb, &rq);
    for (int b = 0; b < n; b++)
        expect(rt, r, rc * b, rc, b, 0, "allgather");
    holes(rt, r, rc * n, "allgather");
    free(s);
    free(r);
}

static void t_allgatherv(MPI_Comm c, const struct ty *t, long count, int inplace, int nb)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    int *cnts = malloc((size_t)n * sizeof *cnts), *displs = malloc((size_t)n * sizeof *displs);
    long total = vdispls(n, count, cnts, displs);
    int *s = mk(t, cnts[me]), *r = mk(t, total);
    fill(t, s, 0, cnts[me], me, 0);
    const void *sb = s;
    if (inplace) {
        fill(t, r, displs[me], cnts[me], me, 0);
        sb = MPI_IN_PLACE;
    }
    MPI_Request rq;
    if (nb)
        CHECK_OK(MPI_Iallgatherv(sb, cnts[me], t->dt, r, cnts, displs, t->dt, c, &rq));
    else
        CHECK_OK(MPI_Allgatherv(sb, cnts[me], t->dt, r, cnts, displs, t->dt, c));
    wait_or(nb, &rq);
    for (int b = 0; b < n; b++) {
        expect(t, r, displs[b], cnts[b], b, 0, "allgatherv");
        for (int j = 0; j < t->nv; j++)
            CHECK(*slot(t, r, displs[b] + cnts[b], j) == SENT, "allgatherv: gap after block %d written", b);
    }
    free(s);
    free(r);
    free(cnts);
    free(displs);
}

/* ---- alltoall ---- */

/* the data src sends dst: values of the pseudo-rank src * 100 + dst */
#define PAIR(src, dst) ((src) * 100 + (dst))

static void t_alltoall(MPI_Comm c, const struct ty *st, const struct ty *rt, long sc, int inplace, int nb)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    long rc = sc * st->nv / rt->nv;
    if (inplace)
        st = rt, sc = rc;
    int *s = mk(st, sc * n), *r = mk(rt, rc * n);
    for (int d = 0; d < n; d++)
        fill(st, inplace ? r : s, sc * d, sc, PAIR(me, d), 0);
    MPI_Request rq;
    const void *sb = inplace ? MPI_IN_PLACE : s;
    if (nb)
        CHECK_OK(MPI_Ialltoall(sb, (int)sc, st->dt, r, (int)rc, rt->dt, c, &rq));
    else
        CHECK_OK(MPI_Alltoall(sb, (int)sc, st->dt, r, (int)rc, rt->dt, c));
    wait_or(nb, &rq);
    for (int b = 0; b < n; b++)
        expect(rt, r, rc * b, rc, PAIR(b, me), 0, "alltoall");
    holes(rt, r, rc * n, "alltoall");
    free(s);
    free(r);
}

static int acnt(int src, int dst, long count, int sym)
{
    if (count == 0)
        return 0;
    return sym ? (int)((src + dst + count) % (count + 1)) : (int)((src + 2L * dst + count) % (count + 1));
}

static void t_alltoallv(MPI_Comm c, const struct ty *t, long count, int inplace, int nb)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    int *sc = malloc((size_t)n * sizeof(int)), *sd = malloc((size_t)n * sizeof(int));
    int *rcn = malloc((size_t)n * sizeof(int)), *rd = malloc((size_t)n * sizeof(int));
    long sat = 0, rat = 0;
    for (int b = n - 1; b >= 0; b--) {
        sc[b] = acnt(me, b, count, inplace);
        sd[b] = (int)sat;
        sat += sc[b] + 1;
        rcn[b] = acnt(b, me, count, inplace);
        rd[b] = (int)rat;
        rat += rcn[b] + 2;
    }
    int *s = mk(t, sat), *r = mk(t, rat);
    if (inplace)
        for (int d = 0; d < n; d++)
            fill(t, r, rd[d], rcn[d], PAIR(me, d), 0);
    else
        for (int d = 0; d < n; d++)
            fill(t, s, sd[d], sc[d], PAIR(me, d), 0);
    MPI_Request rq;
    const void *sb = inplace ? MPI_IN_PLACE : s;
    if (nb)
        CHECK_OK(MPI_Ialltoallv(sb, sc, sd, t->dt, r, rcn, rd, t->dt, c, &rq));
    else
        CHECK_OK(MPI_Alltoallv(sb, sc, sd, t->dt, r, rcn, rd, t->dt, c));
    wait_or(nb, &rq);
    for (int b = 0; b < n; b++) {
        expect(t, r, rd[b], rcn[b], PAIR(b, me), 0, "alltoallv");
        for (int j = 0; j < t->nv; j++)
            CHECK(*slot(t, r, rd[b] + rcn[b], j) == SENT, "alltoallv: gap after block %d written", b);
    }
    free(s);
    free(r);
    free(sc);
    free(sd);
    free(rcn);
    free(rd);
}

/* alltoallw: blocks alternate between MPI_INT and the vector type; counts
 * in values are even, byte displacements */
static void t_alltoallw(MPI_Comm c, long count, int inplace, int nb)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    int *sc = malloc((size_t)n * sizeof(int)), *sd = malloc((size_t)n * sizeof(int));
    int *rcn = malloc((size_t)n * sizeof(int)), *rd = malloc((size_t)n * sizeof(int));
    MPI_Datatype *stt = malloc((size_t)n * sizeof *stt), *rtt = malloc((size_t)n * sizeof *rtt);
    const struct ty **sty = malloc((size_t)n * sizeof *sty), **rty = malloc((size_t)n * sizeof *rty);
    long sat = 0, rat = 0; /* in ints */
    for (int b = 0; b < n; b++) {
        int sv = 2 * acnt(me, b, count, inplace), rv = 2 * acnt(b, me, count, inplace); /* values */
        /* the receiver's type of a block depends on (receiver + sender) parity, the sender's on the sender */
        sty[b] = inplace ? ((me + b) % 2 ? &T_VEC : &T_INT) : (b % 2 ? &T_VEC : &T_INT);
        rty[b] = (me + b) % 2 ? &T_VEC : &T_INT;
        sc[b] = sv / sty[b]->nv;
        rcn[b] = rv / rty[b]->nv;
        stt[b] = sty[b]->dt;
        rtt[b] = rty[b]->dt;
        sd[b] = (int)(sat * (long)sizeof(int));
        sat += (long)sc[b] * sty[b]->stride + 1;
        rd[b] = (int)(rat * (long)sizeof(int));
        rat += (long)rcn[b] * rty[b]->stride + 3;
    }
    int *s = mk(&T_INT, sat), *r = mk(&T_INT, rat);
    for (int d = 0; d < n; d++) {
        if (inplace)
            fill(rty[d], (int *)((char *)r + rd[d]), 0, rcn[d], PAIR(me, d), 0);
        else
            fill(sty[d], (int *)((char *)s + sd[d]), 0, sc[d], PAIR(me, d), 0);
    }
    MPI_Request rq;
    const void *sb = inplace ? MPI_IN_PLACE : s;
    if (nb)
        CHECK_OK(MPI_Ialltoallw(sb, sc, sd, stt, r, rcn, rd, rtt, c, &rq));
    else
        CHECK_OK(MPI_Alltoallw(sb, sc, sd, stt, r, rcn, rd, rtt, c));
    wait_or(nb, &rq);
    for (int b = 0; b < n; b++) {
        int *blk = (int *)((char *)r + rd[b]);
        expect(rty[b], blk, 0, rcn[b], PAIR(b, me), 0, "alltoallw");
        for (long k = 0; k < rcn[b]; k++)
            if (rty[b] == &T_VEC)
                CHECK(blk[k * 3 + 1] == SENT, "alltoallw: hole written");
        for (int g = 0; g < 3; g++)
            CHECK(blk[(long)rcn[b] * rty[b]->stride + g] == SENT, "alltoallw: gap after block %d written", b);
    }
    free(s);
    free(r);
    free(sc);
    free(sd);
    free(rcn);
    free(rd);
    free(stt);
    free(rtt);
    free(sty);
    free(rty);
}

/* ---- reductions ---- */

enum opk { O_SUM_INT, O_MAX_INT, O_SUM_VEC, O_USER_VEC, O_NC, O_NC_RES, O_SUM_DBL, O_NOPK };
static const char *opk_name[] = {"SUM/int", "MAX/int", "SUM/vector", "user-sum/vector", "noncomm/pair",
                                 "noncomm/resized", "SUM/double"};
static MPI_Op op_user_sum, op_nc;
static int predef_on_derived; /* does this MPI apply MPI_SUM to a vector of ints? */
static MPI_Datatype dt_pair, dt_pair_res;

struct pr {
    uint64_t h, p;
};

static struct pr prval(int r, long i)
{
    struct pr x = {(uint64_t)r * 100003u + (uint64_t)i + 1u, 2u * (uint64_t)r + 3u};
    return x;
}

/* a then b (a from the lower ranks) */
static struct pr prcomb(struct pr a, struct pr b)
{
    struct pr x = {a.h * b.p + b.h, a.p * b.p};
    return x;
}

static void user_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    int *a = in, *b = inout;
    for (int k = 0; k < *len; k++) {
        b[3 * k] += a[3 * k];
        b[3 * k + 2] += a[3 * k + 2];
    }
}

static void user_nc(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    MPI_Aint lb, ext;
    MPI_Type_get_extent(*dt, &lb, &ext);
    for (int k = 0; k < *len; k++) {
        struct pr *a = (struct pr *)((char *)in + k * ext), *b = (struct pr *)((char *)inout + k * ext);
        *b = prcomb(*a, *b);
    }
}

static MPI_Datatype opk_type(int o)
{
    switch (o) {
    case O_SUM_VEC:
    case O_USER_VEC:
        return T_VEC.dt;
    case O_NC:
        return dt_pair;
    case O_NC_RES:
        return dt_pair_res;
    case O_SUM_DBL:
        return MPI_DOUBLE;
    default:
        return MPI_INT;
    }
}

static MPI_Op opk_op(int o)
{
    switch (o) {
    case O_MAX_INT:
        return MPI_MAX;
    case O_USER_VEC:
        return op_user_sum;
    case O_NC:
    case O_NC_RES:
        return op_nc;
    default:
        return MPI_SUM;
    }
}

static size_t opk_ext(int o)
{
    switch (o) {
    case O_SUM_VEC:
    case O_USER_VEC:
        return 3 * sizeof(int);
    case O_NC:
        return sizeof(struct pr);
    case O_NC_RES:
        return 3 * sizeof(uint64_t);
    case O_SUM_DBL:
        return sizeof(double);
    default:
        return sizeof(int);
    }
}

static void *rmk(int o, long count)
{
    size_t n = (size_t)count * opk_ext(o) + 64;
    unsigned char *b = malloc(n);
    CHECK(b, "out of memory");
    memset(b, BYTE_SENT, n);
    return b;
}

/* element k of rank r's contribution, at element position at of buf */
static void rput(int o, void *buf, long at, int r, long k)
{
    char *e = (char *)buf + (size_t)at * opk_ext(o);
    switch (o) {
    case O_SUM_VEC:
    case O_USER_VEC:
        ((int *)e)[0] = val(r, 2 * k);
        ((int *)e)[2] = val(r, 2 * k + 1);
        break;
    case O_NC:
    case O_NC_RES: {
        struct pr x = prval(r, k);
        memcpy(e, &x, sizeof x);
        break;
    }
    case O_SUM_DBL: {
        double d = val(r, k);
        memcpy(e, &d, sizeof d);
        break;
    }
    default:
        ((int *)e)[0] = val(r, k);
        break;
    }
}

static void rfill(int o, void *buf, long at, long count, int r, long base)
{
    for (long k = 0; k < count; k++)
        rput(o, buf, at + k, r, base + k);
}

/* check elements [at, at + count) of buf hold the reduction over ranks
 * lo..hi (in order) of elements base.. */
static void rexpect(int o, void *buf, long at, long count, int lo, int hi, long base, const char *what)
{
    size_t ext = opk_ext(o);
    for (long k = 0; k < count; k++) {
        char *e = (char *)buf + (size_t)(at + k) * ext;
        long i = base + k;
        switch (o) {
        case O_SUM_VEC:
        case O_USER_VEC:
            for (int j = 0; j < 2; j++) {
                int w = 0;
                for (int r = lo; r <= hi; r++)
                    w += val(r, 2 * i + j);
                CHECK(((int *)e)[2 * j] == w, "%s %s: element %ld.%d: got %d want %d", what, opk_name[o], at + k,
                      j, ((int *)e)[2 * j], w);
            }
            {
                unsigned char hb[sizeof(int)];
                memset(hb, BYTE_SENT, sizeof hb);
                CHECK(memcmp(e + sizeof(int), hb, sizeof hb) == 0, "%s %s: hole of element %ld written", what,
                      opk_name[o], at + k);
            }
            break;
        case O_NC:
        case O_NC_RES: {
            struct pr w = prval(lo, i), g;
            for (int r = lo + 1; r <= hi; r++)
                w = prcomb(w, prval(r, i));
            memcpy(&g, e, sizeof g);
            CHECK(g.h == w.h && g.p == w.p, "%s %s: element %ld: got (%llu,%llu) want (%llu,%llu): wrong order?",
                  what, opk_name[o], at + k, (unsigned long long)g.h, (unsigned long long)g.p,
                  (unsigned long long)w.h, (unsigned long long)w.p);
            if (o == O_NC_RES) {
                unsigned char hb[sizeof(uint64_t)];
                memset(hb, BYTE_SENT, sizeof hb);
                CHECK(memcmp(e + sizeof(struct pr), hb, sizeof hb) == 0, "%s: hole of element %ld written", what,
                      at + k);
            }
            break;
        }
        case O_SUM_DBL: {
            double w = 0, g;
            for (int r = lo; r <= hi; r++)
                w += val(r, i);
            memcpy(&g, e, sizeof g);
            CHECK(g == w, "%s %s: element %ld: got %g want %g", what, opk_name[o], at + k, g, w);
            break;
        }
        case O_MAX_INT: {
            int w = val(lo, i);
            for (int r = lo + 1; r <= hi; r++)
                w = val(r, i) > w ? val(r, i) : w;
            CHECK(((int *)e)[0] == w, "%s %s: element %ld: got %d want %d", what, opk_name[o], at + k,
                  ((int *)e)[0], w);
            break;
        }
        default: {
            int w = 0;
            for (int r = lo; r <= hi; r++)
                w += val(r, i);
            CHECK(((int *)e)[0] == w, "%s %s: element %ld: got %d want %d", what, opk_name[o], at + k,
                  ((int *)e)[0], w);
            break;
        }
        }
    }
    nchecks++;
}

static void rend(int o, void *buf, long count, const char *what)
{
    unsigned char *p = (unsigned char *)buf + (size_t)count * opk_ext(o);
    for (int g = 0; g < 64; g++)
        CHECK(p[g] == BYTE_SENT, "%s %s: wrote past the end", what, opk_name[o]);
}

static void t_reduce(MPI_Comm c, int o, long count, int root, int inplace, int nb)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    void *s = rmk(o, count), *r = rmk(o, count);
    rfill(o, s, 0, count, me, 0);
    const void *sb = s;
    if (inplace && me == root) {
        rfill(o, r, 0, count, me, 0);
        sb = MPI_IN_PLACE;
    }
    MPI_Request rq;
    if (nb)
        CHECK_OK(MPI_Ireduce(sb, r, (int)count, opk_type(o), opk_op(o), root, c, &rq));
    else
        CHECK_OK(MPI_Reduce(sb, r, (int)count, opk_type(o), opk_op(o), root, c));
    wait_or(nb, &rq);
    if (me == root) {
        rexpect(o, r, 0, count, 0, n - 1, 0, "reduce");
        rend(o, r, count, "reduce");
    }
    rexpect(o, s, 0, count, me, me, 0, "reduce: send buffer changed");
    free(s);
    free(r);
}

static void t_allreduce(MPI_Comm c, int o, long count, int inplace, int nb)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    void *s = rmk(o, count), *r = rmk(o, count);
    rfill(o, inplace ? r : s, 0, count, me, 0);
    MPI_Request rq;
    const void *sb = inplace ? MPI_IN_PLACE : s;
    if (nb)
        CHECK_OK(MPI_Iallreduce(sb, r, (int)count, opk_type(o), opk_op(o), c, &rq));
    else
        CHECK_OK(MPI_Allreduce(sb, r, (int)count, opk_type(o), opk_op(o), c));
    wait_or(nb, &rq);
    rexpect(o, r, 0, count, 0, n - 1, 0, "allreduce");
    rend(o, r, count, "allreduce");
    free(s);
    free(r);
}

static void t_reduce_scatter_block(MPI_Comm c, int o, long count, int inplace, int nb)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    void *s = rmk(o, count * n), *r = rmk(o, inplace ? count * n : count);
    rfill(o, inplace ? r : s, 0, count * n, me, 0);
    MPI_Request rq;
    const void *sb = inplace ? MPI_IN_PLACE : s;
    if (nb)
        CHECK_OK(MPI_Ireduce_scatter_block(sb, r, (int)count, opk_type(o), opk_op(o), c, &rq));
    else
        CHECK_OK(MPI_Reduce_scatter_block(sb, r, (int)count, opk_type(o), opk_op(o), c));
    wait_or(nb, &rq);
    rexpect(o, r, 0, count, 0, n - 1, count * me, "reduce_scatter_block");
    if (!inplace)
        rend(o, r, count, "reduce_scatter_block");
    free(s);
    free(r);
}

static void t_reduce_scatter(MPI_Comm c, int o, long count, int inplace, int nb)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    int *cnts = malloc((size_t)n * sizeof *cnts);
    long total = 0, mine_at = 0;
    for (int b = 0; b < n; b++) {
        cnts[b] = vcnt(b, count);
        if (b < me)
            mine_at += cnts[b];
        total += cnts[b];
    }
    void *s = rmk(o, total), *r = rmk(o, inplace ? total : cnts[me]);
    rfill(o, inplace ? r : s, 0, total, me, 0);
    MPI_Request rq;
    const void *sb = inplace ? MPI_IN_PLACE : s;
    if (nb)
        CHECK_OK(MPI_Ireduce_scatter(sb, r, cnts, opk_type(o), opk_op(o), c, &rq));
    else
        CHECK_OK(MPI_Reduce_scatter(sb, r, cnts, opk_type(o), opk_op(o), c));
    wait_or(nb, &rq);
    rexpect(o, r, 0, cnts[me], 0, n - 1, mine_at, "reduce_scatter");
    if (!inplace)
        rend(o, r, cnts[me], "reduce_scatter");
    free(s);
    free(r);
    free(cnts);
}

static void t_scan(MPI_Comm c, int o, long count, int ex, int inplace, int nb)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    void *s = rmk(o, count), *r = rmk(o, count);
    rfill(o, inplace ? r : s, 0, count, me, 0);
    MPI_Request rq;
    const void *sb = inplace ? MPI_IN_PLACE : s;
    if (ex) {
        if (nb)
            CHECK_OK(MPI_Iexscan(sb, r, (int)count, opk_type(o), opk_op(o), c, &rq));
        else
            CHECK_OK(MPI_Exscan(sb, r, (int)count, opk_type(o), opk_op(o), c));
    } else {
        if (nb)
            CHECK_OK(MPI_Iscan(sb, r, (int)count, opk_type(o), opk_op(o), c, &rq));
        else
            CHECK_OK(MPI_Scan(sb, r, (int)count, opk_type(o), opk_op(o), c));
    }
    wait_or(nb, &rq);
    if (!ex)
        rexpect(o, r, 0, count, 0, me, 0, "scan");
    else if (me > 0)
        rexpect(o, r, 0, count, 0, me - 1, 0, "exscan");
    rend(o, r, count, ex ? "exscan" : "scan");
    free(s);
    free(r);
}

static void t_barrier(MPI_Comm c, int nb)
{
    /* a barrier orders: everyone's message sent before it is there after it */
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    int token = me, got = -1, flag = 0;
    MPI_Request s, r;
    CHECK_OK(MPI_Irecv(&got, 1, MPI_INT, (me - 1 + n) % n, 77, c, &r));
    CHECK_OK(MPI_Isend(&token, 1, MPI_INT, (me + 1) % n, 77, c, &s));
    CHECK_OK(MPI_Wait(&s, MPI_STATUS_IGNORE));
    if (nb) {
        MPI_Request b;
        CHECK_OK(MPI_Ibarrier(c, &b));
        CHECK_OK(MPI_Wait(&b, MPI_STATUS_IGNORE));
    } else {
        CHECK_OK(MPI_Barrier(c));
    }
    CHECK_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(got == (me - 1 + n) % n, "barrier: token");
    (void)flag;
    nchecks++;
}

/* ---- driving ---- */

static const long *counts;
static int ncounts;

static void run_ops(MPI_Comm c, const char *op)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    int roots[3] = {0, n - 1, n / 2};
    int nroots = full ? 3 : 2;
    if (n == 1)
        nroots = 1;
    for (int nb = 0; nb < 2; nb++) {
        if (!full && nb && (wsize > 9))
            continue;
        if (!strcmp(op, "barrier") || (!op[0] && want("barrier")))
            t_barrier(c, nb);
        for (int ci = 0; ci < ncounts; ci++) {
            long k = counts[ci];
            int big1 = k >= (1 << 20);
            bool all = !op[0];
#define DO(name) ((all && want(name)) || !strcmp(op, name))
            for (int ri = 0; ri < nroots; ri++) {
                int root = roots[ri];
                if (DO("bcast")) {
                    t_bcast(c, &T_INT, k, root, nb);
                    if (!big1)
                        t_bcast(c, &T_VEC, k, root, nb);
                }
                if (big1 && ri > 0)
                    continue;
                if (DO("gather")) {
                    long kk = big1 ? k / n : k;
                    t_gather(c, &T_INT, &T_INT, kk, root, 0, nb);
                    t_gather(c, &T_VEC, &T_INT, kk / 2 + 1, root, 0, nb);
                    t_gather(c, &T_INT, &T_2INT, 2 * (kk / 2), root, 1, nb);
                    if (!big1)
                        t_gather(c, &T_VEC, &T_VEC, kk, root, 1, nb);
                }
                if (DO("scatter")) {
                    long kk = big1 ? k / n : k;
                    t_scatter(c, &T_INT, &T_INT, kk, root, 0, nb);
                    t_scatter(c, &T_VEC, &T_INT, kk / 2 + 1, root, 1, nb);
                    t_scatter(c, &T_INT, &T_VEC, 2 * (kk / 2), root, 0, nb);
                }
                if (DO("gatherv") && !big1) {
                    t_gatherv(c, &T_INT, k, root, 0, nb);
                    t_gatherv(c, &T_VEC, k, root, 1, nb);
                }
                if (DO("scatterv") && !big1) {
                    t_scatterv(c, &T_INT, k, root, 1, nb);
                    t_scatterv(c, &T_VEC, k, root, 0, nb);
                }
                if (DO("reduce")) {
                    for (int o = 0; o < O_NOPK; o++)
                        if ((o != O_SUM_VEC || predef_on_derived) && (!big1 || o == O_SUM_INT || o == O_NC))
                            t_reduce(c, o, k, root, (o + ri) % 2, nb);
                }
            }
            if (DO("allgather")) {
                long kk = big1 ? k / n : k;
                t_allgather(c, &T_INT, &T_INT, kk, 0, nb);
                t_allgather(c, &T_INT, &T_INT, kk, 1, nb);
                if (!big1) {
                    t_allgather(c, &T_VEC, &T_INT, kk, 0, nb);
                    t_allgather(c, &T_VEC, &T_VEC, kk, 1, nb);
                    t_allgather(c, &T_INT, &T_VEC, 2 * kk, 0, nb);
                }
            }
            if (DO("allgatherv") && !big1) {
                t_allgatherv(c, &T_INT, k, 0, nb);
                t_allgatherv(c, &T_VEC, k, 1, nb);
            }
            if (DO("alltoall")) {
                long kk = big1 ? k / n : k;
                t_alltoall(c, &T_INT, &T_INT, kk, 0, nb);
                t_alltoall(c, &T_INT, &T_INT, kk, 1, nb);
                if (!big1) {
                    t_alltoall(c, &T_VEC, &T_INT, kk, 0, nb);
                    t_alltoall(c, &T_INT, &T_VEC, 2 * kk, 0, nb);
                    t_alltoall(c, &T_VEC, &T_VEC, kk, 1, nb);
                }
            }
            if (DO("alltoallv") && !big1) {
                t_alltoallv(c, &T_INT, k, 0, nb);
                t_alltoallv(c, &T_VEC, k, 1, nb);
            }
            if (DO("alltoallw") && !big1) {
                t_alltoallw(c, k, 0, nb);
                t_alltoallw(c, k, 1, nb);
            }
            for (int o = 0; o < O_NOPK; o++) {
                if (o == O_SUM_VEC && !predef_on_derived)
                    continue;
                if (big1 && o != O_SUM_INT && o != O_NC && o != O_SUM_DBL)
                    continue;
                int ip = (o + ci + nb) % 2;
                if (DO("allreduce"))
                    t_allreduce(c, o, k, ip, nb);
                if (DO("reduce_scatter_block"))
                    t_reduce_scatter_block(c, o, big1 ? k / n : k, ip, nb);
                if (DO("reduce_scatter") && !big1)
                    t_reduce_scatter(c, o, k, !ip, nb);
                if (DO("scan"))
                    t_scan(c, o, k, 0, ip, nb);
                if (DO("exscan"))
                    t_scan(c, o, k, 1, !ip, nb);
            }
#undef DO
        }
    }
}

/* every algorithm of every operation, forced through the hint */
static const struct {
    const char *op;
    const char *algs;
} forced[] = {
    {"barrier", "dissemination tree linear direct hier shm"},
    {"bcast", "linear binomial pipeline scatter_ring scatter_rd hier get shm"},
    {"gather", "linear binomial"},
    {"scatter", "linear binomial"},
    {"gatherv", "linear"},
    {"scatterv", "linear"},
    {"allgather", "ring rd bruck linear direct hier shm get"},
    {"allgatherv", "ring rd direct shm"},
    {"alltoall", "linear pairwise bruck shm get"},
    {"alltoallv", "linear pairwise get"},
    {"alltoallw", "linear pairwise get"},
    {"reduce", "linear binomial ring hier"},
    {"allreduce", "rd rabenseifner ring reduce_bcast linear direct hier shm"},
    {"reduce_scatter_block", "ring pairwise rd reduce_scatterv shm"},
    {"reduce_scatter", "ring pairwise rd reduce_scatterv shm"},
    {"scan", "rd linear"},
    {"exscan", "rd linear"},
};

static void run_forced(MPI_Comm base)
{
    MPI_Comm c;
    CHECK_OK(MPI_Comm_dup(base, &c));
    for (size_t f = 0; f < sizeof forced / sizeof forced[0]; f++) {
        if (!want(forced[f].op))
            continue;
        char algs[128];
        snprintf(algs, sizeof algs, "%s", forced[f].algs);
        for (char *a = strtok(algs, " "); a; a = strtok(NULL, " ")) {
            char hint[128];
            snprintf(hint, sizeof hint, "%s=%s", forced[f].op, a);
            if (getenv("COLL_OPS_VERBOSE") && wrank == 0)
                fprintf(stderr, "coll_ops: %s\n", hint);
            tu_set_coll_hint(c, hint);
            run_ops(c, forced[f].op);
        }
    }
    tu_set_coll_hint(c, "barrier=auto");
    MPI_Comm_free(&c);
}

/* several nonblocking collectives in flight at once on two communicators,
 * completed in another order than they were started */
static void t_overlap(MPI_Comm c)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    MPI_Comm d;
    CHECK_OK(MPI_Comm_dup(c, &d));
    enum { K = 37 };
    int a[K], ar[K], b[K], g[K * 32], ab[K];
    for (int i = 0; i < K; i++) {
        a[i] = val(me, i);
        b[i] = me == n - 1 ? val(n - 1, i) : SENT;
        ab[i] = val(me, i + 5);
    }
    MPI_Request rq[6];
    CHECK_OK(MPI_Iallreduce(a, ar, K, MPI_INT, MPI_SUM, c, &rq[0]));
    CHECK_OK(MPI_Ibcast(b, K, MPI_INT, n - 1, d, &rq[1]));
    CHECK_OK(MPI_Ibarrier(c, &rq[2]));
    CHECK_OK(MPI_Iallgather(ab, 1, MPI_INT, g, 1, MPI_INT, d, &rq[3]));
    int sc = 0, ssum = 0;
    CHECK_OK(MPI_Iscan(&me, &sc, 1, MPI_INT, MPI_SUM, c, &rq[4]));
    /* a blocking collective while they are in flight */
    CHECK_OK(MPI_Allreduce(&me, &ssum, 1, MPI_INT, MPI_SUM, d));
    CHECK(ssum == n * (n - 1) / 2, "overlap: blocking allreduce");
    CHECK_OK(MPI_Ibarrier(d, &rq[5]));
    int done = 0, flag;
    while (!done) {
        CHECK_OK(MPI_Testall(6, rq, &flag, MPI_STATUSES_IGNORE));
        done = flag;
    }
    for (int i = 0; i < K; i++) {
        int w = 0;
        for (int r = 0; r < n; r++)
            w += val(r, i);
        CHECK(ar[i] == w, "overlap: iallreduce");
        CHECK(b[i] == val(n - 1, i), "overlap: ibcast");
    }
    for (int r = 0; r < n; r++)
        CHECK(g[r] == val(r, 5), "overlap: iallgather");
    CHECK(sc == me * (me + 1) / 2, "overlap: iscan");
    MPI_Comm_free(&d);
    nchecks++;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "full"))
            full = 1;
        else if (!strcmp(argv[i], "big"))
            big = 1;
        else if (!strncmp(argv[i], "only=", 5))
            only = argv[i] + 5;
    }
    MPI_Type_vector(2, 1, 2, MPI_INT, &T_VEC.dt);
    MPI_Type_commit(&T_VEC.dt);
    MPI_Type_contiguous(2, MPI_INT, &T_2INT.dt);
    MPI_Type_commit(&T_2INT.dt);
    MPI_Type_contiguous(2, MPI_UINT64_T, &dt_pair);
    MPI_Type_commit(&dt_pair);
    MPI_Type_create_resized(dt_pair, 0, 3 * sizeof(uint64_t), &dt_pair_res);
    MPI_Type_commit(&dt_pair_res);
    MPI_Op_create(user_sum, 1, &op_user_sum);
    {
        /* predefined ops on a homogeneous derived type: an extension some
         * implementations have (Tide's op layer does); test it where it is */
        int a[3] = {1, 0, 2}, b[3] = {3, 0, 4};
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        predef_on_derived = MPI_Reduce_local(a, b, 1, T_VEC.dt, MPI_SUM) == MPI_SUCCESS;
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    }
    MPI_Op_create(user_nc, 0, &op_nc);

    static const long quick_counts[] = {0, 1, 37};
    static const long full_counts[] = {0, 1, 37, 1000};
    static const long big_counts[] = {1 << 20};
    MPI_Comm half;
    CHECK_OK(MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, wsize - wrank, &half));
    if (big) {
        counts = big_counts;
        ncounts = 1;
        run_ops(MPI_COMM_WORLD, "");
    } else {
        counts = full ? full_counts : quick_counts;
        ncounts = full ? 4 : 3;
        run_ops(MPI_COMM_WORLD, "");
        run_ops(half, "");
        t_overlap(MPI_COMM_WORLD);
        t_overlap(half);
        counts = quick_counts;
        ncounts = 3;
        run_forced(full ? MPI_COMM_WORLD : half);
        if (full)
            run_forced(half);
    }
    MPI_Comm_free(&half);
    MPI_Op_free(&op_user_sum);
    MPI_Op_free(&op_nc);
    MPI_Type_free(&T_VEC.dt);
    MPI_Type_free(&T_2INT.dt);
    MPI_Type_free(&dt_pair_res);
    MPI_Type_free(&dt_pair);
    long total = 0;
    MPI_Reduce(&nchecks, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (wrank == 0)
        printf("coll_ops: ok %ld checks\n", total);
    MPI_Finalize();
    return 0;
}
