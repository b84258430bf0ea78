/*
 * test_dt_bounds.c: lb, extent, true lb, true extent and size of every
 * datatype constructor, nested two and three levels deep, with negative
 * strides and displacements, markers (resized types, MPI_LB/MPI_UB) and
 * alignment padding, against values worked out by hand from MPI-2.2
 * sections 4.1.6 and 4.1.7: a type without an upper-bound marker ends
 * where its last copy of an old type ends (that copy's padding included)
 * and is padded to the largest alignment of its basic types; markers are
 * sticky and stop the padding. Every inquiry function (the _x forms and
 * the deprecated MPI_Type_lb/ub/extent) must agree.
 *
 * Alignments used below: char 1, int 4, double 8 (x86-64 and most ABIs).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "datatype/datatype.h"

/* The rows. A row's old types are earlier rows (R(id)) or predefined
 * types (their handles are never small integers). */
enum {
    A, CONTIG_A, T3, T3_NEG, VEC_NEG, IDX, HIDX, IDXB, HIDXB, STRUCT_A, STRUCT_2A,
    RES_A, HVEC_RES, DUP_T3, CONTIG_DUP, L3_CONTIG, L3_HIDX, L3_STRUCT, L3_VEC_NEG,
    R6, V_R6, W_V, X_W, S_LBUB, S3, S3_NEG, S_UB, HIDX_S_UB, S_LB, CONTIG_S_LB, NEGX, NEGX3,
    SUB_C, SUB_F, SUB_NEST, DARR, DARR2, DARR_A, F90R, STRUCT_F90R, F90I, HVEC_F90I,
    F90C, CONTIG_F90C, VEC_D, PAIR, NROWS
};
#define R(id) (id)

enum kind {
    K_CONTIG, K_VECTOR, K_HVECTOR, K_INDEXED, K_HINDEXED, K_INDEXED_BLOCK, K_HINDEXED_BLOCK,
    K_STRUCT, K_RESIZED, K_DUP, K_SUBARRAY, K_DARRAY, K_F90_REAL, K_F90_INTEGER, K_F90_COMPLEX
};

struct row {
    int id;
    const char *what;
    enum kind k;
    int count, bl;          /* count; blocklength (vector, hvector, *_block) */
    MPI_Aint stride;        /* vector: in extents of the old type; hvector: bytes */
    int bls[3];             /* indexed, hindexed, struct */
    MPI_Aint d[3];          /* displacements; resized: lb, extent */
    int old[3];             /* old type (struct: one per block) */
    int arr[4];             /* subarray: size, subsize, start per dimension (2 dims: sizes
                               {arr[0], arr[1]}, subsizes {arr[2], arr[3]}, starts {1, 1});
                               darray: nprocs, rank, gsize, psize (1 dim); f90: p, r */
    int order;              /* subarray: MPI_ORDER_*; darray: distribution */
    int darg;               /* darray */
    /* expected */
    MPI_Count size, lb, extent, true_lb, true_extent;
};

