/*
 * rma_target.c: the target side of the one-sided protocol (see win.h).
 * Each window keeps a receive posted for headers from any origin and one
 * for control messages; the progress hook takes what arrived, keeps the
 * headers of each origin in order, and applies the head of each origin's
 * queue once its data is in and its fence epoch has begun here: puts,
 * gets, accumulates (with the predefined ops), compare-and-swap, lock
 * requests and releases, flushes and the end of PSCW access epochs.
 * Nothing an origin sends can make the target touch memory outside its
 * window: every access is checked here again.
 */
#include "runtime/api.h"
#include "rma/win.h"
#include "rma/rma_wire.h"

#include "comm/comm.h"
#include "datatype/datatype.h"
#include "op/op.h"
#include "op/op_kernels.h"
#include "pt2pt/match.h"
#include "pt2pt/protocol.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/request.h"

#include <stdlib.h>
#include <string.h>

#define REQ_BUF (sizeof(struct tide_rma_hdr) + TIDE_RMA_INLINE_MAX)

struct tide_rma_pending {
    struct tide_rma_pending *next;
    struct tide_rma_hdr h;
    struct tide_rma_piece *pieces; /* npieces of them (owned) */
    unsigned char *payload;        /* h.payload bytes (owned), or NULL when received in place */
    bool in_place;                 /* a put's data was received straight into the window */
    struct tide_request *rp, *rd;  /* receives of the pieces and the payload */
};

struct tide_rma_lockwait {
    struct tide_rma_lockwait *next;
    int origin;
    int type;
};

static unsigned char *target_addr(struct tide_win *w, uint64_t offset, int64_t off, uint64_t len);
static void apply(struct tide_win *w, int origin, struct tide_rma_pending *p);
static void control(struct tide_win *w, int src, const struct tide_rma_ctrl *c);
static void arrived(struct tide_win *w, int src, const unsigned char *msg, size_t len);

static struct tide_datatype *byte_type(void)
{
    return tide_datatype_get(MPI_BYTE);
}

static uint32_t win_ctx(const struct tide_win *w)
{
    return w->comm->context_id;
}

/* ---- sending with the buffer freed when the send is done ---- */

static void free_cb_data(struct tide_request *r)
{
    free(r->cb_data);
    r->cb_data = NULL;
}

/* Let r finish by itself; on_complete (if any) runs when it does. */
static void let_go(struct tide_request *r, void (*on_complete)(struct tide_request *), void *data)
{
    r->on_complete = on_complete;
    r->cb_data = data;
    if (r->complete) {
        if (on_complete)
            on_complete(r);
        tide_request_free(r);
    } else {
        tide_request_free(r); /* destroyed when it completes */
    }
}

/* Send len bytes at buf to rank r through a request that finishes by
 * itself; owned: buf is malloc'd and freed once sent. */
static int send_queued(struct tide_win *w, int r, int tag, void *buf, size_t len, bool owned)
{
    struct tide_request *req;
    int rc = tide_isend(buf, (MPI_Count)len, byte_type(), r, tag, w->comm, win_ctx(w), TIDE_MODE_STANDARD, &req);
    if (rc != MPI_SUCCESS) {
        if (owned)
            free(buf);
        return rc;
    }
    let_go(req, owned ? free_cb_data : NULL, owned ? buf : NULL);
    return MPI_SUCCESS;
}

/* Send len bytes at buf to rank r, at once when the transport takes
 * them; owned: buf is malloc'd and freed once sent. */
static int send_bytes(struct tide_win *w, int r, int tag, void *buf, size_t len, bool owned)
{
    if (tide_send_immediate(buf, (MPI_Count)len, byte_type(), r, tag, w->comm, win_ctx(w))) {
        if (owned)
            free(buf);
        return MPI_SUCCESS;
    }
    return send_queued(w, r, tag, buf, len, owned);
}

/* Send a copy of the len bytes at buf (put out at once when the
 * transport takes it, else from a copy freed once sent). */
int tide_rma_send_copy(struct tide_win *w, int r, int tag, const void *buf, size_t len)
{
    if (tide_send_immediate(buf, (MPI_Count)len, byte_type(), r, tag, w->comm, win_ctx(w)))
        return MPI_SUCCESS;
    void *copy = malloc(len ? len : 1);
    if (!copy)
        return tide_err(MPI_ERR_NO_MEM, "out of memory for a one-sided message of %zu bytes", len);
    memcpy(copy, buf, len);
    return send_queued(w, r, tag, copy, len, true);
}

