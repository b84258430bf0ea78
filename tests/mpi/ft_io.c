/*
 * ft_io.c: MPI-IO meeting a failed process (run under mpiexec
 * --enable-recovery, 3 ranks or more). Usage: ft_io DIR. The last rank
 * dies while a file is open on its communicator: the survivors'
 * collective write ends with MPIX_ERR_PROC_FAILED (it can never
 * complete), and so may the close, but neither hangs (the shared file
 * pointer's window included); then they shrink, open the file again on
 * the shrunk communicator, write it collectively and read it back,
 * checking every element.
 */
#include "testutil.h"

#include <mpi-ext.h>
#include <signal.h>
#include <unistd.h>

#define N 1024

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    CHECK(argc == 2, "usage: ft_io DIR");
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char path[4096];
    int tag = (int)getpid();
    MPI_Bcast(&tag, 1, MPI_INT, 0, MPI_COMM_WORLD); /* one name for the run */
    snprintf(path, sizeof path, "%s/ft_io.%d.dat", argv[1], tag);
    MPI_Comm comm;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_File fh;
    CHECK_OK(MPI_File_open(comm, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
    int flag = 1;
    CHECK_OK(MPIX_Comm_agree(comm, &flag));
    if (rank == size - 1)
        raise(SIGKILL);
    int buf[N];
    for (int i = 0; i < N; i++)
        buf[i] = rank * N + i;
    CHECK_ERR(MPI_File_write_at_all(fh, (MPI_Offset)rank * sizeof buf, buf, N, MPI_INT, MPI_STATUS_IGNORE),
              MPIX_ERR_PROC_FAILED);
    int rc = MPI_File_close(&fh), cls = MPI_SUCCESS;
    if (rc)
        MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_SUCCESS || cls == MPIX_ERR_PROC_FAILED, "close: class %d", cls);
    CHECK(fh == MPI_FILE_NULL, "the file is closed all the same");
    CHECK_OK(MPIX_Comm_failure_ack(comm));
    MPI_Comm small;
    CHECK_OK(MPIX_Comm_shrink(comm, &small));
    int srank, ssize;
    MPI_Comm_rank(small, &srank);
    MPI_Comm_size(small, &ssize);
    CHECK_OK(MPI_File_open(small, path, MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    CHECK_OK(MPI_File_write_at_all(fh, (MPI_Offset)srank * sizeof buf, buf, N, MPI_INT, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_File_sync(fh));
    int back[N];
    int from = (srank + 1) % ssize;
    CHECK_OK(MPI_File_read_at_all(fh, (MPI_Offset)from * sizeof back, back, N, MPI_INT, MPI_STATUS_IGNORE));
    /* rank `from` of small is world rank `from` (the dead one was last) */
    for (int i = 0; i < N; i++)
        CHECK(back[i] == from * N + i, "element %d of rank %d's part: %d", i, from, back[i]);
    CHECK_OK(MPI_File_close(&fh));
    if (srank == 0) {
        MPI_File_delete(path, MPI_INFO_NULL);
        printf("ft_io: ok (%d survivors)\n", ssize);
    }
    MPI_Comm_free(&small);
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
