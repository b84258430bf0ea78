/*
 * request.h: communication requests. Every nonblocking operation, every
 * message that needs an answer (rendezvous, synchronous mode) and every
 * posted receive is a request; MPI_Request handles name them.
 *
 * Lifetime: a request is held by its user handle (until MPI_Wait/Test
 * completes it, or MPI_Request_free) and by the protocol while the
 * operation is in flight; tide_request_complete is the protocol's last
 * touch, and a request the user already freed goes away there.
 */
#ifndef TIDE_REQUEST_H
#define TIDE_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mpi.h"
#include "datatype/datatype.h"
#include "runtime/handles.h"

struct tide_comm;
struct tide_proc;
struct tide_transport;
struct tide_unexpected;

enum tide_req_kind {
    TIDE_REQ_SEND = 1,
    TIDE_REQ_RECV = 2,
    TIDE_REQ_GREQ = 3,  /* generalized request */
    TIDE_REQ_COLL = 4,  /* nonblocking collective schedule */
    TIDE_REQ_OTHER = 5, /* anything else completed by a callback */
    TIDE_REQ_SENDRECV = 6, /* a receive and a send completing as one (MPI_Isendrecv) */
};

enum tide_send_mode { TIDE_MODE_STANDARD = 0, TIDE_MODE_BUFFERED, TIDE_MODE_SYNC, TIDE_MODE_READY };

enum tide_req_state {
    TIDE_RS_INACTIVE = 0, /* persistent, not started */
    TIDE_RS_POSTED,       /* receive in the posted queue / send queued */
    TIDE_RS_WAIT_CTS,     /* rendezvous send waiting for the receiver */
    TIDE_RS_WAIT_FIN,     /* rendezvous send: the receiver reads it */
    TIDE_RS_WAIT_ACK,     /* synchronous send waiting for the match */
    TIDE_RS_SENDING,      /* DATA messages going out */
    TIDE_RS_RECEIVING,    /* matched receive, data arriving */
    TIDE_RS_DONE,
};

/* tide_request_new clears every field but handle and conv (set up by
 * whoever uses it) and then sets those whose initial value is not zero:
 * a new field goes before conv, and into that list if it starts nonzero. */
struct tide_request {
    int handle;
    uint8_t kind;
    uint8_t mode;
    uint8_t state;
    bool persistent;
    bool user_freed;        /* MPI_Request_free called while active */
    bool cancel_pending;    /* a cancel request is out; wait for its answer */
    bool cancelled;
    bool truncated;
    bool ft_interrupted;    /* wildcard receive: a failure not acknowledged since (ft/ft.h) */
    volatile bool complete;
    MPI_Status status;
    int error;              /* error code of this operation, MPI_SUCCESS if none */
    /* the operation's arguments */
    void *buf;
    MPI_Count count;
    MPI_Datatype dtype;
    struct tide_datatype *dt;
    int peer;               /* dest or source (may be MPI_ANY_SOURCE / MPI_PROC_NULL) */
    int tag;
    struct tide_comm *comm;
    uint32_t ctx;
    struct tide_proc *proc;
    struct tide_transport *tx;
    size_t bytes;           /* packed size of the message (send) / capacity (recv) */
    size_t msg_len;         /* receive: length of the matched message */
    size_t done_bytes;      /* data moved so far */
    uint64_t id;            /* this request's id in messages (handle + sequence) */
    uint64_t remote;        /* the peer's request id (rendezvous) */
    /* buffered mode: the user's request and the send of the message's copy
     * in the attached buffer name each other until that send has finished
     * or the user's request goes (a cancel of the one cancels the other) */
    struct tide_request *bsend_link;
    /* a large single-copy transfer split between both sides: the receiver
     * reads the first part, the sender writes the rest */
    uint8_t split;          /* bits: 1 our part pending, 2 the peer's part pending */
    size_t split_off;       /* where the sender's part starts */
    struct iovec *riov;     /* receiver: the sender's iovecs (to read the rest if it cannot write) */
    int zc_pending;         /* zero-copy DATA frames not yet written */
    int nriov;
    /* queue links (posted-receive queue, self sends) */
    struct tide_request *next, *prev;
    /* completion callback (collectives, buffered sends, generalized requests) */
    void (*on_complete)(struct tide_request *req);
    void *cb_data;
    /* called when the request goes away (what cb_data owns is freed there) */
    void (*on_destroy)(struct tide_request *req);
    /* generalized requests */
    MPI_Grequest_query_function *greq_query;
    MPI_Grequest_free_function *greq_free;
    MPI_Grequest_cancel_function *greq_cancel;
    void *greq_state;
    bool greq_freed;        /* MPI_Request_free before MPI_Grequest_complete */
    bool rdv_counted;       /* counted in tide_rdv_sends_in_flight */
    bool pooled;            /* in the free pool: its handle names nothing */
    bool sealed;            /* send: carries a secret (TIDE_SEND_SEALED, TIDE_MSGF_SEALED) */
    struct tide_request *pool_next;
    /* last: tide_request_new clears everything between handle and here */
    struct tide_convertor conv;
};

