/*
 * rma_errors.c: error classes of one-sided calls under MPI_ERRORS_RETURN
 * (MPI-3.1 8.4, 11.2-11.5): invalid arguments to window creation
 * (MPI_ERR_SIZE, MPI_ERR_DISP), RMA outside any epoch and unmatched
 * synchronization calls (MPI_ERR_RMA_SYNC), target memory outside the
 * window (MPI_ERR_RMA_RANGE), bad ranks, displacements, counts, types and
 * ops, MPI_WIN_NULL (MPI_ERR_WIN), calls for another flavor
 * (MPI_ERR_RMA_FLAVOR), a bad lock type (MPI_ERR_LOCKTYPE). Every failing
 * call is local (collective ones fail the same way on every rank), so no
 * rank waits for another; afterwards the window still works.
 */
#include "testutil.h"

/* the call fails with one of two classes (where the standard names none) */
#define CHECK_ERR2(call, c1, c2)                                                  \
    do {                                                                          \
        int rc2_ = (call), cl2_ = -1;                                             \
        if (rc2_ != MPI_SUCCESS)                                                  \
            MPI_Error_class(rc2_, &cl2_);                                         \
        CHECK(cl2_ == (c1) || cl2_ == (c2), "%s returned class %d, expected %s or %s", \
              #call, cl2_, #c1, #c2);                                             \
    } while (0)

static void my_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

/* An access outside a dynamic window's attached memory gives
 * MPI_ERR_RMA_RANGE at the call (rc) or at the flush of the target. */
static void range_error_by_flush(int rc, int target, MPI_Win win)
{
    if (rc == MPI_SUCCESS) {
        CHECK_ERR(MPI_Win_flush(target, win), MPI_ERR_RMA_RANGE);
    } else {
        int cls;
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_RMA_RANGE, "out-of-range put returned class %d", cls);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size;
    /* errors with no window to raise them on (MPI_WIN_NULL, creation) go
     * to MPI_COMM_WORLD's handler or the communicator's */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    static int buf[4];
    MPI_Win win = MPI_WIN_NULL;
    /* creation with bad arguments, the same on every rank */
    CHECK_ERR(MPI_Win_create(buf, -4, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win), MPI_ERR_SIZE);
    void *p = NULL;
    CHECK_ERR(MPI_Win_allocate(-1, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &p, &win), MPI_ERR_SIZE);
    /* disp_unit must be positive; the standard names no class: Open MPI
     * and MPICH differ (MPI_ERR_DISP / MPI_ERR_ARG), either is accepted */
    CHECK_ERR2(MPI_Win_create(buf, sizeof buf, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &win), MPI_ERR_DISP,
               MPI_ERR_ARG);
    CHECK_ERR(MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_NULL, &win),
              MPI_ERR_COMM);
    CHECK(win == MPI_WIN_NULL, "a failed creation gave a window");

    CHECK_OK(MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    int v[4] = {1, 2, 3, 4};

    /* RMA and synchronization outside any epoch */
    CHECK_ERR(MPI_Put(v, 1, MPI_INT, right, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Get(v, 1, MPI_INT, right, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Accumulate(v, 1, MPI_INT, right, 0, 1, MPI_INT, MPI_SUM, win), MPI_ERR_RMA_SYNC);
    int r1 = 0;
    CHECK_ERR(MPI_Fetch_and_op(v, &r1, MPI_INT, right, 0, MPI_SUM, win), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Win_unlock(right, win), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Win_unlock_all(win), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Win_flush(right, win), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Win_flush_all(win), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Win_flush_local(right, win), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Win_complete(win), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Win_wait(win), MPI_ERR_RMA_SYNC);
    int flag = 0;
    CHECK_ERR(MPI_Win_test(win, &flag), MPI_ERR_RMA_SYNC);
    /* MPI_ERR_LOCKTYPE is the class for this (MPICH 4.0 says MPI_ERR_ARG) */
    CHECK_ERR(MPI_Win_lock(12345, right, 0, win), MPI_ERR_LOCKTYPE);
    CHECK_ERR(MPI_Win_lock(MPI_LOCK_SHARED, size, 0, win), MPI_ERR_RANK);

    /* inside a passive target epoch */
    CHECK_OK(MPI_Win_lock_all(0, win));
    CHECK_ERR(MPI_Win_lock_all(0, win), MPI_ERR_RMA_SYNC);
    /* target memory beyond the window (4 ints): the origin knows the
     * size of every target's window, so the call itself fails (Open MPI
     * 4.1 and MPICH 4.0 do not check: they access the memory) */
    CHECK_ERR(MPI_Put(v, 1, MPI_INT, right, 4, 1, MPI_INT, win), MPI_ERR_RMA_RANGE);
    CHECK_ERR(MPI_Put(v, 2, MPI_INT, right, 3, 2, MPI_INT, win), MPI_ERR_RMA_RANGE);
    CHECK_ERR(MPI_Get(v, 4, MPI_INT, right, 1, 4, MPI_INT, win), MPI_ERR_RMA_RANGE);
    CHECK_ERR(MPI_Accumulate(v, 1, MPI_INT, right, 100, 1, MPI_INT, MPI_SUM, win), MPI_ERR_RMA_RANGE);
    CHECK_ERR(MPI_Fetch_and_op(v, &r1, MPI_INT, right, 4, MPI_SUM, win), MPI_ERR_RMA_RANGE);
    int cmp = 0;
    CHECK_ERR(MPI_Compare_and_swap(v, &cmp, &r1, MPI_INT, right, 1000, win), MPI_ERR_RMA_RANGE);
    /* a negative displacement in a window with a base */
    CHECK_ERR(MPI_Put(v, 1, MPI_INT, right, -1, 1, MPI_INT, win), MPI_ERR_DISP);
    /* bad target ranks; MPI_PROC_NULL is a no-op */
    CHECK_ERR(MPI_Put(v, 1, MPI_INT, size, 0, 1, MPI_INT, win), MPI_ERR_RANK);
    CHECK_ERR(MPI_Get(v, 1, MPI_INT, -5, 0, 1, MPI_INT, win), MPI_ERR_RANK);
    CHECK_ERR(MPI_Win_flush(size + 3, win), MPI_ERR_RANK);
    CHECK_OK(MPI_Put(v, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win));
    CHECK_OK(MPI_Get(v, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win));
    /* counts, types, ops */
    CHECK_ERR(MPI_Put(v, -1, MPI_INT, right, 0, 1, MPI_INT, win), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Get(v, 1, MPI_INT, right, 0, -2, MPI_INT, win), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Put(v, 1, MPI_DATATYPE_NULL, right, 0, 1, MPI_INT, win), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Get(v, 1, MPI_INT, right, 0, 1, MPI_DATATYPE_NULL, win), MPI_ERR_TYPE);
    MPI_Datatype uncommitted;
    MPI_Type_contiguous(2, MPI_INT, &uncommitted);
    CHECK_ERR(MPI_Put(v, 1, uncommitted, right, 0, 2, MPI_INT, win), MPI_ERR_TYPE);
    MPI_Type_free(&uncommitted);
    MPI_Op uop;
    MPI_Op_create(my_sum, 1, &uop);
    /* accumulate takes predefined ops only */
    CHECK_ERR(MPI_Accumulate(v, 1, MPI_INT, right, 0, 1, MPI_INT, uop, win), MPI_ERR_OP);
    CHECK_ERR(MPI_Accumulate(v, 1, MPI_INT, right, 0, 1, MPI_INT, MPI_OP_NULL, win), MPI_ERR_OP);
    MPI_Op_free(&uop);
    /* compare-and-swap takes integer, logical and byte types only */
    float fv = 1, fc = 0, fr;
    CHECK_ERR(MPI_Compare_and_swap(&fv, &fc, &fr, MPI_FLOAT, right, 0, win), MPI_ERR_TYPE);
    /* fetch-and-op takes one predefined element */
    MPI_Datatype two;
    MPI_Type_contiguous(2, MPI_INT, &two);
    MPI_Type_commit(&two);
    CHECK_ERR(MPI_Fetch_and_op(v, &r1, two, right, 0, MPI_SUM, win), MPI_ERR_TYPE);
    MPI_Type_free(&two);
    /* the window: MPI_WIN_NULL */
    CHECK_ERR(MPI_Put(v, 1, MPI_INT, right, 0, 1, MPI_INT, MPI_WIN_NULL), MPI_ERR_WIN);
    CHECK_ERR(MPI_Win_flush_all(MPI_WIN_NULL), MPI_ERR_WIN);
    CHECK_OK(MPI_Win_unlock_all(win));
    /* an exclusive lock held: a second lock of the same target */
    CHECK_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    CHECK_ERR(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win), MPI_ERR_RMA_SYNC);
    CHECK_OK(MPI_Win_unlock(rank, win));
    CHECK_ERR(MPI_Win_unlock(rank, win), MPI_ERR_RMA_SYNC);

    /* MPI_WIN_NULL in synchronization and management calls */
    CHECK_ERR(MPI_Win_fence(0, MPI_WIN_NULL), MPI_ERR_WIN);
    CHECK_ERR(MPI_Win_lock_all(0, MPI_WIN_NULL), MPI_ERR_WIN);
    MPI_Win nw = MPI_WIN_NULL;
    CHECK_ERR(MPI_Win_free(&nw), MPI_ERR_WIN);
    MPI_Group g;
    CHECK_ERR(MPI_Win_get_group(MPI_WIN_NULL, &g), MPI_ERR_WIN);

    /* calls for another flavor */
    MPI_Aint qs;
    int qd;
    void *qb;
    CHECK_ERR(MPI_Win_shared_query(win, 0, &qs, &qd, &qb), MPI_ERR_RMA_FLAVOR);
    static int extra[4];
    CHECK_ERR(MPI_Win_attach(win, extra, sizeof extra), MPI_ERR_RMA_FLAVOR);
    CHECK_ERR(MPI_Win_detach(win, extra), MPI_ERR_RMA_FLAVOR);

    /* the window still works after all that */
    CHECK_OK(MPI_Win_fence(0, win));
    int mine = 40 + rank;
    CHECK_OK(MPI_Put(&mine, 1, MPI_INT, right, 2, 1, MPI_INT, win));
    /* fence epoch: a rank that is not part of the window group */
    CHECK_ERR(MPI_Put(&mine, 1, MPI_INT, size + 1, 0, 1, MPI_INT, win), MPI_ERR_RANK);
    CHECK_OK(MPI_Win_fence(0, win));
    int left = (rank + size - 1) % size;
    CHECK(buf[2] == 40 + left, "put after the errors: %d", buf[2]);
    CHECK_OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    CHECK_OK(MPI_Win_free(&win));

    /* a dynamic window: memory not attached is out of range */
    CHECK_OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    static int att[4];
    CHECK_OK(MPI_Win_attach(win, att, sizeof att));
    MPI_Aint a, *all = malloc(size * sizeof(MPI_Aint));
    MPI_Get_address(att, &a);
    MPI_Allgather(&a, 1, MPI_AINT, all, 1, MPI_AINT, MPI_COMM_WORLD);
    CHECK_ERR(MPI_Win_shared_query(win, 0, &qs, &qd, &qb), MPI_ERR_RMA_FLAVOR);
    CHECK_OK(MPI_Win_lock_all(0, win));
    /* only the target knows what it attached: the error may come from
     * the call or from the synchronisation that completes it (here the
     * flush); either way the target's memory is not touched */
    range_error_by_flush(MPI_Put(v, 1, MPI_INT, right, MPI_Aint_add(all[right], 4 * sizeof(int)), 1, MPI_INT, win),
                         right, win);
    range_error_by_flush(MPI_Put(v, 2, MPI_INT, right, MPI_Aint_add(all[right], 3 * sizeof(int)), 2, MPI_INT, win),
                         right, win);
    static const int four[4] = {1, 2, 3, 4};
    CHECK_OK(MPI_Put(four, 4, MPI_INT, right, all[right], 4, MPI_INT, win));
    CHECK_OK(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_OK(MPI_Win_detach(win, att));
    CHECK_OK(MPI_Win_free(&win));
    CHECK(att[0] == 1 && att[3] == 4, "dynamic put: %d %d", att[0], att[3]);
    free(all);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("rma_errors: ok\n");
    MPI_Finalize();
    return 0;
}
