/*
 * agree.c: the fault-tolerant agreement under MPIX_Comm_agree,
 * MPIX_Comm_iagree and MPIX_Comm_shrink.
 *
 * The participants are every member of the communicator (both groups of
 * an intercommunicator), sorted by process name, so every member sees
 * the same list. Each brings a value: its flag, the participants it knows
 * failed and (shrink) its free context ids. The decision is the AND of the
 * flags, the union of the failed sets and the intersection of the free
 * ids, and it is the same at every survivor however many fail meanwhile.
 *
 * The protocol is a coordinator's two rounds, as in Paxos, with the
 * failure detector of ft/failure.c (a process is reported failed only
 * once it is dead). The coordinator is the first participant not known
 * failed; its ballot is its place in the list, so a later coordinator has
 * a higher one.
 *   1. QUERY(b) to every live participant; each answers STATE: its value,
 *      the proposal it accepted last (with that proposal's ballot), or
 *      the decision if it has one; and promises to ignore ballots below b.
 *   2. The coordinator takes a decision it is told of, else the accepted
 *      proposal of the highest ballot, else combines the values; sends
 *      PROPOSE(b, v); each participant that promised nothing higher
 *      accepts and answers ACK.
 *   3. With every live participant's ACK, COMMIT(v) to all.
 * A participant receiving COMMIT passes it to every other live
 * participant before it decides, so once anyone has decided every live
 * participant hears of it, even participants that have already left the
 * call (a process that decided answers later questions about that
 * agreement from a short history). When a coordinator fails, the next
 * participant in the list takes over with its own ballot; a value any
 * participant may have decided was accepted by every live participant,
 * so the next coordinator proposes it again.
 *
 * Messages travel on the communicator's collective context with a
 * reserved tag (TIDE_FT_AGREE_TAG) and are handled where they arrive,
 * also on revoked communicators. Messages for an agreement this process
 * has not started yet (or for a communicator it has not made yet) wait
 * in an inbox.
 */
#include "runtime/api.h"
#include "comm/endpoints.h"
#include "coll/algo.h"
#include "comm/comm.h"
#include "comm/context.h"
#include "comm/group.h"
#include "ft/ft.h"
#include "mpi-ext.h"
#include "pt2pt/progress.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/request.h"
#include "runtime/proc.h"

#include <stdlib.h>
#include <string.h>

#define AGREE_MAGIC 0x54464131u /* "TFA1" */
#define HISTORY 8
#define INBOX_MAX 4096

enum { QUERY = 1, STATE, PROPOSE, ACK, COMMIT };

/* A value's entry for each participant: bits combined by OR */
enum {
    FAILED = 1,  /* some participant knows it failed */
    UNACKED = 2, /* some participant has not acknowledged its failure */
};

/* What a message carries (both ends are this library). */
struct wire {
    uint32_t magic;
    uint32_t kind;
    uint32_t seq;
    uint32_t ballot;
    uint32_t nparts;
    int32_t flag;
    uint32_t accepted;     /* STATE: it holds an accepted proposal (of acc_ballot) */
    uint32_t acc_ballot;
    uint32_t decided;      /* STATE: the value is its decision */
    uint32_t has_offer;
    struct tide_ctx_offer offer;
    uint8_t failed[];      /* nparts */
};

struct value {
    int flag;
    bool has_offer;
    struct tide_ctx_offer offer;
    uint8_t *failed; /* nparts */
};

struct agreement {
    struct agreement *next;
    struct tide_comm *c;
    uint32_t seq;
    int nparts, me;
    struct tide_proc **parts;
    struct tide_comm **via;   /* through which communicator each is reached */
    int *via_rank;
    bool want_ctx;
    struct tide_ctx_claim claim;
    struct value mine;
    /* as a participant */
    uint32_t promised;
    bool accepted;
    uint32_t acc_ballot;
    struct value acc;
    bool decided;
    struct value dec;
    /* as the coordinator */
    bool coordinating;
    int phase;                /* QUERY: collecting states; PROPOSE: collecting acks */
    uint32_t ballot;
    uint8_t *heard;           /* per participant: answered this phase */
    bool any_decided, any_accepted;
    uint32_t best_ballot;
    struct value best;        /* the value to propose */
    void (*done)(const struct tide_ft_outcome *o, int err, void *arg);
    void *arg;
};

