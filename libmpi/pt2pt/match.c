/*
 * match.c: posted-receive and unexpected-message queues per context id
 * (unexpected messages in buckets by source: match.h).
 */
#include "pt2pt/match.h"
#include "pt2pt/request.h"
#include "comm/context.h"
#include "runtime/lock.h"

#include <stdlib.h>
#include <string.h>

#define MQ_CHUNK TIDE_MATCHQ_CHUNK
#define MQ_CHUNK_BITS TIDE_MATCHQ_CHUNK_BITS
#define MQ_NCHUNKS TIDE_MATCHQ_CHUNKS
_Static_assert(TIDE_MATCHQ_CHUNKS * TIDE_MATCHQ_CHUNK == TIDE_CONTEXT_MAX, "the directory covers every context id");

struct tide_matchq **tide_matchq_dir[TIDE_MATCHQ_CHUNKS];
#define mq_dir tide_matchq_dir

struct tide_matchq *tide_matchq_get(uint32_t ctx)
{
    if (ctx >= TIDE_CONTEXT_MAX)
        return NULL;
    struct tide_matchq ***chunk = &mq_dir[ctx >> MQ_CHUNK_BITS];
    if (!*chunk && !(*chunk = calloc(MQ_CHUNK, sizeof **chunk)))
        return NULL;
    struct tide_matchq **slot = &(*chunk)[ctx & (MQ_CHUNK - 1)];
    if (!*slot) {
        *slot = calloc(1, sizeof **slot);
        if (*slot) {
            (*slot)->ctx = ctx;
        }
    }
    return *slot;
}

void tide_matchq_drop(uint32_t ctx)
{
    if (ctx >= TIDE_CONTEXT_MAX)
        return;
    struct tide_matchq **chunk = mq_dir[ctx >> MQ_CHUNK_BITS];
    if (!chunk)
        return;
    struct tide_matchq *q = chunk[ctx & (MQ_CHUNK - 1)];
    /* a queue with messages still waiting (sent before the free) is kept */
    if (!q || q->nunexpected || q->posted_head)
        return;
    free(q);
    chunk[ctx & (MQ_CHUNK - 1)] = NULL;
}

static void uq_pools_free(void);

void tide_matchq_finalize(void)
{
    for (unsigned c = 0; c < MQ_NCHUNKS; c++) {
        if (!mq_dir[c])
            continue;
        for (unsigned i = 0; i < MQ_CHUNK; i++) {
            struct tide_matchq *q = mq_dir[c][i];
            if (!q)
                continue;
            for (int b = 0; b < TIDE_UQ_BUCKETS; b++)
                while (q->uq[b].head) {
                    struct tide_unexpected *u = q->uq[b].head;
                    q->uq[b].head = u->next;
                    tide_unexpected_free(u);
                }
            free(q);
        }
        free(mq_dir[c]);
        mq_dir[c] = NULL;
    }
    uq_pools_free();
}

void tide_match_post(struct tide_matchq *q, struct tide_request *req)
{
    req->next = NULL;
    req->prev = q->posted_tail;
    if (q->posted_tail)
        q->posted_tail->next = req;
    else
        q->posted_head = req;
    q->posted_tail = req;
    q->nposted++;
}

void tide_match_unlink_posted(struct tide_matchq *q, struct tide_request *r)
{
    if (r->prev)
        r->prev->next = r->next;
    else
        q->posted_head = r->next;
    if (r->next)
        r->next->prev = r->prev;
    else
        q->posted_tail = r->prev;
    r->next = r->prev = NULL;
    q->nposted--;
}

struct tide_request *tide_match_take_posted(struct tide_matchq *q, int src, int tag)
{
    for (struct tide_request *r = q->posted_head; r; r = r->next)
        if (tide_match_ok(r->peer, r->tag, src, tag)) {
            tide_match_unlink_posted(q, r);
            return r;
        }
    return NULL;
}

struct tide_request *tide_match_peek_posted(struct tide_matchq *q, int src, int tag)
{
    for (struct tide_request *r = q->posted_head; r; r = r->next)
        if (tide_match_ok(r->peer, r->tag, src, tag))
            return r;
    return NULL;
}

bool tide_match_unpost(struct tide_matchq *q, struct tide_request *req)
{
    for (struct tide_request *r = q->posted_head; r; r = r->next)
        if (r == req) {
            tide_match_unlink_posted(q, r);
            return true;
        }
    return false;
}

static struct tide_uq_bucket *bucket_of(struct tide_matchq *q, int src)
{
    return &q->uq[(unsigned)src % TIDE_UQ_BUCKETS];
}

void tide_match_add_unexpected(struct tide_matchq *q, struct tide_unexpected *u)
{
    struct tide_uq_bucket *b = bucket_of(q, u->src);
    u->next = NULL;
    u->stamp = q->uq_stamp++;
    if (b->tail)
        b->tail->next = u;
    else
        b->head = u;
    b->tail = u;
    q->nunexpected++;
}

static void unlink_unexpected(struct tide_matchq *q, struct tide_uq_bucket *b, struct tide_unexpected *prev,
                              struct tide_unexpected *u)
{
    if (prev)
        prev->next = u->next;
    else
        b->head = u->next;
    if (b->tail == u)
        b->tail = prev;
    u->next = NULL;
    q->nunexpected--;
}

/* The first message of bucket b matching (src, tag), and the one before it. */
static struct tide_unexpected *first_match(struct tide_uq_bucket *b, int src, int tag,
                                           struct tide_unexpected **prev_out)
{
    struct tide_unexpected *prev = NULL;
    for (struct tide_unexpected *u = b->head; u; prev = u, u = u->next)
        if (tide_match_ok(src, tag, u->src, u->tag)) {
            *prev_out = prev;
            return u;
        }
    return NULL;
}