int tide_rma_send_ctrl(struct tide_win *w, int r, int kind, int64_t arg)
{
    struct tide_rma_ctrl c = {.kind = kind, .arg = arg};
    return tide_rma_send_copy(w, r, TIDE_RMA_TAG_CTRL, &c, sizeof c);
}

int tide_rma_send_marker(struct tide_win *w, int r, int kind, int arg)
{
    struct tide_rma_hdr h = {.kind = (uint8_t)kind, .flags = TIDE_RMA_F_INLINE, .arg = arg, .epoch = w->fence_epoch};
    return tide_rma_send_copy(w, r, TIDE_RMA_TAG_REQ, &h, sizeof h);
}

/* ---- posting the receives ---- */

/* The window's messages as they arrive (the matching queue's arrival
 * handler): answers go to the operations awaiting them; an origin's
 * header or a target's control message is taken
 * at once when it came whole and nothing of the same kind from the same
 * process waits in the posted receive's path (which keeps them in
 * order); otherwise it goes that way, and is counted. */
static bool take_arrival(void *arg, int src, int tag, bool eager, const void *payload, size_t plen)
{
    struct tide_win *w = arg;
    if (src < 0 || src >= w->size)
        return false;
    if (tag == TIDE_RMA_TAG_REPLY)
        return tide_rma_reply_arrived(w, src, eager, payload, plen);
    if (tag != TIDE_RMA_TAG_REQ && tag != TIDE_RMA_TAG_CTRL)
        return false;
    struct tide_rma_origin_state *o = &w->peers[src];
    if (tag == TIDE_RMA_TAG_REQ) {
        if (!eager || o->req_queued || plen > REQ_BUF) {
            o->req_queued++;
            return false;
        }
        arrived(w, src, payload, plen);
        return true;
    }
    if (!eager || o->ctrl_queued || plen != sizeof(struct tide_rma_ctrl)) {
        o->ctrl_queued++;
        return false;
    }
    struct tide_rma_ctrl c;
    memcpy(&c, payload, sizeof c);
    control(w, src, &c);
    return true;
}

static int post_req(struct tide_win *w)
{
    return tide_irecv(w->req_buf, (MPI_Count)REQ_BUF, byte_type(), MPI_ANY_SOURCE, TIDE_RMA_TAG_REQ, w->comm,
                      win_ctx(w), &w->req_recv);
}

static int post_ctrl(struct tide_win *w)
{
    return tide_irecv(w->ctrl_buf, (MPI_Count)sizeof(struct tide_rma_ctrl), byte_type(), MPI_ANY_SOURCE,
                      TIDE_RMA_TAG_CTRL, w->comm, win_ctx(w), &w->ctrl_recv);
}

int tide_rma_target_start(struct tide_win *w)
{
    w->req_buf = malloc(REQ_BUF);
    w->ctrl_buf = malloc(sizeof(struct tide_rma_ctrl));
    if (!w->req_buf || !w->ctrl_buf)
        return MPI_ERR_NO_MEM;
    int rc = post_req(w);
    if (rc == MPI_SUCCESS)
        rc = post_ctrl(w);
    struct tide_matchq *q = tide_matchq_get(win_ctx(w));
    if (rc == MPI_SUCCESS && q) {
        q->arrival = take_arrival;
        q->arrival_arg = w;
    }
    return rc;
}

static void drop_recv(struct tide_request **r)
{
    if (!*r)
        return;
    if (!(*r)->complete)
        tide_request_abort(*r, MPI_ERR_REQUEST);
    if ((*r)->complete)
        tide_request_free(*r);
    *r = NULL;
}

static void pending_free(struct tide_rma_pending *p)
{
    drop_recv(&p->rp);
    drop_recv(&p->rd);
    free(p->pieces);
    free(p->payload);
    free(p);
}

void tide_rma_target_stop(struct tide_win *w)
{
    struct tide_matchq *q = w->comm ? tide_matchq_find(win_ctx(w)) : NULL;
    if (q && q->arrival_arg == w) {
        q->arrival = NULL;
        q->arrival_arg = NULL;
    }
    drop_recv(&w->req_recv);
    drop_recv(&w->ctrl_recv);
    free(w->req_buf);
    free(w->ctrl_buf);
    w->req_buf = w->ctrl_buf = NULL;
    for (int i = 0; w->peers && i < w->size; i++) {
        while (w->peers[i].head) {
            struct tide_rma_pending *p = w->peers[i].head;
            w->peers[i].head = p->next;
            pending_free(p);
        }
    }
    while (w->lockq) {
        struct tide_rma_lockwait *l = w->lockq;
        w->lockq = l->next;
        free(l);
    }
}

