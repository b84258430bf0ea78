/*
 * inter.c: collectives on intercommunicators (MPI-2.2 5.2.2). The usual
 * shape: within each group over its local communicator (gather, reduce,
 * broadcast to or from the group's rank 0), and one exchange between the
 * two groups' rank 0 (or between the root and the remote group's rank 0).
 * The v/w forms and alltoall talk to every remote rank directly.
 *
 * Messages to the remote group go on the intercommunicator's collective
 * context; messages within a group on the local communicator's.
 */
#include "runtime/api.h"
#include "coll/algo.h"
#include "coll/inter.h"
#include "op/op.h"

#include <string.h>

/* The remote group (iv) and the local group (lv) of c. Takes one
 * sequence number on each, whatever the caller does next. */
static bool views(struct tide_sched *s, struct tide_comm *c, struct tide_cv *iv, struct tide_cv *lv)
{
    iv->comm = c;
    iv->n = c->remote_size;
    iv->me = c->rank;
    iv->map = NULL;
    iv->seq = c->coll_seq++;
    if (!c->local_comm) {
        tide_sched_fail(s, tide_err(MPI_ERR_INTERN, "intercommunicator collective: no local communicator"));
        return false;
    }
    tide_cv_comm(lv, c->local_comm);
    return true;
}

/* the algorithm for a phase within the local group (the
 * intercommunicator's own hints apply to it) */
static int local_alg(int kind, struct tide_comm *ic, struct tide_comm *l, size_t bytes, bool commute)
{
    struct tide_coll_sel sel = {.kind = kind, .bytes = bytes, .commute = commute, .even = true};
    struct tide_coll_sel isel = sel;
    tide_coll_sel_comm(&isel, ic);
    tide_coll_sel_comm(&sel, l);
    if (isel.over)
        sel.over = isel.over;
    int alg = tide_coll_select(&sel);
    return alg == TA_HIER ? TA_BINOMIAL : alg;
}

void tide_inter_barrier(struct tide_sched *s, struct tide_comm *c)
{
    struct tide_cv iv, lv;
    if (!views(s, c, &iv, &lv))
        return;
    tide_barrier_fan_in(s, &lv, 0);
    tide_sched_fence(s);
    if (lv.me == 0) {
        cv_recv(s, &iv, 0, 1, NULL, 0, tide_coll_byte());
        cv_send(s, &iv, 0, 1, NULL, 0, tide_coll_byte());
        tide_sched_fence(s);
    }
    tide_barrier_fan_out(s, &lv, 2);
}

void tide_inter_bcast(struct tide_sched *s, struct tide_comm *c, void *buf, MPI_Count count, struct tide_datatype *dt,
                      int root)
{
    struct tide_cv iv, lv;
    if (!views(s, c, &iv, &lv) || root == MPI_PROC_NULL || count == 0 || dt->size == 0)
        return;
    if (root == MPI_ROOT) {
        cv_send(s, &iv, 0, 0, buf, (size_t)count, dt);
        return;
    }
    if (lv.me == 0) {
        cv_recv(s, &iv, root, 0, buf, (size_t)count, dt);
        tide_sched_fence(s);
    }
    tide_bcast_build(s, &lv, buf, (size_t)count, dt, 0,
                     local_alg(TC_BCAST, c, lv.comm, (size_t)count * dt->size, true), 1);
}

void tide_inter_gather(struct tide_sched *s, struct tide_comm *c, const void *sbuf, MPI_Count scount,
                       struct tide_datatype *sdt, void *rbuf, MPI_Count rcount, struct tide_datatype *rdt, int root)
{
    struct tide_cv iv, lv;
    if (!views(s, c, &iv, &lv) || root == MPI_PROC_NULL)
        return;
    if (root == MPI_ROOT) {
        size_t total = (size_t)rcount * (size_t)iv.n;
        if (total * rdt->size != 0)
            cv_recv(s, &iv, 0, 0, rbuf, total, rdt);
        return;
    }
    size_t bb = (size_t)scount * sdt->size;
    if (bb == 0)
        return;
    struct tide_datatype *byte = tide_coll_byte();
    int alg = local_alg(TC_GATHER, c, lv.comm, bb, true);
    if (lv.me != 0) {
        tide_gather_build(s, &lv, sbuf, (size_t)scount, sdt, NULL, bb, byte, 0, alg, 1);
        return;
    }
    char *t = tide_sched_alloc(s, (size_t)lv.n * bb);
    if (!t)
        return;
    tide_gather_build(s, &lv, sbuf, (size_t)scount, sdt, t, bb, byte, 0, alg, 1);
    tide_sched_fence(s);
    cv_send(s, &iv, root, 0, t, (size_t)lv.n * bb, byte);
}

