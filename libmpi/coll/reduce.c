/*
 * reduce.c: MPI_Reduce and MPI_Ireduce. Algorithms: binomial tree (for a
 * commutative op rooted at the root; for a non-commutative one rooted at
 * rank 0, where every subtree is a contiguous run of ranks combined in
 * rank order, and the result then sent to the root), linear (the root
 * receives everything and combines in rank order), ring (reduce-scatter
 * round the ring, then the root gathers the pieces; commutative ops, long
 * messages) and node-aware (within each node first, then among the node
 * leaders, the root standing in for its node's leader).
 *
 * Temporaries have the datatype's layout (its true extent), so derived
 * types and user functions see their own type.
 */
#include "runtime/api.h"
#include "coll/algo.h"
#include "coll/coll.h"
#include "coll/coll_api.h"
#include "coll/coll_args.h"
#include "coll/inter.h"
#include "coll/pcoll.h"
#include "op/op.h"

#include <string.h>

#define PARALLEL_CHILDREN_BYTES 65536

static void reduce_binomial(struct tide_sched *s, const struct tide_cv *v, const void *sbuf, void *rbuf,
                            size_t count, struct tide_datatype *dt, struct tide_op *op, int root, int step)
{
    int n = v->n, me = v->me;
    bool commute = op->commute;
    int troot = commute ? root : 0; /* the tree's root */
    int vr = (me - troot + n) % n;
    const void *mine = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    int low = 1;
    while (low < n && !(vr & low))
        low <<= 1;
    int nchild = 0;
    for (int mask = 1; mask < low && vr + mask < n; mask <<= 1)
        nchild++;
    /* small messages: every child's part received at once into its own
     * buffer; large ones: one child after the other through two */
    bool parallel = count * (size_t)(dt->extent > 0 ? dt->extent : 1) <= PARALLEL_CHILDREN_BYTES;
    void *bufs[32];
    int nbufs = parallel ? nchild : (nchild < 2 ? nchild : 2);
    for (int i = 0; i < nbufs; i++)
        if (!(bufs[i] = tide_sched_tmp(s, count, dt)))
            return;
    bool into_rbuf = commute && me == root; /* then troot == root == me */
    const void *acc = mine;
    if (into_rbuf) {
        if (sbuf != MPI_IN_PLACE)
            tide_sched_copy(s, sbuf, count, dt, rbuf, count, dt);
        acc = rbuf;
    }
    if (parallel && nchild) {
        for (int m = 1, i = 0; i < nchild; m <<= 1, i++)
            cv_recv(s, v, (vr + m + troot) % n, step, bufs[i], count, dt);
        tide_sched_fence(s);
    }
    for (int k = 0, mask = 1; k < nchild; k++, mask <<= 1) {
        void *cb;
        if (parallel)
            cb = bufs[k];
        else if (commute)
            cb = (into_rbuf || k == 0) ? bufs[0] : bufs[1];
        else
            cb = bufs[k % 2];
        if (!parallel) {
            cv_recv(s, v, (vr + mask + troot) % n, step, cb, count, dt);
            tide_sched_fence(s);
        }
        if (commute && (into_rbuf || k > 0)) {
            tide_sched_reduce(s, cb, (void *)acc, count, dt, op); /* acc = child op acc */
        } else {
            /* cb = acc op child: lower ranks on the left */
            tide_sched_reduce(s, acc, cb, count, dt, op);
            acc = cb;
        }
    }
    if (vr != 0) {
        cv_send(s, v, (vr - low + troot) % n, step, acc, count, dt);
        if (me == root) { /* non-commutative: the result comes from rank 0 */
            tide_sched_fence(s);
            cv_recv(s, v, troot, step + 1, rbuf, count, dt);
        }
        return;
    }
    if (me == root) {
        if (acc != rbuf)
            tide_sched_copy(s, acc, count, dt, rbuf, count, dt);
    } else {
        tide_sched_fence(s);
        cv_send(s, v, root, step + 1, acc, count, dt);
    }
}

