/*
 * dt_large_count.c: the MPI-4.0 large-count datatype functions. Every _c
 * constructor builds the same type as its int twin (size, bounds, true
 * bounds, the packed bytes of a buffer) and decodes through
 * MPI_Type_get_envelope_c/get_contents_c into its large counts, which the
 * int decoders refuse (MPI_ERR_TYPE); the int inquiries of a type larger
 * than an int say MPI_UNDEFINED where the _c ones give the size. Types of
 * more than 2^31 elements need no memory: their size, extent, pack size
 * and external32 size are checked, and a vector whose stride reaches past
 * 2^31 bytes packs and unpacks through a sparse mapping.
 */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "testutil.h"

#define BUF 4096
static unsigned char src[BUF];

/* The two types are the same: size, bounds, and the bytes they pack from src. */
static void same_type(MPI_Datatype a, MPI_Datatype b, const char *what)
{
    MPI_Count sa, sb, lba, lbb, ea, eb, tla, tlb, tea, teb;
    CHECK_OK(MPI_Type_size_c(a, &sa));
    CHECK_OK(MPI_Type_size_x(b, &sb));
    CHECK(sa == sb, "%s: size %lld vs %lld", what, sa, sb);
    CHECK_OK(MPI_Type_get_extent_c(a, &lba, &ea));
    CHECK_OK(MPI_Type_get_extent_x(b, &lbb, &eb));
    CHECK(lba == lbb && ea == eb, "%s: lb/extent %lld/%lld vs %lld/%lld", what, lba, ea, lbb, eb);
    CHECK_OK(MPI_Type_get_true_extent_c(a, &tla, &tea));
    CHECK_OK(MPI_Type_get_true_extent_x(b, &tlb, &teb));
    CHECK(tla == tlb && tea == teb, "%s: true lb/extent differ", what);
    CHECK_OK(MPI_Type_commit(&a));
    CHECK_OK(MPI_Type_commit(&b));
    unsigned char pa[BUF], pb[BUF];
    MPI_Count posa = 0;
    int posb = 0;
    CHECK(sa <= BUF, "%s: test type too large", what);
    CHECK_OK(MPI_Pack_c(src, 1, a, pa, BUF, &posa, MPI_COMM_WORLD));
    CHECK_OK(MPI_Pack(src, 1, b, pb, BUF, &posb, MPI_COMM_WORLD));
    CHECK(posa == posb && memcmp(pa, pb, (size_t)posb) == 0, "%s: packed bytes differ", what);
    /* unpack through the _c form gives back what the int form unpacks */
    unsigned char ua[BUF], ub[BUF];
    memset(ua, 0, BUF);
    memset(ub, 0, BUF);
    posa = 0;
    posb = 0;
    CHECK_OK(MPI_Unpack_c(pa, BUF, &posa, ua, 1, a, MPI_COMM_WORLD));
    CHECK_OK(MPI_Unpack(pb, BUF, &posb, ub, 1, b, MPI_COMM_WORLD));
    CHECK(posa == posb && memcmp(ua, ub, BUF) == 0, "%s: unpacked bytes differ", what);
}

/* The envelope of a large-count type: its large counts (and the int
 * decoders refuse it). */
static void check_contents(MPI_Datatype t, int combiner, MPI_Count ni, MPI_Count nc, MPI_Count nd,
                           const MPI_Count *counts, const char *what)
{
    MPI_Count gi, ga, gc, gd;
    int comb;
    CHECK_OK(MPI_Type_get_envelope_c(t, &gi, &ga, &gc, &gd, &comb));
    CHECK(comb == combiner && gi == ni && ga == 0 && gc == nc && gd == nd,
          "%s: envelope %d %lld %lld %lld %lld, expected %d %lld 0 %lld %lld", what, comb, gi, ga, gc, gd, combiner,
          ni, nc, nd);
    int ints[16];
    MPI_Aint addrs[1];
    MPI_Count got[32];
    MPI_Datatype types[4];
    CHECK(nc <= 32 && ni <= 16 && nd <= 4, "%s: test arrays too small", what);
    CHECK_OK(MPI_Type_get_contents_c(t, 16, 1, 32, 4, ints, addrs, got, types));
    for (MPI_Count i = 0; i < nc; i++)
        CHECK(got[i] == counts[i], "%s: large count %lld is %lld, expected %lld", what, i, got[i], counts[i]);
    for (MPI_Count i = 0; i < nd; i++) {
        int ci, na_, ni_, nd_;
        MPI_Type_get_envelope(types[i], &ni_, &na_, &nd_, &ci);
        if (ci != MPI_COMBINER_NAMED)
            MPI_Type_free(&types[i]);
    }
    /* the int forms cannot say these arguments */
    int a1, a2, a3, a4;
    CHECK_ERR(MPI_Type_get_envelope(t, &a1, &a2, &a3, &a4), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_contents(t, 16, 1, 4, ints, addrs, types), MPI_ERR_TYPE);
    /* too small an array for the large counts */
    if (nc > 0)
        CHECK_ERR(MPI_Type_get_contents_c(t, 16, 1, nc - 1, 4, ints, addrs, got, types), MPI_ERR_ARG);
}

