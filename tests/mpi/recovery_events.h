/*
 * recovery_events.h: what the recovery-mode tests (recovery_*.c) share:
 * a PMIx handler for PMIX_ERR_PROC_TERM_WO_SYNC that records each event
 * (the failed proc, its exit code), and a wait for a set of failed ranks
 * under a deadline (on a condition variable the handler signals: no
 * sleeping). The programs use libpmix directly, so suite_recovery.sh
 * builds them with pmix's flags; the plain build of every tests/mpi program, which
 * has no pmix.h, makes a stub that says so (RECOVERY_HAVE_PMIX unset).
 */
#ifndef RECOVERY_EVENTS_H
#define RECOVERY_EVENTS_H

#if defined(__has_include)
#if __has_include(<pmix.h>)
#define RECOVERY_HAVE_PMIX 1
#endif
#endif

#ifdef RECOVERY_HAVE_PMIX
#include <pmix.h>

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define RECOVERY_MAX_EVENTS 256

struct recovery_event {
    char nspace[PMIX_MAX_NSLEN + 1];
    pmix_rank_t rank;
    int exit_code;
    bool have_exit_code;
    bool source_matches; /* the event's source is the affected proc */
};

static struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    struct recovery_event ev[RECOVERY_MAX_EVENTS];
    int n;
    int malformed;
} recovery_seen = {.lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER};

static void recovery_handler(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[],
                             size_t ninfo, pmix_info_t results[], size_t nresults,
                             pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void)id;
    (void)results;
    (void)nresults;
    const pmix_proc_t *affected = NULL;
    int code = 0;
    bool have_code = false;
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_AFFECTED_PROC) && info[i].value.type == PMIX_PROC) {
            affected = info[i].value.data.proc;
        } else if (PMIX_CHECK_KEY(&info[i], PMIX_EXIT_CODE) && info[i].value.type == PMIX_INT) {
            code = info[i].value.data.integer;
            have_code = true;
        }
    }
    pthread_mutex_lock(&recovery_seen.lock);
    if (status != PMIX_ERR_PROC_TERM_WO_SYNC || !affected) {
        recovery_seen.malformed++;
    } else if (recovery_seen.n < RECOVERY_MAX_EVENTS) {
        struct recovery_event *e = &recovery_seen.ev[recovery_seen.n++];
        snprintf(e->nspace, sizeof e->nspace, "%s", affected->nspace);
        e->rank = affected->rank;
        e->exit_code = code;
        e->have_exit_code = have_code;
        e->source_matches = source && PMIX_CHECK_PROCID(source, affected);
    }
    pthread_cond_broadcast(&recovery_seen.cond);
    pthread_mutex_unlock(&recovery_seen.lock);
    if (cbfunc)
        cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

/* PMIx_Init (after MPI_Init: the same connection) and the handler.
 * 0, or -1 with a message on stderr. */
static int recovery_register(pmix_proc_t *me, const char *prog)
{
    if (PMIx_Init(me, NULL, 0) != PMIX_SUCCESS) {
        fprintf(stderr, "%s: PMIx_Init failed\n", prog);
        return -1;
    }
    pmix_status_t code = PMIX_ERR_PROC_TERM_WO_SYNC;
    pmix_status_t rc = PMIx_Register_event_handler(&code, 1, NULL, 0, recovery_handler, NULL, NULL);
    if (rc < 0) {
        fprintf(stderr, "%s: cannot register the handler: %s\n", prog, PMIx_Error_string(rc));
        return -1;
    }
    return 0;
}

/* How many recorded events name (nspace, rank); nspace NULL: any but
 * not_nspace (a proc of another job). */
static int recovery_count_locked(const char *nspace, const char *not_nspace, pmix_rank_t rank)
{
    int k = 0;
    for (int i = 0; i < recovery_seen.n; i++) {
        const struct recovery_event *e = &recovery_seen.ev[i];
        if (e->rank != rank)
            continue;
        if (nspace ? strcmp(e->nspace, nspace) == 0 : strcmp(e->nspace, not_nspace) != 0)
            k++;
    }
    return k;
}

/* Wait until an event named each of ranks[0..n-1] of nspace (or, with
 * nspace NULL, of a job other than not_nspace), at most seconds. 0 when
 * they all came, -1 on the deadline. */
static int recovery_wait(const char *nspace, const char *not_nspace, const int *ranks, int n, int seconds)
{
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += seconds;
    pthread_mutex_lock(&recovery_seen.lock);
    int rc = 0;
    for (;;) {
        int have = 0;
        for (int i = 0; i < n; i++)
            have += recovery_count_locked(nspace, not_nspace, (pmix_rank_t)ranks[i]) > 0;
        if (have == n)
            break;
        if (pthread_cond_timedwait(&recovery_seen.cond, &recovery_seen.lock, &deadline) == ETIMEDOUT) {
            rc = -1;
            break;
        }
    }
    pthread_mutex_unlock(&recovery_seen.lock);
    return rc;
}

/* Checks the events recorded: exactly one per rank of ranks[] (of nspace,
 * or of a job other than not_nspace), each with exit code want_code, each
 * from the failed proc itself, and no other. 0, or -1 with the reason on
 * stderr. */
static int recovery_check(const char *who, const char *nspace, const char *not_nspace, const int *ranks, int n,
                          int want_code)
{
    int bad = 0;
    pthread_mutex_lock(&recovery_seen.lock);
    for (int i = 0; i < n; i++) {
        int k = recovery_count_locked(nspace, not_nspace, (pmix_rank_t)ranks[i]);
        if (k != 1) {
            fprintf(stderr, "%s: %d events for rank %d (expected 1)\n", who, k, ranks[i]);
            bad = 1;
        }
    }
    if (recovery_seen.n != n || recovery_seen.malformed) {
        fprintf(stderr, "%s: %d events in all (%d malformed), expected %d\n", who, recovery_seen.n,
                recovery_seen.malformed, n);
        bad = 1;
    }
    for (int i = 0; i < recovery_seen.n; i++) {
        const struct recovery_event *e = &recovery_seen.ev[i];
        if (!e->have_exit_code || e->exit_code != want_code || !e->source_matches) {
            fprintf(stderr, "%s: event for %s:%u: exit code %d%s, source %s\n", who, e->nspace, e->rank,
                    e->exit_code, e->have_exit_code ? "" : " (absent)", e->source_matches ? "ok" : "not the failed proc");
            bad = 1;
        }
    }
    pthread_mutex_unlock(&recovery_seen.lock);
    return bad ? -1 : 0;
}

#endif /* RECOVERY_HAVE_PMIX */
#endif
