/*
 * coll_inter.c: the collectives on intercommunicators (MPI-2.2 5.2.2):
 * barrier, bcast, gather(v), scatter(v), allgather(v), alltoall(v,w),
 * reduce, allreduce, reduce_scatter(_block), blocking and nonblocking,
 * with the root in either group (MPI_ROOT at the root, MPI_PROC_NULL in
 * the rest of its group), counts 0, 1 and a prime, a derived datatype
 * with holes, a non-commutative user op (the remote group's values
 * combined in its rank order), the group algorithms forced through the
 * hint tide_coll_tuning, and the errors: MPI_IN_PLACE (MPI_ERR_BUFFER),
 * MPI_Scan/MPI_Exscan (MPI_ERR_COMM), a root out of range (MPI_ERR_ROOT).
 *
 * The world is split into ranks r % 3 == 0 and the rest (groups of
 * different sizes; with 2 ranks, one each). Prints "coll_inter: ok".
 */
#include "testutil.h"

#include <stdbool.h>
#include <stdint.h>

#define SENT (-99999)

static int wrank, wsize, grp, lrank, lsize, rsize;
static MPI_Comm ic;
static MPI_Datatype vec; /* 2 ints, stride 2: a hole in each element */
static MPI_Datatype pairt;
static MPI_Op op_nc, op_vsum;
static long nchecks;

/* a process's identity in the data: group * 100 + rank in the group */
static int id(int g, int r)
{
    return g * 100 + r;
}

static int val(int who, long i)
{
    return (int)(((long)who * 1009 + i * 31) % 2003) - 1000;
}

struct pr {
    uint64_t h, p;
};

static struct pr prval(int who, long i)
{
    struct pr x = {(uint64_t)who * 100003u + (uint64_t)i + 1u, 2u * (uint64_t)who + 3u};
    return x;
}

static struct pr prcomb(struct pr a, struct pr b)
{
    struct pr x = {a.h * b.p + b.h, a.p * b.p};
    return x;
}

static void user_nc(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    struct pr *a = in, *b = inout;
    for (int k = 0; k < *len; k++)
        b[k] = prcomb(a[k], b[k]);
}

/* a commutative sum on the vector type's layout (3 ints an element) */
static void user_vsum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    int *a = in, *b = inout;
    for (int k = 0; k < *len; k++) {
        b[3 * k] += a[3 * k];
        b[3 * k + 2] += a[3 * k + 2];
    }
}

static int *ints(long n)
{
    int *b = malloc((size_t)(n + 8) * sizeof *b);
    for (long i = 0; i < n + 8; i++)
        b[i] = SENT;
    return b;
}

/* values of `who` as count elements of MPI_INT (stride 1) or vec (stride 3) */
static void fill(int *b, long at, long count, int who, int isvec)
{
    for (long k = 0; k < count; k++) {
        if (isvec) {
            b[3 * (at + k)] = val(who, 2 * k);
            b[3 * (at + k) + 2] = val(who, 2 * k + 1);
        } else {
            b[at + k] = val(who, k);
        }
    }
}

static void expect(const int *b, long at, long count, int who, int isvec, const char *what)
{
    for (long k = 0; k < count; k++) {
        if (isvec) {
            CHECK(b[3 * (at + k)] == val(who, 2 * k) && b[3 * (at + k) + 2] == val(who, 2 * k + 1) &&
                      b[3 * (at + k) + 1] == SENT,
                  "%s: element %ld from %d", what, at + k, who);
        } else {
            CHECK(b[at + k] == val(who, k), "%s: element %ld from %d: got %d want %d", what, at + k, who,
                  b[at + k], val(who, k));
        }
    }
    nchecks++;
}

static int other(void)
{
    return 1 - grp;
}

static void wait_or(int nb, MPI_Request *rq)
{
    if (nb)
        CHECK_OK(MPI_Wait(rq, MPI_STATUS_IGNORE));
}

/* root argument for a root at rank rr of group rg */
static int rootarg(int rg, int rr)
{
    if (grp == rg)
        return lrank == rr ? MPI_ROOT : MPI_PROC_NULL;
    return rr;
}

