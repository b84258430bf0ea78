/*
 * coll_get.c: blocking bcast, allgather and alltoall(v,w) on a one-node
 * communicator where each rank reads its data straight from the others'
 * buffers (algorithm "get", forced with the hint tide_coll_tuning on a
 * duplicate of MPI_COMM_WORLD, and chosen by the table on
 * MPI_COMM_WORLD itself). Checked against values computed locally:
 *  - hundreds of calls in a row, the operations interleaved, sizes from
 *    0 to 68 KiB per block, roots moving; every rank rewrites its buffers
 *    as soon as a call returns, so a rank that left while another was
 *    still reading its memory shows up as wrong data there;
 *  - alltoallv and alltoallw with uneven blocks, some empty, laid out in
 *    reverse order with gaps, from a few bytes (carried in the region)
 *    to more than the region holds (read from memory); alltoallw with
 *    different types per block, some not one run;
 *  - MPI_IN_PLACE for allgather, alltoall and alltoallv;
 *  - derived datatypes: a strided vector (not one run: packed for the
 *    readers, or read into a bounce buffer) on either side, and a type
 *    that is one run but starts 8 bytes into the buffer;
 *  - a broadcast of 1 Mi integers;
 *  - a split communicator.
 * Run with one rank's single-copy get turned off (TIDE_SHM_CMA=0 for
 * that rank alone), the ranks must agree that none reads the others'
 * memory and fall back to messages alike, with the same results.
 * Usage: coll_get
 */
#include "testutil.h"

#include <stdint.h>

static int rank, size;

static int val(int r, int i, int round)
{
    return r * 1000003 + i * 31 + round * 7 + 1;
}

static const int sizes[] = {0, 1, 5, 3000, 4097, 17000};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

static void bcast_call(MPI_Comm c, int k, int round)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    int root = round % n;
    int *b = malloc(sizeof(int) * (size_t)(k + 1));
    for (int i = 0; i < k; i++)
        b[i] = me == root ? val(root, i, round) : -1;
    CHECK_OK(MPI_Bcast(b, k, MPI_INT, root, c));
    /* the root rewrites its buffer at once: the others have their copy */
    if (me == root)
        for (int i = 0; i < k; i++)
            b[i] = -2;
    for (int i = 0; i < k && me != root; i++)
        CHECK(b[i] == val(root, i, round), "bcast round %d k %d root %d: element %d is %d", round, k, root, i, b[i]);
    free(b);
}

static void allgather_call(MPI_Comm c, int k, int round, int in_place)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    int *s = malloc(sizeof(int) * (size_t)(k + 1));
    int *r = malloc(sizeof(int) * ((size_t)k * (size_t)n + 1));
    for (int i = 0; i < k * n; i++)
        r[i] = -1;
    for (int i = 0; i < k; i++)
        s[i] = r[me * k + i] = val(me, i, round);
    CHECK_OK(MPI_Allgather(in_place ? MPI_IN_PLACE : s, k, MPI_INT, r, k, MPI_INT, c));
    for (int i = 0; i < k; i++)
        s[i] = r[me * k + i] = -2; /* rewritten at once */
    for (int q = 0; q < n; q++)
        for (int i = 0; i < k && q != me; i++)
            CHECK(r[q * k + i] == val(q, i, round), "allgather round %d k %d%s: block %d element %d is %d", round,
                  k, in_place ? " in place" : "", q, i, r[q * k + i]);
    free(s);
    free(r);
}

/* what rank q sends rank d in round round, element i */
static int aval(int q, int d, int i, int round)
{
    return val(q, i, round) ^ (d << 20);
}

