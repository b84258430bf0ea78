/*
 * isendrecv.c: MPI_Isendrecv and MPI_Isendrecv_replace. The user's
 * request (TIDE_REQ_SENDRECV) stands for a receive and a send started
 * together, the receive first as in MPI_Sendrecv; it completes when both
 * parts have, with the receive's status and the first error of the two.
 * The replace form packs the send data into a copy of its own before the
 * receive may overwrite the buffer. MPI_Cancel cancels both parts
 * (tide_sendrecv_cancel). The int forms and the large-count ones
 * (pt2pt_large.c) share tide_isendrecv_api and tide_isendrecv_replace_api.
 */
#include "runtime/api.h"
#include "pt2pt/protocol.h"
#include "pt2pt/pt2pt_api.h"
#include "pt2pt/pt2pt.h"
#include "comm/comm.h"
#include "datatype/datatype.h"

#include <stdlib.h>

struct sendrecv {
    struct tide_request *recv, *send; /* the parts, until the whole completes */
    void *copy;                       /* replace form: the packed send data */
    bool started;                     /* both parts exist */
};

/* A part has completed (current: the part whose completion is running, or
 * NULL): once both have, the whole completes and lets go of them. */
static void parts_check(struct tide_request *r, struct tide_request *current)
{
    struct sendrecv *sr = r->cb_data;
    if (!sr->started || !sr->recv->complete || !sr->send->complete)
        return;
    struct tide_request *rr = sr->recv, *sq = sr->send;
    sr->recv = sr->send = NULL;
    r->status = rr->status;
    r->cancelled = rr->cancelled;
    r->error = rr->error != MPI_SUCCESS ? rr->error : sq->error;
    /* the part that is completing now goes when its completion ends */
    if (rr == current)
        rr->user_freed = true;
    else
        tide_request_free(rr);
    if (sq == current)
        sq->user_freed = true;
    else
        tide_request_free(sq);
    tide_request_complete(r);
}

static void part_done(struct tide_request *part)
{
    parts_check(part->cb_data, part);
}

static void sendrecv_destroy(struct tide_request *r)
{
    struct sendrecv *sr = r->cb_data;
    r->cb_data = NULL;
    if (sr) {
        free(sr->copy);
        free(sr);
    }
}

int tide_sendrecv_cancel(struct tide_request *r)
{
    struct sendrecv *sr = r->cb_data;
    if (r->complete || !sr || !sr->started)
        return MPI_SUCCESS;
    struct tide_request *rr = sr->recv, *sq = sr->send;
    int rc = tide_request_cancel(rr);
    /* the receive's cancellation may have completed the whole */
    if (rc == MPI_SUCCESS && sr->send == sq && sq)
        rc = tide_request_cancel(sq);
    return rc;
}

/* Start the receive into (rbuf, rcount, rdt) and the send of (sbuf,
 * scount, sdt) as one request; copy (or NULL) is the replace form's
 * packed data, owned by the request from here on. */
static int start(const char *fn, const void *sbuf, MPI_Count scount, struct tide_datatype *sdt, int dest,
                 int stag, void *rbuf, MPI_Count rcount, struct tide_datatype *rdt, int source, int rtag,
                 struct tide_comm *c, void *copy, MPI_Request *request)
{
    struct sendrecv *sr = calloc(1, sizeof *sr);
    struct tide_request *r = sr ? tide_request_new(TIDE_REQ_SENDRECV) : NULL;
    if (!r) {
        free(sr);
        free(copy);
        return tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    }
    sr->copy = copy;
    r->cb_data = sr;
    r->on_destroy = sendrecv_destroy;
    r->comm = c;
    tide_comm_retain(c);
    r->peer = source;
    r->tag = rtag;
    struct tide_request *rr, *sq;
    int rc = tide_irecv(rbuf, rcount, rdt, source, rtag, c, c->context_id, &rr);
    if (rc) {
        r->complete = true;
        tide_request_free(r);
        return rc;
    }
    rr->cb_data = r;
    rr->on_complete = part_done;
    rc = tide_isend(sbuf, scount, sdt, dest, stag, c, c->context_id, TIDE_MODE_STANDARD, &sq);
    if (rc) {
        rr->on_complete = NULL;
        tide_request_cancel(rr);
        tide_wait_free(rr, MPI_STATUS_IGNORE);
        r->complete = true;
        tide_request_free(r);
        return rc;
    }
    sq->cb_data = r;
    sq->on_complete = part_done;
    sr->recv = rr;
    sr->send = sq;
    sr->started = true;
    *request = r->handle;
    parts_check(r, NULL); /* both may have completed already */
    return MPI_SUCCESS;
}

