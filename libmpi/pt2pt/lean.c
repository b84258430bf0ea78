/*
 * lean.c: the single-threaded short path (lean.h) of MPI_Send,
 * MPI_Isend, MPI_Recv, MPI_Irecv, MPI_Sendrecv, MPI_Wait and
 * MPI_Waitall. A small contiguous message to a peer whose transport
 * writes eager messages in place goes out in one pass: the communicator
 * and type looked up, the arguments checked as check_send does, the
 * message written with its short header, and for MPI_Isend a request
 * made complete, holding what a cancel needs (as tide_isend_eager_now
 * leaves it). MPI_Irecv and MPI_Recv post their request in one pass when
 * no message waits unmatched on the context (else the ordinary path,
 * which matches it at once; MPI_Recv then takes an eager message without
 * a request at all), and MPI_Recv waits and finishes it. MPI_Sendrecv
 * posts its receive so, then sends so (or, if the ring has no room, by
 * the ordinary internal send), then waits as MPI_Recv does. MPI_Wait and
 * MPI_Waitall finish plain requests (sends and receives with nothing to
 * do on completion, and no error) without the general bookkeeping.
 * Anything else (errors included) is the ordinary path's.
 */
#include "runtime/api.h"
#include "params.h"
#include "pt2pt/lean.h"
#include "pt2pt/match.h"
#include "pt2pt/progress.h"
#include "pt2pt/protocol.h"
#include "pt2pt/protocol_internal.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/request.h"
#include "comm/comm.h"
#include "comm/comm_fault.h"
#include "datatype/datatype.h"
#include "runtime/proc.h"
#include "transport/transport.h"

bool tide_lean_on;

void tide_lean_update(bool runtime_up)
{
    tide_lean_on = runtime_up && !tide_thread_multiple && tide_config_int("lean_path") != 0;
}

/* A message the short path sends: to whom, what, on which context. */
struct lean_msg {
    struct tide_comm *c;
    struct tide_proc *p;
    const void *data;
    size_t bytes;
    uint32_t ctx;
};

/* Does the short path send this message? Fills *m if so. */
static inline __attribute__((always_inline)) bool lean_target(const void *buf, int count, MPI_Datatype datatype,
                                                              int dest, int tag, MPI_Comm comm, struct lean_msg *m)
{
    struct tide_comm *c = tide_handle_get(TIDE_KIND_COMM, comm);
    if (!c || c->freed)
        return false;
    struct tide_datatype *dt = tide_datatype_lookup(datatype);
    if (!tide_pt2pt_args_ok(c, buf, count, dt, dest, tag, false) || dest == MPI_PROC_NULL || !dt->contig)
        return false;
    struct tide_proc *p = c->peers[dest];
    struct tide_transport *tx = p->tx;
    size_t bytes = (size_t)count * dt->size;
    uint32_t ctx = tide_comm_send_ctx(c, dest, c->context_id);
    if (!tx || !tx->send_eager || p->pend_head || tide_comm_faults || bytes > tx->eager_limit_low ||
        bytes > tide_eager_limit_for(p, tx, ctx))
        return false;
    *m = (struct lean_msg){.c = c, .p = p, .data = (const void *)((uintptr_t)buf + (uintptr_t)dt->true_lb),
                           .bytes = bytes, .ctx = ctx};
    return true;
}

/* Write m with tag (sreq: the sender's request id, 0 none): 0, or 1 if
 * the ring has no room now. */
static inline __attribute__((always_inline)) int lean_write(const struct lean_msg *m, int tag, uint64_t sreq)
{
    if (m->p->tx->send_eager(m->p, m->ctx, m->c->rank, tag, sreq, m->data, m->bytes) != 0)
        return 1;
    tide_msg_counters.msgs_sent++;
    tide_msg_counters.bytes_sent += m->bytes;
    return 0;
}

int tide_lean_send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    struct lean_msg m;
    if (!lean_target(buf, count, datatype, dest, tag, comm, &m) || lean_write(&m, tag, 0))
        return tide_send_full(buf, count, datatype, dest, tag, comm);
    return MPI_SUCCESS;
}

int tide_lean_isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                    MPI_Request *request)
{
    struct lean_msg m;
    struct tide_request *r;
    if (!lean_target(buf, count, datatype, dest, tag, comm, &m) || !request ||
        !(r = tide_request_new(TIDE_REQ_SEND)))
        return tide_isend_full(buf, count, datatype, dest, tag, comm, request);
    if (lean_write(&m, tag, r->id)) {
        r->complete = true;
        tide_request_free(r);
        return tide_isend_full(buf, count, datatype, dest, tag, comm, request);
    }
    tide_request_eager_sent(r, TIDE_MODE_STANDARD, dest, tag, m.ctx, m.p, m.p->tx, m.bytes);
    *request = r->handle;
    return MPI_SUCCESS;
}

/* A receive request for the arguments, posted, when no message waits
 * unmatched on its context; NULL with nothing done if the short path
 * does not take it. */
