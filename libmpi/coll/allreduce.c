/*
 * allreduce.c: MPI_Allreduce and MPI_Iallreduce. Algorithms:
 *  - recursive doubling: log2 n exchanges of the whole vector; a size that
 *    is not a power of two first folds pairs of the first 2*rem ranks;
 *  - Rabenseifner: the same fold, a reduce-scatter by recursive halving
 *    (distance doubling, so every partial result covers a contiguous run
 *    of ranks), then an allgather by recursive doubling back up;
 *  - ring: a reduce-scatter then an allgather round the ring (commutative
 *    ops; bandwidth-optimal for long vectors);
 *  - reduce then broadcast, by binomial trees or by a star through rank 0
 *    (linear: two rounds whatever n, for short vectors when ranks
 *    outnumber cores);
 *  - direct: a reduce-scatter and an allgather with all the messages of
 *    each phase at once (two rounds, each byte moved once per phase);
 *  - node-aware: reduce within each node, allreduce among the node
 *    leaders, broadcast within each node (commutative ops).
 * Every combination puts the lower ranks' part on the left, so
 * non-commutative ops are applied in rank order by recursive doubling and
 * Rabenseifner, and every rank computes bit-identical results: each
 * element is combined by the same operands in the same order everywhere
 * (or computed once and then copied).
 */
#include "runtime/api.h"
#include "coll/algo.h"
#include "coll/coll.h"
#include "coll/coll_api.h"
#include "coll/coll_args.h"
#include "coll/direct.h"
#include "coll/shm_coll.h"
#include "coll/inter.h"
#include "coll/pcoll.h"
#include "op/op.h"


/* The fold for n not a power of two: ranks below 2*rem pair up, the odd
 * one of each pair combines both and takes part, the even one waits. */
struct fold {
    int pof2, rem, newrank;
};

static int fold_peer(const struct fold *f, int np)
{
    return np < f->rem ? 2 * np + 1 : np + f->rem;
}

static void fold_in(struct tide_sched *s, const struct tide_cv *v, struct fold *f, void *acc, void *tmp,
                    size_t count, struct tide_datatype *dt, struct tide_op *op, int step)
{
    int n = v->n, me = v->me;
    f->pof2 = pof2_floor(n);
    f->rem = n - f->pof2;
    if (me < 2 * f->rem) {
        if (me % 2 == 0) {
            cv_send(s, v, me + 1, step, acc, count, dt);
            f->newrank = -1;
        } else {
            cv_recv(s, v, me - 1, step, tmp, count, dt);
            tide_sched_fence(s);
            tide_sched_reduce(s, tmp, acc, count, dt, op); /* acc = (me - 1) op me */
            f->newrank = me / 2;
        }
    } else {
        f->newrank = me - f->rem;
    }
}

static void fold_out(struct tide_sched *s, const struct tide_cv *v, const struct fold *f, void *acc, size_t count,
                     struct tide_datatype *dt, int step)
{
    int me = v->me;
    if (me < 2 * f->rem) {
        tide_sched_fence(s);
        if (me % 2)
            cv_send(s, v, me - 1, step, acc, count, dt);
        else
            cv_recv(s, v, me + 1, step, acc, count, dt);
    }
}

static void allreduce_rd(struct tide_sched *s, const struct tide_cv *v, void *rbuf, size_t count,
                         struct tide_datatype *dt, struct tide_op *op, int step)
{
    void *a = rbuf, *b = tide_sched_tmp(s, count, dt);
    if (!b)
        return;
    struct fold f;
    fold_in(s, v, &f, a, b, count, dt, op, step);
    if (f.newrank >= 0) {
        int k = 1;
        for (int mask = 1; mask < f.pof2; mask <<= 1, k++) {
            int np = f.newrank ^ mask, peer = fold_peer(&f, np);
            cv_recv(s, v, peer, step + k, b, count, dt);
            cv_send(s, v, peer, step + k, a, count, dt);
            tide_sched_fence(s);
            if (np < f.newrank) {
                tide_sched_reduce(s, b, a, count, dt, op); /* a = peer op a */
            } else {
                tide_sched_reduce(s, a, b, count, dt, op); /* b = a op peer */
                void *t = a;
                a = b;
                b = t;
            }
        }
        if (a != rbuf)
            tide_sched_copy(s, a, count, dt, rbuf, count, dt);
    }
    fold_out(s, v, &f, rbuf, count, dt, step + 40);
}