/* ---- arrival of a header ---- */

/* A whole operation in one message, from an origin with nothing
 * waiting here, in an epoch begun here: applied from the message itself
 * (its data where it lies when aligned for the element type). */
static bool apply_now(struct tide_win *w, int src, const unsigned char *msg, size_t len)
{
    struct tide_rma_pending p = {0};
    memcpy(&p.h, msg, sizeof p.h);
    if (!(p.h.flags & TIDE_RMA_F_INLINE) || p.h.npieces != 0 || w->peers[src].head || p.h.epoch > w->fence_epoch ||
        p.h.payload > TIDE_RMA_INLINE_MAX || len != sizeof p.h + p.h.payload)
        return false;
    _Alignas(16) unsigned char aligned[TIDE_RMA_INLINE_MAX];
    p.payload = (unsigned char *)msg + sizeof p.h;
    if (p.h.payload && p.h.kind != TIDE_RMA_PUT && ((uintptr_t)p.payload & 15) != 0)
        p.payload = memcpy(aligned, p.payload, p.h.payload);
    apply(w, src, &p);
    return true;
}

static void arrived(struct tide_win *w, int src, const unsigned char *msg, size_t len)
{
    if (src < 0 || src >= w->size || len < sizeof(struct tide_rma_hdr))
        return; /* not a message of this protocol */
    if (apply_now(w, src, msg, len))
        return;
    struct tide_rma_pending *p = calloc(1, sizeof *p);
    if (!p) {
        w->error = tide_err(MPI_ERR_NO_MEM, "out of memory for a one-sided operation from rank %d", src);
        return;
    }
    memcpy(&p->h, msg, sizeof p->h);
    size_t np = p->h.npieces, pb = np * sizeof(struct tide_rma_piece);
    bool bad = np > (SIZE_MAX / 2) / sizeof(struct tide_rma_piece) || p->h.payload > (uint64_t)SIZE_MAX / 2;
    /* a large put to one run of the window, in an epoch begun here: its
     * data goes straight to its place (puts are not ordered with other
     * operations, and conflicting ones are erroneous) */
    unsigned char *place = NULL;
    if (!bad && p->h.kind == TIDE_RMA_PUT && !(p->h.flags & TIDE_RMA_F_INLINE) && np == 0 &&
        p->h.payload == p->h.nbytes && p->h.epoch <= w->fence_epoch)
        place = target_addr(w, p->h.offset, 0, p->h.nbytes);
    if (!bad && np)
        p->pieces = malloc(pb);
    if (!bad && p->h.payload && !place)
        p->payload = malloc(p->h.payload);
    if (bad || (np && !p->pieces) || (p->h.payload && !p->payload && !place)) {
        w->error = tide_err(MPI_ERR_NO_MEM, "no memory for a one-sided operation of %llu bytes from rank %d",
                            (unsigned long long)p->h.payload, src);
        /* still take its data off the channel so the next ones line up */
        p->h.kind = 0;
    }
    if (p->h.flags & TIDE_RMA_F_INLINE) {
        size_t want = sizeof p->h + pb + p->h.payload;
        if (want != len) {
            p->h.kind = 0; /* malformed: ignored */
        } else if (p->h.kind) {
            if (np)
                memcpy(p->pieces, msg + sizeof p->h, pb);
            if (p->h.payload)
                memcpy(p->payload, msg + sizeof p->h + pb, p->h.payload);
        }
    } else if (p->h.kind) {
        /* the pieces then the payload come next on the data tag, in order */
        if (np && tide_irecv(p->pieces, (MPI_Count)pb, byte_type(), src, TIDE_RMA_TAG_DATA, w->comm, win_ctx(w),
                             &p->rp) != MPI_SUCCESS)
            p->h.kind = 0;
        p->in_place = place != NULL;
        if (p->h.kind && p->h.payload &&
            tide_irecv(place ? place : p->payload, (MPI_Count)p->h.payload, byte_type(), src, TIDE_RMA_TAG_DATA,
                       w->comm, win_ctx(w), &p->rd) != MPI_SUCCESS)
            p->h.kind = 0;
    }
    struct tide_rma_origin_state *o = &w->peers[src];
    if (o->tail)
        o->tail->next = p;
    else
        o->head = p;
    o->tail = p;
    w->pending_total++;
}

