/*
 * allgather.c: MPI_Allgather, MPI_Allgatherv and their nonblocking forms.
 * Allgather: ring (n-1 steps, each passing one block on), recursive
 * doubling (log2 n steps exchanging everything gathered so far; for a
 * size that is not a power of two the extra ranks first hand their block
 * to a partner and get the result back at the end), Bruck (ceil(log2 n)
 * steps on a rotated packed copy, any n), direct (every block to every
 * rank at once: one round), linear (a star: gather at rank 0, broadcast
 * from it; two rounds), and node-aware (gather within each node, ring among
 * the leaders, broadcast within each node). Allgatherv: ring, recursive
 * doubling over a packed copy, and direct (every block to every rank at
 * once).
 */
#include "runtime/api.h"
#include "coll/algo.h"
#include "coll/coll.h"
#include "coll/coll_api.h"
#include "coll/coll_args.h"
#include "coll/direct.h"
#include "coll/shm_coll.h"
#include "coll/shm_get.h"
#include "coll/shm_region.h"
#include "coll/inter.h"
#include "coll/pcoll.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Blocks of a buffer: block i is counts[i] elements at displacement
 * displs[i] (allgatherv), or rcount elements at i * rcount. */
struct blocks {
    void *buf;
    struct tide_datatype *dt;
    size_t rcount;        /* even blocks */
    const MPI_Count *counts;    /* v-blocks (NULL: even) */
    const MPI_Aint *displs;
};

static size_t blk_count(const struct blocks *b, int i)
{
    return b->counts ? (size_t)b->counts[i] : b->rcount;
}

static void *blk_ptr(const struct blocks *b, int i)
{
    return elem_at(b->buf, b->dt, b->counts ? (size_t)(MPI_Aint)b->displs[i] : (size_t)i * b->rcount);
}

static void send_blk(struct tide_sched *s, const struct tide_cv *v, int to, int step, const struct blocks *b, int i)
{
    if (blk_count(b, i) * b->dt->size > 0)
        cv_send(s, v, to, step, blk_ptr(b, i), blk_count(b, i), b->dt);
}

static void recv_blk(struct tide_sched *s, const struct tide_cv *v, int from, int step, const struct blocks *b,
                     int i)
{
    if (blk_count(b, i) * b->dt->size > 0)
        cv_recv(s, v, from, step, blk_ptr(b, i), blk_count(b, i), b->dt);
}

/* This rank's own contribution, when it is still in the send buffer (it
 * goes out from there while it is copied into place, rather than after). */
struct own {
    const void *buf; /* NULL: already in its block of the receive buffer */
    size_t count;
    struct tide_datatype *dt;
};

static void send_own(struct tide_sched *s, const struct tide_cv *v, int to, int step, const struct blocks *b,
                     const struct own *o)
{
    if (!o->buf) {
        send_blk(s, v, to, step, b, v->me);
        return;
    }
    if (o->count * o->dt->size > 0)
        cv_send(s, v, to, step, o->buf, o->count, o->dt);
}

static void copy_own(struct tide_sched *s, const struct tide_cv *v, const struct blocks *b, const struct own *o)
{
    if (o->buf)
        tide_sched_copy(s, o->buf, o->count, o->dt, blk_ptr(b, v->me), blk_count(b, v->me), b->dt);
}

static void ring(struct tide_sched *s, const struct tide_cv *v, const struct blocks *b, const struct own *o,
                 int step)
{
    int n = v->n, me = v->me, left = (me - 1 + n) % n, right = (me + 1) % n;
    for (int k = 0; k < n - 1; k++, step++) {
        recv_blk(s, v, left, step, b, (me - k - 1 + n) % n);
        if (k == 0) {
            send_own(s, v, right, step, b, o);
            copy_own(s, v, b, o);
        } else {
            send_blk(s, v, right, step, b, (me - k + n) % n);
        }
        tide_sched_fence(s);
    }
    if (n == 1)
        copy_own(s, v, b, o);
}