/* This process's rendezvous sends not yet complete: while there are
 * some, its own copying is busy, and a receive does not hand work to the
 * sender (protocol.c, shared single-copy transfers). */
extern int tide_rdv_sends_in_flight;
static inline void tide_request_count_rdv(struct tide_request *r)
{
    if (!r->rdv_counted) {
        r->rdv_counted = true;
        tide_rdv_sends_in_flight++;
    }
}

/* New request with a handle (state POSTED); NULL if out of memory. */
struct tide_request *tide_request_new(int kind);
/* Look up a user's handle (inline: every wait and test does it per request). */
static inline struct tide_request *tide_request_get(MPI_Request h)
{
    struct tide_request *r = tide_handle_get(TIDE_KIND_REQUEST, h);
    return r && !r->pooled ? r : NULL;
}
/* Under the shared library lock (runtime/lock.h, pt2pt/fastpath.c): a
 * request from the pool, NULL if the pool is empty (the caller then goes
 * the ordinary way); */
struct tide_request *tide_request_new_shared(int kind);
/* can r be completed and freed under it (a plain send or receive with
 * nothing to do on completion or destruction)? */
static inline bool tide_request_shared_done(const struct tide_request *r)
{
    return (r->kind == TIDE_REQ_SEND || r->kind == TIDE_REQ_RECV) && !r->persistent && !r->on_destroy &&
           !r->bsend_link && !r->rdv_counted && !r->riov && !r->on_complete && !r->user_freed;
}
/* Can r, once complete, be finished without the general bookkeeping (a
 * plain request that succeeded: nothing to report, nothing to run)? */
static inline bool tide_request_plain_finishable(const struct tide_request *r)
{
    return tide_request_shared_done(r) && r->error == MPI_SUCCESS && !r->cancelled && !r->ft_interrupted;
}
/* Complete such a request (status filled by the caller), and give it back
 * after its user is done with it. */
void tide_request_complete_shared(struct tide_request *r);
void tide_request_free_shared(struct tide_request *r);
/* The request a peer's message names; NULL if stale. */
struct tide_request *tide_request_by_id(uint64_t id);
/* Mark the operation finished (status filled by the caller). */
void tide_request_complete(struct tide_request *req);
/* The user lets go (MPI_Wait done, MPI_Request_free): frees now if the
 * operation has completed, else when it does. */
void tide_request_free(struct tide_request *req);
/* tide_request_free of a complete request tide_request_shared_done
 * accepts, with the library lock held exclusively or not in use. */
void tide_request_free_plain(struct tide_request *r);
/* A send request whose eager message has gone out (to p over tx, on
 * context ctx): complete, holding what a cancel needs (the message may
 * still be unmatched at the receiver). */
static inline void tide_request_eager_sent(struct tide_request *r, int mode, int dest, int tag, uint32_t ctx,
                                           struct tide_proc *p, struct tide_transport *tx, size_t bytes)
{
    r->mode = (uint8_t)mode;
    r->peer = dest;
    r->tag = tag;
    r->ctx = ctx;
    r->proc = p;
    r->tx = tx;
    r->bytes = bytes;
    r->state = TIDE_RS_DONE;
    r->complete = true;
}
/* Fill *status (unless MPI_STATUS_IGNORE) from a completed request. Its
 * MPI_ERROR field keeps the caller's value: only the multiple-completion
 * calls set it, and only when they return MPI_ERR_IN_STATUS (wait.c). */
static inline void tide_request_status_out(const struct tide_request *r, MPI_Status *status)
{
    if (status == MPI_STATUS_IGNORE || !status)
        return;
    int error = status->MPI_ERROR;
    *status = r->status;
    status->MPI_ERROR = error;
}
/* The standard's empty status (MPI_ERROR = MPI_SUCCESS): null and
 * inactive requests. */
void tide_status_empty(MPI_Status *s);
/* A buffered-mode request lets go of the send of its copy (which goes on
 * by itself); nothing if there is none. */
void tide_request_unlink_bsend(struct tide_request *req);
void tide_requests_finalize(void);

#endif