/* ---- applying ---- */

/* The attached region of a dynamic window holding address a (at its end
 * too when at_end), or NULL. */
static const struct tide_rma_region *region_at(const struct tide_win *w, uintptr_t a, bool at_end)
{
    for (int i = 0; i < w->nregions; i++) {
        const struct tide_rma_region *g = &w->regions[i];
        if (a >= g->base && (a - g->base < g->size || (at_end && a - g->base == g->size)))
            return g;
    }
    return NULL;
}

/* The target address of [off, off + len) of the operation, or NULL if
 * that is not inside the window (or attached memory: regions attached
 * one by one but adjacent, as parts of one array may be, cover a range
 * together). */
static unsigned char *target_addr(struct tide_win *w, uint64_t offset, int64_t off, uint64_t len)
{
    if (w->flavor == MPI_WIN_FLAVOR_DYNAMIC) {
        uintptr_t a = (uintptr_t)offset + (uintptr_t)off;
        if (len > UINTPTR_MAX - a)
            return NULL;
        if (len == 0)
            return region_at(w, a, true) ? (unsigned char *)a : NULL;
        for (uintptr_t covered = a;;) {
            const struct tide_rma_region *g = region_at(w, covered, false);
            if (!g)
                return NULL;
            if (g->base + g->size >= a + len)
                return (unsigned char *)a;
            covered = g->base + g->size;
        }
    }
    int64_t start = (int64_t)offset + off;
    if (start < 0 || (uint64_t)start > (uint64_t)w->win_size || len > (uint64_t)w->win_size - (uint64_t)start)
        return NULL;
    return len ? (unsigned char *)w->base + start : (unsigned char *)w->base;
}

/* Every piece inside the window? */
static bool pieces_ok(struct tide_win *w, const struct tide_rma_pending *p)
{
    if (p->h.npieces == 0)
        return p->h.nbytes == 0 || target_addr(w, p->h.offset, 0, p->h.nbytes);
    uint64_t sum = 0;
    for (uint32_t i = 0; i < p->h.npieces; i++) {
        if (p->pieces[i].len && !target_addr(w, p->h.offset, p->pieces[i].off, p->pieces[i].len))
            return false;
        sum += p->pieces[i].len;
    }
    return sum == p->h.nbytes;
}

/* Call fn on each piece in order with the matching stretch of a stream. */
static void each_piece(struct tide_win *w, const struct tide_rma_pending *p, unsigned char *stream,
                       void (*fn)(unsigned char *tgt, unsigned char *s, size_t len, void *arg), void *arg)
{
    if (p->h.npieces == 0) {
        if (p->h.nbytes)
            fn(target_addr(w, p->h.offset, 0, p->h.nbytes), stream, p->h.nbytes, arg);
        return;
    }
    size_t pos = 0;
    for (uint32_t i = 0; i < p->h.npieces; i++) {
        if (p->pieces[i].len)
            fn(target_addr(w, p->h.offset, p->pieces[i].off, p->pieces[i].len), stream + pos, p->pieces[i].len, arg);
        pos += p->pieces[i].len;
    }
}

static void copy_in(unsigned char *tgt, unsigned char *s, size_t len, void *arg)
{
    (void)arg;
    memmove(tgt, s, len);
}

static void copy_out(unsigned char *tgt, unsigned char *s, size_t len, void *arg)
{
    (void)arg;
    memcpy(s, tgt, len);
}

struct acc_arg {
    struct tide_op *op;
    struct tide_datatype *dt;
};

static void acc_in(unsigned char *tgt, unsigned char *s, size_t len, void *arg)
{
    struct acc_arg *a = arg;
    tide_op_apply(a->op, s, tgt, len / a->dt->size, a->dt);
}

static void reply(struct tide_win *w, int origin, struct tide_rma_pending *p, bool ok)
{
    size_t n = p->h.nbytes;
    if (ok && p->h.kind == TIDE_RMA_GET && p->h.npieces == 0 &&
        tide_send_immediate(target_addr(w, p->h.offset, 0, n), (MPI_Count)n, byte_type(), origin,
                            TIDE_RMA_TAG_REPLY, w->comm, win_ctx(w)))
        return; /* one run of the window, put out at once from where it is */
    if (ok && p->h.kind == TIDE_RMA_GET && p->h.npieces == 0 && n > TIDE_RMA_INLINE_MAX) {
        /* one run of the window: sent from where it is */
        int rc = send_bytes(w, origin, TIDE_RMA_TAG_REPLY, target_addr(w, p->h.offset, 0, n), n, false);
        if (rc != MPI_SUCCESS && w->error == MPI_SUCCESS)
            w->error = rc;
        return;
    }
    unsigned char *buf = malloc(n ? n : 1);
    if (!buf) {
        w->error = tide_err(MPI_ERR_NO_MEM, "out of memory for the answer of a one-sided operation");
        return;
    }
    if (ok)
        each_piece(w, p, buf, copy_out, NULL);
    else
        memset(buf, 0, n);
    int rc = send_bytes(w, origin, TIDE_RMA_TAG_REPLY, buf, n, true);
    if (rc != MPI_SUCCESS && w->error == MPI_SUCCESS)
        w->error = rc;
}

