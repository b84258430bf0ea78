/*
 * gather.c: MPI_Gather, MPI_Gatherv and their nonblocking forms.
 * Gather: linear (the root receives every block straight into place) or
 * a binomial tree (inner ranks collect their subtree's blocks as packed
 * bytes and pass them up in one message; the root receives each
 * subtree's blocks into place when they do not wrap around the end of
 * the buffer). Gatherv: linear, the root receiving each block at its
 * displacement. Intercommunicator forms are in inter.c.
 */
#include "runtime/api.h"
#include "coll/algo.h"
#include "coll/coll.h"
#include "coll/coll_api.h"
#include "coll/coll_args.h"
#include "coll/inter.h"
#include "coll/pcoll.h"

static void gather_linear(struct tide_sched *s, const struct tide_cv *v, const void *sbuf, size_t scount,
                          struct tide_datatype *sdt, void *rbuf, size_t rcount, struct tide_datatype *rdt, int root,
                          int step)
{
    int n = v->n, me = v->me;
    if (me != root) {
        cv_send(s, v, root, step, sbuf, scount, sdt);
        return;
    }
    for (int k = 1; k < n; k++) {
        int i = (root + k) % n;
        cv_recv(s, v, i, step, elem_at(rbuf, rdt, (size_t)i * rcount), rcount, rdt);
    }
    if (sbuf != MPI_IN_PLACE)
        tide_sched_copy(s, sbuf, scount, sdt, elem_at(rbuf, rdt, (size_t)me * rcount), rcount, rdt);
}

static void gather_binomial(struct tide_sched *s, const struct tide_cv *v, const void *sbuf, size_t scount,
                            struct tide_datatype *sdt, void *rbuf, size_t rcount, struct tide_datatype *rdt,
                            int root, int step)
{
    int n = v->n, vr = (v->me - root + n) % n;
    struct tide_datatype *byte = tide_coll_byte();
    int low = 1; /* lowest set bit of vr (n rounded up for the root) */
    while (low < n && !(vr & low))
        low <<= 1;
    if (vr == 0) {
        /* root: the subtree of child `mask` is view ranks [mask, min(2 mask, n)) after rotation */
        size_t bb = rcount * rdt->size;
        for (int mask = 1; mask < n; mask <<= 1) {
            int nb = (2 * mask < n ? 2 * mask : n) - mask;
            int first = (root + mask) % n;
            int child = first;
            if (first + nb <= n) {
                cv_recv(s, v, child, step, elem_at(rbuf, rdt, (size_t)first * rcount), (size_t)nb * rcount, rdt);
            } else {
                char *t = tide_sched_alloc(s, (size_t)nb * bb);
                if (!t)
                    return;
                cv_recv(s, v, child, step, t, (size_t)nb * bb, byte);
                tide_sched_fence(s);
                int head = n - first;
                tide_sched_copy(s, t, (size_t)head * bb, byte, elem_at(rbuf, rdt, (size_t)first * rcount),
                                (size_t)head * rcount, rdt);
                tide_sched_copy(s, t + (size_t)head * bb, (size_t)(nb - head) * bb, byte, rbuf,
                                (size_t)(nb - head) * rcount, rdt);
            }
        }
        if (sbuf != MPI_IN_PLACE)
            tide_sched_copy(s, sbuf, scount, sdt, elem_at(rbuf, rdt, (size_t)v->me * rcount), rcount, rdt);
        return;
    }
    int parent = (vr - low + root) % n;
    if (low == 1 || vr + 1 >= n) {
        /* a leaf: its own block straight from the user's buffer */
        cv_send(s, v, parent, step, sbuf, scount, sdt);
        return;
    }
    size_t bb = scount * sdt->size;
    int nsub = (vr + low < n ? vr + low : n) - vr;
    char *t = tide_sched_alloc(s, (size_t)nsub * bb);
    if (!t)
        return;
    tide_sched_copy(s, sbuf, scount, sdt, t, bb, byte);
    for (int mask = 1; mask < low && vr + mask < n; mask <<= 1) {
        int nb = (vr + 2 * mask < n ? vr + 2 * mask : n) - (vr + mask);
        cv_recv(s, v, (vr + mask + root) % n, step, t + (size_t)mask * bb, (size_t)nb * bb, byte);
    }
    tide_sched_fence(s);
    cv_send(s, v, parent, step, t, (size_t)nsub * bb, byte);
}

