/*
 * dt_pack.c: MPI_Pack/MPI_Unpack/MPI_Pack_size with every constructor,
 * checked against hand-computed layouts (an int array whose values are
 * their indices: the packed ints must be exactly the listed indices),
 * several packs into one buffer, MPI_BOTTOM with absolute addresses,
 * unpack leaving the holes alone, and MPI_Get_count/MPI_Get_elements on
 * statuses set by MPI_Status_set_elements. Needs no messages.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define N 400
#define BASE 100 /* arrays start here so negative displacements stay inside */

static int src[N];

static void check_layout(const char *what, MPI_Datatype t, int count, const int *want, int nwant)
{
    int size, psize, pos = 0;
    CHECK_OK(MPI_Type_commit(&t));
    CHECK_OK(MPI_Type_size(t, &size));
    CHECK(size * count == nwant * (int)sizeof(int), "%s: size %d x %d, expected %d ints", what, size, count, nwant);
    CHECK_OK(MPI_Pack_size(count, t, MPI_COMM_WORLD, &psize));
    CHECK(psize >= size * count, "%s: MPI_Pack_size %d < %d", what, psize, size * count);
    int *out = malloc((size_t)psize + 4);
    CHECK_OK(MPI_Pack(src + BASE, count, t, out, psize, &pos, MPI_COMM_WORLD));
    CHECK(pos == nwant * (int)sizeof(int), "%s: position %d after pack, expected %d", what, pos,
          nwant * (int)sizeof(int));
    for (int i = 0; i < nwant; i++)
        CHECK(out[i] == want[i] + BASE, "%s: packed int %d is element %d, expected %d", what, i, out[i] - BASE,
              want[i]);
    /* unpack into a zeroed array: the listed places get their index, the rest stays 0 */
    int *dst = calloc(N, sizeof *dst);
    pos = 0;
    CHECK_OK(MPI_Unpack(out, psize, &pos, dst + BASE, count, t, MPI_COMM_WORLD));
    CHECK(pos == nwant * (int)sizeof(int), "%s: position %d after unpack", what, pos);
    char *hit = calloc(N, 1);
    for (int i = 0; i < nwant; i++)
        hit[want[i] + BASE] = 1;
    for (int i = 0; i < N; i++)
        CHECK(dst[i] == (hit[i] ? i : 0), "%s: after unpack element %d is %d", what, i - BASE, dst[i]);
    free(hit);
    free(dst);
    free(out);
    CHECK_OK(MPI_Type_free(&t));
}

#define LAYOUT(what, t, count, ...)                                                  \
    do {                                                                             \
        int w_[] = {__VA_ARGS__};                                                    \
        check_layout(what, t, count, w_, (int)(sizeof w_ / sizeof w_[0]));           \
    } while (0)