/* A decided agreement a late participant may still ask about. */
struct tide_ft_agree_hist {
    uint32_t seq[HISTORY];
    bool used[HISTORY];
    int nparts[HISTORY];
    struct wire *commit[HISTORY]; /* the COMMIT message to send again */
    unsigned next;
};

struct inbox_msg {
    struct inbox_msg *next;
    uint32_t ctx;
    struct tide_proc *from;
    size_t len;
    struct wire w;
};

static struct agreement *active;
static struct inbox_msg *inbox;
static int ninbox;

static size_t wire_len(int nparts)
{
    return sizeof(struct wire) + (size_t)nparts;
}

static int part_of(const struct agreement *a, const struct tide_proc *p)
{
    for (int i = 0; i < a->nparts; i++)
        if (a->parts[i] == p)
            return i;
    return -1;
}

/* Send w to participant i; it goes out by itself. */
static void send_to(struct agreement *a, int i, const struct wire *w)
{
    if (i == a->me || a->parts[i]->failed)
        return;
    struct tide_comm *via = a->via[i];
    tide_send_detached(w, wire_len(a->nparts), a->via_rank[i], TIDE_FT_AGREE_TAG, via, via->context_id + 1);
}

static void send_all(struct agreement *a, const struct wire *w)
{
    for (int i = 0; i < a->nparts; i++)
        send_to(a, i, w);
}

static struct wire *wire_new(const struct agreement *a, int kind, uint32_t ballot, const struct value *v)
{
    struct wire *w = calloc(1, wire_len(a->nparts));
    if (!w)
        return NULL;
    w->magic = AGREE_MAGIC;
    w->kind = (uint32_t)kind;
    w->seq = a->seq;
    w->ballot = ballot;
    w->nparts = (uint32_t)a->nparts;
    if (v) {
        w->flag = v->flag;
        w->has_offer = v->has_offer;
        w->offer = v->offer;
        memcpy(w->failed, v->failed, (size_t)a->nparts);
    }
    return w;
}

/* A message of this kind to every live participant. */
static void broadcast(struct agreement *a, int kind, uint32_t ballot, const struct value *v)
{
    struct wire *w = wire_new(a, kind, ballot, v);
    if (w) {
        send_all(a, w);
        free(w);
    }
}

static void value_from_wire(struct value *v, const struct wire *w, int nparts)
{
    v->flag = w->flag;
    v->has_offer = w->has_offer != 0;
    v->offer = w->offer;
    memcpy(v->failed, w->failed, (size_t)nparts);
}

static void value_copy(struct value *to, const struct value *from, int nparts)
{
    to->flag = from->flag;
    to->has_offer = from->has_offer;
    to->offer = from->offer;
    memcpy(to->failed, from->failed, (size_t)nparts);
}

/* to = to combined with from */
static void value_combine(struct value *to, const struct value *from, int nparts)
{
    to->flag &= from->flag;
    for (int i = 0; i < nparts; i++)
        to->failed[i] |= from->failed[i];
    if (from->has_offer) {
        if (to->has_offer)
            tide_context_combine(&to->offer, &from->offer);
        else
            to->offer = from->offer;
        to->has_offer = true;
    }
}

/* ---- history ---- */

static void remember(struct agreement *a)
{
    struct tide_ft_comm *ft = tide_ft_comm_of(a->c);
    if (!ft)
        return;
    if (!ft->hist && !(ft->hist = calloc(1, sizeof *ft->hist)))
        return;
    struct tide_ft_agree_hist *h = ft->hist;
    unsigned k = h->next++ % HISTORY;
    free(h->commit[k]);
    h->commit[k] = wire_new(a, COMMIT, 0, &a->dec);
    h->used[k] = h->commit[k] != NULL;
    h->seq[k] = a->seq;
    h->nparts[k] = a->nparts;
}

static const struct wire *recall(struct tide_comm *c, uint32_t seq, int *nparts)
{
    struct tide_ft_agree_hist *h = c->ft ? c->ft->hist : NULL;
    for (int k = 0; h && k < HISTORY; k++)
        if (h->used[k] && h->seq[k] == seq) {
            *nparts = h->nparts[k];
            return h->commit[k];
        }
    return NULL;
}

