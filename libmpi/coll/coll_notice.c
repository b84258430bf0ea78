/*
 * coll_notice.c: error notices of refused collective calls, and the
 * revocation of a communicator's collectives they may lead to
 * (coll_notice.h has the rules).
 */
#include "runtime/api.h"
#include "coll/algo.h"
#include "coll/coll_notice.h"
#include "comm/comm.h"
#include "comm/comm_fault.h"
#include "datatype/datatype.h"
#include "pt2pt/protocol.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/request.h"
#include "comm/group.h"
#include "ft/ft.h"
#include "mpi-ext.h"
#include "runtime/proc.h"
#include "pt2pt/sender_check.h"

#include <stdio.h>

#include <stdlib.h>
#include <string.h>

#define NOTICE_MAGIC 0x54434e31u /* "TCN1" */

enum { NOTICE_REFUSED = 1, NOTICE_REVOKE = 2, NOTICE_DEPART = 3 };

/* What a notice carries (both ends are this library). */
struct notice {
    uint32_t magic;
    uint32_t kind;
    uint32_t call;
    uint32_t seq, lseq;
    int32_t rank;
    int32_t cls;
    uint32_t remote; /* the rank is in the receiver's remote group */
    char fn[TIDE_FAULT_FN];
};

/* Send n to rank peer of comm, on its collective context; the message
 * goes out by itself (nobody waits for it). */
static void send_notice(struct tide_comm *comm, int peer, const struct notice *n)
{
    if (comm->peers[peer]->failed)
        return; /* it would wait behind a process that is gone */
    tide_send_detached(n, sizeof *n, peer, TIDE_COLL_NOTICE_TAG, comm, comm->context_id + 1);
}

/* n to every other rank of c: an intracommunicator's ranks; an
 * intercommunicator's remote group over it and its own group over its
 * local communicator. */
static void send_all(struct tide_comm *c, struct notice *n)
{
    if (!c->is_inter) {
        n->remote = 0;
        for (int i = 0; i < c->size; i++)
            if (i != c->rank)
                send_notice(c, i, n);
        return;
    }
    n->remote = 1;
    for (int i = 0; i < c->remote_size; i++)
        send_notice(c, i, n);
    struct tide_comm *l = c->local_comm;
    if (!l)
        return;
    n->remote = 0;
    for (int i = 0; i < l->size; i++)
        if (i != l->rank)
            send_notice(l, i, n);
}

static int revoked_error_cb(void *arg)
{
    struct tide_comm_fault *f = arg;
    return tide_comm_fault_error(&f->cause, true);
}

static bool revoked_tag_cb(void *arg, int tag)
{
    struct tide_comm_fault *f = arg;
    return tag >= 0 && tide_fault_tag_covered(tag, f->from_seq);
}

/* Revoke one collective context from the cause's call on: the
 * operations of that call and later ones in flight end. */
static void revoke_ctx(uint32_t ctx, const struct tide_fault_call *cause, uint32_t from_seq)
{
    struct tide_comm_fault *f = tide_comm_fault_get(ctx);
    if (!f || f->revoked)
        return;
    f->revoked = true;
    f->from_call = cause->call;
    f->from_seq = from_seq;
    f->cause = *cause;
    tide_requests_abort_ctx(ctx, revoked_tag_cb, revoked_error_cb, f);
}

/* Tell every other member of c that its collectives are revoked by
 * cause (which names a rank as this process sees it). */