static const struct row rows[] = {
    /* blocks of 4 ints (16 bytes) at 0, 25, 50: data [0, 66), padded to a
     * multiple of 4: ub 68 */
    {A, "A = hvector(3, 4, 25, int)", K_HVECTOR, 3, 4, 25, .old = {MPI_INT},
     .size = 48, .lb = 0, .extent = 68, .true_lb = 0, .true_extent = 66},
    /* copies at 0, 68: data ends at 68 + 66 = 134, the last copy at 136 */
    {CONTIG_A, "contiguous(2, A)", K_CONTIG, 2, .old = {R(A)},
     .size = 96, .lb = 0, .extent = 136, .true_lb = 0, .true_extent = 134},
    /* two blocks of 3 copies (at 0, 68, 136 from the block) at 0 and 273:
     * the last copy is at 409, its data ends at 475, the copy at 477;
     * padded to 4: 480 */
    {T3, "T3 = hvector(2, 3, 273, A)", K_HVECTOR, 2, 3, 273, .old = {R(A)},
     .size = 288, .lb = 0, .extent = 480, .true_lb = 0, .true_extent = 475},
    /* blocks at 0 (copies up to 204, data to 202) and -273 (copies at
     * -273, -205, -137): lb -273, ub 204 (477, padded: 480) */
    {T3_NEG, "hvector(2, 3, -273, A)", K_HVECTOR, 2, 3, -273, .old = {R(A)},
     .size = 288, .lb = -273, .extent = 480, .true_lb = -273, .true_extent = 475},
    /* stride -3 * 68 = -204: copies at 0 and -204; ub 68, data to 66 */
    {VEC_NEG, "vector(2, 1, -3, A)", K_VECTOR, 2, 1, -3, .old = {R(A)},
     .size = 96, .lb = -204, .extent = 272, .true_lb = -204, .true_extent = 270},
    /* a copy at 3 * 68 = 204, two at -68 and 0: lb -68, ub 272, data to 270 */
    {IDX, "indexed({1, 2}, {3, -1}, A)", K_INDEXED, 2, .bls = {1, 2}, .d = {3, -1}, .old = {R(A)},
     .size = 144, .lb = -68, .extent = 340, .true_lb = -68, .true_extent = 338},
    /* copies at 0 and 70: the second ends at 138, padded: 140; data to 136 */
    {HIDX, "hindexed({1, 1}, {0, 70}, A)", K_HINDEXED, 2, .bls = {1, 1}, .d = {0, 70}, .old = {R(A)},
     .size = 96, .lb = 0, .extent = 140, .true_lb = 0, .true_extent = 136},
    /* copies at 0, 136, -68: lb -68, ub 204, data to 202 */
    {IDXB, "indexed_block(1, {0, 2, -1}, A)", K_INDEXED_BLOCK, 3, 1, .d = {0, 2, -1}, .old = {R(A)},
     .size = 144, .lb = -68, .extent = 272, .true_lb = -68, .true_extent = 270},
    /* copies at 1, 69 and -100, -32: lb -100, ub 69 + 68 = 137 (extent
     * 237, padded: 240); data [-100, 135) */
    {HIDXB, "hindexed_block(2, {1, -100}, A)", K_HINDEXED_BLOCK, 2, 2, .d = {1, -100}, .old = {R(A)},
     .size = 192, .lb = -100, .extent = 240, .true_lb = -100, .true_extent = 235},
    /* A at 5 (data [5, 71), ub 73) and a char at 0: extent 73, padded: 76 */
    {STRUCT_A, "struct{A@5, char@0}", K_STRUCT, 2, .bls = {1, 1}, .d = {5, 0}, .old = {R(A), MPI_CHAR},
     .size = 49, .lb = 0, .extent = 76, .true_lb = 0, .true_extent = 71},
    /* two As at -3 and 65 (data to 131, ub 133) and a double at 200: lb -3,
     * ub 208, extent 211 padded to 8: 216 */
    {STRUCT_2A, "struct{2 A@-3, double@200}", K_STRUCT, 2, .bls = {2, 1}, .d = {-3, 200},
     .old = {R(A), MPI_DOUBLE},
     .size = 104, .lb = -3, .extent = 216, .true_lb = -3, .true_extent = 211},
    /* markers at -3 and 27; the data stays where it was */
    {RES_A, "resized(A, -3, 30)", K_RESIZED, .d = {-3, 30}, .old = {R(A)},
     .size = 48, .lb = -3, .extent = 30, .true_lb = 0, .true_extent = 66},
    /* copies at 0 and 7: lb marker -3, ub marker 7 + 27 = 34, no padding;
     * data [0, 73) */
    {HVEC_RES, "hvector(2, 1, 7, resized(A))", K_HVECTOR, 2, 1, 7, .old = {R(RES_A)},
     .size = 96, .lb = -3, .extent = 37, .true_lb = 0, .true_extent = 73},
    {DUP_T3, "dup(T3)", K_DUP, .old = {R(T3)},
     .size = 288, .lb = 0, .extent = 480, .true_lb = 0, .true_extent = 475},
    /* copies at 0, 480, 960: data to 960 + 475 = 1435 */
    {CONTIG_DUP, "contiguous(3, dup(T3))", K_CONTIG, 3, .old = {R(DUP_T3)},
     .size = 864, .lb = 0, .extent = 1440, .true_lb = 0, .true_extent = 1435},
    /* three levels: copies of T3 at 0, 480 */
    {L3_CONTIG, "contiguous(2, T3)", K_CONTIG, 2, .old = {R(T3)},
     .size = 576, .lb = 0, .extent = 960, .true_lb = 0, .true_extent = 955},
    /* T3 at 0 and 483: ub 963, padded: 964; data to 483 + 475 = 958 */
    {L3_HIDX, "hindexed({1, 1}, {0, 483}, T3)", K_HINDEXED, 2, .bls = {1, 1}, .d = {0, 483}, .old = {R(T3)},
     .size = 576, .lb = 0, .extent = 964, .true_lb = 0, .true_extent = 958},
    /* T3 at -1 (ub 479, data to 474) and a double at 0: extent 480 is a
     * multiple of 8 */
    {L3_STRUCT, "struct{T3@-1, double@0}", K_STRUCT, 2, .bls = {1, 1}, .d = {-1, 0}, .old = {R(T3), MPI_DOUBLE},
     .size = 296, .lb = -1, .extent = 480, .true_lb = -1, .true_extent = 475},
    /* stride -3 * 480 = -1440: blocks of copies at 0, 480 and -1440, -960:
     * lb -1440, ub 960; data to 480 + 475 = 955 */
    {L3_VEC_NEG, "vector(2, 2, -3, T3)", K_VECTOR, 2, 2, -3, .old = {R(T3)},
     .size = 1152, .lb = -1440, .extent = 2400, .true_lb = -1440, .true_extent = 2395},
    /* markers: an int with extent 6 */
    {R6, "R6 = resized(int, 0, 6)", K_RESIZED, .d = {0, 6}, .old = {MPI_INT},
     .size = 4, .lb = 0, .extent = 6, .true_lb = 0, .true_extent = 4},
    /* stride 2 * 6: copies at 0, 12, 24; ub marker 30 (not padded to 4) */
    {V_R6, "V = vector(3, 1, 2, R6)", K_VECTOR, 3, 1, 2, .old = {R(R6)},
     .size = 12, .lb = 0, .extent = 30, .true_lb = 0, .true_extent = 28},
    /* copies at 0 and -31: lb -31, ub 30 */
    {W_V, "W = hvector(2, 1, -31, V)", K_HVECTOR, 2, 1, -31, .old = {R(V_R6)},
     .size = 24, .lb = -31, .extent = 61, .true_lb = -31, .true_extent = 59},
    /* three levels of markers: W's are sticky, the double adds data only */
    {X_W, "struct{W@0, double@100}", K_STRUCT, 2, .bls = {1, 1}, .d = {0, 100}, .old = {R(W_V), MPI_DOUBLE},
     .size = 32, .lb = -31, .extent = 61, .true_lb = -31, .true_extent = 139},
    {S_LBUB, "struct{LB@-4, int@0, UB@20}", K_STRUCT, 3, .bls = {1, 1, 1}, .d = {-4, 0, 20},
     .old = {MPI_LB, MPI_INT, MPI_UB},
     .size = 4, .lb = -4, .extent = 24, .true_lb = 0, .true_extent = 4},
    /* copies at 0, 24, 48: markers -4 and 68; data to 52 */
    {S3, "contiguous(3, struct{LB, int, UB})", K_CONTIG, 3, .old = {R(S_LBUB)},
     .size = 12, .lb = -4, .extent = 72, .true_lb = 0, .true_extent = 52},
    /* copies at 0 and -100: markers -104 and 68; data [-100, 52) */
    {S3_NEG, "hvector(2, 1, -100, contiguous(3, ...))", K_HVECTOR, 2, 1, -100, .old = {R(S3)},
     .size = 24, .lb = -104, .extent = 172, .true_lb = -100, .true_extent = 152},
    /* an upper-bound marker only: the lower bound is the data's */
    {S_UB, "struct{int@0, UB@2}", K_STRUCT, 2, .bls = {1, 1}, .d = {0, 2}, .old = {MPI_INT, MPI_UB},
     .size = 4, .lb = 0, .extent = 2, .true_lb = 0, .true_extent = 4},
    /* copies at 0 and 3: ub markers 2 and 5, no padding; data [0, 7) */
    {HIDX_S_UB, "hindexed({1, 1}, {0, 3}, struct{int, UB@2})", K_HINDEXED, 2, .bls = {1, 1}, .d = {0, 3},
     .old = {R(S_UB)},
     .size = 8, .lb = 0, .extent = 5, .true_lb = 0, .true_extent = 7},
    /* a lower-bound marker only: the upper bound is the data's, padded
     * (extent 4 - (-3) = 7, padded to 8: ub 5) */
    {S_LB, "struct{LB@-3, int@0}", K_STRUCT, 2, .bls = {1, 1}, .d = {-3, 0}, .old = {MPI_LB, MPI_INT},
     .size = 4, .lb = -3, .extent = 8, .true_lb = 0, .true_extent = 4},
    /* copies at 0 and 8: lb marker -3; the copies end at 5 and 13:
     * extent 16, a multiple of 4; data [0, 12) */
    {CONTIG_S_LB, "contiguous(2, struct{LB@-3, int@0})", K_CONTIG, 2, .old = {R(S_LB)},
     .size = 8, .lb = -3, .extent = 16, .true_lb = 0, .true_extent = 12},
    /* a negative extent */
    {NEGX, "resized(int, 0, -8)", K_RESIZED, .d = {0, -8}, .old = {MPI_INT},
     .size = 4, .lb = 0, .extent = -8, .true_lb = 0, .true_extent = 4},
    /* copies at 0, -8, -16: lb markers 0, -8, -16; ub markers -8, -16,
     * -24: lb -16, ub -8; data [-16, 4) */
    {NEGX3, "contiguous(3, resized(int, 0, -8))", K_CONTIG, 3, .old = {R(NEGX)},
     .size = 12, .lb = -16, .extent = 8, .true_lb = -16, .true_extent = 20},
    /* a 4 x 5 array of A (extent 68), rows 1-2, columns 1-3, C order:
     * element (i, j) at (5i + j) * 68; (1, 1) at 408, (2, 3) at 884 whose
     * data ends at 950; lb 0 and extent 20 * 68 = 1360 */
    {SUB_C, "subarray({4, 5}, {2, 3}, {1, 1}, C, A)", K_SUBARRAY, .arr = {4, 5, 2, 3}, .order = MPI_ORDER_C,
     .old = {R(A)},
     .size = 288, .lb = 0, .extent = 1360, .true_lb = 408, .true_extent = 542},
    /* Fortran order: (i, j) at (i + 4j) * 68; (1, 1) at 340, (2, 3) at 952,
     * data to 1018 */
    {SUB_F, "subarray({4, 5}, {2, 3}, {1, 1}, Fortran, A)", K_SUBARRAY, .arr = {4, 5, 2, 3},
     .order = MPI_ORDER_FORTRAN, .old = {R(A)},
     .size = 288, .lb = 0, .extent = 1360, .true_lb = 340, .true_extent = 678},
    /* copies at 0 and 1361: the subarray's markers give lb 0, ub 2721
     * (no padding); data [408, 1361 + 950) */
    {SUB_NEST, "hvector(2, 1, 1361, subarray C)", K_HVECTOR, 2, 1, 1361, .old = {R(SUB_C)},
     .size = 576, .lb = 0, .extent = 2721, .true_lb = 408, .true_extent = 1903},
    /* 10 ints in blocks of 3 over 4 processes: rank 1 has ints 3..5 */
    {DARR, "darray(4, 1, {10}, BLOCK, {4}, int)", K_DARRAY, .arr = {4, 1, 10, 4}, .order = MPI_DISTRIBUTE_BLOCK,
     .darg = MPI_DISTRIBUTE_DFLT_DARG, .old = {MPI_INT},
     .size = 12, .lb = 0, .extent = 40, .true_lb = 12, .true_extent = 12},
    /* copies at 0 and 40: data [12, 64) */
    {DARR2, "contiguous(2, darray)", K_CONTIG, 2, .old = {R(DARR)},
     .size = 24, .lb = 0, .extent = 80, .true_lb = 12, .true_extent = 52},
    /* 10 As cyclic(2) over 4: rank 1 has elements 2, 3 (10, 11 are past
     * the end): data [136, 270); extent 680 */
    {DARR_A, "darray(4, 1, {10}, CYCLIC(2), {4}, A)", K_DARRAY, .arr = {4, 1, 10, 4},
     .order = MPI_DISTRIBUTE_CYCLIC, .darg = 2, .old = {R(A)},
     .size = 96, .lb = 0, .extent = 680, .true_lb = 136, .true_extent = 134},
    /* 15 digits: an 8-byte real */
    {F90R, "f90_real(15)", K_F90_REAL, .arr = {15, MPI_UNDEFINED},
     .size = 8, .lb = 0, .extent = 8, .true_lb = 0, .true_extent = 8},
    /* a char and the real at 1: data to 9, padded to 8: 16 */
    {STRUCT_F90R, "struct{char@0, f90_real(15)@1}", K_STRUCT, 2, .bls = {1, 1}, .d = {0, 1},
     .old = {MPI_CHAR, R(F90R)},
     .size = 9, .lb = 0, .extent = 16, .true_lb = 0, .true_extent = 9},
    /* 9 decimal digits: a 4-byte integer */
    {F90I, "f90_integer(9)", K_F90_INTEGER, .arr = {0, 9},
     .size = 4, .lb = 0, .extent = 4, .true_lb = 0, .true_extent = 4},
    /* copies at 0 and 6: data to 10, padded: 12 */
    {HVEC_F90I, "hvector(2, 1, 6, f90_integer(9))", K_HVECTOR, 2, 1, 6, .old = {R(F90I)},
     .size = 8, .lb = 0, .extent = 12, .true_lb = 0, .true_extent = 10},
    /* 6 digits: a complex of two 4-byte reals */
    {F90C, "f90_complex(6)", K_F90_COMPLEX, .arr = {6, MPI_UNDEFINED},
     .size = 8, .lb = 0, .extent = 8, .true_lb = 0, .true_extent = 8},
    {CONTIG_F90C, "contiguous(2, f90_complex(6))", K_CONTIG, 2, .old = {R(F90C)},
     .size = 16, .lb = 0, .extent = 16, .true_lb = 0, .true_extent = 16},
    /* blocks of 2 doubles at 0, -24, -48 */
    {VEC_D, "vector(3, 2, -3, double)", K_VECTOR, 3, 2, -3, .old = {MPI_DOUBLE},
     .size = 48, .lb = -48, .extent = 64, .true_lb = -48, .true_extent = 64},
    /* MPI_DOUBLE_INT: 12 bytes of data, extent 16, alignment 8; copies at
     * 0 and 13: ub 29, padded: 32; data to 25 */
    {PAIR, "hvector(2, 1, 13, MPI_DOUBLE_INT)", K_HVECTOR, 2, 1, 13, .old = {MPI_DOUBLE_INT},
     .size = 24, .lb = 0, .extent = 32, .true_lb = 0, .true_extent = 25},
};