/* src as for allreduce_ring: this rank's data, not yet in rbuf
 * (commutative ops); it is combined into rbuf by the fold or the first
 * halving step */
static void allreduce_rabenseifner(struct tide_sched *s, const struct tide_cv *v, const void *src, void *rbuf,
                                   size_t count, struct tide_datatype *dt, struct tide_op *op, int step)
{
    void *tmp = tide_sched_tmp(s, count, dt);
    if (!tmp)
        return;
    struct fold f;
    if (src) {
        int n = v->n, me = v->me;
        f.pof2 = pof2_floor(n);
        f.rem = n - f.pof2;
        if (me < 2 * f.rem) {
            if (me % 2 == 0) {
                cv_send(s, v, me + 1, step, src, count, dt);
                f.newrank = -1;
            } else {
                cv_recv(s, v, me - 1, step, rbuf, count, dt);
                tide_sched_fence(s);
                tide_sched_reduce(s, src, rbuf, count, dt, op);
                f.newrank = me / 2;
            }
            src = NULL; /* from here on the data is in rbuf */
        } else {
            f.newrank = me - f.rem;
        }
    } else {
        fold_in(s, v, &f, rbuf, tmp, count, dt, op, step);
    }
    if (f.newrank >= 0) {
        /* the element range kept after each halving step */
        size_t lo[32], hi[32];
        int nsteps = 0;
        size_t l = 0, h = count;
        int k = 1;
        for (int mask = 1; mask < f.pof2; mask <<= 1, k++, nsteps++) {
            int np = f.newrank ^ mask, peer = fold_peer(&f, np);
            size_t mid = l + (h - l) / 2;
            size_t kl, kh, sl, sh;
            if (f.newrank & mask) {
                kl = mid, kh = h, sl = l, sh = mid;
            } else {
                kl = l, kh = mid, sl = mid, sh = h;
            }
            if (src) {
                /* first step with the data still in src: receive into rbuf */
                if (kh > kl)
                    cv_recv(s, v, peer, step + k, elem_at(rbuf, dt, kl), kh - kl, dt);
                if (sh > sl)
                    cv_send(s, v, peer, step + k, elem_at(src, dt, sl), sh - sl, dt);
                tide_sched_fence(s);
                if (kh > kl)
                    tide_sched_reduce(s, elem_at(src, dt, kl), elem_at(rbuf, dt, kl), kh - kl, dt, op);
                src = NULL;
                lo[nsteps] = kl;
                hi[nsteps] = kh;
                l = kl;
                h = kh;
                continue;
            }
            if (kh > kl)
                cv_recv(s, v, peer, step + k, elem_at(tmp, dt, kl), kh - kl, dt);
            if (sh > sl)
                cv_send(s, v, peer, step + k, elem_at(rbuf, dt, sl), sh - sl, dt);
            tide_sched_fence(s);
            if (kh > kl) {
                void *mine = elem_at(rbuf, dt, kl), *theirs = elem_at(tmp, dt, kl);
                /* each piece is combined on one rank only and then copied to
                 * the others, so a commutative op may take its operands
                 * either way round; otherwise lower ranks on the left */
                if (np < f.newrank || op->commute) {
                    tide_sched_reduce(s, theirs, mine, kh - kl, dt, op);
                } else {
                    tide_sched_reduce(s, mine, theirs, kh - kl, dt, op);
                    tide_sched_copy(s, theirs, kh - kl, dt, mine, kh - kl, dt);
                }
            }
            lo[nsteps] = kl;
            hi[nsteps] = kh;
            l = kl;
            h = kh;
        }
        /* allgather: retrace the halvings */
        for (int mask = f.pof2 >> 1, i = nsteps - 1; mask > 0; mask >>= 1, i--, k++) {
            int np = f.newrank ^ mask, peer = fold_peer(&f, np);
            size_t pl = i > 0 ? lo[i - 1] : 0, ph = i > 0 ? hi[i - 1] : count; /* the parent range */
            size_t ml = lo[i], mh = hi[i];
            size_t ol = ml == pl ? mh : pl, oh = ml == pl ? ph : ml; /* the partner's half */
            if (oh > ol)
                cv_recv(s, v, peer, step + k, elem_at(rbuf, dt, ol), oh - ol, dt);
            if (mh > ml)
                cv_send(s, v, peer, step + k, elem_at(rbuf, dt, ml), mh - ml, dt);
            tide_sched_fence(s);
        }
    }
    fold_out(s, v, &f, rbuf, count, dt, step + 80);
}

