/*
 * scatter.c: MPI_Scatter, MPI_Scatterv and their nonblocking forms.
 * Scatter: linear (the root sends every block from its place) or a
 * binomial tree (each inner rank receives its subtree's blocks as packed
 * bytes and passes the children's parts on; the root sends each subtree
 * straight from its buffer when the blocks do not wrap around its end).
 * Scatterv: linear. Intercommunicator forms are in inter.c.
 */
#include "runtime/api.h"
#include "coll/algo.h"
#include "coll/coll.h"
#include "coll/coll_api.h"
#include "coll/coll_args.h"
#include "coll/inter.h"

static void scatter_linear(struct tide_sched *s, const struct tide_cv *v, const void *sbuf, size_t scount,
                           struct tide_datatype *sdt, void *rbuf, size_t rcount, struct tide_datatype *rdt,
                           int root, int step)
{
    int n = v->n, me = v->me;
    if (me != root) {
        cv_recv(s, v, root, step, rbuf, rcount, rdt);
        return;
    }
    for (int k = 1; k < n; k++) {
        int i = (root + k) % n;
        cv_send(s, v, i, step, elem_at(sbuf, sdt, (size_t)i * scount), scount, sdt);
    }
    if (rbuf != MPI_IN_PLACE)
        tide_sched_copy(s, elem_at(sbuf, sdt, (size_t)me * scount), scount, sdt, rbuf, rcount, rdt);
}

static void scatter_binomial(struct tide_sched *s, const struct tide_cv *v, const void *sbuf, size_t scount,
                             struct tide_datatype *sdt, void *rbuf, size_t rcount, struct tide_datatype *rdt,
                             int root, int step)
{
    int n = v->n, vr = (v->me - root + n) % n;
    struct tide_datatype *byte = tide_coll_byte();
    int low = 1;
    while (low < n && !(vr & low))
        low <<= 1;
    if (vr == 0) {
        size_t bb = scount * sdt->size;
        for (int mask = pof2_floor(n - 1 > 0 ? n - 1 : 1); mask > 0; mask >>= 1) {
            if (mask >= n)
                continue;
            int nb = (2 * mask < n ? 2 * mask : n) - mask;
            int first = (root + mask) % n;
            if (first + nb <= n) {
                cv_send(s, v, first, step, elem_at(sbuf, sdt, (size_t)first * scount), (size_t)nb * scount, sdt);
            } else {
                char *t = tide_sched_alloc(s, (size_t)nb * bb);
                if (!t)
                    return;
                int head = n - first;
                tide_sched_copy(s, elem_at(sbuf, sdt, (size_t)first * scount), (size_t)head * scount, sdt, t,
                                (size_t)head * bb, byte);
                tide_sched_copy(s, sbuf, (size_t)(nb - head) * scount, sdt, t + (size_t)head * bb,
                                (size_t)(nb - head) * bb, byte);
                cv_send(s, v, first, step, t, (size_t)nb * bb, byte);
            }
        }
        if (rbuf != MPI_IN_PLACE)
            tide_sched_copy(s, elem_at(sbuf, sdt, (size_t)v->me * scount), scount, sdt, rbuf, rcount, rdt);
        return;
    }
    int parent = (vr - low + root) % n;
    if (low == 1 || vr + 1 >= n) {
        cv_recv(s, v, parent, step, rbuf, rcount, rdt);
        return;
    }
    size_t bb = rcount * rdt->size;
    int nsub = (vr + low < n ? vr + low : n) - vr;
    char *t = tide_sched_alloc(s, (size_t)nsub * bb);
    if (!t)
        return;
    cv_recv(s, v, parent, step, t, (size_t)nsub * bb, byte);
    tide_sched_fence(s);
    for (int mask = low >> 1; mask > 0; mask >>= 1) {
        if (vr + mask >= n)
            continue;
        int nb = (vr + 2 * mask < n ? vr + 2 * mask : n) - (vr + mask);
        cv_send(s, v, (vr + mask + root) % n, step, t + (size_t)mask * bb, (size_t)nb * bb, byte);
    }
    tide_sched_copy(s, t, bb, byte, rbuf, rcount, rdt);
}

void tide_scatter_build(struct tide_sched *s, const struct tide_cv *v, const void *sbuf, size_t scount,
                        struct tide_datatype *sdt, void *rbuf, size_t rcount, struct tide_datatype *rdt, int root,
                        int alg, int step)
{
    if (v->n == 1) {
        if (rbuf != MPI_IN_PLACE)
            tide_sched_copy(s, sbuf, scount, sdt, rbuf, rcount, rdt);
        return;
    }
    if ((v->me == root ? scount * sdt->size : rcount * rdt->size) == 0)
        return;
    if (alg == TA_BINOMIAL)
        scatter_binomial(s, v, sbuf, scount, sdt, rbuf, rcount, rdt, root, step);
    else
        scatter_linear(s, v, sbuf, scount, sdt, rbuf, rcount, rdt, root, step);
}