static void linear(struct tide_sched *s, const struct tide_cv *v, const struct blocks *b, const struct own *o,
                   int step)
{
    int n = v->n, me = v->me;
    for (int k = 1; k < n; k++)
        recv_blk(s, v, (me - k + n) % n, step, b, (me - k + n) % n);
    for (int k = 1; k < n; k++)
        send_own(s, v, (me + k) % n, step, b, o);
    copy_own(s, v, b, o);
}

/* Recursive doubling over ranges of blocks. With a fold for n not a power
 * of two: new rank i < rem stands for old ranks 2i and 2i+1 (the even one
 * sits out), i >= rem for old rank i + rem; every new rank's blocks are a
 * contiguous run of old ranks, so every exchange is one message. `range`
 * sends/receives the blocks of old ranks [a, b). */
typedef void range_fn(struct tide_sched *s, const struct tide_cv *v, int peer, int step, int a, int b, bool send,
                      void *arg);

static int old_start(int i, int rem, int pof2, int n)
{
    if (i >= pof2)
        return n;
    return i < rem ? 2 * i : i + rem;
}

static void rd_generic(struct tide_sched *s, const struct tide_cv *v, range_fn *range, void *arg, int step)
{
    int n = v->n, me = v->me, pof2 = pof2_floor(n), rem = n - pof2;
    int newrank;
    if (me < 2 * rem) {
        if (me % 2 == 0) {
            range(s, v, me + 1, step, me, me + 1, true, arg);
            newrank = -1;
        } else {
            range(s, v, me - 1, step, me - 1, me, false, arg);
            newrank = me / 2;
        }
    } else {
        newrank = me - rem;
    }
    tide_sched_fence(s);
    int last = step + 1;
    for (int mask = 1; mask < pof2; mask <<= 1)
        last++;
    if (newrank >= 0) {
        step++;
        for (int mask = 1; mask < pof2; mask <<= 1, step++) {
            int np = newrank ^ mask;
            int peer = np < rem ? 2 * np + 1 : np + rem;
            int mb = newrank & ~(mask - 1), pb = np & ~(mask - 1);
            range(s, v, peer, step, old_start(pb, rem, pof2, n), old_start(pb + mask, rem, pof2, n), false, arg);
            range(s, v, peer, step, old_start(mb, rem, pof2, n), old_start(mb + mask, rem, pof2, n), true, arg);
            tide_sched_fence(s);
        }
    }
    step = last;
    if (me < 2 * rem) {
        if (me % 2)
            range(s, v, me - 1, step, 0, n, true, arg);
        else
            range(s, v, me + 1, step, 0, n, false, arg);
    }
}

/* ranges of even blocks in the user's buffer */
static void range_even(struct tide_sched *s, const struct tide_cv *v, int peer, int step, int a, int b, bool send,
                       void *arg)
{
    const struct blocks *bl = arg;
    size_t cnt = (size_t)(b - a) * bl->rcount;
    if (cnt * bl->dt->size == 0)
        return;
    void *p = elem_at(bl->buf, bl->dt, (size_t)a * bl->rcount);
    if (send)
        cv_send(s, v, peer, step, p, cnt, bl->dt);
    else
        cv_recv(s, v, peer, step, p, cnt, bl->dt);
}

/* ranges of a packed copy: block i at off[i] bytes */
struct packed {
    char *t;
    const size_t *off; /* n + 1 offsets */
};

static void range_packed(struct tide_sched *s, const struct tide_cv *v, int peer, int step, int a, int b,
                         bool send, void *arg)
{
    const struct packed *pk = arg;
    size_t len = pk->off[b] - pk->off[a];
    if (len == 0)
        return;
    if (send)
        cv_send(s, v, peer, step, pk->t + pk->off[a], len, tide_coll_byte());
    else
        cv_recv(s, v, peer, step, pk->t + pk->off[a], len, tide_coll_byte());
}

