/*
 * dt_contents.c: MPI_Type_get_envelope / MPI_Type_get_contents for every
 * combiner, as the standard's decoding rules say: the combiner and counts,
 * the exact arguments of the constructor call, and a round trip (the type
 * rebuilt from its contents packs exactly like the original). Also the
 * F90 parameterized types and MPI_Type_match_size, the references
 * returned for derived types (usable after the original handle is freed,
 * freed by the caller), and the errors (named types, arrays too small).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define BUF 8192
static unsigned char pattern[BUF];

static int is_named(MPI_Datatype t)
{
    int ni, na, nd, c;
    MPI_Type_get_envelope(t, &ni, &na, &nd, &c);
    return c == MPI_COMBINER_NAMED;
}

/* Build a type from a combiner and arguments (what get_contents gave). */
static MPI_Datatype rebuild(int comb, const int *I, const MPI_Aint *A, const MPI_Datatype *T)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    switch (comb) {
    case MPI_COMBINER_DUP: CHECK_OK(MPI_Type_dup(T[0], &t)); break;
    case MPI_COMBINER_CONTIGUOUS: CHECK_OK(MPI_Type_contiguous(I[0], T[0], &t)); break;
    case MPI_COMBINER_VECTOR: CHECK_OK(MPI_Type_vector(I[0], I[1], I[2], T[0], &t)); break;
    case MPI_COMBINER_HVECTOR: CHECK_OK(MPI_Type_create_hvector(I[0], I[1], A[0], T[0], &t)); break;
    case MPI_COMBINER_INDEXED: CHECK_OK(MPI_Type_indexed(I[0], I + 1, I + 1 + I[0], T[0], &t)); break;
    case MPI_COMBINER_HINDEXED: CHECK_OK(MPI_Type_create_hindexed(I[0], I + 1, A, T[0], &t)); break;
    case MPI_COMBINER_INDEXED_BLOCK:
        CHECK_OK(MPI_Type_create_indexed_block(I[0], I[1], I + 2, T[0], &t));
        break;
    case MPI_COMBINER_HINDEXED_BLOCK:
        CHECK_OK(MPI_Type_create_hindexed_block(I[0], I[1], A, T[0], &t));
        break;
    case MPI_COMBINER_STRUCT: CHECK_OK(MPI_Type_create_struct(I[0], I + 1, A, T, &t)); break;
    case MPI_COMBINER_SUBARRAY: {
        int n = I[0];
        CHECK_OK(MPI_Type_create_subarray(n, I + 1, I + 1 + n, I + 1 + 2 * n, I[1 + 3 * n], T[0], &t));
        break;
    }
    case MPI_COMBINER_DARRAY: {
        int n = I[2];
        CHECK_OK(MPI_Type_create_darray(I[0], I[1], n, I + 3, I + 3 + n, I + 3 + 2 * n, I + 3 + 3 * n,
                                        I[3 + 4 * n], T[0], &t));
        break;
    }
    case MPI_COMBINER_RESIZED: CHECK_OK(MPI_Type_create_resized(T[0], A[0], A[1], &t)); break;
    case MPI_COMBINER_F90_REAL: CHECK_OK(MPI_Type_create_f90_real(I[0], I[1], &t)); break;
    case MPI_COMBINER_F90_COMPLEX: CHECK_OK(MPI_Type_create_f90_complex(I[0], I[1], &t)); break;
    case MPI_COMBINER_F90_INTEGER: CHECK_OK(MPI_Type_create_f90_integer(I[0], &t)); break;
    default: CHECK(0, "unexpected combiner %d", comb);
    }
    return t;
}

/* pack count elements of t from the middle of the pattern */
static int pack(MPI_Datatype t, int count, unsigned char *out, int outsize)
{
    int pos = 0;
    CHECK_OK(MPI_Pack(pattern + BUF / 2, count, t, out, outsize, &pos, MPI_COMM_WORLD));
    return pos;
}

/* Check the envelope, the contents against the arguments given, and the
 * round trip. Frees t. */