void tide_gather_build(struct tide_sched *s, const struct tide_cv *v, const void *sbuf, size_t scount,
                       struct tide_datatype *sdt, void *rbuf, size_t rcount, struct tide_datatype *rdt, int root,
                       int alg, int step)
{
    if (v->n == 1) {
        if (sbuf != MPI_IN_PLACE)
            tide_sched_copy(s, sbuf, scount, sdt, rbuf, rcount, rdt);
        return;
    }
    /* every block is empty: nothing to move (the sizes agree on all ranks) */
    if ((v->me == root ? rcount * rdt->size : scount * sdt->size) == 0)
        return;
    if (alg == TA_BINOMIAL)
        gather_binomial(s, v, sbuf, scount, sdt, rbuf, rcount, rdt, root, step);
    else
        gather_linear(s, v, sbuf, scount, sdt, rbuf, rcount, rdt, root, step);
}

static void gatherv_linear(struct tide_sched *s, const struct tide_cv *v, const void *sbuf, size_t scount,
                           struct tide_datatype *sdt, void *rbuf, const MPI_Count *rcounts, const MPI_Aint *displs,
                           struct tide_datatype *rdt, int root, int step)
{
    int n = v->n, me = v->me;
    if (me != root) {
        if (scount * sdt->size > 0)
            cv_send(s, v, root, step, sbuf, scount, sdt);
        return;
    }
    for (int k = 1; k < n; k++) {
        int i = (root + k) % n;
        if ((size_t)rcounts[i] * rdt->size > 0)
            cv_recv(s, v, i, step, elem_at(rbuf, rdt, (size_t)(MPI_Aint)displs[i]), (size_t)rcounts[i], rdt);
    }
    if (sbuf != MPI_IN_PLACE)
        tide_sched_copy(s, sbuf, scount, sdt, elem_at(rbuf, rdt, (size_t)(MPI_Aint)displs[me]),
                        (size_t)rcounts[me], rdt);
}

/* ---- MPI functions ---- */

struct gargs {
    const void *sbuf;
    MPI_Count scount;
    struct tide_datatype *sdt;
    void *rbuf;
    MPI_Count rcount;
    const MPI_Count *rcounts;
    const MPI_Aint *displs;
    struct tide_datatype *rdt;
    int root;
    const int *ircounts, *idispls; /* the int form's arrays (widened into rcounts, displs) */
    struct tide_coll_wide wide;
};

static void build(struct tide_sched *s, struct tide_comm *c, const struct gargs *a, bool vform)
{
    if (c->is_inter) {
        if (vform)
            tide_inter_gatherv(s, c, a->sbuf, a->scount, a->sdt, a->rbuf, a->rcounts, a->displs, a->rdt, a->root);
        else
            tide_inter_gather(s, c, a->sbuf, a->scount, a->sdt, a->rbuf, a->rcount, a->rdt, a->root);
        return;
    }
    bool root = c->rank == a->root;
    size_t bytes = root ? (size_t)a->rcount * a->rdt->size : (size_t)a->scount * a->sdt->size;
    struct tide_coll_sel sel = {.kind = vform ? TC_GATHERV : TC_GATHER, .bytes = bytes, .commute = true,
                                .even = !vform};
    tide_coll_sel_comm(&sel, c);
    struct tide_cv v;
    tide_cv_comm(&v, c);
    int alg = tide_coll_select(&sel);
    if (vform)
        gatherv_linear(s, &v, a->sbuf, (size_t)a->scount, a->sdt, a->rbuf, a->rcounts, a->displs, a->rdt, a->root,
                       0);
    else
        tide_gather_build(s, &v, a->sbuf, (size_t)a->scount, a->sdt, a->rbuf, (size_t)a->rcount, a->rdt, a->root,
                          alg, 0);
}

int tide_coll_gather(const void *sbuf, MPI_Count scount, struct tide_datatype *sdt, void *rbuf, MPI_Count rcount,
                     struct tide_datatype *rdt, int root, struct tide_comm *c)
{
    tide_coll_enter(c, true);
    struct tide_sched *s = tide_sched_new(c);
    if (!s)
        return tide_err(MPI_ERR_NO_MEM, "MPI_Gather: out of memory");
    struct gargs a = {sbuf, scount, sdt, rbuf, rcount, NULL, NULL, rdt, root, NULL, NULL, {{NULL}, 0}};
    build(s, c, &a, false);
    return tide_sched_run(s);
}

