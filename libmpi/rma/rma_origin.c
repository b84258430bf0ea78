/*
 * rma_origin.c: the origin side of the one-sided protocol (see win.h):
 * turning an operation into its messages (one message when header,
 * target layout and data are small; otherwise a header followed by the
 * layout and the data, the data sent straight from the user's buffer),
 * posting the receive of fetched data before the request goes out, and
 * counting what is in flight so that flushes, unlocks, fences and
 * request-based operations know when it is locally complete.
 */
#include "runtime/api.h"
#include "rma/win.h"
#include "comm/comm_fault.h"
#include "rma/rma_wire.h"

#include "comm/comm.h"
#include "datatype/datatype.h"
#include "op/op.h"
#include "pt2pt/progress.h"
#include "pt2pt/protocol.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/request.h"

#include <stdlib.h>
#include <string.h>

struct tide_rma_opreq {
    struct tide_win *w;
    int target;
    int pending;                /* internal requests not complete */
    int error;
    struct tide_request *user;  /* MPI_Rput & co */
    void *buf;                  /* the message (header ...) */
    struct tide_rma_piece *pieces;
    /* a fetching operation waiting in its target's queue of answers */
    struct tide_rma_opreq *next_fetch;
    void *rbuf;
    MPI_Count rcount;
    struct tide_datatype *rdt;
};

static void op_done(struct tide_rma_opreq *op)
{
    struct tide_win *w = op->w;
    w->peers[op->target].inflight--;
    if (op->error != MPI_SUCCESS && w->error == MPI_SUCCESS)
        w->error = op->error;
    if (op->user) {
        op->user->error = op->error;
        op->user->status.MPI_ERROR = op->error;
        tide_request_complete(op->user);
    }
    free(op->buf);
    free(op->pieces);
    free(op);
}

static void part_done(struct tide_request *r)
{
    struct tide_rma_opreq *op = r->cb_data;
    r->cb_data = NULL;
    if (!op)
        return;
    if (r->error != MPI_SUCCESS && op->error == MPI_SUCCESS)
        op->error = r->error;
    if (--op->pending == 0)
        op_done(op);
}

static void track(struct tide_rma_opreq *op, struct tide_request *r)
{
    op->pending++;
    r->on_complete = part_done;
    r->cb_data = op;
    if (r->complete) {
        part_done(r);
        tide_request_free(r);
    } else {
        tide_request_free(r); /* goes when complete, after part_done */
    }
}

struct collect {
    struct tide_rma_piece *p;
    size_t n, cap;
    uintptr_t origin;
};

/* a stand-in address for the type's layout, never dereferenced */
#define LAYOUT_ORIGIN ((uintptr_t)1 << 40)

static int collect_piece(void *addr, size_t len, void *arg)
{
    struct collect *c = arg;
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 16;
        struct tide_rma_piece *p = realloc(c->p, cap * sizeof *p);
        if (!p)
            return 1;
        c->p = p;
        c->cap = cap;
    }
    c->p[c->n++] = (struct tide_rma_piece){.off = (int64_t)((intptr_t)addr - (intptr_t)c->origin), .len = len};
    return 0;
}

/* The answer of a fetching operation. From another process it is
 * awaited in the target's queue (answers come in issue order) and taken
 * as it arrives (tide_rma_reply_arrived); from this process it is a
 * receive. */
static int start_recv(struct tide_rma_opreq *op, void *buf, MPI_Count count, struct tide_datatype *dt)
{
    struct tide_request *r;
    struct tide_win *w = op->w;
    if (op->target != w->rank) {
        op->rbuf = buf;
        op->rcount = count;
        op->rdt = dt;
        tide_datatype_retain(dt);
        op->pending++;
        struct tide_rma_origin_state *o = &w->peers[op->target];
        if (o->fetch_tail)
            o->fetch_tail->next_fetch = op;
        else
            o->fetch_head = op;
        o->fetch_tail = op;
        return MPI_SUCCESS;
    }
    int rc = tide_irecv(buf, count, dt, op->target, TIDE_RMA_TAG_REPLY, w->comm, w->comm->context_id, &r);
    if (rc == MPI_SUCCESS)
        track(op, r);
    return rc;
}