static void check(const char *what, MPI_Datatype t, int comb, int ni, const int *I, int na, const MPI_Aint *A,
                  int nd, const MPI_Datatype *T)
{
    int eni, ena, end, ec;
    CHECK_OK(MPI_Type_get_envelope(t, &eni, &ena, &end, &ec));
    CHECK(ec == comb, "%s: combiner %d, expected %d", what, ec, comb);
    CHECK(eni == ni && ena == na && end == nd, "%s: envelope (%d, %d, %d), expected (%d, %d, %d)", what, eni, ena,
          end, ni, na, nd);
    int *gi = malloc((size_t)(ni + 1) * sizeof *gi);
    MPI_Aint *ga = malloc((size_t)(na + 1) * sizeof *ga);
    MPI_Datatype *gt = malloc((size_t)(nd + 1) * sizeof *gt);
    CHECK_OK(MPI_Type_get_contents(t, ni, na, nd, gi, ga, gt));
    for (int i = 0; i < ni; i++)
        CHECK(gi[i] == I[i], "%s: integer %d is %d, expected %d", what, i, gi[i], I[i]);
    for (int i = 0; i < na; i++)
        CHECK(ga[i] == A[i], "%s: address %d is %ld, expected %ld", what, i, (long)ga[i], (long)A[i]);
    for (int i = 0; i < nd; i++) {
        if (is_named(T[i]))
            CHECK(gt[i] == T[i], "%s: datatype %d is not the predefined type given", what, i);
        else
            CHECK(gt[i] != MPI_DATATYPE_NULL, "%s: datatype %d is null", what, i);
    }
    MPI_Datatype r = rebuild(ec, gi, ga, gt);
    MPI_Type_commit(&t);
    MPI_Type_commit(&r);
    int s1, s2;
    MPI_Aint lb1, lb2, e1, e2, tl1, tl2, te1, te2;
    MPI_Type_size(t, &s1);
    MPI_Type_size(r, &s2);
    MPI_Type_get_extent(t, &lb1, &e1);
    MPI_Type_get_extent(r, &lb2, &e2);
    MPI_Type_get_true_extent(t, &tl1, &te1);
    MPI_Type_get_true_extent(r, &tl2, &te2);
    CHECK(s1 == s2 && lb1 == lb2 && e1 == e2 && tl1 == tl2 && te1 == te2, "%s: the rebuilt type differs", what);
    if (te1 < BUF / 4 && tl1 > -BUF / 4 && 2 * e1 < BUF / 4) {
        static unsigned char o1[BUF * 2], o2[BUF * 2];
        int p1 = pack(t, 2, o1, sizeof o1), p2 = pack(r, 2, o2, sizeof o2);
        CHECK(p1 == p2 && memcmp(o1, o2, (size_t)p1) == 0, "%s: the rebuilt type packs differently", what);
    }
    for (int i = 0; i < nd; i++)
        if (!is_named(gt[i]))
            CHECK_OK(MPI_Type_free(&gt[i]));
    if (!is_named(r) && ec != MPI_COMBINER_F90_REAL && ec != MPI_COMBINER_F90_COMPLEX &&
        ec != MPI_COMBINER_F90_INTEGER) {
        CHECK_OK(MPI_Type_free(&r));
        CHECK_OK(MPI_Type_free(&t));
    } else {
        CHECK(r == t, "%s: the same F90 arguments give another handle", what);
    }
    free(gi);
    free(ga);
    free(gt);
}

