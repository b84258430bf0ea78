/*
 * context.c: context ids: this process's bitmap of the ids it uses, and
 * how a group agrees on a new one.
 *
 * The bitmap has one bit per even id (the odd id after it goes with it).
 * An agreement must find an id free at every member, cost little when
 * tens of thousands of communicators are alive, and never collide when
 * disjoint groups (or two threads of one process) agree at the same time.
 *
 * Scheme: a moving window, agreed in one reduction. Each member offers the
 * window of TIDE_CONTEXT_WINDOW bitmap words (512 ids) that starts at its
 * lowest word with a free id at or above the round's floor. Offers combine
 * by taking the higher start and AND-ing the masks word by word, a word
 * outside a member's window counting as not free there; that is
 * commutative and associative, so a recursive-doubling allreduce of one
 * small offer leaves every member with the same result, and any bit set
 * in it is an id free at all of them. The lowest is taken. If none is set,
 * everyone computes the same next floor: the combined start when it is
 * above the floor (the members' windows did not overlap; now they start
 * together), else floor + window (they all offered this very window and it
 * has nothing in common). The floor rises every round, so an agreement
 * ends; usually it takes one round, since members tend to have the same
 * low ids free (a dup/free loop reuses the same id at every member).
 *
 * Members that will not use the id (MPI_UNDEFINED in a split, processes
 * outside the group of MPI_Comm_create) offer "anything" and constrain
 * nothing. Disjoint groups agree only among their members, and each
 * process checks only its own bitmap, so they never interfere.
 *
 * Agreements of one process can run at the same time (MPI_THREAD_MULTIPLE,
 * pending MPI_Comm_idup requests), so each registers for its duration and
 * claims the free bits of its offer until its round ends. None ever waits
 * for another: an agreement whose other members are busy elsewhere (say in
 * a blocking MPI_Comm_dup of another communicator, or an
 * MPI_Comm_create_group, that this process must join before they come
 * back to it) may hold its claim indefinitely, and the agreements this
 * process must finish meanwhile have to find ids without it. So an
 * agreement offers the free bits that others have not claimed; when such
 * claims make the members' windows miss each other, the round finds
 * nothing and the next one starts at the combined (higher) window, past
 * the claim that stays.
 *
 * Claims alone let two agreements that cross (each started first at some
 * of their common members) push each other's windows up every round
 * until the ids run out, so they give way by key: a key names the
 * agreement the same way at every member (its communicator's context and
 * collective sequence number). An offer made while another agreement is
 * registered in the process is "shared", and an agreement with a lower
 * key offers the bits of a higher one's shared offer as if unclaimed.
 * The agreement with the lowest key among those crossing is then held
 * back at a member only by an offer made there before it registered (not
 * shared), whose round ends; after that it meets only used ids and ids
 * held by confirmations (one each), as if it were alone, and ends. The
 * others are pushed up only while it runs, then the next lowest goes,
 * and so on: windows climb past a bounded number of claims, not round
 * after round. An id found by rounds whose offers were shared anywhere (the
 * combined offer says so) may have been offered by a lower key too, so
 * it is confirmed by one more round: each member offers the id alone if
 * no other agreement has used it, claimed it in a way this one must
 * respect, or confirmed it, and holds it against the others until the
 * round ends; an id not confirmed everywhere is sought again from the
 * same floor. Two agreements of one process never both take an id: one
 * found without a confirmation was claimed by an offer that nobody could
 * take (not shared), and of two confirmations of one id, the later sees
 * the earlier's hold, while the higher key sees the lower's claim.
 * Without concurrent agreements nothing is shared and an agreement costs
 * one reduction per round.
 *
 * The lowest word that may hold a free bit is remembered, so finding a
 * member's window costs nothing when the low ids are all used.
 */
#include "runtime/api.h"
#include "comm/comm.h"
#include "comm/context.h"
#include "comm/exchange.h"
#include "datatype/datatype.h"
#include "pt2pt/progress.h"
#include "pt2pt/pt2pt.h"

