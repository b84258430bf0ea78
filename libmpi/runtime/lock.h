/*
 * lock.h: the library lock used under MPI_THREAD_MULTIPLE.
 *
 * A reader-writer lock. Most of the library runs with it held
 * exclusively (TIDE_API_ENTER); a thread-local depth makes nested entry
 * (an MPI function calling another) free. The message fast path
 * (pt2pt/fastpath.c: eager sends and receives over shared memory and
 * between endpoints of one process, waiting for and completing their
 * requests) holds it shared, so threads run it at the same time, each
 * serialised only by the fine-grained lock of what it touches: a peer's
 * ring (its producer lock), an inbound ring (its consumer lock), a
 * context's matching queues, the request and message pools. Exclusive
 * holders exclude all of those, so code that only ever runs exclusively
 * needs no other lock. A waiting writer stops new readers, and readers
 * that spin look at tide_lock_writers_waiting and step aside.
 *
 * tide_lock_yield_* release the exclusive lock for a moment so other
 * threads can progress while this one waits. Below MPI_THREAD_MULTIPLE
 * all of this is a predictable branch.
 */
#ifndef TIDE_LOCK_H
#define TIDE_LOCK_H

#include <stdbool.h>

extern int tide_thread_multiple;
/* Threads waiting for the exclusive lock (readers that spin step aside). */
extern int tide_lock_writers_waiting;

void tide_lock_acquire(void);
void tide_lock_release(void);
/* Drop the lock (if held) around a blocking wait, then take it back. */
void tide_lock_yield_begin(void);
void tide_lock_yield_end(void);

/* Take the lock shared: false (nothing taken) when this thread already
 * holds it, the fast path's caller then goes the ordinary way. */
bool tide_lock_shared_begin(void);
void tide_lock_shared_end(void);
/* A reader that spins lets a waiting writer in, then reads on. */
void tide_lock_shared_step_aside(void);
/* Does this thread hold the lock shared? */
bool tide_lock_held_shared(void);

/* Work a shared holder cannot do (freeing a communicator or datatype
 * whose last reference it dropped): done by the next exclusive holder. */
void tide_lock_defer(void (*fn)(void *), void *arg);

static inline int tide_api_enter(void)
{
    if (__builtin_expect(tide_thread_multiple, 0))
        tide_lock_acquire();
    return 0;
}

static inline void tide_api_leave(int *guard)
{
    (void)guard;
    if (__builtin_expect(tide_thread_multiple, 0))
        tide_lock_release();
}

#define TIDE_API_ENTER() \
    int tide_api_guard_ __attribute__((cleanup(tide_api_leave), unused)) = tide_api_enter()

#endif