static void alltoall_call(MPI_Comm c, int k, int round, int in_place)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    size_t all = (size_t)k * (size_t)n;
    int *s = malloc(sizeof(int) * (all + 1));
    int *r = malloc(sizeof(int) * (all + 1));
    for (int d = 0; d < n; d++)
        for (int i = 0; i < k; i++)
            s[d * k + i] = r[d * k + i] = aval(me, d, i, round);
    CHECK_OK(MPI_Alltoall(in_place ? MPI_IN_PLACE : s, k, MPI_INT, in_place ? s : r, k, MPI_INT, c));
    int *got = in_place ? s : r;
    int *other = in_place ? r : s;
    for (size_t i = 0; i < all; i++)
        other[i] = -2; /* rewritten at once */
    for (int q = 0; q < n; q++)
        for (int i = 0; i < k; i++)
            CHECK(got[q * k + i] == aval(q, me, i, round), "alltoall round %d k %d%s: block %d element %d is %d",
                  round, k, in_place ? " in place" : "", q, i, got[q * k + i]);
    free(s);
    free(r);
}

static void rounds(MPI_Comm c, int count)
{
    for (int round = 0; round < count; round++) {
        int k = sizes[(round / 3) % NSIZES];
        switch (round % 3) {
        case 0:
            bcast_call(c, k, round);
            break;
        case 1:
            allgather_call(c, k, round, (round / 3) % 2);
            break;
        default:
            alltoall_call(c, k, round, (round / 5) % 2);
            break;
        }
    }
}

/* vec: k ints at every other int; off8: k ints in one run, 8 bytes in */
static void derived(MPI_Comm c)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    MPI_Datatype vec, off8, tmp;
    CHECK_OK(MPI_Type_vector(5000, 1, 2, MPI_INT, &vec));
    CHECK_OK(MPI_Type_commit(&vec));
    int bl = 1;
    MPI_Aint disp = 8;
    MPI_Datatype ty = MPI_INT;
    CHECK_OK(MPI_Type_create_struct(1, &bl, &disp, &ty, &tmp));
    CHECK_OK(MPI_Type_create_resized(tmp, 0, sizeof(int), &off8));
    CHECK_OK(MPI_Type_commit(&off8));
    MPI_Type_free(&tmp);
    enum { K = 5000 };
    int *sp = malloc(sizeof(int) * (size_t)(2 * K * n + 8));
    int *rp = malloc(sizeof(int) * (size_t)(2 * K * n + 8));
    for (int round = 0; round < 6; round++) {
        int root = round % n;
        /* bcast: the root's side strided, the others' one offset run, then
         * the other way round */
        for (int i = 0; i < 2 * K + 4; i++)
            sp[i] = -1;
        if (round % 2 == 0) {
            if (me == root)
                for (int i = 0; i < K; i++)
                    sp[2 * i] = val(root, i, round);
            CHECK_OK(me == root ? MPI_Bcast(sp, 1, vec, root, c) : MPI_Bcast(sp, K, off8, root, c));
            for (int i = 0; i < K && me != root; i++)
                CHECK(sp[2 + i] == val(root, i, round), "bcast vec->off8 element %d is %d", i, sp[2 + i]);
            CHECK(me == root || (sp[0] == -1 && sp[1] == -1 && sp[K + 2] == -1), "bcast off8 wrote outside its run");
        } else {
            if (me == root)
                for (int i = 0; i < K; i++)
                    sp[2 + i] = val(root, i, round);
            CHECK_OK(me == root ? MPI_Bcast(sp, K, off8, root, c) : MPI_Bcast(sp, 1, vec, root, c));
            for (int i = 0; i < K && me != root; i++) {
                CHECK(sp[2 * i] == val(root, i, round), "bcast off8->vec element %d is %d", i, sp[2 * i]);
                CHECK(sp[2 * i + 1] == -1, "bcast vec wrote into a gap at %d", 2 * i + 1);
            }
        }
        /* allgather: strided blocks out, one offset run per block in */
        for (int i = 0; i < 2 * K; i++)
            sp[i] = i % 2 ? -7 : val(me, i / 2, round);
        for (int i = 0; i < K * n + 2; i++)
            rp[i] = -1;
        CHECK_OK(MPI_Allgather(sp, 1, vec, rp, K, off8, c));
        for (int q = 0; q < n; q++)
            for (int i = 0; i < K; i++)
                CHECK(rp[2 + q * K + i] == val(q, i, round), "allgather vec->off8 block %d element %d is %d", q, i,
                      rp[2 + q * K + i]);
        /* alltoall: one offset run per block out, strided blocks in */
        for (int d = 0; d < n; d++)
            for (int i = 0; i < K; i++)
                sp[2 + d * K + i] = aval(me, d, i, round);
        for (int i = 0; i < 2 * K * n; i++)
            rp[i] = -1;
        MPI_Datatype vecr;
        CHECK_OK(MPI_Type_create_resized(vec, 0, (MPI_Aint)(2 * K * sizeof(int)), &vecr));
        CHECK_OK(MPI_Type_commit(&vecr));
        CHECK_OK(MPI_Alltoall(sp, K, off8, rp, 1, vecr, c));
        for (int q = 0; q < n; q++)
            for (int i = 0; i < K; i++) {
                CHECK(rp[2 * (q * K + i)] == aval(q, me, i, round), "alltoall off8->vec block %d element %d is %d",
                      q, i, rp[2 * (q * K + i)]);
                CHECK(rp[2 * (q * K + i) + 1] == -1, "alltoall vec wrote into a gap");
            }
        MPI_Type_free(&vecr);
    }
    free(sp);
    free(rp);
    MPI_Type_free(&vec);
    MPI_Type_free(&off8);
}