static MPI_Datatype made[NROWS];

static MPI_Datatype old_type(int o)
{
    if (o >= 0 && o < NROWS) {
        assert_int_not_equal(made[o], MPI_DATATYPE_NULL);
        return made[o];
    }
    return (MPI_Datatype)o;
}

static int build(const struct row *r, MPI_Datatype *t)
{
    MPI_Datatype o = old_type(r->old[0]);
    int ds[3] = {(int)r->d[0], (int)r->d[1], (int)r->d[2]};
    switch (r->k) {
    case K_CONTIG:
        return PMPI_Type_contiguous(r->count, o, t);
    case K_VECTOR:
        return PMPI_Type_vector(r->count, r->bl, (int)r->stride, o, t);
    case K_HVECTOR:
        return PMPI_Type_create_hvector(r->count, r->bl, r->stride, o, t);
    case K_INDEXED:
        return PMPI_Type_indexed(r->count, r->bls, ds, o, t);
    case K_HINDEXED:
        return PMPI_Type_create_hindexed(r->count, r->bls, r->d, o, t);
    case K_INDEXED_BLOCK:
        return PMPI_Type_create_indexed_block(r->count, r->bl, ds, o, t);
    case K_HINDEXED_BLOCK:
        return PMPI_Type_create_hindexed_block(r->count, r->bl, r->d, o, t);
    case K_STRUCT: {
        MPI_Datatype ts[3];
        for (int i = 0; i < r->count; i++)
            ts[i] = old_type(r->old[i]);
        return PMPI_Type_create_struct(r->count, r->bls, r->d, ts, t);
    }
    case K_RESIZED:
        return PMPI_Type_create_resized(o, r->d[0], r->d[1], t);
    case K_DUP:
        return PMPI_Type_dup(o, t);
    case K_SUBARRAY: {
        int sizes[2] = {r->arr[0], r->arr[1]}, subs[2] = {r->arr[2], r->arr[3]}, starts[2] = {1, 1};
        return PMPI_Type_create_subarray(2, sizes, subs, starts, r->order, o, t);
    }
    case K_DARRAY: {
        int gs[1] = {r->arr[2]}, dist[1] = {r->order}, darg[1] = {r->darg}, ps[1] = {r->arr[3]};
        return PMPI_Type_create_darray(r->arr[0], r->arr[1], 1, gs, dist, darg, ps, MPI_ORDER_C, o, t);
    }
    case K_F90_REAL:
        return PMPI_Type_create_f90_real(r->arr[0], r->arr[1], t);
    case K_F90_INTEGER:
        return PMPI_Type_create_f90_integer(r->arr[1], t);
    case K_F90_COMPLEX:
        return PMPI_Type_create_f90_complex(r->arr[0], r->arr[1], t);
    }
    return MPI_ERR_INTERN;
}