static void bruck(struct tide_sched *s, const struct tide_cv *v, const void *sbuf, size_t scount,
                  struct tide_datatype *sdt, const struct blocks *b, int step)
{
    int n = v->n, me = v->me;
    struct tide_datatype *byte = tide_coll_byte();
    size_t bb = b->rcount * b->dt->size;
    char *t = tide_sched_alloc(s, (size_t)n * bb);
    if (!t)
        return;
    tide_sched_copy(s, sbuf, scount, sdt, t, bb, byte);
    for (int k = 1; k < n; k <<= 1, step++) {
        int cnt = k < n - k ? k : n - k;
        cv_recv(s, v, (me + k) % n, step, t + (size_t)k * bb, (size_t)cnt * bb, byte);
        cv_send(s, v, (me - k + n) % n, step, t, (size_t)cnt * bb, byte);
        tide_sched_fence(s);
    }
    /* t[j] is the block of rank (me + j) % n */
    int head = n - me;
    tide_sched_copy(s, t, (size_t)head * bb, byte, blk_ptr(b, me), (size_t)head * b->rcount, b->dt);
    if (me > 0)
        tide_sched_copy(s, t + (size_t)head * bb, (size_t)me * bb, byte, b->buf, (size_t)me * b->rcount, b->dt);
}

/* Node-aware: gather each node's blocks (packed, in rank order within the
 * node) to its leader, ring among the leaders over the nodes' packs,
 * unpack into place, broadcast within the node. */
static void allgather_hier(struct tide_sched *s, const struct tide_cv *all, const struct tide_coll_state *st,
                           const struct blocks *b, int step)
{
    int n = all->n, nn = st->nnodes;
    struct tide_datatype *byte = tide_coll_byte();
    size_t bb = b->rcount * b->dt->size;
    struct tide_cv node, lead;
    tide_cv_node(&node, st, all);
    tide_cv_leaders(&lead, st, all);
    /* nodes' packs in node order: node k's ranks at noff[k] */
    int *order = tide_sched_alloc(s, (size_t)n * sizeof *order);
    size_t *noff = tide_sched_alloc(s, (size_t)(nn + 1) * sizeof *noff);
    char *g = lead.me >= 0 ? tide_sched_alloc(s, (size_t)n * bb) : NULL;
    if (!order || !noff || (lead.me >= 0 && !g))
        return;
    int p = 0;
    for (int k = 0; k < nn; k++) {
        noff[k] = (size_t)p;
        for (int r = 0; r < n; r++)
            if (st->node_of[r] == k)
                order[p++] = r;
    }
    noff[nn] = (size_t)n;
    const void *mine = blk_ptr(b, all->me);
    if (lead.me < 0) {
        tide_gather_build(s, &node, mine, b->rcount, b->dt, NULL, bb, byte, 0, TA_BINOMIAL, step);
    } else {
        tide_gather_build(s, &node, mine, b->rcount, b->dt, g + noff[st->my_node] * bb, bb, byte, 0, TA_BINOMIAL,
                          step);
        tide_sched_fence(s);
        int m = lead.me, left = (m - 1 + nn) % nn, right = (m + 1) % nn;
        for (int k = 0; k < nn - 1; k++) {
            int sk = (m - k + nn) % nn, rk = (m - k - 1 + nn) % nn;
            cv_recv(s, &lead, left, step + TIDE_STEP_PHASE + k, g + noff[rk] * bb, (noff[rk + 1] - noff[rk]) * bb,
                    byte);
            cv_send(s, &lead, right, step + TIDE_STEP_PHASE + k, g + noff[sk] * bb,
                    (noff[sk + 1] - noff[sk]) * bb, byte);
            tide_sched_fence(s);
        }
        /* unpack runs of consecutive ranks */
        for (int q = 0; q < n;) {
            int e = q + 1;
            while (e < n && order[e] == order[e - 1] + 1)
                e++;
            tide_sched_copy(s, g + (size_t)q * bb, (size_t)(e - q) * bb, byte, blk_ptr(b, order[q]),
                            (size_t)(e - q) * b->rcount, b->dt);
            q = e;
        }
    }
    tide_sched_fence(s);
    tide_bcast_binomial(s, &node, b->buf, (size_t)n * b->rcount, b->dt, 0, step + 2 * TIDE_STEP_PHASE);
}

