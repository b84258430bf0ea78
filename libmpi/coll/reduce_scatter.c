/*
 * reduce_scatter.c: MPI_Reduce_scatter_block, MPI_Reduce_scatter and
 * their nonblocking forms. Algorithms: ring (n-1 steps, each passing one
 * partially reduced block on; commutative ops), pairwise (in step k every
 * rank sends rank me+k its block of the input and combines what me-k
 * sends; commutative ops), recursive-doubling allreduce then keeping
 * one's block (short vectors, any op), and reduce to rank 0 in rank order
 * then scatter (non-commutative ops); blocking calls on one node may go
 * through the shared region (shm_coll.c), and then the nonblocking form
 * reduces linearly to rank 0 and scatters, which combines in the same
 * order. Intercommunicator forms are in inter.c.
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
#include "op/op.h"

#include <limits.h>
#include <stdlib.h>

void tide_reduce_scatter_build(struct tide_sched *s, const struct tide_cv *v, const void *sbuf, void *rbuf,
                               const MPI_Count *counts, struct tide_datatype *dt, struct tide_op *op, int alg, int step)
{
    int n = v->n, me = v->me;
    size_t *off = tide_sched_alloc(s, (size_t)(n + 1) * sizeof *off);
    if (!off)
        return;
    off[0] = 0;
    size_t maxc = 0;
    for (int i = 0; i < n; i++) {
        off[i + 1] = off[i] + (size_t)counts[i];
        if ((size_t)counts[i] > maxc)
            maxc = (size_t)counts[i];
    }
    size_t total = off[n];
    if (total == 0)
        return;
    const void *in = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    size_t mc = (size_t)counts[me];
    if (n == 1) {
        if (sbuf != MPI_IN_PLACE)
            tide_sched_copy(s, sbuf, mc, dt, rbuf, mc, dt);
        return;
    }
    if (!op->commute && (alg == TA_RING || alg == TA_PAIRWISE))
        alg = TA_REDUCE_SCATTERV;
    switch (alg) {
    case TA_RING: {
        void *acc = tide_sched_tmp(s, total, dt), *tmp = tide_sched_tmp(s, maxc, dt);
        if (!acc || !tmp)
            return;
        tide_sched_copy(s, in, total, dt, acc, total, dt);
        tide_sched_fence(s);
        int left = (me - 1 + n) % n, right = (me + 1) % n;
        for (int k = 0; k < n - 1; k++, step++) {
            int sj = (me - k - 1 + 2 * n) % n, rj = (me - k - 2 + 2 * n) % n;
            if (counts[rj])
                cv_recv(s, v, left, step, tmp, (size_t)counts[rj], dt);
            if (counts[sj])
                cv_send(s, v, right, step, elem_at(acc, dt, off[sj]), (size_t)counts[sj], dt);
            tide_sched_fence(s);
            if (counts[rj])
                tide_sched_reduce(s, tmp, elem_at(acc, dt, off[rj]), (size_t)counts[rj], dt, op);
        }
        tide_sched_copy(s, elem_at(acc, dt, off[me]), mc, dt, rbuf, mc, dt);
        return;
    }
    case TA_PAIRWISE: {
        if (sbuf == MPI_IN_PLACE) {
            void *t = tide_sched_tmp(s, total, dt);
            if (!t)
                return;
            tide_sched_copy(s, rbuf, total, dt, t, total, dt);
            tide_sched_fence(s);
            in = t;
        }
        void *tmp = tide_sched_tmp(s, mc, dt);
        if (!tmp)
            return;
        tide_sched_copy(s, elem_at(in, dt, off[me]), mc, dt, rbuf, mc, dt);
        for (int k = 1; k < n; k++, step++) {
            int to = (me + k) % n, from = (me - k + n) % n;
            if (mc)
                cv_recv(s, v, from, step, tmp, mc, dt);
            if (counts[to])
                cv_send(s, v, to, step, elem_at(in, dt, off[to]), (size_t)counts[to], dt);
            tide_sched_fence(s);
            if (mc)
                tide_sched_reduce(s, tmp, rbuf, mc, dt, op);
        }
        return;
    }
    case TA_RD: {
        void *full = tide_sched_tmp(s, total, dt);
        if (!full)
            return;
        tide_allreduce_build(s, v, in, full, total, dt, op, TA_RD, step);
        tide_sched_fence(s);
        tide_sched_copy(s, elem_at(full, dt, off[me]), mc, dt, rbuf, mc, dt);
        return;
    }
    default: {
        /* reduce to rank 0 in rank order, then scatter the blocks (for a
         * call the blocking form serves through the shared region, the
         * linear reduce, which combines as the region does) */
        void *full = NULL;
        if (me == 0 && !(full = tide_sched_tmp(s, total, dt)))
            return;
        tide_reduce_build(s, v, in, full, total, dt, op, 0, alg == TA_SHM ? TA_LINEAR : TA_BINOMIAL, step);
        tide_sched_fence(s);
        step += TIDE_STEP_PHASE;
        if (me == 0) {
            for (int i = 1; i < n; i++)
                if (counts[i])
                    cv_send(s, v, i, step, elem_at(full, dt, off[i]), (size_t)counts[i], dt);
            tide_sched_copy(s, full, mc, dt, rbuf, mc, dt);
        } else if (mc) {
            cv_recv(s, v, 0, step, rbuf, mc, dt);
        }
        return;
    }
    }
}

