/*
 * fastpath.c: MPI_THREAD_MULTIPLE's message fast path. MPI_Send,
 * MPI_Isend, MPI_Recv, MPI_Irecv, MPI_Wait, MPI_Waitall, MPI_Waitany,
 * MPI_Test, MPI_Testall, MPI_Testany and MPI_Iprobe try it first: with
 * the library lock held shared (runtime/lock.h), so threads run it at the
 * same time, it sends eager messages over shared memory, open TCP
 * connections and between endpoints of this process, posts and matches
 * receives, delivers eager arrivals over shared memory, and completes and
 * frees plain requests (protocol_shared.c does the protocol's part). What
 * it cannot do (rendezvous, errors, arrivals over TCP, persistent and
 * generalized requests, a request with work on completion, a wait that
 * goes on: the exclusive engine then spins, yields and sleeps) it leaves
 * untouched and says so: the caller then goes the ordinary way, under
 * the lock held exclusively. A receive it has posted is, if need be,
 * waited for there.
 */
#include "runtime/api.h"
#include "pt2pt/fastpath.h"
#include "pt2pt/match.h"
#include "pt2pt/protocol.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/request.h"
#include "runtime/spinlock.h"
#include "comm/comm.h"
#include "comm/comm_fault.h"
#include "datatype/datatype.h"
#include "runtime/proc.h"
#include "transport/transport.h"

#include <sched.h>
#include <unistd.h>

/* Idle passes a wait under the shared lock makes before it hands over to
 * the exclusive engine (which may sleep): with every transport polled
 * here; with one that is not (TCP); and when ranks outnumber cores */
#define SHARED_SPIN 4096
#define SHARED_SPIN_MIXED 64
#define SHARED_SPIN_OVERSUB 64
bool tide_fastpath_on;

/* the most requests MPI_Waitall, MPI_Waitany and their tests take this way */
#define WAITALL_MAX 256

static inline bool is_complete(const struct tide_request *r)
{
    return __atomic_load_n(&r->complete, __ATOMIC_ACQUIRE);
}

/* Progress under the shared lock until done(arg): false when it gives up
 * (something waits that needs the exclusive lock, or it has waited
 * limit idle passes; the caller still holds the shared lock). */
static bool spin_shared(bool (*done)(void *), void *arg, int limit, int yield_mask)
{
    int idle = 0;
    while (!done(arg)) {
        if (tide_protocol_has_pending())
            return false;
        int n = tide_transports_progress_shared();
        if (n < 0)
            return false;
        /* a thread waits for the exclusive lock: let it in */
        if (__atomic_load_n(&tide_lock_writers_waiting, __ATOMIC_RELAXED))
            tide_lock_shared_step_aside();
        if (n > 0) {
            idle = 0;
            continue;
        }
        if (++idle > limit)
            return false;
        if ((idle & yield_mask) == 0)
            sched_yield(); /* more threads than cores: let the one with work run */
        else
            tide_spin_pause();
    }
    return true;
}

/* Threads spinning in spin_shared, and how many cores there are for each
 * rank of the node: beyond those, a waiting thread gives its core away at
 * every idle pass, so that threads waiting at once do not all spin while
 * the one that has work waits for a core. */
static int spinners;
static int spin_slots;

static bool wait_shared(bool (*done)(void *), void *arg)
{
    if (done(arg))
        return true;
    int slots = __atomic_load_n(&spin_slots, __ATOMIC_RELAXED);
    if (!slots) {
        long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
        long per_rank = ncpu > 0 && tide.local_size > 0 ? ncpu / (long)tide.local_size : 1;
        slots = per_rank > 0 ? (int)per_rank : 1;
        __atomic_store_n(&spin_slots, slots, __ATOMIC_RELAXED);
    }
    bool crowded = __atomic_add_fetch(&spinners, 1, __ATOMIC_RELAXED) > slots;
    int limit = tide.oversubscribed ? SHARED_SPIN_OVERSUB : tide_transports_shared_only() ? SHARED_SPIN : SHARED_SPIN_MIXED;
    bool ok = spin_shared(done, arg, limit, crowded || tide.oversubscribed ? 0 : 63);
    __atomic_sub_fetch(&spinners, 1, __ATOMIC_RELAXED);
    return ok;
}

static bool one_done(void *arg)
{
    return is_complete(arg);
}

static void finish(MPI_Request *h, struct tide_request *r, MPI_Status *status)
{
    tide_request_status_out(r, status);
    tide_request_free_shared(r);
    *h = MPI_REQUEST_NULL;
}