static void t_bcast(long count, int rg, int rr, int isvec, int nb)
{
    MPI_Datatype t = isvec ? vec : MPI_INT;
    int *b = ints(3 * count);
    bool am_root = grp == rg && lrank == rr;
    if (am_root)
        fill(b, 0, count, id(rg, rr), isvec);
    MPI_Request rq;
    if (nb)
        CHECK_OK(MPI_Ibcast(b, (int)count, t, rootarg(rg, rr), ic, &rq));
    else
        CHECK_OK(MPI_Bcast(b, (int)count, t, rootarg(rg, rr), ic));
    wait_or(nb, &rq);
    if (grp != rg || am_root)
        expect(b, 0, count, id(rg, rr), isvec, "inter bcast");
    else
        CHECK(b[0] == SENT, "inter bcast: the root's group got data");
    free(b);
}

static void t_gather(long count, int rg, int rr, int nb, int vform)
{
    bool am_root = grp == rg && lrank == rr;
    int n = rsize;
    int *cnt = malloc((size_t)n * sizeof *cnt), *dsp = malloc((size_t)n * sizeof *dsp);
    long at = 0;
    for (int j = n - 1; j >= 0; j--) {
        cnt[j] = vform ? (int)((count + j) % (count + 1)) : (int)count;
        dsp[j] = (int)at;
        at += cnt[j] + (vform ? 1 : 0);
    }
    if (!vform)
        for (int j = 0; j < n; j++)
            dsp[j] = (int)(j * count);
    int *r = ints(at + 1), *s = ints(count + 1);
    int mine = vform ? (int)((count + lrank) % (count + 1)) : (int)count;
    fill(s, 0, mine, id(grp, lrank), 0);
    MPI_Request rq;
    int root = rootarg(rg, rr);
    if (vform) {
        if (nb)
            CHECK_OK(MPI_Igatherv(s, mine, MPI_INT, r, cnt, dsp, MPI_INT, root, ic, &rq));
        else
            CHECK_OK(MPI_Gatherv(s, mine, MPI_INT, r, cnt, dsp, MPI_INT, root, ic));
    } else {
        if (nb)
            CHECK_OK(MPI_Igather(s, mine, MPI_INT, r, (int)count, MPI_INT, root, ic, &rq));
        else
            CHECK_OK(MPI_Gather(s, mine, MPI_INT, r, (int)count, MPI_INT, root, ic));
    }
    wait_or(nb, &rq);
    if (am_root)
        for (int j = 0; j < n; j++)
            expect(r, dsp[j], cnt[j], id(other(), j), 0, vform ? "inter gatherv" : "inter gather");
    free(r);
    free(s);
    free(cnt);
    free(dsp);
}

static void t_scatter(long count, int rg, int rr, int nb, int vform)
{
    bool am_root = grp == rg && lrank == rr;
    int n = rsize;
    int *cnt = malloc((size_t)n * sizeof *cnt), *dsp = malloc((size_t)n * sizeof *dsp);
    long at = 0;
    for (int j = n - 1; j >= 0; j--) {
        cnt[j] = vform ? (int)((count + 2 * j) % (count + 1)) : (int)count;
        dsp[j] = (int)at;
        at += cnt[j] + (vform ? 1 : 0);
    }
    if (!vform)
        for (int j = 0; j < n; j++)
            dsp[j] = (int)(j * count);
    int *s = ints(at + 1), *r = ints(count + 1);
    if (am_root)
        for (int j = 0; j < n; j++)
            fill(s, dsp[j], cnt[j], id(other(), j) + 1000, 0);
    int mine = vform ? (int)((count + 2 * lrank) % (count + 1)) : (int)count;
    MPI_Request rq;
    int root = rootarg(rg, rr);
    if (vform) {
        if (nb)
            CHECK_OK(MPI_Iscatterv(s, cnt, dsp, MPI_INT, r, mine, MPI_INT, root, ic, &rq));
        else
            CHECK_OK(MPI_Scatterv(s, cnt, dsp, MPI_INT, r, mine, MPI_INT, root, ic));
    } else {
        if (nb)
            CHECK_OK(MPI_Iscatter(s, (int)count, MPI_INT, r, mine, MPI_INT, root, ic, &rq));
        else
            CHECK_OK(MPI_Scatter(s, (int)count, MPI_INT, r, mine, MPI_INT, root, ic));
    }
    wait_or(nb, &rq);
    if (grp != rg)
        expect(r, 0, mine, id(grp, lrank) + 1000, 0, vform ? "inter scatterv" : "inter scatter");
    free(r);
    free(s);
    free(cnt);
    free(dsp);
}