static bool lock_compatible(struct tide_win *w, int type)
{
    if (w->lock_excl >= 0)
        return false;
    return type == MPI_LOCK_SHARED || w->lock_shared == 0;
}

static void grant(struct tide_win *w, int origin, int type)
{
    if (type == MPI_LOCK_EXCLUSIVE)
        w->lock_excl = origin;
    else
        w->lock_shared++;
    tide_rma_send_ctrl(w, origin, TIDE_RMA_C_GRANT, type);
}

static void grant_waiting(struct tide_win *w)
{
    while (w->lockq && lock_compatible(w, w->lockq->type)) {
        struct tide_rma_lockwait *l = w->lockq;
        w->lockq = l->next;
        if (!w->lockq)
            w->lockq_tail = NULL;
        grant(w, l->origin, l->type);
        free(l);
    }
}

static void refuse(struct tide_win *w, int origin, int cls)
{
    tide_rma_send_ctrl(w, origin, TIDE_RMA_C_ERROR, cls);
}

static void apply(struct tide_win *w, int origin, struct tide_rma_pending *p)
{
    const struct tide_rma_hdr *h = &p->h;
    bool data_op = h->kind >= TIDE_RMA_PUT && h->kind <= TIDE_RMA_CAS;
    if (p->rp && p->rp->error != MPI_SUCCESS)
        w->error = p->rp->error;
    if (p->rd && p->rd->error != MPI_SUCCESS)
        w->error = p->rd->error;
    bool ok = !data_op || pieces_ok(w, p);
    if (data_op && !ok)
        refuse(w, origin, MPI_ERR_RMA_RANGE);
    switch (h->kind) {
    case TIDE_RMA_PUT:
        if (ok && h->payload == h->nbytes && !p->in_place)
            each_piece(w, p, p->payload, copy_in, NULL);
        break;
    case TIDE_RMA_GET:
        reply(w, origin, p, ok);
        break;
    case TIDE_RMA_ACC:
    case TIDE_RMA_GACC: {
        struct acc_arg a = {.op = tide_op_get(h->op), .dt = NULL};
        if (h->base > 0 && h->base < TIDE_BUILTIN_TYPE_COUNT)
            a.dt = tide_datatype_builtin(h->base);
        bool can = ok && a.op && a.op->predefined && a.dt && a.dt->size && h->nbytes % a.dt->size == 0 &&
                   (h->payload == h->nbytes || (h->payload == 0 && a.op->index == TIDE_OPI(MPI_NO_OP)));
        if (ok && !can)
            refuse(w, origin, MPI_ERR_OP);
        if (h->kind == TIDE_RMA_GACC)
            reply(w, origin, p, ok);
        /* MPI_REPLACE is a copy of the pieces' bytes: so also for a pair
         * type with a hole inside (MPI_SHORT_INT), whose pieces run from
         * one element's second part into the next one's first */
        if (can && a.op->index == TIDE_OPI(MPI_REPLACE))
            each_piece(w, p, p->payload, copy_in, NULL);
        else if (can && a.op->index != TIDE_OPI(MPI_NO_OP))
            each_piece(w, p, p->payload, acc_in, &a);
        break;
    }
    case TIDE_RMA_CAS: {
        size_t e = h->elem;
        bool can = ok && e && h->nbytes == e && h->npieces == 0 && h->payload == 2 * e;
        reply(w, origin, p, can);
        if (can) {
            unsigned char *t = target_addr(w, h->offset, 0, e);
            if (memcmp(t, p->payload + e, e) == 0)
                memcpy(t, p->payload, e);
        }
        break;
    }
    case TIDE_RMA_LOCK: {
        int type = h->arg == MPI_LOCK_EXCLUSIVE ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED;
        if (!w->lockq && lock_compatible(w, type)) {
            grant(w, origin, type);
        } else {
            struct tide_rma_lockwait *l = calloc(1, sizeof *l);
            if (!l) {
                refuse(w, origin, MPI_ERR_NO_MEM);
                break;
            }
            l->origin = origin;
            l->type = type;
            if (w->lockq_tail)
                w->lockq_tail->next = l;
            else
                w->lockq = l;
            w->lockq_tail = l;
        }
        break;
    }
    case TIDE_RMA_UNLOCK:
        if (w->lock_excl == origin)
            w->lock_excl = -1;
        else if (w->lock_shared > 0)
            w->lock_shared--;
        tide_rma_send_ctrl(w, origin, TIDE_RMA_C_ACK, 0);
        grant_waiting(w);
        break;
    case TIDE_RMA_FLUSH:
        tide_rma_send_ctrl(w, origin, TIDE_RMA_C_ACK, 0);
        break;
    case TIDE_RMA_COMPLETE:
        w->peers[origin].completes_seen++;
        break;
    default:
        break; /* malformed or refused at arrival */
    }
    if (data_op && (h->flags & TIDE_RMA_F_FENCE))
        w->fence_applied++;
}

