/*
 * ep_coll.c: every collective on an endpoints communicator
 * (MPIX_Comm_create_endpoints), T endpoints in each process, one thread
 * per endpoint, results checked exactly: MPI_Barrier, MPI_Bcast and
 * MPI_Reduce from every root, MPI_Gather(v) and MPI_Scatter(v) from
 * every root, MPI_Allgather(v), MPI_Alltoall(v,w), MPI_Allreduce (also
 * with MPI_IN_PLACE), MPI_Reduce_scatter, MPI_Reduce_scatter_block,
 * MPI_Scan, MPI_Exscan, larger messages for MPI_Bcast and MPI_Allreduce,
 * then the nonblocking forms, several outstanding at once, and a
 * non-commutative user operation (MPI_Allreduce, MPI_Reduce from every
 * root, MPI_Scan, MPI_Iallreduce), which must be applied in rank order.
 * Usage: ep_coll T [repetitions] [interleave] [large]: "interleave" runs
 * them on a split where the processes' endpoints alternate (endpoint t
 * of every process, then endpoint t + 1 of every process); "large" adds
 * collectives of large messages (megabytes).
 */
#include "ep_testutil.h"

#include <pthread.h>

#define MAX_EP 16
#define K 5              /* elements per rank in the small cases */
#define BIG (1 << 16)    /* elements of the larger bcast / allreduce */
#define NMAX 64          /* ranks of the endpoints communicator at most */

static int reps = 2;

struct ep_arg {
    MPI_Comm comm;
    int expect_rank, expect_size;
    int interleaved_rank; /* -1, or the rank in the interleaved order */
    int large;            /* also the large messages */
};

/* what rank r contributes at element i (with a variant v) */
static int val(int r, int i, int v)
{
    return r * 1000 + i * 7 + v * 31 + 1;
}

static int sum_val(int n, int i, int v)
{
    int s = 0;
    for (int r = 0; r < n; r++)
        s += val(r, i, v);
    return s;
}

static void check_ints(const int *got, const int *want, int cnt, const char *what, int me)
{
    for (int i = 0; i < cnt; i++)
        CHECK(got[i] == want[i], "%s: endpoint %d element %d is %d, expected %d", what, me, i, got[i], want[i]);
}

