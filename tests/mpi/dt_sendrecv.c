/*
 * dt_sendrecv.c: derived datatypes through messages (run on 2 or more
 * ranks; ranks 0 and 1 talk). Every constructor's type is sent and
 * received against a contiguous buffer of the same signature, both ways;
 * type maps that differ but share a signature; MPI_PACKED on either side;
 * MPI_BYTE; MPI_BOTTOM with absolute addresses; large non-contiguous
 * messages (the pipelined/rendezvous paths); MPI_Get_count and
 * MPI_Get_elements on partial messages. Every byte of each receive
 * buffer is checked, holes included.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static int rank, tagn;

struct span {
    MPI_Aint lo, hi;
};

static struct span span_of(MPI_Datatype t, int count)
{
    MPI_Aint lb, ext, tlb, text;
    MPI_Type_get_extent(t, &lb, &ext);
    MPI_Type_get_true_extent(t, &tlb, &text);
    struct span s = {tlb, tlb + text};
    if (count > 1) {
        MPI_Aint last = (MPI_Aint)(count - 1) * ext;
        if (tlb + last < s.lo)
            s.lo = tlb + last;
        if (tlb + text + last > s.hi)
            s.hi = tlb + text + last;
    }
    if (s.hi <= s.lo)
        s.hi = s.lo + 1;
    return s;
}

static unsigned char *alloc_span(struct span s, unsigned char **base, int fill)
{
    size_t n = (size_t)(s.hi - s.lo);
    unsigned char *b = malloc(n);
    for (size_t i = 0; i < n; i++)
        b[i] = fill ? (unsigned char)(i * 131 + 17 + (i >> 9)) : 0;
    *base = b - s.lo;
    return b;
}

/* Rank 0 sends scount of st; rank 1 receives rcount of rt and checks
 * every byte against a local pack/unpack of the same data. */
static void xfer(const char *what, MPI_Datatype st, int scount, MPI_Datatype rt, int rcount)
{
    int tag = ++tagn;
    struct span ss = span_of(st, scount), rs = span_of(rt, rcount);
    unsigned char *sbase, *rbase, *ebase;
    unsigned char *sb = alloc_span(ss, &sbase, 1);
    if (rank == 0) {
        CHECK_OK(MPI_Send(sbase, scount, st, 1, tag, MPI_COMM_WORLD));
    } else if (rank == 1) {
        unsigned char *rb = alloc_span(rs, &rbase, 0), *eb = alloc_span(rs, &ebase, 0);
        MPI_Status status;
        CHECK_OK(MPI_Recv(rbase, rcount, rt, 0, tag, MPI_COMM_WORLD, &status));
        int psize, pos = 0;
        MPI_Pack_size(scount, st, MPI_COMM_WORLD, &psize);
        unsigned char *tmp = malloc((size_t)psize + 1);
        CHECK_OK(MPI_Pack(sbase, scount, st, tmp, psize, &pos, MPI_COMM_WORLD));
        int upos = 0, rsize;
        MPI_Type_size(rt, &rsize);
        CHECK(rsize && pos % rsize == 0, "%s: %d bytes sent is not a whole number of receive elements", what, pos);
        CHECK_OK(MPI_Unpack(tmp, pos, &upos, ebase, pos / rsize, rt, MPI_COMM_WORLD));
        size_t n = (size_t)(rs.hi - rs.lo);
        for (size_t i = 0; i < n; i++)
            if (rb[i] != eb[i])
                CHECK(0, "%s: byte %ld of the receive buffer is %d, expected %d", what, (long)i + (long)rs.lo,
                      rb[i], eb[i]);
        int cnt;
        MPI_Get_count(&status, MPI_BYTE, &cnt);
        CHECK(cnt == pos, "%s: received %d bytes, sent %d", what, cnt, pos);
        free(tmp);
        free(rb);
        free(eb);
    }
    free(sb);
}

static void commit(MPI_Datatype *t)
{
    CHECK_OK(MPI_Type_commit(t));
}

/* t (count of it holding n ints) against n contiguous ints, both ways */
static void both_ways(const char *what, MPI_Datatype t, int count, int n)
{
    char w[128];
    commit(&t);
    snprintf(w, sizeof w, "%s -> ints", what);
    xfer(w, t, count, MPI_INT, n);
    snprintf(w, sizeof w, "ints -> %s", what);
    xfer(w, MPI_INT, n, t, count);
    snprintf(w, sizeof w, "%s -> %s", what, what);
    xfer(w, t, count, t, count);
    MPI_Type_free(&t);
}