static int setup(void **state)
{
    (void)state;
    return tide_datatype_init();
}

static int teardown(void **state)
{
    (void)state;
    tide_datatype_finalize();
    return 0;
}

/* Every way of asking gives the same answer. */
static void check(const struct row *r, MPI_Datatype t)
{
    int s;
    MPI_Count sx, lbx, extx, tlbx, textx;
    MPI_Aint lb, ext, tlb, text, lb1, ub1, ext1;
    assert_int_equal(PMPI_Type_size(t, &s), MPI_SUCCESS);
    assert_int_equal(PMPI_Type_size_x(t, &sx), MPI_SUCCESS);
    assert_int_equal(PMPI_Type_get_extent(t, &lb, &ext), MPI_SUCCESS);
    assert_int_equal(PMPI_Type_get_extent_x(t, &lbx, &extx), MPI_SUCCESS);
    assert_int_equal(PMPI_Type_get_true_extent(t, &tlb, &text), MPI_SUCCESS);
    assert_int_equal(PMPI_Type_get_true_extent_x(t, &tlbx, &textx), MPI_SUCCESS);
    assert_int_equal(PMPI_Type_lb(t, &lb1), MPI_SUCCESS);
    assert_int_equal(PMPI_Type_ub(t, &ub1), MPI_SUCCESS);
    assert_int_equal(PMPI_Type_extent(t, &ext1), MPI_SUCCESS);
    if (s != r->size || lb != r->lb || ext != r->extent || tlb != r->true_lb || text != r->true_extent)
        fail_msg("%s: size %d lb %ld extent %ld true lb %ld true extent %ld; expected %lld %lld %lld %lld %lld",
                 r->what, s, (long)lb, (long)ext, (long)tlb, (long)text, (long long)r->size, (long long)r->lb,
                 (long long)r->extent, (long long)r->true_lb, (long long)r->true_extent);
    if (sx != s || lbx != lb || extx != ext || tlbx != tlb || textx != text)
        fail_msg("%s: the _x forms say size %lld lb %lld extent %lld true lb %lld true extent %lld", r->what,
                 (long long)sx, (long long)lbx, (long long)extx, (long long)tlbx, (long long)textx);
    if (lb1 != lb || ub1 != lb + ext || ext1 != ext)
        fail_msg("%s: MPI_Type_lb/ub/extent say %ld %ld %ld", r->what, (long)lb1, (long)ub1, (long)ext1);
}