void tide_ft_agree_forget(struct tide_comm *c)
{
    struct tide_ft_agree_hist *h = c->ft ? c->ft->hist : NULL;
    if (!h)
        return;
    for (int k = 0; k < HISTORY; k++)
        free(h->commit[k]);
    free(h);
    c->ft->hist = NULL;
}

/* ---- the end of an agreement ---- */

static void agreement_free(struct agreement *a)
{
    if (a->want_ctx)
        tide_context_claim_end(&a->claim);
    free(a->mine.failed);
    free(a->acc.failed);
    free(a->dec.failed);
    free(a->best.failed);
    free(a->heard);
    free(a->parts);
    free(a->via);
    free(a->via_rank);
    tide_comm_release(a->c);
    free(a);
}

static void finish(struct agreement *a)
{
    for (struct agreement **pp = &active; *pp; pp = &(*pp)->next)
        if (*pp == a) {
            *pp = a->next;
            break;
        }
    remember(a);
    struct tide_ft_outcome o = {.flag = a->dec.flag, .nparts = a->nparts, .parts = a->parts, .failed = a->dec.failed,
                                .ctx_a = TIDE_CONTEXT_NONE, .ctx_b = TIDE_CONTEXT_NONE};
    int err = MPI_SUCCESS;
    if (a->want_ctx) {
        struct tide_ctx_offer off = a->dec.offer;
        o.ctx_a = a->dec.has_offer ? tide_context_pick(&off) : TIDE_CONTEXT_NONE;
        if (o.ctx_a != TIDE_CONTEXT_NONE) {
            uint32_t bit = o.ctx_a / 2 - off.start * 64;
            off.mask[bit / 64] &= ~(1ull << (bit % 64));
            o.ctx_b = tide_context_pick(&off);
        }
        tide_context_claim_end(&a->claim);
        a->want_ctx = false;
        if (o.ctx_b == TIDE_CONTEXT_NONE)
            err = tide_err(MPI_ERR_INTERN, "MPIX_Comm_shrink: no context id is free at every survivor");
    }
    /* what the survivors agreed failed, every one of them knows failed */
    for (int i = 0; i < a->nparts; i++)
        if (a->dec.failed[i] & FAILED)
            tide_ft_proc_failed(a->parts[i]);
    a->done(&o, err, a->arg);
    agreement_free(a);
}

/* Decide v: tell every live participant first (see the top). */
static void decide(struct agreement *a, const struct value *v)
{
    if (a->decided)
        return;
    a->decided = true;
    value_copy(&a->dec, v, a->nparts);
    broadcast(a, COMMIT, 0, v);
    finish(a);
}

/* ---- coordinating ---- */

static bool phase_complete(const struct agreement *a)
{
    for (int i = 0; i < a->nparts; i++)
        if (!a->heard[i] && !a->parts[i]->failed)
            return false;
    return true;
}

static void coordinate_query(struct agreement *a);

static void coordinate_step(struct agreement *a)
{
    if (!a->coordinating || a->decided || !phase_complete(a))
        return;
    if (a->phase == QUERY) {
        if (!a->any_decided && !a->any_accepted) {
            /* a fresh value: what everyone brought, and every failure
             * known here now */
            for (int i = 0; i < a->nparts; i++)
                if (a->parts[i]->failed)
                    a->best.failed[i] |= FAILED;
        }
        if (a->any_decided) {
            decide(a, &a->best);
            return;
        }
        a->phase = PROPOSE;
        memset(a->heard, 0, (size_t)a->nparts);
        /* accept it here */
        a->promised = a->ballot;
        a->accepted = true;
        a->acc_ballot = a->ballot;
        value_copy(&a->acc, &a->best, a->nparts);
        a->heard[a->me] = 1;
        broadcast(a, PROPOSE, a->ballot, &a->best);
        coordinate_step(a);
        return;
    }
    decide(a, &a->best);
}

/* Take over as coordinator (again: a fresh ballot round). */
static void coordinate_query(struct agreement *a)
{
    a->coordinating = true;
    a->phase = QUERY;
    a->ballot = (uint32_t)a->me + 1;
    if (a->promised > a->ballot)
        a->ballot = a->promised; /* never below what this process promised */
    a->promised = a->ballot;
    memset(a->heard, 0, (size_t)a->nparts);
    a->any_decided = false;
    a->any_accepted = a->accepted;
    a->best_ballot = a->accepted ? a->acc_ballot : 0;
    value_copy(&a->best, a->accepted ? &a->acc : &a->mine, a->nparts);
    a->heard[a->me] = 1;
    broadcast(a, QUERY, a->ballot, NULL);
    coordinate_step(a);
}

