/*
 * rma_lock.c: passive target communication (MPI-3.1 11.5.3-11.5.4):
 * MPI_Win_lock / MPI_Win_unlock exclusive and shared, MPI_Win_lock_all /
 * unlock_all, MPI_Win_flush, flush_all, flush_local, flush_local_all and
 * MPI_Win_sync. A counter guarded by an exclusive lock is incremented by
 * every rank many times while its owner sits in MPI_Barrier (the target
 * makes no other MPI call during the epochs); the final value must be
 * exact. Then counters on every rank, each incremented by every rank.
 */
#include "testutil.h"

#define NITER 40
#define CNT 0     /* the counter */
#define LOCAL 2   /* written by its owner with load/store */
#define SELF 3    /* written by its owner under an exclusive self-lock */
#define ALLCNT 4  /* counters incremented by everybody */
#define FLA 5     /* flush_local targets */
#define FLB 6
#define RO 7      /* read-only data */
#define SLOTS 8   /* then one slot per origin */

static void locked_increment(int target, int slot, MPI_Win win)
{
    int v = -1;
    CHECK_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win));
    CHECK_OK(MPI_Get(&v, 1, MPI_INT, target, slot, 1, MPI_INT, win));
    CHECK_OK(MPI_Win_flush(target, win)); /* the get is complete: v is valid */
    v++;
    CHECK_OK(MPI_Put(&v, 1, MPI_INT, target, slot, 1, MPI_INT, win));
    CHECK_OK(MPI_Win_unlock(target, win));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size;
    int n = SLOTS + size;
    int *buf = calloc(n, sizeof(int));
    buf[RO] = 1000 + rank;
    MPI_Win win;
    CHECK_OK(MPI_Win_create(buf, n * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));

    /* the counter lives on the last rank, which only waits in a barrier */
    int T = size - 1;
    int workers = size > 1 ? size - 1 : 1;
    if (rank != T || size == 1)
        for (int i = 0; i < NITER; i++)
            locked_increment(T, CNT, win);
    MPI_Barrier(MPI_COMM_WORLD);
    int v = -1;
    CHECK_OK(MPI_Win_lock(MPI_LOCK_SHARED, T, 0, win));
    CHECK_OK(MPI_Get(&v, 1, MPI_INT, T, CNT, 1, MPI_INT, win));
    CHECK_OK(MPI_Win_unlock(T, win));
    CHECK(v == workers * NITER, "counter %d, expected %d", v, workers * NITER);
    if (rank == T) {
        /* the owner reads its own memory under a lock of its own window */
        CHECK_OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
        CHECK(buf[CNT] == workers * NITER, "owner sees counter %d", buf[CNT]);
        CHECK_OK(MPI_Win_unlock(rank, win));
    }

    /* shared locks held by everyone at once on every target */
    for (int k = 0; k < size; k++) {
        int t = (rank + k) % size;
        int ro = -1;
        CHECK_OK(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
        CHECK_OK(MPI_Get(&ro, 1, MPI_INT, t, RO, 1, MPI_INT, win));
        CHECK_OK(MPI_Win_unlock(t, win));
        CHECK(ro == 1000 + t, "shared-lock get from %d: %d", t, ro);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* lock_all: put into my slot on every rank, flush, read it back in
     * the same epoch */
    CHECK_OK(MPI_Win_lock_all(0, win));
    for (int k = 0; k < size; k++) {
        int t = (rank + k) % size;
        int val = rank * 7 + t, back = -1;
        CHECK_OK(MPI_Put(&val, 1, MPI_INT, t, SLOTS + rank, 1, MPI_INT, win));
        CHECK_OK(MPI_Win_flush(t, win));
        CHECK_OK(MPI_Get(&back, 1, MPI_INT, t, SLOTS + rank, 1, MPI_INT, win));
        CHECK_OK(MPI_Win_flush(t, win));
        CHECK(back == val, "put then get on %d after flush: %d, expected %d", t, back, val);
    }
    /* flush_local: the origin buffer may be reused at once */
    int ob = 111 + rank;
    CHECK_OK(MPI_Put(&ob, 1, MPI_INT, right, FLA, 1, MPI_INT, win));
    CHECK_OK(MPI_Win_flush_local(right, win));
    ob = 222 + rank;
    CHECK_OK(MPI_Put(&ob, 1, MPI_INT, right, FLB, 1, MPI_INT, win));
    CHECK_OK(MPI_Win_flush_local_all(win));
    ob = -1;
    CHECK_OK(MPI_Win_flush_all(win));
    CHECK_OK(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    int left = (rank + size - 1) % size;
    for (int o = 0; o < size; o++)
        CHECK(buf[SLOTS + o] == o * 7 + rank, "slot of %d holds %d", o, buf[SLOTS + o]);
    CHECK(buf[FLA] == 111 + left && buf[FLB] == 222 + left, "flush_local puts: %d %d", buf[FLA],
          buf[FLB]);
    CHECK_OK(MPI_Win_unlock(rank, win));
    MPI_Barrier(MPI_COMM_WORLD);

    /* MPI_Win_sync: a local store made visible to others' gets */
    CHECK_OK(MPI_Win_lock_all(0, win));
    buf[LOCAL] = rank * 13 + 1;
    CHECK_OK(MPI_Win_sync(win));
    MPI_Barrier(MPI_COMM_WORLD);
    int loc = -1;
    CHECK_OK(MPI_Get(&loc, 1, MPI_INT, right, LOCAL, 1, MPI_INT, win));
    CHECK_OK(MPI_Win_flush(right, win));
    CHECK(loc == right * 13 + 1, "store on %d seen as %d", right, loc);
    CHECK_OK(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);

    /* local store under an exclusive lock of my own window */
    CHECK_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    buf[SELF] = 4242 + rank;
    CHECK_OK(MPI_Win_unlock(rank, win));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_OK(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    CHECK_OK(MPI_Get(&loc, 1, MPI_INT, right, SELF, 1, MPI_INT, win));
    CHECK_OK(MPI_Win_unlock(right, win));
    CHECK(loc == 4242 + right, "self-locked store on %d seen as %d", right, loc);

    /* every rank increments a counter on every rank, in different orders */
    int rounds = size > 8 ? 3 : 8;
    for (int r = 0; r < rounds; r++)
        for (int k = 0; k < size; k++)
            locked_increment((rank + k) % size, ALLCNT, win);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    CHECK(buf[ALLCNT] == rounds * size, "all-to-all counter %d, expected %d", buf[ALLCNT],
          rounds * size);
    CHECK_OK(MPI_Win_unlock(rank, win));

    /* MPI_Win_allocate memory works the same way */
    MPI_Win aw;
    int *abuf = NULL;
    CHECK_OK(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &abuf, &aw));
    CHECK_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, aw));
    *abuf = 0;
    CHECK_OK(MPI_Win_unlock(rank, aw));
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < NITER / 4; i++)
        locked_increment(0, 0, aw);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        CHECK_OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, aw));
        CHECK(*abuf == size * (NITER / 4), "allocated counter %d", *abuf);
        CHECK_OK(MPI_Win_unlock(0, aw));
    }
    CHECK_OK(MPI_Win_free(&aw));

    /* shared locks with MPI_MODE_NOCHECK: between the barriers nobody
     * takes an exclusive lock. Last, because MPICH 4.0.2 hangs in a later
     * exclusive MPI_Win_lock of a target once a NOCHECK lock of it was
     * released (the use here is valid by MPI-3.1 11.5.5). */
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 0; k < 2; k++) {
        int t = (rank + k) % size, ro = -1;
        CHECK_OK(MPI_Win_lock(MPI_LOCK_SHARED, t, MPI_MODE_NOCHECK, win));
        CHECK_OK(MPI_Get(&ro, 1, MPI_INT, t, RO, 1, MPI_INT, win));
        CHECK_OK(MPI_Win_unlock(t, win));
        CHECK(ro == 1000 + t, "nocheck get from %d: %d", t, ro);
    }
    CHECK_OK(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
    int ro = -1;
    CHECK_OK(MPI_Get(&ro, 1, MPI_INT, right, RO, 1, MPI_INT, win));
    CHECK_OK(MPI_Win_unlock_all(win));
    CHECK(ro == 1000 + right, "nocheck lock_all get %d", ro);
    MPI_Barrier(MPI_COMM_WORLD);

    CHECK_OK(MPI_Win_free(&win));
    free(buf);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("rma_lock: ok\n");
    MPI_Finalize();
    return 0;
}
