/*
 * bcast.c: MPI_Bcast and MPI_Ibcast. Algorithms: linear (the root sends
 * to everyone), binomial tree, segmented chain (pipeline), binomial
 * scatter followed by a ring or recursive-doubling allgather (van de
 * Geijn; the message is cut into n pieces of whole elements), and the
 * node-aware form (among the node leaders, the root standing in for its
 * node's leader, then within every node).
 */
#include "runtime/api.h"
#include "coll/algo.h"
#include "coll/coll.h"
#include "coll/coll_api.h"
#include "coll/coll_args.h"
#include "coll/direct.h"
#include "coll/inter.h"
#include "coll/pcoll.h"
#include "coll/shm_coll.h"
#include "coll/shm_get.h"
#include "coll/shm_region.h"

#include <string.h>

void tide_bcast_linear(struct tide_sched *s, const struct tide_cv *v, void *buf, size_t count,
                       struct tide_datatype *dt, int root, int step)
{
    if (v->me == root) {
        for (int i = 1; i < v->n; i++)
            cv_send(s, v, (root + i) % v->n, step, buf, count, dt);
    } else {
        cv_recv(s, v, root, step, buf, count, dt);
    }
}

void tide_bcast_binomial(struct tide_sched *s, const struct tide_cv *v, void *buf, size_t count,
                         struct tide_datatype *dt, int root, int step)
{
    int n = v->n, vr = (v->me - root + n) % n, mask = 1;
    while (mask < n) {
        if (vr & mask) {
            cv_recv(s, v, (vr - mask + root) % n, step, buf, count, dt);
            tide_sched_fence(s);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vr + mask < n)
            cv_send(s, v, (vr + mask + root) % n, step, buf, count, dt);
}

/* Elements [lo, hi) of piece range [a, b) when count elements are cut
 * into n pieces of cs. */
static size_t piece_lo(size_t a, size_t cs, size_t count)
{
    size_t x = a * cs;
    return x < count ? x : count;
}

/* Chain root -> root+1 -> ... in segments of seg elements. */
static void bcast_pipeline(struct tide_sched *s, const struct tide_cv *v, void *buf, size_t count,
                           struct tide_datatype *dt, int root, size_t seg, int step)
{
    int n = v->n, vr = (v->me - root + n) % n;
    int prev = (v->me - 1 + n) % n, next = (v->me + 1) % n;
    if (seg == 0)
        seg = count;
    size_t nseg = (count + seg - 1) / seg;
    for (size_t k = 0; k < nseg; k++) {
        size_t lo = k * seg, len = count - lo < seg ? count - lo : seg;
        void *p = elem_at(buf, dt, lo);
        if (vr > 0) {
            cv_recv(s, v, prev, step + (int)(k & 0xff), p, len, dt);
            tide_sched_fence(s);
        }
        if (vr < n - 1)
            cv_send(s, v, next, step + (int)(k & 0xff), p, len, dt);
    }
}

static void bcast_scatter_allgather(struct tide_sched *s, const struct tide_cv *v, void *buf, size_t count,
                                    struct tide_datatype *dt, int root, bool rd, int step)
{
    int n = v->n, vr = (v->me - root + n) % n;
    size_t cs = (count + (size_t)n - 1) / (size_t)n;
    /* scatter: view rank vr gets the pieces of its subtree [vr, vr + lowbit) */
    int mask = 1;
    while (mask < n) {
        if (vr & mask) {
            size_t lo = piece_lo((size_t)vr, cs, count);
            size_t hi = piece_lo((size_t)(vr + mask < n ? vr + mask : n), cs, count);
            if (hi > lo)
                cv_recv(s, v, (vr - mask + root) % n, step, elem_at(buf, dt, lo), hi - lo, dt);
            tide_sched_fence(s);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (vr + mask < n) {
            int end = vr + 2 * mask < n ? vr + 2 * mask : n;
            size_t lo = piece_lo((size_t)(vr + mask), cs, count), hi = piece_lo((size_t)end, cs, count);
            if (hi > lo)
                cv_send(s, v, (vr + mask + root) % n, step, elem_at(buf, dt, lo), hi - lo, dt);
        }
    }
    tide_sched_fence(s);
    step++;
    if (rd && is_pof2(n)) {
        for (mask = 1; mask < n; mask <<= 1, step++) {
            int pv = vr ^ mask;
            int mine = vr & ~(mask - 1), theirs = pv & ~(mask - 1);
            size_t mlo = piece_lo((size_t)mine, cs, count), mhi = piece_lo((size_t)(mine + mask), cs, count);
            size_t tlo = piece_lo((size_t)theirs, cs, count), thi = piece_lo((size_t)(theirs + mask), cs, count);
            int peer = (pv + root) % n;
            if (thi > tlo)
                cv_recv(s, v, peer, step, elem_at(buf, dt, tlo), thi - tlo, dt);
            if (mhi > mlo)
                cv_send(s, v, peer, step, elem_at(buf, dt, mlo), mhi - mlo, dt);
            tide_sched_fence(s);
        }
        return;
    }
    int left = (v->me - 1 + n) % n, right = (v->me + 1) % n;
    for (int k = 0; k < n - 1; k++, step++) {
        int sp = (vr - k + n) % n, rp = (vr - k - 1 + n) % n;
        size_t slo = piece_lo((size_t)sp, cs, count), shi = piece_lo((size_t)sp + 1, cs, count);
        size_t rlo = piece_lo((size_t)rp, cs, count), rhi = piece_lo((size_t)rp + 1, cs, count);
        if (rhi > rlo)
            cv_recv(s, v, left, step, elem_at(buf, dt, rlo), rhi - rlo, dt);
        if (shi > slo)
            cv_send(s, v, right, step, elem_at(buf, dt, slo), shi - slo, dt);
        tide_sched_fence(s);
    }
}

static void bcast_hier(struct tide_sched *s, const struct tide_cv *all, const struct tide_coll_state *st,
                       void *buf, size_t count, struct tide_datatype *dt, int root, int step)
{
    int rnode = st->node_of[root];
    int *lead = tide_sched_alloc(s, (size_t)st->nnodes * sizeof *lead);
    if (!lead)
        return;
    memcpy(lead, st->leaders, (size_t)st->nnodes * sizeof *lead);
    lead[rnode] = root;
    struct tide_cv lv = {.comm = all->comm, .n = st->nnodes, .seq = all->seq, .map = lead};
    lv.me = lead[st->my_node] == all->me ? st->my_node : -1;
    size_t bytes = count * dt->size;
    if (lv.me >= 0) {
        if (bytes >= 262144 && lv.n > 2)
            bcast_scatter_allgather(s, &lv, buf, count, dt, rnode, false, step);
        else
            tide_bcast_binomial(s, &lv, buf, count, dt, rnode, step);
        tide_sched_fence(s);
    }
    struct tide_cv nv;
    tide_cv_node(&nv, st, all);
    int nroot = 0;
    for (int i = 0; i < nv.n; i++)
        if (nv.map[i] == lead[st->my_node])
            nroot = i;
    tide_bcast_binomial(s, &nv, buf, count, dt, nroot, step + TIDE_STEP_PHASE);
}

void tide_bcast_build(struct tide_sched *s, const struct tide_cv *v, void *buf, size_t count,
                      struct tide_datatype *dt, int root, int alg, int step)
{
    if (v->n == 1 || count == 0 || dt->size == 0)
        return;
    tide_coll_as_bytes(&buf, &count, &dt);
    switch (alg) {
    case TA_LINEAR:
        tide_bcast_linear(s, v, buf, count, dt, root, step);
        break;
    case TA_PIPELINE: {
        size_t seg = (65536 + dt->size - 1) / dt->size;
        bcast_pipeline(s, v, buf, count, dt, root, seg, step);
        break;
    }
    case TA_SCATTER_RING:
    case TA_SCATTER_RD:
        if (count >= (size_t)v->n) {
            bcast_scatter_allgather(s, v, buf, count, dt, root, alg == TA_SCATTER_RD, step);
            break;
        }
        /* too few elements to cut */
        __attribute__((fallthrough));
    default:
        tide_bcast_binomial(s, v, buf, count, dt, root, step);
        break;
    }
}

/* blocking: the call may read straight from the root's memory (and its
 * choice is kept for the next call of the size) */
static int bcast_alg(struct tide_comm *c, MPI_Count count, struct tide_datatype *dt, bool blocking)
{
    size_t bytes = (size_t)count * dt->size;
    struct tide_coll_memo *m = c->coll ? &c->coll->bcast_memo : NULL;
    int alg = blocking && m ? tide_coll_memo_find(c, m, bytes) : 0;
    if (alg)
        return alg;
    struct tide_coll_sel sel = {.kind = TC_BCAST, .bytes = bytes, .commute = true, .even = true};
    tide_coll_sel_comm(&sel, c);
    sel.get = blocking && tide_coll_region_readable_possible(c);
    sel.shm = blocking && tide_coll_region_possible(c); /* any size: long data goes in pieces */
    alg = tide_coll_select(&sel);
    if (blocking && m)
        tide_coll_memo_keep(c, m, bytes, alg);
    return alg;
}

/* A blocking broadcast without a schedule, if its algorithm allows:
 * MPI_SUCCESS or an error, or -1 when the caller must build one. */
static int bcast_direct_run(struct tide_comm *c, void *buf, MPI_Count count, struct tide_datatype *dt, int root)
{
    if (!tide_direct_allowed(c))
        return -1;
    if (c->size == 1 || count == 0 || dt->size == 0)
        return MPI_SUCCESS;
    int alg = bcast_alg(c, count, dt, true);
    if (alg == TA_SHM) {
        int rc = tide_shm_bcast(c, buf, (size_t)count, dt, root);
        if (rc >= 0)
            return rc;
        alg = bcast_alg(c, count, dt, true); /* no region after all */
    }
    if (alg == TA_GET) {
        int rc = tide_get_bcast(c, buf, (size_t)count, dt, root);
        if (rc >= 0)
            return rc;
        alg = bcast_alg(c, count, dt, true); /* the ranks cannot read each other's memory after all */
    }
    if (!tide_direct_bcast_ok(alg))
        return -1;
    struct tide_cv v;
    tide_cv_comm(&v, c);
    return tide_direct_bcast(&v, buf, (size_t)count, dt, root, alg);
}

static void bcast_build(struct tide_sched *s, struct tide_comm *c, void *buf, MPI_Count count, struct tide_datatype *dt,
                        int root)
{
    if (c->is_inter) {
        tide_inter_bcast(s, c, buf, count, dt, root);
        return;
    }
    int alg = bcast_alg(c, count, dt, false);
    struct tide_cv v;
    tide_cv_comm(&v, c);
    if (v.n == 1 || count == 0 || dt->size == 0)
        return;
    if (alg == TA_HIER)
        bcast_hier(s, &v, c->coll, buf, (size_t)count, dt, root, 0);
    else
        tide_bcast_build(s, &v, buf, (size_t)count, dt, root, alg, 0);
}

int tide_coll_bcast(void *buf, MPI_Count count, struct tide_datatype *dt, int root, struct tide_comm *c)
{
    tide_coll_enter(c, true);
    int rc = bcast_direct_run(c, buf, count, dt, root);
    if (rc >= 0)
        return rc;
    struct tide_sched *s = tide_sched_new(c);
    if (!s)
        return tide_err(MPI_ERR_NO_MEM, "MPI_Bcast: out of memory");
    bcast_build(s, c, buf, count, dt, root);
    return tide_sched_run(s);
}

static int check(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                 struct tide_comm **cp, struct tide_datatype **dtp)
{
    int rc = tide_coll_check_comm(comm, fn, cp);
    if (rc)
        return rc;
    struct tide_comm *c = *cp;
    if ((rc = tide_coll_check_root(c, root, fn)))
        return rc;
    bool active = !c->is_inter || (root != MPI_PROC_NULL);
    if (!active)
        return MPI_SUCCESS;
    if ((rc = tide_coll_check_type(datatype, count, fn, "datatype", dtp)) ||
        (rc = tide_coll_no_in_place(buf, fn, "buffer", "MPI_Bcast has no in-place form")) ||
        (rc = tide_coll_check_buf(buf, count, *dtp, fn, "buffer")))
        return rc;
    return MPI_SUCCESS;
}

struct bcast_args {
    void *buf;
    MPI_Count count;
    struct tide_datatype *dt;
    int root;
};

static void agree_build(struct tide_sched *s, struct tide_comm *c, const char *fn, void *args)
{
    const struct bcast_args *a = args;
    if (tide_coll_checking()) {
        struct tide_coll_agree ag = {.root = a->root, .bytes = (long long)a->count * (long long)a->dt->size};
        if (c->is_inter)
            ag.bytes = -1;
        tide_coll_agree_add(s, c, &ag, fn);
    }
    bcast_build(s, c, a->buf, a->count, a->dt, a->root);
}

static int start(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                 MPI_Request *request, enum tide_coll_mode mode)
{
    struct tide_comm *c;
    struct tide_datatype *dt = NULL;
    int rc = check(fn, buf, count, datatype, root, comm, &c, &dt);
    if (!c)
        return tide_coll_raise(c, rc);
    tide_coll_enter(c, mode != TIDE_COLL_NONBLOCKING);
    tide_coll_count_call(c);
    if (rc == MPI_SUCCESS && mode != TIDE_COLL_BLOCKING)
        rc = tide_coll_check_request(request, fn);
    rc = tide_coll_checked(c, rc, fn);
    if (rc)
        return tide_raise_comm(c, tide_coll_mode_error(c, mode, rc, root, fn));
    if (!dt)
        dt = tide_coll_byte(); /* intercommunicator, MPI_PROC_NULL side: nothing moves */
    struct bcast_args a = {buf, count, dt, root};
    if (mode == TIDE_COLL_PERSISTENT) {
        struct tide_pcoll *p = tide_pcoll_new(c, fn, agree_build);
        if (!p)
            return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
        tide_pcoll_hold_dt(p, dt);
        rc = tide_pcoll_commit(p, tide_pcoll_keep(p, &a, sizeof a), request);
        return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
    }
    if (mode == TIDE_COLL_BLOCKING && (rc = bcast_direct_run(c, buf, count, dt, root)) >= 0)
        return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
    struct tide_sched *s = tide_sched_new(c);
    if (!s)
        return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    agree_build(s, c, fn, &a);
    rc = mode == TIDE_COLL_NONBLOCKING ? tide_sched_start(s, request) : tide_sched_run(s);
    return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
}

int tide_bcast_api(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                   MPI_Request *request, enum tide_coll_mode mode)
{
    return start(fn, buf, count, datatype, root, comm, request, mode);
}

int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    TIDE_API_ENTER();
    return start("MPI_Bcast", buffer, count, datatype, root, comm, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Bcast)

int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    return start("MPI_Ibcast", buffer, count, datatype, root, comm, request, TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Ibcast)

int PMPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                    MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Bcast_init";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    return start(fn, buffer, count, datatype, root, comm, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Bcast_init)