static void every_combiner(void)
{
    MPI_Datatype t, v, s;
    MPI_Type_vector(3, 2, 4, MPI_INT, &v);

    MPI_Type_dup(v, &t);
    check("dup", t, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1, (MPI_Datatype[]){v});

    MPI_Type_contiguous(5, MPI_SHORT, &t);
    check("contiguous", t, MPI_COMBINER_CONTIGUOUS, 1, (int[]){5}, 0, NULL, 1, (MPI_Datatype[]){MPI_SHORT});

    MPI_Type_vector(3, 2, -4, v, &t);
    check("vector", t, MPI_COMBINER_VECTOR, 3, (int[]){3, 2, -4}, 0, NULL, 1, (MPI_Datatype[]){v});

    MPI_Type_create_hvector(4, 1, 24, MPI_DOUBLE, &t);
    check("create_hvector", t, MPI_COMBINER_HVECTOR, 2, (int[]){4, 1}, 1, (MPI_Aint[]){24}, 1,
          (MPI_Datatype[]){MPI_DOUBLE});
    MPI_Type_hvector(4, 2, -40, v, &t);
    check("MPI_Type_hvector", t, MPI_COMBINER_HVECTOR, 2, (int[]){4, 2}, 1, (MPI_Aint[]){-40}, 1,
          (MPI_Datatype[]){v});

    int bl[3] = {2, 0, 3}, ds[3] = {7, 1, -2};
    MPI_Type_indexed(3, bl, ds, MPI_FLOAT, &t);
    check("indexed", t, MPI_COMBINER_INDEXED, 7, (int[]){3, 2, 0, 3, 7, 1, -2}, 0, NULL, 1,
          (MPI_Datatype[]){MPI_FLOAT});

    MPI_Aint hd[3] = {16, -8, 100};
    MPI_Type_create_hindexed(3, bl, hd, v, &t);
    check("create_hindexed", t, MPI_COMBINER_HINDEXED, 4, (int[]){3, 2, 0, 3}, 3, hd, 1, (MPI_Datatype[]){v});
    MPI_Type_hindexed(3, bl, hd, MPI_CHAR, &t);
    check("MPI_Type_hindexed", t, MPI_COMBINER_HINDEXED, 4, (int[]){3, 2, 0, 3}, 3, hd, 1,
          (MPI_Datatype[]){MPI_CHAR});

    MPI_Type_create_indexed_block(3, 2, ds, MPI_INT, &t);
    check("indexed_block", t, MPI_COMBINER_INDEXED_BLOCK, 5, (int[]){3, 2, 7, 1, -2}, 0, NULL, 1,
          (MPI_Datatype[]){MPI_INT});

    MPI_Type_create_hindexed_block(3, 2, hd, v, &t);
    check("hindexed_block", t, MPI_COMBINER_HINDEXED_BLOCK, 2, (int[]){3, 2}, 3, hd, 1, (MPI_Datatype[]){v});

    MPI_Datatype st[3] = {MPI_INT, v, MPI_DOUBLE_INT};
    MPI_Aint sd[3] = {0, 16, 200};
    MPI_Type_create_struct(3, bl, sd, st, &s);
    MPI_Type_dup(s, &t);
    check("create_struct", s, MPI_COMBINER_STRUCT, 4, (int[]){3, 2, 0, 3}, 3, sd, 3, st);
    MPI_Datatype mt[3] = {MPI_LB, MPI_SHORT, MPI_UB};
    MPI_Aint md[3] = {-4, 0, 12};
    int mb[3] = {1, 3, 1};
    MPI_Type_struct(3, mb, md, mt, &s);
    check("MPI_Type_struct", s, MPI_COMBINER_STRUCT, 4, (int[]){3, 1, 3, 1}, 3, md, 3, mt);
    MPI_Type_free(&t);

    int sz[3] = {5, 6, 7}, sub[3] = {2, 3, 4}, stt[3] = {1, 0, 3};
    MPI_Type_create_subarray(3, sz, sub, stt, MPI_ORDER_FORTRAN, MPI_DOUBLE, &t);
    check("subarray", t, MPI_COMBINER_SUBARRAY, 11, (int[]){3, 5, 6, 7, 2, 3, 4, 1, 0, 3, MPI_ORDER_FORTRAN}, 0,
          NULL, 1, (MPI_Datatype[]){MPI_DOUBLE});

    int gs[2] = {8, 9}, di[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK}, da[2] = {2, MPI_DISTRIBUTE_DFLT_DARG};
    int ps[2] = {2, 3};
    MPI_Type_create_darray(6, 4, 2, gs, di, da, ps, MPI_ORDER_C, v, &t);
    check("darray", t, MPI_COMBINER_DARRAY, 12,
          (int[]){6, 4, 2, 8, 9, MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK, 2, MPI_DISTRIBUTE_DFLT_DARG, 2, 3,
                  MPI_ORDER_C},
          0, NULL, 1, (MPI_Datatype[]){v});

    MPI_Type_create_resized(v, -8, 100, &t);
    check("resized", t, MPI_COMBINER_RESIZED, 0, NULL, 2, (MPI_Aint[]){-8, 100}, 1, (MPI_Datatype[]){v});

    MPI_Type_create_f90_real(10, 100, &t);
    check("f90_real", t, MPI_COMBINER_F90_REAL, 2, (int[]){10, 100}, 0, NULL, 0, NULL);
    MPI_Type_create_f90_complex(5, MPI_UNDEFINED, &t);
    check("f90_complex", t, MPI_COMBINER_F90_COMPLEX, 2, (int[]){5, MPI_UNDEFINED}, 0, NULL, 0, NULL);
    MPI_Type_create_f90_integer(9, &t);
    check("f90_integer", t, MPI_COMBINER_F90_INTEGER, 1, (int[]){9}, 0, NULL, 0, NULL);
    MPI_Type_free(&v);
}

static void named(void)
{
    MPI_Datatype named_types[] = {MPI_INT, MPI_DOUBLE_INT, MPI_LB, MPI_PACKED, MPI_INTEGER, MPI_2INTEGER};
    for (size_t i = 0; i < sizeof named_types / sizeof named_types[0]; i++) {
        int ni = -1, na = -1, nd = -1, c = -1;
        CHECK_OK(MPI_Type_get_envelope(named_types[i], &ni, &na, &nd, &c));
        CHECK(c == MPI_COMBINER_NAMED && ni == 0 && na == 0 && nd == 0, "named type %zu: envelope", i);
        int I[1];
        MPI_Aint A[1];
        MPI_Datatype T[1];
        CHECK_ERR(MPI_Type_get_contents(named_types[i], 1, 1, 1, I, A, T), MPI_ERR_TYPE);
    }
}