/* The same checks as the ordinary calls make, all passed (else the
 * ordinary call reports the error). */
static struct tide_comm *comm_ok(MPI_Comm comm, const void *buf, MPI_Count count, struct tide_datatype *dt, int rank,
                                 int tag, bool recv)
{
    struct tide_comm *c = tide_comm_get(comm);
    return c && tide_pt2pt_args_ok(c, buf, count, dt, rank, tag, recv) && rank != MPI_PROC_NULL ? c : NULL;
}

bool tide_fast_send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    if (!tide_lock_shared_begin())
        return false;
    struct tide_datatype *dt = tide_datatype_get(datatype);
    struct tide_comm *c = comm_ok(comm, buf, count, dt, dest, tag, false);
    bool sent = c && tide_send_eager_shared(buf, count, dt, dest, tag, c, tide_comm_send_ctx(c, dest, c->context_id),
                                            0, NULL);
    tide_lock_shared_end();
    return sent;
}

bool tide_fast_isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                     MPI_Request *request)
{
    if (!request || !tide_lock_shared_begin())
        return false;
    struct tide_datatype *dt = tide_datatype_get(datatype);
    struct tide_comm *c = comm_ok(comm, buf, count, dt, dest, tag, false);
    struct tide_request *r = c ? tide_request_new_shared(TIDE_REQ_SEND) : NULL;
    if (!r) {
        tide_lock_shared_end();
        return false;
    }
    uint32_t ctx = tide_comm_send_ctx(c, dest, c->context_id);
    struct tide_proc *p;
    if (!tide_send_eager_shared(buf, count, dt, dest, tag, c, ctx, r->id, &p)) {
        tide_request_free_shared(r);
        tide_lock_shared_end();
        return false;
    }
    tide_request_eager_sent(r, TIDE_MODE_STANDARD, dest, tag, ctx, p, p->tx, (size_t)count * dt->size);
    *request = r->handle;
    tide_lock_shared_end();
    return true;
}

/* A receive request for the arguments, posted or complete; NULL with
 * nothing done if the exclusive path must. */
static struct tide_request *post_recv(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                                      MPI_Comm comm)
{
    struct tide_datatype *dt = tide_datatype_get(datatype);
    struct tide_comm *c = comm_ok(comm, buf, count, dt, source, tag, true);
    struct tide_request *r = c ? tide_request_new_shared(TIDE_REQ_RECV) : NULL;
    if (!r)
        return NULL;
    r->buf = buf;
    r->count = count;
    r->dt = dt;
    r->dtype = dt->handle;
    r->peer = source;
    r->tag = tag;
    r->ctx = c->context_id;
    if (!tide_recv_post_shared(r)) {
        r->dt = NULL; /* no reference taken yet */
        tide_request_free_shared(r);
        return NULL;
    }
    /* posted: the references a pending receive holds */
    tide_datatype_retain_shared(dt);
    r->comm = c;
    tide_comm_retain_shared(c);
    return r;
}

bool tide_fast_irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                     MPI_Request *request)
{
    if (!request || !tide_lock_shared_begin())
        return false;
    struct tide_request *r = post_recv(buf, count, datatype, source, tag, comm);
    if (r)
        *request = r->handle;
    tide_lock_shared_end();
    return r != NULL;
}

bool tide_fast_recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                    MPI_Status *status, int *rc)
{
    if (!tide_lock_shared_begin())
        return false;
    struct tide_request *r = post_recv(buf, count, datatype, source, tag, comm);
    if (!r) {
        tide_lock_shared_end();
        return false;
    }
    if (wait_shared(one_done, r) && tide_request_plain_finishable(r)) {
        tide_request_status_out(r, status);
        tide_request_free_shared(r);
        tide_lock_shared_end();
        *rc = MPI_SUCCESS;
        return true;
    }
    /* posted: the exclusive engine waits for it and reports what happened */
    tide_lock_shared_end();
    tide_lock_acquire();
    struct tide_comm *c = r->comm;
    tide_comm_retain(c);
    int err = tide_wait_free(r, status);
    *rc = err ? tide_raise_comm(c, err) : MPI_SUCCESS;
    tide_comm_release(c);
    tide_lock_release();
    return true;
}

bool tide_fast_wait(MPI_Request *request, MPI_Status *status)
{
    if (!request || *request == MPI_REQUEST_NULL || !tide_lock_shared_begin())
        return false;
    struct tide_request *r = tide_request_get(*request);
    bool done = r && !r->persistent && (r->kind == TIDE_REQ_SEND || r->kind == TIDE_REQ_RECV) &&
                wait_shared(one_done, r) && tide_request_plain_finishable(r);
    if (done)
        finish(request, r, status);
    tide_lock_shared_end();
    return done;
}

