/*
 * rma_fence.c: active target communication with MPI_Win_fence (MPI-3.1
 * 11.5.1): the ghost-cell exchange of the standard's fence example (each
 * rank puts its boundary values into its neighbours' ghost cells), MPI_Get,
 * MPI_Accumulate with MPI_SUM from every rank and with MPI_REPLACE, the
 * assertions MPI_MODE_NOPRECEDE / NOSUCCEED / NOSTORE / NOPUT, many epochs
 * in a row, and displacement units other than 1 (differing between ranks).
 */
#include "testutil.h"

#define N 64 /* owned cells per rank */

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left = (rank + size - 1) % size, right = (rank + 1) % size;

    /* ghost cells: a[0] and a[N+1] are the neighbours' boundary values */
    double *a = calloc(N + 2, sizeof(double));
    MPI_Win win;
    CHECK_OK(MPI_Win_create(a, (N + 2) * sizeof(double), sizeof(double), MPI_INFO_NULL,
                            MPI_COMM_WORLD, &win));
    CHECK_OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    for (int iter = 0; iter < 20; iter++) {
        /* local stores to owned cells, then the exchange */
        for (int i = 1; i <= N; i++)
            a[i] = rank * 1000.0 + i + iter * 0.5;
        CHECK_OK(MPI_Win_fence(0, win));
        /* my first owned cell is the right ghost of my left neighbour */
        CHECK_OK(MPI_Put(&a[1], 1, MPI_DOUBLE, left, N + 1, 1, MPI_DOUBLE, win));
        CHECK_OK(MPI_Put(&a[N], 1, MPI_DOUBLE, right, 0, 1, MPI_DOUBLE, win));
        CHECK_OK(MPI_Win_fence(MPI_MODE_NOSTORE, win));
        CHECK(a[0] == left * 1000.0 + N + iter * 0.5, "iter %d: left ghost %g", iter, a[0]);
        CHECK(a[N + 1] == right * 1000.0 + 1 + iter * 0.5, "iter %d: right ghost %g", iter, a[N + 1]);
        /* a smoothing step that reads the ghosts */
        double s = 0;
        for (int i = 1; i <= N; i++)
            s += a[i - 1] - 2 * a[i] + a[i + 1];
        (void)s;
    }

    /* MPI_Get of the whole of the right neighbour's owned cells, in an
     * epoch where nobody puts (NOPUT) and which no epoch follows */
    double *copy = malloc(N * sizeof(double));
    CHECK_OK(MPI_Win_fence(MPI_MODE_NOPUT, win));
    CHECK_OK(MPI_Get(copy, N, MPI_DOUBLE, right, 1, N, MPI_DOUBLE, win));
    CHECK_OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    for (int i = 0; i < N; i++)
        CHECK(copy[i] == right * 1000.0 + i + 1 + 19 * 0.5, "get [%d] = %g", i, copy[i]);
    CHECK_OK(MPI_Win_free(&win));
    free(copy);
    free(a);

    /* MPI_Accumulate with MPI_SUM: every rank adds into every rank */
    int *acc = calloc(N, sizeof(int));
    int *contrib = malloc(N * sizeof(int));
    CHECK_OK(MPI_Win_create(acc, N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    for (int i = 0; i < N; i++)
        contrib[i] = (rank + 1) * (i + 1);
    for (int t = 0; t < size; t++)
        CHECK_OK(MPI_Accumulate(contrib, N, MPI_INT, t, 0, N, MPI_INT, MPI_SUM, win));
    /* twice to the same target in one epoch: both land */
    CHECK_OK(MPI_Accumulate(contrib, 1, MPI_INT, right, 0, 1, MPI_INT, MPI_SUM, win));
    CHECK_OK(MPI_Win_fence(MPI_MODE_NOPUT, win)); /* local reads only until the next fence */
    int tri = size * (size + 1) / 2;
    for (int i = 0; i < N; i++) {
        int expect = tri * (i + 1) + (i == 0 ? left + 1 : 0);
        CHECK(acc[i] == expect, "sum [%d] = %d, expected %d", i, acc[i], expect);
    }
    /* the local reads above must end before the next puts arrive */
    CHECK_OK(MPI_Win_fence(0, win));
    /* MPI_REPLACE from one origin per element: my value to my right */
    for (int i = 0; i < N; i++)
        contrib[i] = rank * 7 + i;
    CHECK_OK(MPI_Accumulate(contrib, N, MPI_INT, right, 0, N, MPI_INT, MPI_REPLACE, win));
    CHECK_OK(MPI_Win_fence(0, win));
    for (int i = 0; i < N; i++)
        CHECK(acc[i] == left * 7 + i, "replace [%d] = %d", i, acc[i]);
    CHECK_OK(MPI_Win_fence(0, win));
    /* MPI_REPLACE from all ranks on the same elements: each element ends as
     * one of the values written (accumulates are element-wise atomic) */
    for (int i = 0; i < N; i++)
        contrib[i] = 100000 + rank;
    CHECK_OK(MPI_Accumulate(contrib, N, MPI_INT, 0, 0, N, MPI_INT, MPI_REPLACE, win));
    CHECK_OK(MPI_Win_fence(0, win));
    if (rank == 0)
        for (int i = 0; i < N; i++)
            CHECK(acc[i] >= 100000 && acc[i] < 100000 + size, "concurrent replace [%d] = %d", i, acc[i]);

    /* many short epochs: a token travels around the ring */
    acc[0] = rank == 0 ? 1 : 0;
    int steps = 200;
    CHECK_OK(MPI_Win_fence(0, win));
    int nv = 0; /* the origin buffer lives until the closing fence */
    for (int s = 0; s < steps; s++) {
        int holder = s % size;
        int v = acc[0];
        CHECK_OK(MPI_Win_fence(MPI_MODE_NOPUT, win)); /* reads only: v taken before */
        CHECK_OK(MPI_Win_fence(0, win));
        if (rank == holder) {
            CHECK(v == s + 1, "step %d: token %d", s, v);
            nv = v + 1;
            CHECK_OK(MPI_Put(&nv, 1, MPI_INT, (holder + 1) % size, 0, 1, MPI_INT, win));
        }
        CHECK_OK(MPI_Win_fence(0, win));
    }
    int last = steps % size;
    if (rank == last)
        CHECK(acc[0] == steps + 1, "token ended %d", acc[0]);
    CHECK_OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    CHECK_OK(MPI_Win_free(&win));
    free(contrib);
    free(acc);

    /* disp_unit other than 1, different on even and odd ranks: an even
     * rank has one int per 8-byte slot, an odd rank a record of 3 ints */
    int unit = rank % 2 ? 3 * (int)sizeof(int) : 8;
    int slots = 2 * size;
    char *mem = calloc(slots, unit);
    CHECK_OK(MPI_Win_create(mem, (MPI_Aint)slots * unit, unit, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    int mine[2] = {rank + 1, -(rank + 1)};
    for (int t = 0; t < size; t++)
        CHECK_OK(MPI_Put(mine, 1, MPI_INT, t, 2 * rank + 1, 1, MPI_INT, win));
    CHECK_OK(MPI_Win_fence(0, win));
    for (int o = 0; o < size; o++) {
        int v;
        memcpy(&v, mem + (size_t)(2 * o + 1) * unit, sizeof v);
        CHECK(v == o + 1, "unit %d: slot of rank %d holds %d", unit, o, v);
        memcpy(&v, mem + (size_t)(2 * o) * unit, sizeof v);
        CHECK(v == 0, "unit %d: slot %d overwritten: %d", unit, 2 * o, v);
    }
    /* read back through the window with the target's unit */
    int back = 0;
    CHECK_OK(MPI_Get(&back, 1, MPI_INT, right, 2 * left + 1, 1, MPI_INT, win));
    CHECK_OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    CHECK(back == left + 1, "get with unit of rank %d: %d", right, back);
    CHECK_OK(MPI_Win_free(&win));
    free(mem);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("rma_fence: ok\n");
    MPI_Finalize();
    return 0;
}