static void blocking(MPI_Comm c, int me, int n, int rep)
{
    int sbuf[(K + 1) * NMAX], rbuf[(K + 1) * NMAX], want[(K + 1) * NMAX];
    int counts[NMAX], displs[NMAX], rcounts[NMAX], rdispls[NMAX];
    CHECK(n <= NMAX, "too many ranks");
    CHECK_OK(MPI_Barrier(c));

    /* bcast and reduce from every root */
    for (int root = 0; root < n; root++) {
        for (int i = 0; i < K; i++)
            rbuf[i] = me == root ? val(root, i, rep) : -1;
        CHECK_OK(MPI_Bcast(rbuf, K, MPI_INT, root, c));
        for (int i = 0; i < K; i++)
            want[i] = val(root, i, rep);
        check_ints(rbuf, want, K, "bcast", me);

        for (int i = 0; i < K; i++) {
            sbuf[i] = val(me, i, rep);
            rbuf[i] = -1;
        }
        CHECK_OK(MPI_Reduce(sbuf, rbuf, K, MPI_INT, MPI_SUM, root, c));
        if (me == root) {
            for (int i = 0; i < K; i++)
                want[i] = sum_val(n, i, rep);
            check_ints(rbuf, want, K, "reduce sum", me);
        }
        CHECK_OK(MPI_Reduce(sbuf, rbuf, K, MPI_INT, MPI_MAX, root, c));
        if (me == root) {
            for (int i = 0; i < K; i++)
                want[i] = val(n - 1, i, rep);
            check_ints(rbuf, want, K, "reduce max", me);
        }

        /* gather / scatter of K per rank */
        for (int i = 0; i < K; i++)
            sbuf[i] = val(me, i, rep);
        for (int i = 0; i < K * n; i++)
            rbuf[i] = -1;
        CHECK_OK(MPI_Gather(sbuf, K, MPI_INT, rbuf, K, MPI_INT, root, c));
        if (me == root) {
            for (int r = 0; r < n; r++)
                for (int i = 0; i < K; i++)
                    want[r * K + i] = val(r, i, rep);
            check_ints(rbuf, want, K * n, "gather", me);
        }
        /* gatherv: rank r brings r % K + 1 elements, placed backwards with gaps */
        int pos = 0;
        for (int r = n - 1; r >= 0; r--) {
            counts[r] = r % K + 1;
            displs[r] = pos;
            pos += counts[r] + 1;
        }
        for (int i = 0; i < pos; i++)
            rbuf[i] = -1;
        CHECK_OK(MPI_Gatherv(sbuf, me % K + 1, MPI_INT, rbuf, counts, displs, MPI_INT, root, c));
        if (me == root) {
            for (int i = 0; i < pos; i++)
                want[i] = -1;
            for (int r = 0; r < n; r++)
                for (int i = 0; i < counts[r]; i++)
                    want[displs[r] + i] = val(r, i, rep);
            check_ints(rbuf, want, pos, "gatherv", me);
        }
        /* scatter: the root's element r * K + i goes to rank r */
        for (int i = 0; i < K * n; i++)
            sbuf[i] = val(root, i, rep);
        for (int i = 0; i < K; i++)
            rbuf[i] = -1;
        CHECK_OK(MPI_Scatter(sbuf, K, MPI_INT, rbuf, K, MPI_INT, root, c));
        for (int i = 0; i < K; i++)
            want[i] = val(root, me * K + i, rep);
        check_ints(rbuf, want, K, "scatter", me);
        /* scatterv with the gatherv layout */
        for (int i = 0; i < pos; i++)
            sbuf[i] = val(root, i, rep);
        for (int i = 0; i < K; i++)
            rbuf[i] = -1;
        CHECK_OK(MPI_Scatterv(sbuf, counts, displs, MPI_INT, rbuf, me % K + 1, MPI_INT, root, c));
        for (int i = 0; i < me % K + 1; i++)
            want[i] = val(root, displs[me] + i, rep);
        check_ints(rbuf, want, me % K + 1, "scatterv", me);
    }

    /* allgather(v) */
    for (int i = 0; i < K; i++)
        sbuf[i] = val(me, i, rep);
    CHECK_OK(MPI_Allgather(sbuf, K, MPI_INT, rbuf, K, MPI_INT, c));
    for (int r = 0; r < n; r++)
        for (int i = 0; i < K; i++)
            want[r * K + i] = val(r, i, rep);
    check_ints(rbuf, want, K * n, "allgather", me);
    int pos = 0;
    for (int r = 0; r < n; r++) {
        counts[r] = (r + rep) % K + 1;
        displs[r] = pos;
        pos += counts[r];
    }
    CHECK_OK(MPI_Allgatherv(sbuf, counts[me], MPI_INT, rbuf, counts, displs, MPI_INT, c));
    for (int r = 0; r < n; r++)
        for (int i = 0; i < counts[r]; i++)
            want[displs[r] + i] = val(r, i, rep);
    check_ints(rbuf, want, pos, "allgatherv", me);

    /* alltoall: element (to r, i) is val(me, r * K + i) */
    for (int i = 0; i < K * n; i++)
        sbuf[i] = val(me, i, rep);
    CHECK_OK(MPI_Alltoall(sbuf, K, MPI_INT, rbuf, K, MPI_INT, c));
    for (int r = 0; r < n; r++)
        for (int i = 0; i < K; i++)
            want[r * K + i] = val(r, me * K + i, rep);
    check_ints(rbuf, want, K * n, "alltoall", me);
    /* alltoallv: rank s sends (s + d) % 3 + 1 elements to d, from offset d * K */
    int rpos = 0;
    for (int r = 0; r < n; r++) {
        counts[r] = (me + r) % 3 + 1;
        displs[r] = r * K;
        rcounts[r] = (r + me) % 3 + 1;
        rdispls[r] = rpos;
        rpos += rcounts[r];
    }
    CHECK_OK(MPI_Alltoallv(sbuf, counts, displs, MPI_INT, rbuf, rcounts, rdispls, MPI_INT, c));
    for (int r = 0; r < n; r++)
        for (int i = 0; i < rcounts[r]; i++)
            want[rdispls[r] + i] = val(r, me * K + i, rep);
    check_ints(rbuf, want, rpos, "alltoallv", me);
    /* alltoallw: the same layout in bytes, odd ranks' blocks as MPI_INT,
     * even ones' as a contiguous pair type where the count is even */
    MPI_Datatype pair;
    CHECK_OK(MPI_Type_contiguous(2, MPI_INT, &pair));
    CHECK_OK(MPI_Type_commit(&pair));
    int wsc[NMAX], wsd[NMAX], wrc[NMAX], wrd[NMAX];
    MPI_Datatype wst[NMAX], wrt[NMAX];
    for (int r = 0; r < n; r++) {
        wsd[r] = displs[r] * (int)sizeof(int);
        wrd[r] = rdispls[r] * (int)sizeof(int);
        wst[r] = counts[r] % 2 == 0 ? pair : MPI_INT;
        wsc[r] = counts[r] % 2 == 0 ? counts[r] / 2 : counts[r];
        wrt[r] = MPI_INT;
        wrc[r] = rcounts[r];
    }
    for (int i = 0; i < rpos; i++)
        rbuf[i] = -1;
    CHECK_OK(MPI_Alltoallw(sbuf, wsc, wsd, wst, rbuf, wrc, wrd, wrt, c));
    check_ints(rbuf, want, rpos, "alltoallw", me);
    CHECK_OK(MPI_Type_free(&pair));

    /* allreduce, also in place */
    for (int i = 0; i < K; i++)
        sbuf[i] = val(me, i, rep);
    CHECK_OK(MPI_Allreduce(sbuf, rbuf, K, MPI_INT, MPI_SUM, c));
    for (int i = 0; i < K; i++)
        want[i] = sum_val(n, i, rep);
    check_ints(rbuf, want, K, "allreduce", me);
    for (int i = 0; i < K; i++)
        rbuf[i] = val(me, i, rep);
    CHECK_OK(MPI_Allreduce(MPI_IN_PLACE, rbuf, K, MPI_INT, MPI_SUM, c));
    check_ints(rbuf, want, K, "allreduce in place", me);
    int mn = me, mx = me;
    CHECK_OK(MPI_Allreduce(MPI_IN_PLACE, &mn, 1, MPI_INT, MPI_MIN, c));
    CHECK_OK(MPI_Allreduce(MPI_IN_PLACE, &mx, 1, MPI_INT, MPI_MAX, c));
    CHECK(mn == 0 && mx == n - 1, "allreduce min/max of the ranks: %d %d", mn, mx);
    double dsum = 0, dme = me + 0.5;
    CHECK_OK(MPI_Allreduce(&dme, &dsum, 1, MPI_DOUBLE, MPI_SUM, c));
    CHECK(dsum == n * (n - 1) / 2.0 + n * 0.5, "allreduce double: %g", dsum);

    /* reduce_scatter: rank r gets r % 3 + 1 elements */
    int tot = 0;
    for (int r = 0; r < n; r++) {
        counts[r] = r % 3 + 1;
        displs[r] = tot;
        tot += counts[r];
    }
    for (int i = 0; i < tot; i++)
        sbuf[i] = val(me, i, rep);
    CHECK_OK(MPI_Reduce_scatter(sbuf, rbuf, counts, MPI_INT, MPI_SUM, c));
    for (int i = 0; i < counts[me]; i++)
        want[i] = sum_val(n, displs[me] + i, rep);
    check_ints(rbuf, want, counts[me], "reduce_scatter", me);
    for (int i = 0; i < K * n; i++)
        sbuf[i] = val(me, i, rep);
    CHECK_OK(MPI_Reduce_scatter_block(sbuf, rbuf, K, MPI_INT, MPI_SUM, c));
    for (int i = 0; i < K; i++)
        want[i] = sum_val(n, me * K + i, rep);
    check_ints(rbuf, want, K, "reduce_scatter_block", me);

    /* scan, exscan */
    for (int i = 0; i < K; i++)
        sbuf[i] = val(me, i, rep);
    CHECK_OK(MPI_Scan(sbuf, rbuf, K, MPI_INT, MPI_SUM, c));
    for (int i = 0; i < K; i++)
        want[i] = sum_val(me + 1, i, rep);
    check_ints(rbuf, want, K, "scan", me);
    for (int i = 0; i < K; i++)
        rbuf[i] = -12345;
    CHECK_OK(MPI_Exscan(sbuf, rbuf, K, MPI_INT, MPI_SUM, c));
    if (me > 0) {
        for (int i = 0; i < K; i++)
            want[i] = sum_val(me, i, rep);
        check_ints(rbuf, want, K, "exscan", me);
    }

    /* larger messages: bcast from the last rank, allreduce */
    int *big = malloc(BIG * sizeof *big), *bigr = malloc(BIG * sizeof *bigr);
    CHECK(big && bigr, "out of memory");
    for (int i = 0; i < BIG; i++)
        big[i] = me == n - 1 ? val(n - 1, i, rep) : 0;
    CHECK_OK(MPI_Bcast(big, BIG, MPI_INT, n - 1, c));
    for (int i = 0; i < BIG; i++)
        CHECK(big[i] == val(n - 1, i, rep), "large bcast: endpoint %d element %d", me, i);
    for (int i = 0; i < BIG; i++)
        big[i] = val(me, i % 100, rep) + i;
    CHECK_OK(MPI_Allreduce(big, bigr, BIG, MPI_INT, MPI_SUM, c));
    for (int i = 0; i < BIG; i++)
        CHECK(bigr[i] == sum_val(n, i % 100, rep) + n * i, "large allreduce: endpoint %d element %d", me, i);
    free(big);
    free(bigr);
}

