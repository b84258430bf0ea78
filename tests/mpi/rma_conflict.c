/*
 * rma_conflict.c: conflicting accesses within one epoch are refused with
 * MPI_ERR_RMA_CONFLICT when the runtime checks them (rma_check=1; argv[1]
 * "check"), and pass unchecked otherwise (argv[1] "off"). Each rank works
 * on its right neighbour's window, under fence, lock and lock_all epochs:
 * put then get of the same bytes, put then put, get then accumulate;
 * allowed in the same epoch: gets of the same bytes, accumulates of the
 * same bytes, accesses of disjoint bytes, strided (vector) puts whose
 * ranges interleave, and any access after a flush.
 */
#include "testutil.h"

static int errclass(int rc)
{
    int c = rc;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &c);
    return c;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int check = argc > 1 && strcmp(argv[1], "check") == 0;
    int want = check ? MPI_ERR_RMA_CONFLICT : MPI_SUCCESS;
    int *mem;
    MPI_Win win;
    MPI_Win_allocate(64 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    int right = (rank + 1) % size;
    int a[16] = {0}, b[16] = {0};
    MPI_Datatype vec;
    MPI_Type_vector(4, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);

    /* fence: put then get of overlapping bytes */
    MPI_Win_fence(0, win);
    CHECK_OK(MPI_Put(a, 4, MPI_INT, right, 0, 4, MPI_INT, win));
    int rc = MPI_Get(b, 4, MPI_INT, right, 2, 4, MPI_INT, win);
    CHECK(errclass(rc) == want, "put then get: class %d, expected %d", errclass(rc), want);
    if (rc != MPI_SUCCESS && rank == 0) {
        char msg[MPI_MAX_ERROR_STRING];
        int len;
        MPI_Error_string(rc, msg, &len);
        printf("refused: %s\n", msg);
    }
    /* disjoint bytes, gets of the same bytes, accumulates of the same bytes */
    CHECK_OK(MPI_Put(a, 4, MPI_INT, right, 8, 4, MPI_INT, win));
    CHECK_OK(MPI_Get(b, 2, MPI_INT, right, 16, 2, MPI_INT, win));
    CHECK_OK(MPI_Get(b + 2, 2, MPI_INT, right, 16, 2, MPI_INT, win));
    CHECK_OK(MPI_Accumulate(a, 4, MPI_INT, right, 20, 4, MPI_INT, MPI_SUM, win));
    CHECK_OK(MPI_Accumulate(a, 4, MPI_INT, right, 20, 4, MPI_INT, MPI_SUM, win));
    /* interleaved strided puts: ranges overlap, bytes do not */
    CHECK_OK(MPI_Put(a, 4, MPI_INT, right, 32, 1, vec, win));
    CHECK_OK(MPI_Put(a, 4, MPI_INT, right, 33, 1, vec, win));
    MPI_Win_fence(0, win);
    /* a new epoch forgets the old one */
    CHECK_OK(MPI_Get(b, 4, MPI_INT, right, 0, 4, MPI_INT, win));
    MPI_Win_fence(0, win);

    /* lock: put then put; after a flush the same bytes are free again */
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
    CHECK_OK(MPI_Put(a, 2, MPI_INT, right, 40, 2, MPI_INT, win));
    rc = MPI_Put(a, 2, MPI_INT, right, 41, 2, MPI_INT, win);
    CHECK(errclass(rc) == want, "put then put: class %d, expected %d", errclass(rc), want);
    CHECK_OK(MPI_Win_flush(right, win));
    CHECK_OK(MPI_Get(b, 2, MPI_INT, right, 40, 2, MPI_INT, win));
    /* get then accumulate of the same bytes */
    rc = MPI_Accumulate(a, 2, MPI_INT, right, 40, 2, MPI_INT, MPI_SUM, win);
    CHECK(errclass(rc) == want, "get then accumulate: class %d, expected %d", errclass(rc), want);
    MPI_Win_unlock(right, win);

    /* lock_all: an accumulate then a put; other targets are separate */
    MPI_Win_lock_all(0, win);
    CHECK_OK(MPI_Fetch_and_op(a, b, MPI_INT, right, 50, MPI_SUM, win));
    rc = MPI_Put(a, 1, MPI_INT, right, 50, 1, MPI_INT, win);
    CHECK(errclass(rc) == want, "fetch_and_op then put: class %d, expected %d", errclass(rc), want);
    CHECK_OK(MPI_Put(a, 1, MPI_INT, rank, 50, 1, MPI_INT, win));
    MPI_Win_unlock_all(win);

    MPI_Type_free(&vec);
    MPI_Win_free(&win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("rma_conflict: ok (%s)\n", check ? "checked" : "unchecked");
    MPI_Finalize();
    return 0;
}
