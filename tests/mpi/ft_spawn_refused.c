/*
 * ft_spawn_refused.c: a spawn that fails at the parents because one of
 * them failed must not end the parents' job (run under mpiexec
 * --enable-recovery, 3 ranks or more). The last rank kills itself; the
 * others spawn 2 children over MPI_COMM_WORLD, which holds the dead rank,
 * so the spawn fails there; the children it launched cannot join their
 * parents, and end (their MPI_Init fails) without taking the parents'
 * job with them. The survivors shrink and finish.
 */
#include "testutil.h"

#include <mpi-ext.h>
#include <signal.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        /* a spawn that succeeded after all (the failure was not known yet
         * at the root): join and leave */
        MPI_Comm_disconnect(&parent);
        MPI_Finalize();
        return 0;
    }
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int flag = 1;
    CHECK_OK(MPIX_Comm_agree(MPI_COMM_WORLD, &flag));
    if (rank == size - 1)
        raise(SIGKILL);
    /* the survivors know of the death before they spawn */
    MPI_Status st;
    int v;
    CHECK_ERR(MPI_Recv(&v, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, &st), MPIX_ERR_PROC_FAILED);
    MPI_Comm children = MPI_COMM_NULL;
    int errs[2];
    int rc = MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &children, errs);
    if (rc == MPI_SUCCESS && children != MPI_COMM_NULL)
        MPI_Comm_disconnect(&children);
    MPI_Comm shrunk;
    CHECK_OK(MPIX_Comm_shrink(MPI_COMM_WORLD, &shrunk));
    int n;
    MPI_Comm_size(shrunk, &n);
    CHECK_OK(MPI_Barrier(shrunk));
    if (rank == 0)
        printf("ft_spawn_refused: spawn %s, %d survivors go on\n", rc == MPI_SUCCESS ? "succeeded" : "failed", n);
    MPI_Comm_free(&shrunk);
    MPI_Finalize();
    return 0;
}