void tide_inter_gatherv(struct tide_sched *s, struct tide_comm *c, const void *sbuf, MPI_Count scount,
                        struct tide_datatype *sdt, void *rbuf, const MPI_Count *rcounts, const MPI_Aint *displs,
                        struct tide_datatype *rdt, int root)
{
    struct tide_cv iv, lv;
    if (!views(s, c, &iv, &lv) || root == MPI_PROC_NULL)
        return;
    if (root == MPI_ROOT) {
        for (int i = 0; i < iv.n; i++)
            if ((size_t)rcounts[i] * rdt->size != 0)
                cv_recv(s, &iv, i, 0, elem_at(rbuf, rdt, (size_t)(MPI_Aint)displs[i]), (size_t)rcounts[i], rdt);
        return;
    }
    if ((size_t)scount * sdt->size != 0)
        cv_send(s, &iv, root, 0, sbuf, (size_t)scount, sdt);
}

void tide_inter_scatter(struct tide_sched *s, struct tide_comm *c, const void *sbuf, MPI_Count scount,
                        struct tide_datatype *sdt, void *rbuf, MPI_Count rcount, struct tide_datatype *rdt, int root)
{
    struct tide_cv iv, lv;
    if (!views(s, c, &iv, &lv) || root == MPI_PROC_NULL)
        return;
    if (root == MPI_ROOT) {
        size_t total = (size_t)scount * (size_t)iv.n;
        if (total * sdt->size != 0)
            cv_send(s, &iv, 0, 0, sbuf, total, sdt);
        return;
    }
    size_t bb = (size_t)rcount * rdt->size;
    if (bb == 0)
        return;
    struct tide_datatype *byte = tide_coll_byte();
    int alg = local_alg(TC_SCATTER, c, lv.comm, bb, true);
    char *t = NULL;
    if (lv.me == 0) {
        t = tide_sched_alloc(s, (size_t)lv.n * bb);
        if (!t)
            return;
        cv_recv(s, &iv, root, 0, t, (size_t)lv.n * bb, byte);
        tide_sched_fence(s);
    }
    tide_scatter_build(s, &lv, t, bb, byte, rbuf, (size_t)rcount, rdt, 0, alg, 1);
}

void tide_inter_scatterv(struct tide_sched *s, struct tide_comm *c, const void *sbuf, const MPI_Count *scounts,
                         const MPI_Aint *displs, struct tide_datatype *sdt, void *rbuf, MPI_Count rcount,
                         struct tide_datatype *rdt, int root)
{
    struct tide_cv iv, lv;
    if (!views(s, c, &iv, &lv) || root == MPI_PROC_NULL)
        return;
    if (root == MPI_ROOT) {
        for (int i = 0; i < iv.n; i++)
            if ((size_t)scounts[i] * sdt->size != 0)
                cv_send(s, &iv, i, 0, elem_at(sbuf, sdt, (size_t)(MPI_Aint)displs[i]), (size_t)scounts[i], sdt);
        return;
    }
    if ((size_t)rcount * rdt->size != 0)
        cv_recv(s, &iv, root, 0, rbuf, (size_t)rcount, rdt);
}