static void t_allgather(long count, int nb, int vform, int isvec)
{
    MPI_Datatype t = isvec ? vec : MPI_INT;
    int st = isvec ? 3 : 1;
    int n = rsize;
    int *cnt = malloc((size_t)n * sizeof *cnt), *dsp = malloc((size_t)n * sizeof *dsp);
    long at = 0;
    for (int j = n - 1; j >= 0; j--) {
        cnt[j] = vform ? (int)((count + j) % (count + 1)) : (int)count;
        dsp[j] = (int)at;
        at += cnt[j] + (vform ? 1 : 0);
    }
    if (!vform)
        for (int j = 0; j < n; j++)
            dsp[j] = (int)(j * count);
    int mine = vform ? (int)((count + lrank) % (count + 1)) : (int)count;
    int *s = ints(st * (mine + 1)), *r = ints(st * (at + 1));
    fill(s, 0, mine, id(grp, lrank), isvec);
    MPI_Request rq;
    if (vform) {
        if (nb)
            CHECK_OK(MPI_Iallgatherv(s, mine, t, r, cnt, dsp, t, ic, &rq));
        else
            CHECK_OK(MPI_Allgatherv(s, mine, t, r, cnt, dsp, t, ic));
    } else {
        if (nb)
            CHECK_OK(MPI_Iallgather(s, mine, t, r, (int)count, t, ic, &rq));
        else
            CHECK_OK(MPI_Allgather(s, mine, t, r, (int)count, t, ic));
    }
    wait_or(nb, &rq);
    for (int j = 0; j < n; j++)
        expect(r, dsp[j], cnt[j], id(other(), j), isvec, vform ? "inter allgatherv" : "inter allgather");
    free(s);
    free(r);
    free(cnt);
    free(dsp);
}

/* the data a sends b: pseudo-identity */
static int pairid(int ga, int ra, int rb)
{
    return 5000 + ga * 1000 + ra * 30 + rb;
}

static void t_alltoall(long count, int nb, int form)
{
    int n = rsize;
    int *sc = malloc((size_t)n * sizeof(int)), *sd = malloc((size_t)n * sizeof(int));
    int *rc = malloc((size_t)n * sizeof(int)), *rd = malloc((size_t)n * sizeof(int));
    MPI_Datatype *stt = malloc((size_t)n * sizeof *stt), *rtt = malloc((size_t)n * sizeof *rtt);
    long sat = 0, rat = 0;
    for (int j = 0; j < n; j++) {
        /* what I send remote j and what remote j sends me */
        int out = form == 0 ? (int)count : (int)((count + lrank + 2 * j) % (count + 1));
        int in = form == 0 ? (int)count : (int)((count + j + 2 * lrank) % (count + 1));
        sc[j] = out;
        rc[j] = in;
        stt[j] = rtt[j] = MPI_INT;
        sd[j] = form == 2 ? (int)(sat * (long)sizeof(int)) : (int)sat;
        rd[j] = form == 2 ? (int)(rat * (long)sizeof(int)) : (int)rat;
        sat += out + (form ? 1 : 0);
        rat += in + (form ? 2 : 0);
    }
    int *s = ints(sat + 1), *r = ints(rat + 1);
    for (int j = 0; j < n; j++)
        fill(s, form == 2 ? sd[j] / (int)sizeof(int) : sd[j], sc[j], pairid(grp, lrank, j), 0);
    MPI_Request rq;
    if (form == 0) {
        if (nb)
            CHECK_OK(MPI_Ialltoall(s, (int)count, MPI_INT, r, (int)count, MPI_INT, ic, &rq));
        else
            CHECK_OK(MPI_Alltoall(s, (int)count, MPI_INT, r, (int)count, MPI_INT, ic));
    } else if (form == 1) {
        if (nb)
            CHECK_OK(MPI_Ialltoallv(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, ic, &rq));
        else
            CHECK_OK(MPI_Alltoallv(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, ic));
    } else {
        if (nb)
            CHECK_OK(MPI_Ialltoallw(s, sc, sd, stt, r, rc, rd, rtt, ic, &rq));
        else
            CHECK_OK(MPI_Alltoallw(s, sc, sd, stt, r, rc, rd, rtt, ic));
    }
    wait_or(nb, &rq);
    for (int j = 0; j < n; j++)
        expect(r, form == 2 ? rd[j] / (int)sizeof(int) : rd[j], rc[j], pairid(other(), j, lrank), 0,
               "inter alltoall");
    free(s);
    free(r);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(stt);
    free(rtt);
}