/* A test that finds nothing complete may say so itself, without the
 * exclusive engine, 15 times in 16 (per thread): when its pass ran clean
 * (nothing waits for the exclusive lock), every transport is polled here
 * and nothing is queued to go out. The 16th goes the ordinary way, which
 * runs the whole engine (schedules of nonblocking collectives and the
 * rest), so a loop of tests keeps everything moving. */
static __thread unsigned tests_not_yet;

static bool may_say_not_yet(int progress)
{
    return progress >= 0 && tide_transports_shared_only() && !tide_protocol_has_pending() &&
           (++tests_not_yet & 15) != 0;
}

bool tide_fast_test(MPI_Request *request, int *flag, MPI_Status *status)
{
    if (!request || !flag || *request == MPI_REQUEST_NULL || !tide_lock_shared_begin())
        return false;
    struct tide_request *r = tide_request_get(*request);
    bool handled = false;
    if (r && !r->persistent && (r->kind == TIDE_REQ_SEND || r->kind == TIDE_REQ_RECV)) {
        int progress = is_complete(r) ? 0 : tide_transports_progress_shared();
        if (is_complete(r)) {
            handled = tide_request_plain_finishable(r);
            if (handled) {
                finish(request, r, status);
                *flag = 1;
            }
        } else if (!r->ft_interrupted && may_say_not_yet(progress)) {
            *flag = 0;
            handled = true;
        }
    }
    tide_lock_shared_end();
    return handled;
}

struct reqset {
    int n;
    struct tide_request **r;
    int found; /* any_done: the index of a complete one */
};

/* The requests of an array of handles into set (up to WAITALL_MAX):
 * false if one is of a kind the fast path leaves alone, or invalid. */
static bool gather(int count, const MPI_Request requests[], struct reqset *set)
{
    if (count <= 0 || count > WAITALL_MAX || !requests)
        return false;
    set->n = count;
    set->found = -1;
    for (int i = 0; i < count; i++) {
        set->r[i] = NULL;
        if (requests[i] == MPI_REQUEST_NULL)
            continue;
        struct tide_request *r = tide_request_get(requests[i]);
        if (!r || r->persistent || (r->kind != TIDE_REQ_SEND && r->kind != TIDE_REQ_RECV))
            return false;
        set->r[i] = r;
    }
    return true;
}

/* A wildcard receive among them that a failure interrupted (the ordinary
 * call reports it)? */
static bool any_interrupted(const struct reqset *s)
{
    for (int i = 0; i < s->n; i++)
        if (s->r[i] && s->r[i]->ft_interrupted)
            return true;
    return false;
}

static bool all_done(void *arg)
{
    struct reqset *s = arg;
    for (int i = 0; i < s->n; i++)
        if (s->r[i] && !is_complete(s->r[i]))
            return false;
    return true;
}

/* Are they all finishable (all complete)? Then finish them. */
static bool finish_all(struct reqset *set, MPI_Request requests[], MPI_Status statuses[])
{
    for (int i = 0; i < set->n; i++)
        if (set->r[i] && !tide_request_plain_finishable(set->r[i]))
            return false;
    for (int i = 0; i < set->n; i++) {
        MPI_Status *st = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
        if (set->r[i] && !set->r[i]->pooled) /* (a request named twice is finished once) */
            finish(&requests[i], set->r[i], st);
        else if (st != MPI_STATUS_IGNORE)
            tide_status_empty(st);
    }
    return true;
}

bool tide_fast_waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
    if (!tide_lock_shared_begin())
        return false;
    struct tide_request *reqs[WAITALL_MAX];
    struct reqset set = {.r = reqs};
    bool ok = gather(count, requests, &set) && wait_shared(all_done, &set) && finish_all(&set, requests, statuses);
    tide_lock_shared_end();
    return ok;
}

bool tide_fast_testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[])
{
    if (!flag || !tide_lock_shared_begin())
        return false;
    struct tide_request *reqs[WAITALL_MAX];
    struct reqset set = {.r = reqs};
    bool ok = gather(count, requests, &set);
    int progress = ok && !all_done(&set) ? tide_transports_progress_shared() : 0;
    if (ok && all_done(&set)) {
        ok = finish_all(&set, requests, statuses);
        if (ok)
            *flag = 1;
    } else if (ok) {
        ok = !any_interrupted(&set) && may_say_not_yet(progress);
        if (ok)
            *flag = 0;
    }
    tide_lock_shared_end();
    return ok;
}