void tide_inter_allgather(struct tide_sched *s, struct tide_comm *c, const void *sbuf, MPI_Count scount,
                          struct tide_datatype *sdt, void *rbuf, MPI_Count rcount, struct tide_datatype *rdt)
{
    struct tide_cv iv, lv;
    if (!views(s, c, &iv, &lv))
        return;
    struct tide_datatype *byte = tide_coll_byte();
    size_t bb = (size_t)scount * sdt->size;             /* this group's blocks */
    size_t rtotal = (size_t)rcount * (size_t)iv.n;       /* the remote group's, in rdt */
    char *t = NULL;
    if (lv.me == 0 && bb) {
        t = tide_sched_alloc(s, (size_t)lv.n * bb);
        if (!t)
            return;
    }
    if (bb)
        tide_gather_build(s, &lv, sbuf, (size_t)scount, sdt, t, bb, byte, 0,
                          local_alg(TC_GATHER, c, lv.comm, bb, true), 1);
    tide_sched_fence(s);
    if (lv.me == 0) {
        if (rtotal * rdt->size != 0)
            cv_recv(s, &iv, 0, 0, rbuf, rtotal, rdt);
        if (bb)
            cv_send(s, &iv, 0, 0, t, (size_t)lv.n * bb, byte);
        tide_sched_fence(s);
    }
    if (rtotal * rdt->size != 0)
        tide_bcast_build(s, &lv, rbuf, rtotal, rdt, 0, local_alg(TC_BCAST, c, lv.comm, rtotal * rdt->size, true),
                         TIDE_STEP_PHASE);
}

void tide_inter_allgatherv(struct tide_sched *s, struct tide_comm *c, const void *sbuf, MPI_Count scount,
                           struct tide_datatype *sdt, void *rbuf, const MPI_Count *rcounts, const MPI_Aint *displs,
                           struct tide_datatype *rdt)
{
    struct tide_cv iv, lv;
    if (!views(s, c, &iv, &lv))
        return;
    int m = iv.n;
    for (int k = 0; k < m; k++) {
        int i = (iv.me + k) % m;
        if ((size_t)rcounts[i] * rdt->size != 0)
            cv_recv(s, &iv, i, 0, elem_at(rbuf, rdt, (size_t)(MPI_Aint)displs[i]), (size_t)rcounts[i], rdt);
    }
    if ((size_t)scount * sdt->size != 0)
        for (int k = 0; k < m; k++)
            cv_send(s, &iv, (iv.me + k) % m, 0, sbuf, (size_t)scount, sdt);
}

void tide_inter_alltoall(struct tide_sched *s, struct tide_comm *c, const void *sbuf, MPI_Count scount,
                         struct tide_datatype *sdt, void *rbuf, MPI_Count rcount, struct tide_datatype *rdt)
{
    struct tide_cv iv, lv;
    if (!views(s, c, &iv, &lv))
        return;
    int m = iv.n;
    if ((size_t)rcount * rdt->size != 0)
        for (int k = 0; k < m; k++) {
            int i = (iv.me + k) % m;
            cv_recv(s, &iv, i, 0, elem_at(rbuf, rdt, (size_t)i * (size_t)rcount), (size_t)rcount, rdt);
        }
    if ((size_t)scount * sdt->size != 0)
        for (int k = 0; k < m; k++) {
            int i = (iv.me + k) % m;
            cv_send(s, &iv, i, 0, elem_at(sbuf, sdt, (size_t)i * (size_t)scount), (size_t)scount, sdt);
        }
}

void tide_inter_alltoallv(struct tide_sched *s, struct tide_comm *c, const void *sbuf, const MPI_Count *scounts,
                          const MPI_Aint *sdispls, struct tide_datatype *sdt, struct tide_datatype *const *sdts,
                          void *rbuf, const MPI_Count *rcounts, const MPI_Aint *rdispls, struct tide_datatype *rdt,
                          struct tide_datatype *const *rdts)
{
    struct tide_cv iv, lv;
    if (!views(s, c, &iv, &lv))
        return;
    int m = iv.n;
    for (int k = 0; k < m; k++) {
        int i = (iv.me + k) % m;
        struct tide_datatype *t = rdts ? rdts[i] : rdt;
        void *p = rdts ? (char *)rbuf + rdispls[i] : elem_at(rbuf, rdt, (size_t)(MPI_Aint)rdispls[i]);
        if ((size_t)rcounts[i] * t->size != 0)
            cv_recv(s, &iv, i, 0, p, (size_t)rcounts[i], t);
    }
    for (int k = 0; k < m; k++) {
        int i = (iv.me + k) % m;
        struct tide_datatype *t = sdts ? sdts[i] : sdt;
        const void *p = sdts ? (const char *)sbuf + sdispls[i] : elem_at(sbuf, sdt, (size_t)(MPI_Aint)sdispls[i]);
        if ((size_t)scounts[i] * t->size != 0)
            cv_send(s, &iv, i, 0, p, (size_t)scounts[i], t);
    }
}

