/*
 * spinlock.h: the small locks of MPI_THREAD_MULTIPLE's fast path (a
 * peer's ring, a matching queue, the pools; runtime/lock.h). Taking one
 * is an exchange; letting it go is a plain store, so a thread that has
 * just written a message into a ring does not wait there for those
 * writes to reach the reader, as a locked instruction would make it.
 * Held for a few hundred instructions at most; a thread that finds one
 * taken spins briefly, then yields the core (the holder may be waiting
 * for it when threads outnumber cores).
 */
#ifndef TIDE_SPINLOCK_H
#define TIDE_SPINLOCK_H

#include <sched.h>

typedef struct {
    int locked;
} tide_spinlock;

#define TIDE_SPINLOCK_INIT {0}

static inline void tide_spin_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static inline void tide_spin_lock(tide_spinlock *l)
{
    while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE)) {
        for (int n = 0; __atomic_load_n(&l->locked, __ATOMIC_RELAXED); n++) {
            if (n < 64)
                tide_spin_pause();
            else
                sched_yield();
        }
    }
}

static inline void tide_spin_unlock(tide_spinlock *l)
{
    __atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

#endif