#include <string.h>

#define NWORDS TIDE_CONTEXT_MASK_WORDS
#define NSLOTS (TIDE_CONTEXT_MAX / 2)

static uint64_t used[NWORDS];
static uint32_t hint;   /* no word below it has a free bit */
static unsigned nused;
static struct tide_ctx_claim *agreements; /* registered in this process */

void tide_context_reserve(uint32_t id)
{
    uint32_t i = id / 2;
    if (i >= NSLOTS)
        return;
    uint64_t bit = 1ull << (i % 64);
    if (!(used[i / 64] & bit)) {
        used[i / 64] |= bit;
        nused++;
    }
}

void tide_context_release(uint32_t id)
{
    uint32_t i = id / 2;
    if (i >= NSLOTS || id < TIDE_CONTEXT_FIXED_END)
        return;
    uint64_t bit = 1ull << (i % 64);
    if (used[i / 64] & bit) {
        used[i / 64] &= ~bit;
        nused--;
        if (i / 64 < hint)
            hint = i / 64;
    }
}

int tide_context_is_free(uint32_t id)
{
    uint32_t i = id / 2;
    return i < NSLOTS && !(used[i / 64] & (1ull << (i % 64)));
}

static uint64_t taken_for(const struct tide_ctx_claim *me, uint32_t w);

void tide_context_free_mask(uint64_t *mask, int words)
{
    for (int w = 0; w < words; w++)
        mask[w] = w < (int)NWORDS ? ~taken_for(NULL, (uint32_t)w) : 0;
}

uint32_t tide_context_lowest(const uint64_t *mask, int words)
{
    for (int w = 0; w < words && w < (int)NWORDS; w++)
        if (mask[w])
            return (uint32_t)(w * 64 + __builtin_ctzll(mask[w])) * 2;
    return UINT32_MAX;
}

unsigned tide_context_in_use(void)
{
    return nused;
}

/* ---- offers ---- */

/* May agreement me offer (or confirm) what c claims? Only c's shared
 * bits, and only if me has the lower key: c then confirms what it finds
 * and gives way to me. */
static bool may_take(const struct tide_ctx_claim *me, const struct tide_ctx_claim *c)
{
    return me && c->shared && c->key > me->key;
}

/* The bits of word w that agreement me must not offer (me NULL: that no
 * agreement may take): used, or claimed or being confirmed by another. */
static uint64_t taken_for(const struct tide_ctx_claim *me, uint32_t w)
{
    uint64_t t = used[w];
    for (const struct tide_ctx_claim *c = agreements; c; c = c->next) {
        if (c == me)
            continue;
        if (c->lock != TIDE_CONTEXT_NONE && c->lock / 128 == w)
            t |= 1ull << (c->lock / 2 % 64);
        if (c->held && w >= c->start && w - c->start < TIDE_CONTEXT_WINDOW && !may_take(me, c))
            t |= c->bits[w - c->start];
    }
    return t;
}

/* Lowest word >= floor with a bit agreement me may offer, or NWORDS. */
static uint32_t lowest_word(const struct tide_ctx_claim *me, uint32_t floor_word)
{
    uint32_t w = floor_word > hint ? floor_word : hint;
    while (w < NWORDS && used[w] == ~0ull)
        w++;
    if (floor_word <= hint)
        hint = w;
    while (w < NWORDS && taken_for(me, w) == ~0ull)
        w++;
    return w;
}

void tide_context_claim_init(struct tide_ctx_claim *cl, uint64_t key)
{
    memset(cl, 0, sizeof *cl);
    cl->key = key;
    cl->lock = TIDE_CONTEXT_NONE;
    cl->registered = true;
    cl->next = agreements;
    agreements = cl;
}