/* reductions: SUM on MPI_INT, a user sum on vec, the non-commutative pair op */
static void rfill(int kind, void *b, long count, int who, long base)
{
    for (long k = 0; k < count; k++) {
        if (kind == 0)
            ((int *)b)[k] = val(who, base + k);
        else if (kind == 1) {
            ((int *)b)[3 * k] = val(who, 2 * (base + k));
            ((int *)b)[3 * k + 2] = val(who, 2 * (base + k) + 1);
        } else {
            ((struct pr *)b)[k] = prval(who, base + k);
        }
    }
}

/* buffer holds, from element `at`, the reduction over the remote group
 * (ranks 0..rsize-1 in order) of elements base.. */
static void rexpect(int kind, const void *b, long at, long count, long base, const char *what)
{
    int g = other();
    for (long k = 0; k < count; k++) {
        long i = base + k;
        if (kind == 0) {
            int w = 0;
            for (int r = 0; r < rsize; r++)
                w += val(id(g, r), i);
            CHECK(((const int *)b)[at + k] == w, "%s: element %ld", what, at + k);
        } else if (kind == 1) {
            int w0 = 0, w1 = 0;
            for (int r = 0; r < rsize; r++) {
                w0 += val(id(g, r), 2 * i);
                w1 += val(id(g, r), 2 * i + 1);
            }
            const int *e = (const int *)b + 3 * (at + k);
            CHECK(e[0] == w0 && e[2] == w1 && e[1] == SENT, "%s (vector): element %ld", what, at + k);
        } else {
            struct pr w = prval(id(g, 0), i);
            for (int r = 1; r < rsize; r++)
                w = prcomb(w, prval(id(g, r), i));
            struct pr x = ((const struct pr *)b)[at + k];
            CHECK(x.h == w.h && x.p == w.p, "%s (non-commutative): element %ld in the wrong order", what, at + k);
        }
    }
    nchecks++;
}

static MPI_Datatype rtype(int kind)
{
    return kind == 0 ? MPI_INT : kind == 1 ? vec : pairt;
}

static MPI_Op rop(int kind)
{
    return kind == 2 ? op_nc : kind == 1 ? op_vsum : MPI_SUM;
}

static void *rbuf(int kind, long count)
{
    size_t ext = kind == 0 ? sizeof(int) : kind == 1 ? 3 * sizeof(int) : sizeof(struct pr);
    int *b = malloc((size_t)(count + 2) * ext);
    for (size_t i = 0; i < (size_t)(count + 2) * ext / sizeof(int); i++)
        b[i] = SENT;
    return b;
}

static void t_reduce(int kind, long count, int rg, int rr, int nb)
{
    void *s = rbuf(kind, count), *r = rbuf(kind, count);
    rfill(kind, s, count, id(grp, lrank), 0);
    MPI_Request rq;
    if (nb)
        CHECK_OK(MPI_Ireduce(s, r, (int)count, rtype(kind), rop(kind), rootarg(rg, rr), ic, &rq));
    else
        CHECK_OK(MPI_Reduce(s, r, (int)count, rtype(kind), rop(kind), rootarg(rg, rr), ic));
    wait_or(nb, &rq);
    if (grp == rg && lrank == rr)
        rexpect(kind, r, 0, count, 0, "inter reduce");
    free(s);
    free(r);
}