void tide_allgather_build(struct tide_sched *s, const struct tide_cv *v, const void *sbuf, size_t scount,
                          struct tide_datatype *sdt, void *rbuf, size_t rcount, struct tide_datatype *rdt, int alg,
                          int step)
{
    struct blocks b = {.buf = rbuf, .dt = rdt, .rcount = rcount};
    int n = v->n, me = v->me;
    if (sbuf == MPI_IN_PLACE) {
        sbuf = blk_ptr(&b, me);
        scount = rcount;
        sdt = rdt;
    }
    if (rcount * rdt->size == 0 || n == 1) {
        if (n == 1 && sbuf != blk_ptr(&b, me))
            tide_sched_copy(s, sbuf, scount, sdt, rbuf, rcount, rdt);
        return;
    }
    if (alg == TA_BRUCK) {
        bruck(s, v, sbuf, scount, sdt, &b, step);
        return;
    }
    struct own o = {sbuf != blk_ptr(&b, me) ? sbuf : NULL, scount, sdt};
    struct own none = {NULL, 0, NULL};
    if (alg == TA_RING || alg == TA_DIRECT || (alg == TA_HIER && !(v->comm->coll && v->comm->coll->layout == 2))) {
        if (alg == TA_DIRECT)
            linear(s, v, &b, &o, step);
        else
            ring(s, v, &b, &o, step);
        return;
    }
    if (o.buf) {
        copy_own(s, v, &b, &o);
        tide_sched_fence(s);
    }
    switch (alg) {
    case TA_RD:
        rd_generic(s, v, range_even, &b, step);
        break;
    case TA_LINEAR:
        /* a star: gather at rank 0, broadcast from it */
        tide_gather_build(s, v, me == 0 ? MPI_IN_PLACE : blk_ptr(&b, me), rcount, rdt, rbuf, rcount, rdt, 0,
                          TA_LINEAR, step);
        tide_sched_fence(s);
        tide_bcast_linear(s, v, rbuf, (size_t)n * rcount, rdt, 0, step + TIDE_STEP_PHASE);
        break;
    case TA_HIER:
        if (v->comm->coll && v->comm->coll->layout == 2 && !v->map) {
            allgather_hier(s, v, v->comm->coll, &b, step);
            break;
        }
        __attribute__((fallthrough));
    default:
        ring(s, v, &b, &none, step);
        break;
    }
}

static void allgatherv_build(struct tide_sched *s, const struct tide_cv *v, const void *sbuf, size_t scount,
                             struct tide_datatype *sdt, void *rbuf, const MPI_Count *rcounts, const MPI_Aint *displs,
                             struct tide_datatype *rdt, int alg, int step)
{
    struct blocks b = {.buf = rbuf, .dt = rdt, .counts = rcounts, .displs = displs};
    int n = v->n, me = v->me;
    struct own o = {sbuf != MPI_IN_PLACE ? sbuf : NULL, scount, sdt};
    if (alg != TA_RD || n == 1) {
        if (alg == TA_DIRECT)
            linear(s, v, &b, &o, step);
        else
            ring(s, v, &b, &o, step);
        return;
    }
    if (o.buf) {
        copy_own(s, v, &b, &o);
        tide_sched_fence(s);
    }
    if (alg == TA_RD) {
        struct tide_datatype *byte = tide_coll_byte();
        size_t *off = tide_sched_alloc(s, (size_t)(n + 1) * sizeof *off);
        if (!off)
            return;
        off[0] = 0;
        for (int i = 0; i < n; i++)
            off[i + 1] = off[i] + (size_t)rcounts[i] * rdt->size;
        if (off[n] == 0)
            return;
        char *t = tide_sched_alloc(s, off[n]);
        if (!t)
            return;
        struct packed pk = {t, off};
        tide_sched_copy(s, blk_ptr(&b, me), blk_count(&b, me), rdt, t + off[me], off[me + 1] - off[me], byte);
        tide_sched_fence(s);
        rd_generic(s, v, range_packed, &pk, step);
        tide_sched_fence(s);
        for (int i = 0; i < n; i++)
            if (i != me)
                tide_sched_copy(s, t + off[i], off[i + 1] - off[i], byte, blk_ptr(&b, i), blk_count(&b, i), rdt);
        return;
    }
}

