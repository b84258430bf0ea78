/*
 * request.c: allocation, lookup, completion and freeing of requests.
 * Freed requests go to a pool, keeping their handles, and are reused, so
 * the steady state of a message loop allocates nothing.
 */
#include "runtime/api.h"
#include "pt2pt/request.h"
#include "pt2pt/progress.h"
#include "comm/comm.h"
#include "runtime/spinlock.h"

#include <stdlib.h>
#include <string.h>

static struct tide_request *pool;
/* taken by holders of the shared library lock (runtime/lock.h) only */
static tide_spinlock pool_lock = TIDE_SPINLOCK_INIT;
static uint32_t seq;

/* Under the shared lock a thread keeps a few free requests of its own,
 * taken from and given back to the pool by the batch. The caches are
 * listed so that finalize frees what they hold. */
#define CACHE_MAX 64
#define CACHE_BATCH 16
struct req_cache {
    struct tide_request *head;
    int n;
    struct req_cache *next;
};
static __thread struct req_cache *cache;
static struct req_cache *caches;
int tide_rdv_sends_in_flight;

static void uncount_rdv(struct tide_request *r)
{
    if (r->rdv_counted) {
        r->rdv_counted = false;
        tide_rdv_sends_in_flight--;
    }
}

void tide_status_empty(MPI_Status *s)
{
    s->MPI_SOURCE = MPI_ANY_SOURCE;
    s->MPI_TAG = MPI_ANY_TAG;
    s->MPI_ERROR = MPI_SUCCESS;
    s->tide_cancelled = 0;
    s->tide_nbytes = 0;
}

static inline __attribute__((always_inline)) void request_init(struct tide_request *r, int kind, uint32_t n);

struct tide_request *tide_request_new(int kind)
{
    struct tide_request *r = pool;
    if (r) {
        pool = r->pool_next; /* it kept its handle */
    } else {
        if (!(r = malloc(sizeof *r)))
            return NULL;
        r->handle = tide_handle_alloc(TIDE_KIND_REQUEST, r);
        if (r->handle == MPI_REQUEST_NULL) {
            free(r);
            return NULL;
        }
    }
    request_init(r, kind, ++seq);
    return r;
}

static struct req_cache *cache_self(void)
{
    if (__builtin_expect(cache != NULL, 1))
        return cache;
    struct req_cache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    tide_spin_lock(&pool_lock);
    c->next = caches;
    caches = c;
    tide_spin_unlock(&pool_lock);
    cache = c;
    return c;
}

struct tide_request *tide_request_new_shared(int kind)
{
    struct req_cache *c = cache_self();
    if (!c)
        return NULL;
    if (!c->head) {
        tide_spin_lock(&pool_lock);
        while (pool && c->n < CACHE_BATCH) {
            struct tide_request *r = pool;
            pool = r->pool_next;
            r->pool_next = c->head;
            c->head = r;
            c->n++;
        }
        tide_spin_unlock(&pool_lock);
        if (!c->head)
            return NULL;
    }
    struct tide_request *r = c->head;
    c->head = r->pool_next;
    c->n--;
    request_init(r, kind, __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED));
    return r;
}

static inline __attribute__((always_inline)) void request_init(struct tide_request *r, int kind, uint32_t n)
{
    /* zero from the field after handle up to conv, 16 bytes a store (a
     * memset of this size becomes a string instruction, slower to start
     * on the message path), then the nonzero initial values */
    typedef uint64_t zero16 __attribute__((vector_size(16), aligned(8)));
    enum { FIRST = offsetof(struct tide_request, kind), END = offsetof(struct tide_request, conv) };
    _Static_assert(FIRST == sizeof(int) && (END - FIRST) % 8 == 4, "the cleared part's layout");
    uint8_t *p = (uint8_t *)r;
    memset(p + FIRST, 0, 4);
#pragma GCC unroll 32
    for (size_t off = FIRST + 4; off + 16 <= END; off += 16)
        memcpy(p + off, &(zero16){0, 0}, 16);
    if ((END - FIRST - 4) % 16)
        memset(p + END - 8, 0, 8);
    r->kind = (uint8_t)kind;
    r->state = TIDE_RS_POSTED;
    r->status.MPI_SOURCE = MPI_ANY_SOURCE; /* the empty status */
    r->status.MPI_TAG = MPI_ANY_TAG;
    r->id = ((uint64_t)n << 32) | (uint32_t)r->handle;
}