/* ---- MPI functions ---- */

/* May choose shm (the shared region): the blocking form runs it, the
 * nonblocking form and the schedule a linear reduce and a scatter. */
static int rs_alg(struct tide_comm *c, const MPI_Count *counts, struct tide_datatype *dt, struct tide_op *op, bool block)
{
    size_t total = 0;
    for (int i = 0; i < c->size; i++)
        total += (size_t)counts[i];
    struct tide_coll_sel sel = {.kind = block ? TC_REDUCE_SCATTER_BLOCK : TC_REDUCE_SCATTER,
                                .bytes = total * dt->size, .commute = op->commute, .even = block};
    tide_coll_sel_comm(&sel, c);
    sel.shm = tide_shm_plain(dt) && tide_shm_coll_fits(c, sel.bytes);
    return tide_coll_select(&sel);
}

static void build(struct tide_sched *s, struct tide_comm *c, const void *sbuf, void *rbuf, const MPI_Count *counts,
                  struct tide_datatype *dt, struct tide_op *op, bool block)
{
    if (c->is_inter) {
        tide_inter_reduce_scatter(s, c, sbuf, rbuf, counts, dt, op);
        return;
    }
    size_t total = 0;
    for (int i = 0; i < c->size; i++)
        total += (size_t)counts[i];
    struct tide_cv v;
    tide_cv_comm(&v, c);
    tide_reduce_scatter_build(s, &v, sbuf, rbuf, counts, dt, op, rs_alg(c, counts, dt, op, block), 0);
}

/* A blocking call through the shared region, if chosen: MPI_SUCCESS or an
 * error, or -1 when the caller must build a schedule. */
static int shm_run(struct tide_comm *c, const void *sbuf, void *rbuf, const MPI_Count *counts, struct tide_datatype *dt,
                   struct tide_op *op, bool block)
{
    if (!tide_direct_allowed(c) || rs_alg(c, counts, dt, op, block) != TA_SHM)
        return -1;
    return tide_shm_reduce_scatter(c, sbuf, rbuf, counts, dt, op);
}

struct rs_args {
    const void *sbuf;
    void *rbuf;
    const MPI_Count *rcounts;
    MPI_Count total;
    struct tide_datatype *dt;
    struct tide_op *o;
    MPI_Op op;
    bool block;
};

static void agree_build(struct tide_sched *s, struct tide_comm *c, const char *fn, void *args)
{
    const struct rs_args *a = args;
    if (tide_coll_checking()) {
        struct tide_coll_agree ag = {.root = 0, .bytes = (long long)a->total * (long long)a->dt->size, .op = a->op};
        tide_coll_agree_add(s, c, &ag, fn);
    }
    build(s, c, a->sbuf, a->rbuf, a->rcounts, a->dt, a->o, a->block);
}

/* rcounts, or for the int form ircounts (widened); neither for the block
 * form. The int forms' counts add up to at most INT_MAX (the reduction's
 * count is an int there); large says there is no such limit. */