/* reduce-scatter and allgather round the ring; piece j is elements
 * [j cs, (j+1) cs). Rank i ends the first half with piece i complete. */
/* src: this rank's data when it is not in rbuf yet (commutative ops):
 * each piece is then received straight into rbuf and combined with src's
 * piece there, so the vector is never copied whole first */
static void allreduce_ring(struct tide_sched *s, const struct tide_cv *v, const void *src, void *rbuf,
                           size_t count, struct tide_datatype *dt, struct tide_op *op, int step)
{
    int n = v->n, me = v->me;
    size_t cs = (count + (size_t)n - 1) / (size_t)n;
#define LO(j) ((size_t)(j) * cs < count ? (size_t)(j) * cs : count)
#define LEN(j) (LO((j) + 1) - LO(j))
    void *tmp = src ? NULL : tide_sched_tmp(s, cs, dt);
    if (!src && !tmp)
        return;
    int left = (me - 1 + n) % n, right = (me + 1) % n;
    for (int k = 0; k < n - 1; k++, step++) {
        int sj = (me - k - 1 + 2 * n) % n, rj = (me - k - 2 + 2 * n) % n;
        void *into = src ? elem_at(rbuf, dt, LO(rj)) : tmp;
        if (LEN(rj))
            cv_recv(s, v, left, step, into, LEN(rj), dt);
        if (LEN(sj))
            cv_send(s, v, right, step, elem_at(src && k == 0 ? src : rbuf, dt, LO(sj)), LEN(sj), dt);
        tide_sched_fence(s);
        if (LEN(rj)) {
            if (src) /* every piece is received once: rbuf = src op what came */
                tide_sched_reduce(s, elem_at(src, dt, LO(rj)), into, LEN(rj), dt, op);
            else
                tide_sched_reduce(s, tmp, elem_at(rbuf, dt, LO(rj)), LEN(rj), dt, op);
        }
    }
    for (int k = 0; k < n - 1; k++, step++) {
        int sj = (me - k + n) % n, rj = (me - k - 1 + n) % n;
        if (LEN(rj))
            cv_recv(s, v, left, step, elem_at(rbuf, dt, LO(rj)), LEN(rj), dt);
        if (LEN(sj))
            cv_send(s, v, right, step, elem_at(rbuf, dt, LO(sj)), LEN(sj), dt);
        tide_sched_fence(s);
    }
#undef LO
#undef LEN
}

/* reduce-scatter and allgather with every message of a phase started at
 * once: rank j receives piece j from everyone, combines it, and sends it
 * to everyone. Two rounds whatever n, and each byte moved once per phase:
 * for large vectors on few ranks, and when ranks outnumber cores (every
 * rank can get on with its part whenever it runs). Pieces are combined in
 * rank order, x0 op (x1 op (... op x_{n-1})). */