static void every_constructor(void)
{
    MPI_Datatype t, u;
    MPI_Type_contiguous(7, MPI_INT, &t);
    both_ways("contiguous", t, 3, 21);
    MPI_Type_vector(5, 2, 3, MPI_INT, &t);
    both_ways("vector", t, 3, 30);
    MPI_Type_vector(4, 1, -3, MPI_INT, &t);
    both_ways("vector, negative stride", t, 2, 8);
    MPI_Type_create_hvector(3, 2, 20, MPI_INT, &t);
    both_ways("hvector", t, 2, 12);
    int bl[4] = {2, 0, 3, 1}, ds[4] = {6, 0, -4, 1};
    MPI_Type_indexed(4, bl, ds, MPI_INT, &t);
    both_ways("indexed", t, 3, 18);
    MPI_Aint hd[4] = {40, 0, -12, 100};
    MPI_Type_create_hindexed(4, bl, hd, MPI_INT, &t);
    both_ways("hindexed", t, 2, 12);
    MPI_Type_create_indexed_block(4, 2, ds, MPI_INT, &t);
    both_ways("indexed_block", t, 2, 16);
    MPI_Type_create_hindexed_block(4, 1, hd, MPI_INT, &t);
    both_ways("hindexed_block", t, 2, 8);
    MPI_Datatype sts[3] = {MPI_INT, MPI_INT, MPI_INT};
    MPI_Aint sds[3] = {8, 0, 24};
    int sbl[3] = {1, 2, 3};
    MPI_Type_create_struct(3, sbl, sds, sts, &t);
    both_ways("struct", t, 3, 18);
    int sz[3] = {4, 5, 6}, sub[3] = {2, 3, 4}, st[3] = {1, 2, 1};
    MPI_Type_create_subarray(3, sz, sub, st, MPI_ORDER_C, MPI_INT, &t);
    both_ways("subarray C", t, 2, 48);
    MPI_Type_create_subarray(3, sz, sub, st, MPI_ORDER_FORTRAN, MPI_INT, &t);
    both_ways("subarray Fortran", t, 1, 24);
    int gs[2] = {7, 8}, dist[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK}, dg[2] = {2, MPI_DISTRIBUTE_DFLT_DARG};
    int ps[2] = {2, 2};
    MPI_Type_create_darray(4, 1, 2, gs, dist, dg, ps, MPI_ORDER_C, MPI_INT, &t); /* coords (0, 1): rows 0,1,4,5; cols 4..7 */
    both_ways("darray", t, 1, 16);
    MPI_Type_vector(2, 1, 2, MPI_INT, &u);
    MPI_Type_create_resized(u, -8, 40, &t);
    MPI_Type_free(&u);
    both_ways("resized", t, 4, 8);
    MPI_Type_vector(3, 2, 4, MPI_INT, &u);
    MPI_Type_dup(u, &t);
    MPI_Type_free(&u);
    both_ways("dup", t, 2, 12);
    /* nested */
    MPI_Type_vector(2, 1, 3, MPI_INT, &u);
    MPI_Datatype ts2[2] = {u, MPI_INT};
    MPI_Aint ds2[2] = {4, 32};
    int bl2[2] = {3, 1};
    MPI_Type_create_struct(2, bl2, ds2, ts2, &t);
    MPI_Type_free(&u);
    MPI_Datatype w;
    MPI_Type_vector(3, 2, -3, t, &w);
    MPI_Type_free(&t);
    both_ways("vector of struct of vector", w, 2, 84);
}

