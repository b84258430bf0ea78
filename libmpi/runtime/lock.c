/*
 * lock.c: the library lock for MPI_THREAD_MULTIPLE (see lock.h).
 */
#include "runtime/lock.h"
#include "runtime/spinlock.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

int tide_thread_multiple;
int tide_lock_writers_waiting;

/* The lock: a flag per reading thread, each on its own cache line, and
 * one writer flag. A reader raises its flag, then looks at the writer's
 * (both sequentially consistent: one of the two sees the other); a
 * writer, one at a time (writer_mutex, held while it writes), raises its
 * flag, then waits for every reader's to fall. A reader's release is a
 * plain store, and no two readers write the same line. */
struct reader {
    _Alignas(64) int active;
    struct reader *next;
};
static pthread_mutex_t writer_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t readers_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct reader *readers; /* every thread that ever read; kept for the process's life */
static int writer;
static __thread struct reader *me;
static __thread int depth;       /* nesting of the exclusive hold */
static __thread int saved_depth; /* across a yield */
static __thread bool shared;     /* held shared */

static struct reader *reader_self(void)
{
    if (__builtin_expect(me != NULL, 1))
        return me;
    struct reader *r = aligned_alloc(64, sizeof *r);
    if (!r)
        return NULL;
    r->active = 0;
    pthread_mutex_lock(&readers_mutex);
    r->next = readers;
    __atomic_store_n(&readers, r, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&readers_mutex);
    me = r;
    return r;
}

static void wait_a_little(int n)
{
    if (n < 64)
        tide_spin_pause();
    else
        sched_yield();
}

static bool read_lock(void)
{
    struct reader *r = reader_self();
    if (!r)
        return false;
    for (;;) {
        __atomic_store_n(&r->active, 1, __ATOMIC_SEQ_CST);
        if (!__atomic_load_n(&writer, __ATOMIC_SEQ_CST))
            return true;
        __atomic_store_n(&r->active, 0, __ATOMIC_RELEASE);
        /* sleep until the writer is done (it holds writer_mutex throughout) */
        pthread_mutex_lock(&writer_mutex);
        pthread_mutex_unlock(&writer_mutex);
    }
}

static void read_unlock(void)
{
    __atomic_store_n(&me->active, 0, __ATOMIC_RELEASE);
}

static void write_unlock(void)
{
    __atomic_store_n(&writer, 0, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&writer_mutex);
}

struct deferred {
    struct deferred *next;
    void (*fn)(void *);
    void *arg;
};
static pthread_mutex_t deferred_lock = PTHREAD_MUTEX_INITIALIZER;
static struct deferred *deferred_head;
static int deferred_any;

static void write_lock(void)
{
    __atomic_fetch_add(&tide_lock_writers_waiting, 1, __ATOMIC_RELAXED);
    pthread_mutex_lock(&writer_mutex);
    __atomic_store_n(&writer, 1, __ATOMIC_SEQ_CST);
    for (struct reader *r = __atomic_load_n(&readers, __ATOMIC_ACQUIRE); r; r = r->next)
        for (int n = 0; __atomic_load_n(&r->active, __ATOMIC_ACQUIRE); n++)
            wait_a_little(n);
    __atomic_fetch_sub(&tide_lock_writers_waiting, 1, __ATOMIC_RELAXED);
}

static void run_deferred(void)
{
    pthread_mutex_lock(&deferred_lock);
    struct deferred *d = deferred_head;
    deferred_head = NULL;
    __atomic_store_n(&deferred_any, 0, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&deferred_lock);
    while (d) {
        struct deferred *next = d->next;
        d->fn(d->arg);
        free(d);
        d = next;
    }
}

void tide_lock_defer(void (*fn)(void *), void *arg)
{
    struct deferred *d = malloc(sizeof *d);
    if (!d)
        return; /* the object stays allocated: a leak, never a use after free */
    d->fn = fn;
    d->arg = arg;
    pthread_mutex_lock(&deferred_lock);
    d->next = deferred_head;
    deferred_head = d;
    __atomic_store_n(&deferred_any, 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&deferred_lock);
}

void tide_lock_acquire(void)
{
    if (depth++ == 0) {
        if (__builtin_expect(shared, 0)) {
            /* an upgrade would deadlock with another reader doing the same */
            fprintf(stderr, "tide: internal error: exclusive library lock asked while held shared\n");
            abort();
        }
        write_lock();
        if (__builtin_expect(__atomic_load_n(&deferred_any, __ATOMIC_RELAXED), 0))
            run_deferred();
    }
}

void tide_lock_release(void)
{
    if (depth > 0 && --depth == 0)
        write_unlock();
}

void tide_lock_yield_begin(void)
{
    if (!tide_thread_multiple || depth == 0)
        return;
    saved_depth = depth;
    depth = 0;
    write_unlock();
}

void tide_lock_yield_end(void)
{
    if (!tide_thread_multiple || saved_depth == 0)
        return;
    write_lock();
    depth = saved_depth;
    saved_depth = 0;
    if (__builtin_expect(__atomic_load_n(&deferred_any, __ATOMIC_RELAXED), 0))
        run_deferred();
}

bool tide_lock_shared_begin(void)
{
    if (depth || shared || !read_lock())
        return false;
    shared = true;
    return true;
}

void tide_lock_shared_end(void)
{
    shared = false;
    read_unlock();
}

void tide_lock_shared_step_aside(void)
{
    read_unlock();
    read_lock(); /* behind the writer */
}

bool tide_lock_held_shared(void)
{
    return shared;
}