static int check(const char *fn, struct tide_comm *c, struct gargs *a, MPI_Datatype stype, MPI_Datatype rtype,
                 bool vform)
{
    int rc;
    if ((rc = tide_coll_check_root(c, a->root, fn)))
        return rc;
    bool is_root = c->is_inter ? a->root == MPI_ROOT : c->rank == a->root;
    bool sends = c->is_inter ? (a->root != MPI_ROOT && a->root != MPI_PROC_NULL) : true;
    if (c->is_inter) {
        if ((rc = tide_coll_no_in_place(a->sbuf, fn, "sendbuf", "not on an intercommunicator")) ||
            (rc = tide_coll_no_in_place(a->rbuf, fn, "recvbuf", "not on an intercommunicator")))
            return rc;
    } else if (!is_root) {
        if ((rc = tide_coll_no_in_place(a->sbuf, fn, "sendbuf", "only the root may use it")))
            return rc;
    }
    if (!is_root && a->rbuf == MPI_IN_PLACE && !c->is_inter)
        a->rbuf = NULL; /* not significant */
    if (is_root && (rc = tide_coll_no_in_place(a->rbuf, fn, "recvbuf", "the in-place form names sendbuf")))
        return rc;
    if (sends && a->sbuf != MPI_IN_PLACE) {
        if ((rc = tide_coll_check_type(stype, a->scount, fn, "sendtype", &a->sdt)) ||
            (rc = tide_coll_check_buf(a->sbuf, a->scount, a->sdt, fn, "sendbuf")))
            return rc;
    }
    if (is_root) {
        int nblk = c->is_inter ? c->remote_size : c->size;
        if (vform) {
            if ((a->ircounts &&
                 (rc = tide_coll_widen(&a->wide, a->ircounts, a->idispls, nblk, fn, &a->rcounts, &a->displs))) ||
                (rc = tide_coll_check_type(rtype, 0, fn, "recvtype", &a->rdt)) ||
                (rc = tide_coll_check_counts(a->rcounts, a->displs, nblk, a->rdt, true, fn, "recvcounts",
                                             "displs")))
                return rc;
            if (!c->is_inter && a->sbuf != MPI_IN_PLACE &&
                ((rc = tide_coll_check_fit(a->scount, a->sdt, a->rcounts[c->rank], a->rdt, fn)) ||
                 (rc = tide_coll_no_alias(a->sbuf, TIDE_COLL_BLOCK(a->scount, a->sdt), a->rbuf,
                                          &(struct tide_coll_blocks){.n = nblk, .counts = a->rcounts,
                                                                     .displs = a->displs, .dt = a->rdt},
                                          fn))))
                return rc;
        } else {
            if ((rc = tide_coll_check_type(rtype, a->rcount, fn, "recvtype", &a->rdt)) ||
                (rc = tide_coll_check_buf(a->rbuf, a->rcount, a->rdt, fn, "recvbuf")))
                return rc;
            if (!c->is_inter && a->sbuf != MPI_IN_PLACE &&
                ((rc = tide_coll_check_fit(a->scount, a->sdt, a->rcount, a->rdt, fn)) ||
                 (rc = tide_coll_no_alias(a->sbuf, TIDE_COLL_BLOCK(a->scount, a->sdt), a->rbuf,
                                          TIDE_COLL_BLOCK((long long)a->rcount * nblk, a->rdt), fn))))
                return rc;
        }
    }
    if (!a->sdt)
        a->sdt = tide_coll_byte();
    if (!a->rdt)
        a->rdt = tide_coll_byte();
    return MPI_SUCCESS;
}

static void agree_build(struct tide_sched *s, struct tide_comm *c, const char *fn, const struct gargs *a,
                        bool vform)
{
    if (tide_coll_checking()) {
        /* even blocks within one group: every rank's block is the same size */
        long long block = c->rank == a->root ? (long long)a->rcount * (long long)a->rdt->size
                                             : (long long)a->scount * (long long)a->sdt->size;
        struct tide_coll_agree ag = {.root = a->root, .bytes = vform || c->is_inter ? -1 : block};
        tide_coll_agree_add(s, c, &ag, fn);
    }
    build(s, c, a, vform);
}

/* what a persistent gather keeps */
struct gather_kept {
    struct gargs a;
    bool vform;
};

