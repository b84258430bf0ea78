/*
 * lock.h: the library lock used under MPI_THREAD_MULTIPLE.
 *
 * One lock serialises the library; a thread-local depth makes nested entry
 * (an MPI function calling another) free. tide_lock_yield releases it for
 * a moment so other threads can progress while this one waits. Below
 * MPI_THREAD_MULTIPLE all of this is a predictable branch.
 */
#ifndef TIDE_LOCK_H
#define TIDE_LOCK_H

extern int tide_thread_multiple;

void tide_lock_acquire(void);
void tide_lock_release(void);
/* Drop the lock (if held) around a blocking wait, then take it back. */
void tide_lock_yield_begin(void);
void tide_lock_yield_end(void);

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