/* op's answer has been taken (or will never come) */
static void fetch_done(struct tide_rma_opreq *op, int err)
{
    tide_datatype_release(op->rdt);
    op->rdt = NULL;
    if (err != MPI_SUCCESS && op->error == MPI_SUCCESS)
        op->error = err;
    if (--op->pending == 0)
        op_done(op);
}

static struct tide_rma_opreq *fetch_pop(struct tide_rma_origin_state *o)
{
    struct tide_rma_opreq *op = o->fetch_head;
    if (op) {
        o->fetch_head = op->next_fetch;
        if (!o->fetch_head)
            o->fetch_tail = NULL;
        op->next_fetch = NULL;
    }
    return op;
}

bool tide_rma_reply_arrived(struct tide_win *w, int src, bool eager, const void *payload, size_t plen)
{
    struct tide_rma_opreq *op = fetch_pop(&w->peers[src]);
    if (!op)
        return false; /* nothing awaited: left to matching, which drops it */
    if (!eager) {
        /* a large answer: a receive for it, which the message matches
         * right after this */
        struct tide_request *r;
        int rc = tide_irecv(op->rbuf, op->rcount, op->rdt, src, TIDE_RMA_TAG_REPLY, w->comm, w->comm->context_id, &r);
        if (rc == MPI_SUCCESS)
            track(op, r);
        fetch_done(op, rc);
        return false;
    }
    size_t room = (size_t)op->rcount * op->rdt->size;
    int err = MPI_SUCCESS;
    if (plen > room) {
        err = tide_err(MPI_ERR_TRUNCATE, "the answer of a one-sided operation from rank %d holds %zu bytes, %zu expected",
                       src, plen, room);
    } else if (plen) {
        struct tide_convertor cv;
        tide_conv_init(&cv, op->rdt, (size_t)op->rcount, op->rbuf);
        tide_conv_unpack(&cv, payload, plen);
    }
    fetch_done(op, err);
    return true;
}

void tide_rma_fetches_abandon(struct tide_win *w, int r, int err)
{
    struct tide_rma_opreq *op;
    while ((op = fetch_pop(&w->peers[r])))
        fetch_done(op, err);
}

static int start_send(struct tide_rma_opreq *op, const void *buf, MPI_Count count, struct tide_datatype *dt, int tag)
{
    struct tide_request *r;
    struct tide_win *w = op->w;
    int rc = tide_isend(buf, count, dt, op->target, tag, w->comm, w->comm->context_id, TIDE_MODE_STANDARD, &r);
    if (rc == MPI_SUCCESS)
        track(op, r);
    return rc;
}

/* The message of an operation sent whole: header, target layout, data. */
static void pack_message(unsigned char *m, const struct tide_rma_args *a, const struct tide_rma_hdr *h,
                         const struct tide_rma_piece *pieces)
{
    size_t pb = (size_t)h->npieces * sizeof(struct tide_rma_piece);
    memcpy(m, h, sizeof *h);
    if (pb)
        memcpy(m + sizeof *h, pieces, pb);
    unsigned char *d = m + sizeof *h + pb;
    if (a->kind == TIDE_RMA_CAS) {
        memcpy(d, a->origin, h->elem);
        memcpy(d + h->elem, a->compare, h->elem);
    } else if (h->payload) {
        struct tide_convertor cv;
        tide_conv_init(&cv, a->odt, (size_t)a->ocount, a->origin);
        tide_conv_pack(&cv, d, h->payload);
    }
}

/* Put the message of an operation sent whole out at once if the
 * transport takes it: true if it did. The header is sent before the
 * origin's data straight from its buffer where there is no layout to
 * add, else the message is assembled here first. */