/* ---- MPI functions ---- */

struct agargs {
    const void *sbuf;
    MPI_Count scount;
    struct tide_datatype *sdt;
    void *rbuf;
    MPI_Count rcount;
    const MPI_Count *rcounts;
    const MPI_Aint *displs;
    struct tide_datatype *rdt;
    const int *ircounts, *idispls; /* the int form's arrays (widened into rcounts, displs) */
    struct tide_coll_wide wide;
};

/* shm_block: for a blocking call (even blocks), the bytes each rank puts
 * in the shared region if it carries the call; SIZE_MAX otherwise */
static int allgather_alg(struct tide_comm *c, bool vform, size_t total, size_t shm_block)
{
    struct tide_coll_sel sel = {.kind = vform ? TC_ALLGATHERV : TC_ALLGATHER, .bytes = total, .commute = true,
                                .even = !vform};
    tide_coll_sel_comm(&sel, c);
    sel.shm = shm_block != SIZE_MAX && tide_shm_coll_fits(c, shm_block);
    sel.get = shm_block != SIZE_MAX && !vform && tide_coll_region_readable_possible(c);
    return tide_coll_select(&sel);
}

/* A blocking allgather (even blocks) without a schedule, if its
 * algorithm allows: MPI_SUCCESS or an error, or -1 when the caller must
 * build one. */
static int allgather_direct_run(struct tide_comm *c, const struct agargs *a)
{
    if (!tide_direct_allowed(c))
        return -1;
    size_t block = (size_t)a->rcount * a->rdt->size;
    int alg = allgather_alg(c, false, block * (size_t)c->size, block);
    if (alg == TA_SHM) {
        int rc = tide_shm_allgather(c, a->sbuf, (size_t)a->scount, a->sdt, a->rbuf, (size_t)a->rcount, a->rdt);
        if (rc >= 0)
            return rc;
        alg = allgather_alg(c, false, block * (size_t)c->size, SIZE_MAX); /* no region after all */
    }
    if (alg == TA_GET) {
        int rc = tide_get_allgather(c, a->sbuf, (size_t)a->scount, a->sdt, a->rbuf, (size_t)a->rcount, a->rdt);
        if (rc >= 0)
            return rc;
        alg = allgather_alg(c, false, block * (size_t)c->size, SIZE_MAX); /* no reading after all */
    }
    if (!tide_direct_allgather_ok(alg))
        return -1;
    struct tide_cv v;
    tide_cv_comm(&v, c);
    return tide_direct_allgather(&v, a->sbuf, (size_t)a->scount, a->sdt, a->rbuf, (size_t)a->rcount, a->rdt, alg);
}

/* A blocking allgatherv through the shared region, if chosen: MPI_SUCCESS
 * or an error, or -1 when the caller must build a schedule. */
static int allgatherv_shm_run(struct tide_comm *c, const struct agargs *a)
{
    if (!tide_direct_allowed(c))
        return -1;
    size_t total = 0, largest = 0;
    for (int i = 0; i < c->size; i++) {
        size_t b = (size_t)a->rcounts[i] * a->rdt->size;
        total += b;
        if (b > largest)
            largest = b;
    }
    if (allgather_alg(c, true, total, largest) != TA_SHM)
        return -1;
    return tide_shm_allgatherv(c, a->sbuf, (size_t)a->scount, a->sdt, a->rbuf, a->rcounts, a->displs, a->rdt);
}