struct tide_request *tide_request_by_id(uint64_t id)
{
    struct tide_request *r = tide_handle_get(TIDE_KIND_REQUEST, (int)(uint32_t)id);
    return (r && r->id == id) ? r : NULL;
}

void tide_request_unlink_bsend(struct tide_request *r)
{
    struct tide_request *s = r->bsend_link;
    if (!s)
        return;
    r->bsend_link = NULL;
    s->bsend_link = NULL;
    if (r->mode == TIDE_MODE_BUFFERED) /* the user's side holds the send */
        tide_request_free(s);
}

static void request_destroy(struct tide_request *r)
{
    if (r->on_destroy) {
        r->on_destroy(r);
        r->on_destroy = NULL;
    }
    tide_request_unlink_bsend(r);
    uncount_rdv(r);
    if (r->riov) {
        free(r->riov);
        r->riov = NULL;
    }
    tide_request_free_plain(r);
}

void tide_request_free_plain(struct tide_request *r)
{
    if (r->dt) {
        tide_datatype_release(r->dt);
        r->dt = NULL;
    }
    if (r->comm) {
        tide_comm_release(r->comm);
        r->comm = NULL;
    }
    /* pooled with its handle, which names nothing until the request is
     * given out again */
    r->pooled = true;
    r->id = 0;
    r->pool_next = pool;
    pool = r;
}

void tide_request_free_shared(struct tide_request *r)
{
    if (r->dt) {
        tide_datatype_release_shared(r->dt);
        r->dt = NULL;
    }
    if (r->comm) {
        tide_comm_release_shared(r->comm);
        r->comm = NULL;
    }
    r->pooled = true;
    r->id = 0;
    struct req_cache *c = cache_self();
    if (c && c->n < CACHE_MAX) {
        r->pool_next = c->head;
        c->head = r;
        c->n++;
        return;
    }
    tide_spin_lock(&pool_lock);
    r->pool_next = pool;
    pool = r;
    /* and a batch with it, so the next ones go to the cache again */
    for (int k = 0; c && k < CACHE_BATCH && c->head; k++) {
        struct tide_request *x = c->head;
        c->head = x->pool_next;
        c->n--;
        x->pool_next = pool;
        pool = x;
    }
    tide_spin_unlock(&pool_lock);
}

void tide_request_complete_shared(struct tide_request *r)
{
    r->state = TIDE_RS_DONE;
    __atomic_store_n(&r->complete, true, __ATOMIC_RELEASE);
    if (__builtin_expect(__atomic_load_n(&tide_progress_sleepers, __ATOMIC_RELAXED), 0))
        tide_progress_wake_sleepers();
}

void tide_request_complete(struct tide_request *r)
{
    r->state = TIDE_RS_DONE;
    uncount_rdv(r);
    if (r->cancel_pending)
        return; /* completes when the cancel's answer comes */
    r->complete = true;
    /* another thread may sleep in the progress engine waiting for it */
    if (__builtin_expect(tide_progress_sleepers, 0))
        tide_progress_wake_sleepers();
    if (r->on_complete)
        r->on_complete(r);
    if (r->user_freed)
        request_destroy(r);
}

void tide_request_free(struct tide_request *r)
{
    if (!r->complete) {
        r->user_freed = true;
        return;
    }
    request_destroy(r);
}

void tide_requests_finalize(void)
{
    /* the threads are done with MPI: what their caches hold goes too */
    for (struct req_cache *c = caches; c; c = c->next) {
        while (c->head) {
            struct tide_request *r = c->head;
            c->head = r->pool_next;
            r->pool_next = pool;
            pool = r;
        }
        c->n = 0;
    }
    while (pool) {
        struct tide_request *r = pool;
        pool = r->pool_next;
        tide_handle_release(r->handle);
        free(r);
    }
}