/* the nonblocking forms, several outstanding at once */
static void nonblocking(MPI_Comm c, int me, int n, int rep)
{
    int root = (rep + 1) % n;
    int bc[K], ar_s[K], ar_r[K], a2a_s[(K + 1) * NMAX], a2a_r[(K + 1) * NMAX], sc_s[K], sc_r[K];
    int ex_r[K], ag_r[(K + 1) * NMAX], g_r[(K + 1) * NMAX], red_r[K], rsb_s[(K + 1) * NMAX], rsb_r[K], scat_r[K];
    int want[(K + 1) * NMAX];
    MPI_Request rq[12];
    CHECK_OK(MPI_Ibarrier(c, &rq[0]));
    for (int i = 0; i < K; i++) {
        bc[i] = me == root ? val(root, i, rep) : -1;
        ar_s[i] = val(me, i, rep);
        sc_s[i] = val(me, i, rep);
        ex_r[i] = -1;
    }
    for (int i = 0; i < K * n; i++) {
        a2a_s[i] = val(me, i, rep);
        rsb_s[i] = val(me, i, rep);
    }
    CHECK_OK(MPI_Ibcast(bc, K, MPI_INT, root, c, &rq[1]));
    CHECK_OK(MPI_Iallreduce(ar_s, ar_r, K, MPI_INT, MPI_SUM, c, &rq[2]));
    CHECK_OK(MPI_Ialltoall(a2a_s, K, MPI_INT, a2a_r, K, MPI_INT, c, &rq[3]));
    CHECK_OK(MPI_Iscan(sc_s, sc_r, K, MPI_INT, MPI_SUM, c, &rq[4]));
    CHECK_OK(MPI_Iexscan(sc_s, ex_r, K, MPI_INT, MPI_SUM, c, &rq[5]));
    CHECK_OK(MPI_Iallgather(sc_s, K, MPI_INT, ag_r, K, MPI_INT, c, &rq[6]));
    CHECK_OK(MPI_Igather(sc_s, K, MPI_INT, g_r, K, MPI_INT, root, c, &rq[7]));
    CHECK_OK(MPI_Ireduce(sc_s, red_r, K, MPI_INT, MPI_SUM, root, c, &rq[8]));
    CHECK_OK(MPI_Ireduce_scatter_block(rsb_s, rsb_r, K, MPI_INT, MPI_SUM, c, &rq[9]));
    CHECK_OK(MPI_Iscatter(a2a_s, K, MPI_INT, scat_r, K, MPI_INT, root, c, &rq[10]));
    CHECK_OK(MPI_Ibarrier(c, &rq[11]));
    CHECK_OK(MPI_Waitall(12, rq, MPI_STATUSES_IGNORE));

    for (int i = 0; i < K; i++)
        want[i] = val(root, i, rep);
    check_ints(bc, want, K, "ibcast", me);
    for (int i = 0; i < K; i++)
        want[i] = sum_val(n, i, rep);
    check_ints(ar_r, want, K, "iallreduce", me);
    if (me == root)
        check_ints(red_r, want, K, "ireduce", me);
    for (int r = 0; r < n; r++)
        for (int i = 0; i < K; i++)
            want[r * K + i] = val(r, me * K + i, rep);
    check_ints(a2a_r, want, K * n, "ialltoall", me);
    for (int i = 0; i < K; i++)
        want[i] = sum_val(me + 1, i, rep);
    check_ints(sc_r, want, K, "iscan", me);
    if (me > 0) {
        for (int i = 0; i < K; i++)
            want[i] = sum_val(me, i, rep);
        check_ints(ex_r, want, K, "iexscan", me);
    }
    for (int r = 0; r < n; r++)
        for (int i = 0; i < K; i++)
            want[r * K + i] = val(r, i, rep);
    check_ints(ag_r, want, K * n, "iallgather", me);
    if (me == root)
        check_ints(g_r, want, K * n, "igather", me);
    for (int i = 0; i < K; i++)
        want[i] = sum_val(n, me * K + i, rep);
    check_ints(rsb_r, want, K, "ireduce_scatter_block", me);
    for (int i = 0; i < K; i++)
        want[i] = val(root, me * K + i, rep);
    check_ints(scat_r, want, K, "iscatter", me);

    /* in place, and the v forms */
    for (int i = 0; i < K; i++)
        ar_r[i] = val(me, i, rep);
    CHECK_OK(MPI_Iallreduce(MPI_IN_PLACE, ar_r, K, MPI_INT, MPI_SUM, c, &rq[0]));
    int counts[NMAX], displs[NMAX];
    int pos = 0;
    for (int r = 0; r < n; r++) {
        counts[r] = r % K + 1;
        displs[r] = pos;
        pos += counts[r];
    }
    CHECK_OK(MPI_Iallgatherv(sc_s, counts[me], MPI_INT, ag_r, counts, displs, MPI_INT, c, &rq[1]));
    int ac[NMAX], ad[NMAX];
    for (int r = 0; r < n; r++) {
        ac[r] = 1;
        ad[r] = r * K;
    }
    CHECK_OK(MPI_Ialltoallv(a2a_s, ac, ad, MPI_INT, a2a_r, ac, ad, MPI_INT, c, &rq[2]));
    CHECK_OK(MPI_Waitall(3, rq, MPI_STATUSES_IGNORE));
    for (int i = 0; i < K; i++)
        want[i] = sum_val(n, i, rep);
    check_ints(ar_r, want, K, "iallreduce in place", me);
    for (int r = 0; r < n; r++)
        for (int i = 0; i < counts[r]; i++)
            want[displs[r] + i] = val(r, i, rep);
    check_ints(ag_r, want, pos, "iallgatherv", me);
    for (int r = 0; r < n; r++)
        CHECK(a2a_r[r * K] == val(r, me * K, rep), "ialltoallv: endpoint %d block %d is %d", me, r, a2a_r[r * K]);
}

