/*
 * failure.c: learning that processes failed and what that does to the
 * operations in flight (ft/ft.h). Reports may come from any thread (the
 * PMIx event handler runs on PMIx's own): they are queued and handled by
 * a progress hook, on the thread that runs the engine.
 */
#include "runtime/api.h"
#include "client.h"
#include "coll/coll_notice.h"
#include "comm/comm.h"
#include "comm/comm_fault.h"
#include "comm/group.h"
#include "ft/ft.h"
#include "mpi-ext.h"
#include "pt2pt/match.h"
#include "pt2pt/progress.h"
#include "pt2pt/protocol.h"
#include "pt2pt/request.h"
#include "pt2pt/sender_check.h"
#include "runtime/proc.h"
#include "rma/win.h"
#include "transport/transport.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- reports, from any thread ---- */

struct report {
    struct report *next;
    uint32_t rank;
    bool from_watch; /* a pidfd saw it end (watch.c) */
    char nspace[];
};

static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;
static struct report *reports;
static atomic_int reports_queued;

static void report(const char *nspace, uint32_t rank, bool from_watch)
{
    size_t n = strlen(nspace) + 1;
    struct report *r = malloc(sizeof *r + n);
    if (!r)
        return;
    r->rank = rank;
    r->from_watch = from_watch;
    memcpy(r->nspace, nspace, n);
    pthread_mutex_lock(&report_lock);
    r->next = reports;
    reports = r;
    pthread_mutex_unlock(&report_lock);
    atomic_store(&reports_queued, 1);
    tide_progress_wake();
}

void tide_ft_report(const char *nspace, uint32_t rank)
{
    report(nspace, rank, false);
}

void tide_ft_report_ended(const char *nspace, uint32_t rank)
{
    report(nspace, rank, true);
}

static void pmix_failure(const char *nspace, uint32_t rank, int exit_code)
{
    (void)exit_code;
    tide_ft_report(nspace, rank);
}

static bool held(const struct tide_proc *p)
{
    unsigned end = tide_handle_end(TIDE_KIND_COMM);
    for (unsigned i = 0; i < end; i++) {
        struct tide_comm *c = tide_handle_slot(TIDE_KIND_COMM, i);
        if (c && tide_ft_comm_holds(c, p))
            return true;
    }
    return false;
}

static int take_reports(void)
{
    if (!atomic_load_explicit(&reports_queued, memory_order_relaxed))
        return 0;
    pthread_mutex_lock(&report_lock);
    struct report *list = reports;
    reports = NULL;
    atomic_store(&reports_queued, 0);
    pthread_mutex_unlock(&report_lock);
    /* oldest first */
    struct report *fifo = NULL;
    while (list) {
        struct report *next = list->next;
        list->next = fifo;
        fifo = list;
        list = next;
    }
    /* what the reported processes sent before they ended is read first:
     * a notice that one of them left cleanly may be among it */
    for (int k = 0; k < 64 && tide_transports_progress() > 0; k++) {
    }
    int n = 0;
    while (fifo) {
        struct report *r = fifo;
        fifo = r->next;
        /* (a process not met yet is recorded too: a spawn may be
         * waiting for it to connect) */
        struct tide_proc *p = tide_proc_get(r->nspace, r->rank);
        bool foreign = p && tide_sender_is_foreign(p);
        /* a process of another universe: one none of our communicators
         * holds any more (it disconnected) concerns nobody here; one we
         * reach by TCP is taken as dead when that connection ends (watch.c
         * may see its end first, before we read what it sent last) */
        bool skip = foreign && (!held(p) || (r->from_watch && tide_tcp_peer_open(p)));
        if (p && p != tide.me && !skip) {
            tide_ft_proc_failed(p);
            n++;
        }
        free(r);
    }
    return n;
}

/* ---- the failed processes ---- */

static struct tide_proc **failed;
static int nfailed, capfailed;

int tide_ft_nfailed(void)
{
    return nfailed;
}

struct tide_proc *tide_ft_failed_at(int i)
{
    return i >= 0 && i < nfailed ? failed[i] : NULL;
}

static bool group_holds(const struct tide_group *g, const struct tide_proc *p)
{
    for (int i = 0; g && i < g->size; i++)
        if (g->procs[i] == p)
            return true;
    return false;
}

bool tide_ft_nspace_failed(const char *nspace)
{
    for (int i = 0; i < nfailed; i++)
        if (strcmp(failed[i]->nspace, nspace) == 0)
            return true;
    return false;
}

bool tide_ft_comm_holds(const struct tide_comm *c, const struct tide_proc *p)
{
    return group_holds(c->group, p) || group_holds(c->remote_group, p);
}