static void reduce_linear(struct tide_sched *s, const struct tide_cv *v, const void *sbuf, void *rbuf, size_t count,
                          struct tide_datatype *dt, struct tide_op *op, int root, int step)
{
    int n = v->n, me = v->me;
    if (me != root) {
        cv_send(s, v, root, step, sbuf, count, dt);
        return;
    }
    const void **p = tide_sched_alloc(s, (size_t)n * sizeof *p);
    if (!p)
        return;
    const void *mine = sbuf;
    if (sbuf == MPI_IN_PLACE && root != n - 1) {
        void *own = tide_sched_tmp(s, count, dt);
        if (!own)
            return;
        tide_sched_copy(s, rbuf, count, dt, own, count, dt);
        mine = own;
    }
    for (int i = 0; i < n; i++) {
        if (i == root) {
            p[i] = mine;
            continue;
        }
        void *t = tide_sched_tmp(s, count, dt);
        if (!t)
            return;
        cv_recv(s, v, i, step, t, count, dt);
        p[i] = t;
    }
    tide_sched_fence(s);
    /* rbuf = p[0] op (p[1] op (... op p[n-1])) */
    if (!(sbuf == MPI_IN_PLACE && root == n - 1))
        tide_sched_copy(s, p[n - 1], count, dt, rbuf, count, dt);
    for (int i = n - 2; i >= 0; i--)
        tide_sched_reduce(s, p[i], rbuf, count, dt, op);
}

/* reduce-scatter round the ring (rank i ends with piece i fully reduced),
 * then gather the pieces at the root. Commutative ops. */
static void reduce_ring(struct tide_sched *s, const struct tide_cv *v, const void *sbuf, void *rbuf, size_t count,
                        struct tide_datatype *dt, struct tide_op *op, int root, int step)
{
    int n = v->n, me = v->me;
    size_t cs = (count + (size_t)n - 1) / (size_t)n;
#define LO(j) ((size_t)(j) * cs < count ? (size_t)(j) * cs : count)
#define LEN(j) (LO((j) + 1) - LO(j))
    void *acc;
    if (me == root) {
        acc = rbuf;
        if (sbuf != MPI_IN_PLACE)
            tide_sched_copy(s, sbuf, count, dt, rbuf, count, dt);
    } else {
        acc = tide_sched_tmp(s, count, dt);
        if (!acc)
            return;
        tide_sched_copy(s, sbuf, count, dt, acc, count, dt);
    }
    void *tmp = tide_sched_tmp(s, cs, dt);
    if (!tmp)
        return;
    tide_sched_fence(s);
    int left = (me - 1 + n) % n, right = (me + 1) % n;
    for (int k = 0; k < n - 1; k++, step++) {
        int sj = (me - k - 1 + 2 * n) % n, rj = (me - k - 2 + 2 * n) % n;
        if (LEN(rj))
            cv_recv(s, v, left, step, tmp, LEN(rj), dt);
        if (LEN(sj))
            cv_send(s, v, right, step, elem_at(acc, dt, LO(sj)), LEN(sj), dt);
        tide_sched_fence(s);
        if (LEN(rj))
            tide_sched_reduce(s, tmp, elem_at(acc, dt, LO(rj)), LEN(rj), dt, op);
    }
    if (me == root) {
        for (int j = 0; j < n; j++)
            if (j != root && LEN(j))
                cv_recv(s, v, j, step, elem_at(rbuf, dt, LO(j)), LEN(j), dt);
    } else if (LEN(me)) {
        cv_send(s, v, root, step, elem_at(acc, dt, LO(me)), LEN(me), dt);
    }
#undef LO
#undef LEN
}

/* Node-aware: reduce within each node to the node's leader (the root on
 * its own node), then among the leaders to the root. Commutative ops. */
