/*
 * lock.c: the library lock for MPI_THREAD_MULTIPLE (see lock.h).
 */
#include "runtime/lock.h"

#include <pthread.h>

int tide_thread_multiple;

static pthread_mutex_t big_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread int depth;
static __thread int saved_depth;

void tide_lock_acquire(void)
{
    if (depth++ == 0)
        pthread_mutex_lock(&big_lock);
}

void tide_lock_release(void)
{
    if (depth > 0 && --depth == 0)
        pthread_mutex_unlock(&big_lock);
}

void tide_lock_yield_begin(void)
{
    if (!tide_thread_multiple || depth == 0)
        return;
    saved_depth = depth;
    depth = 0;
    pthread_mutex_unlock(&big_lock);
}

void tide_lock_yield_end(void)
{
    if (!tide_thread_multiple || saved_depth == 0)
        return;
    pthread_mutex_lock(&big_lock);
    depth = saved_depth;
    saved_depth = 0;
}
