/*
 * protocol_shared.c: the part of the protocol that runs under the shared
 * library lock (runtime/lock.h), for MPI_THREAD_MULTIPLE's fast path
 * (fastpath.c): eager sends to a peer over a transport with send_shared
 * (shared memory, open TCP connections) or to this process (endpoints of
 * one process), receives posted or
 * matched at once, and eager arrivals delivered by a transport's
 * progress_shared. A context's queues are changed under its lock; a
 * request is completed with a release store its waiter reads with an
 * acquire load. Anything else (rendezvous, synchronous mode, truncation,
 * errors, failures, collectives' and windows' contexts, a request with
 * work to do on completion) is left untouched for the exclusive path:
 * each function then says so and has done nothing.
 */
#include "runtime/api.h"
#include "pt2pt/protocol.h"
#include "pt2pt/protocol_internal.h"
#include "pt2pt/match.h"
#include "pt2pt/request.h"
#include "pt2pt/sender_check.h"
#include "comm/comm.h"
#include "comm/comm_fault.h"
#include "runtime/proc.h"
#include "transport/transport.h"

#include <stdlib.h>

/* Each thread counts its messages in a block of its own (no locked
 * instruction per message); tide_msg_counters_read adds them up. */
struct counter_block {
    struct tide_msg_counters c;
    struct counter_block *next;
};
static __thread struct counter_block *my_counters;
static struct counter_block *counter_blocks; /* kept for the process's life */
static tide_spinlock counter_blocks_lock = TIDE_SPINLOCK_INIT;

static struct tide_msg_counters *counters(void)
{
    if (__builtin_expect(my_counters != NULL, 1))
        return &my_counters->c;
    struct counter_block *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    tide_spin_lock(&counter_blocks_lock);
    b->next = counter_blocks;
    counter_blocks = b;
    tide_spin_unlock(&counter_blocks_lock);
    my_counters = b;
    return &b->c;
}

void tide_msg_counters_read(struct tide_msg_counters *out)
{
    *out = tide_msg_counters;
    tide_spin_lock(&counter_blocks_lock);
    for (struct counter_block *b = counter_blocks; b; b = b->next) {
        out->msgs_sent += b->c.msgs_sent;
        out->bytes_sent += b->c.bytes_sent;
        out->msgs_received += b->c.msgs_received;
        out->bytes_received += b->c.bytes_received;
    }
    tide_spin_unlock(&counter_blocks_lock);
}

static inline void count_sent(size_t bytes)
{
    struct tide_msg_counters *c = counters();
    if (c) {
        c->msgs_sent++;
        c->bytes_sent += bytes;
    }
}

static inline void count_received(size_t bytes)
{
    struct tide_msg_counters *c = counters();
    if (c) {
        c->msgs_received++;
        c->bytes_received += bytes;
    }
}

static inline bool faults(void)
{
    return __atomic_load_n(&tide_comm_faults, __ATOMIC_RELAXED) != 0;
}

/* A posted receive the fast path may complete with a message of len
 * bytes: a plain receive, no truncation. */
static inline bool completable(const struct tide_request *r, size_t len)
{
    return r->kind == TIDE_REQ_RECV && !r->on_complete && !r->user_freed && !r->cancel_pending &&
           len <= r->bytes;
}

static void finish_recv(struct tide_request *r, struct tide_proc *from, int src, int tag, size_t len)
{
    count_received(len);
    r->proc = from;
    r->status.MPI_SOURCE = src;
    r->status.MPI_TAG = tag;
    r->status.tide_nbytes = (MPI_Count)len;
}

bool tide_protocol_incoming_shared(struct tide_proc *from, const struct tide_hdr *h, const void *payload,
                                   size_t plen)
{
    if (h->type != TIDE_MSG_EAGER || plen != h->len || (h->flags & TIDE_MSGF_SYNC) || h->tag < 0 ||
        tide_ctx_is_coll(h->ctx) || !tide_sender_trusted(from) || faults())
        return false;
    struct tide_matchq *q = tide_matchq_find(h->ctx);
    if (!q)
        return false;
    tide_spin_lock(&q->lock);
    if (q->arrival) {
        tide_spin_unlock(&q->lock);
        return false;
    }
    struct tide_request *r = q->posted_head ? tide_match_peek_posted(q, h->src, h->tag) : NULL;
    if (r) {
        if (!completable(r, plen)) {
            tide_spin_unlock(&q->lock);
            return false;
        }
        tide_match_unlink_posted(q, r);
        tide_spin_unlock(&q->lock);
        finish_recv(r, from, h->src, h->tag, plen);
        tide_unpack_eager(&r->conv, payload, plen);
        tide_request_complete_shared(r);
        return true;
    }
    struct tide_unexpected *u = tide_unexpected_new(plen);
    if (!u) {
        tide_spin_unlock(&q->lock);
        return false;
    }
    tide_unexpected_fill(u, from, h, payload, plen);
    tide_match_add_unexpected(q, u);
    tide_spin_unlock(&q->lock);
    return true;
}