static int coordinator_of(const struct agreement *a)
{
    for (int i = 0; i < a->nparts; i++)
        if (!a->parts[i]->failed)
            return i;
    return a->me;
}

static void check_coordinator(struct agreement *a)
{
    if (!a->decided && !a->coordinating && coordinator_of(a) == a->me)
        coordinate_query(a);
    else if (a->coordinating)
        coordinate_step(a);
}

/* ---- messages ---- */

static void reply(struct agreement *a, int to, int kind, uint32_t ballot)
{
    struct wire *w;
    if (kind == STATE) {
        const struct value *v = a->accepted ? &a->acc : &a->mine;
        w = wire_new(a, STATE, ballot, v);
        if (w) {
            w->accepted = a->accepted;
            w->acc_ballot = a->acc_ballot;
            if (!a->accepted) {
                /* what this process knows failed, now */
                for (int i = 0; i < a->nparts; i++)
                    if (a->parts[i]->failed)
                        w->failed[i] |= FAILED;
            }
        }
    } else {
        w = wire_new(a, kind, ballot, NULL);
    }
    if (w) {
        send_to(a, to, w);
        free(w);
    }
}

static void handle(struct agreement *a, int from, const struct wire *w)
{
    if (a->decided)
        return;
    struct value v = {.failed = calloc(1, (size_t)a->nparts)};
    if (!v.failed)
        return;
    value_from_wire(&v, w, a->nparts);
    switch (w->kind) {
    case QUERY:
        if (w->ballot >= a->promised) {
            a->promised = w->ballot;
            if (a->coordinating && w->ballot > a->ballot)
                a->coordinating = false; /* a later coordinator (this one was thought failed) */
            reply(a, from, STATE, w->ballot);
        }
        break;
    case STATE:
        if (a->coordinating && a->phase == QUERY && w->ballot == a->ballot && !a->heard[from]) {
            a->heard[from] = 1;
            if (w->decided) {
                a->any_decided = true;
                value_copy(&a->best, &v, a->nparts);
            } else if (!a->any_decided && w->accepted && (!a->any_accepted || w->acc_ballot > a->best_ballot)) {
                a->any_accepted = true;
                a->best_ballot = w->acc_ballot;
                value_copy(&a->best, &v, a->nparts);
            } else if (!a->any_decided && !a->any_accepted) {
                value_combine(&a->best, &v, a->nparts);
            }
            coordinate_step(a);
        }
        break;
    case PROPOSE:
        if (w->ballot >= a->promised) {
            a->promised = w->ballot;
            a->accepted = true;
            a->acc_ballot = w->ballot;
            value_copy(&a->acc, &v, a->nparts);
            reply(a, from, ACK, w->ballot);
        }
        break;
    case ACK:
        if (a->coordinating && a->phase == PROPOSE && w->ballot == a->ballot && !a->heard[from]) {
            a->heard[from] = 1;
            coordinate_step(a);
        }
        break;
    case COMMIT:
        decide(a, &v);
        break;
    }
    free(v.failed);
}

static struct agreement *find_active(struct tide_comm *c, uint32_t seq)
{
    for (struct agreement *a = active; a; a = a->next)
        if (a->c == c && a->seq == seq)
            return a;
    return NULL;
}

/* Is ctx one of c's collective contexts? */
static bool ctx_of(const struct tide_comm *c, uint32_t ctx)
{
    return c->context_id + 1 == ctx || (c->is_inter && c->local_comm && c->local_comm->context_id + 1 == ctx);
}

/* A question about an agreement decided here already: the decision. */
static void answer_late(struct tide_comm *c, struct tide_proc *from, uint32_t ctx, const struct wire *w)
{
    int nparts;
    const struct wire *commit = recall(c, w->seq, &nparts);
    if (!commit || (w->kind != QUERY && w->kind != PROPOSE) || (uint32_t)nparts != w->nparts)
        return;
    /* reach it the way it reached us */
    bool via_local = c->is_inter && c->local_comm && c->local_comm->context_id + 1 == ctx;
    struct tide_comm *via = via_local ? c->local_comm : c;
    struct tide_group *g = via->is_inter ? via->remote_group : via->group;
    int rank = tide_group_rank_of(g, from);
    if (rank == MPI_UNDEFINED)
        return;
    tide_send_detached(commit, wire_len(nparts), rank, TIDE_FT_AGREE_TAG, via, via->context_id + 1);
}

