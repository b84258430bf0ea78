/*
 * sched.c: the schedule engine (sched.h). Entries run in order; sends and
 * receives are started without waiting, a fence waits for everything
 * started so far, local reductions and copies run when reached. Blocking
 * collectives run their schedule in the caller's wait loop; nonblocking
 * ones sit on a list the progress hook advances, and complete their
 * request when the last entry is done. Schedules and their first entries
 * and scratch memory come from a pool, so a small collective allocates
 * nothing in the steady state.
 */
#include "runtime/api.h"
#include "coll/algo.h"
#include "coll/sched.h"
#include "coll/coll.h"
#include "coll/coll_notice.h"
#include "comm/comm.h"
#include "datatype/datatype.h"
#include "op/op.h"
#include "pt2pt/progress.h"
#include "pt2pt/protocol.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/request.h"
#include "runtime/proc.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

enum { SE_SEND = 1, SE_RECV, SE_REDUCE, SE_COPY, SE_FENCE, SE_CALL };

struct sched_ent {
    uint8_t kind;
    int peer, tag;
    size_t count, count2;
    struct tide_comm *comm;
    const void *src;
    void *dst;
    struct tide_datatype *dt, *dt2;
    struct tide_op *op;
    void (*fn)(struct tide_sched *s, void *arg);
};

#define INLINE_ENTS 48
#define INLINE_REQS 32
#define SCRATCH_BYTES 4096

struct tide_sched {
    struct tide_comm *comm;
    struct sched_ent *ent;
    int nent, cap, cur;
    struct tide_request **fl; /* started, not yet released */
    int nfl, capfl, flscan;
    void **mem;               /* scratch blocks to free */
    int nmem, capmem;
    size_t scratch_used;
    int error;
    bool busy, done, moved, stop;
    struct tide_request *req;
    uint32_t call;            /* the collective MPI call it is part of (coll_notice.h) */
    struct tide_sched *next, *prev;
    struct sched_ent ent0[INLINE_ENTS];
    struct tide_request *fl0[INLINE_REQS];
    _Alignas(64) char scratch[SCRATCH_BYTES];
};

static struct tide_sched *pool;
static int pool_len;
static struct tide_sched *active;
static int nactive;
static bool in_hook;

struct tide_sched *tide_sched_new(struct tide_comm *comm)
{
    struct tide_sched *s = pool;
    if (s) {
        pool = s->next;
        pool_len--;
    } else if (!(s = malloc(sizeof *s))) {
        return NULL;
    }
    s->comm = comm;
    tide_comm_retain(comm);
    s->ent = s->ent0;
    s->nent = 0;
    s->cap = INLINE_ENTS;
    s->cur = 0;
    s->fl = s->fl0;
    s->nfl = s->flscan = 0;
    s->capfl = INLINE_REQS;
    s->mem = NULL;
    s->nmem = s->capmem = 0;
    s->scratch_used = 0;
    s->error = MPI_SUCCESS;
    s->busy = s->done = s->moved = s->stop = false;
    s->req = NULL;
    s->call = comm->coll_calls - 1;
    s->next = s->prev = NULL;
    return s;
}

void tide_sched_set_call(struct tide_sched *s, uint32_t call)
{
    s->call = call;
}

void tide_sched_fail(struct tide_sched *s, int code)
{
    if (s->error == MPI_SUCCESS && code != MPI_SUCCESS)
        s->error = code;
}

void tide_sched_stop(struct tide_sched *s, int code)
{
    tide_sched_fail(s, code);
    s->stop = true;
}

int tide_sched_error(const struct tide_sched *s)
{
    return s->error;
}

int tide_sched_length(const struct tide_sched *s)
{
    return s->nent;
}

