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
#include "coll/pcoll.h"

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
    if (is_root && (rc = tide_coll_no_in_place(a->sbuf, fn, "sendbuf", "the in-place form names recvbuf")))
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
                ((rc = tide_coll_check_fit(a->scounts[c->rank], a->sdt, a->rcount, a->rdt, fn)) ||
                 (rc = tide_coll_no_alias(a->sbuf,
                                          &(struct tide_coll_blocks){.n = nblk, .counts = a->scounts,
                                                                     .displs = a->displs, .dt = a->sdt},
                                          a->rbuf, TIDE_COLL_BLOCK(a->rcount, a->rdt), fn))))
                return rc;
        } else {
            if ((rc = tide_coll_check_type(stype, a->scount, fn, "sendtype", &a->sdt)) ||
                (rc = tide_coll_check_buf(a->sbuf, a->scount, a->sdt, fn, "sendbuf")))
                return rc;
            if (!c->is_inter && a->rbuf != MPI_IN_PLACE &&
                ((rc = tide_coll_check_fit(a->scount, a->sdt, a->rcount, a->rdt, fn)) ||
                 (rc = tide_coll_no_alias(a->sbuf, TIDE_COLL_BLOCK((long long)a->scount * nblk, a->sdt), a->rbuf,
                                          TIDE_COLL_BLOCK(a->rcount, a->rdt), fn))))
                return rc;
        }
    }
    if (!a->sdt)
        a->sdt = tide_coll_byte();
    if (!a->rdt)
        a->rdt = tide_coll_byte();
    return MPI_SUCCESS;
}

static void agree_build(struct tide_sched *s, struct tide_comm *c, const char *fn, const struct sargs *a,
                        bool vform)
{
    if (tide_coll_checking()) {
        /* even blocks within one group: every rank's block is the same size */
        long long block = c->rank == a->root ? (long long)a->scount * (long long)a->sdt->size
                                             : (long long)a->rcount * (long long)a->rdt->size;
        struct tide_coll_agree ag = {.root = a->root, .bytes = vform || c->is_inter ? -1 : block};
        tide_coll_agree_add(s, c, &ag, fn);
    }
    build(s, c, a, vform);
}

/* what a persistent scatter keeps */
struct scatter_kept {
    struct sargs a;
    bool vform;
};

static void kept_build(struct tide_sched *s, struct tide_comm *c, const char *fn, void *args)
{
    const struct scatter_kept *k = args;
    agree_build(s, c, fn, &k->a, k->vform);
}

/* An _init call: the request keeps the checked arguments (the wide
 * count and displacement arrays, copied). */
static int keep(const char *fn, struct tide_comm *c, const struct sargs *a, bool vform, MPI_Request *request)
{
    struct tide_pcoll *p = tide_pcoll_new(c, fn, kept_build);
    if (!p)
        return tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    struct scatter_kept k = {*a, vform};
    k.a.iscounts = k.a.idispls = NULL;
    k.a.wide = (struct tide_coll_wide){{NULL}, 0};
    bool is_root = c->is_inter ? a->root == MPI_ROOT : c->rank == a->root;
    if (vform && is_root) {
        size_t n = (size_t)(c->is_inter ? c->remote_size : c->size);
        k.a.scounts = tide_pcoll_keep(p, a->scounts, n * sizeof *a->scounts);
        k.a.displs = tide_pcoll_keep(p, a->displs, n * sizeof *a->displs);
    } else {
        k.a.scounts = NULL; /* not significant here */
        k.a.displs = NULL;
    }
    tide_pcoll_hold_dt(p, a->sdt);
    tide_pcoll_hold_dt(p, a->rdt);
    return tide_pcoll_commit(p, tide_pcoll_keep(p, &k, sizeof k), request);
}

static int run_api(const char *fn, struct sargs *a, MPI_Datatype stype, MPI_Datatype rtype, MPI_Comm comm,
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
        return tide_raise_comm(c, tide_coll_mode_error(c, mode, rc, a->root, fn));
    }
    if (mode == TIDE_COLL_PERSISTENT) {
        rc = keep(fn, c, a, vform, request);
        return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
    }
    struct tide_sched *s = tide_sched_new(c);
    if (!s)
        return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    agree_build(s, c, fn, a, vform);
    rc = nonblocking ? tide_sched_start(s, request) : tide_sched_run(s);
    return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
}

static int start(const char *fn, struct sargs *a, MPI_Datatype stype, MPI_Datatype rtype, MPI_Comm comm,
                 bool vform, MPI_Request *request, enum tide_coll_mode mode)
{
    int rc = run_api(fn, a, stype, rtype, comm, vform, request, mode);
    tide_coll_wide_free(&a->wide);
    return rc;
}

int tide_scatter_api(const char *fn, const void *sbuf, MPI_Count scount, const MPI_Count *scounts,
                     const MPI_Aint *displs, MPI_Datatype stype, void *rbuf, MPI_Count rcount, MPI_Datatype rtype,
                     int root, MPI_Comm comm, bool vform, MPI_Request *request, enum tide_coll_mode mode)
{
    struct sargs a = {sbuf, scount, scounts, displs, NULL, rbuf, rcount, NULL, root, NULL, NULL, {{NULL}, 0}};
    return start(fn, &a, stype, rtype, comm, vform, request, mode);
}

int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    TIDE_API_ENTER();
    struct sargs a = {sendbuf, sendcount, NULL, NULL, NULL, recvbuf, recvcount, NULL, root, NULL, NULL, {{NULL}, 0}};
    return start("MPI_Scatter", &a, sendtype, recvtype, comm, false, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Scatter)

int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    struct sargs a = {sendbuf, sendcount, NULL, NULL, NULL, recvbuf, recvcount, NULL, root, NULL, NULL, {{NULL}, 0}};
    return start("MPI_Iscatter", &a, sendtype, recvtype, comm, false, request, TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Iscatter)

int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    TIDE_API_ENTER();
    struct sargs a = {sendbuf, 0, NULL, NULL, NULL, recvbuf, recvcount, NULL, root, sendcounts, displs, {{NULL}, 0}};
    return start("MPI_Scatterv", &a, sendtype, recvtype, comm, true, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Scatterv)

int PMPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                   void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                   MPI_Request *request)
{
    TIDE_API_ENTER();
    struct sargs a = {sendbuf, 0, NULL, NULL, NULL, recvbuf, recvcount, NULL, root, sendcounts, displs, {{NULL}, 0}};
    return start("MPI_Iscatterv", &a, sendtype, recvtype, comm, true, request, TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Iscatterv)

int PMPI_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Scatter_init";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    struct sargs a = {sendbuf, sendcount, NULL, NULL, NULL, recvbuf, recvcount, NULL, root, NULL, NULL, {{NULL}, 0}};
    return start(fn, &a, sendtype, recvtype, comm, false, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Scatter_init)

int PMPI_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                       void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Scatterv_init";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    struct sargs a = {sendbuf, 0, NULL, NULL, NULL, recvbuf, recvcount, NULL, root, sendcounts, displs, {{NULL}, 0}};
    return start(fn, &a, sendtype, recvtype, comm, true, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Scatterv_init)
