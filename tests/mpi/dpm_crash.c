/*
 * dpm_crash.c: a spawned child that crashes: the job ends cleanly with
 * the default error handler (mpiexec reports the child and ends
 * everything).
 */
#include "testutil.h"

#include <signal.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent, child;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        raise(SIGSEGV);
        return 0;
    }
    CHECK_OK(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &child, MPI_ERRCODES_IGNORE));
    int v;
    /* waits forever: the crash must end the job */
    MPI_Recv(&v, 1, MPI_INT, 0, 0, child, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