static struct sched_ent *add(struct tide_sched *s, int kind)
{
    if (s->nent == s->cap) {
        int ncap = s->cap * 2;
        struct sched_ent *n;
        if (s->ent == s->ent0) {
            n = malloc((size_t)ncap * sizeof *n);
            if (n)
                memcpy(n, s->ent0, sizeof s->ent0);
        } else {
            n = realloc(s->ent, (size_t)ncap * sizeof *n);
        }
        if (!n) {
            tide_sched_fail(s, tide_err(MPI_ERR_NO_MEM, "collective: out of memory for its schedule"));
            return NULL;
        }
        s->ent = n;
        s->cap = ncap;
    }
    struct sched_ent *e = &s->ent[s->nent++];
    /* every field set here (a memset of the whole entry costs more) */
    e->kind = (uint8_t)kind;
    e->peer = e->tag = 0;
    e->count = e->count2 = 0;
    e->comm = NULL;
    e->src = NULL;
    e->dst = NULL;
    e->dt = e->dt2 = NULL;
    e->op = NULL;
    e->fn = NULL;
    return e;
}

/* predefined types and ops need no reference counting */
static inline void dt_hold(struct tide_datatype *dt)
{
    if (!dt->predefined)
        tide_datatype_retain(dt);
}

static inline void dt_drop(struct tide_datatype *dt)
{
    if (dt && !dt->predefined)
        tide_datatype_release(dt);
}

static bool count_ok(struct tide_sched *s, size_t count)
{
    if (count <= INT_MAX)
        return true;
    tide_sched_fail(s, tide_err(MPI_ERR_COUNT, "collective: a message of %zu elements is more than this "
                                               "implementation sends at once (INT_MAX)", count));
    return false;
}

void tide_sched_send(struct tide_sched *s, const void *buf, size_t count, struct tide_datatype *dt, int peer,
                     int tag, struct tide_comm *comm)
{
    if (peer == MPI_PROC_NULL || !count_ok(s, count))
        return;
    struct sched_ent *e = add(s, SE_SEND);
    if (!e)
        return;
    e->src = buf;
    e->count = count;
    e->dt = dt;
    dt_hold(dt);
    e->peer = peer;
    e->tag = tag;
    e->comm = comm;
}

void tide_sched_recv(struct tide_sched *s, void *buf, size_t count, struct tide_datatype *dt, int peer, int tag,
                     struct tide_comm *comm)
{
    if (peer == MPI_PROC_NULL || !count_ok(s, count))
        return;
    struct sched_ent *e = add(s, SE_RECV);
    if (!e)
        return;
    e->dst = buf;
    e->count = count;
    e->dt = dt;
    dt_hold(dt);
    e->peer = peer;
    e->tag = tag;
    e->comm = comm;
}

void tide_sched_reduce(struct tide_sched *s, const void *in, void *inout, size_t count, struct tide_datatype *dt,
                       struct tide_op *op)
{
    if (count == 0)
        return;
    struct sched_ent *e = add(s, SE_REDUCE);
    if (!e)
        return;
    e->src = in;
    e->dst = inout;
    e->count = count;
    e->dt = dt;
    dt_hold(dt);
    e->op = op;
    if (!op->predefined)
        tide_op_retain(op);
}

void tide_sched_copy(struct tide_sched *s, const void *src, size_t scount, struct tide_datatype *sdt, void *dst,
                     size_t rcount, struct tide_datatype *rdt)
{
    if (scount == 0 || sdt->size == 0)
        return;
    struct sched_ent *e = add(s, SE_COPY);
    if (!e)
        return;
    e->src = src;
    e->count = scount;
    e->dt = sdt;
    dt_hold(sdt);
    e->dst = dst;
    e->count2 = rcount;
    e->dt2 = rdt;
    dt_hold(rdt);
}

void tide_sched_fence(struct tide_sched *s)
{
    if (s->nent > 0 && s->ent[s->nent - 1].kind == SE_FENCE)
        return;
    add(s, SE_FENCE);
}

void tide_sched_call(struct tide_sched *s, void (*fn)(struct tide_sched *s, void *arg), void *arg)
{
    struct sched_ent *e = add(s, SE_CALL);
    if (!e)
        return;
    e->fn = fn;
    e->dst = arg;
}