int tide_isendrecv_api(const char *fn, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                       int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source,
                       int recvtag, MPI_Comm comm, MPI_Request *request)
{
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "%s: invalid communicator (argument comm)", fn);
    struct tide_datatype *sdt = tide_pt2pt_null_peer_type(tide_datatype_get(sendtype), sendtype, sendcount, dest);
    struct tide_datatype *rdt = tide_pt2pt_null_peer_type(tide_datatype_get(recvtype), recvtype, recvcount, source);
    int rc;
    if ((rc = tide_datatype_check(sdt, sendtype, sendcount, fn, "sendtype")) ||
        (rc = tide_datatype_check(rdt, recvtype, recvcount, fn, "recvtype")) ||
        (rc = tide_check_send_rank(c, dest, fn, "dest")) || (rc = tide_check_recv_rank(c, source, fn, "source")) ||
        (rc = tide_check_send_tag(sendtag, fn)) || (rc = tide_check_recv_tag(recvtag, fn)) ||
        (rc = tide_check_buffer(sendbuf, sendcount, sdt, fn)) || (rc = tide_check_buffer(recvbuf, recvcount, rdt, fn)))
        return tide_raise_comm(c, rc);
    if (!request)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: request must not be NULL", fn);
    rc = start(fn, sendbuf, sendcount, sdt, dest, sendtag, recvbuf, recvcount, rdt, source, recvtag, c, NULL,
               request);
    return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
}

int PMPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_isendrecv_api("MPI_Isendrecv", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                              recvtype, source, recvtag, comm, request);
}
TIDE_ALIAS(MPI_Isendrecv)

int tide_isendrecv_replace_api(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                               int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "%s: invalid communicator (argument comm)", fn);
    struct tide_datatype *dt = tide_datatype_get(datatype);
    if (dest == MPI_PROC_NULL && source == MPI_PROC_NULL)
        dt = tide_pt2pt_null_peer_type(dt, datatype, count, MPI_PROC_NULL);
    int rc;
    if ((rc = tide_datatype_check(dt, datatype, count, fn, "datatype")) ||
        (rc = tide_check_send_rank(c, dest, fn, "dest")) || (rc = tide_check_recv_rank(c, source, fn, "source")) ||
        (rc = tide_check_send_tag(sendtag, fn)) || (rc = tide_check_recv_tag(recvtag, fn)) ||
        (rc = tide_check_buffer(buf, count, dt, fn)))
        return tide_raise_comm(c, rc);
    if (!request)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: request must not be NULL", fn);
    /* the send's data, packed now: the receive may overwrite the buffer
     * before the send has read it */
    size_t bytes = dest == MPI_PROC_NULL ? 0 : (size_t)count * dt->size;
    void *copy = malloc(bytes ? bytes : 1);
    if (!copy)
        return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: cannot allocate %zu bytes", fn, bytes);
    if (bytes) {
        struct tide_convertor cv;
        tide_conv_init(&cv, dt, (size_t)count, buf);
        tide_conv_pack(&cv, copy, bytes);
    }
    rc = start(fn, copy, (MPI_Count)bytes, tide_datatype_get(MPI_PACKED), dest, sendtag, buf, count, dt, source, recvtag,
               c, copy, request);
    return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
}

int PMPI_Isendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source,
                           int recvtag, MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_isendrecv_replace_api("MPI_Isendrecv_replace", buf, count, datatype, dest, sendtag, source,
                                      recvtag, comm, request);
}
TIDE_ALIAS(MPI_Isendrecv_replace)