/* a non-commutative operation: affine maps x -> a x + b (mod 65521),
 * composed in rank order: inout = in then inout */
#define MOD 65521
static void compose(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    const int *f = in;
    int *g = inout;
    for (int k = 0; k < *len; k++) {
        long a = (long)g[2 * k] * f[2 * k] % MOD;
        long b = ((long)g[2 * k] * f[2 * k + 1] + g[2 * k + 1]) % MOD;
        g[2 * k] = (int)a;
        g[2 * k + 1] = (int)b;
    }
}

static void affine_of(int r, int i, int *ab)
{
    ab[0] = (r * 37 + i * 11 + 2) % MOD;
    ab[1] = (r * 101 + i * 7 + 5) % MOD;
}

/* the composition of ranks lo .. hi - 1, in rank order */
static void affine_range(int lo, int hi, int i, int *ab)
{
    ab[0] = 1;
    ab[1] = 0;
    for (int r = lo; r < hi; r++) {
        int f[2], len = 1;
        affine_of(r, i, f);
        int acc[2] = {ab[0], ab[1]};
        /* acc is ranks lo .. r - 1: the result applies them first */
        compose(acc, f, &len, NULL);
        ab[0] = f[0];
        ab[1] = f[1];
    }
}

static void noncommutative(MPI_Comm c, int me, int n)
{
    MPI_Datatype pair;
    MPI_Op op;
    CHECK_OK(MPI_Type_contiguous(2, MPI_INT, &pair));
    CHECK_OK(MPI_Type_commit(&pair));
    CHECK_OK(MPI_Op_create(compose, 0, &op));
    int in[2 * K], out[2 * K], want[2 * K];
    for (int i = 0; i < K; i++)
        affine_of(me, i, &in[2 * i]);
    CHECK_OK(MPI_Allreduce(in, out, K, pair, op, c));
    for (int i = 0; i < K; i++)
        affine_range(0, n, i, &want[2 * i]);
    check_ints(out, want, 2 * K, "allreduce of a non-commutative operation", me);
    for (int root = 0; root < n; root++) {
        for (int i = 0; i < 2 * K; i++)
            out[i] = -1;
        CHECK_OK(MPI_Reduce(in, out, K, pair, op, root, c));
        if (me == root)
            check_ints(out, want, 2 * K, "reduce of a non-commutative operation", me);
    }
    CHECK_OK(MPI_Scan(in, out, K, pair, op, c));
    for (int i = 0; i < K; i++)
        affine_range(0, me + 1, i, &want[2 * i]);
    check_ints(out, want, 2 * K, "scan of a non-commutative operation", me);
    MPI_Request rq;
    CHECK_OK(MPI_Iallreduce(in, out, K, pair, op, c, &rq));
    CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    for (int i = 0; i < K; i++)
        affine_range(0, n, i, &want[2 * i]);
    check_ints(out, want, 2 * K, "iallreduce of a non-commutative operation", me);
    CHECK_OK(MPI_Op_free(&op));
    CHECK_OK(MPI_Type_free(&pair));
}

