/*
 * rma_order.c: accumulates from one origin to the same target location
 * are applied in the order they were issued (MPI-3.1 11.7.2, the default
 * accumulate_ordering "rar,raw,war,waw"), and fetching operations get
 * their answers in that order too. Every origin issues, back to back and
 * without a flush between them, pairs of replacements into rank 0's
 * window: first a larger one over a whole slot (with a small eager limit
 * it travels by rendezvous, or as a header followed by its data), then a
 * one-element one at the slot's start, which arrives whole and must not
 * overtake the first. Then fetch-and-ops on a counter, back to back: the
 * fetched values must be 0, 1, 2, ... in issue order.
 */
#include "testutil.h"

#define PAIRS 24
#define SLOT 1100 /* doubles: odd pairs use the whole slot (more than 8 KiB) */
#define MID 100   /* even pairs use this many */
#define FOPS 60

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    size_t per_origin = (size_t)PAIRS * SLOT;
    double *mem = calloc((size_t)size * per_origin, sizeof(double));
    long *counters = calloc((size_t)size, sizeof(long));
    MPI_Win win, cwin;
    CHECK_OK(MPI_Win_create(mem, (MPI_Aint)(size * per_origin * sizeof(double)), sizeof(double), MPI_INFO_NULL,
                            MPI_COMM_WORLD, &win));
    CHECK_OK(MPI_Win_create(counters, (MPI_Aint)size * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD,
                            &cwin));
    double *big = malloc(per_origin * sizeof(double)), small[PAIRS];
    CHECK_OK(MPI_Win_lock_all(0, win));
    CHECK_OK(MPI_Win_lock_all(0, cwin));
    for (int k = 0; k < PAIRS; k++) {
        int n = k % 2 ? SLOT : MID;
        double *s = big + (size_t)k * SLOT;
        for (int i = 0; i < n; i++)
            s[i] = k * 10000.0 + i;
        MPI_Aint disp = (MPI_Aint)(rank * per_origin + (size_t)k * SLOT);
        CHECK_OK(MPI_Accumulate(s, n, MPI_DOUBLE, 0, disp, n, MPI_DOUBLE, MPI_REPLACE, win));
        small[k] = -1.0 - k;
        CHECK_OK(MPI_Accumulate(&small[k], 1, MPI_DOUBLE, 0, disp, 1, MPI_DOUBLE, MPI_REPLACE, win));
    }
    long one = 1, got[FOPS];
    for (int i = 0; i < FOPS; i++)
        CHECK_OK(MPI_Fetch_and_op(&one, &got[i], MPI_LONG, 0, rank, MPI_SUM, cwin));
    CHECK_OK(MPI_Win_flush(0, cwin));
    for (int i = 0; i < FOPS; i++)
        CHECK(got[i] == i, "fetch-and-op %d fetched %ld", i, got[i]);
    CHECK_OK(MPI_Win_flush(0, win));
    double *back = malloc(per_origin * sizeof(double));
    CHECK_OK(MPI_Get(back, (int)per_origin, MPI_DOUBLE, 0, (MPI_Aint)(rank * per_origin), (int)per_origin,
                     MPI_DOUBLE, win));
    CHECK_OK(MPI_Win_flush(0, win));
    for (int k = 0; k < PAIRS; k++) {
        int n = k % 2 ? SLOT : MID;
        const double *b = back + (size_t)k * SLOT;
        CHECK(b[0] == -1.0 - k, "pair %d: the slot's start holds %g, not the later one-element replacement %g", k,
              b[0], -1.0 - k);
        for (int i = 1; i < n; i++)
            CHECK(b[i] == k * 10000.0 + i, "pair %d, element %d: %g", k, i, b[i]);
    }
    CHECK_OK(MPI_Win_unlock_all(cwin));
    CHECK_OK(MPI_Win_unlock_all(win));
    CHECK_OK(MPI_Win_free(&cwin));
    CHECK_OK(MPI_Win_free(&win));
    free(back);
    free(big);
    free(mem);
    free(counters);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("rma_order: ok\n");
    MPI_Finalize();
    return 0;
}
