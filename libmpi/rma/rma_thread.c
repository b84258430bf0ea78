/*
 * rma_thread.c: the optional progress thread (runtime parameter
 * rma_progress_thread=1). Passive-target operations are applied by the
 * target's progress engine, which runs only while the target is inside
 * an MPI call; with this thread the engine also runs while the target
 * computes, so a lock, put, get or accumulate completes without the
 * target's help. The thread sleeps in the engine's poll on the
 * transports between messages. Once it runs, every MPI call takes the
 * library lock (as under MPI_THREAD_MULTIPLE), so it and the
 * application's threads never run the library at the same time.
 */
#include "rma/win.h"

#include "params.h"
#include "pt2pt/lean.h"
#include "pt2pt/progress.h"
#include "runtime/lock.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

static pthread_t thread;
static bool running;
static atomic_bool stopping;
static volatile bool stop_flag;

static bool stop_requested(void *arg)
{
    (void)arg;
    return stop_flag;
}

static void *thread_main(void *arg)
{
    (void)arg;
    tide_lock_acquire();
    tide_progress_until(stop_requested, NULL);
    tide_lock_release();
    return NULL;
}

void tide_rma_thread_start(void)
{
    if (running || tide_config_int("rma_progress_thread") == 0)
        return;
    /* called inside an MPI call that did not take the lock (the flag was
     * off): take it now, so that the call's return releases it */
    if (!tide_thread_multiple) {
        tide_thread_multiple = 1;
        tide_lean_update(true);
        tide_lock_acquire();
    }
    stop_flag = false;
    if (pthread_create(&thread, NULL, thread_main, NULL) == 0)
        running = true;
}

void tide_rma_thread_stop(void)
{
    if (!running || atomic_exchange(&stopping, true))
        return;
    stop_flag = true;
    tide_progress_wake();
    tide_lock_yield_begin();
    pthread_join(thread, NULL);
    tide_lock_yield_end();
    running = false;
    atomic_store(&stopping, false);
}
