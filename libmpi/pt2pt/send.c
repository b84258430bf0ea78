/*
 * send.c: MPI_Send, MPI_Ssend, MPI_Rsend, MPI_Bsend and their
 * nonblocking forms. Checks the arguments, then hands the message to the
 * protocol; blocking standard sends that fit the eager limit go out
 * without a request at all.
 */
#include "runtime/api.h"
#include "pt2pt/bsend.h"
#include "pt2pt/fastpath.h"
#include "pt2pt/lean.h"
#include "pt2pt/protocol.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/pt2pt_api.h"
#include "comm/comm.h"
#include "datatype/datatype.h"

static int check_send(const char *fn, const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                      MPI_Comm comm, struct tide_comm **cp, struct tide_datatype **dtp)
{
    struct tide_comm *c = tide_comm_get(comm);
    *cp = c;
    if (!c)
        return tide_err(MPI_ERR_COMM, "%s: invalid communicator (argument comm)", fn);
    struct tide_datatype *dt = tide_datatype_get(datatype);
    *dtp = dt;
    if (tide_pt2pt_args_ok(c, buf, count, dt, dest, tag, false))
        return MPI_SUCCESS;
    *dtp = dt = tide_pt2pt_null_peer_type(dt, datatype, count, dest);
    int rc;
    if ((rc = tide_datatype_check(dt, datatype, count, fn, "datatype")) ||
        (rc = tide_check_send_rank(c, dest, fn, "dest")) || (rc = tide_check_send_tag(tag, fn)) ||
        (rc = tide_check_buffer(buf, count, dt, fn)))
        return rc;
    return MPI_SUCCESS;
}

int tide_isend_api(const char *fn, const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                            int tag, MPI_Comm comm, int mode, MPI_Request *request)
{
    struct tide_comm *c;
    struct tide_datatype *dt;
    int rc = check_send(fn, buf, count, datatype, dest, tag, comm, &c, &dt);
    if (rc)
        return tide_raise_comm(c, rc);
    if (!request)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: request must not be NULL", fn);
    struct tide_request *r;
    if (mode == TIDE_MODE_BUFFERED)
        rc = tide_bsend_start(buf, count, dt, dest, tag, c, &r, fn);
    else
        rc = tide_isend(buf, count, dt, dest, tag, c, c->context_id, mode, &r);
    if (rc)
        return tide_raise_comm(c, rc);
    *request = r->handle;
    return MPI_SUCCESS;
}

int tide_send_api(const char *fn, const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                         MPI_Comm comm, int mode)
{
    struct tide_comm *c;
    struct tide_datatype *dt;
    int rc = check_send(fn, buf, count, datatype, dest, tag, comm, &c, &dt);
    if (rc)
        return tide_raise_comm(c, rc);
    if (dest == MPI_PROC_NULL)
        return MPI_SUCCESS;
    struct tide_request *r;
    if (mode == TIDE_MODE_BUFFERED) {
        rc = tide_bsend_start(buf, count, dt, dest, tag, c, &r, fn);
    } else {
        if (mode != TIDE_MODE_SYNC && tide_send_immediate(buf, count, dt, dest, tag, c, c->context_id))
            return MPI_SUCCESS;
        rc = tide_isend(buf, count, dt, dest, tag, c, c->context_id, mode, &r);
    }
    if (rc)
        return tide_raise_comm(c, rc);
    rc = tide_wait_free(r, MPI_STATUS_IGNORE);
    return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
}

int tide_send_full(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    if (__builtin_expect(tide_fastpath_on, 0) && tide_fast_send(buf, count, datatype, dest, tag, comm))
        return MPI_SUCCESS;
    TIDE_API_ENTER();
    return tide_send_api("MPI_Send", buf, count, datatype, dest, tag, comm, TIDE_MODE_STANDARD);
}

int PMPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    if (__builtin_expect(tide_lean_on, 1))
        return tide_lean_send(buf, count, datatype, dest, tag, comm);
    return tide_send_full(buf, count, datatype, dest, tag, comm);
}
TIDE_ALIAS(MPI_Send)

int PMPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    TIDE_API_ENTER();
    return tide_send_api("MPI_Ssend", buf, count, datatype, dest, tag, comm, TIDE_MODE_SYNC);
}
TIDE_ALIAS(MPI_Ssend)

int PMPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    TIDE_API_ENTER();
    return tide_send_api("MPI_Rsend", buf, count, datatype, dest, tag, comm, TIDE_MODE_READY);
}
TIDE_ALIAS(MPI_Rsend)

int PMPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    TIDE_API_ENTER();
    return tide_send_api("MPI_Bsend", buf, count, datatype, dest, tag, comm, TIDE_MODE_BUFFERED);
}
TIDE_ALIAS(MPI_Bsend)

int tide_isend_full(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                    MPI_Request *request)
{
    if (__builtin_expect(tide_fastpath_on, 0) && tide_fast_isend(buf, count, datatype, dest, tag, comm, request))
        return MPI_SUCCESS;
    TIDE_API_ENTER();
    return tide_isend_api("MPI_Isend", buf, count, datatype, dest, tag, comm, TIDE_MODE_STANDARD, request);
}

int PMPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request *request)
{
    if (__builtin_expect(tide_lean_on, 1))
        return tide_lean_isend(buf, count, datatype, dest, tag, comm, request);
    return tide_isend_full(buf, count, datatype, dest, tag, comm, request);
}
TIDE_ALIAS(MPI_Isend)

int PMPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_isend_api("MPI_Issend", buf, count, datatype, dest, tag, comm, TIDE_MODE_SYNC, request);
}
TIDE_ALIAS(MPI_Issend)

int PMPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_isend_api("MPI_Irsend", buf, count, datatype, dest, tag, comm, TIDE_MODE_READY, request);
}
TIDE_ALIAS(MPI_Irsend)

int PMPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_isend_api("MPI_Ibsend", buf, count, datatype, dest, tag, comm, TIDE_MODE_BUFFERED, request);
}
TIDE_ALIAS(MPI_Ibsend)