int tide_ft_comm_failed(struct tide_comm *c, struct tide_proc ***out)
{
    *out = NULL;
    int n = 0;
    for (int i = 0; i < nfailed; i++)
        if (tide_ft_comm_holds(c, failed[i]))
            n++;
    if (!n)
        return 0;
    struct tide_proc **v = malloc((size_t)n * sizeof *v);
    if (!v)
        return 0;
    n = 0;
    for (int i = 0; i < nfailed; i++)
        if (tide_ft_comm_holds(c, failed[i]))
            v[n++] = failed[i];
    *out = v;
    return n;
}

struct tide_ft_comm *tide_ft_comm_of(struct tide_comm *c)
{
    if (!c->ft)
        c->ft = calloc(1, sizeof *c->ft);
    return c->ft;
}

bool tide_ft_unacked(struct tide_comm *c)
{
    int n = 0;
    for (int i = 0; i < nfailed; i++)
        if (tide_ft_comm_holds(c, failed[i]))
            n++;
    return n > (c->ft ? c->ft->nacked : 0);
}

int tide_ft_failed_error(const char *fn, struct tide_comm *c, const struct tide_proc *p)
{
    int rank = c ? tide_group_rank_of(c->group, p) : MPI_UNDEFINED;
    const char *where = "communicator";
    if (c && c->is_inter && c->remote_group) {
        int r = tide_group_rank_of(c->remote_group, p);
        if (r != MPI_UNDEFINED) {
            rank = r;
            where = "remote group";
        }
    }
    return tide_err(MPIX_ERR_PROC_FAILED, "%s: rank %d of the %s (process %.64s:%u) has failed", fn, rank, where,
                    p->nspace, p->rank);
}

/* Where p sits in c, as a revocation notice names it. */
static int rank_in(struct tide_comm *c, const struct tide_proc *p, bool *remote)
{
    *remote = false;
    int r = tide_group_rank_of(c->group, p);
    if (r == MPI_UNDEFINED && c->remote_group) {
        r = tide_group_rank_of(c->remote_group, p);
        *remote = true;
    }
    return r;
}

/* The operations in flight that p's failure ends or interrupts. */
static void end_requests(struct tide_proc *p)
{
    unsigned end = tide_handle_end(TIDE_KIND_REQUEST);
    for (unsigned i = 0; i < end; i++) {
        struct tide_request *r = tide_handle_slot(TIDE_KIND_REQUEST, i);
        if (!r || r->pooled || r->complete)
            continue;
        if (r->kind == TIDE_REQ_SEND) {
            if (r->proc != p || r->state == TIDE_RS_INACTIVE || r->state == TIDE_RS_DONE)
                continue;
            r->cancel_pending = false;
            r->error = tide_ft_failed_error("send", r->comm, p);
            r->status.MPI_ERROR = r->error;
            tide_request_complete(r);
        } else if (r->kind == TIDE_REQ_RECV) {
            struct tide_comm *c = r->comm;
            if (r->state == TIDE_RS_RECEIVING) {
                if (r->proc == p)
                    tide_request_abort(r, tide_ft_failed_error("receive", c, p));
            } else if (r->state == TIDE_RS_POSTED && c && !tide_ctx_is_coll(r->ctx)) {
                if (r->peer == MPI_ANY_SOURCE) {
                    if (tide_ft_comm_holds(c, p))
                        r->ft_interrupted = true;
                } else if (r->peer >= 0 && c->peers[r->peer] == p) {
                    tide_request_abort(r, tide_ft_failed_error("receive", c, p));
                }
            }
        }
    }
}

void tide_ft_proc_failed(struct tide_proc *p)
{
    if (p->failed || p == tide.me || p->departed)
        return;
    if (nfailed == capfailed) {
        int ncap = capfailed ? capfailed * 2 : 16;
        struct tide_proc **n = realloc(failed, (size_t)ncap * sizeof *n);
        if (!n)
            return;
        failed = n;
        capfailed = ncap;
    }
    p->failed = true;
    failed[nfailed++] = p;
    if (nfailed == 1)
        tide_comm_faults++; /* from now on the fast paths look (tide_ft_refuse_op) */
    if (tide.tuning.verbose > 0)
        fprintf(stderr, "tide[%u]: process %.64s:%u failed\n", tide.rank, p->nspace, p->rank);
    /* what waits to go out to it never will */
    tide_protocol_drop_peer(p, tide_ft_failed_error("send", NULL, p));
    end_requests(p);
    /* the collectives of every communicator holding it */
    unsigned end = tide_handle_end(TIDE_KIND_COMM);
    for (unsigned i = 0; i < end; i++) {
        struct tide_comm *c = tide_handle_slot(TIDE_KIND_COMM, i);
        if (!c || !tide_ft_comm_holds(c, p))
            continue;
        bool remote;
        int rank = rank_in(c, p, &remote);
        tide_coll_revoke_all(c, MPIX_ERR_PROC_FAILED, rank, remote, true);
    }
    tide_rma_proc_failed(p);
    tide_ft_agree_failure(p);
}