static void allreduce_direct(struct tide_sched *s, const struct tide_cv *v, const void *sbuf, void *rbuf,
                             size_t count, struct tide_datatype *dt, struct tide_op *op, int step)
{
    int n = v->n, me = v->me;
    size_t cs = (count + (size_t)n - 1) / (size_t)n;
#define LO(j) ((size_t)(j) * cs < count ? (size_t)(j) * cs : count)
#define LEN(j) (LO((j) + 1) - LO(j))
    const void *in = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    size_t mlen = LEN(me);
    void **tmp = tide_sched_alloc(s, (size_t)n * sizeof *tmp);
    if (!tmp)
        return;
    for (int k = 1; k < n; k++) {
        int i = (me + k) % n;
        tmp[i] = NULL;
        if (mlen) {
            if (!(tmp[i] = tide_sched_tmp(s, mlen, dt)))
                return;
            cv_recv(s, v, i, step, tmp[i], mlen, dt);
        }
    }
    for (int k = 1; k < n; k++) {
        int j = (me + k) % n;
        if (LEN(j))
            cv_send(s, v, j, step, elem_at(in, dt, LO(j)), LEN(j), dt);
    }
    void *own = elem_at(in, dt, LO(me));
    if (mlen && sbuf == MPI_IN_PLACE && !op->commute && me != n - 1) {
        /* rbuf's piece is about to hold the result: keep my part aside */
        void *t = tide_sched_tmp(s, mlen, dt);
        if (!t)
            return;
        tide_sched_copy(s, own, mlen, dt, t, mlen, dt);
        own = t;
    }
    tmp[me] = own;
    tide_sched_fence(s);
    if (mlen) {
        void *acc = elem_at(rbuf, dt, LO(me));
        if (op->commute) {
            if (sbuf != MPI_IN_PLACE)
                tide_sched_copy(s, own, mlen, dt, acc, mlen, dt);
            for (int i = 0; i < n; i++)
                if (i != me)
                    tide_sched_reduce(s, tmp[i], acc, mlen, dt, op);
        } else {
            if (tmp[n - 1] != acc)
                tide_sched_copy(s, tmp[n - 1], mlen, dt, acc, mlen, dt);
            for (int i = n - 2; i >= 0; i--)
                tide_sched_reduce(s, tmp[i], acc, mlen, dt, op);
        }
    }
    for (int k = 1; k < n; k++) {
        int j = (me - k + n) % n;
        if (LEN(j))
            cv_recv(s, v, j, step + 1, elem_at(rbuf, dt, LO(j)), LEN(j), dt);
    }
    for (int k = 1; k < n; k++)
        if (mlen)
            cv_send(s, v, (me + k) % n, step + 1, elem_at(rbuf, dt, LO(me)), mlen, dt);
#undef LO
#undef LEN
}

static void allreduce_hier(struct tide_sched *s, const struct tide_cv *all, const struct tide_coll_state *st,
                           void *rbuf, size_t count, struct tide_datatype *dt, struct tide_op *op, int step)
{
    struct tide_cv node, lead;
    tide_cv_node(&node, st, all);
    tide_cv_leaders(&lead, st, all);
    bool leader = lead.me >= 0;
    /* the data is in rbuf already (copied there by the caller) */
    tide_reduce_build(s, &node, leader ? MPI_IN_PLACE : rbuf, rbuf, count, dt, op, 0, TA_BINOMIAL, step);
    tide_sched_fence(s);
    if (leader) {
        size_t bytes = count * dt->size;
        int alg = bytes <= 16384 ? TA_RD : bytes >= 524288 && count >= (size_t)lead.n ? TA_RING : TA_RABENSEIFNER;
        tide_allreduce_build(s, &lead, MPI_IN_PLACE, rbuf, count, dt, op, alg, step + TIDE_STEP_PHASE);
        tide_sched_fence(s);
    }
    tide_bcast_binomial(s, &node, rbuf, count, dt, 0, step + 2 * TIDE_STEP_PHASE);
}