void *tide_sched_alloc(struct tide_sched *s, size_t bytes)
{
    if (bytes == 0)
        bytes = 1;
    size_t need = (bytes + 63) & ~(size_t)63;
    if (SCRATCH_BYTES - s->scratch_used >= need) {
        void *p = s->scratch + s->scratch_used;
        s->scratch_used += need;
        return p;
    }
    if (s->nmem == s->capmem) {
        int ncap = s->capmem ? s->capmem * 2 : 8;
        void **n = realloc(s->mem, (size_t)ncap * sizeof *n);
        if (!n)
            goto nomem;
        s->mem = n;
        s->capmem = ncap;
    }
    void *p;
    if (posix_memalign(&p, 64, need) != 0)
        goto nomem;
    s->mem[s->nmem++] = p;
    return p;
nomem:
    tide_sched_fail(s, tide_err(MPI_ERR_NO_MEM, "collective: out of memory for %zu bytes of temporary buffer",
                                bytes));
    return NULL;
}

void *tide_sched_tmp(struct tide_sched *s, size_t count, struct tide_datatype *dt)
{
    if (count == 0)
        return tide_sched_alloc(s, 1);
    MPI_Aint ext = dt->extent;
    MPI_Aint span_ext = (MPI_Aint)(count - 1) * ext;
    MPI_Aint lo = dt->true_lb + (span_ext < 0 ? span_ext : 0);
    MPI_Aint hi = dt->true_ub + (span_ext > 0 ? span_ext : 0);
    char *raw = tide_sched_alloc(s, (size_t)(hi - lo));
    if (!raw)
        return NULL;
    return (char *)((uintptr_t)raw - (uintptr_t)lo);
}

/* ---- local copies ---- */

int tide_coll_copy(const void *src, size_t scount, struct tide_datatype *sdt, void *dst, size_t rcount,
                   struct tide_datatype *rdt)
{
    size_t sbytes = scount * sdt->size, rbytes = rcount * rdt->size;
    size_t n = sbytes;
    int rc = MPI_SUCCESS;
    if (sbytes > rbytes) {
        n = rbytes;
        rc = tide_err(MPI_ERR_TRUNCATE,
                      "collective: %zu bytes of data do not fit in a receive buffer of %zu bytes", sbytes, rbytes);
    }
    if (n == 0)
        return rc;
    const char *s0 = (const char *)((uintptr_t)src + (uintptr_t)sdt->true_lb);
    char *d0 = (char *)((uintptr_t)dst + (uintptr_t)rdt->true_lb);
    if (sdt->contig && rdt->contig) {
        if (s0 != d0)
            memmove(d0, s0, n);
        return rc;
    }
    struct tide_convertor cv;
    if (sdt->contig) {
        tide_conv_init(&cv, rdt, rcount, dst);
        tide_conv_unpack(&cv, s0, n);
        return rc;
    }
    if (rdt->contig) {
        tide_conv_init(&cv, sdt, scount, src);
        tide_conv_pack(&cv, d0, n);
        return rc;
    }
    _Alignas(64) char stage[16384];
    struct tide_convertor out;
    tide_conv_init(&cv, sdt, scount, src);
    tide_conv_init(&out, rdt, rcount, dst);
    size_t left = n;
    while (left > 0) {
        size_t got = tide_conv_pack(&cv, stage, left < sizeof stage ? left : sizeof stage);
        if (got == 0)
            break;
        tide_conv_unpack(&out, stage, got);
        left -= got;
    }
    return rc;
}

/* ---- running ---- */

static void track(struct tide_sched *s, struct tide_request *r)
{
    if (s->nfl == s->capfl) {
        int ncap = s->capfl * 2;
        struct tide_request **n;
        if (s->fl == s->fl0) {
            n = malloc((size_t)ncap * sizeof *n);
            if (n)
                memcpy(n, s->fl0, sizeof s->fl0);
        } else {
            n = realloc(s->fl, (size_t)ncap * sizeof *n);
        }
        if (!n) {
            /* cannot track it: wait for it here */
            tide_sched_fail(s, tide_wait_free(r, MPI_STATUS_IGNORE));
            return;
        }
        s->fl = n;
        s->capfl = ncap;
    }
    s->fl[s->nfl++] = r;
}