static bool any_done(void *arg)
{
    struct reqset *s = arg;
    for (int i = 0; i < s->n; i++)
        if (s->r[i] && is_complete(s->r[i])) {
            s->found = i;
            return true;
        }
    return false;
}

static bool any_active(const struct reqset *s)
{
    for (int i = 0; i < s->n; i++)
        if (s->r[i])
            return true;
    return false;
}

/* MPI_Waitany (wait) or MPI_Testany: one complete request finished. */
static bool fast_any(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status, bool wait)
{
    if (!index || !tide_lock_shared_begin())
        return false;
    struct tide_request *reqs[WAITALL_MAX];
    struct reqset set = {.r = reqs};
    /* none active: the ordinary call says MPI_UNDEFINED */
    bool ok = gather(count, requests, &set) && any_active(&set);
    if (ok) {
        if (wait) {
            ok = wait_shared(any_done, &set);
        } else if (!any_done(&set)) {
            int progress = tide_transports_progress_shared();
            if (!any_done(&set)) {
                /* none complete */
                ok = !any_interrupted(&set) && may_say_not_yet(progress);
                if (ok) {
                    *flag = 0;
                    *index = MPI_UNDEFINED;
                }
                tide_lock_shared_end();
                return ok;
            }
        }
    }
    ok = ok && tide_request_plain_finishable(set.r[set.found]);
    if (ok) {
        finish(&requests[set.found], set.r[set.found], status);
        *index = set.found;
        if (flag)
            *flag = 1;
    }
    tide_lock_shared_end();
    return ok;
}

bool tide_fast_waitany(int count, MPI_Request requests[], int *index, MPI_Status *status)
{
    return fast_any(count, requests, index, NULL, status, true);
}

bool tide_fast_testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status)
{
    return flag && fast_any(count, requests, index, flag, status, false);
}

/* A message of (source, tag) waiting in ctx's unexpected queue: its
 * envelope into status (as MPI_Iprobe gives it). */
static bool probe_once(uint32_t ctx, int source, int tag, MPI_Status *status)
{
    struct tide_matchq *q = tide_matchq_find(ctx);
    if (!q)
        return false;
    tide_spin_lock(&q->lock);
    struct tide_unexpected *u = tide_match_find_unexpected(q, source, tag, false);
    if (u && status != MPI_STATUS_IGNORE && status) {
        status->MPI_SOURCE = u->src;
        status->MPI_TAG = u->tag;
        status->tide_cancelled = 0;
        status->tide_nbytes = (MPI_Count)u->len;
    }
    tide_spin_unlock(&q->lock);
    return u != NULL;
}

/* The communicator of a probe the fast path may take: valid arguments,
 * no failure known anywhere. */
static struct tide_comm *probe_comm(int source, int tag, MPI_Comm comm)
{
    struct tide_comm *c = tide_comm_get(comm);
    int n = c ? (c->is_inter ? c->remote_size : c->size) : 0;
    if (!c || __atomic_load_n(&tide_comm_faults, __ATOMIC_RELAXED) ||
        !((source >= 0 && source < n) || source == MPI_ANY_SOURCE) || !(tag >= 0 || tag == MPI_ANY_TAG))
        return NULL;
    return c;
}

bool tide_fast_iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    if (!flag || source == MPI_PROC_NULL || !tide_lock_shared_begin())
        return false;
    struct tide_comm *c = probe_comm(source, tag, comm);
    bool handled = false;
    if (c) {
        int progress = 0;
        bool found = probe_once(c->context_id, source, tag, status);
        if (!found) {
            progress = tide_transports_progress_shared();
            found = probe_once(c->context_id, source, tag, status);
        }
        if (found) {
            *flag = 1;
            handled = true;
        } else if (may_say_not_yet(progress)) {
            *flag = 0;
            handled = true;
        }
    }
    tide_lock_shared_end();
    return handled;
}

struct probe_look {
    uint32_t ctx;
    int source, tag;
    MPI_Status *status;
};

static bool probe_seen(void *arg)
{
    struct probe_look *l = arg;
    return probe_once(l->ctx, l->source, l->tag, l->status);
}

bool tide_fast_probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    if (source == MPI_PROC_NULL || !tide_lock_shared_begin())
        return false;
    struct tide_comm *c = probe_comm(source, tag, comm);
    struct probe_look look = {c ? c->context_id : 0, source, tag, status};
    bool handled = c && wait_shared(probe_seen, &look);
    tide_lock_shared_end();
    return handled;
}