static void keep(struct tide_proc *from, uint32_t ctx, const struct wire *w, size_t len)
{
    if (ninbox >= INBOX_MAX)
        return;
    struct inbox_msg *m = malloc(sizeof *m - sizeof m->w + len);
    if (!m)
        return;
    m->ctx = ctx;
    m->from = from;
    m->len = len;
    memcpy(&m->w, w, len);
    m->next = NULL;
    struct inbox_msg **pp = &inbox;
    while (*pp)
        pp = &(*pp)->next;
    *pp = m; /* in arrival order */
    ninbox++;
}

/* The communicator whose agreements travel on collective context ctx:
 * an intercommunicator before the local communicator it is built on. */
static struct tide_comm *comm_by_ctx(uint32_t ctx)
{
    struct tide_comm *exact = NULL;
    unsigned end = tide_handle_end(TIDE_KIND_COMM);
    for (unsigned i = 0; i < end; i++) {
        struct tide_comm *c = tide_handle_slot(TIDE_KIND_COMM, i);
        if (!c)
            continue;
        if (c->is_inter && c->local_comm && c->local_comm->context_id + 1 == ctx)
            return c;
        if (c->context_id + 1 == ctx)
            exact = c;
    }
    return exact;
}

static void arrival(struct tide_proc *from, uint32_t ctx, const struct wire *w, size_t plen);

void tide_ft_agree_arrival(struct tide_proc *from, uint32_t ctx, const void *payload, size_t plen)
{
    if (plen < sizeof(struct wire) || plen > wire_len(1 << 24))
        return;
    /* a transport's payload need not be aligned for the structure */
    struct wire *w = malloc(plen);
    if (!w)
        return;
    memcpy(w, payload, plen);
    if (w->magic == AGREE_MAGIC && plen == wire_len((int)w->nparts))
        arrival(from, ctx, w, plen);
    free(w);
}

static void arrival(struct tide_proc *from, uint32_t ctx, const struct wire *w, size_t plen)
{
    struct tide_comm *c = comm_by_ctx(ctx);
    if (!c) {
        keep(from, ctx, w, plen); /* for a communicator still being made here */
        return;
    }
    struct agreement *a = find_active(c, w->seq);
    if (a) {
        int i = part_of(a, from);
        if (i >= 0 && (uint32_t)a->nparts == w->nparts)
            handle(a, i, w);
        return;
    }
    uint32_t started = c->ft ? c->ft->agree_calls : 0;
    if ((int32_t)(w->seq - started) < 0)
        answer_late(c, from, ctx, w);
    else
        keep(from, ctx, w, plen);
}

static bool still_active(const struct agreement *a)
{
    for (struct agreement *x = active; x; x = x->next)
        if (x == a)
            return true;
    return false;
}

/* Messages that waited for a: handled now (a may be decided, and gone,
 * by one of them). */
static void take_inbox(struct agreement *a)
{
    struct tide_comm *c = a->c;
    uint32_t seq = a->seq;
    struct inbox_msg **pp = &inbox;
    while (*pp) {
        struct inbox_msg *m = *pp;
        if (!ctx_of(c, m->ctx) || m->w.seq != seq) {
            pp = &m->next;
            continue;
        }
        *pp = m->next;
        ninbox--;
        if (still_active(a)) {
            int i = part_of(a, m->from);
            if (i >= 0 && (uint32_t)a->nparts == m->w.nparts)
                handle(a, i, &m->w);
        }
        free(m);
    }
}

void tide_ft_agree_failure(struct tide_proc *p)
{
    /* the agreements that wait for p, taken first: each may finish (and
     * go) while the next is looked at */
    int n = 0;
    for (struct agreement *a = active; a; a = a->next)
        n++;
    if (!n)
        return;
    struct agreement **v = malloc((size_t)n * sizeof *v);
    if (!v)
        return;
    int k = 0;
    for (struct agreement *a = active; a; a = a->next)
        if (!a->decided && part_of(a, p) >= 0)
            v[k++] = a;
    for (int i = 0; i < k; i++)
        if (still_active(v[i]))
            check_coordinator(v[i]);
    free(v);
}

