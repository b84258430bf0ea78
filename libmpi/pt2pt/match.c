/*
 * match.c: posted-receive and unexpected-message queues per context id.
 */
#include "pt2pt/match.h"
#include "pt2pt/request.h"
#include "comm/context.h"

#include <stdlib.h>
#include <string.h>

#define MQ_CHUNK_BITS 10
#define MQ_CHUNK (1u << MQ_CHUNK_BITS)
#define MQ_NCHUNKS (TIDE_CONTEXT_MAX / MQ_CHUNK)

static struct tide_matchq **mq_dir[MQ_NCHUNKS];

struct tide_matchq *tide_matchq_find(uint32_t ctx)
{
    if (ctx >= TIDE_CONTEXT_MAX)
        return NULL;
    struct tide_matchq **chunk = mq_dir[ctx >> MQ_CHUNK_BITS];
    return chunk ? chunk[ctx & (MQ_CHUNK - 1)] : NULL;
}

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
        if (*slot)
            (*slot)->ctx = ctx;
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
    if (!q || q->uq_head || q->posted_head)
        return;
    free(q);
    chunk[ctx & (MQ_CHUNK - 1)] = NULL;
}

void tide_matchq_finalize(void)
{
    for (unsigned c = 0; c < MQ_NCHUNKS; c++) {
        if (!mq_dir[c])
            continue;
        for (unsigned i = 0; i < MQ_CHUNK; i++) {
            struct tide_matchq *q = mq_dir[c][i];
            if (!q)
                continue;
            while (q->uq_head) {
                struct tide_unexpected *u = q->uq_head;
                q->uq_head = u->next;
                tide_unexpected_free(u);
            }
            free(q);
        }
        free(mq_dir[c]);
        mq_dir[c] = NULL;
    }
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

static void unlink_posted(struct tide_matchq *q, struct tide_request *r)
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
            unlink_posted(q, r);
            return r;
        }
    return NULL;
}

bool tide_match_unpost(struct tide_matchq *q, struct tide_request *req)
{
    for (struct tide_request *r = q->posted_head; r; r = r->next)
        if (r == req) {
            unlink_posted(q, r);
            return true;
        }
    return false;
}

void tide_match_add_unexpected(struct tide_matchq *q, struct tide_unexpected *u)
{
    u->next = NULL;
    if (q->uq_tail)
        q->uq_tail->next = u;
    else
        q->uq_head = u;
    q->uq_tail = u;
    q->nunexpected++;
}

static void unlink_unexpected(struct tide_matchq *q, struct tide_unexpected *prev, struct tide_unexpected *u)
{
    if (prev)
        prev->next = u->next;
    else
        q->uq_head = u->next;
    if (q->uq_tail == u)
        q->uq_tail = prev;
    u->next = NULL;
    q->nunexpected--;
}

struct tide_unexpected *tide_match_find_unexpected(struct tide_matchq *q, int src, int tag, bool take)
{
    struct tide_unexpected *prev = NULL;
    for (struct tide_unexpected *u = q->uq_head; u; prev = u, u = u->next)
        if (tide_match_ok(src, tag, u->src, u->tag)) {
            if (take)
                unlink_unexpected(q, prev, u);
            return u;
        }
    return NULL;
}

struct tide_unexpected *tide_match_take_by_sender(struct tide_matchq *q, struct tide_proc *from,
                                                  uint64_t sreq)
{
    struct tide_unexpected *prev = NULL;
    for (struct tide_unexpected *u = q->uq_head; u; prev = u, u = u->next)
        if (u->from == from && u->sreq == sreq && sreq != 0) {
            unlink_unexpected(q, prev, u);
            return u;
        }
    return NULL;
}

void tide_match_remove(struct tide_matchq *q, struct tide_unexpected *u)
{
    struct tide_unexpected *prev = NULL;
    for (struct tide_unexpected *x = q->uq_head; x; prev = x, x = x->next)
        if (x == u) {
            unlink_unexpected(q, prev, u);
            return;
        }
}

/* Small unexpected messages come from a free list of fixed-size blocks,
 * so a flood of small messages does not hammer malloc. */
#define UQ_SMALL 4096
static struct tide_unexpected *uq_free;
static size_t uq_nfree;

struct tide_unexpected *tide_unexpected_new(size_t data_len)
{
    struct tide_unexpected *u;
    if (data_len <= UQ_SMALL && uq_free) {
        u = uq_free;
        uq_free = u->next;
        uq_nfree--;
    } else {
        size_t cap = data_len <= UQ_SMALL ? UQ_SMALL : data_len;
        u = malloc(sizeof *u + cap);
        if (!u)
            return NULL;
    }
    memset(u, 0, sizeof *u);
    u->data = u + 1;
    u->data_len = data_len;
    return u;
}

void tide_unexpected_free(struct tide_unexpected *u)
{
    if (u->data_len <= UQ_SMALL && uq_nfree < 1024) {
        u->next = uq_free;
        uq_free = u;
        uq_nfree++;
        return;
    }
    free(u);
}
