/*
 * rma_dynamic.c: dynamic windows (MPI-3.1 11.2.4): MPI_Win_create_dynamic,
 * MPI_Win_attach / MPI_Win_detach, target addresses taken with
 * MPI_Get_address and exchanged, then used as target displacements
 * (disp_unit 1, base MPI_BOTTOM); puts and gets into attached memory under
 * fence and under lock_all; several regions at once; a region detached
 * and another attached in its place; MPI_Aint_add for offsets; one array
 * attached as two halves, put and got across both.
 */
#include "testutil.h"

#define M 32

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;

    MPI_Win win;
    CHECK_OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    int *fl = NULL, flag = 0;
    CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &fl, &flag));
    CHECK(flag && *fl == MPI_WIN_FLAVOR_DYNAMIC, "flavor %d", flag ? *fl : -1);
    MPI_Aint *sz = NULL;
    CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_SIZE, &sz, &flag));
    CHECK(flag && *sz == 0, "dynamic window size %ld", (long)*sz);
    void *base = (void *)1;
    CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_BASE, &base, &flag));
    CHECK(flag && base == MPI_BOTTOM, "dynamic window base %p", base);
    int *du = NULL;
    CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &du, &flag));
    CHECK(flag && *du == 1, "dynamic window disp_unit %d", *du);

    /* two regions per rank */
    int *r1 = calloc(M, sizeof(int));
    double *r2 = calloc(M, sizeof(double));
    CHECK_OK(MPI_Win_attach(win, r1, M * sizeof(int)));
    CHECK_OK(MPI_Win_attach(win, r2, M * sizeof(double)));
    MPI_Aint my[2], *all = malloc(2 * size * sizeof(MPI_Aint));
    MPI_Get_address(r1, &my[0]);
    MPI_Get_address(r2, &my[1]);
    MPI_Allgather(my, 2, MPI_AINT, all, 2, MPI_AINT, MPI_COMM_WORLD);

    /* fence: put into the right neighbour's first region, element rank */
    int src[M];
    for (int i = 0; i < M; i++)
        src[i] = rank * 100 + i;
    CHECK_OK(MPI_Win_fence(0, win));
    CHECK_OK(MPI_Put(src, M, MPI_INT, right, all[2 * right], M, MPI_INT, win));
    double d = rank + 0.5;
    CHECK_OK(MPI_Put(&d, 1, MPI_DOUBLE, right, MPI_Aint_add(all[2 * right + 1], 3 * sizeof(double)), 1,
                     MPI_DOUBLE, win));
    CHECK_OK(MPI_Win_fence(0, win));
    for (int i = 0; i < M; i++)
        CHECK(r1[i] == left * 100 + i, "fence put [%d] = %d", i, r1[i]);
    CHECK(r2[3] == left + 0.5, "fence put double %g", r2[3]);

    /* lock_all: read the left neighbour's regions back */
    int back[M];
    double dback = -1;
    CHECK_OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_OK(MPI_Win_lock_all(0, win));
    CHECK_OK(MPI_Get(back, M, MPI_INT, left, all[2 * left], M, MPI_INT, win));
    CHECK_OK(MPI_Get(&dback, 1, MPI_DOUBLE, left, MPI_Aint_add(all[2 * left + 1], 3 * sizeof(double)), 1,
                     MPI_DOUBLE, win));
    CHECK_OK(MPI_Win_flush(left, win));
    int lleft = (left + size - 1) % size;
    for (int i = 0; i < M; i++)
        CHECK(back[i] == lleft * 100 + i, "lock get [%d] = %d", i, back[i]);
    CHECK(dback == lleft + 0.5, "lock get double %g", dback);
    /* an accumulate into the middle of a region nobody reads now */
    double one = 1;
    CHECK_OK(MPI_Accumulate(&one, 1, MPI_DOUBLE, 0, MPI_Aint_add(all[1], 7 * sizeof(double)), 1,
                            MPI_DOUBLE, MPI_SUM, win));
    CHECK_OK(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        CHECK_OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        CHECK(r2[7] == size, "accumulate into region: %g", r2[7]);
        CHECK_OK(MPI_Win_unlock(0, win));
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* detach the first region, attach a new one, exchange again */
    CHECK_OK(MPI_Win_detach(win, r1));
    long *r3 = calloc(M, sizeof(long));
    CHECK_OK(MPI_Win_attach(win, r3, M * sizeof(long)));
    MPI_Get_address(r3, &my[0]);
    MPI_Allgather(my, 2, MPI_AINT, all, 2, MPI_AINT, MPI_COMM_WORLD);
    CHECK_OK(MPI_Win_lock_all(0, win));
    long lv[2] = {rank * 1000L, rank * 1000L + 1};
    for (int t = 0; t < size && t < M / 2; t++)
        CHECK_OK(MPI_Put(lv, 2, MPI_LONG, t, MPI_Aint_add(all[2 * t], 2 * rank * sizeof(long)), 2,
                         MPI_LONG, win));
    CHECK_OK(MPI_Win_flush_all(win));
    CHECK_OK(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    for (int o = 0; o < size && o < M / 2; o++)
        CHECK(r3[2 * o] == o * 1000L && r3[2 * o + 1] == o * 1000L + 1, "new region from %d: %ld %ld", o,
              r3[2 * o], r3[2 * o + 1]);
    CHECK_OK(MPI_Win_unlock(rank, win));
    MPI_Barrier(MPI_COMM_WORLD);

    CHECK_OK(MPI_Win_detach(win, r3));
    CHECK_OK(MPI_Win_detach(win, r2));
    /* a window with nothing attached can still synchronise */
    CHECK_OK(MPI_Win_fence(0, win));
    CHECK_OK(MPI_Win_fence(0, win));
    /* memory attached on only some ranks (a zero-size attach is allowed
     * nowhere else, so attach real memory on even ranks only) */
    static int slot;
    slot = -1;
    if (rank % 2 == 0)
        CHECK_OK(MPI_Win_attach(win, &slot, sizeof slot));
    MPI_Aint sa;
    MPI_Get_address(&slot, &sa);
    MPI_Allgather(&sa, 1, MPI_AINT, all, 1, MPI_AINT, MPI_COMM_WORLD);
    int even = (rank / 2) * 2;
    int val = rank;
    CHECK_OK(MPI_Win_fence(0, win));
    if (rank % 2 == 1)
        CHECK_OK(MPI_Put(&val, 1, MPI_INT, even, all[even], 1, MPI_INT, win));
    CHECK_OK(MPI_Win_fence(0, win));
    if (rank % 2 == 0) {
        CHECK(slot == (rank + 1 < size ? rank + 1 : -1), "put into attached int: %d", slot);
        CHECK_OK(MPI_Win_detach(win, &slot));
    }

    /* one array attached as two halves, one after the other: a put and a
     * get spanning both halves (MPICH and Open MPI take them too) */
    enum { H = 64 };
    int *arr = calloc(2 * H, sizeof *arr), out[2 * H], got2[2 * H];
    CHECK_OK(MPI_Win_attach(win, arr, H * sizeof *arr));
    CHECK_OK(MPI_Win_attach(win, arr + H, H * sizeof *arr));
    MPI_Aint aa;
    MPI_Get_address(arr, &aa);
    MPI_Allgather(&aa, 1, MPI_AINT, all, 1, MPI_AINT, MPI_COMM_WORLD);
    for (int i = 0; i < 2 * H; i++)
        out[i] = rank * 1000 + i;
    CHECK_OK(MPI_Win_fence(0, win));
    CHECK_OK(MPI_Put(out, 2 * H, MPI_INT, right, all[right], 2 * H, MPI_INT, win));
    CHECK_OK(MPI_Win_fence(0, win));
    for (int i = 0; i < 2 * H; i++)
        CHECK(arr[i] == left * 1000 + i, "put across two attached halves: [%d] = %d", i, arr[i]);
    CHECK_OK(MPI_Get(got2, 2 * H, MPI_INT, right, all[right], 2 * H, MPI_INT, win));
    CHECK_OK(MPI_Win_fence(0, win));
    for (int i = 0; i < 2 * H; i++)
        CHECK(got2[i] == rank * 1000 + i, "get across two attached halves: [%d] = %d", i, got2[i]);
    CHECK_OK(MPI_Win_detach(win, arr));
    CHECK_OK(MPI_Win_detach(win, arr + H));

    CHECK_OK(MPI_Win_free(&win));
    free(r1);
    free(r2);
    free(r3);
    free(arr);
    free(all);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("rma_dynamic: ok\n");
    MPI_Finalize();
    return 0;
}