static void references(void)
{
    /* the type returned for a derived component outlives the user's handle */
    MPI_Datatype v, c, got;
    MPI_Type_vector(2, 1, 3, MPI_INT, &v);
    MPI_Type_contiguous(2, v, &c);
    MPI_Type_free(&v);
    int I[1];
    CHECK_OK(MPI_Type_get_contents(c, 1, 0, 1, I, NULL, &got));
    int ni, na, nd, comb;
    CHECK_OK(MPI_Type_get_envelope(got, &ni, &na, &nd, &comb));
    CHECK(comb == MPI_COMBINER_VECTOR && ni == 3, "decoded component: combiner %d", comb);
    int size;
    CHECK_OK(MPI_Type_size(got, &size));
    CHECK(size == 8, "decoded component size %d", size);
    CHECK_OK(MPI_Type_free(&got));
    CHECK(got == MPI_DATATYPE_NULL, "MPI_Type_free did not set MPI_DATATYPE_NULL");
    MPI_Type_commit(&c);
    int pos = 0, buf[16];
    CHECK_OK(MPI_Pack(pattern, 1, c, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    CHECK(pos == 16, "packed %d", pos);
    MPI_Type_free(&c);
}

static void too_small(void)
{
    MPI_Datatype t, T[2];
    int bl[2] = {1, 1}, I[3];
    MPI_Aint ds[2] = {0, 8}, A[2];
    MPI_Datatype ts[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Type_create_struct(2, bl, ds, ts, &t);
    CHECK_ERR(MPI_Type_get_contents(t, 2, 2, 2, I, A, T), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_contents(t, 3, 1, 2, I, A, T), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_contents(t, 3, 2, 1, I, A, T), MPI_ERR_ARG);
    CHECK_OK(MPI_Type_get_contents(t, 3, 2, 2, I, A, T));
    MPI_Type_free(&t);
}

static void f90(void)
{
    MPI_Datatype t, u;
    int size;
    CHECK_OK(MPI_Type_create_f90_real(6, 30, &t));
    MPI_Type_size(t, &size);
    CHECK(size == 4, "f90_real(6, 30) has size %d", size);
    CHECK_OK(MPI_Type_create_f90_real(15, MPI_UNDEFINED, &t));
    MPI_Type_size(t, &size);
    CHECK(size == 8, "f90_real(15) has size %d", size);
    CHECK_OK(MPI_Type_create_f90_complex(6, MPI_UNDEFINED, &t));
    MPI_Type_size(t, &size);
    CHECK(size == 8, "f90_complex(6) has size %d", size);
    CHECK_OK(MPI_Type_create_f90_integer(4, &t));
    MPI_Type_size(t, &size);
    CHECK(size == 2, "f90_integer(4) has size %d", size);
    CHECK_OK(MPI_Type_create_f90_integer(15, &u));
    MPI_Type_size(u, &size);
    CHECK(size == 8, "f90_integer(15) has size %d", size);
    CHECK_ERR(MPI_Type_free(&u), MPI_ERR_TYPE); /* predefined: cannot be freed */
    CHECK_ERR(MPI_Type_create_f90_real(MPI_UNDEFINED, MPI_UNDEFINED, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_f90_real(1000, 10, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_f90_integer(100, &t), MPI_ERR_ARG);
    /* usable for communication-like operations */
    CHECK_OK(MPI_Type_create_f90_real(15, 300, &t));
    double d = 2.5, e = 0;
    int pos = 0;
    char buf[8];
    CHECK_OK(MPI_Pack(&d, 1, t, buf, 8, &pos, MPI_COMM_WORLD));
    pos = 0;
    CHECK_OK(MPI_Unpack(buf, 8, &pos, &e, 1, t, MPI_COMM_WORLD));
    CHECK(e == 2.5, "f90 real round trip");

    CHECK_OK(MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &t));
    CHECK(t == MPI_REAL8, "match_size(REAL, 8)");
    CHECK_OK(MPI_Type_match_size(MPI_TYPECLASS_REAL, 4, &t));
    CHECK(t == MPI_REAL4, "match_size(REAL, 4)");
    CHECK_OK(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 2, &t));
    CHECK(t == MPI_INTEGER2, "match_size(INTEGER, 2)");
    CHECK_OK(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 8, &t));
    CHECK(t == MPI_INTEGER8, "match_size(INTEGER, 8)");
    CHECK_OK(MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 16, &t));
    CHECK(t == MPI_COMPLEX16, "match_size(COMPLEX, 16)");
    CHECK_ERR(MPI_Type_match_size(MPI_TYPECLASS_REAL, 3, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_match_size(99, 4, &t), MPI_ERR_ARG);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int i = 0; i < BUF; i++)
        pattern[i] = (unsigned char)(i * 31 + 7);
    every_combiner();
    named();
    references();
    too_small();
    f90();
    printf("dt_contents: ok\n");
    MPI_Finalize();
    return 0;
}
