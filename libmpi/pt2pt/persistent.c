/*
 * persistent.c: persistent requests: MPI_Send_init and its buffered,
 * synchronous and ready forms, MPI_Recv_init, MPI_Start, MPI_Startall.
 * The request keeps its arguments; each start runs the operation again.
 * Persistent collectives (coll/pcoll.c) start through here too.
 */
#include "runtime/api.h"
#include "coll/pcoll.h"
#include "pt2pt/bsend.h"
#include "pt2pt/protocol.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/pt2pt_api.h"
#include "comm/comm.h"
#include "datatype/datatype.h"

int tide_pt2pt_init_api(const char *fn, int kind, int mode, const void *buf, MPI_Count count,
                        MPI_Datatype datatype, int peer, int tag, MPI_Comm comm, MPI_Request *request)
{
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "%s: invalid communicator (argument comm)", fn);
    struct tide_datatype *dt = tide_datatype_get(datatype);
    int rc = tide_datatype_check(dt, datatype, count, fn, "datatype");
    if (!rc)
        rc = kind == TIDE_REQ_SEND ? tide_check_send_rank(c, peer, fn, "dest")
                                   : tide_check_recv_rank(c, peer, fn, "source");
    if (!rc)
        rc = kind == TIDE_REQ_SEND ? tide_check_send_tag(tag, fn) : tide_check_recv_tag(tag, fn);
    if (!rc)
        rc = tide_check_buffer(buf, count, dt, fn);
    if (rc)
        return tide_raise_comm(c, rc);
    if (!request)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: request must not be NULL", fn);
    struct tide_request *r = tide_request_new(kind);
    if (!r)
        return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    r->persistent = true;
    r->state = TIDE_RS_INACTIVE;
    r->mode = (uint8_t)mode;
    r->buf = (void *)buf;
    r->count = count;
    r->dt = dt;
    r->dtype = datatype;
    tide_datatype_retain(dt);
    r->peer = peer;
    r->tag = tag;
    r->comm = c;
    tide_comm_retain(c);
    r->ctx = kind == TIDE_REQ_SEND ? tide_comm_send_ctx(c, peer, c->context_id) : c->context_id;
    *request = r->handle;
    return MPI_SUCCESS;
}

int PMPI_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                   MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_pt2pt_init_api("MPI_Send_init", TIDE_REQ_SEND, TIDE_MODE_STANDARD, buf, count, datatype, dest, tag,
                       comm, request);
}
TIDE_ALIAS(MPI_Send_init)

int PMPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                    MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_pt2pt_init_api("MPI_Bsend_init", TIDE_REQ_SEND, TIDE_MODE_BUFFERED, buf, count, datatype, dest, tag,
                       comm, request);
}
TIDE_ALIAS(MPI_Bsend_init)

int PMPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                    MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_pt2pt_init_api("MPI_Ssend_init", TIDE_REQ_SEND, TIDE_MODE_SYNC, buf, count, datatype, dest, tag,
                       comm, request);
}
TIDE_ALIAS(MPI_Ssend_init)

int PMPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                    MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_pt2pt_init_api("MPI_Rsend_init", TIDE_REQ_SEND, TIDE_MODE_READY, buf, count, datatype, dest, tag,
                       comm, request);
}
TIDE_ALIAS(MPI_Rsend_init)

int PMPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                   MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_pt2pt_init_api("MPI_Recv_init", TIDE_REQ_RECV, TIDE_MODE_STANDARD, buf, count, datatype, source, tag,
                       comm, request);
}
TIDE_ALIAS(MPI_Recv_init)

static int start_one(const char *fn, MPI_Request h, int index)
{
    struct tide_request *r = tide_request_get(h);
    if (!r || !r->persistent)
        return index < 0 ? tide_err(MPI_ERR_REQUEST, "%s: not a persistent request (argument request)", fn)
                         : tide_err(MPI_ERR_REQUEST, "%s: request %d is not a persistent request", fn, index);
    if (r->state != TIDE_RS_INACTIVE)
        return tide_err(MPI_ERR_REQUEST, "%s: the request is already active", fn);
    if (r->kind == TIDE_REQ_COLL)
        return tide_pcoll_start(r);
    r->complete = false;
    if (r->kind == TIDE_REQ_RECV)
        return tide_recv_start(r);
    if (r->mode == TIDE_MODE_BUFFERED) {
        int rc = tide_bsend_restart(r, fn);
        if (rc)
            return rc;
        r->error = MPI_SUCCESS;
        tide_request_complete(r);
        return MPI_SUCCESS;
    }
    return tide_send_start(r);
}

int PMPI_Start(MPI_Request *request)
{
    TIDE_API_ENTER();
    if (!request)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Start: request must not be NULL");
    int rc = start_one("MPI_Start", *request, -1);
    if (rc) {
        struct tide_request *r = tide_request_get(*request);
        return tide_raise_comm(r ? r->comm : NULL, rc);
    }
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Start)

int PMPI_Startall(int count, MPI_Request array_of_requests[])
{
    TIDE_API_ENTER();
    if (count < 0)
        return TIDE_ERR(MPI_ERR_COUNT, "MPI_Startall: negative count %d", count);
    if (count > 0 && !array_of_requests)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Startall: array_of_requests must not be NULL");
    for (int i = 0; i < count; i++) {
        int rc = start_one("MPI_Startall", array_of_requests[i], i);
        if (rc) {
            struct tide_request *r = tide_request_get(array_of_requests[i]);
            return tide_raise_comm(r ? r->comm : NULL, rc);
        }
    }
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Startall)