void tide_allreduce_build(struct tide_sched *s, const struct tide_cv *v, const void *sbuf, void *rbuf,
                          size_t count, struct tide_datatype *dt, struct tide_op *op, int alg, int step)
{
    if (count == 0)
        return;
    if (alg == TA_DIRECT && v->n > 1) {
        allreduce_direct(s, v, sbuf, rbuf, count, dt, op, step);
        return;
    }
    if (alg == TA_LINEAR && v->n > 1) {
        /* a star through rank 0: two rounds whatever n, and no rank but
         * the root waits for another's partial result (when ranks outnumber
         * cores, fewer rounds of waiting beat fewer messages) */
        if (sbuf != MPI_IN_PLACE) {
            tide_sched_copy(s, sbuf, count, dt, rbuf, count, dt);
            tide_sched_fence(s);
        }
        tide_reduce_build(s, v, v->me == 0 ? MPI_IN_PLACE : rbuf, rbuf, count, dt, op, 0, TA_LINEAR, step);
        tide_sched_fence(s);
        tide_bcast_linear(s, v, rbuf, count, dt, 0, step + TIDE_STEP_PHASE);
        return;
    }
    /* ring and Rabenseifner take a commutative op's data from sbuf as they go */
    const void *src = sbuf != MPI_IN_PLACE && op->commute && v->n > 1 ? sbuf : NULL;
    bool ring_ok = op->commute && count >= (size_t)v->n;
    bool rab_ok = count >= (size_t)pof2_floor(v->n);
    if (alg == TA_RING && ring_ok && src) {
        allreduce_ring(s, v, src, rbuf, count, dt, op, step);
        return;
    }
    if (alg == TA_RABENSEIFNER && rab_ok && src) {
        allreduce_rabenseifner(s, v, src, rbuf, count, dt, op, step);
        return;
    }
    if (sbuf != MPI_IN_PLACE) {
        tide_sched_copy(s, sbuf, count, dt, rbuf, count, dt);
        tide_sched_fence(s);
    }
    if (v->n == 1)
        return;
    switch (alg) {
    case TA_RING:
        if (ring_ok) {
            allreduce_ring(s, v, NULL, rbuf, count, dt, op, step);
            return;
        }
        break;
    case TA_RABENSEIFNER:
        if (rab_ok) {
            allreduce_rabenseifner(s, v, NULL, rbuf, count, dt, op, step);
            return;
        }
        break;
    case TA_REDUCE_BCAST:
        tide_reduce_build(s, v, v->me == 0 ? MPI_IN_PLACE : rbuf, rbuf, count, dt, op, 0, TA_BINOMIAL, step);
        tide_sched_fence(s);
        tide_bcast_binomial(s, v, rbuf, count, dt, 0, step + TIDE_STEP_PHASE);
        return;
    case TA_HIER:
        if (op->commute && !v->map && v->comm->coll && v->comm->coll->layout == 2) {
            allreduce_hier(s, v, v->comm->coll, rbuf, count, dt, op, step);
            return;
        }
        break;
    default:
        break;
    }
    allreduce_rd(s, v, rbuf, count, dt, op, step);
}

/* ---- MPI functions ---- */

/* May choose shm (the shared region) for the blocking form; the
 * nonblocking form runs linear instead, which combines in the same order
 * (v0 op (v1 op (... op v[n-1]))), so both give the same bits. */
static int allreduce_alg(struct tide_comm *c, MPI_Count count, struct tide_datatype *dt, struct tide_op *op)
{
    struct tide_coll_sel sel = {.kind = TC_ALLREDUCE, .bytes = (size_t)count * dt->size, .commute = op->commute,
                                .even = true};
    tide_coll_sel_comm(&sel, c);
    sel.shm = tide_shm_plain(dt) && tide_shm_coll_fits(c, sel.bytes);
    return tide_coll_select(&sel);
}

static void build(struct tide_sched *s, struct tide_comm *c, const void *sbuf, void *rbuf, MPI_Count count,
                  struct tide_datatype *dt, struct tide_op *op)
{
    if (c->is_inter) {
        tide_inter_allreduce(s, c, sbuf, rbuf, count, dt, op);
        return;
    }
    int alg = allreduce_alg(c, count, dt, op);
    if (alg == TA_SHM)
        alg = TA_LINEAR;
    struct tide_cv v;
    tide_cv_comm(&v, c);
    tide_allreduce_build(s, &v, sbuf, rbuf, (size_t)count, dt, op, alg, 0);
}

/* A blocking allreduce without a schedule, if its algorithm and layout
 * allow: MPI_SUCCESS or an error, or -1 when the caller must build one. */
static int allreduce_direct_run(struct tide_comm *c, const void *sbuf, void *rbuf, MPI_Count count,
                                struct tide_datatype *dt, struct tide_op *op)
{
    if (!tide_direct_allowed(c))
        return -1;
    int alg = allreduce_alg(c, count, dt, op);
    if (alg == TA_SHM) {
        int rc = tide_shm_allreduce(c, sbuf, rbuf, (size_t)count, dt, op);
        if (rc >= 0)
            return rc;
        alg = allreduce_alg(c, count, dt, op); /* no region after all */
    }
    if (!tide_direct_allreduce_ok(alg, (size_t)count, dt))
        return -1;
    struct tide_cv v;
    tide_cv_comm(&v, c);
    return tide_direct_allreduce(&v, sbuf, rbuf, (size_t)count, dt, op);
}

