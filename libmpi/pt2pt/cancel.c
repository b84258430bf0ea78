/*
 * cancel.c: MPI_Cancel and MPI_Test_cancelled. A receive is cancelled if
 * it has not been matched; a send if the receiver has not matched it yet
 * (the receiver is asked to drop it from its unexpected queue). Either way
 * the request must still be completed with MPI_Wait/MPI_Test.
 *
 * Also the abandoning of a revoked collective context's operations
 * (tide_request_abort, tide_requests_abort_ctx): its receives, and the
 * sends that wait for an answer that will not come, complete with an
 * error; its unexpected messages are dropped.
 */
#include "runtime/api.h"
#include "pt2pt/protocol.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/request.h"
#include "pt2pt/match.h"
#include "runtime/handles.h"

int PMPI_Cancel(MPI_Request *request)
{
    TIDE_API_ENTER();
    if (!request)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Cancel: request must not be NULL");
    struct tide_request *r = tide_request_get(*request);
    if (!r)
        return TIDE_ERR(MPI_ERR_REQUEST, "MPI_Cancel: invalid request (argument request)");
    if (r->kind == TIDE_REQ_GREQ) {
        int rc = r->greq_cancel(r->greq_state, r->complete);
        return rc == MPI_SUCCESS ? MPI_SUCCESS : tide_raise(rc);
    }
    if (r->persistent && r->state == TIDE_RS_INACTIVE)
        return TIDE_ERR(MPI_ERR_REQUEST, "MPI_Cancel: the persistent request is not active");
    if (r->kind == TIDE_REQ_SENDRECV) {
        int rc = tide_sendrecv_cancel(r);
        return rc == MPI_SUCCESS ? MPI_SUCCESS : tide_raise_comm(r->comm, rc);
    }
    if (r->kind != TIDE_REQ_SEND && r->kind != TIDE_REQ_RECV)
        return MPI_SUCCESS; /* collectives cannot be cancelled: no effect */
    return tide_request_cancel(r);
}
TIDE_ALIAS(MPI_Cancel)

int PMPI_Test_cancelled(const MPI_Status *status, int *flag)
{
    TIDE_API_ENTER();
    if (!status || status == MPI_STATUS_IGNORE || !flag)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Test_cancelled: status and flag must be valid");
    *flag = status->tide_cancelled != 0;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Test_cancelled)

/* ---- abandoning a revoked context ---- */

bool tide_request_abort(struct tide_request *r, int err)
{
    if (r->complete || r->pooled || (r->kind != TIDE_REQ_SEND && r->kind != TIDE_REQ_RECV))
        return false;
    if (r->kind == TIDE_REQ_RECV) {
        if (r->state == TIDE_RS_POSTED) {
            struct tide_matchq *q = tide_matchq_find(r->ctx);
            if (!q || !tide_match_unpost(q, r))
                return false;
        } else if (r->state != TIDE_RS_RECEIVING) {
            return false;
        }
        /* RECEIVING: data still arriving for it is dropped (its state
         * is no longer RECEIVING, and its id goes stale once freed) */
    } else if (r->state != TIDE_RS_WAIT_CTS && r->state != TIDE_RS_WAIT_FIN && r->state != TIDE_RS_WAIT_ACK) {
        return false; /* queued here or data going out: it completes by itself */
    }
    r->cancel_pending = false;
    r->error = err;
    r->status.MPI_ERROR = err;
    tide_request_complete(r);
    return true;
}

int tide_requests_abort_ctx(uint32_t ctx, bool (*covers)(void *arg, int tag), int (*make_err)(void *arg), void *arg)
{
    int n = 0;
    struct tide_matchq *q = tide_matchq_find(ctx);
    if (q) {
        /* nobody will receive them: drop them (a send to ourselves
         * completes, with the error) */
        struct tide_unexpected *u = tide_match_uq_first(q), *next;
        for (; u; u = next) {
            next = tide_match_uq_next(q, u);
            if (!covers(arg, u->tag))
                continue;
            tide_match_remove(q, u);
            if (u->self_sreq) {
                u->self_sreq->error = make_err(arg);
                tide_request_complete(u->self_sreq);
            }
            tide_unexpected_free(u);
        }
    }
    struct tide_handle_table *t = &tide_handle_tables[TIDE_KIND_REQUEST];
    for (unsigned i = 0; i < t->next; i++) {
        unsigned ch = i >> TIDE_HANDLE_CHUNK_BITS;
        if (ch >= t->nchunks || !t->chunks[ch])
            continue;
        struct tide_request *r = t->chunks[ch][i & (TIDE_HANDLE_CHUNK - 1)];
        if (r && !r->pooled && !r->complete && r->ctx == ctx && covers(arg, r->tag) &&
            (r->kind == TIDE_REQ_SEND || r->kind == TIDE_REQ_RECV) && tide_request_abort(r, make_err(arg)))
            n++;
    }
    return n;
}