static void constructors(void)
{
    MPI_Datatype t, u, v;
    MPI_Type_contiguous(3, MPI_INT, &t);
    LAYOUT("contiguous(3)", t, 2, 0, 1, 2, 3, 4, 5);
    MPI_Type_vector(3, 2, 4, MPI_INT, &t);
    LAYOUT("vector(3, 2, 4)", t, 1, 0, 1, 4, 5, 8, 9);
    MPI_Type_vector(3, 2, 4, MPI_INT, &t); /* extent 10 ints */
    LAYOUT("vector(3, 2, 4) x 2", t, 2, 0, 1, 4, 5, 8, 9, 10, 11, 14, 15, 18, 19);
    MPI_Type_vector(3, 1, -2, MPI_INT, &t);
    LAYOUT("vector(3, 1, -2)", t, 1, 0, -2, -4);
    MPI_Type_create_hvector(2, 3, 28, MPI_INT, &t);
    LAYOUT("hvector(2, 3, 28 bytes)", t, 1, 0, 1, 2, 7, 8, 9);
    MPI_Type_hvector(3, 1, -8, MPI_INT, &t);
    LAYOUT("MPI_Type_hvector(3, 1, -8 bytes)", t, 1, 0, -2, -4);
    int bl[3] = {2, 0, 1}, ds[3] = {5, 1, 0};
    MPI_Type_indexed(3, bl, ds, MPI_INT, &t);
    LAYOUT("indexed({2,0,1}, {5,1,0})", t, 1, 5, 6, 0);
    int bl2[2] = {1, 2};
    MPI_Aint hd[2] = {12, -8};
    MPI_Type_create_hindexed(2, bl2, hd, MPI_INT, &t);
    LAYOUT("hindexed({1,2}, {12,-8} bytes)", t, 1, 3, -2, -1);
    MPI_Type_hindexed(2, bl2, hd, MPI_INT, &t);
    LAYOUT("MPI_Type_hindexed", t, 1, 3, -2, -1);
    int ib[3] = {4, 0, 7};
    MPI_Type_create_indexed_block(3, 2, ib, MPI_INT, &t);
    LAYOUT("indexed_block(2, {4,0,7})", t, 1, 4, 5, 0, 1, 7, 8);
    MPI_Aint hb[2] = {8, 4};
    MPI_Type_create_hindexed_block(2, 1, hb, MPI_INT, &t);
    LAYOUT("hindexed_block(1, {8,4} bytes)", t, 1, 2, 1);
    int sb[2] = {2, 1};
    MPI_Aint sd[2] = {4, 20};
    MPI_Datatype st[2] = {MPI_INT, MPI_INT};
    MPI_Type_create_struct(2, sb, sd, st, &t);
    LAYOUT("struct{2 int@4, int@20}", t, 1, 1, 2, 5);
    MPI_Type_struct(2, sb, sd, st, &t);
    LAYOUT("MPI_Type_struct x 2", t, 2, 1, 2, 5, 6, 7, 10); /* lb 4, ub 24: extent 5 ints */
    MPI_Type_create_resized(MPI_INT, 0, 12, &t);
    LAYOUT("resized(int, 0, 12) x 3", t, 3, 0, 3, 6);
    MPI_Type_vector(2, 1, 3, MPI_INT, &u);
    MPI_Type_dup(u, &t);
    MPI_Type_free(&u);
    LAYOUT("dup(vector(2, 1, 3))", t, 1, 0, 3);
    /* nested: a vector of an indexed type */
    int nb[2] = {1, 2}, nd[2] = {0, 3};
    MPI_Type_indexed(2, nb, nd, MPI_INT, &u); /* 0, 3, 4; extent 5 */
    MPI_Type_vector(2, 2, 3, u, &v);          /* blocks of 2 u at 0 and 15 */
    MPI_Type_free(&u);
    LAYOUT("vector(2, 2, 3, indexed)", v, 1, 0, 3, 4, 5, 8, 9, 15, 18, 19, 20, 23, 24);
    /* MPI_LB / MPI_UB markers make the extent */
    int mb[3] = {1, 1, 1};
    MPI_Aint md[3] = {-4, 4, 16};
    MPI_Datatype mt[3] = {MPI_LB, MPI_INT, MPI_UB};
    MPI_Type_struct(3, mb, md, mt, &t); /* extent 20 bytes = 5 ints */
    LAYOUT("struct{LB@-4, int@4, UB@16} x 3", t, 3, 1, 6, 11);
    /* zero count */
    MPI_Type_contiguous(0, MPI_INT, &t);
    CHECK_OK(MPI_Type_commit(&t));
    int ps, pos = 0;
    CHECK_OK(MPI_Pack_size(5, t, MPI_COMM_WORLD, &ps));
    CHECK(ps == 0, "Pack_size of an empty type: %d", ps);
    CHECK_OK(MPI_Pack(src, 5, t, NULL, 0, &pos, MPI_COMM_WORLD));
    CHECK(pos == 0, "packing an empty type moved position to %d", pos);
    MPI_Type_free(&t);
}

static void subarrays(void)
{
    MPI_Datatype t;
    int sizes[2] = {4, 5}, sub[2] = {2, 3}, start[2] = {1, 2};
    MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C, MPI_INT, &t);
    LAYOUT("subarray 4x5 [1..2][2..4] C", t, 1, 7, 8, 9, 12, 13, 14);
    MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_FORTRAN, MPI_INT, &t);
    LAYOUT("subarray 4x5 (1..2, 2..4) Fortran", t, 1, 9, 10, 13, 14, 17, 18);
    MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C, MPI_INT, &t); /* extent = whole array */
    LAYOUT("subarray x 2", t, 2, 7, 8, 9, 12, 13, 14, 27, 28, 29, 32, 33, 34);
    int s3[3] = {3, 4, 5}, b3[3] = {3, 4, 1}, st3[3] = {0, 0, 4};
    MPI_Type_create_subarray(3, s3, b3, st3, MPI_ORDER_C, MPI_INT, &t); /* the x = 4 face */
    LAYOUT("3-D face x = 4", t, 1, 4, 9, 14, 19, 24, 29, 34, 39, 44, 49, 54, 59);
}