/* Everything started has completed? Then release it. */
static bool drain(struct tide_sched *s)
{
    while (s->flscan < s->nfl) {
        if (!s->fl[s->flscan]->complete)
            return false;
        s->flscan++;
    }
    for (int i = 0; i < s->nfl; i++) {
        struct tide_request *r = s->fl[i];
        tide_sched_fail(s, r->error);
        tide_request_free(r);
    }
    if (s->nfl)
        s->moved = true;
    s->nfl = s->flscan = 0;
    return true;
}

static void run_send(struct tide_sched *s, struct sched_ent *e)
{
    struct tide_comm *c = e->comm;
    struct tide_proc *p = c->peers[e->peer];
    if (p != tide.me && !p->pend_head &&
        tide_send_immediate(e->src, (MPI_Count)e->count, e->dt, e->peer, e->tag, c, c->context_id + 1))
        return;
    struct tide_request *r;
    int rc = tide_isend(e->src, (MPI_Count)e->count, e->dt, e->peer, e->tag, c, c->context_id + 1, TIDE_MODE_STANDARD,
                        &r);
    if (rc != MPI_SUCCESS) {
        tide_sched_fail(s, rc);
        return;
    }
    track(s, r);
}

static void run_recv(struct tide_sched *s, struct sched_ent *e)
{
    struct tide_comm *c = e->comm;
    struct tide_request *r;
    int rc = tide_irecv(e->dst, (MPI_Count)e->count, e->dt, e->peer, e->tag, c, c->context_id + 1, &r);
    if (rc != MPI_SUCCESS) {
        tide_sched_fail(s, rc);
        return;
    }
    track(s, r);
}

/* The communicator's collectives were revoked (coll_notice.h): abandon
 * what is in flight (receives, sends waiting for an answer; the rest
 * completes by itself) and finish with the error. */
static void stop_if_revoked(struct tide_sched *s)
{
    int e = tide_coll_revoked(s->comm, s->call);
    if (e == MPI_SUCCESS)
        return;
    for (int i = s->flscan; i < s->nfl; i++)
        tide_request_abort(s->fl[i], e);
    s->error = e;
    s->stop = true;
    s->cur = s->nent;
}

/* Run entries until one must wait; true when the schedule is finished. */
static bool advance(struct tide_sched *s)
{
    if (s->done)
        return true;
    if (s->busy)
        return false;
    s->busy = true;
    if (__builtin_expect(tide_comm_faults != 0, 0) && !s->stop)
        stop_if_revoked(s);
    for (;;) {
        if (s->cur == s->nent) {
            if (!drain(s))
                break;
            s->done = true;
            break;
        }
        struct sched_ent *e = &s->ent[s->cur];
        switch (e->kind) {
        case SE_FENCE:
            if (!drain(s))
                goto out;
            break;
        case SE_SEND:
            run_send(s, e);
            break;
        case SE_RECV:
            run_recv(s, e);
            break;
        case SE_REDUCE:
            tide_op_apply(e->op, e->src, e->dst, e->count, e->dt);
            break;
        case SE_COPY:
            tide_sched_fail(s, tide_coll_copy(e->src, e->count, e->dt, e->dst, e->count2, e->dt2));
            break;
        case SE_CALL:
            e->fn(s, e->dst);
            if (s->stop)
                s->cur = s->nent - 1;
            break;
        }
        s->cur++;
        s->moved = true;
    }
out:
    s->busy = false;
    return s->done;
}

