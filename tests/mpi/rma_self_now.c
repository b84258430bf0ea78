/*
 * rma_self_now.c: one-sided operations whose target is the calling process
 * complete when the call returns (as in other MPIs), in fence, lock and
 * lock_all epochs, on windows from MPI_Win_create (operations as
 * messages) and MPI_Win_allocate. Each result buffer is read, then
 * overwritten with garbage, before the closing synchronisation: a late
 * result would clobber the garbage or be missing. Reading results before
 * the epoch ends is not promised by the standard, but codes (and a Python
 * binding's tests) rely on it.
 */
#include "testutil.h"

#include <stdint.h>

static int rank;

static void ops_on_self(MPI_Win win, long *base, const char *epoch)
{
    long one = 1, res = -99, cmp, swap, garbage = 0x5a5a5a5a;
    /* fetch-and-op: 10 + 1 */
    CHECK_OK(MPI_Fetch_and_op(&one, &res, MPI_LONG, rank, 0, MPI_SUM, win));
    CHECK(res == 10, "%s: fetch_and_op on self gave %ld before the epoch's end, expected 10", epoch, res);
    res = garbage;
    /* compare-and-swap: 11 == 11, becomes 42 */
    cmp = 11;
    swap = 42;
    long cas = -99;
    CHECK_OK(MPI_Compare_and_swap(&swap, &cmp, &cas, MPI_LONG, rank, 0, win));
    CHECK(cas == 11, "%s: compare_and_swap on self gave %ld, expected 11", epoch, cas);
    cas = garbage;
    /* get_accumulate of two elements */
    long add[2] = {1, 2}, got[2] = {-1, -1};
    CHECK_OK(MPI_Get_accumulate(add, 2, MPI_LONG, got, 2, MPI_LONG, rank, 1, 2, MPI_LONG, MPI_SUM, win));
    CHECK(got[0] == 20 && got[1] == 30, "%s: get_accumulate on self gave %ld %ld, expected 20 30", epoch, got[0],
          got[1]);
    got[0] = got[1] = garbage;
    /* get */
    long g = -1;
    CHECK_OK(MPI_Get(&g, 1, MPI_LONG, rank, 2, 1, MPI_LONG, win));
    CHECK(g == 32, "%s: get on self gave %ld, expected 32", epoch, g);
    g = garbage;
    (void)base;
}

static void reset(MPI_Win win, long *base)
{
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
    base[0] = 10;
    base[1] = 20;
    base[2] = 30;
    MPI_Win_unlock(rank, win);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void check_final(long *base, const char *epoch)
{
    CHECK(base[0] == 42 && base[1] == 21 && base[2] == 32, "%s: window holds %ld %ld %ld, expected 42 21 32", epoch,
          base[0], base[1], base[2]);
}

static void run(int allocate)
{
    MPI_Win win;
    long *base;
    if (allocate) {
        CHECK_OK(MPI_Win_allocate(3 * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    } else {
        base = calloc(3, sizeof(long));
        CHECK(base != NULL, "out of memory");
        CHECK_OK(MPI_Win_create(base, 3 * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    }
    const char *kind = allocate ? "allocate" : "create";
    char what[64];

    reset(win, base);
    MPI_Win_fence(0, win);
    snprintf(what, sizeof what, "%s/fence", kind);
    ops_on_self(win, base, what);
    MPI_Win_fence(0, win);
    check_final(base, what);

    reset(win, base);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
    snprintf(what, sizeof what, "%s/lock", kind);
    ops_on_self(win, base, what);
    MPI_Win_unlock(rank, win);
    check_final(base, what);

    reset(win, base);
    MPI_Win_lock_all(0, win);
    snprintf(what, sizeof what, "%s/lock_all", kind);
    ops_on_self(win, base, what);
    MPI_Win_unlock_all(win);
    MPI_Win_sync(win);
    check_final(base, what);

    MPI_Win_free(&win);
    if (!allocate)
        free(base);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    run(0);
    run(1);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("rma_self_now: ok\n");
    MPI_Finalize();
    return 0;
}