static void build(struct tide_sched *s, struct tide_comm *c, const struct agargs *a, bool vform)
{
    if (c->is_inter) {
        if (vform)
            tide_inter_allgatherv(s, c, a->sbuf, a->scount, a->sdt, a->rbuf, a->rcounts, a->displs, a->rdt);
        else
            tide_inter_allgather(s, c, a->sbuf, a->scount, a->sdt, a->rbuf, a->rcount, a->rdt);
        return;
    }
    size_t total = 0;
    if (vform)
        for (int i = 0; i < c->size; i++)
            total += (size_t)a->rcounts[i] * a->rdt->size;
    else
        total = (size_t)a->rcount * a->rdt->size * (size_t)c->size;
    int alg = allgather_alg(c, vform, total, SIZE_MAX);
    struct tide_cv v;
    tide_cv_comm(&v, c);
    if (vform)
        allgatherv_build(s, &v, a->sbuf, (size_t)a->scount, a->sdt, a->rbuf, a->rcounts, a->displs, a->rdt, alg, 0);
    else
        tide_allgather_build(s, &v, a->sbuf, (size_t)a->scount, a->sdt, a->rbuf, (size_t)a->rcount, a->rdt, alg,
                             0);
}

int tide_coll_allgather(const void *sbuf, MPI_Count scount, struct tide_datatype *sdt, void *rbuf, MPI_Count rcount,
                        struct tide_datatype *rdt, struct tide_comm *c)
{
    tide_coll_enter(c, true);
    struct agargs a = {sbuf, scount, sdt, rbuf, rcount, NULL, NULL, rdt, NULL, NULL, {{NULL}, 0}};
    int rc = allgather_direct_run(c, &a);
    if (rc >= 0)
        return rc;
    struct tide_sched *s = tide_sched_new(c);
    if (!s)
        return tide_err(MPI_ERR_NO_MEM, "MPI_Allgather: out of memory");
    build(s, c, &a, false);
    return tide_sched_run(s);
}