void tide_context_offer(uint32_t floor_word, struct tide_ctx_offer *o, struct tide_ctx_claim *cl)
{
    tide_context_unclaim(cl);
    memset(o, 0, sizeof *o);
    uint32_t w = lowest_word(cl, floor_word);
    bool others = false;
    for (const struct tide_ctx_claim *c = agreements; c && !others; c = c->next)
        others = c != cl;
    cl->held = true;
    cl->shared = others;
    cl->start = w;
    o->start = w;
    o->shared = others;
    for (int j = 0; j < TIDE_CONTEXT_WINDOW; j++) {
        uint64_t f = w + j < NWORDS ? ~taken_for(cl, w + j) : 0;
        o->mask[j] = f;
        cl->bits[j] = f;
    }
}

void tide_context_offer_confirm(uint32_t id, struct tide_ctx_offer *o, struct tide_ctx_claim *cl)
{
    tide_context_unclaim(cl);
    memset(o, 0, sizeof *o);
    uint32_t w = id / 128;
    o->start = w;
    uint64_t bit = 1ull << (id / 2 % 64);
    if (w < NWORDS && !(taken_for(cl, w) & bit)) {
        o->mask[0] = bit;
        cl->lock = id;
    }
}

void tide_context_offer_any(uint32_t floor_word, struct tide_ctx_offer *o)
{
    memset(o, 0, sizeof *o);
    o->start = floor_word;
    o->any = 1;
    for (int j = 0; j < TIDE_CONTEXT_WINDOW; j++)
        o->mask[j] = ~0ull;
}

void tide_context_unclaim(struct tide_ctx_claim *cl)
{
    cl->held = false;
    cl->shared = false;
    cl->lock = TIDE_CONTEXT_NONE;
    memset(cl->bits, 0, sizeof cl->bits);
}

void tide_context_claim_end(struct tide_ctx_claim *cl)
{
    tide_context_unclaim(cl);
    if (!cl->registered)
        return;
    for (struct tide_ctx_claim **pp = &agreements; *pp; pp = &(*pp)->next)
        if (*pp == cl) {
            *pp = cl->next;
            break;
        }
    cl->registered = false;
    cl->next = NULL;
}

static uint64_t word_of(const struct tide_ctx_offer *o, uint32_t w)
{
    return (w >= o->start && w - o->start < TIDE_CONTEXT_WINDOW) ? o->mask[w - o->start] : 0;
}

void tide_context_combine(struct tide_ctx_offer *acc, const struct tide_ctx_offer *in)
{
    uint32_t shared = acc->shared | in->shared;
    if (in->any) {
        if (acc->any && in->start > acc->start)
            acc->start = in->start;
        acc->shared = shared;
        return;
    }
    if (acc->any) {
        *acc = *in;
        acc->shared = shared;
        return;
    }
    acc->shared = shared;
    uint32_t s = acc->start > in->start ? acc->start : in->start;
    uint64_t m[TIDE_CONTEXT_WINDOW];
    for (uint32_t j = 0; j < TIDE_CONTEXT_WINDOW; j++)
        m[j] = word_of(acc, s + j) & word_of(in, s + j);
    acc->start = s;
    memcpy(acc->mask, m, sizeof m);
}

uint32_t tide_context_pick(const struct tide_ctx_offer *o)
{
    for (uint32_t j = 0; j < TIDE_CONTEXT_WINDOW; j++) {
        uint64_t w = o->start + j;
        if (w >= NWORDS)
            break;
        if (o->mask[j])
            return (uint32_t)(w * 64 + (uint64_t)__builtin_ctzll(o->mask[j])) * 2;
    }
    return TIDE_CONTEXT_NONE;
}

uint32_t tide_context_next_floor(const struct tide_ctx_offer *o, uint32_t floor_word)
{
    uint64_t next = o->start > floor_word ? o->start : (uint64_t)floor_word + TIDE_CONTEXT_WINDOW;
    return next < NWORDS ? (uint32_t)next : TIDE_CONTEXT_NONE;
}

/* ---- the reduction ---- */