static void kept_build(struct tide_sched *s, struct tide_comm *c, const char *fn, void *args)
{
    const struct gather_kept *k = args;
    agree_build(s, c, fn, &k->a, k->vform);
}

/* An _init call: the request keeps the checked arguments (the wide
 * count and displacement arrays, copied). */
static int keep(const char *fn, struct tide_comm *c, const struct gargs *a, bool vform, MPI_Request *request)
{
    struct tide_pcoll *p = tide_pcoll_new(c, fn, kept_build);
    if (!p)
        return tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    struct gather_kept k = {*a, vform};
    k.a.ircounts = k.a.idispls = NULL;
    k.a.wide = (struct tide_coll_wide){{NULL}, 0};
    bool is_root = c->is_inter ? a->root == MPI_ROOT : c->rank == a->root;
    if (vform && is_root) {
        size_t n = (size_t)(c->is_inter ? c->remote_size : c->size);
        k.a.rcounts = tide_pcoll_keep(p, a->rcounts, n * sizeof *a->rcounts);
        k.a.displs = tide_pcoll_keep(p, a->displs, n * sizeof *a->displs);
    } else {
        k.a.rcounts = NULL; /* not significant here */
        k.a.displs = NULL;
    }
    tide_pcoll_hold_dt(p, a->sdt);
    tide_pcoll_hold_dt(p, a->rdt);
    return tide_pcoll_commit(p, tide_pcoll_keep(p, &k, sizeof k), request);
}

static int run_api(const char *fn, struct gargs *a, MPI_Datatype stype, MPI_Datatype rtype, MPI_Comm comm,
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

static int start(const char *fn, struct gargs *a, MPI_Datatype stype, MPI_Datatype rtype, MPI_Comm comm,
                 bool vform, MPI_Request *request, enum tide_coll_mode mode)
{
    int rc = run_api(fn, a, stype, rtype, comm, vform, request, mode);
    tide_coll_wide_free(&a->wide);
    return rc;
}

int tide_gather_api(const char *fn, const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
                    MPI_Count rcount, const MPI_Count *rcounts, const MPI_Aint *displs, MPI_Datatype rtype, int root,
                    MPI_Comm comm, bool vform, MPI_Request *request, enum tide_coll_mode mode)
{
    struct gargs a = {sbuf, scount, NULL, rbuf, rcount, rcounts, displs, NULL, root, NULL, NULL, {{NULL}, 0}};
    return start(fn, &a, stype, rtype, comm, vform, request, mode);
}

int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    TIDE_API_ENTER();
    struct gargs a = {sendbuf, sendcount, NULL, recvbuf, recvcount, NULL, NULL, NULL, root, NULL, NULL, {{NULL}, 0}};
    return start("MPI_Gather", &a, sendtype, recvtype, comm, false, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Gather)

int PMPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    struct gargs a = {sendbuf, sendcount, NULL, recvbuf, recvcount, NULL, NULL, NULL, root, NULL, NULL, {{NULL}, 0}};
    return start("MPI_Igather", &a, sendtype, recvtype, comm, false, request, TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Igather)

int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                 const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    TIDE_API_ENTER();
    struct gargs a = {sendbuf, sendcount, NULL, recvbuf, 0, NULL, NULL, NULL, root, recvcounts, displs, {{NULL}, 0}};
    return start("MPI_Gatherv", &a, sendtype, recvtype, comm, true, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Gatherv)

int PMPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request *request)
{
    TIDE_API_ENTER();
    struct gargs a = {sendbuf, sendcount, NULL, recvbuf, 0, NULL, NULL, NULL, root, recvcounts, displs, {{NULL}, 0}};
    return start("MPI_Igatherv", &a, sendtype, recvtype, comm, true, request, TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Igatherv)

int PMPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Gather_init";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    struct gargs a = {sendbuf, sendcount, NULL, recvbuf, recvcount, NULL, NULL, NULL, root, NULL, NULL, {{NULL}, 0}};
    return start(fn, &a, sendtype, recvtype, comm, false, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Gather_init)

int PMPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
                      MPI_Info info, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Gatherv_init";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    struct gargs a = {sendbuf, sendcount, NULL, recvbuf, 0, NULL, NULL, NULL, root, recvcounts, displs, {{NULL}, 0}};
    return start(fn, &a, sendtype, recvtype, comm, true, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Gatherv_init)