struct tide_unexpected *tide_match_find_unexpected(struct tide_matchq *q, int src, int tag, bool take)
{
    if (!q->nunexpected)
        return NULL;
    struct tide_uq_bucket *best_b = NULL;
    struct tide_unexpected *best = NULL, *best_prev = NULL;
    if (src >= 0) {
        best_b = bucket_of(q, src);
        best = first_match(best_b, src, tag, &best_prev);
    } else {
        for (int i = 0; i < TIDE_UQ_BUCKETS; i++) {
            struct tide_unexpected *prev, *u = q->uq[i].head ? first_match(&q->uq[i], src, tag, &prev) : NULL;
            if (u && (!best || u->stamp < best->stamp)) {
                best = u;
                best_prev = prev;
                best_b = &q->uq[i];
            }
        }
    }
    if (best && take)
        unlink_unexpected(q, best_b, best_prev, best);
    return best;
}

struct tide_unexpected *tide_match_take_by_sender(struct tide_matchq *q, struct tide_proc *from,
                                                  uint64_t sreq)
{
    if (sreq == 0)
        return NULL;
    for (int i = 0; i < TIDE_UQ_BUCKETS; i++) {
        struct tide_unexpected *prev = NULL;
        for (struct tide_unexpected *u = q->uq[i].head; u; prev = u, u = u->next)
            if (u->from == from && u->sreq == sreq) {
                unlink_unexpected(q, &q->uq[i], prev, u);
                return u;
            }
    }
    return NULL;
}

void tide_match_remove(struct tide_matchq *q, struct tide_unexpected *u)
{
    struct tide_uq_bucket *b = bucket_of(q, u->src);
    struct tide_unexpected *prev = NULL;
    for (struct tide_unexpected *x = b->head; x; prev = x, x = x->next)
        if (x == u) {
            unlink_unexpected(q, b, prev, u);
            return;
        }
}

static struct tide_unexpected *first_from(struct tide_matchq *q, int i)
{
    for (; i < TIDE_UQ_BUCKETS; i++)
        if (q->uq[i].head)
            return q->uq[i].head;
    return NULL;
}

struct tide_unexpected *tide_match_uq_first(struct tide_matchq *q)
{
    return q->nunexpected ? first_from(q, 0) : NULL;
}

struct tide_unexpected *tide_match_uq_next(struct tide_matchq *q, struct tide_unexpected *u)
{
    return u->next ? u->next : first_from(q, (int)((unsigned)u->src % TIDE_UQ_BUCKETS) + 1);
}

/* Unexpected messages up to the largest eager size come from free lists
 * of fixed-size blocks (three classes), so a flood of small messages does
 * not hammer malloc and a stream of large eager ones does not make the
 * heap give its top back to the kernel and fault it in again every time.
 * The class follows from data_len, which never changes. */
static const size_t uq_class_size[] = {4096, 16384, 65536};
static const size_t uq_class_keep[] = {1024, 128, 64}; /* 4, 2 and 4 MiB at most */
#define UQ_CLASSES 3
static struct tide_unexpected *uq_free[UQ_CLASSES];
/* taken by holders of the shared library lock only (runtime/lock.h) */
static tide_spinlock uq_lock = TIDE_SPINLOCK_INIT;
static size_t uq_nfree[UQ_CLASSES];

static int uq_class(size_t data_len)
{
    for (int k = 0; k < UQ_CLASSES; k++)
        if (data_len <= uq_class_size[k])
            return k;
    return -1;
}

struct tide_unexpected *tide_unexpected_new(size_t data_len)
{
    struct tide_unexpected *u = NULL;
    int k = uq_class(data_len);
    bool shared = tide_thread_multiple && tide_lock_held_shared(); /* one load when single-threaded */
    if (shared)
        tide_spin_lock(&uq_lock);
    if (k >= 0 && uq_free[k]) {
        u = uq_free[k];
        uq_free[k] = u->next;
        uq_nfree[k]--;
    }
    if (shared)
        tide_spin_unlock(&uq_lock);
    if (!u) {
        size_t cap = k >= 0 ? uq_class_size[k] : data_len;
        u = malloc(sizeof *u + cap);
        if (!u)
            return NULL;
    }
    /* every field by itself: a memset of the structure becomes a string
     * instruction slower than these stores, once per arriving message */
    u->next = NULL;
    u->stamp = 0;
    u->ctx = 0;
    u->src = 0;
    u->tag = 0;
    u->from = NULL;
    u->type = 0;
    u->flags = 0;
    u->niov = 0;
    u->len = 0;
    u->sreq = 0;
    u->data = u + 1;
    u->data_len = data_len;
    u->self_sreq = NULL;
    return u;
}

void tide_unexpected_free(struct tide_unexpected *u)
{
    int k = uq_class(u->data_len);
    bool shared = tide_thread_multiple && tide_lock_held_shared(); /* one load when single-threaded */
    if (shared)
        tide_spin_lock(&uq_lock);
    if (k >= 0 && uq_nfree[k] < uq_class_keep[k]) {
        u->next = uq_free[k];
        uq_free[k] = u;
        uq_nfree[k]++;
        u = NULL;
    }
    if (shared)
        tide_spin_unlock(&uq_lock);
    free(u);
}

static void uq_pools_free(void)
{
    for (int k = 0; k < UQ_CLASSES; k++) {
        while (uq_free[k]) {
            struct tide_unexpected *u = uq_free[k];
            uq_free[k] = u->next;
            free(u);
        }
        uq_nfree[k] = 0;
    }
}