static void small_counts(void)
{
    MPI_Datatype a, b;
    /* contiguous */
    CHECK_OK(MPI_Type_contiguous_c(5, MPI_INT, &a));
    CHECK_OK(MPI_Type_contiguous(5, MPI_INT, &b));
    MPI_Count c1[] = {5};
    check_contents(a, MPI_COMBINER_CONTIGUOUS, 0, 1, 1, c1, "contiguous_c");
    same_type(a, b, "contiguous_c");
    MPI_Type_free(&a);
    MPI_Type_free(&b);
    /* vector, hvector */
    CHECK_OK(MPI_Type_vector_c(3, 2, 5, MPI_SHORT, &a));
    CHECK_OK(MPI_Type_vector(3, 2, 5, MPI_SHORT, &b));
    MPI_Count c3[] = {3, 2, 5};
    check_contents(a, MPI_COMBINER_VECTOR, 0, 3, 1, c3, "vector_c");
    same_type(a, b, "vector_c");
    MPI_Type_free(&a);
    MPI_Type_free(&b);
    CHECK_OK(MPI_Type_create_hvector_c(3, 2, 17, MPI_SHORT, &a));
    CHECK_OK(MPI_Type_create_hvector(3, 2, 17, MPI_SHORT, &b));
    MPI_Count c3h[] = {3, 2, 17};
    check_contents(a, MPI_COMBINER_HVECTOR, 0, 3, 1, c3h, "hvector_c");
    same_type(a, b, "hvector_c");
    MPI_Type_free(&a);
    MPI_Type_free(&b);
    /* indexed, hindexed */
    MPI_Count bl[] = {2, 0, 3}, dl[] = {7, 1, 0};
    int ibl[] = {2, 0, 3}, idl[] = {7, 1, 0};
    CHECK_OK(MPI_Type_indexed_c(3, bl, dl, MPI_DOUBLE, &a));
    CHECK_OK(MPI_Type_indexed(3, ibl, idl, MPI_DOUBLE, &b));
    MPI_Count ci[] = {3, 2, 0, 3, 7, 1, 0};
    check_contents(a, MPI_COMBINER_INDEXED, 0, 7, 1, ci, "indexed_c");
    same_type(a, b, "indexed_c");
    MPI_Type_free(&a);
    MPI_Type_free(&b);
    MPI_Count hd[] = {40, 3, 0};
    MPI_Aint ihd[] = {40, 3, 0};
    CHECK_OK(MPI_Type_create_hindexed_c(3, bl, hd, MPI_INT, &a));
    CHECK_OK(MPI_Type_create_hindexed(3, ibl, ihd, MPI_INT, &b));
    MPI_Count chi[] = {3, 2, 0, 3, 40, 3, 0};
    check_contents(a, MPI_COMBINER_HINDEXED, 0, 7, 1, chi, "hindexed_c");
    same_type(a, b, "hindexed_c");
    MPI_Type_free(&a);
    MPI_Type_free(&b);
    /* indexed_block, hindexed_block */
    CHECK_OK(MPI_Type_create_indexed_block_c(3, 2, dl, MPI_INT, &a));
    CHECK_OK(MPI_Type_create_indexed_block(3, 2, idl, MPI_INT, &b));
    MPI_Count cib[] = {3, 2, 7, 1, 0};
    check_contents(a, MPI_COMBINER_INDEXED_BLOCK, 0, 5, 1, cib, "indexed_block_c");
    same_type(a, b, "indexed_block_c");
    MPI_Type_free(&a);
    MPI_Type_free(&b);
    CHECK_OK(MPI_Type_create_hindexed_block_c(3, 2, hd, MPI_SHORT, &a));
    CHECK_OK(MPI_Type_create_hindexed_block(3, 2, ihd, MPI_SHORT, &b));
    MPI_Count chb[] = {3, 2, 40, 3, 0};
    check_contents(a, MPI_COMBINER_HINDEXED_BLOCK, 0, 5, 1, chb, "hindexed_block_c");
    same_type(a, b, "hindexed_block_c");
    MPI_Type_free(&a);
    MPI_Type_free(&b);
    /* struct */
    MPI_Datatype ts[] = {MPI_CHAR, MPI_DOUBLE, MPI_INT};
    CHECK_OK(MPI_Type_create_struct_c(3, bl, hd, ts, &a));
    CHECK_OK(MPI_Type_create_struct(3, ibl, ihd, ts, &b));
    check_contents(a, MPI_COMBINER_STRUCT, 0, 7, 3, chi, "struct_c");
    same_type(a, b, "struct_c");
    MPI_Type_free(&a);
    MPI_Type_free(&b);
    /* resized */
    CHECK_OK(MPI_Type_create_resized_c(MPI_INT, -4, 20, &a));
    CHECK_OK(MPI_Type_create_resized(MPI_INT, -4, 20, &b));
    MPI_Count cr[] = {-4, 20};
    check_contents(a, MPI_COMBINER_RESIZED, 0, 2, 1, cr, "resized_c");
    same_type(a, b, "resized_c");
    MPI_Type_free(&a);
    MPI_Type_free(&b);
    /* subarray: ints ndims and order, large counts sizes, subsizes, starts */
    MPI_Count sz[] = {6, 8}, sub[] = {2, 3}, st[] = {1, 4};
    int isz[] = {6, 8}, isub[] = {2, 3}, ist[] = {1, 4};
    CHECK_OK(MPI_Type_create_subarray_c(2, sz, sub, st, MPI_ORDER_C, MPI_SHORT, &a));
    CHECK_OK(MPI_Type_create_subarray(2, isz, isub, ist, MPI_ORDER_C, MPI_SHORT, &b));
    MPI_Count csa[] = {6, 8, 2, 3, 1, 4};
    check_contents(a, MPI_COMBINER_SUBARRAY, 2, 6, 1, csa, "subarray_c");
    same_type(a, b, "subarray_c");
    MPI_Type_free(&a);
    MPI_Type_free(&b);
    /* darray: the global sizes are the large counts */
    MPI_Count gs[] = {9, 10};
    int igs[] = {9, 10}, dist[] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC}, darg[] = {MPI_DISTRIBUTE_DFLT_DARG, 2},
        ps[] = {2, 2};
    CHECK_OK(MPI_Type_create_darray_c(4, 3, 2, gs, dist, darg, ps, MPI_ORDER_FORTRAN, MPI_CHAR, &a));
    CHECK_OK(MPI_Type_create_darray(4, 3, 2, igs, dist, darg, ps, MPI_ORDER_FORTRAN, MPI_CHAR, &b));
    check_contents(a, MPI_COMBINER_DARRAY, 3 * 2 + 4, 2, 1, gs, "darray_c");
    same_type(a, b, "darray_c");
    MPI_Type_free(&a);
    MPI_Type_free(&b);
    /* an int constructor's type decodes through the _c forms with no large counts */
    CHECK_OK(MPI_Type_vector(3, 2, 5, MPI_SHORT, &b));
    MPI_Count gi, ga, gc, gd;
    int comb;
    CHECK_OK(MPI_Type_get_envelope_c(b, &gi, &ga, &gc, &gd, &comb));
    CHECK(comb == MPI_COMBINER_VECTOR && gi == 3 && ga == 0 && gc == 0 && gd == 1, "vector decoded by _c: %lld %lld %lld",
          gi, gc, gd);
    MPI_Type_free(&b);
    CHECK_OK(MPI_Type_get_envelope_c(MPI_INT, &gi, &ga, &gc, &gd, &comb));
    CHECK(comb == MPI_COMBINER_NAMED && gi + ga + gc + gd == 0, "MPI_INT decoded by _c");
    /* bad arguments */
    CHECK_ERR(MPI_Type_contiguous_c(-1, MPI_INT, &a), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_vector_c(2, -1, 1, MPI_INT, &a), MPI_ERR_ARG);
    MPI_Count negbl[] = {1, -2};
    CHECK_ERR(MPI_Type_indexed_c(2, negbl, dl, MPI_INT, &a), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_contiguous_c(1, MPI_DATATYPE_NULL, &a), MPI_ERR_TYPE);
    /* pack sizes agree with the int forms */
    MPI_Count ps_c;
    int ps_i;
    CHECK_OK(MPI_Pack_size_c(7, MPI_DOUBLE, MPI_COMM_WORLD, &ps_c));
    CHECK_OK(MPI_Pack_size(7, MPI_DOUBLE, MPI_COMM_WORLD, &ps_i));
    CHECK(ps_c == ps_i, "pack size %lld vs %d", ps_c, ps_i);
    MPI_Aint es_i;
    MPI_Count es_c;
    CHECK_OK(MPI_Pack_external_size_c("external32", 7, MPI_LONG_DOUBLE, &es_c));
    CHECK_OK(MPI_Pack_external_size("external32", 7, MPI_LONG_DOUBLE, &es_i));
    CHECK(es_c == es_i, "external32 size %lld vs %ld", es_c, (long)es_i);
    /* external32 round trip through the _c forms equals the int forms */
    int vals[5] = {1, -2, 300000, INT_MAX, INT_MIN}, back[5];
    unsigned char xa[64], xb[64];
    MPI_Count pa = 0;
    MPI_Aint pb = 0;
    CHECK_OK(MPI_Pack_external_c("external32", vals, 5, MPI_INT, xa, 64, &pa));
    CHECK_OK(MPI_Pack_external("external32", vals, 5, MPI_INT, xb, 64, &pb));
    CHECK(pa == pb && memcmp(xa, xb, (size_t)pb) == 0, "external32 bytes differ");
    pa = 0;
    CHECK_OK(MPI_Unpack_external_c("external32", xa, 64, &pa, back, 5, MPI_INT));
    CHECK(pa == 20 && memcmp(back, vals, sizeof vals) == 0, "external32 round trip");
    /* a status: counts and elements as the int forms give them */
    MPI_Status s;
    CHECK_OK(MPI_Status_set_elements(&s, MPI_INT, 6));
    MPI_Count n_c;
    int n_i;
    CHECK_OK(MPI_Get_count_c(&s, MPI_INT, &n_c));
    CHECK(n_c == 6, "get_count_c %lld", n_c);
    CHECK_OK(MPI_Get_count_c(&s, MPI_DOUBLE, &n_c));
    CHECK_OK(MPI_Get_count(&s, MPI_DOUBLE, &n_i));
    CHECK(n_c == 3 && n_i == 3, "24 bytes of doubles: %lld %d", n_c, n_i);
    CHECK_OK(MPI_Type_contiguous(5, MPI_INT, &b));
    CHECK_OK(MPI_Get_count_c(&s, b, &n_c));
    CHECK(n_c == MPI_UNDEFINED, "6 ints are not a whole number of 5-int elements: %lld", n_c);
    CHECK_OK(MPI_Get_elements_c(&s, b, &n_c));
    CHECK(n_c == 6, "get_elements_c %lld", n_c);
    MPI_Type_free(&b);
}