/* A send to this process (another endpoint of it, or itself): straight
 * into a posted receive, or a copy into the unexpected queue. */
static int send_self(const void *buf, MPI_Count count, struct tide_datatype *dt, size_t bytes, int tag,
                     struct tide_comm *comm, uint32_t ctx, uint64_t sreq)
{
    if (bytes > tide.tuning.self_eager_limit)
        return 0;
    struct tide_matchq *q = tide_matchq_find(ctx);
    if (!q)
        return 0;
    struct tide_convertor src;
    tide_conv_init(&src, dt, (size_t)count, (void *)buf);
    tide_spin_lock(&q->lock);
    if (q->arrival) {
        tide_spin_unlock(&q->lock);
        return 0;
    }
    struct tide_request *r = q->posted_head ? tide_match_peek_posted(q, comm->rank, tag) : NULL;
    if (r) {
        if (!completable(r, bytes)) {
            tide_spin_unlock(&q->lock);
            return 0;
        }
        tide_match_unlink_posted(q, r);
        tide_spin_unlock(&q->lock);
        finish_recv(r, tide.me, comm->rank, tag, bytes);
        tide_copy_conv(&r->conv, &src, bytes);
        tide_request_complete_shared(r);
        return 1;
    }
    struct tide_unexpected *u = tide_unexpected_new(bytes);
    if (!u) {
        tide_spin_unlock(&q->lock);
        return 0;
    }
    u->ctx = ctx;
    u->src = comm->rank;
    u->tag = tag;
    u->from = tide.me;
    u->type = TIDE_MSG_EAGER;
    u->len = bytes;
    u->sreq = sreq;
    if (bytes)
        tide_conv_pack(&src, u->data, bytes);
    tide_match_add_unexpected(q, u);
    tide_spin_unlock(&q->lock);
    return 1;
}

int tide_send_eager_shared(const void *buf, MPI_Count count, struct tide_datatype *dt, int dest, int tag,
                           struct tide_comm *comm, uint32_t ctx, uint64_t sreq, struct tide_proc **procp)
{
    if (faults() || tide_ctx_is_coll(ctx))
        return 0;
    struct tide_proc *p = comm->peers[dest];
    size_t bytes = (size_t)count * dt->size;
    int sent;
    if (p == tide.me) {
        sent = send_self(buf, count, dt, bytes, tag, comm, ctx, sreq);
    } else {
        struct tide_transport *tx = p->tx;
        /* no room test (eager_room reads the ring unlocked): up to the low limit only */
        if (!tx || !tx->send_shared || p->pend_head || bytes > tx->eager_limit_low ||
            bytes > tide_eager_limit_for(p, tx, ctx))
            return 0;
        struct tide_hdr h = {.type = TIDE_MSG_EAGER, .ctx = ctx, .src = comm->rank, .tag = tag, .len = bytes,
                             .sreq = sreq};
        if (dt->contig) {
            sent = tx->send_shared(p, &h, (const void *)((uintptr_t)buf + (uintptr_t)dt->true_lb), bytes, NULL,
                                   0) == 0;
        } else {
            struct tide_convertor cv;
            tide_conv_init(&cv, dt, (size_t)count, (void *)buf);
            sent = tx->send_shared(p, &h, NULL, 0, &cv, bytes) == 0;
        }
    }
    if (!sent)
        return 0;
    count_sent(bytes);
    if (procp)
        *procp = p;
    return 1;
}

int tide_recv_post_shared(struct tide_request *r)
{
    if (faults() || tide_ctx_is_coll(r->ctx) || r->peer == MPI_PROC_NULL)
        return 0;
    struct tide_matchq *q = tide_matchq_find(r->ctx);
    if (!q)
        return 0;
    r->bytes = (size_t)r->count * r->dt->size;
    tide_conv_init(&r->conv, r->dt, (size_t)r->count, r->buf);
    tide_spin_lock(&q->lock);
    if (q->arrival) {
        tide_spin_unlock(&q->lock);
        return 0;
    }
    struct tide_unexpected *u = tide_match_find_unexpected(q, r->peer, r->tag, false);
    if (u) {
        if (u->type != TIDE_MSG_EAGER || (u->flags & TIDE_MSGF_SYNC) || u->self_sreq || u->len > r->bytes) {
            tide_spin_unlock(&q->lock);
            return 0;
        }
        tide_match_remove(q, u);
        tide_spin_unlock(&q->lock);
        finish_recv(r, u->from, u->src, u->tag, u->len);
        tide_unpack_eager(&r->conv, u->data, u->len);
        tide_unexpected_free(u);
        r->state = TIDE_RS_DONE;
        r->complete = true; /* nobody else knows r yet */
        return 1;
    }
    r->state = TIDE_RS_POSTED;
    tide_match_post(q, r);
    tide_spin_unlock(&q->lock);
    return 1;
}