void tide_sched_free(struct tide_sched *s)
{
    /* requests still out (only after an error stopped a schedule early) */
    for (int i = 0; i < s->nfl; i++)
        tide_wait_free(s->fl[i], MPI_STATUS_IGNORE);
    for (int i = 0; i < s->nent; i++) {
        struct sched_ent *e = &s->ent[i];
        dt_drop(e->dt);
        dt_drop(e->dt2);
        if (e->op && !e->op->predefined)
            tide_op_release(e->op);
    }
    if (s->ent != s->ent0)
        free(s->ent);
    if (s->fl != s->fl0)
        free(s->fl);
    for (int i = 0; i < s->nmem; i++)
        free(s->mem[i]);
    free(s->mem);
    tide_comm_release(s->comm);
    if (pool_len < 16) {
        s->next = pool;
        pool = s;
        pool_len++;
    } else {
        free(s);
    }
}

static bool run_done(void *arg)
{
    return advance(arg);
}

int tide_sched_run(struct tide_sched *s)
{
    if (s->error != MPI_SUCCESS) {
        int e = s->error;
        tide_sched_free(s);
        return e;
    }
    if (!advance(s))
        tide_progress_until(run_done, s);
    int err = s->error;
    tide_sched_free(s);
    return err;
}

/* ---- nonblocking ---- */

static void unlink_active(struct tide_sched *s)
{
    if (s->prev)
        s->prev->next = s->next;
    else
        active = s->next;
    if (s->next)
        s->next->prev = s->prev;
    s->next = s->prev = NULL;
    nactive--;
}

static void finish(struct tide_sched *s)
{
    struct tide_request *r = s->req;
    unlink_active(s);
    s->req = NULL;
    r->error = s->error;
    tide_sched_free(s);
    tide_request_complete(r);
}

static int hook(void)
{
    if (!active || in_hook)
        return 0;
    in_hook = true;
    int n = 0;
    for (struct tide_sched *s = active, *next; s; s = next) {
        next = s->next;
        s->moved = false;
        if (advance(s)) {
            finish(s);
            n++;
        } else if (s->moved) {
            n++;
        }
    }
    in_hook = false;
    return n;
}

/* Put s on the active list with r as its request, and run what it can. */
static void launch(struct tide_sched *s, struct tide_request *r)
{
    s->req = r;
    tide_progress_register(hook);
    s->next = active;
    if (active)
        active->prev = s;
    active = s;
    nactive++;
    if (advance(s))
        finish(s);
}

int tide_sched_start(struct tide_sched *s, MPI_Request *request)
{
    if (s->error != MPI_SUCCESS) {
        int e = s->error;
        tide_sched_free(s);
        return e;
    }
    struct tide_request *r = tide_request_new(TIDE_REQ_COLL);
    if (!r) {
        tide_sched_free(s);
        return tide_err(MPI_ERR_NO_MEM, "collective: out of memory for a request");
    }
    r->comm = s->comm;
    tide_comm_retain(s->comm);
    r->cb_data = s;
    r->peer = MPI_PROC_NULL;
    *request = r->handle;
    launch(s, r);
    return MPI_SUCCESS;
}

int tide_sched_start_on(struct tide_sched *s, struct tide_request *r)
{
    if (s->error != MPI_SUCCESS) {
        int e = s->error;
        tide_sched_free(s);
        return e;
    }
    r->state = TIDE_RS_POSTED;
    r->complete = false;
    r->error = MPI_SUCCESS;
    tide_status_empty(&r->status);
    launch(s, r);
    return MPI_SUCCESS;
}

struct tide_request *tide_sched_request(const struct tide_sched *s)
{
    return s->req;
}

int tide_sched_active(void)
{
    return nactive;
}

/* ---- buffers as bytes ---- */

struct tide_datatype *tide_coll_byte(void)
{
    static struct tide_datatype *b;
    if (!b)
        b = tide_datatype_get(MPI_BYTE);
    return b;
}

void tide_coll_as_bytes(void **buf, size_t *count, struct tide_datatype **dt)
{
    struct tide_datatype *d = *dt;
    if (!d->contig || d == tide_coll_byte() || *count * d->size > INT_MAX)
        return;
    *buf = (void *)((uintptr_t)*buf + (uintptr_t)d->true_lb);
    *count *= d->size;
    *dt = tide_coll_byte();
}

int tide_coll_pending(void)
{
    return nactive;
}