static void t_allreduce(int kind, long count, int nb)
{
    void *s = rbuf(kind, count), *r = rbuf(kind, count);
    rfill(kind, s, count, id(grp, lrank), 0);
    MPI_Request rq;
    if (nb)
        CHECK_OK(MPI_Iallreduce(s, r, (int)count, rtype(kind), rop(kind), ic, &rq));
    else
        CHECK_OK(MPI_Allreduce(s, r, (int)count, rtype(kind), rop(kind), ic));
    wait_or(nb, &rq);
    rexpect(kind, r, 0, count, 0, "inter allreduce");
    free(s);
    free(r);
}

/* both groups' input vectors have lsize * rc = rsize * rc' elements */
static void t_reduce_scatter(int kind, long k, int nb, int block)
{
    long total = (long)lsize * rsize * k;
    int *cnt = malloc((size_t)lsize * sizeof *cnt);
    long mine_at = 0;
    for (int j = 0; j < lsize; j++) {
        cnt[j] = block ? (int)(rsize * k) : (int)(total / lsize + (j < total % lsize ? 1 : 0));
        if (j < lrank)
            mine_at += cnt[j];
    }
    if (!block) { /* uneven: move one element from the first block to the last */
        if (lsize > 1 && cnt[0] > 0) {
            cnt[0]--;
            cnt[lsize - 1]++;
            mine_at = 0;
            for (int j = 0; j < lrank; j++)
                mine_at += cnt[j];
        }
    }
    void *s = rbuf(kind, total), *r = rbuf(kind, cnt[lrank]);
    rfill(kind, s, total, id(grp, lrank), 0);
    MPI_Request rq;
    if (block) {
        if (nb)
            CHECK_OK(MPI_Ireduce_scatter_block(s, r, cnt[0], rtype(kind), rop(kind), ic, &rq));
        else
            CHECK_OK(MPI_Reduce_scatter_block(s, r, cnt[0], rtype(kind), rop(kind), ic));
    } else {
        if (nb)
            CHECK_OK(MPI_Ireduce_scatter(s, r, cnt, rtype(kind), rop(kind), ic, &rq));
        else
            CHECK_OK(MPI_Reduce_scatter(s, r, cnt, rtype(kind), rop(kind), ic));
    }
    wait_or(nb, &rq);
    rexpect(kind, r, 0, cnt[lrank], mine_at, block ? "inter reduce_scatter_block" : "inter reduce_scatter");
    free(s);
    free(r);
    free(cnt);
}

static void all_ops(int nb)
{
    static const long counts[] = {0, 1, 37};
    if (nb) {
        MPI_Request b;
        CHECK_OK(MPI_Ibarrier(ic, &b));
        CHECK_OK(MPI_Wait(&b, MPI_STATUS_IGNORE));
    } else {
        CHECK_OK(MPI_Barrier(ic));
    }
    for (int ci = 0; ci < 3; ci++) {
        long c = counts[ci];
        for (int rg = 0; rg < 2; rg++) {
            int gsize = rg == grp ? lsize : rsize;
            int roots[2] = {0, gsize - 1};
            for (int ri = 0; ri < (gsize > 1 ? 2 : 1); ri++) {
                int rr = roots[ri];
                t_bcast(c, rg, rr, ri, nb);
                t_gather(c, rg, rr, nb, 0);
                t_gather(c, rg, rr, nb, 1);
                t_scatter(c, rg, rr, nb, 0);
                t_scatter(c, rg, rr, nb, 1);
                for (int kind = 0; kind < 3; kind++)
                    t_reduce(kind, c, rg, rr, nb);
            }
        }
        t_allgather(c, nb, 0, 0);
        t_allgather(c, nb, 0, 1);
        t_allgather(c, nb, 1, 0);
        t_alltoall(c, nb, 0);
        t_alltoall(c, nb, 1);
        t_alltoall(c, nb, 2);
        for (int kind = 0; kind < 3; kind++) {
            t_allreduce(kind, c, nb);
            t_reduce_scatter(kind, c ? 1 + c % 3 : 0, nb, 1);
            t_reduce_scatter(kind, c ? 1 + c % 3 : 0, nb, 0);
        }
    }
}