static int start(const char *fn, const void *sbuf, void *rbuf, MPI_Count rcount, const MPI_Count *rcounts,
                 const int *ircounts, bool large, bool vform, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                 MPI_Request *request, enum tide_coll_mode mode)
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
    MPI_Count *blocks = NULL, total = 0;
    struct tide_coll_wide wide = {0};
    int n = c->size;
    bool block = !vform;
    if (c->is_inter)
        rc = tide_coll_no_in_place(sbuf, fn, "sendbuf", "not on an intercommunicator");
    if (!rc)
        rc = tide_coll_no_in_place(rbuf, fn, "recvbuf", "the in-place form names sendbuf");
    if (!rc && block) {
        if (rcount < 0) {
            rc = tide_err(MPI_ERR_COUNT, "%s: negative count %lld (argument recvcount)", fn, rcount);
        } else if (rcount > (large ? INT64_MAX : INT_MAX) / (n ? n : 1)) {
            rc = tide_err(MPI_ERR_COUNT, "%s: recvcount %lld times %d ranks is more than %s holds", fn, rcount, n,
                          large ? "a count" : "an int");
        } else if (!(blocks = malloc((size_t)(n ? n : 1) * sizeof *blocks))) {
            rc = tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
        } else {
            for (int i = 0; i < n; i++)
                blocks[i] = rcount;
            rcounts = blocks;
        }
    } else if (!rc && ircounts && (rc = tide_coll_widen(&wide, ircounts, NULL, n, fn, &rcounts, NULL))) {
        /* out of memory */
    } else if (!rc && !rcounts) {
        rc = tide_err(MPI_ERR_ARG, "%s: recvcounts must not be NULL", fn);
    } else if (!rc) {
        rc = tide_coll_check_counts(rcounts, NULL, n, NULL, false, fn, "recvcounts", NULL);
    }
    if (!rc)
        rc = tide_coll_sum_counts(rcounts, n, fn, block ? "recvcount" : "recvcounts", &total);
    if (!rc && !large && total > INT_MAX)
        rc = tide_err(MPI_ERR_COUNT, "%s: the counts add up to %lld, more than an int holds (argument recvcounts)", fn,
                      total);
    if (!rc && !(rc = tide_coll_check_type(datatype, total, fn, "datatype", &dt)) &&
        !(rc = tide_coll_check_op(op, dt, fn, &o)) &&
        !(sbuf != MPI_IN_PLACE && (rc = tide_coll_check_buf(sbuf, total, dt, fn, "sendbuf"))) &&
        !(rc = tide_coll_check_buf(rbuf, rcounts[c->rank], dt, fn, "recvbuf")))
        rc = tide_coll_no_alias(sbuf, TIDE_COLL_BLOCK(total, dt), rbuf, TIDE_COLL_BLOCK(rcounts[c->rank], dt), fn);
    if (!rc && nonblocking)
        rc = tide_coll_check_request(request, fn);
    rc = tide_coll_checked(c, rc, fn);
    if (rc) {
        free(blocks);
        tide_coll_wide_free(&wide);
        return tide_raise_comm(c, tide_coll_mode_error(c, mode, rc, 0, fn));
    }
    struct rs_args a = {sbuf, rbuf, rcounts, total, dt, o, op, block};
    if (mode == TIDE_COLL_PERSISTENT) {
        struct tide_pcoll *p = tide_pcoll_new(c, fn, agree_build);
        if (p) {
            a.rcounts = tide_pcoll_keep(p, rcounts, (size_t)n * sizeof *rcounts);
            tide_pcoll_hold_dt(p, dt);
            tide_pcoll_hold_op(p, o);
            rc = tide_pcoll_commit(p, tide_pcoll_keep(p, &a, sizeof a), request);
        } else {
            rc = tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
        }
        free(blocks);
        tide_coll_wide_free(&wide);
        return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
    }
    if (!nonblocking && (rc = shm_run(c, sbuf, rbuf, rcounts, dt, o, block)) >= 0) {
        free(blocks);
        tide_coll_wide_free(&wide);
        return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
    }
    struct tide_sched *s = tide_sched_new(c);
    if (!s) {
        free(blocks);
        tide_coll_wide_free(&wide);
        return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    }
    agree_build(s, c, fn, &a);
    free(blocks);
    tide_coll_wide_free(&wide);
    rc = nonblocking ? tide_sched_start(s, request) : tide_sched_run(s);
    return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
}

int tide_reduce_scatter_api(const char *fn, const void *sbuf, void *rbuf, MPI_Count rcount, const MPI_Count *rcounts,
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, bool vform, MPI_Request *request,
                            enum tide_coll_mode mode)
{
    return start(fn, sbuf, rbuf, rcount, rcounts, NULL, true, vform, datatype, op, comm, request, mode);
}

int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm)
{
    TIDE_API_ENTER();
    return start("MPI_Reduce_scatter_block", sendbuf, recvbuf, recvcount, NULL, NULL, false, false, datatype, op, comm,
                 NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Reduce_scatter_block)

int PMPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                               MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    return start("MPI_Ireduce_scatter_block", sendbuf, recvbuf, recvcount, NULL, NULL, false, false, datatype, op, comm,
                 request, TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Ireduce_scatter_block)

int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm)
{
    TIDE_API_ENTER();
    return start("MPI_Reduce_scatter", sendbuf, recvbuf, 0, NULL, recvcounts, false, true, datatype, op, comm, NULL,
                 TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Reduce_scatter)

int PMPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    return start("MPI_Ireduce_scatter", sendbuf, recvbuf, 0, NULL, recvcounts, false, true, datatype, op, comm, request,
                 TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Ireduce_scatter)

int PMPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                                  MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Reduce_scatter_block_init";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    return start(fn, sendbuf, recvbuf, recvcount, NULL, NULL, false, false, datatype, op, comm, request,
                 TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Reduce_scatter_block_init)

int PMPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype,
                            MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Reduce_scatter_init";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    return start(fn, sendbuf, recvbuf, 0, NULL, recvcounts, false, true, datatype, op, comm, request,
                 TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Reduce_scatter_init)