/* the nonblocking v and w forms not used above */
static void nonblocking_v(MPI_Comm c, int me, int n, int rep)
{
    int root = (rep + n - 1) % n;
    int sbuf[(K + 1) * NMAX], gv[(K + 1) * NMAX], sv[K], rs[K], a2w[(K + 1) * NMAX], want[(K + 1) * NMAX];
    int counts[NMAX], displs[NMAX], ones[NMAX], bytes_d[NMAX];
    MPI_Datatype types[NMAX];
    int pos = 0;
    for (int r = 0; r < n; r++) {
        counts[r] = r % K + 1;
        displs[r] = pos;
        pos += counts[r];
        ones[r] = 1;
        bytes_d[r] = r * (int)sizeof(int);
        types[r] = MPI_INT;
    }
    for (int i = 0; i < (K + 1) * NMAX; i++)
        sbuf[i] = val(me, i, rep);
    MPI_Request rq[4];
    CHECK_OK(MPI_Igatherv(sbuf, counts[me], MPI_INT, gv, counts, displs, MPI_INT, root, c, &rq[0]));
    CHECK_OK(MPI_Iscatterv(sbuf, counts, displs, MPI_INT, sv, counts[me], MPI_INT, root, c, &rq[1]));
    CHECK_OK(MPI_Ireduce_scatter(sbuf, rs, counts, MPI_INT, MPI_SUM, c, &rq[2]));
    CHECK_OK(MPI_Ialltoallw(sbuf, ones, bytes_d, types, a2w, ones, bytes_d, types, c, &rq[3]));
    CHECK_OK(MPI_Waitall(4, rq, MPI_STATUSES_IGNORE));
    if (me == root) {
        for (int r = 0; r < n; r++)
            for (int i = 0; i < counts[r]; i++)
                want[displs[r] + i] = val(r, i, rep);
        check_ints(gv, want, pos, "igatherv", me);
    }
    for (int i = 0; i < counts[me]; i++)
        want[i] = val(root, displs[me] + i, rep);
    check_ints(sv, want, counts[me], "iscatterv", me);
    for (int i = 0; i < counts[me]; i++)
        want[i] = sum_val(n, displs[me] + i, rep);
    check_ints(rs, want, counts[me], "ireduce_scatter", me);
    for (int r = 0; r < n; r++)
        want[r] = val(r, me, rep);
    check_ints(a2w, want, n, "ialltoallw", me);
}