static int check(const char *fn, struct tide_comm *c, struct agargs *a, MPI_Datatype stype, MPI_Datatype rtype,
                 bool vform)
{
    int rc;
    if (c->is_inter && ((rc = tide_coll_no_in_place(a->sbuf, fn, "sendbuf", "not on an intercommunicator"))))
        return rc;
    if ((rc = tide_coll_no_in_place(a->rbuf, fn, "recvbuf", "the in-place form names sendbuf")))
        return rc;
    if (a->sbuf != MPI_IN_PLACE &&
        ((rc = tide_coll_check_type(stype, a->scount, fn, "sendtype", &a->sdt)) ||
         (rc = tide_coll_check_buf(a->sbuf, a->scount, a->sdt, fn, "sendbuf"))))
        return rc;
    int nblk = c->is_inter ? c->remote_size : c->size;
    if (vform) {
        if ((a->ircounts &&
             (rc = tide_coll_widen(&a->wide, a->ircounts, a->idispls, nblk, fn, &a->rcounts, &a->displs))) ||
            (rc = tide_coll_check_type(rtype, 0, fn, "recvtype", &a->rdt)) ||
            (rc = tide_coll_check_counts(a->rcounts, a->displs, nblk, a->rdt, true, fn, "recvcounts", "displs")))
            return rc;
        if (!c->is_inter && a->sbuf != MPI_IN_PLACE &&
            (rc = tide_coll_check_fit(a->scount, a->sdt, a->rcounts[c->rank], a->rdt, fn)))
            return rc;
    } else {
        if ((rc = tide_coll_check_type(rtype, a->rcount, fn, "recvtype", &a->rdt)) ||
            (rc = tide_coll_check_buf(a->rbuf, a->rcount, a->rdt, fn, "recvbuf")))
            return rc;
        if (!c->is_inter && a->sbuf != MPI_IN_PLACE &&
            (rc = tide_coll_check_fit(a->scount, a->sdt, a->rcount, a->rdt, fn)))
            return rc;
    }
    if (a->sbuf != MPI_IN_PLACE &&
        (rc = tide_coll_no_alias(a->sbuf, TIDE_COLL_BLOCK(a->scount, a->sdt), a->rbuf,
                                 vform ? &(struct tide_coll_blocks){.n = nblk, .counts = a->rcounts,
                                                                    .displs = a->displs, .dt = a->rdt}
                                       : TIDE_COLL_BLOCK((long long)a->rcount * nblk, a->rdt),
                                 fn)))
        return rc;
    if (!c->is_inter && a->sbuf != MPI_IN_PLACE && a->sbuf && a->scount > 0 && a->sdt->size > 0) {
        /* sendbuf at the place of this rank's own block in recvbuf */
        long long own = vform ? (long long)a->displs[c->rank] * a->rdt->extent
                              : (long long)c->rank * a->rcount * a->rdt->extent;
        if ((uintptr_t)a->rbuf + (uintptr_t)own == (uintptr_t)a->sbuf)
            return tide_err(MPI_ERR_BUFFER,
                            "%s: sendbuf is this rank's own block of recvbuf (aliased arguments sendbuf and "
                            "recvbuf; pass MPI_IN_PLACE as sendbuf for the in-place form)",
                            fn);
    }
    if (!a->sdt)
        a->sdt = a->rdt;
    return MPI_SUCCESS;
}

static void agree_build(struct tide_sched *s, struct tide_comm *c, const char *fn, const struct agargs *a,
                        bool vform)
{
    if (tide_coll_checking()) {
        struct tide_coll_agree ag = {.root = 0, .bytes = vform || c->is_inter ? -1
                                                     : (long long)a->rcount * (long long)a->rdt->size};
        tide_coll_agree_add(s, c, &ag, fn);
    }
    build(s, c, a, vform);
}

/* what a persistent allgather keeps */
struct allgather_kept {
    struct agargs a;
    bool vform;
};

static void kept_build(struct tide_sched *s, struct tide_comm *c, const char *fn, void *args)
{
    const struct allgather_kept *k = args;
    agree_build(s, c, fn, &k->a, k->vform);
}

/* An _init call: the request keeps the checked arguments (the wide
 * count and displacement arrays, copied). */
static int keep(const char *fn, struct tide_comm *c, const struct agargs *a, bool vform, MPI_Request *request)
{
    struct tide_pcoll *p = tide_pcoll_new(c, fn, kept_build);
    if (!p)
        return tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    struct allgather_kept k = {*a, vform};
    k.a.ircounts = k.a.idispls = NULL;
    k.a.wide = (struct tide_coll_wide){{NULL}, 0};
    if (vform) {
        size_t n = (size_t)(c->is_inter ? c->remote_size : c->size);
        k.a.rcounts = tide_pcoll_keep(p, a->rcounts, n * sizeof *a->rcounts);
        k.a.displs = tide_pcoll_keep(p, a->displs, n * sizeof *a->displs);
    }
    tide_pcoll_hold_dt(p, a->sdt);
    tide_pcoll_hold_dt(p, a->rdt);
    return tide_pcoll_commit(p, tide_pcoll_keep(p, &k, sizeof k), request);
}