static inline __attribute__((always_inline)) struct tide_request *
lean_post(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm)
{
    struct tide_comm *c = tide_handle_get(TIDE_KIND_COMM, comm);
    struct tide_datatype *dt;
    struct tide_matchq *q;
    struct tide_request *r;
    if (!c || c->freed || !tide_pt2pt_args_ok(c, buf, count, dt = tide_datatype_lookup(datatype), source, tag, true) ||
        source == MPI_PROC_NULL || tide_comm_faults || !(q = tide_matchq_find(c->context_id)) || q->arrival ||
        q->nunexpected || !(r = tide_request_new(TIDE_REQ_RECV)))
        return NULL;
    tide_request_fill(r, buf, count, dt, source, tag, c, c->context_id);
    r->bytes = (size_t)count * dt->size;
    tide_conv_init(&r->conv, dt, (size_t)count, buf);
    tide_match_post(q, r);
    return r;
}

int tide_lean_irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                    MPI_Request *request)
{
    struct tide_request *r;
    if (!request || !(r = lean_post(buf, count, datatype, source, tag, comm)))
        return tide_irecv_full(buf, count, datatype, source, tag, comm, request);
    *request = r->handle;
    return MPI_SUCCESS;
}

static bool done_or_interrupted(void *arg);
static inline bool finishable(const struct tide_request *r);

/* Wait for posted receive r and finish it; send_err: the error of a send
 * that went with it (MPI_Sendrecv), reported if the receive has none. */
static int lean_recv_finish(struct tide_request *r, MPI_Status *status, int send_err)
{
    tide_progress_until(done_or_interrupted, r);
    if (__builtin_expect(!finishable(r) || send_err, 0)) {
        /* as the ordinary paths end (tide_recv_api, tide_sendrecv_api) */
        struct tide_comm *c = r->comm;
        tide_comm_retain(c);
        int err = tide_wait_free(r, status);
        if (!err)
            err = send_err;
        if (err)
            err = tide_raise_comm(c, err);
        tide_comm_release(c);
        return err;
    }
    tide_request_status_out(r, status);
    tide_request_free_plain(r);
    return MPI_SUCCESS;
}

int tide_lean_recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                   MPI_Status *status)
{
    struct tide_request *r = lean_post(buf, count, datatype, source, tag, comm);
    if (!r)
        return tide_recv_full(buf, count, datatype, source, tag, comm, status);
    return lean_recv_finish(r, status, MPI_SUCCESS);
}

int tide_lean_sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                       void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                       MPI_Status *status)
{
    /* the receive first, then the send, as the ordinary path does: two
     * processes exchanging never wait for each other */
    struct lean_msg m;
    struct tide_request *r;
    if (!lean_target(sendbuf, sendcount, sendtype, dest, sendtag, comm, &m) ||
        !(r = lean_post(recvbuf, recvcount, recvtype, source, recvtag, comm)))
        return tide_sendrecv_full(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                                  recvtag, comm, status);
    int send_err = MPI_SUCCESS;
    if (lean_write(&m, sendtag, 0)) {
        /* no room now: the ordinary send, queued behind the ring */
        struct tide_request *s;
        send_err = tide_isend(sendbuf, sendcount, tide_datatype_lookup(sendtype), dest, sendtag, m.c,
                              m.c->context_id, TIDE_MODE_STANDARD, &s);
        if (!send_err)
            send_err = tide_wait_free(s, MPI_STATUS_IGNORE);
    }
    return lean_recv_finish(r, status, send_err);
}

/* the most requests MPI_Waitall takes this way */
#define LEAN_WAITALL_MAX 128

static bool done_or_interrupted(void *arg)
{
    const struct tide_request *r = arg;
    return r->complete || r->ft_interrupted;
}

/* Can the short path finish r (complete)? */
static inline bool finishable(const struct tide_request *r)
{
    return r->complete && tide_request_plain_finishable(r);
}

int tide_lean_wait(MPI_Request *request, MPI_Status *status)
{
    struct tide_request *r;
    if (!request || *request == MPI_REQUEST_NULL || !(r = tide_request_get(*request)) || r->persistent)
        return tide_wait_full(request, status);
    if (!r->complete)
        tide_progress_until(done_or_interrupted, r);
    if (!finishable(r))
        return tide_wait_full(request, status); /* it finds r complete, or reports it */
    tide_request_status_out(r, status);
    tide_request_free_plain(r);
    *request = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
}

int tide_lean_waitall(int count, MPI_Request reqs[], MPI_Status statuses[])
{
    if (count < 0 || count > LEAN_WAITALL_MAX || (count > 0 && !reqs))
        return tide_waitall_full(count, reqs, statuses);
    struct tide_request *rp[LEAN_WAITALL_MAX];
    for (int i = 0; i < count; i++) {
        rp[i] = NULL;
        if (reqs[i] == MPI_REQUEST_NULL)
            continue;
        struct tide_request *r = tide_request_get(reqs[i]);
        if (!r || r->persistent)
            return tide_waitall_full(count, reqs, statuses);
        rp[i] = r;
    }
    /* waiting is not seen by the caller: the ordinary path may still
     * finish them all if one turns out not to be plain */
    for (int i = 0; i < count; i++)
        if (rp[i] && !rp[i]->complete)
            tide_progress_until(done_or_interrupted, rp[i]);
    for (int i = 0; i < count; i++)
        if (rp[i] && !finishable(rp[i]))
            return tide_waitall_full(count, reqs, statuses);
    for (int i = 0; i < count; i++) {
        MPI_Status *st = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
        if (!rp[i]) {
            if (st != MPI_STATUS_IGNORE)
                tide_status_empty(st);
            continue;
        }
        tide_request_status_out(rp[i], st);
        tide_request_free_plain(rp[i]);
        reqs[i] = MPI_REQUEST_NULL;
    }
    return MPI_SUCCESS;
}