static void scatterv_linear(struct tide_sched *s, const struct tide_cv *v, const void *sbuf, const MPI_Count *scounts,
                            const MPI_Aint *displs, struct tide_datatype *sdt, void *rbuf, size_t rcount,
                            struct tide_datatype *rdt, int root, int step)
{
    int n = v->n, me = v->me;
    if (me != root) {
        if (rcount * rdt->size > 0)
            cv_recv(s, v, root, step, rbuf, rcount, rdt);
        return;
    }
    for (int k = 1; k < n; k++) {
        int i = (root + k) % n;
        if ((size_t)scounts[i] * sdt->size > 0)
            cv_send(s, v, i, step, elem_at(sbuf, sdt, (size_t)(MPI_Aint)displs[i]), (size_t)scounts[i], sdt);
    }
    if (rbuf != MPI_IN_PLACE)
        tide_sched_copy(s, elem_at(sbuf, sdt, (size_t)(MPI_Aint)displs[me]), (size_t)scounts[me], sdt, rbuf,
                        rcount, rdt);
}

/* ---- MPI functions ---- */

struct sargs {
    const void *sbuf;
    MPI_Count scount;
    const MPI_Count *scounts;
    const MPI_Aint *displs;
    struct tide_datatype *sdt;
    void *rbuf;
    MPI_Count rcount;
    struct tide_datatype *rdt;
    int root;
    const int *iscounts, *idispls; /* the int form's arrays (widened into scounts, displs) */
    struct tide_coll_wide wide;
};

static void build(struct tide_sched *s, struct tide_comm *c, const struct sargs *a, bool vform)
{
    if (c->is_inter) {
        if (vform)
            tide_inter_scatterv(s, c, a->sbuf, a->scounts, a->displs, a->sdt, a->rbuf, a->rcount, a->rdt, a->root);
        else
            tide_inter_scatter(s, c, a->sbuf, a->scount, a->sdt, a->rbuf, a->rcount, a->rdt, a->root);
        return;
    }
    bool root = c->rank == a->root;
    size_t bytes = root ? (size_t)a->scount * a->sdt->size : (size_t)a->rcount * a->rdt->size;
    struct tide_coll_sel sel = {.kind = vform ? TC_SCATTERV : TC_SCATTER, .bytes = bytes, .commute = true,
                                .even = !vform};
    tide_coll_sel_comm(&sel, c);
    struct tide_cv v;
    tide_cv_comm(&v, c);
    int alg = tide_coll_select(&sel);
    if (vform)
        scatterv_linear(s, &v, a->sbuf, a->scounts, a->displs, a->sdt, a->rbuf, (size_t)a->rcount, a->rdt, a->root,
                        0);
    else
        tide_scatter_build(s, &v, a->sbuf, (size_t)a->scount, a->sdt, a->rbuf, (size_t)a->rcount, a->rdt,
                           a->root, alg, 0);
}

int tide_coll_scatter(const void *sbuf, MPI_Count scount, struct tide_datatype *sdt, void *rbuf, MPI_Count rcount,
                      struct tide_datatype *rdt, int root, struct tide_comm *c)
{
    tide_coll_enter(c, true);
    struct tide_sched *s = tide_sched_new(c);
    if (!s)
        return tide_err(MPI_ERR_NO_MEM, "MPI_Scatter: out of memory");
    struct sargs a = {sbuf, scount, NULL, NULL, sdt, rbuf, rcount, rdt, root, NULL, NULL, {{NULL}, 0}};
    build(s, c, &a, false);
    return tide_sched_run(s);
}

static int check(const char *fn, struct tide_comm *c, struct sargs *a, MPI_Datatype stype, MPI_Datatype rtype,
                 bool vform)
{
    int rc;
    if ((rc = tide_coll_check_root(c, a->root, fn)))
        return rc;
    bool is_root = c->is_inter ? a->root == MPI_ROOT : c->rank == a->root;
    bool recvs = c->is_inter ? (a->root != MPI_ROOT && a->root != MPI_PROC_NULL) : true;
    if (c->is_inter) {
        if ((rc = tide_coll_no_in_place(a->sbuf, fn, "sendbuf", "not on an intercommunicator")) ||
            (rc = tide_coll_no_in_place(a->rbuf, fn, "recvbuf", "not on an intercommunicator")))
            return rc;
    } else if (!is_root) {
        if ((rc = tide_coll_no_in_place(a->rbuf, fn, "recvbuf", "only the root may use it")))
            return rc;
    }
    if (is_root && ((rc = tide_coll_no_in_place(a->sbuf, fn, "sendbuf", "the in-place form names recvbuf")) ||
                    (!c->is_inter && (rc = tide_coll_no_alias(a->sbuf, a->rbuf, fn)))))
        return rc;
    if (recvs && a->rbuf != MPI_IN_PLACE) {
        if ((rc = tide_coll_check_type(rtype, a->rcount, fn, "recvtype", &a->rdt)) ||
            (rc = tide_coll_check_buf(a->rbuf, a->rcount, a->rdt, fn, "recvbuf")))
            return rc;
    }
    if (is_root) {
        int nblk = c->is_inter ? c->remote_size : c->size;
        if (vform) {
            if ((a->iscounts &&
                 (rc = tide_coll_widen(&a->wide, a->iscounts, a->idispls, nblk, fn, &a->scounts, &a->displs))) ||
                (rc = tide_coll_check_type(stype, 0, fn, "sendtype", &a->sdt)) ||
                (rc = tide_coll_check_counts(a->scounts, a->displs, nblk, a->sdt, false, fn, "sendcounts",
                                             "displs")))
                return rc;
            if (!c->is_inter && a->rbuf != MPI_IN_PLACE &&
                (rc = tide_coll_check_fit(a->scounts[c->rank], a->sdt, a->rcount, a->rdt, fn)))
                return rc;
        } else {
            if ((rc = tide_coll_check_type(stype, a->scount, fn, "sendtype", &a->sdt)) ||
                (rc = tide_coll_check_buf(a->sbuf, a->scount, a->sdt, fn, "sendbuf")))
                return rc;
            if (!c->is_inter && a->rbuf != MPI_IN_PLACE &&
                (rc = tide_coll_check_fit(a->scount, a->sdt, a->rcount, a->rdt, fn)))
                return rc;
        }
    }
    if (!a->sdt)
        a->sdt = tide_coll_byte();
    if (!a->rdt)
        a->rdt = tide_coll_byte();
    return MPI_SUCCESS;
}