#define BIG (((MPI_Count)1 << 32) + 3) /* elements: more than an int or unsigned int holds */

static void large_types(void)
{
    MPI_Datatype t;
    MPI_Count size, lb, ext;
    int isize;
    /* 2^32 + 3 chars: the size is what the _c forms say, MPI_UNDEFINED in an int */
    CHECK_OK(MPI_Type_contiguous_c(BIG, MPI_CHAR, &t));
    CHECK_OK(MPI_Type_commit(&t));
    CHECK_OK(MPI_Type_size_c(t, &size));
    CHECK(size == BIG, "contiguous_c size %lld", size);
    CHECK_OK(MPI_Type_size(t, &isize));
    CHECK(isize == MPI_UNDEFINED, "MPI_Type_size of a type of %lld bytes gave %d", size, isize);
    CHECK_OK(MPI_Type_get_extent_c(t, &lb, &ext));
    CHECK(lb == 0 && ext == BIG, "contiguous_c extent %lld %lld", lb, ext);
    MPI_Count tlb, text;
    CHECK_OK(MPI_Type_get_true_extent_c(t, &tlb, &text));
    CHECK(tlb == 0 && text == BIG, "contiguous_c true extent %lld %lld", tlb, text);
    MPI_Count ps;
    CHECK_OK(MPI_Pack_size_c(3, t, MPI_COMM_WORLD, &ps));
    CHECK(ps == 3 * BIG, "pack size of 3 of them %lld", ps);
    MPI_Count es;
    CHECK_OK(MPI_Pack_external_size_c("external32", 2, t, &es));
    CHECK(es == 2 * BIG, "external32 size %lld", es);
    /* a status of more than INT_MAX elements: the int forms say MPI_UNDEFINED */
    MPI_Status s;
    CHECK_OK(MPI_Status_set_elements_x(&s, MPI_CHAR, BIG));
    MPI_Count n_c;
    int n_i;
    CHECK_OK(MPI_Get_count_c(&s, MPI_CHAR, &n_c));
    CHECK(n_c == BIG, "get_count_c %lld", n_c);
    CHECK_OK(MPI_Get_count(&s, MPI_CHAR, &n_i));
    CHECK(n_i == MPI_UNDEFINED, "MPI_Get_count of %lld chars gave %d", n_c, n_i);
    CHECK_OK(MPI_Get_elements_c(&s, MPI_CHAR, &n_c));
    CHECK(n_c == BIG, "get_elements_c %lld", n_c);
    CHECK_OK(MPI_Get_elements(&s, MPI_CHAR, &n_i));
    CHECK(n_i == MPI_UNDEFINED, "MPI_Get_elements of %lld chars gave %d", n_c, n_i);
    CHECK_OK(MPI_Get_count_c(&s, t, &n_c));
    CHECK(n_c == 1, "one element of the big type: %lld", n_c);
    MPI_Type_free(&t);

    /* vector_c: 3 blocks of 2^31 + 1 ints, stride 2^32: the counts and the
     * stride are kept whole */
    MPI_Count blk = ((MPI_Count)1 << 31) + 1, stride = (MPI_Count)1 << 32;
    CHECK_OK(MPI_Type_vector_c(3, blk, stride, MPI_INT, &t));
    CHECK_OK(MPI_Type_size_c(t, &size));
    CHECK(size == 3 * blk * 4, "vector_c size %lld", size);
    CHECK_OK(MPI_Type_get_extent_c(t, &lb, &ext));
    CHECK(ext == (2 * stride + blk) * 4, "vector_c extent %lld", ext);
    MPI_Count cv[] = {3, blk, stride};
    check_contents(t, MPI_COMBINER_VECTOR, 0, 3, 1, cv, "big vector_c");
    MPI_Type_free(&t);

    /* hvector_c of 2 chars with a stride of 2^31 + 4096 bytes, through a
     * sparse mapping: its second block lies beyond 2^31 bytes */
    MPI_Count hs = ((MPI_Count)1 << 31) + 4096;
    size_t span = (size_t)hs + 4096;
    char *m = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    CHECK(m != MAP_FAILED, "cannot map %zu bytes", span);
    CHECK_OK(MPI_Type_create_hvector_c(2, 2, hs, MPI_CHAR, &t));
    CHECK_OK(MPI_Type_commit(&t));
    m[0] = 'a';
    m[1] = 'b';
    m[hs] = 'c';
    m[hs + 1] = 'd';
    char packed[4];
    MPI_Count pos = 0;
    CHECK_OK(MPI_Pack_c(m, 1, t, packed, 4, &pos, MPI_COMM_WORLD));
    CHECK(pos == 4 && memcmp(packed, "abcd", 4) == 0, "hvector_c beyond 2^31 bytes packed %.4s", packed);
    packed[2] = 'X';
    pos = 0;
    CHECK_OK(MPI_Unpack_c(packed, 4, &pos, m, 1, t, MPI_COMM_WORLD));
    CHECK(m[hs] == 'X', "hvector_c beyond 2^31 bytes unpacked %c", m[hs]);
    MPI_Type_free(&t);
    munmap(m, span);

    /* struct_c with a block of more than INT_MAX doubles */
    MPI_Count sbl[] = {1, ((MPI_Count)1 << 31) + 7}, sdl[] = {0, 8};
    MPI_Datatype sts[] = {MPI_INT, MPI_DOUBLE};
    CHECK_OK(MPI_Type_create_struct_c(2, sbl, sdl, sts, &t));
    CHECK_OK(MPI_Type_size_c(t, &size));
    CHECK(size == 4 + 8 * sbl[1], "struct_c size %lld", size);
    MPI_Type_free(&t);

    /* resized_c to an extent beyond 2^32 */
    CHECK_OK(MPI_Type_create_resized_c(MPI_INT, 0, (MPI_Count)1 << 33, &t));
    CHECK_OK(MPI_Type_get_extent_c(t, &lb, &ext));
    CHECK(ext == (MPI_Count)1 << 33, "resized_c extent %lld", ext);
    MPI_Type_free(&t);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int i = 0; i < BUF; i++)
        src[i] = (unsigned char)(i * 7 + 1);
    small_counts();
    large_types();
    MPI_Finalize();
    printf("dt_large_count: ok\n");
    return 0;
}
