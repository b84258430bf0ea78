/*
 * rma_dtype.c: derived datatypes in one-sided calls (MPI-3.1 11.3): a
 * vector on the origin and a contiguous target, the reverse, an indexed
 * target for MPI_Get, origin and target types that differ but have the
 * same type signature (contiguous-of-2 x 3 against 6 ints), a resized
 * target type with holes, a type freed before the epoch ends;
 * MPI_Accumulate and MPI_Get_accumulate whose target types are a vector
 * and a struct made of one predefined type (concurrent sums from every
 * rank). Elements outside the described layouts must stay untouched.
 */
#include "testutil.h"

#define NI 96
#define ND 64

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;

    int *w = malloc(NI * sizeof(int));
    for (int i = 0; i < NI; i++)
        w[i] = rank * 1000 + i;
    int *expect = malloc(NI * sizeof(int));
    for (int i = 0; i < NI; i++)
        expect[i] = w[i];
    MPI_Win win;
    CHECK_OK(MPI_Win_create(w, NI * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));

    int src[32];
    for (int i = 0; i < 32; i++)
        src[i] = -(rank * 100 + i) - 1;
#define SRC(r, i) (-((r) * 100 + (i)) - 1)

    MPI_Datatype vec, idx, pair, holes;
    MPI_Type_vector(4, 2, 3, MPI_INT, &vec); /* 0,1,3,4,6,7,9,10 */
    MPI_Type_commit(&vec);
    int bl[3] = {1, 2, 3}, dp[3] = {0, 4, 10}; /* 0,4,5,10,11,12 */
    MPI_Type_indexed(3, bl, dp, MPI_INT, &idx);
    MPI_Type_commit(&idx);
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    MPI_Type_create_resized(MPI_INT, 0, 3 * sizeof(int), &holes); /* one int every 3 */
    MPI_Type_commit(&holes);
    const int vpos[8] = {0, 1, 3, 4, 6, 7, 9, 10};
    const int ipos[6] = {0, 4, 5, 10, 11, 12};

    int got[6];
    for (int i = 0; i < 6; i++)
        got[i] = -7;
    CHECK_OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    /* origin vector -> target contiguous at [0..8) */
    CHECK_OK(MPI_Put(src, 1, vec, right, 0, 8, MPI_INT, win));
    /* origin contiguous -> target vector at 16 */
    CHECK_OK(MPI_Put(src + 20, 8, MPI_INT, right, 16, 1, vec, win));
    /* same signature, different types: 3 pairs -> 6 ints at 40 */
    CHECK_OK(MPI_Put(src + 8, 3, pair, right, 40, 6, MPI_INT, win));
    /* a resized type with holes at the target: 4 ints at 64, 67, 70, 73 */
    CHECK_OK(MPI_Put(src + 14, 4, MPI_INT, right, 64, 4, holes, win));
    /* indexed target in a get, from the untouched region at 80 */
    CHECK_OK(MPI_Get(got, 6, MPI_INT, right, 80, 1, idx, win));
    /* a type freed while its operation is pending */
    MPI_Datatype tmp;
    MPI_Type_vector(2, 1, 4, MPI_INT, &tmp);
    MPI_Type_commit(&tmp);
    CHECK_OK(MPI_Put(src + 28, 2, MPI_INT, right, 56, 1, tmp, win)); /* 56, 60 */
    MPI_Type_free(&tmp);
    CHECK_OK(MPI_Win_fence(0, win));

    for (int k = 0; k < 8; k++)
        expect[k] = SRC(left, vpos[k]);
    for (int k = 0; k < 8; k++)
        expect[16 + vpos[k]] = SRC(left, 20 + k);
    for (int k = 0; k < 6; k++)
        expect[40 + k] = SRC(left, 8 + k);
    for (int k = 0; k < 4; k++)
        expect[64 + 3 * k] = SRC(left, 14 + k);
    expect[56] = SRC(left, 28);
    expect[60] = SRC(left, 29);
    for (int i = 0; i < NI; i++)
        CHECK(w[i] == expect[i], "int window [%d] = %d, expected %d", i, w[i], expect[i]);
    for (int k = 0; k < 6; k++)
        CHECK(got[k] == right * 1000 + 80 + ipos[k], "indexed get [%d] = %d", k, got[k]);

    /* get into an origin vector from a contiguous target */
    int dst[11];
    for (int i = 0; i < 11; i++)
        dst[i] = -9;
    CHECK_OK(MPI_Get(dst, 1, vec, right, 80, 8, MPI_INT, win));
    CHECK_OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    for (int i = 0, k = 0; i < 11; i++) {
        if (k < 8 && vpos[k] == i)
            CHECK(dst[i] == right * 1000 + 80 + k++, "vector get [%d] = %d", i, dst[i]);
        else
            CHECK(dst[i] == -9, "vector get wrote the hole [%d]: %d", i, dst[i]);
    }
    CHECK_OK(MPI_Win_free(&win));

    /* accumulate into rank 0 from everyone: a vector of doubles and a
     * struct made of doubles only */
    double *d = calloc(ND, sizeof(double));
    MPI_Win dw;
    CHECK_OK(MPI_Win_create(d, ND * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &dw));
    MPI_Datatype dvec, dstruct;
    MPI_Type_vector(3, 2, 5, MPI_DOUBLE, &dvec); /* 0,1,5,6,10,11 */
    MPI_Type_commit(&dvec);
    int sbl[2] = {2, 1};
    MPI_Aint sdp[2] = {0, 5 * sizeof(double)};
    MPI_Datatype sty[2] = {MPI_DOUBLE, MPI_DOUBLE};
    MPI_Type_create_struct(2, sbl, sdp, sty, &dstruct); /* 0,1,5 */
    MPI_Type_commit(&dstruct);
    double dsrc[12], gsrc[3] = {1, 2, 3}, gres[10];
    for (int i = 0; i < 12; i++)
        dsrc[i] = rank + 0.25 * i;
    for (int i = 0; i < 10; i++)
        gres[i] = -1;
    /* initial values for the get_accumulate region of each rank's right */
    CHECK_OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, dw));
    for (int i = 40; i < 50; i++)
        d[i] = rank * 10.0 + i;
    CHECK_OK(MPI_Win_fence(0, dw));
    CHECK_OK(MPI_Accumulate(dsrc, 6, MPI_DOUBLE, 0, 0, 1, dvec, MPI_SUM, dw));
    CHECK_OK(MPI_Accumulate(dsrc, 2, dstruct, 0, 20, 6, MPI_DOUBLE, MPI_SUM, dw)); /* origin 0,1,5 */
    CHECK_OK(MPI_Accumulate(gsrc, 3, MPI_DOUBLE, 0, 30, 1, dstruct, MPI_SUM, dw));
    /* get_accumulate at the right neighbour: result into a vector */
    CHECK_OK(MPI_Get_accumulate(gsrc, 3, MPI_DOUBLE, gres, 1, dstruct, right, 40, 1, dstruct, MPI_SUM, dw));
    CHECK_OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, dw));
    if (rank == 0) {
        double e[ND] = {0};
        for (int o = 0; o < size; o++) {
            const int p[6] = {0, 1, 5, 6, 10, 11};
            for (int i = 0; i < 6; i++)
                e[p[i]] += o + 0.25 * i;
            /* two structs of 3 doubles from the origin: 0,1,5 and 6,7,11 */
            const int q[6] = {0, 1, 5, 6, 7, 11};
            for (int i = 0; i < 6; i++)
                e[20 + i] += o + 0.25 * q[i];
            e[30] += 1, e[31] += 2, e[35] += 3;
        }
        for (int i = 0; i < 40; i++)
            CHECK(d[i] == e[i], "accumulate [%d] = %g, expected %g", i, d[i], e[i]);
    }
    /* the fetched old values landed at 0,1,5 of gres; the target added */
    CHECK(gres[0] == right * 10.0 + 40 && gres[1] == right * 10.0 + 41 && gres[5] == right * 10.0 + 45,
          "get_accumulate results %g %g %g", gres[0], gres[1], gres[5]);
    CHECK(gres[2] == -1 && gres[3] == -1 && gres[4] == -1, "get_accumulate wrote a hole");
    CHECK(d[40] == rank * 10.0 + 41 && d[41] == rank * 10.0 + 43 && d[45] == rank * 10.0 + 48 &&
              d[42] == rank * 10.0 + 42,
          "get_accumulate target %g %g %g", d[40], d[41], d[45]);
    CHECK_OK(MPI_Win_free(&dw));

    MPI_Type_free(&vec);
    MPI_Type_free(&idx);
    MPI_Type_free(&pair);
    MPI_Type_free(&holes);
    MPI_Type_free(&dvec);
    MPI_Type_free(&dstruct);
    free(d);
    free(w);
    free(expect);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("rma_dtype: ok\n");
    MPI_Finalize();
    return 0;
}