/* ---- starting ---- */

static int cmp_proc(const void *x, const void *y)
{
    return tide_proc_cmp(*(struct tide_proc *const *)x, *(struct tide_proc *const *)y);
}

int tide_ft_agree_start(struct tide_comm *c, int flag, bool want_ctx,
                        void (*done)(const struct tide_ft_outcome *o, int err, void *arg), void *arg)
{
    struct tide_ft_comm *ft = tide_ft_comm_of(c);
    struct agreement *a = ft ? calloc(1, sizeof *a) : NULL;
    if (!a)
        return tide_err(MPI_ERR_NO_MEM, "agreement: out of memory");
    struct tide_group *lg = c->is_inter ? c->local_comm->group : c->group;
    struct tide_group *rg = c->is_inter ? c->remote_group : NULL;
    int n = lg->size + (rg ? rg->size : 0);
    a->parts = malloc((size_t)n * sizeof *a->parts);
    a->via = malloc((size_t)n * sizeof *a->via);
    a->via_rank = malloc((size_t)n * sizeof *a->via_rank);
    a->heard = calloc(1, (size_t)n);
    a->mine.failed = calloc(1, (size_t)n);
    a->acc.failed = calloc(1, (size_t)n);
    a->dec.failed = calloc(1, (size_t)n);
    a->best.failed = calloc(1, (size_t)n);
    if (!a->parts || !a->via || !a->via_rank || !a->heard || !a->mine.failed || !a->acc.failed || !a->dec.failed ||
        !a->best.failed) {
        tide_comm_retain(c);
        a->c = c;
        agreement_free(a);
        return tide_err(MPI_ERR_NO_MEM, "agreement: out of memory");
    }
    for (int i = 0; i < lg->size; i++)
        a->parts[i] = lg->procs[i];
    for (int i = 0; rg && i < rg->size; i++)
        a->parts[lg->size + i] = rg->procs[i];
    qsort(a->parts, (size_t)n, sizeof *a->parts, cmp_proc);
    a->nparts = n;
    for (int i = 0; i < n; i++) {
        int r = tide_group_rank_of(lg, a->parts[i]);
        if (r != MPI_UNDEFINED) {
            a->via[i] = c->is_inter ? c->local_comm : c;
            a->via_rank[i] = r;
        } else {
            a->via[i] = c;
            a->via_rank[i] = tide_group_rank_of(rg, a->parts[i]);
        }
        if (a->parts[i] == tide.me)
            a->me = i;
        if (a->parts[i]->failed)
            a->mine.failed[i] = FAILED;
    }
    /* which of them this process has not acknowledged as failed */
    struct tide_proc **f;
    int nf = tide_ft_comm_failed(c, &f);
    int nacked = ft->nacked < nf ? ft->nacked : nf;
    for (int i = 0; i < n; i++) {
        bool acked = false;
        for (int k = 0; k < nacked && !acked; k++)
            acked = f[k] == a->parts[i];
        if (!acked)
            a->mine.failed[i] |= UNACKED;
    }
    free(f);
    tide_comm_retain(c);
    a->c = c;
    a->seq = ft->agree_calls++;
    a->mine.flag = flag;
    a->want_ctx = want_ctx;
    if (want_ctx) {
        tide_context_claim_init(&a->claim, tide_ctx_key(c->context_id + 1, a->seq) | 1ull << 32);
        tide_context_offer(0, &a->mine.offer, &a->claim);
        a->mine.has_offer = true;
    }
    a->done = done;
    a->arg = arg;
    a->next = active;
    active = a;
    take_inbox(a);
    if (still_active(a))
        check_coordinator(a);
    return MPI_SUCCESS;
}

/* ---- MPIX_Comm_agree, MPIX_Comm_iagree, and a barrier made of one ---- */

struct agree_call {
    int *flag;
    struct tide_comm *c;
    bool done;
    int err;
    struct tide_request *req; /* iagree */
};

/* The flag, and the error if the decision names a failure not every
 * survivor had acknowledged. */
