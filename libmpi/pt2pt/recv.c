/*
 * recv.c: MPI_Recv and MPI_Irecv.
 */
#include "runtime/api.h"
#include "pt2pt/fastpath.h"
#include "pt2pt/lean.h"
#include "pt2pt/protocol.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/pt2pt_api.h"
#include "comm/comm.h"
#include "datatype/datatype.h"

static int check_recv(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                      MPI_Comm comm, struct tide_comm **cp, struct tide_datatype **dtp)
{
    struct tide_comm *c = tide_comm_get(comm);
    *cp = c;
    if (!c)
        return tide_err(MPI_ERR_COMM, "%s: invalid communicator (argument comm)", fn);
    struct tide_datatype *dt = tide_datatype_get(datatype);
    *dtp = dt;
    if (tide_pt2pt_args_ok(c, buf, count, dt, source, tag, true))
        return MPI_SUCCESS;
    *dtp = dt = tide_pt2pt_null_peer_type(dt, datatype, count, source);
    int rc;
    if ((rc = tide_datatype_check(dt, datatype, count, fn, "datatype")) ||
        (rc = tide_check_recv_rank(c, source, fn, "source")) || (rc = tide_check_recv_tag(tag, fn)) ||
        (rc = tide_check_buffer(buf, count, dt, fn)))
        return rc;
    return MPI_SUCCESS;
}

int tide_recv_api(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                  MPI_Comm comm, MPI_Status *status)
{
    struct tide_comm *c;
    struct tide_datatype *dt;
    int rc = check_recv(fn, buf, count, datatype, source, tag, comm, &c, &dt);
    if (rc)
        return tide_raise_comm(c, rc);
    rc = tide_recv_blocking(buf, count, dt, source, tag, c, c->context_id, status);
    return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
}

int PMPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Status *status)
{
    if (__builtin_expect(tide_lean_on, 1))
        return tide_lean_recv(buf, count, datatype, source, tag, comm, status);
    return tide_recv_full(buf, count, datatype, source, tag, comm, status);
}
TIDE_ALIAS(MPI_Recv)

int tide_recv_full(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                   MPI_Status *status)
{
    int rc;
    if (__builtin_expect(tide_fastpath_on, 0) && tide_fast_recv(buf, count, datatype, source, tag, comm, status, &rc))
        return rc;
    TIDE_API_ENTER();
    return tide_recv_api("MPI_Recv", buf, count, datatype, source, tag, comm, status);
}

int tide_irecv_api(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                   MPI_Comm comm, MPI_Request *request)
{
    struct tide_comm *c;
    struct tide_datatype *dt;
    int rc = check_recv(fn, buf, count, datatype, source, tag, comm, &c, &dt);
    if (rc)
        return tide_raise_comm(c, rc);
    if (!request)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: request must not be NULL", fn);
    struct tide_request *r;
    rc = tide_irecv(buf, count, dt, source, tag, c, c->context_id, &r);
    if (rc)
        return tide_raise_comm(c, rc);
    *request = r->handle;
    return MPI_SUCCESS;
}

int tide_irecv_full(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                    MPI_Request *request)
{
    if (__builtin_expect(tide_fastpath_on, 0) && tide_fast_irecv(buf, count, datatype, source, tag, comm, request))
        return MPI_SUCCESS;
    TIDE_API_ENTER();
    return tide_irecv_api("MPI_Irecv", buf, count, datatype, source, tag, comm, request);
}

int PMPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
               MPI_Request *request)
{
    if (__builtin_expect(tide_lean_on, 1))
        return tide_lean_irecv(buf, count, datatype, source, tag, comm, request);
    return tide_irecv_full(buf, count, datatype, source, tag, comm, request);
}
TIDE_ALIAS(MPI_Irecv)