void tide_inter_reduce(struct tide_sched *s, struct tide_comm *c, const void *sbuf, void *rbuf, MPI_Count count,
                       struct tide_datatype *dt, struct tide_op *op, int root)
{
    struct tide_cv iv, lv;
    if (!views(s, c, &iv, &lv) || root == MPI_PROC_NULL || count == 0)
        return;
    if (root == MPI_ROOT) {
        cv_recv(s, &iv, 0, 0, rbuf, (size_t)count, dt);
        return;
    }
    int alg = local_alg(TC_REDUCE, c, lv.comm, (size_t)count * dt->size, op->commute);
    void *t = NULL;
    if (lv.me == 0 && !(t = tide_sched_tmp(s, (size_t)count, dt)))
        return;
    tide_reduce_build(s, &lv, sbuf, t, (size_t)count, dt, op, 0, alg, 1);
    if (lv.me == 0) {
        tide_sched_fence(s);
        cv_send(s, &iv, root, 0, t, (size_t)count, dt);
    }
}

void tide_inter_allreduce(struct tide_sched *s, struct tide_comm *c, const void *sbuf, void *rbuf, MPI_Count count,
                          struct tide_datatype *dt, struct tide_op *op)
{
    struct tide_cv iv, lv;
    if (!views(s, c, &iv, &lv) || count == 0)
        return;
    size_t bytes = (size_t)count * dt->size;
    void *t = NULL;
    if (lv.me == 0 && !(t = tide_sched_tmp(s, (size_t)count, dt)))
        return;
    tide_reduce_build(s, &lv, sbuf, t, (size_t)count, dt, op, 0, local_alg(TC_REDUCE, c, lv.comm, bytes, op->commute),
                      1);
    tide_sched_fence(s);
    if (lv.me == 0) {
        cv_recv(s, &iv, 0, 0, rbuf, (size_t)count, dt);
        cv_send(s, &iv, 0, 0, t, (size_t)count, dt);
        tide_sched_fence(s);
    }
    tide_bcast_build(s, &lv, rbuf, (size_t)count, dt, 0, local_alg(TC_BCAST, c, lv.comm, bytes, true),
                     TIDE_STEP_PHASE);
}

void tide_inter_reduce_scatter(struct tide_sched *s, struct tide_comm *c, const void *sbuf, void *rbuf,
                               const MPI_Count *counts, struct tide_datatype *dt, struct tide_op *op)
{
    struct tide_cv iv, lv;
    if (!views(s, c, &iv, &lv))
        return;
    size_t total = 0;
    for (int i = 0; i < lv.n; i++)
        total += (size_t)counts[i];
    if (total == 0)
        return;
    void *mine = NULL, *theirs = NULL;
    if (lv.me == 0 && (!(mine = tide_sched_tmp(s, total, dt)) || !(theirs = tide_sched_tmp(s, total, dt))))
        return;
    tide_reduce_build(s, &lv, sbuf, mine, total, dt, op, 0,
                      local_alg(TC_REDUCE, c, lv.comm, total * dt->size, op->commute), 1);
    tide_sched_fence(s);
    if (lv.me == 0) {
        cv_recv(s, &iv, 0, 0, theirs, total, dt);
        cv_send(s, &iv, 0, 0, mine, total, dt);
        tide_sched_fence(s);
        size_t off = 0;
        for (int i = 0; i < lv.n; i++) {
            if (i == 0)
                tide_sched_copy(s, theirs, (size_t)counts[0], dt, rbuf, (size_t)counts[0], dt);
            else if (counts[i])
                cv_send(s, &lv, i, TIDE_STEP_PHASE, elem_at(theirs, dt, off), (size_t)counts[i], dt);
            off += (size_t)counts[i];
        }
    } else if (counts[lv.me]) {
        cv_recv(s, &lv, 0, TIDE_STEP_PHASE, rbuf, (size_t)counts[lv.me], dt);
    }
}