static void agree_done(const struct tide_ft_outcome *o, int err, void *arg)
{
    struct agree_call *ac = arg;
    *ac->flag = o->flag;
    if (err == MPI_SUCCESS) {
        /* the same error at every survivor: a failure the decision names
         * that some participant has not acknowledged */
        for (int i = 0; i < o->nparts && err == MPI_SUCCESS; i++)
            if ((o->failed[i] & (FAILED | UNACKED)) == (FAILED | UNACKED))
                err = tide_err(MPIX_ERR_PROC_FAILED,
                               "MPIX_Comm_agree: process %.64s:%u failed and not every survivor had acknowledged it "
                               "(the flag is the survivors' agreed value all the same)",
                               o->parts[i]->nspace, o->parts[i]->rank);
    }
    ac->err = err;
    ac->done = true;
    if (ac->req) {
        ac->req->error = err;
        ac->req->status.MPI_ERROR = err;
        struct tide_request *r = ac->req;
        free(ac);
        r->cb_data = NULL;
        tide_request_complete(r);
    }
}

static bool call_done(void *arg)
{
    return ((struct agree_call *)arg)->done;
}

static struct tide_comm *agree_comm(MPI_Comm comm, int *flag, const char *fn, int *rc)
{
    struct tide_comm *c = tide_comm_get(comm);
    if (!c) {
        *rc = TIDE_ERR(MPI_ERR_COMM, "%s: invalid communicator%s (argument comm)", fn,
                       comm == MPI_COMM_NULL ? " MPI_COMM_NULL" : "");
        return NULL;
    }
    if (!flag) {
        *rc = TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: flag must not be NULL", fn);
        return NULL;
    }
    if ((*rc = tide_ep_refuse(c, fn)))
        return NULL;
    return c;
}

int tide_ft_barrier(struct tide_comm *c)
{
    int flag = 1;
    struct agree_call ac = {.flag = &flag, .c = c};
    int rc = tide_ft_agree_start(c, flag, false, agree_done, &ac);
    if (rc == MPI_SUCCESS) {
        tide_progress_until(call_done, &ac);
        rc = ac.err;
    }
    return rc;
}

int PMPIX_Comm_agree(MPI_Comm comm, int *flag)
{
    TIDE_API_ENTER();
    int rc = MPI_SUCCESS;
    struct tide_comm *c = agree_comm(comm, flag, "MPIX_Comm_agree", &rc);
    if (!c)
        return rc;
    struct agree_call ac = {.flag = flag, .c = c};
    tide_comm_retain(c);
    rc = tide_ft_agree_start(c, *flag, false, agree_done, &ac);
    if (rc == MPI_SUCCESS) {
        tide_progress_until(call_done, &ac);
        rc = ac.err;
    }
    rc = rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
    tide_comm_release(c);
    return rc;
}
TIDE_ALIAS(MPIX_Comm_agree)

int tide_ft_start_nb(struct tide_comm *c, int flag, bool want_ctx,
                     void (*done)(const struct tide_ft_outcome *o, int err, void *arg), void *state,
                     struct tide_request **reqp, MPI_Request *request)
{
    struct tide_request *r = state ? tide_request_new(TIDE_REQ_OTHER) : NULL;
    if (!r) {
        free(state);
        return tide_err(MPI_ERR_NO_MEM, "agreement: out of memory");
    }
    *reqp = r;
    r->comm = c;
    r->cb_data = state;
    tide_comm_retain(c);
    *request = r->handle;
    int rc = tide_ft_agree_start(c, flag, want_ctx, done, state);
    if (rc != MPI_SUCCESS) {
        r->cb_data = NULL;
        free(state);
        r->complete = true;
        tide_request_free(r);
        *request = MPI_REQUEST_NULL;
    }
    return rc;
}

int PMPIX_Comm_iagree(MPI_Comm comm, int *flag, MPI_Request *request)
{
    TIDE_API_ENTER();
    int rc = MPI_SUCCESS;
    struct tide_comm *c = agree_comm(comm, flag, "MPIX_Comm_iagree", &rc);
    if (!c)
        return rc;
    if (!request)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "MPIX_Comm_iagree: request must not be NULL");
    struct agree_call *ac = calloc(1, sizeof *ac);
    if (ac) {
        ac->flag = flag;
        ac->c = c;
    }
    rc = tide_ft_start_nb(c, *flag, false, agree_done, ac, ac ? &ac->req : NULL, request);
    return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
}
TIDE_ALIAS(MPIX_Comm_iagree)