static void errors(void)
{
    MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN);
    int x[4] = {0}, y[4 * 64];
    CHECK_ERR(MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_INT, MPI_SUM, ic), MPI_ERR_BUFFER);
    CHECK_ERR(MPI_Allgather(MPI_IN_PLACE, 1, MPI_INT, y, 1, MPI_INT, ic), MPI_ERR_BUFFER);
    CHECK_ERR(MPI_Scan(x, y, 1, MPI_INT, MPI_SUM, ic), MPI_ERR_COMM);
    CHECK_ERR(MPI_Exscan(x, y, 1, MPI_INT, MPI_SUM, ic), MPI_ERR_COMM);
    MPI_Request rq;
    CHECK_ERR(MPI_Iscan(x, y, 1, MPI_INT, MPI_SUM, ic, &rq), MPI_ERR_COMM);
    CHECK_ERR(MPI_Bcast(x, 1, MPI_INT, rsize, ic), MPI_ERR_ROOT);
    CHECK_ERR(MPI_Reduce(x, y, 1, MPI_INT, MPI_SUM, -7, ic), MPI_ERR_ROOT);
    CHECK_ERR(MPI_Allreduce(x, y, 1, MPI_INT, MPI_MAXLOC, ic), MPI_ERR_OP);
    MPI_Comm_set_errhandler(ic, MPI_ERRORS_ARE_FATAL);
    /* still in step after the errors */
    CHECK_OK(MPI_Barrier(ic));
}

static void set_hint(const char *text)
{
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "tide_coll_tuning", text);
    CHECK_OK(MPI_Comm_set_info(ic, info));
    MPI_Info_free(&info);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    CHECK(wsize >= 2, "needs at least 2 ranks");
    grp = wrank % 3 == 0 ? 0 : 1;
    MPI_Comm local;
    CHECK_OK(MPI_Comm_split(MPI_COMM_WORLD, grp, wrank, &local));
    MPI_Comm_rank(local, &lrank);
    MPI_Comm_size(local, &lsize);
    /* leaders: world rank 0 for group 0, world rank 1 for group 1 */
    CHECK_OK(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, grp == 0 ? 1 : 0, 42, &ic));
    MPI_Comm_remote_size(ic, &rsize);
    int flag;
    MPI_Comm_test_inter(ic, &flag);
    CHECK(flag, "not an intercommunicator");
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Type_contiguous(2, MPI_UINT64_T, &pairt);
    MPI_Type_commit(&pairt);
    MPI_Op_create(user_nc, 0, &op_nc);
    MPI_Op_create(user_vsum, 1, &op_vsum);

    all_ops(0);
    all_ops(1);
    errors();
    static const char *hints[] = {"bcast=linear,gather=linear,scatter=linear,reduce=linear",
                                  "bcast=pipeline,gather=binomial,scatter=binomial,reduce=binomial",
                                  "bcast=scatter_ring,reduce=ring"};
    for (int h = 0; h < 3; h++) {
        set_hint(hints[h]);
        all_ops(h % 2);
    }
    /* several nonblocking ones in flight at once, on the inter and its group */
    int a = id(grp, lrank), s1 = 0, s2 = 0;
    MPI_Request rq[3];
    CHECK_OK(MPI_Iallreduce(&a, &s1, 1, MPI_INT, MPI_SUM, ic, &rq[0]));
    CHECK_OK(MPI_Iallreduce(&a, &s2, 1, MPI_INT, MPI_SUM, local, &rq[1]));
    CHECK_OK(MPI_Ibarrier(ic, &rq[2]));
    CHECK_OK(MPI_Waitall(3, rq, MPI_STATUSES_IGNORE));
    int w1 = 0, w2 = 0;
    for (int r = 0; r < rsize; r++)
        w1 += id(other(), r);
    for (int r = 0; r < lsize; r++)
        w2 += id(grp, r);
    CHECK(s1 == w1 && s2 == w2, "overlapping inter and intra allreduce: %d %d", s1, s2);

    MPI_Op_free(&op_nc);
    MPI_Op_free(&op_vsum);
    MPI_Type_free(&vec);
    MPI_Type_free(&pairt);
    MPI_Comm_free(&ic);
    MPI_Comm_free(&local);
    long total = 0;
    MPI_Reduce(&nchecks, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (wrank == 0)
        printf("coll_inter: ok %ld checks\n", total);
    MPI_Finalize();
    return 0;
}
