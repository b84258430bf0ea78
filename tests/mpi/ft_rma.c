/*
 * ft_rma.c: one-sided communication meeting a failed process (run under
 * mpiexec --enable-recovery, 4 ranks or more). The last rank dies; then
 *  - rank 0, once it knows, locks it, puts and unlocks:
 *    MPIX_ERR_PROC_FAILED (at the lock, which then opens no epoch, or at
 *    the put or the unlock), never a hang;
 *  - rank 1 starts a PSCW access epoch towards it: the post that never
 *    comes gives the error;
 *  - every survivor's MPI_Win_fence ends with MPIX_ERR_PROC_FAILED;
 * then the survivors free the window, shrink, and run a fence epoch of
 * puts on a window of the shrunk communicator, checked element by element.
 */
#include "testutil.h"

#include <mpi-ext.h>
#include <signal.h>

static int cls_of(int rc)
{
    int c = MPI_SUCCESS;
    if (rc)
        MPI_Error_class(rc, &c);
    return c;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= 4, "needs 4 ranks");
    MPI_Comm comm;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    int *base;
    MPI_Win win;
    CHECK_OK(MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, comm, &base, &win));
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    int victim = size - 1, v = 7, flag = 1;
    CHECK_OK(MPIX_Comm_agree(comm, &flag));
    if (rank == victim)
        raise(SIGKILL);
    if (rank == 0) {
        /* (a window in shared memory may let a lock and a put to a process
         * that died a moment ago succeed: they touch its memory, which
         * stays; so rank 0 waits until it knows) */
        MPI_Group failed;
        int n = 0;
        while (n == 0) {
            int f;
            MPI_Iprobe(MPI_ANY_SOURCE, 0, MPI_COMM_SELF, &f, MPI_STATUS_IGNORE);
            MPIX_Comm_get_failed(comm, &failed);
            MPI_Group_size(failed, &n);
            MPI_Group_free(&failed);
        }
        int rc = MPI_Win_lock(MPI_LOCK_EXCLUSIVE, victim, 0, win);
        int first = rc;
        if (rc == MPI_SUCCESS) {
            rc = MPI_Put(&v, 1, MPI_INT, victim, 0, 1, MPI_INT, win);
            first = rc;
            int urc = MPI_Win_unlock(victim, win);
            if (first == MPI_SUCCESS)
                first = urc;
        }
        CHECK(cls_of(first) == MPIX_ERR_PROC_FAILED, "lock/put/unlock to the dead: class %d", cls_of(first));
    } else if (rank == 1) {
        MPI_Group wg, dead;
        MPI_Win_get_group(win, &wg);
        MPI_Group_incl(wg, 1, &victim, &dead);
        int rc = MPI_Win_start(dead, 0, win);
        int first = rc;
        int crc = MPI_Win_complete(win);
        if (first == MPI_SUCCESS)
            first = crc;
        CHECK(cls_of(first) == MPIX_ERR_PROC_FAILED, "PSCW towards the dead: class %d", cls_of(first));
        MPI_Group_free(&dead);
        MPI_Group_free(&wg);
    }
    CHECK_ERR(MPI_Win_fence(0, win), MPIX_ERR_PROC_FAILED);
    MPI_Win_free(&win); /* may report the failure too: it must return */
    CHECK_OK(MPIX_Comm_failure_ack(comm));
    MPI_Comm small;
    CHECK_OK(MPIX_Comm_shrink(comm, &small));
    int srank, ssize;
    MPI_Comm_rank(small, &srank);
    MPI_Comm_size(small, &ssize);
    CHECK(ssize == size - 1, "shrunk to %d", ssize);
    CHECK_OK(MPI_Win_allocate((MPI_Aint)ssize * sizeof(int), sizeof(int), MPI_INFO_NULL, small, &base, &win));
    for (int i = 0; i < ssize; i++)
        base[i] = -1;
    CHECK_OK(MPI_Win_fence(0, win));
    for (int t = 0; t < ssize; t++) {
        int val = 100 * srank + t;
        CHECK_OK(MPI_Put(&val, 1, MPI_INT, t, srank, 1, MPI_INT, win));
    }
    CHECK_OK(MPI_Win_fence(0, win));
    for (int i = 0; i < ssize; i++)
        CHECK(base[i] == 100 * i + srank, "element %d: %d", i, base[i]);
    CHECK_OK(MPI_Win_free(&win));
    if (srank == 0)
        printf("ft_rma: ok (%d survivors)\n", ssize);
    MPI_Comm_free(&small);
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