static bool send_now(struct tide_win *w, const struct tide_rma_args *a, const struct tide_rma_hdr *h,
                     const struct tide_rma_piece *pieces)
{
    uint32_t ctx = w->comm->context_id;
    if (h->npieces == 0 && a->kind != TIDE_RMA_CAS)
        return tide_send_immediate_prefixed(h, sizeof *h, a->origin, h->payload ? a->ocount : 0, a->odt,
                                            a->target, TIDE_RMA_TAG_REQ, w->comm, ctx);
    _Alignas(16) unsigned char m[sizeof *h + TIDE_RMA_INLINE_MAX];
    pack_message(m, a, h, pieces);
    return tide_send_immediate(m, (MPI_Count)(sizeof *h + (size_t)h->npieces * sizeof(struct tide_rma_piece) +
                                              h->payload),
                               tide_datatype_get(MPI_BYTE), a->target, TIDE_RMA_TAG_REQ, w->comm, ctx);
}

int tide_rma_issue(struct tide_win *w, const struct tide_rma_args *a, MPI_Request *req, const char *fn)
{
    if (__builtin_expect(tide_comm_faults != 0, 0)) {
        int frc = tide_rma_target_failed(w, a->target, fn);
        if (frc != MPI_SUCCESS)
            return frc;
    }
    struct tide_request *user = NULL;
    if (req) {
        user = tide_request_new(TIDE_REQ_OTHER);
        if (!user)
            return tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
        tide_status_empty(&user->status);
        *req = user->handle;
    }
    if (a->target == MPI_PROC_NULL) {
        if (user)
            tide_request_complete(user);
        return MPI_SUCCESS;
    }
    if (w->direct) {
        int drc = tide_rma_direct_issue(w, a);
        if (user) {
            user->error = drc;
            tide_request_complete(user);
        }
        return drc;
    }
    struct tide_rma_hdr h = {0};
    struct collect pc = {.origin = LAYOUT_ORIGIN};
    struct tide_rma_opreq *op = NULL;
    h.kind = (uint8_t)a->kind;
    h.epoch = w->fence_epoch;
    h.nbytes = (uint64_t)a->tcount * a->tdt->size;
    uint64_t offset = (uint64_t)a->disp * (uint64_t)(w->flavor == MPI_WIN_FLAVOR_DYNAMIC ? 1 : w->disp_units[a->target]);
    if (h.nbytes == 0) {
        h.offset = offset;
    } else if (a->tdt->contig) {
        h.offset = offset + (uint64_t)a->tdt->true_lb;
    } else {
        h.offset = offset;
        if (tide_datatype_foreach(a->tdt, (size_t)a->tcount, (void *)LAYOUT_ORIGIN, collect_piece, &pc) != 0)
            goto nomem;
        h.npieces = (uint32_t)pc.n;
    }
    if (a->kind == TIDE_RMA_ACC || a->kind == TIDE_RMA_GACC) {
        h.op = a->op->handle;
        int base = 0;
        size_t nb;
        if (tide_datatype_base(a->tdt, &base, &nb))
            h.base = base;
    }
    size_t elem = 0;
    if (a->kind == TIDE_RMA_PUT || a->kind == TIDE_RMA_ACC || a->kind == TIDE_RMA_GACC)
        h.payload = (uint64_t)a->ocount * a->odt->size;
    if (a->kind == TIDE_RMA_CAS) {
        elem = a->odt->size;
        h.elem = (uint16_t)elem;
        h.payload = 2 * elem;
    }
    if (tide_rma_epoch_of(w, a->target) == TIDE_RMA_EPOCH_FENCE)
        h.flags |= TIDE_RMA_F_FENCE;
    size_t pb = (size_t)h.npieces * sizeof(struct tide_rma_piece);
    bool fetches = a->kind == TIDE_RMA_GET || a->kind == TIDE_RMA_GACC || a->kind == TIDE_RMA_CAS;
    bool one_message = pb + h.payload <= TIDE_RMA_INLINE_MAX;
    if (one_message)
        h.flags |= TIDE_RMA_F_INLINE;
    if (h.flags & TIDE_RMA_F_FENCE)
        w->fence_sent[a->target]++;
    if (a->kind == TIDE_RMA_PUT || a->kind == TIDE_RMA_ACC)
        w->peers[a->target].dirty = true; /* fetching kinds are done when their answer is in */
    /* a put or accumulate the transport takes at once is locally
     * complete: nothing to track */
    if (one_message && !fetches && !user && send_now(w, a, &h, pc.p)) {
        free(pc.p);
        return MPI_SUCCESS;
    }
    op = calloc(1, sizeof *op);
    if (!op) {
        if (h.flags & TIDE_RMA_F_FENCE)
            w->fence_sent[a->target]--;
        goto nomem;
    }
    op->w = w;
    op->target = a->target;
    op->user = user;
    w->peers[a->target].inflight++;
    op->pending = 1; /* held until everything is started */

    /* fetched data first: its receive is posted before the request goes */
    int rc = MPI_SUCCESS;
    if (a->kind == TIDE_RMA_GET)
        rc = start_recv(op, a->origin ? (void *)a->origin : NULL, a->ocount, a->odt);
    else if (a->kind == TIDE_RMA_GACC || a->kind == TIDE_RMA_CAS)
        rc = start_recv(op, a->result, a->rcount, a->rdt);

    if (rc == MPI_SUCCESS && one_message) {
        if (!send_now(w, a, &h, pc.p)) {
            size_t len = sizeof h + pb + h.payload;
            unsigned char *copy = malloc(len);
            if (!copy) {
                rc = tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
            } else {
                pack_message(copy, a, &h, pc.p);
                op->buf = copy;
                rc = start_send(op, copy, (MPI_Count)len, tide_datatype_get(MPI_BYTE), TIDE_RMA_TAG_REQ);
            }
        }
    } else if (rc == MPI_SUCCESS) {
        struct tide_rma_hdr *mh = malloc(sizeof *mh);
        if (!mh) {
            rc = tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
        } else {
            *mh = h;
            op->buf = mh;
            op->pieces = pc.p;
            pc.p = NULL;
            rc = start_send(op, mh, (MPI_Count)sizeof *mh, tide_datatype_get(MPI_BYTE), TIDE_RMA_TAG_REQ);
            if (rc == MPI_SUCCESS && pb)
                rc = start_send(op, op->pieces, (MPI_Count)pb, tide_datatype_get(MPI_BYTE), TIDE_RMA_TAG_DATA);
            if (rc == MPI_SUCCESS && h.payload)
                rc = start_send(op, a->origin, a->ocount, a->odt, TIDE_RMA_TAG_DATA);
        }
    }
    free(pc.p);
    if (rc != MPI_SUCCESS && op->error == MPI_SUCCESS)
        op->error = rc;
    if (--op->pending == 0)
        op_done(op);
    /* an operation on this process itself completes at once, as users of
     * other MPIs expect (a result buffer read, or freed, before the
     * closing synchronisation works there): nothing remote to wait for */
    if (rc == MPI_SUCCESS && !user && a->target == w->rank)
        tide_rma_wait_local(w, a->target);
    return rc;

nomem:
    free(pc.p);
    free(op);
    if (user) {
        user->error = MPI_ERR_NO_MEM;
        tide_request_complete(user);
    }
    return tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
}

struct local_wait {
    struct tide_win *w;
    int r;
};

static bool locally_done(void *arg)
{
    struct local_wait *lw = arg;
    if (lw->r >= 0)
        return lw->w->peers[lw->r].inflight == 0 || tide_rma_peer_gone(lw->w, lw->r);
    for (int i = 0; i < lw->w->size; i++)
        if (lw->w->peers[i].inflight && !tide_rma_peer_gone(lw->w, i))
            return false;
    return true;
}

int tide_rma_wait_local(struct tide_win *w, int r)
{
    struct local_wait lw = {w, r};
    if (!locally_done(&lw))
        tide_progress_until(locally_done, &lw);
    return MPI_SUCCESS;
}

static bool acked(void *arg)
{
    struct local_wait *lw = arg;
    return lw->w->peers[lw->r].acks >= lw->w->peers[lw->r].acks_wanted || tide_rma_peer_gone(lw->w, lw->r);
}

void tide_rma_wait_acks(struct tide_win *w, int r)
{
    struct local_wait lw = {w, r};
    if (!acked(&lw))
        tide_progress_until(acked, &lw);
}

int tide_rma_take_error(struct tide_win *w)
{
    int e = w->error;
    w->error = MPI_SUCCESS;
    return e;
}
