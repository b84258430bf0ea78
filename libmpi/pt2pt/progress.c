/*
 * progress.c: the progress engine (progress.h).
 */
#include "pt2pt/progress.h"
#include "pt2pt/protocol.h"
#include "runtime/lock.h"
#include "runtime/spinlock.h"
#include "runtime/state.h"
#include "transport/transport.h"

#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#define MAX_HOOKS 8
static int (*hooks[MAX_HOOKS])(void);
static int nhooks;
static int spin_limit;
static long block_after_ns;
static int wake_fd = -1; /* eventfd other threads ring to end a sleep */
int tide_progress_sleepers;
static bool sleepers_rung; /* rung since the last one fell asleep */

void tide_progress_wake_sleepers(void)
{
    /* also called by holders of the shared lock, several at once */
    if (!__atomic_exchange_n(&sleepers_rung, true, __ATOMIC_RELAXED))
        tide_progress_wake();
}

void tide_progress_register(int (*fn)(void))
{
    for (int i = 0; i < nhooks; i++)
        if (hooks[i] == fn)
            return;
    if (nhooks < MAX_HOOKS)
        hooks[nhooks++] = fn;
}

void tide_progress_init(void)
{
    spin_limit = tide.tuning.spin_count > 0 ? tide.tuning.spin_count : 2000;
    block_after_ns = (tide.tuning.block_after_us > 0 ? tide.tuning.block_after_us : 2000) * 1000L;
    if (tide.oversubscribed) {
        spin_limit = tide.tuning.spin_count_oversub > 0 ? tide.tuning.spin_count_oversub : 1;
        block_after_ns /= 10;
    }
    if (wake_fd < 0)
        wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

void tide_progress_finalize(void)
{
    if (wake_fd >= 0)
        close(wake_fd);
    wake_fd = -1;
}

void tide_progress_wake(void)
{
    uint64_t one = 1;
    if (wake_fd >= 0 && write(wake_fd, &one, sizeof one) < 0) {
        /* the counter is full: a wake-up is pending anyway */
    }
}

_Thread_local int tide_progress_depth;

int tide_progress(void)
{
    tide_progress_depth++;
    int n = tide_transports_progress();
    n += tide_protocol_progress();
    for (int i = 0; i < nhooks; i++)
        n += hooks[i]();
    tide_progress_depth--;
    return n;
}

/* A pass of a waiting loop with nothing new: the transports' quick
 * progress (the shared-memory rings, open TCP connections) and sends
 * queued behind a full ring; the hooks (schedules, port refusals) and the
 * rest run on the full passes, which follow any work. */
static int progress_quick(void)
{
    /* tide_protocol_progress returns at once when nothing is queued */
    return tide_transports_progress_quick() + tide_protocol_progress();
}

static long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/* Sleep until a transport has something (or a short timeout). done is
 * asked again once the transports have armed their wake-ups: a waiter on
 * memory another process writes (a shared-memory collective) is woken by
 * the writer only if its flag was up before the write. */
static void block_once(bool (*done)(void *), void *arg)
{
    struct pollfd fds[64];
    int n = 0;
    int k;
    if (wake_fd >= 0) {
        fds[n].fd = wake_fd;
        fds[n].events = POLLIN;
        fds[n++].revents = 0;
    }
    for (k = 0; k < tide_ntransports; k++) {
        struct tide_transport *t = tide_transport_list[k];
        if (!t->block_prepare)
            continue;
        int added = t->block_prepare(fds + n, 64 - n);
        if (added < 0)
            break; /* work arrived while arming: do not sleep */
        n += added;
    }
    if (k == tide_ntransports && !tide_protocol_has_pending() && !done(arg)) {
        bool counted = tide_thread_multiple;
        if (counted) {
            tide_progress_sleepers++;
            __atomic_store_n(&sleepers_rung, false, __ATOMIC_RELAXED);
        }
        tide_lock_yield_begin();
        poll(fds, (nfds_t)n, 50);
        tide_lock_yield_end();
        if (counted)
            tide_progress_sleepers--;
        /* the last sleeper to wake drains the ring (others woke by it too) */
        if (wake_fd >= 0 && fds[0].revents && tide_progress_sleepers == 0) {
            uint64_t v;
            if (read(wake_fd, &v, sizeof v) < 0) {
                /* another thread drained it */
            }
        }
    }
    for (int j = 0; j < k && j < tide_ntransports; j++)
        if (tide_transport_list[j]->block_finish)
            tide_transport_list[j]->block_finish();
}

/* A yield that kept this rank off its core for CONTENDED_YIELD_NS or
 * more means other processes want the core (a loaded machine: a yield to
 * a rank of this job that has work is much shorter). Under the kernel's
 * fair scheduler a yield then puts the rank behind every one of them for
 * a whole round, again at each yield, so a rank that waits by yielding
 * gets almost no time to run (MPICH's pt2pt/sendflood at a load of 30
 * crawled that way); a rank asleep in poll is run soon after its wake-up.
 * So for CONTENDED_NS after a slow yield, waits go from spinning straight
 * to sleeping. */
#define CONTENDED_NS (100 * 1000 * 1000L)
#define CONTENDED_YIELD_NS (5 * 1000 * 1000L)
static long contended_until;

void tide_progress_until(bool (*done)(void *), void *arg)
{
    int idle = 0;
    long idle_since = 0;
    tide_progress_depth++;
    while (!done(arg)) {
        /* the full progress after work, every 16th idle pass and once
         * spinning has given way to yielding; the quick one between */
        int n = (idle & 15) == 0 || idle >= spin_limit ? tide_progress() : progress_quick();
        if (n > 0) {
            idle = 0;
            continue;
        }
        if (idle == 0)
            tide_transports_idle();
        if (tide_thread_multiple) {
            tide_lock_yield_begin();
            tide_lock_yield_end();
        }
        if (++idle < spin_limit) {
            tide_spin_pause();
            continue;
        }
        long now = now_ns();
        if (idle == spin_limit)
            idle_since = now;
        if ((idle > spin_limit + 1 && idle_since == 0) || now < __atomic_load_n(&contended_until, __ATOMIC_RELAXED)) {
            /* slept already and still nothing, or the core is wanted by
             * others: sleep (again) at once */
            block_once(done, arg);
            idle_since = 0;
            continue;
        }
        sched_yield();
        long after = now_ns();
        if (after - now > CONTENDED_YIELD_NS)
            __atomic_store_n(&contended_until, after + CONTENDED_NS, __ATOMIC_RELAXED); /* any thread's */
        if ((idle & 15) == 0 && after - idle_since > block_after_ns) {
            block_once(done, arg);
            idle_since = 0;
        }
    }
    tide_progress_depth--;
}

static bool flag_set(void *arg)
{
    /* set by other threads too (the PMIx client's callbacks) */
    return __atomic_load_n((volatile bool *)arg, __ATOMIC_ACQUIRE);
}

void tide_progress_wait_flag(volatile bool *flag)
{
    tide_progress_until(flag_set, (void *)flag);
}