enum {
    RS_BEGIN,
    RS_FOLD_RECV,  /* odd member of a folded pair: its partner's offer */
    RS_FOLD_WAIT,  /* even member: sent, waits for the result */
    RS_LOOP,
    RS_LOOP_WAIT,
    RS_LAST_SEND,  /* odd member: hands the result back */
    RS_DONE,       /* the round just ended */
    RS_IDLE,       /* no round running */
    RS_ERROR,
};

#define STEP_FOLD 0
#define STEP_LAST 30

void tide_ctx_reduce_init(struct tide_ctx_reduce *r, struct tide_comm *c)
{
    if (c->is_inter)
        c = c->local_comm;
    memset(r, 0, sizeof *r);
    r->comm = c;
    r->ctx = c->context_id + 1;
    r->n = c->size;
    r->me = c->rank;
    r->seq = c->coll_seq++;
    r->stage = RS_IDLE;
}

void tide_ctx_reduce_init_sub(struct tide_ctx_reduce *r, struct tide_comm *c, int n, int me, const int *ranks,
                              int tag)
{
    memset(r, 0, sizeof *r);
    r->comm = c;
    r->ctx = c->context_id + 1;
    r->n = n;
    r->me = me;
    r->ranks = ranks;
    r->fixed_tag = true;
    r->tag = tag;
    r->stage = RS_IDLE;
}

static int tag_of(const struct tide_ctx_reduce *r, int step)
{
    return r->fixed_tag ? r->tag : tide_coll_tag(r->seq, (r->round * 32 + step) & 0x3ff);
}

static int rank_of(const struct tide_ctx_reduce *r, int member)
{
    return r->ranks ? r->ranks[member] : member;
}

static int post_send(struct tide_ctx_reduce *r, int member, int step, struct tide_request **out)
{
    return tide_isend(&r->acc, (int)sizeof r->acc, tide_datatype_get(MPI_BYTE), rank_of(r, member),
                      tag_of(r, step), r->comm, r->ctx, TIDE_MODE_STANDARD, out);
}

static int post_recv(struct tide_ctx_reduce *r, int member, int step, struct tide_request **out)
{
    return tide_irecv(&r->in, (int)sizeof r->in, tide_datatype_get(MPI_BYTE), rank_of(r, member), tag_of(r, step),
                      r->comm, r->ctx, out);
}

void tide_ctx_reduce_start(struct tide_ctx_reduce *r, const struct tide_ctx_offer *mine)
{
    r->acc = *mine;
    r->stage = RS_BEGIN;
    r->rq[0] = r->rq[1] = NULL;
    r->err = MPI_SUCCESS;
    r->pof2 = 1;
    while (r->pof2 * 2 <= r->n)
        r->pof2 *= 2;
    r->rem = r->n - r->pof2;
}

/* Both outstanding requests done? Frees them and keeps the first error. */
static bool reqs_done(struct tide_ctx_reduce *r)
{
    for (int i = 0; i < 2; i++)
        if (r->rq[i] && !r->rq[i]->complete)
            return false;
    for (int i = 0; i < 2; i++) {
        if (!r->rq[i])
            continue;
        int e = tide_wait_free(r->rq[i], MPI_STATUS_IGNORE);
        if (e != MPI_SUCCESS && r->err == MPI_SUCCESS)
            r->err = e;
        r->rq[i] = NULL;
    }
    return true;
}

/* A post failed: wait for what is still out (its buffers live in r). */
static int fail(struct tide_ctx_reduce *r, int rc)
{
    for (int i = 0; i < 2; i++)
        if (r->rq[i]) {
            tide_wait_free(r->rq[i], MPI_STATUS_IGNORE);
            r->rq[i] = NULL;
        }
    r->err = rc;
    r->stage = RS_ERROR;
    return -1;
}