static int run_api(const char *fn, struct agargs *a, MPI_Datatype stype, MPI_Datatype rtype, MPI_Comm comm,
                   bool vform, MPI_Request *request, enum tide_coll_mode mode)
{
    bool nonblocking = mode != TIDE_COLL_BLOCKING;
    struct tide_comm *c;
    int rc = tide_coll_check_comm(comm, fn, &c);
    if (rc)
        return tide_coll_raise(c, rc);
    tide_coll_enter(c, mode != TIDE_COLL_NONBLOCKING);
    tide_coll_count_call(c);
    rc = check(fn, c, a, stype, rtype, vform);
    if (!rc && nonblocking)
        rc = tide_coll_check_request(request, fn);
    rc = tide_coll_checked(c, rc, fn);
    if (rc) {
        return tide_raise_comm(c, tide_coll_mode_error(c, mode, rc, 0, fn));
    }
    if (mode == TIDE_COLL_PERSISTENT) {
        rc = keep(fn, c, a, vform, request);
        return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
    }
    if (!nonblocking && !vform && (rc = allgather_direct_run(c, a)) >= 0)
        return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
    if (!nonblocking && vform && (rc = allgatherv_shm_run(c, a)) >= 0)
        return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
    struct tide_sched *s = tide_sched_new(c);
    if (!s)
        return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    agree_build(s, c, fn, a, vform);
    rc = nonblocking ? tide_sched_start(s, request) : tide_sched_run(s);
    return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
}

static int start(const char *fn, struct agargs *a, MPI_Datatype stype, MPI_Datatype rtype, MPI_Comm comm,
                 bool vform, MPI_Request *request, enum tide_coll_mode mode)
{
    int rc = run_api(fn, a, stype, rtype, comm, vform, request, mode);
    tide_coll_wide_free(&a->wide);
    return rc;
}

int tide_allgather_api(const char *fn, const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
                       MPI_Count rcount, const MPI_Count *rcounts, const MPI_Aint *displs, MPI_Datatype rtype,
                       MPI_Comm comm, bool vform, MPI_Request *request, enum tide_coll_mode mode)
{
    struct agargs a = {sbuf, scount, NULL, rbuf, rcount, rcounts, displs, NULL, NULL, NULL, {{NULL}, 0}};
    return start(fn, &a, stype, rtype, comm, vform, request, mode);
}

int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm)
{
    TIDE_API_ENTER();
    struct agargs a = {sendbuf, sendcount, NULL, recvbuf, recvcount, NULL, NULL, NULL, NULL, NULL, {{NULL}, 0}};
    return start("MPI_Allgather", &a, sendtype, recvtype, comm, false, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Allgather)

int PMPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    struct agargs a = {sendbuf, sendcount, NULL, recvbuf, recvcount, NULL, NULL, NULL, NULL, NULL, {{NULL}, 0}};
    return start("MPI_Iallgather", &a, sendtype, recvtype, comm, false, request, TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Iallgather)

int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    TIDE_API_ENTER();
    struct agargs a = {sendbuf, sendcount, NULL, recvbuf, 0, NULL, NULL, NULL, recvcounts, displs, {{NULL}, 0}};
    return start("MPI_Allgatherv", &a, sendtype, recvtype, comm, true, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Allgatherv)

int PMPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                     MPI_Request *request)
{
    TIDE_API_ENTER();
    struct agargs a = {sendbuf, sendcount, NULL, recvbuf, 0, NULL, NULL, NULL, recvcounts, displs, {{NULL}, 0}};
    return start("MPI_Iallgatherv", &a, sendtype, recvtype, comm, true, request, TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Iallgatherv)

int PMPI_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Allgather_init";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    struct agargs a = {sendbuf, sendcount, NULL, recvbuf, recvcount, NULL, NULL, NULL, NULL, NULL, {{NULL}, 0}};
    return start(fn, &a, sendtype, recvtype, comm, false, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Allgather_init)

int PMPI_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                         MPI_Info info, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Allgatherv_init";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    struct agargs a = {sendbuf, sendcount, NULL, recvbuf, 0, NULL, NULL, NULL, recvcounts, displs, {{NULL}, 0}};
    return start(fn, &a, sendtype, recvtype, comm, true, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Allgatherv_init)