static void send_revoke(struct tide_comm *c, const struct tide_fault_call *cause)
{
    struct notice n = {.magic = NOTICE_MAGIC, .kind = NOTICE_REVOKE, .call = cause->call,
                       .seq = cause->seq, .lseq = cause->lseq, .rank = cause->rank, .cls = cause->cls};
    memcpy(n.fn, cause->fn, sizeof n.fn);
    /* the notice says who failed as the receivers see it: the cause's
     * group is the remote one for the other group of an
     * intercommunicator exactly when it is this rank's own */
    if (!c->is_inter) {
        send_all(c, &n);
        return;
    }
    n.remote = !cause->remote;
    for (int i = 0; i < c->remote_size; i++)
        send_notice(c, i, &n);
    struct tide_comm *l = c->local_comm;
    n.remote = cause->remote;
    for (int i = 0; l && i < l->size; i++)
        if (i != l->rank)
            send_notice(l, i, &n);
}

/* Revoke c's collectives (and an intercommunicator's local
 * communicator's); tell the others if tell. */
static void revoke_comm(struct tide_comm *c, const struct tide_fault_call *cause, bool tell)
{
    if (tide_ctx_revoked(c->context_id + 1))
        return; /* from an earlier call already */
    if (tell)
        send_revoke(c, cause);
    revoke_ctx(c->context_id + 1, cause, cause->seq);
    if (c->is_inter && c->local_comm)
        revoke_ctx(c->local_comm->context_id + 1, cause, cause->lseq);
}

/* A refusal of call k recorded by this process for c (any of its contexts). */
static struct tide_fault_call *find_call(struct tide_comm *c, uint32_t k, bool *revoked)
{
    struct tide_fault_call *found = NULL;
    *revoked = false;
    uint32_t ctxs[2] = {c->context_id + 1, c->is_inter && c->local_comm ? c->local_comm->context_id + 1 : 0};
    for (int i = 0; i < 2 && ctxs[i]; i++) {
        struct tide_comm_fault *f = tide_comm_fault_find(ctxs[i]);
        if (!f)
            continue;
        if (f->revoked)
            *revoked = true;
        struct tide_fault_call *rec = tide_comm_fault_call(f, k);
        if (rec && (!found || rec->own))
            found = rec;
    }
    return found;
}

/* The revocation of c's (or its local communicator's) context that
 * covers call k, or NULL. */
static struct tide_comm_fault *revocation_of(struct tide_comm *c, uint32_t k)
{
    uint32_t ctxs[2] = {c->context_id + 1, c->is_inter && c->local_comm ? c->local_comm->context_id + 1 : 0};
    for (int i = 0; i < 2 && ctxs[i]; i++) {
        struct tide_comm_fault *f = tide_comm_fault_find(ctxs[i]);
        if (f && f->revoked && (int32_t)(k - f->from_call) >= 0)
            return f;
    }
    return NULL;
}

static bool revoked_call(struct tide_comm *c, uint32_t k)
{
    return revocation_of(c, k) != NULL;
}

static bool entered(const struct tide_comm *c, uint32_t k)
{
    return (int32_t)(c->coll_calls - k) > 0;
}

/* This process's own refusals are kept this many calls back: a notice of
 * another rank about a call this process refused too may come that late
 * (a refused call runs no progress, so many may go by before it). */
#define OWN_WINDOW (1u << 16)

void tide_coll_notice_entered(struct tide_comm *c, uint32_t k)
{
    bool revoked;
    struct tide_fault_call *rec = find_call(c, k, &revoked);
    c->coll_doom = (revoked && revoked_call(c, k)) || (rec && !rec->own);
    uint32_t ctxs[2] = {c->context_id + 1, c->is_inter && c->local_comm ? c->local_comm->context_id + 1 : 0};
    for (int i = 0; i < 2 && ctxs[i]; i++) {
        struct tide_comm_fault *f = tide_comm_fault_find(ctxs[i]);
        if (f && f->ncalls)
            tide_comm_fault_prune(f, k, OWN_WINDOW);
    }
}