/* large messages (rendezvous, segmented and shared-memory algorithms):
 * MPI_Bcast of 4 MiB from every other root, MPI_Allgather of 256 KiB
 * per rank, MPI_Alltoall of 64 KiB blocks, MPI_Reduce and MPI_Allreduce
 * of 1 MiB */
static void large(MPI_Comm c, int me, int n)
{
    size_t bc_n = (size_t)1 << 20, ag_n = (size_t)1 << 16, a2a_n = (size_t)1 << 14, red_n = (size_t)1 << 18;
    int *buf = malloc(bc_n * sizeof *buf);
    int *ag = malloc(ag_n * (size_t)n * sizeof *ag), *a2s = malloc(a2a_n * (size_t)n * sizeof *a2s),
        *a2r = malloc(a2a_n * (size_t)n * sizeof *a2r), *rs = malloc(red_n * sizeof *rs),
        *rr = malloc(red_n * sizeof *rr);
    CHECK(buf && ag && a2s && a2r && rs && rr, "out of memory");
    for (int root = 0; root < n; root += 2) {
        for (size_t i = 0; i < bc_n; i++)
            buf[i] = me == root ? val(root, (int)i, 3) : -1;
        CHECK_OK(MPI_Bcast(buf, (int)bc_n, MPI_INT, root, c));
        for (size_t i = 0; i < bc_n; i++)
            CHECK(buf[i] == val(root, (int)i, 3), "large bcast from %d: endpoint %d element %zu is %d", root, me, i,
                  buf[i]);
    }
    for (size_t i = 0; i < ag_n; i++)
        buf[i] = val(me, (int)i, 4);
    CHECK_OK(MPI_Allgather(buf, (int)ag_n, MPI_INT, ag, (int)ag_n, MPI_INT, c));
    for (int r = 0; r < n; r++)
        for (size_t i = 0; i < ag_n; i++)
            CHECK(ag[(size_t)r * ag_n + i] == val(r, (int)i, 4), "large allgather: endpoint %d block %d element %zu",
                  me, r, i);
    for (int r = 0; r < n; r++)
        for (size_t i = 0; i < a2a_n; i++)
            a2s[(size_t)r * a2a_n + i] = val(me, (int)i, r);
    CHECK_OK(MPI_Alltoall(a2s, (int)a2a_n, MPI_INT, a2r, (int)a2a_n, MPI_INT, c));
    for (int r = 0; r < n; r++)
        for (size_t i = 0; i < a2a_n; i++)
            CHECK(a2r[(size_t)r * a2a_n + i] == val(r, (int)i, me), "large alltoall: endpoint %d block %d element %zu",
                  me, r, i);
    for (size_t i = 0; i < red_n; i++)
        rs[i] = (int)(i % 1000) + me;
    int want_add = n * (n - 1) / 2;
    CHECK_OK(MPI_Allreduce(rs, rr, (int)red_n, MPI_INT, MPI_SUM, c));
    for (size_t i = 0; i < red_n; i++)
        CHECK(rr[i] == n * (int)(i % 1000) + want_add, "large allreduce: endpoint %d element %zu is %d", me, i, rr[i]);
    int root = n - 1;
    for (size_t i = 0; i < red_n; i++)
        rr[i] = -1;
    CHECK_OK(MPI_Reduce(rs, rr, (int)red_n, MPI_INT, MPI_SUM, root, c));
    if (me == root)
        for (size_t i = 0; i < red_n; i++)
            CHECK(rr[i] == n * (int)(i % 1000) + want_add, "large reduce: element %zu is %d", i, rr[i]);
    free(buf);
    free(ag);
    free(a2s);
    free(a2r);
    free(rs);
    free(rr);
}