static void same_signature(void)
{
    /* mixed types: struct{int, double x2, char} against another layout of them */
    struct a { int i; double d[2]; char c; } sa[4];
    (void)sa;
    MPI_Datatype ta, tb, tc;
    int bl[3] = {1, 2, 1};
    MPI_Aint da[3] = {offsetof(struct a, i), offsetof(struct a, d), offsetof(struct a, c)};
    MPI_Datatype ts[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
    MPI_Type_create_struct(3, bl, da, ts, &ta);
    MPI_Type_create_resized(ta, 0, sizeof(struct a), &tb);
    MPI_Type_free(&ta);
    commit(&tb);
    MPI_Aint db[3] = {40, 0, 17}; /* same signature, other places */
    MPI_Type_create_struct(3, bl, db, ts, &tc);
    commit(&tc);
    xfer("struct -> other struct", tb, 4, tc, 4);
    xfer("other struct -> struct", tc, 4, tb, 4);
    /* MPI_PACKED: typed -> packed, and packed -> typed */
    int psize;
    MPI_Pack_size(4, tb, MPI_COMM_WORLD, &psize);
    if (rank == 0) {
        struct a v[4];
        for (int i = 0; i < 4; i++) {
            v[i].i = i;
            v[i].d[0] = i + 0.5;
            v[i].d[1] = -i;
            v[i].c = (char)('a' + i);
        }
        CHECK_OK(MPI_Send(v, 4, tb, 1, 900, MPI_COMM_WORLD));
        char *pk = malloc((size_t)psize);
        int pos = 0;
        CHECK_OK(MPI_Pack(v, 4, tb, pk, psize, &pos, MPI_COMM_WORLD));
        CHECK_OK(MPI_Send(pk, pos, MPI_PACKED, 1, 901, MPI_COMM_WORLD));
        free(pk);
    } else if (rank == 1) {
        char *pk = malloc((size_t)psize);
        MPI_Status st;
        CHECK_OK(MPI_Recv(pk, psize, MPI_PACKED, 0, 900, MPI_COMM_WORLD, &st));
        int n, pos = 0;
        MPI_Get_count(&st, MPI_PACKED, &n);
        CHECK(n == psize, "received %d packed bytes, expected %d", n, psize);
        struct a v[4];
        memset(v, 0, sizeof v);
        CHECK_OK(MPI_Unpack(pk, n, &pos, v, 4, tb, MPI_COMM_WORLD));
        for (int i = 0; i < 4; i++)
            CHECK(v[i].i == i && v[i].d[0] == i + 0.5 && v[i].d[1] == -i && v[i].c == 'a' + i,
                  "typed -> MPI_PACKED: element %d", i);
        memset(v, 0, sizeof v);
        CHECK_OK(MPI_Recv(v, 4, tb, 0, 901, MPI_COMM_WORLD, &st));
        for (int i = 0; i < 4; i++)
            CHECK(v[i].i == i && v[i].d[0] == i + 0.5 && v[i].d[1] == -i && v[i].c == 'a' + i,
                  "MPI_PACKED -> typed: element %d", i);
        MPI_Get_count(&st, tb, &n);
        CHECK(n == 4, "get_count of the packed message as the struct: %d", n);
        MPI_Get_elements(&st, tb, &n);
        CHECK(n == 16, "get_elements: %d", n);
        free(pk);
    }
    MPI_Type_free(&tb);
    MPI_Type_free(&tc);
    /* MPI_BYTE: bytes sent contiguous, received through a strided byte type */
    MPI_Datatype bv;
    MPI_Type_vector(50, 3, 7, MPI_BYTE, &bv);
    commit(&bv);
    xfer("bytes -> vector of bytes", MPI_BYTE, 300, bv, 2);
    xfer("vector of bytes -> bytes", bv, 2, MPI_BYTE, 300);
    MPI_Type_free(&bv);
    /* the pair types and their components */
    MPI_Datatype di2;
    MPI_Type_contiguous(5, MPI_DOUBLE_INT, &di2);
    commit(&di2);
    xfer("MPI_DOUBLE_INT x 5", di2, 2, MPI_DOUBLE_INT, 10);
    MPI_Type_free(&di2);
    xfer("MPI_SHORT_INT", MPI_SHORT_INT, 33, MPI_SHORT_INT, 33);
}

static void bottom(void)
{
    static int x[3];
    static double y;
    static short z[2];
    MPI_Aint ds[3];
    MPI_Get_address(&x[1], &ds[0]);
    MPI_Get_address(&y, &ds[1]);
    MPI_Get_address(&z[0], &ds[2]);
    int bl[3] = {2, 1, 2};
    MPI_Datatype ts[3] = {MPI_INT, MPI_DOUBLE, MPI_SHORT}, t;
    MPI_Type_create_struct(3, bl, ds, ts, &t);
    commit(&t);
    if (rank == 0) {
        x[1] = 5;
        x[2] = 6;
        y = 7.5;
        z[0] = 8;
        z[1] = 9;
        CHECK_OK(MPI_Send(MPI_BOTTOM, 1, t, 1, 950, MPI_COMM_WORLD));
    } else if (rank == 1) {
        CHECK_OK(MPI_Recv(MPI_BOTTOM, 1, t, 0, 950, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(x[0] == 0 && x[1] == 5 && x[2] == 6 && y == 7.5 && z[0] == 8 && z[1] == 9,
              "MPI_BOTTOM receive: %d %d %d %g %d %d", x[0], x[1], x[2], y, z[0], z[1]);
    }
    MPI_Type_free(&t);
}

static void large(void)
{
    /* 1 double every 2, blocks of 64 doubles, an indexed type, a 3-D face: MBs each */
    MPI_Datatype v1, v64, ix, face;
    const int n = 1 << 20;
    MPI_Type_vector(n, 1, 2, MPI_DOUBLE, &v1);
    commit(&v1);
    xfer("1M doubles, every other one -> contiguous", v1, 1, MPI_DOUBLE, n);
    xfer("contiguous -> 1M doubles, every other one", MPI_DOUBLE, n, v1, 1);
    MPI_Type_vector(n / 64, 64, 80, MPI_DOUBLE, &v64);
    commit(&v64);
    xfer("blocks of 64 doubles -> 1 of 2", v64, 1, v1, 1);
    enum { NB = 20000 };
    int *bl = malloc(NB * sizeof *bl), *ds = malloc(NB * sizeof *ds), at = 0, tot = 0;
    for (int i = 0; i < NB; i++) {
        bl[i] = 1 + (i * 7) % 13;
        ds[i] = at;
        at += bl[i] + 1 + i % 3;
        tot += bl[i];
    }
    MPI_Type_indexed(NB, bl, ds, MPI_DOUBLE, &ix);
    commit(&ix);
    xfer("indexed 20000 blocks -> contiguous", ix, 1, MPI_DOUBLE, tot);
    xfer("contiguous -> indexed", MPI_DOUBLE, tot, ix, 1);
    free(bl);
    free(ds);
    int sz[3] = {128, 128, 128}, sub[3] = {128, 128, 1}, st[3] = {0, 0, 127};
    MPI_Type_create_subarray(3, sz, sub, st, MPI_ORDER_C, MPI_DOUBLE, &face);
    commit(&face);
    xfer("3-D face x = 127 -> contiguous", face, 1, MPI_DOUBLE, 128 * 128);
    MPI_Type_free(&v1);
    MPI_Type_free(&v64);
    MPI_Type_free(&ix);
    MPI_Type_free(&face);
}

static void partial(void)
{
    MPI_Datatype s, c4;
    int bl[2] = {1, 2};
    MPI_Aint ds[2] = {0, 8};
    MPI_Datatype ts[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Type_create_struct(2, bl, ds, ts, &s); /* int + 2 doubles: 20 bytes, 3 elements */
    commit(&s);
    MPI_Type_contiguous(4, MPI_INT, &c4);
    commit(&c4);
    MPI_Aint lb, ext;
    MPI_Type_get_extent(s, &lb, &ext);
    char *buf = calloc(10, (size_t)ext);
    int ints[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    if (rank == 0) {
        CHECK_OK(MPI_Send(buf, 5, s, 1, 960, MPI_COMM_WORLD));
        CHECK_OK(MPI_Send(ints, 10, MPI_INT, 1, 961, MPI_COMM_WORLD));
        CHECK_OK(MPI_Send(buf, 2, s, 1, 962, MPI_COMM_WORLD));
    } else if (rank == 1) {
        MPI_Status st;
        int c, e;
        CHECK_OK(MPI_Recv(buf, 10, s, 0, 960, MPI_COMM_WORLD, &st));
        MPI_Get_count(&st, s, &c);
        MPI_Get_elements(&st, s, &e);
        CHECK(c == 5 && e == 15, "5 of 10 structs: count %d elements %d", c, e);
        int r[12] = {0};
        CHECK_OK(MPI_Recv(r, 3, c4, 0, 961, MPI_COMM_WORLD, &st));
        MPI_Get_count(&st, c4, &c);
        MPI_Get_elements(&st, c4, &e);
        CHECK(c == MPI_UNDEFINED && e == 10, "10 ints as blocks of 4: count %d elements %d", c, e);
        CHECK(r[9] == 10 && r[10] == 0, "partial receive wrote %d %d", r[9], r[10]);
        /* 2 structs received as ints and doubles: 40 bytes */
        MPI_Datatype mix;
        int mbl[4] = {1, 2, 1, 2};
        MPI_Aint mds[4] = {0, 8, 24, 32};
        MPI_Datatype mts[4] = {MPI_INT, MPI_DOUBLE, MPI_INT, MPI_DOUBLE};
        MPI_Type_create_struct(4, mbl, mds, mts, &mix);
        commit(&mix);
        char big[128];
        CHECK_OK(MPI_Recv(big, 1, mix, 0, 962, MPI_COMM_WORLD, &st));
        MPI_Get_elements(&st, mix, &e);
        CHECK(e == 6, "2 structs as one mixed type: %d elements", e);
        MPI_Type_free(&mix);
    }
    free(buf);
    MPI_Type_free(&s);
    MPI_Type_free(&c4);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= 2, "needs 2 ranks");
    every_constructor();
    same_signature();
    bottom();
    partial();
    large();
    if (rank == 0)
        printf("dt_sendrecv: ok\n");
    MPI_Finalize();
    return 0;
}