static void reduce_hier(struct tide_sched *s, const struct tide_cv *all, const struct tide_coll_state *st,
                        const void *sbuf, void *rbuf, size_t count, struct tide_datatype *dt, struct tide_op *op,
                        int root, int step)
{
    int rnode = st->node_of[root];
    int *lead = tide_sched_alloc(s, (size_t)st->nnodes * sizeof *lead);
    if (!lead)
        return;
    memcpy(lead, st->leaders, (size_t)st->nnodes * sizeof *lead);
    lead[rnode] = root;
    struct tide_cv nv;
    tide_cv_node(&nv, st, all);
    int nroot = 0;
    for (int i = 0; i < nv.n; i++)
        if (nv.map[i] == lead[st->my_node])
            nroot = i;
    bool leader = lead[st->my_node] == all->me;
    void *part = NULL;
    if (leader && all->me != root) {
        part = tide_sched_tmp(s, count, dt);
        if (!part)
            return;
    }
    tide_reduce_build(s, &nv, sbuf, all->me == root ? rbuf : part, count, dt, op, nroot, TA_BINOMIAL, step);
    if (!leader)
        return;
    tide_sched_fence(s);
    struct tide_cv lv = {.comm = all->comm, .n = st->nnodes, .seq = all->seq, .map = lead, .me = st->my_node};
    int alg = count * dt->size >= 524288 && count >= (size_t)lv.n ? TA_RING : TA_BINOMIAL;
    if (all->me == root)
        tide_reduce_build(s, &lv, MPI_IN_PLACE, rbuf, count, dt, op, rnode, alg, step + TIDE_STEP_PHASE);
    else
        tide_reduce_build(s, &lv, part, NULL, count, dt, op, rnode, alg, step + TIDE_STEP_PHASE);
}

void tide_reduce_build(struct tide_sched *s, const struct tide_cv *v, const void *sbuf, void *rbuf, size_t count,
                       struct tide_datatype *dt, struct tide_op *op, int root, int alg, int step)
{
    if (count == 0)
        return;
    if (v->n == 1) {
        if (sbuf != MPI_IN_PLACE)
            tide_sched_copy(s, sbuf, count, dt, rbuf, count, dt);
        return;
    }
    switch (alg) {
    case TA_LINEAR:
        reduce_linear(s, v, sbuf, rbuf, count, dt, op, root, step);
        return;
    case TA_RING:
        if (op->commute && count >= (size_t)v->n) {
            reduce_ring(s, v, sbuf, rbuf, count, dt, op, root, step);
            return;
        }
        break;
    case TA_HIER:
        if (op->commute && !v->map && v->comm->coll && v->comm->coll->layout == 2) {
            reduce_hier(s, v, v->comm->coll, sbuf, rbuf, count, dt, op, root, step);
            return;
        }
        break;
    default:
        break;
    }
    reduce_binomial(s, v, sbuf, rbuf, count, dt, op, root, step);
}

/* ---- MPI functions ---- */

static void build(struct tide_sched *s, struct tide_comm *c, const void *sbuf, void *rbuf, MPI_Count count,
                  struct tide_datatype *dt, struct tide_op *op, int root)
{
    if (c->is_inter) {
        tide_inter_reduce(s, c, sbuf, rbuf, count, dt, op, root);
        return;
    }
    struct tide_coll_sel sel = {.kind = TC_REDUCE, .bytes = (size_t)count * dt->size, .commute = op->commute,
                                .even = true};
    tide_coll_sel_comm(&sel, c);
    struct tide_cv v;
    tide_cv_comm(&v, c);
    tide_reduce_build(s, &v, sbuf, rbuf, (size_t)count, dt, op, root, tide_coll_select(&sel), 0);
}

int tide_coll_reduce(const void *sbuf, void *rbuf, MPI_Count count, struct tide_datatype *dt, struct tide_op *op,
                     int root, struct tide_comm *c)
{
    tide_coll_enter(c, true);
    struct tide_sched *s = tide_sched_new(c);
    if (!s)
        return tide_err(MPI_ERR_NO_MEM, "MPI_Reduce: out of memory");
    build(s, c, sbuf, rbuf, count, dt, op, root);
    return tide_sched_run(s);
}