int tide_coll_allreduce(const void *sbuf, void *rbuf, MPI_Count count, struct tide_datatype *dt, struct tide_op *op,
                        struct tide_comm *c)
{
    tide_coll_enter(c, true);
    int rc = allreduce_direct_run(c, sbuf, rbuf, count, dt, op);
    if (rc >= 0)
        return rc;
    struct tide_sched *s = tide_sched_new(c);
    if (!s)
        return tide_err(MPI_ERR_NO_MEM, "MPI_Allreduce: out of memory");
    build(s, c, sbuf, rbuf, count, dt, op);
    return tide_sched_run(s);
}

struct allreduce_args {
    const void *sbuf;
    void *rbuf;
    MPI_Count count;
    struct tide_datatype *dt;
    struct tide_op *o;
    MPI_Op op;
};

static void agree_build(struct tide_sched *s, struct tide_comm *c, const char *fn, void *args)
{
    const struct allreduce_args *a = args;
    if (tide_coll_checking()) {
        struct tide_coll_agree ag = {.root = 0, .bytes = (long long)a->count * (long long)a->dt->size, .op = a->op};
        tide_coll_agree_add(s, c, &ag, fn);
    }
    build(s, c, a->sbuf, a->rbuf, a->count, a->dt, a->o);
}

static int start(const char *fn, const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                 MPI_Comm comm, MPI_Request *request, enum tide_coll_mode mode)
{
    bool nonblocking = mode != TIDE_COLL_BLOCKING;
    struct tide_comm *c;
    int rc = tide_coll_check_comm(comm, fn, &c);
    if (rc)
        return tide_coll_raise(c, rc);
    tide_coll_enter(c, mode != TIDE_COLL_NONBLOCKING);
    tide_coll_count_call(c);
    struct tide_datatype *dt = NULL;
    struct tide_op *o = NULL;
    if (c->is_inter)
        rc = tide_coll_no_in_place(sbuf, fn, "sendbuf", "not on an intercommunicator");
    if (!rc)
        rc = tide_coll_no_in_place(rbuf, fn, "recvbuf", "the in-place form names sendbuf");
    if (!rc && !(rc = tide_coll_check_type(datatype, count, fn, "datatype", &dt)) &&
        !(rc = tide_coll_check_op(op, dt, fn, &o)) &&
        !(sbuf != MPI_IN_PLACE && (rc = tide_coll_check_buf(sbuf, count, dt, fn, "sendbuf"))) &&
        !(rc = tide_coll_check_buf(rbuf, count, dt, fn, "recvbuf")))
        rc = tide_coll_no_alias(sbuf, TIDE_COLL_BLOCK(count, dt), rbuf, TIDE_COLL_BLOCK(count, dt), fn);
    if (!rc && nonblocking)
        rc = tide_coll_check_request(request, fn);
    rc = tide_coll_checked(c, rc, fn);
    if (rc) {
        return tide_raise_comm(c, tide_coll_mode_error(c, mode, rc, 0, fn));
    }
    struct allreduce_args a = {sbuf, rbuf, count, dt, o, op};
    if (mode == TIDE_COLL_PERSISTENT) {
        struct tide_pcoll *p = tide_pcoll_new(c, fn, agree_build);
        if (!p)
            return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
        tide_pcoll_hold_dt(p, dt);
        tide_pcoll_hold_op(p, o);
        rc = tide_pcoll_commit(p, tide_pcoll_keep(p, &a, sizeof a), request);
        return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
    }
    if (!nonblocking && (rc = allreduce_direct_run(c, sbuf, rbuf, count, dt, o)) >= 0)
        return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
    struct tide_sched *s = tide_sched_new(c);
    if (!s)
        return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    agree_build(s, c, fn, &a);
    rc = nonblocking ? tide_sched_start(s, request) : tide_sched_run(s);
    return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
}

int tide_allreduce_api(const char *fn, const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, MPI_Request *request, enum tide_coll_mode mode)
{
    return start(fn, sbuf, rbuf, count, datatype, op, comm, request, mode);
}

int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    TIDE_API_ENTER();
    return start("MPI_Allreduce", sendbuf, recvbuf, count, datatype, op, comm, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Allreduce)

int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                    MPI_Request *request)
{
    TIDE_API_ENTER();
    return start("MPI_Iallreduce", sendbuf, recvbuf, count, datatype, op, comm, request, TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Iallreduce)

int PMPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Allreduce_init";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    return start(fn, sendbuf, recvbuf, count, datatype, op, comm, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Allreduce_init)
