/*
 * file_coll.c: collective data access, for now each process's own
 * access followed by an agreement on the result.
 */
#include "runtime/api.h"
#include "datatype/datatype.h"
#include "io/io.h"

int tide_io_collective(struct tide_file *f, bool write, MPI_Offset sb, void *buf, MPI_Count count,
                       struct tide_datatype *dt, MPI_Request *request, MPI_Status *status, const char *fn)
{
    struct tide_io_mem m;
    size_t done = 0;
    int rc = tide_io_mem_start(f, write, buf, count, dt, sb / (MPI_Offset)f->esize, &m, fn);
    if (rc == MPI_SUCCESS && m.len)
        rc = tide_io_rw(f, write, sb, &m, &done, fn);
    if (rc == MPI_SUCCESS && !write)
        rc = tide_io_mem_finish(f, &m, done, fn);
    size_t bytes = tide_io_mem_user_bytes(&m, done);
    tide_io_mem_free(&m);
    int mine = rc ? tide_error_class_of(rc) : 0, all = 0;
    int e = PMPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MAX, f->comm_h);
    if (!rc && e)
        rc = e;
    if (!rc && all)
        rc = tide_err(all, "%s: another process failed (%s)", fn, tide_error_class_string(all));
    if (request)
        return tide_io_done_request(rc, bytes, request);
    if (!rc)
        tide_io_status(status, bytes);
    return rc;
}