struct reduce_args {
    const void *sbuf;
    void *rbuf;
    MPI_Count count; /* as passed (what the ranks agree on) */
    MPI_Count moved; /* what this rank reduces: 0 on an idle side */
    struct tide_datatype *dt;
    struct tide_op *o;
    MPI_Op op;
    int root;
};

static void agree_build(struct tide_sched *s, struct tide_comm *c, const char *fn, void *args)
{
    const struct reduce_args *a = args;
    if (tide_coll_checking()) {
        struct tide_coll_agree ag = {.root = a->root, .bytes = (long long)a->count * (long long)a->dt->size,
                                     .op = a->op};
        tide_coll_agree_add(s, c, &ag, fn);
    }
    build(s, c, a->sbuf, a->rbuf, a->moved, a->dt, a->o, a->root);
}

static int start(const char *fn, const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
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
    rc = tide_coll_check_root(c, root, fn);
    bool active = !c->is_inter || root != MPI_PROC_NULL;
    bool is_root = c->is_inter ? root == MPI_ROOT : c->rank == root;
    if (!rc && active) {
        if (c->is_inter) {
            if (!(rc = tide_coll_no_in_place(sbuf, fn, "sendbuf", "not on an intercommunicator")))
                rc = tide_coll_no_in_place(rbuf, fn, "recvbuf", "not on an intercommunicator");
        } else if (!is_root) {
            rc = tide_coll_no_in_place(sbuf, fn, "sendbuf", "only the root may use it");
        } else {
            rc = tide_coll_no_in_place(rbuf, fn, "recvbuf", "the in-place form names sendbuf");
        }
        if (!rc && !(rc = tide_coll_check_type(datatype, count, fn, "datatype", &dt)) &&
            !(rc = tide_coll_check_op(op, dt, fn, &o))) {
            if (!(c->is_inter && is_root) && sbuf != MPI_IN_PLACE)
                rc = tide_coll_check_buf(sbuf, count, dt, fn, "sendbuf");
            if (!rc && is_root)
                rc = tide_coll_check_buf(rbuf, count, dt, fn, "recvbuf");
            if (!rc && is_root && !c->is_inter)
                rc = tide_coll_no_alias(sbuf, TIDE_COLL_BLOCK(count, dt), rbuf, TIDE_COLL_BLOCK(count, dt), fn);
        }
    }
    if (!rc && nonblocking)
        rc = tide_coll_check_request(request, fn);
    rc = tide_coll_checked(c, rc, fn);
    if (rc) {
        return tide_raise_comm(c, tide_coll_mode_error(c, mode, rc, root, fn));
    }
    if (!dt)
        dt = tide_coll_byte();
    if (!o)
        o = tide_op_get(MPI_MAX);
    struct reduce_args a = {sbuf, rbuf, count, active ? count : 0, dt, o, op, root};
    if (mode == TIDE_COLL_PERSISTENT) {
        struct tide_pcoll *p = tide_pcoll_new(c, fn, agree_build);
        if (!p)
            return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
        tide_pcoll_hold_dt(p, dt);
        tide_pcoll_hold_op(p, o);
        rc = tide_pcoll_commit(p, tide_pcoll_keep(p, &a, sizeof a), request);
        return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
    }
    struct tide_sched *s = tide_sched_new(c);
    if (!s)
        return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    agree_build(s, c, fn, &a);
    rc = nonblocking ? tide_sched_start(s, request) : tide_sched_run(s);
    return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
}

int tide_reduce_api(const char *fn, const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                    int root, MPI_Comm comm, MPI_Request *request, enum tide_coll_mode mode)
{
    return start(fn, sbuf, rbuf, count, datatype, op, root, comm, request, mode);
}

int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                MPI_Comm comm)
{
    TIDE_API_ENTER();
    return start("MPI_Reduce", sendbuf, recvbuf, count, datatype, op, root, comm, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Reduce)

int PMPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                 MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    return start("MPI_Ireduce", sendbuf, recvbuf, count, datatype, op, root, comm, request, TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Ireduce)

int PMPI_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                    MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Reduce_init";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    return start(fn, sendbuf, recvbuf, count, datatype, op, root, comm, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Reduce_init)