static int run_api(const char *fn, struct sargs *a, MPI_Datatype stype, MPI_Datatype rtype, MPI_Comm comm,
                 bool vform, MPI_Request *request, bool nonblocking)
{
    struct tide_comm *c;
    int rc = tide_coll_check_comm(comm, fn, &c);
    if (rc)
        return tide_coll_raise(c, rc);
    tide_coll_enter(c, !nonblocking);
    rc = check(fn, c, a, stype, rtype, vform);
    if (!rc && nonblocking)
        rc = tide_coll_check_request(request, fn);
    if (rc) {
        return tide_raise_comm(c, tide_coll_local_error(c, rc, a->root, fn));
    }
    struct tide_sched *s = tide_sched_new(c);
    if (!s)
        return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    if (tide_coll_checking()) {
        /* even blocks within one group: every rank's block is the same size */
        long long block = c->rank == a->root ? (long long)a->scount * (long long)a->sdt->size
                                             : (long long)a->rcount * (long long)a->rdt->size;
        struct tide_coll_agree ag = {.root = a->root, .bytes = vform || c->is_inter ? -1 : block};
        tide_coll_agree_add(s, c, &ag, fn);
    }
    build(s, c, a, vform);
    rc = nonblocking ? tide_sched_start(s, request) : tide_sched_run(s);
    return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
}

static int start(const char *fn, struct sargs *a, MPI_Datatype stype, MPI_Datatype rtype, MPI_Comm comm,
                 bool vform, MPI_Request *request, bool nonblocking)
{
    int rc = run_api(fn, a, stype, rtype, comm, vform, request, nonblocking);
    tide_coll_wide_free(&a->wide);
    return rc;
}

int tide_scatter_api(const char *fn, const void *sbuf, MPI_Count scount, const MPI_Count *scounts,
                     const MPI_Aint *displs, MPI_Datatype stype, void *rbuf, MPI_Count rcount, MPI_Datatype rtype,
                     int root, MPI_Comm comm, bool vform, MPI_Request *request, bool nonblocking)
{
    struct sargs a = {sbuf, scount, scounts, displs, NULL, rbuf, rcount, NULL, root, NULL, NULL, {{NULL}, 0}};
    return start(fn, &a, stype, rtype, comm, vform, request, nonblocking);
}

int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    TIDE_API_ENTER();
    struct sargs a = {sendbuf, sendcount, NULL, NULL, NULL, recvbuf, recvcount, NULL, root, NULL, NULL, {{NULL}, 0}};
    return start("MPI_Scatter", &a, sendtype, recvtype, comm, false, NULL, false);
}
TIDE_ALIAS(MPI_Scatter)

int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    struct sargs a = {sendbuf, sendcount, NULL, NULL, NULL, recvbuf, recvcount, NULL, root, NULL, NULL, {{NULL}, 0}};
    return start("MPI_Iscatter", &a, sendtype, recvtype, comm, false, request, true);
}
TIDE_ALIAS(MPI_Iscatter)

int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    TIDE_API_ENTER();
    struct sargs a = {sendbuf, 0, NULL, NULL, NULL, recvbuf, recvcount, NULL, root, sendcounts, displs, {{NULL}, 0}};
    return start("MPI_Scatterv", &a, sendtype, recvtype, comm, true, NULL, false);
}
TIDE_ALIAS(MPI_Scatterv)

int PMPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                   void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                   MPI_Request *request)
{
    TIDE_API_ENTER();
    struct sargs a = {sendbuf, 0, NULL, NULL, NULL, recvbuf, recvcount, NULL, root, sendcounts, displs, {{NULL}, 0}};
    return start("MPI_Iscatterv", &a, sendtype, recvtype, comm, true, request, true);
}
TIDE_ALIAS(MPI_Iscatterv)