static void test_table(void **state)
{
    (void)state;
    assert_int_equal(sizeof rows / sizeof rows[0], NROWS);
    for (int i = 0; i < NROWS; i++) {
        const struct row *r = &rows[i];
        assert_int_equal(r->id, i);
        made[i] = MPI_DATATYPE_NULL;
        int rc = build(r, &made[i]);
        if (rc != MPI_SUCCESS)
            fail_msg("%s: constructor returned %d", r->what, rc);
        check(r, made[i]);
        /* committing changes nothing */
        bool f90 = r->k == K_F90_REAL || r->k == K_F90_INTEGER || r->k == K_F90_COMPLEX;
        if (!f90) {
            assert_int_equal(PMPI_Type_commit(&made[i]), MPI_SUCCESS);
            check(r, made[i]);
        }
    }
    for (int i = NROWS - 1; i >= 0; i--) {
        const struct row *r = &rows[i];
        if (r->k != K_F90_REAL && r->k != K_F90_INTEGER && r->k != K_F90_COMPLEX)
            assert_int_equal(PMPI_Type_free(&made[i]), MPI_SUCCESS);
    }
}

/* count > 1 steps by the extent: two T3s packed from memory take their
 * bytes from element 1 at 480 (not at 476, the end of T3's data rounded). */