static void *endpoint_main(void *p)
{
    struct ep_arg *a = p;
    MPI_Comm c = a->comm;
    int me, n;
    ep_expect(c, a->expect_rank, a->expect_size, &me, &n);
    MPI_Comm mixed = MPI_COMM_NULL;
    if (a->interleaved_rank >= 0) {
        /* the processes' endpoints interleaved: endpoint t of every
         * process, then endpoint t + 1 ... */
        CHECK_OK(MPI_Comm_split(c, 0, a->interleaved_rank, &mixed));
        CHECK_OK(MPI_Comm_rank(mixed, &me));
        CHECK(me == a->interleaved_rank, "interleaved: rank %d, expected %d", me, a->interleaved_rank);
        c = mixed;
    }
    for (int rep = 0; rep < reps; rep++) {
        blocking(c, me, n, rep);
        nonblocking(c, me, n, rep);
        nonblocking_v(c, me, n, rep);
    }
    noncommutative(c, me, n);
    if (a->large)
        large(c, me, n);
    CHECK_OK(MPI_Barrier(c));
    if (mixed != MPI_COMM_NULL)
        CHECK_OK(MPI_Comm_free(&mixed));
    CHECK_OK(MPI_Comm_free(&a->comm));
    return NULL;
}

int main(int argc, char **argv)
{
    int wrank, wsize;
    ep_init(&argc, &argv, &wrank, &wsize);
    int t = argc > 1 ? atoi(argv[1]) : 2;
    if (argc > 2)
        reps = atoi(argv[2]);
    int interleave = 0, with_large = 0;
    for (int k = 3; k < argc; k++) {
        interleave |= strcmp(argv[k], "interleave") == 0;
        with_large |= strcmp(argv[k], "large") == 0;
    }
    CHECK(t >= 1 && t <= MAX_EP && t * wsize <= NMAX, "bad endpoint count %d", t);
    MPI_Comm hs[MAX_EP];
    CHECK_OK(MPIX_Comm_create_endpoints(MPI_COMM_WORLD, t, MPI_INFO_NULL, hs));
    pthread_t th[MAX_EP];
    struct ep_arg args[MAX_EP];
    for (int i = 0; i < t; i++) {
        args[i] = (struct ep_arg){hs[i], wrank * t + i, wsize * t, interleave ? i * wsize + wrank : -1,
                                  with_large};
        CHECK(pthread_create(&th[i], NULL, endpoint_main, &args[i]) == 0, "pthread_create");
    }
    for (int i = 0; i < t; i++)
        pthread_join(th[i], NULL);
    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    if (wrank == 0)
        printf("ep_coll: ok (%d processes x %d endpoints, %d repetitions%s%s)\n", wsize, t, reps,
               interleave ? ", interleaved" : "", with_large ? ", large messages" : "");
    MPI_Finalize();
    return 0;
}