static void darrays(void)
{
    MPI_Datatype t;
    int g1[1] = {10}, p1[1] = {3}, blk[1] = {MPI_DISTRIBUTE_BLOCK}, cyc[1] = {MPI_DISTRIBUTE_CYCLIC};
    int dflt[1] = {MPI_DISTRIBUTE_DFLT_DARG}, two[1] = {2};
    MPI_Type_create_darray(3, 1, 1, g1, blk, dflt, p1, MPI_ORDER_C, MPI_INT, &t);
    LAYOUT("darray block 10/3 rank 1", t, 1, 4, 5, 6, 7);
    MPI_Type_create_darray(3, 2, 1, g1, blk, dflt, p1, MPI_ORDER_C, MPI_INT, &t);
    LAYOUT("darray block 10/3 rank 2", t, 1, 8, 9);
    MPI_Type_create_darray(3, 1, 1, g1, cyc, two, p1, MPI_ORDER_C, MPI_INT, &t);
    LAYOUT("darray cyclic(2) 10/3 rank 1", t, 1, 2, 3, 8, 9);
    MPI_Type_create_darray(3, 0, 1, g1, cyc, dflt, p1, MPI_ORDER_C, MPI_INT, &t);
    LAYOUT("darray cyclic 10/3 rank 0", t, 1, 0, 3, 6, 9);
    /* 4 x 6, block rows over 2, cyclic columns over 2; rank 3 = coords (1, 1) */
    int g2[2] = {4, 6}, p2[2] = {2, 2}, d2[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
    int a2[2] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG};
    MPI_Type_create_darray(4, 3, 2, g2, d2, a2, p2, MPI_ORDER_C, MPI_INT, &t);
    LAYOUT("darray 4x6 block x cyclic rank 3 C", t, 1, 13, 15, 17, 19, 21, 23);
    /* Fortran order: element (i, j) at i + 4 j; rank 2 = coords (1, 0): rows 2..3, columns 0, 2, 4 */
    MPI_Type_create_darray(4, 2, 2, g2, d2, a2, p2, MPI_ORDER_FORTRAN, MPI_INT, &t);
    LAYOUT("darray 4x6 block x cyclic rank 2 Fortran", t, 1, 2, 3, 10, 11, 18, 19);
    /* MPI_DISTRIBUTE_NONE in the first dimension, block(4) in the second over 2 */
    int d3[2] = {MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_BLOCK}, a3[2] = {MPI_DISTRIBUTE_DFLT_DARG, 4}, p3[2] = {1, 2};
    MPI_Type_create_darray(2, 1, 2, g2, d3, a3, p3, MPI_ORDER_C, MPI_INT, &t);
    LAYOUT("darray none x block(4) rank 1", t, 1, 4, 5, 10, 11, 16, 17, 22, 23);
    MPI_Aint lb, ext;
    MPI_Type_create_darray(2, 1, 2, g2, d3, a3, p3, MPI_ORDER_C, MPI_INT, &t);
    MPI_Type_get_extent(t, &lb, &ext);
    CHECK(lb == 0 && ext == 24 * (MPI_Aint)sizeof(int), "darray extent %ld lb %ld", (long)ext, (long)lb);
    MPI_Type_free(&t);
}