static bool head_ready(const struct tide_win *w, const struct tide_rma_pending *p)
{
    return (!p->rp || p->rp->complete) && (!p->rd || p->rd->complete) && p->h.epoch <= w->fence_epoch;
}

static int serve(struct tide_win *w)
{
    int work = 0;
    for (int i = 0; i < w->size && w->pending_total > 0; i++) {
        struct tide_rma_origin_state *o = &w->peers[i];
        while (o->head && head_ready(w, o->head)) {
            struct tide_rma_pending *p = o->head;
            o->head = p->next;
            if (!o->head)
                o->tail = NULL;
            w->pending_total--;
            apply(w, i, p);
            pending_free(p);
            work++;
        }
    }
    return work;
}

static void control(struct tide_win *w, int src, const struct tide_rma_ctrl *c)
{
    if (src < 0 || src >= w->size)
        return;
    struct tide_rma_origin_state *o = &w->peers[src];
    switch (c->kind) {
    case TIDE_RMA_C_GRANT:
        o->grants++;
        break;
    case TIDE_RMA_C_ACK:
        o->acks++;
        break;
    case TIDE_RMA_C_POST:
        o->posts_seen++;
        break;
    case TIDE_RMA_C_ERROR:
        if (w->error == MPI_SUCCESS) {
            int cls = (int)c->arg;
            w->error = tide_err(cls > 0 && cls <= MPI_ERR_LASTCODE ? cls : MPI_ERR_OTHER,
                                cls == MPI_ERR_RMA_RANGE
                                    ? "a one-sided operation to rank %d was outside its window and was not done"
                                    : "a one-sided operation to rank %d was refused by the target",
                                src);
        }
        break;
    default:
        break;
    }
}

static int poll_window(struct tide_win *w)
{
    int work = 0;
    while (w->req_recv && w->req_recv->complete) {
        struct tide_request *r = w->req_recv;
        int src = r->status.MPI_SOURCE;
        size_t len = (size_t)r->status.tide_nbytes;
        bool ok = r->error == MPI_SUCCESS;
        tide_request_free(r);
        w->req_recv = NULL;
        if (src >= 0 && src < w->size && w->peers[src].req_queued)
            w->peers[src].req_queued--;
        if (ok)
            arrived(w, src, w->req_buf, len);
        if (post_req(w) != MPI_SUCCESS)
            w->req_recv = NULL;
        work++;
    }
    while (w->ctrl_recv && w->ctrl_recv->complete) {
        struct tide_request *r = w->ctrl_recv;
        int src = r->status.MPI_SOURCE;
        bool ok = r->error == MPI_SUCCESS && (size_t)r->status.tide_nbytes == sizeof(struct tide_rma_ctrl);
        tide_request_free(r);
        w->ctrl_recv = NULL;
        if (src >= 0 && src < w->size && w->peers[src].ctrl_queued)
            w->peers[src].ctrl_queued--;
        if (ok)
            control(w, src, w->ctrl_buf);
        if (post_ctrl(w) != MPI_SUCCESS)
            w->ctrl_recv = NULL;
        work++;
    }
    if (w->pending_total > 0)
        work += serve(w);
    return work;
}

int tide_rma_progress(void)
{
    int work = 0;
    for (struct tide_win *w = tide_rma_windows; w; w = w->next)
        work += poll_window(w);
    return work;
}