void tide_ft_comm_free(struct tide_comm *c)
{
    if (!c->ft)
        return;
    if (c->ft->revoked)
        tide_comm_fault_drop(c->context_id);
    tide_ft_agree_forget(c);
    free(c->ft);
    c->ft = NULL;
}

/* ---- operations meeting failures ---- */

bool tide_ft_refuse_op(struct tide_request *r)
{
    struct tide_comm *c = r->comm;
    if (!c)
        return false;
    if (c->ft && c->ft->revoked && !tide_ctx_is_coll(r->ctx)) {
        r->error = tide_ft_revoked_error(r->kind == TIDE_REQ_SEND ? "send" : "receive", c);
        r->status.MPI_ERROR = r->error;
        return true;
    }
    if (r->peer == MPI_ANY_SOURCE) {
        if (r->kind == TIDE_REQ_RECV && !tide_ctx_is_coll(r->ctx) && tide_ft_unacked(c))
            r->ft_interrupted = true;
        return false;
    }
    if (r->peer >= 0 && r->peer < (c->is_inter ? c->remote_size : c->size) && c->peers[r->peer]->failed) {
        r->error = tide_ft_failed_error(r->kind == TIDE_REQ_SEND ? "send" : "receive", c, c->peers[r->peer]);
        r->status.MPI_ERROR = r->error;
        return true;
    }
    return false;
}

void tide_ft_end_interrupted(struct tide_request *r)
{
    if (r->complete || r->state != TIDE_RS_POSTED)
        return;
    struct tide_proc *p = NULL;
    for (int i = nfailed - 1; i >= 0 && !p; i--)
        if (tide_ft_comm_holds(r->comm, failed[i]))
            p = failed[i];
    int err = p ? tide_ft_failed_error("receive from MPI_ANY_SOURCE", r->comm, p)
                : tide_err(MPIX_ERR_PROC_FAILED, "receive from MPI_ANY_SOURCE: a process of the communicator failed");
    tide_request_abort(r, err);
}

int tide_ft_pending_error(struct tide_request *r)
{
    (void)r;
    return tide_err(MPIX_ERR_PROC_FAILED_PENDING,
                    "a process of the communicator failed while this receive from MPI_ANY_SOURCE was pending; "
                    "the request is still active (MPIX_Comm_failure_ack lets it go on)");
}

bool tide_ft_probe_fails(struct tide_comm *c, int source)
{
    if (c->ft && c->ft->revoked)
        return true;
    if (source == MPI_ANY_SOURCE)
        return tide_ft_unacked(c);
    return source >= 0 && source < (c->is_inter ? c->remote_size : c->size) && c->peers[source]->failed;
}

int tide_ft_probe_error(struct tide_comm *c, int source, const char *fn)
{
    if (c->ft && c->ft->revoked)
        return tide_ft_revoked_error(fn, c);
    if (source == MPI_ANY_SOURCE)
        return tide_err(MPIX_ERR_PROC_FAILED,
                        "%s: a process of the communicator failed and the failure is not acknowledged "
                        "(MPIX_Comm_failure_ack)", fn);
    return tide_ft_failed_error(fn, c, c->peers[source]);
}

/* ---- calls that fail at once ---- */

void tide_ft_error_progress(int code)
{
    /* (not under the library lock held shared: the engine needs it whole) */
    if (tide_progress_depth || !tide_is_active() || tide_lock_held_shared())
        return;
    int cls = tide_error_class_of(code);
    if (cls == MPIX_ERR_PROC_FAILED || cls == MPIX_ERR_PROC_FAILED_PENDING || cls == MPIX_ERR_REVOKED)
        tide_progress();
}

/* ---- start and end ---- */

static bool hooked;
static bool recovery;

bool tide_ft_recovery(void)
{
    return recovery;
}

void tide_ft_init(void)
{
    const char *mode = getenv("TIDE_ENABLE_RECOVERY"); /* set by mpiexec for its job's ranks */
    recovery = mode && strcmp(mode, "1") == 0;
    if (!hooked) {
        tide_progress_register(take_reports);
        hooked = true;
    }
    if (tide.have_pmix)
        tide_pmix_on_failure(pmix_failure);
}

void tide_ft_finalize(void)
{
    tide_ft_watch_stop();
    pthread_mutex_lock(&report_lock);
    while (reports) {
        struct report *r = reports;
        reports = r->next;
        free(r);
    }
    pthread_mutex_unlock(&report_lock);
    free(failed);
    failed = NULL;
    nfailed = capfailed = 0;
}