int tide_ctx_reduce_test(struct tide_ctx_reduce *r)
{
    for (;;) {
        int rc;
        switch (r->stage) {
        case RS_BEGIN:
            if (r->n <= 1) {
                r->stage = RS_DONE;
                break;
            }
            if (r->me < 2 * r->rem) {
                if (r->me % 2 == 0) {
                    if ((rc = post_recv(r, r->me + 1, STEP_LAST, &r->rq[1])) != MPI_SUCCESS ||
                        (rc = post_send(r, r->me + 1, STEP_FOLD, &r->rq[0])) != MPI_SUCCESS)
                        return fail(r, rc);
                    r->stage = RS_FOLD_WAIT;
                } else {
                    if ((rc = post_recv(r, r->me - 1, STEP_FOLD, &r->rq[1])) != MPI_SUCCESS)
                        return fail(r, rc);
                    r->stage = RS_FOLD_RECV;
                }
            } else {
                r->newrank = r->me - r->rem;
                r->mask = 1;
                r->stage = RS_LOOP;
            }
            break;
        case RS_FOLD_WAIT:
            if (!reqs_done(r))
                return 0;
            if (r->err != MPI_SUCCESS)
                return fail(r, r->err);
            r->acc = r->in;
            r->stage = RS_DONE;
            break;
        case RS_FOLD_RECV:
            if (!reqs_done(r))
                return 0;
            if (r->err != MPI_SUCCESS)
                return fail(r, r->err);
            tide_context_combine(&r->acc, &r->in);
            r->newrank = r->me / 2;
            r->mask = 1;
            r->stage = RS_LOOP;
            break;
        case RS_LOOP: {
            if (r->mask >= r->pof2) {
                if (r->me < 2 * r->rem) { /* odd: hand the result back */
                    if ((rc = post_send(r, r->me - 1, STEP_LAST, &r->rq[0])) != MPI_SUCCESS)
                        return fail(r, rc);
                    r->stage = RS_LAST_SEND;
                } else {
                    r->stage = RS_DONE;
                }
                break;
            }
            int np = r->newrank ^ r->mask;
            int peer = np < r->rem ? np * 2 + 1 : np + r->rem;
            int step = 1 + __builtin_ctz((unsigned)r->mask);
            if ((rc = post_recv(r, peer, step, &r->rq[1])) != MPI_SUCCESS ||
                (rc = post_send(r, peer, step, &r->rq[0])) != MPI_SUCCESS)
                return fail(r, rc);
            r->stage = RS_LOOP_WAIT;
            break;
        }
        case RS_LOOP_WAIT:
            if (!reqs_done(r))
                return 0;
            if (r->err != MPI_SUCCESS)
                return fail(r, r->err);
            tide_context_combine(&r->acc, &r->in);
            r->mask <<= 1;
            r->stage = RS_LOOP;
            break;
        case RS_LAST_SEND:
            if (!reqs_done(r))
                return 0;
            if (r->err != MPI_SUCCESS)
                return fail(r, r->err);
            r->stage = RS_DONE;
            break;
        case RS_DONE:
            r->round++;
            r->stage = RS_IDLE;
            return 1;
        case RS_IDLE:
            return 1;
        default:
            return -1;
        }
    }
}

static bool reduce_done(void *arg)
{
    return tide_ctx_reduce_test(arg) != 0;
}

int tide_ctx_reduce_wait(struct tide_ctx_reduce *r)
{
    tide_progress_until(reduce_done, r);
    return r->stage == RS_ERROR ? r->err : MPI_SUCCESS;
}

uint64_t tide_ctx_key(uint32_t ctx, uint32_t seq)
{
    return (uint64_t)ctx << 33 | seq;
}

uint64_t tide_ctx_reduce_key(const struct tide_ctx_reduce *r)
{
    /* a fixed tag (MPI_Comm_create_group) apart from sequence numbers */
    return r->fixed_tag ? tide_ctx_key(r->ctx, 0) | 1ull << 32 | (uint32_t)r->tag : tide_ctx_key(r->ctx, r->seq);
}

/* ---- an agreement's rounds ---- */