int tide_coll_doom_error(struct tide_comm *c, const char *fn)
{
    uint32_t k = c->coll_calls - 1;
    bool revoked;
    struct tide_fault_call *rec = find_call(c, k, &revoked);
    struct tide_comm_fault *f = revoked ? revocation_of(c, k) : NULL;
    if (f && (f->cause.cls == MPIX_ERR_PROC_FAILED || f->cause.cls == MPIX_ERR_REVOKED)) {
        struct tide_fault_call cause = f->cause;
        snprintf(cause.fn, sizeof cause.fn, "%s", fn);
        return tide_comm_fault_error(&cause, true);
    }
    if (f) {
        return tide_err(MPI_ERR_OTHER, "%s: collective operations on the communicator are revoked (%s: rank %d "
                                       "of the %s failed its argument check (%s))",
                        fn, f->cause.fn, f->cause.rank, f->cause.remote ? "remote group" : "communicator",
                        tide_error_class_string(f->cause.cls));
    }
    if (rec)
        return tide_comm_fault_error(rec, false);
    return tide_err(MPI_ERR_OTHER, "%s: another rank failed this call's argument check", fn);
}

int tide_coll_notice_send(struct tide_comm *c, int code, const char *fn)
{
    uint32_t k = c->coll_calls - 1;
    bool doomed = c->coll_doom;
    c->coll_doom = false;
    /* the sequence numbers the call would have taken, as every rank does */
    c->coll_seq++;
    if (c->is_inter && c->local_comm)
        c->local_comm->coll_seq++;
    int cls = tide_error_class_of(code);
    struct tide_fault_call own = {.call = k, .seq = c->coll_seq - 1,
                                  .lseq = c->is_inter && c->local_comm ? c->local_comm->coll_seq - 1 : 0,
                                  .rank = c->rank,
                                  .cls = cls > 0 ? cls : MPI_ERR_OTHER, .own = true};
    strncpy(own.fn, fn, sizeof own.fn - 1);
    struct tide_comm_fault *f = tide_comm_fault_get(c->context_id + 1);
    if (f)
        tide_comm_fault_add_call(f, &own);
    /* a call refused by another rank first, or a revoked communicator:
     * the others know already */
    if (doomed || revoked_call(c, k))
        return code;
    struct notice n = {.magic = NOTICE_MAGIC, .kind = NOTICE_REFUSED, .call = k, .seq = own.seq, .lseq = own.lseq,
                       .rank = c->rank,
                       .cls = own.cls};
    memcpy(n.fn, own.fn, sizeof n.fn);
    send_all(c, &n);
    return code;
}

/* A revocation notice for a failure or a user's revocation: the failed
 * process it names is failed here too (what one member learnt, all
 * learn: members of another universe get no event from our runtime),
 * and a revocation is taken and passed on. */
static void notice_fault(struct tide_comm *c, struct tide_proc *from, const struct tide_fault_call *rec)
{
    if (rec->cls == MPIX_ERR_REVOKED) {
        tide_ft_revoke_local(c, rec->rank, rec->remote);
        return;
    }
    struct tide_group *g = rec->remote ? c->remote_group : (c->is_inter ? c->local_comm->group : c->group);
    if (!g || rec->rank < 0 || rec->rank >= g->size)
        return;
    struct tide_proc *p = g->procs[rec->rank];
    if (p == tide.me || p == from)
        return; /* nobody can report this process's or its own death */
    tide_ft_proc_failed(p);
}

void tide_coll_notice_depart(struct tide_comm *c)
{
    if (!c->is_inter)
        return;
    struct notice n = {.magic = NOTICE_MAGIC, .kind = NOTICE_DEPART, .rank = c->rank, .remote = 1};
    for (int i = 0; i < c->remote_size; i++)
        if (tide_sender_is_foreign(c->peers[i]))
            send_notice(c, i, &n);
}

