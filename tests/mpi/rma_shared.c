/*
 * rma_shared.c: shared memory windows (MPI-3.1 6.4.2, 11.2.3):
 * MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), MPI_Win_allocate_shared with
 * a different size on each rank, MPI_Win_shared_query for every rank (the
 * default layout is contiguous) and for MPI_PROC_NULL (the segment of the
 * lowest rank with a nonzero size), direct loads and stores into other
 * ranks' segments made visible with MPI_Win_sync and a barrier (the
 * standard's unified-model example), RMA calls on the same window, and a
 * window with "alloc_shared_noncontig".
 */
#include "testutil.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int wrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm shm;
    CHECK_OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm));
    int rank, size;
    MPI_Comm_rank(shm, &rank);
    MPI_Comm_size(shm, &size);

    /* rank r has (r+1)*4 ints */
    MPI_Aint mysz = (MPI_Aint)(rank + 1) * 4 * sizeof(int);
    int *mine = NULL;
    MPI_Win win;
    CHECK_OK(MPI_Win_allocate_shared(mysz, sizeof(int), MPI_INFO_NULL, shm, &mine, &win));
    int *fl = NULL, flag = 0;
    CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &fl, &flag));
    CHECK(flag && *fl == MPI_WIN_FLAVOR_SHARED, "flavor %d", flag ? *fl : -1);
    int *model = NULL;
    CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag));
    CHECK(flag && *model == MPI_WIN_UNIFIED, "model %d", flag ? *model : -1);
    void *wbase = NULL;
    CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_BASE, &wbase, &flag));
    CHECK(flag && wbase == mine, "MPI_WIN_BASE %p, allocated %p", wbase, (void *)mine);

    int **seg = malloc(size * sizeof(int *));
    for (int r = 0; r < size; r++) {
        MPI_Aint sz = -1;
        int du = -1;
        CHECK_OK(MPI_Win_shared_query(win, r, &sz, &du, &seg[r]));
        CHECK(sz == (MPI_Aint)(r + 1) * 4 * (MPI_Aint)sizeof(int), "rank %d size %ld", r, (long)sz);
        CHECK(du == sizeof(int), "rank %d disp_unit %d", r, du);
        if (r == rank)
            CHECK(seg[r] == mine, "my segment at %p, allocated at %p", (void *)seg[r], (void *)mine);
        /* contiguous by default: each segment follows the one before */
        if (r > 0)
            CHECK(seg[r] == seg[r - 1] + 4 * r, "segment %d not right after segment %d", r, r - 1);
    }

    /* each rank stores into its own segment, then reads all others */
    CHECK_OK(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
    for (int i = 0; i < (rank + 1) * 4; i++)
        mine[i] = rank * 100 + i;
    CHECK_OK(MPI_Win_sync(win));
    MPI_Barrier(shm);
    CHECK_OK(MPI_Win_sync(win));
    for (int r = 0; r < size; r++)
        for (int i = 0; i < (r + 1) * 4; i++)
            CHECK(seg[r][i] == r * 100 + i, "load of rank %d [%d] = %d", r, i, seg[r][i]);
    MPI_Barrier(shm);
    /* each rank stores into its right neighbour's first element */
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    seg[right][0] = -(rank + 1);
    CHECK_OK(MPI_Win_sync(win));
    MPI_Barrier(shm);
    CHECK_OK(MPI_Win_sync(win));
    CHECK(mine[0] == -(left + 1), "store from %d seen as %d", left, mine[0]);
    /* RMA on the same window: put into the left neighbour's last element */
    int v = 7000 + rank;
    CHECK_OK(MPI_Put(&v, 1, MPI_INT, left, (left + 1) * 4 - 1, 1, MPI_INT, win));
    CHECK_OK(MPI_Win_flush(left, win));
    MPI_Barrier(shm);
    CHECK_OK(MPI_Win_sync(win));
    CHECK(mine[(rank + 1) * 4 - 1] == 7000 + right, "put seen as %d", mine[(rank + 1) * 4 - 1]);
    /* atomics on shared memory from everyone */
    int one = 1, old = -1;
    CHECK_OK(MPI_Fetch_and_op(&one, &old, MPI_INT, 0, 1, MPI_SUM, win));
    CHECK_OK(MPI_Win_flush(0, win));
    MPI_Barrier(shm);
    CHECK_OK(MPI_Win_sync(win));
    CHECK(seg[0][1] == 1 + size, "fetch-and-add total %d", seg[0][1]);
    CHECK_OK(MPI_Win_unlock_all(win));
    CHECK_OK(MPI_Win_free(&win));
    free(seg);

    /* rank 0 has no memory: MPI_PROC_NULL names the lowest rank with some */
    MPI_Aint sz2 = rank == 0 ? 0 : 64;
    double *m2 = NULL;
    CHECK_OK(MPI_Win_allocate_shared(sz2, 1, MPI_INFO_NULL, shm, &m2, &win));
    MPI_Aint qsz = -1;
    int qdu = -1;
    double *q = NULL;
    CHECK_OK(MPI_Win_shared_query(win, MPI_PROC_NULL, &qsz, &qdu, &q));
    if (size > 1) {
        double *s1 = NULL;
        MPI_Aint s1sz;
        int s1du;
        CHECK_OK(MPI_Win_shared_query(win, 1, &s1sz, &s1du, &s1));
        CHECK(qsz == 64 && qdu == 1 && q == s1, "MPI_PROC_NULL query: size %ld, base %p, rank 1 at %p",
              (long)qsz, (void *)q, (void *)s1);
        CHECK_OK(MPI_Win_lock_all(0, win));
        if (rank == 1)
            q[0] = 2.5;
        CHECK_OK(MPI_Win_sync(win));
        MPI_Barrier(shm);
        CHECK_OK(MPI_Win_sync(win));
        CHECK(q[0] == 2.5, "store through the MPI_PROC_NULL segment: %g", q[0]);
        CHECK_OK(MPI_Win_unlock_all(win));
    } else {
        CHECK(qsz == 0, "MPI_PROC_NULL query of an empty window: size %ld", (long)qsz);
    }
    CHECK_OK(MPI_Win_free(&win));

    /* alloc_shared_noncontig: segments anywhere, still all reachable */
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    long *m3 = NULL;
    CHECK_OK(MPI_Win_allocate_shared(8 * sizeof(long), sizeof(long), info, shm, &m3, &win));
    MPI_Info_free(&info);
    CHECK_OK(MPI_Win_lock_all(0, win));
    for (int i = 0; i < 8; i++)
        m3[i] = rank * 10L + i;
    CHECK_OK(MPI_Win_sync(win));
    MPI_Barrier(shm);
    CHECK_OK(MPI_Win_sync(win));
    for (int r = 0; r < size; r++) {
        long *p = NULL;
        MPI_Aint s;
        int du;
        CHECK_OK(MPI_Win_shared_query(win, r, &s, &du, &p));
        /* the size given at allocation (Open MPI 4.1 gives it rounded up
         * to a page here) */
        CHECK(s == 8 * sizeof(long) && du == sizeof(long), "noncontig rank %d: %ld %d", r, (long)s, du);
        for (int i = 0; i < 8; i++)
            CHECK(p[i] == r * 10L + i, "noncontig load of %d [%d] = %ld", r, i, p[i]);
    }
    CHECK_OK(MPI_Win_unlock_all(win));
    CHECK_OK(MPI_Win_free(&win));

    MPI_Comm_free(&shm);
    MPI_Barrier(MPI_COMM_WORLD);
    if (wrank == 0)
        printf("rma_shared: ok\n");
    MPI_Finalize();
    return 0;
}