static void several_into_one(void)
{
    char buf[256];
    int pos = 0, a[3] = {1, 2, 3};
    double d[2] = {0.5, -1.25};
    short s = 7;
    MPI_Datatype v;
    MPI_Type_vector(2, 1, 2, MPI_INT, &v);
    MPI_Type_commit(&v);
    CHECK_OK(MPI_Pack(a, 1, v, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    CHECK_OK(MPI_Pack(d, 2, MPI_DOUBLE, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    CHECK_OK(MPI_Pack(&s, 1, MPI_SHORT, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    CHECK(pos == 8 + 16 + 2, "position %d after three packs", pos);
    int ra[2];
    double rd[2];
    short rs;
    int rpos = 0;
    CHECK_OK(MPI_Unpack(buf, pos, &rpos, ra, 2, MPI_INT, MPI_COMM_WORLD));
    CHECK_OK(MPI_Unpack(buf, pos, &rpos, rd, 2, MPI_DOUBLE, MPI_COMM_WORLD));
    CHECK_OK(MPI_Unpack(buf, pos, &rpos, &rs, 1, MPI_SHORT, MPI_COMM_WORLD));
    CHECK(ra[0] == 1 && ra[1] == 3 && rd[0] == 0.5 && rd[1] == -1.25 && rs == 7, "values unpacked differ");
    MPI_Type_free(&v);
}

static void bottom(void)
{
    /* absolute addresses with MPI_BOTTOM */
    static int x = 11;
    static double y[2] = {2.5, 3.5};
    static char z = 'q';
    MPI_Aint ds[3];
    MPI_Get_address(&x, &ds[0]);
    MPI_Get_address(&y[1], &ds[1]);
    MPI_Address(&z, &ds[2]);
    int bl[3] = {1, 1, 1};
    MPI_Datatype ts[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR}, t;
    MPI_Type_create_struct(3, bl, ds, ts, &t);
    MPI_Type_commit(&t);
    char buf[64];
    int pos = 0;
    CHECK_OK(MPI_Pack(MPI_BOTTOM, 1, t, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    CHECK(pos == 13, "packed %d bytes from MPI_BOTTOM", pos);
    int px;
    double py;
    memcpy(&px, buf, 4);
    memcpy(&py, buf + 4, 8);
    CHECK(px == 11 && py == 3.5 && buf[12] == 'q', "values packed from MPI_BOTTOM differ");
    x = 0;
    y[1] = 0;
    z = 0;
    pos = 0;
    CHECK_OK(MPI_Unpack(buf, 13, &pos, MPI_BOTTOM, 1, t, MPI_COMM_WORLD));
    CHECK(x == 11 && y[1] == 3.5 && z == 'q' && y[0] == 2.5, "values unpacked to MPI_BOTTOM differ");
    MPI_Type_free(&t);
    MPI_Aint a1, a2;
    MPI_Get_address(&y[0], &a1);
    MPI_Get_address(&y[1], &a2);
    CHECK(MPI_Aint_diff(a2, a1) == 8 && MPI_Aint_add(a1, 8) == a2, "MPI_Aint_add/diff");
}

static void statuses(void)
{
    MPI_Status st;
    int c;
    MPI_Count cx;
    MPI_Datatype v, s;
    MPI_Type_vector(3, 2, 5, MPI_DOUBLE, &v); /* 6 doubles, 48 bytes */
    MPI_Type_commit(&v);
    CHECK_OK(MPI_Status_set_elements(&st, v, 12));
    CHECK_OK(MPI_Get_count(&st, v, &c));
    CHECK(c == 2, "get_count after set_elements(12 doubles) = %d", c);
    CHECK_OK(MPI_Get_elements(&st, v, &c));
    CHECK(c == 12, "get_elements = %d", c);
    CHECK_OK(MPI_Status_set_elements_x(&st, v, 7));
    CHECK_OK(MPI_Get_count(&st, v, &c));
    CHECK(c == MPI_UNDEFINED, "get_count of 7 doubles in a 6-double type = %d", c);
    CHECK_OK(MPI_Get_elements_x(&st, v, &cx));
    CHECK(cx == 7, "get_elements_x = %lld", (long long)cx);
    CHECK_OK(MPI_Get_count(&st, MPI_DOUBLE, &c));
    CHECK(c == 7, "get_count with MPI_DOUBLE = %d", c);
    CHECK_OK(MPI_Get_count(&st, MPI_BYTE, &c));
    CHECK(c == 56, "get_count with MPI_BYTE = %d", c);
    int bl[2] = {1, 2};
    MPI_Aint ds[2] = {0, 4};
    MPI_Datatype ts[2] = {MPI_INT, MPI_SHORT};
    MPI_Type_create_struct(2, bl, ds, ts, &s); /* int, short, short: 8 bytes, 3 elements */
    MPI_Type_commit(&s);
    CHECK_OK(MPI_Status_set_elements(&st, s, 4)); /* one struct and an int */
    CHECK(st.tide_nbytes == 12, "set_elements(4) of struct{int, 2 short} = %lld bytes", (long long)st.tide_nbytes);
    CHECK_OK(MPI_Get_elements(&st, s, &c));
    CHECK(c == 4, "get_elements = %d", c);
    CHECK_OK(MPI_Status_set_elements(&st, MPI_INT, 3));
    CHECK_OK(MPI_Get_elements(&st, s, &c)); /* 12 bytes: int short short int */
    CHECK(c == 4, "12 bytes of struct{int, 2 short}: %d elements", c);
    CHECK_OK(MPI_Status_set_elements(&st, MPI_BYTE, 10));
    CHECK_OK(MPI_Get_elements(&st, s, &c)); /* ends inside the second int */
    CHECK(c == MPI_UNDEFINED, "10 bytes of struct{int, 2 short}: %d elements", c);
    MPI_Type_contiguous(0, MPI_INT, &ts[0]);
    MPI_Type_commit(&ts[0]);
    CHECK_OK(MPI_Status_set_elements(&st, MPI_BYTE, 0));
    CHECK_OK(MPI_Get_count(&st, ts[0], &c));
    CHECK(c == 0, "get_count with an empty type = %d", c);
    MPI_Type_free(&ts[0]);
    MPI_Type_free(&v);
    MPI_Type_free(&s);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    for (int i = 0; i < N; i++)
        src[i] = i;
    constructors();
    subarrays();
    darrays();
    several_into_one();
    bottom();
    statuses();
    printf("dt_pack: ok\n");
    MPI_Finalize();
    return 0;
}