void tide_coll_revoke_all(struct tide_comm *c, int cls, int rank, bool remote, bool tell)
{
    if (tide_ctx_revoked(c->context_id + 1)) {
        /* revoked already (an earlier failure, a refused call): a user's
         * revocation still goes to everyone */
        struct tide_comm_fault *f = tide_comm_fault_find(c->context_id + 1);
        if (!(tell && cls == MPIX_ERR_REVOKED && f && f->cause.cls != MPIX_ERR_REVOKED))
            return;
        f->cause.cls = MPIX_ERR_REVOKED;
        f->cause.rank = rank;
        f->cause.remote = remote;
        send_revoke(c, &f->cause);
        return;
    }
    /* every call in flight and every later one: half the spaces back */
    struct tide_fault_call cause = {.call = c->coll_calls - 0x10000u, .seq = (c->coll_seq - 0x40000u) & 0xfffffu,
                                    .lseq = c->is_inter && c->local_comm ? (c->local_comm->coll_seq - 0x40000u) & 0xfffffu
                                                                         : 0,
                                    .rank = rank, .cls = cls, .remote = remote};
    snprintf(cause.fn, sizeof cause.fn, "%s", "collective operation");
    revoke_comm(c, &cause, tell);
}

bool tide_coll_arrival(struct tide_proc *from, uint32_t ctx, int src, int tag, const void *payload, size_t plen)
{
    (void)src;
    if (tag == TIDE_FT_AGREE_TAG) {
        tide_ft_agree_arrival(from, ctx, payload, plen);
        return true;
    }
    if (tag != TIDE_COLL_NOTICE_TAG)
        return tide_ctx_revoked_tag(ctx, tag); /* nobody will receive it */
    struct notice n;
    if (plen != sizeof n)
        return true;
    memcpy(&n, payload, sizeof n);
    if (n.magic != NOTICE_MAGIC)
        return true;
    if (n.kind == NOTICE_DEPART) {
        /* it has left our communicators cleanly: its end is no failure */
        from->departed = true;
        return true;
    }
    n.fn[sizeof n.fn - 1] = '\0';
    struct tide_fault_call rec = {.call = n.call, .seq = n.seq, .lseq = n.lseq, .rank = n.rank, .cls = n.cls,
                                  .remote = n.remote != 0};
    memcpy(rec.fn, n.fn, sizeof rec.fn);
    bool via_local;
    struct tide_comm *c = tide_comm_by_coll_ctx(ctx, &via_local);
    if (!c && tide_comm_fault_gone(ctx))
        return true; /* about a communicator freed here already */
    if (n.kind == NOTICE_REVOKE && c && (n.cls == MPIX_ERR_PROC_FAILED || n.cls == MPIX_ERR_REVOKED)) {
        notice_fault(c, from, &rec);
        return true;
    }
    if (n.kind == NOTICE_REVOKE) {
        if (c)
            revoke_comm(c, &rec, false);
        else
            revoke_ctx(ctx, &rec, rec.seq); /* no such communicator here (yet) */
        return true;
    }
    struct tide_comm_fault *f = tide_comm_fault_get(ctx);
    if (!f)
        return true;
    struct tide_fault_call *mine = tide_comm_fault_call(f, n.call);
    if (!c) {
        if (!mine)
            tide_comm_fault_add_call(f, &rec); /* for when it reaches the call */
        return true;
    }
    bool revoked;
    mine = find_call(c, n.call, &revoked);
    if (mine && mine->own)
        return true; /* this rank refused the call too */
    if (!mine)
        tide_comm_fault_add_call(f, &rec);
    if (entered(c, n.call))
        revoke_comm(c, &rec, true);
    return true;
}

int tide_coll_revoked_error(uint32_t ctx)
{
    struct tide_comm_fault *f = tide_comm_fault_find(ctx);
    if (!f || !f->revoked)
        return tide_err(MPI_ERR_OTHER, "collective operation on a revoked communicator");
    return tide_comm_fault_error(&f->cause, true);
}

int tide_coll_revoked(struct tide_comm *c, uint32_t call)
{
    struct tide_comm_fault *f = revocation_of(c, call);
    return f ? tide_comm_fault_error(&f->cause, true) : MPI_SUCCESS;
}