static void test_pack_steps_by_extent(void **state)
{
    (void)state;
    MPI_Datatype a, t3;
    assert_int_equal(PMPI_Type_create_hvector(3, 4, 25, MPI_INT, &a), MPI_SUCCESS);
    assert_int_equal(PMPI_Type_create_hvector(2, 3, 273, a, &t3), MPI_SUCCESS);
    assert_int_equal(PMPI_Type_commit(&t3), MPI_SUCCESS);
    unsigned char src[960], out[576];
    for (int i = 0; i < 960; i++)
        src[i] = (unsigned char)(i * 7 + 1);
    struct tide_convertor cv;
    tide_conv_init(&cv, tide_datatype_get(t3), 2, src);
    assert_int_equal(tide_conv_pack(&cv, out, sizeof out), sizeof out);
    /* element e, block b (0 or 273), copy c of A (0, 68, 136), int block k
     * (0, 25, 50) of 16 bytes, in type-map order */
    size_t pos = 0;
    for (int e = 0; e < 2; e++)
        for (int b = 0; b < 2; b++)
            for (int c = 0; c < 3; c++)
                for (int k = 0; k < 3; k++)
                    for (int j = 0; j < 16; j++) {
                        size_t at = (size_t)(e * 480 + b * 273 + c * 68 + k * 25 + j);
                        if (out[pos] != src[at])
                            fail_msg("packed byte %zu is %d, expected byte %zu of the buffer (%d)", pos, out[pos],
                                     at, src[at]);
                        pos++;
                    }
    PMPI_Type_free(&t3);
    PMPI_Type_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_pack_steps_by_extent),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
