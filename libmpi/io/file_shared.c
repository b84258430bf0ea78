/*
 * file_shared.c: the shared file pointer (MPI-2.2 13.4.4), a counter of
 * etypes hosted by rank 0 of the file's group in a one-sided window:
 * processes on rank 0's node update it with CPU atomics in shared
 * memory, others with MPI_Fetch_and_op messages that rank 0 serves from
 * inside any MPI call (or from the one-sided progress thread). The
 * window lives from MPI_File_open to MPI_File_close, in one passive
 * epoch (lock_all).
 */
#include "runtime/api.h"
#include "io/io.h"

int tide_io_shared_open(struct tide_file *f)
{
    MPI_Offset *base = NULL;
    MPI_Aint bytes = f->rank == 0 ? (MPI_Aint)sizeof(MPI_Offset) : 0;
    int rc = PMPI_Win_allocate(bytes, (int)sizeof(MPI_Offset), MPI_INFO_NULL, f->comm_h, &base, &f->shared_win);
    if (rc)
        return rc;
    PMPI_Win_set_errhandler(f->shared_win, MPI_ERRORS_RETURN);
    /* MPI_MODE_APPEND: the pointers start at the end (f->pos) */
    if (f->rank == 0)
        *base = f->pos;
    rc = PMPI_Win_lock_all(MPI_MODE_NOCHECK, f->shared_win);
    if (rc)
        return rc;
    /* nobody updates the counter before rank 0 has zeroed it */
    return PMPI_Barrier(f->comm_h);
}

void tide_io_shared_close(struct tide_file *f)
{
    if (f->shared_win == MPI_WIN_NULL)
        return;
    PMPI_Win_unlock_all(f->shared_win);
    PMPI_Win_free(&f->shared_win);
}

int tide_io_shared_fetch_add(struct tide_file *f, MPI_Offset delta, MPI_Offset *old)
{
    int rc = PMPI_Fetch_and_op(&delta, old, MPI_OFFSET, 0, 0, delta ? MPI_SUM : MPI_NO_OP, f->shared_win);
    if (!rc)
        rc = PMPI_Win_flush(0, f->shared_win);
    return rc;
}

int tide_io_shared_set(struct tide_file *f, MPI_Offset value)
{
    MPI_Offset old;
    int rc = PMPI_Fetch_and_op(&value, &old, MPI_OFFSET, 0, 0, MPI_REPLACE, f->shared_win);
    if (!rc)
        rc = PMPI_Win_flush(0, f->shared_win);
    return rc;
}