static void big_bcast(MPI_Comm c)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    enum { M = 1 << 20 };
    int *b = malloc(sizeof(int) * M);
    int root = n - 1;
    for (int i = 0; i < M; i++)
        b[i] = me == root ? val(root, i, 3) : 0;
    CHECK_OK(MPI_Bcast(b, M, MPI_INT, root, c));
    int bad = 0;
    for (int i = 0; i < M; i++)
        bad += b[i] != val(root, i, 3);
    CHECK(bad == 0, "bcast of 1 Mi ints: %d wrong", bad);
    free(b);
}

/* alltoallv/w: what rank q sends rank d in round round (ints); symmetric
 * in q and d so the in-place form can use it; zero for some pairs, and
 * from a few bytes to more than a slot holds */
static int vcount(int q, int d, int round)
{
    static const int base[] = {1, 40, 700, 5000};
    int k = (q + d + round) % 5;
    return k == 4 ? 0 : base[(round + k) % 4] + (q + d) % 3;
}

/* alltoallv: blocks laid out in reverse rank order with gaps; in place or
 * not */
static void vcall(MPI_Comm c, int round, int in_place)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    int *sc = malloc(sizeof(int) * (size_t)n), *sd = malloc(sizeof(int) * (size_t)n);
    int *rc = malloc(sizeof(int) * (size_t)n), *rd = malloc(sizeof(int) * (size_t)n);
    int stot = 0, rtot = 0;
    for (int k = n - 1; k >= 0; k--) {
        sc[k] = vcount(me, k, round);
        sd[k] = stot + 1;
        stot += sc[k] + 1;
        rc[k] = vcount(k, me, round);
        rd[k] = rtot + 2;
        rtot += rc[k] + 2;
    }
    int *s = malloc(sizeof(int) * (size_t)(stot + 1));
    int *r = malloc(sizeof(int) * (size_t)(rtot + 1));
    for (int i = 0; i < rtot; i++)
        r[i] = -1;
    for (int d = 0; d < n; d++)
        for (int i = 0; i < sc[d]; i++)
            s[sd[d] + i] = aval(me, d, i, round);
    if (in_place) {
        for (int d = 0; d < n; d++)
            for (int i = 0; i < rc[d]; i++)
                r[rd[d] + i] = aval(me, d, i, round);
        CHECK_OK(MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_INT, r, rc, rd, MPI_INT, c));
    } else {
        CHECK_OK(MPI_Alltoallv(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, c));
    }
    for (int i = 0; i < stot; i++)
        s[i] = -2; /* rewritten at once */
    for (int q = 0; q < n; q++) {
        for (int i = 0; i < rc[q]; i++)
            CHECK(r[rd[q] + i] == aval(q, me, i, round), "alltoallv round %d%s: block %d (%d ints) element %d is %d",
                  round, in_place ? " in place" : "", q, rc[q], i, r[rd[q] + i]);
        CHECK(r[rd[q] - 1] == -1 && r[rd[q] - 2] == -1, "alltoallv round %d: a gap before block %d was written",
              round, q);
    }
    free(s);
    free(r);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
}