void tide_ctx_agreement_begin(struct tide_ctx_agreement *a, uint64_t key, bool member)
{
    memset(a, 0, sizeof *a);
    a->member = member;
    a->cand = TIDE_CONTEXT_NONE;
    a->cl.lock = TIDE_CONTEXT_NONE;
    if (member)
        tide_context_claim_init(&a->cl, key);
}

void tide_ctx_agreement_offer(struct tide_ctx_agreement *a, struct tide_ctx_offer *o)
{
    if (a->confirming) {
        if (a->member)
            tide_context_offer_confirm(a->cand, o, &a->cl);
        else
            tide_context_offer_any(a->cand / 128, o);
    } else if (a->member) {
        tide_context_offer(a->floor, o, &a->cl);
    } else {
        tide_context_offer_any(a->floor, o);
    }
}

int tide_ctx_agreement_outcome(const struct tide_ctx_agreement *a, const struct tide_ctx_offer *o, uint32_t *id,
                               uint32_t *floor_word)
{
    *id = tide_context_pick(o);
    *floor_word = a->floor;
    if (a->confirming) /* confirmed at every member, or found again from the same floor */
        return *id != TIDE_CONTEXT_NONE ? TIDE_CTX_DONE : TIDE_CTX_AGAIN;
    if (*id != TIDE_CONTEXT_NONE)
        return o->shared ? TIDE_CTX_CONFIRM : TIDE_CTX_DONE;
    *floor_word = tide_context_next_floor(o, a->floor);
    return *floor_word == TIDE_CONTEXT_NONE ? TIDE_CTX_EXHAUSTED : TIDE_CTX_AGAIN;
}

int tide_ctx_agreement_next(struct tide_ctx_agreement *a, int outcome, uint32_t id, uint32_t floor_word)
{
    tide_context_unclaim(&a->cl);
    switch (outcome) {
    case TIDE_CTX_DONE:
        tide_context_claim_end(&a->cl);
        if (a->member)
            tide_context_reserve(id);
        break;
    case TIDE_CTX_CONFIRM:
        a->confirming = true;
        a->cand = id;
        break;
    case TIDE_CTX_AGAIN:
        a->confirming = false;
        a->floor = floor_word;
        break;
    default:
        tide_context_claim_end(&a->cl);
        break;
    }
    return outcome;
}

void tide_ctx_agreement_end(struct tide_ctx_agreement *a)
{
    tide_context_claim_end(&a->cl);
}

/* ---- blocking agreements ---- */

static int agree(struct tide_ctx_reduce *r, bool member, uint32_t *id)
{
    struct tide_ctx_agreement ag;
    tide_ctx_agreement_begin(&ag, tide_ctx_reduce_key(r), member);
    for (;;) {
        struct tide_ctx_offer o;
        tide_ctx_agreement_offer(&ag, &o);
        tide_ctx_reduce_start(r, &o);
        int rc = tide_ctx_reduce_wait(r);
        if (rc != MPI_SUCCESS) {
            tide_ctx_agreement_end(&ag);
            return rc;
        }
        uint32_t pick, floor_word;
        int k = tide_ctx_agreement_outcome(&ag, &r->acc, &pick, &floor_word);
        k = tide_ctx_agreement_next(&ag, k, pick, floor_word);
        if (k == TIDE_CTX_DONE) {
            *id = pick;
            return MPI_SUCCESS;
        }
        if (k == TIDE_CTX_EXHAUSTED)
            return tide_err(MPI_ERR_INTERN,
                            "no context id is free at every member of the group (%u in use by this process)",
                            nused);
    }
}

int tide_context_agree(struct tide_comm *c, bool member, uint32_t *id)
{
    struct tide_ctx_reduce r;
    tide_ctx_reduce_init(&r, c);
    return agree(&r, member, id);
}

int tide_context_agree_sub(struct tide_comm *c, int n, int me, const int *ranks, int tag, uint32_t *id)
{
    struct tide_ctx_reduce r;
    tide_ctx_reduce_init_sub(&r, c, n, me, ranks, tag);
    return agree(&r, true, id);
}