/* alltoallw: to even ranks pairs of ints, to odd ones ints; from odd
 * ranks into ints 8 bytes apart (not one run), from even ones plain */
static void wcall(MPI_Comm c, int round)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    MPI_Datatype pair, spread;
    CHECK_OK(MPI_Type_contiguous(2, MPI_INT, &pair));
    CHECK_OK(MPI_Type_commit(&pair));
    CHECK_OK(MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &spread));
    CHECK_OK(MPI_Type_commit(&spread));
    int *sc = malloc(sizeof(int) * (size_t)n), *sd = malloc(sizeof(int) * (size_t)n);
    int *rc = malloc(sizeof(int) * (size_t)n), *rd = malloc(sizeof(int) * (size_t)n);
    MPI_Datatype *st = malloc(sizeof(MPI_Datatype) * (size_t)n), *rt = malloc(sizeof(MPI_Datatype) * (size_t)n);
    int stot = 0, rtot = 0;
    for (int k = 0; k < n; k++) {
        int ks = 2 * vcount(me, k, round), kr = 2 * vcount(k, me, round);
        st[k] = k % 2 ? MPI_INT : pair;
        sc[k] = k % 2 ? ks : ks / 2;
        sd[k] = stot * (int)sizeof(int);
        stot += ks;
        rt[k] = k % 2 ? spread : MPI_INT;
        rc[k] = kr;
        rd[k] = rtot * (int)sizeof(int);
        rtot += k % 2 ? 2 * kr : kr;
    }
    int *s = malloc(sizeof(int) * (size_t)(stot + 1));
    int *r = malloc(sizeof(int) * (size_t)(rtot + 1));
    for (int i = 0; i < rtot; i++)
        r[i] = -1;
    for (int d = 0, at = 0; d < n; d++)
        for (int i = 0; i < 2 * vcount(me, d, round); i++)
            s[at++] = aval(me, d, i, round);
    CHECK_OK(MPI_Alltoallw(s, sc, sd, st, r, rc, rd, rt, c));
    for (int q = 0; q < n; q++) {
        int *b = r + rd[q] / (int)sizeof(int);
        for (int i = 0; i < rc[q]; i++) {
            int got = q % 2 ? b[2 * i] : b[i];
            CHECK(got == aval(q, me, i, round), "alltoallw round %d: block %d element %d is %d", round, q, i, got);
            CHECK(q % 2 == 0 || b[2 * i + 1] == -1, "alltoallw round %d: a gap in block %d was written", round, q);
        }
    }
    free(s);
    free(r);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(st);
    free(rt);
    MPI_Type_free(&pair);
    MPI_Type_free(&spread);
}

static void vrounds(MPI_Comm c, int count)
{
    for (int round = 0; round < count; round++) {
        vcall(c, round, round % 3 == 2);
        if (round % 2)
            wcall(c, round);
    }
}

#define GET_HINT "bcast=get,allgather=get,alltoall=get,alltoallv=get,alltoallw=get"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm forced;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &forced));
    tu_set_coll_hint(forced, GET_HINT);
    MPI_Comm comms[2] = {forced, MPI_COMM_WORLD};
    for (int ci = 0; ci < 2; ci++) {
        rounds(comms[ci], 180);
        vrounds(comms[ci], 40);
        derived(comms[ci]);
        big_bcast(comms[ci]);
    }
    MPI_Comm half;
    CHECK_OK(MPI_Comm_split(forced, rank % 2, -rank, &half));
    tu_set_coll_hint(half, GET_HINT);
    rounds(half, 60);
    vrounds(half, 12);
    CHECK_OK(MPI_Comm_free(&half));
    CHECK_OK(MPI_Comm_free(&forced));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("coll_get: ok\n");
    MPI_Finalize();
    return 0;
}
