/*
 * neighbor.c: the MPI-3 neighbourhood collectives on Cartesian, graph and
 * distributed-graph topologies (MPI_Neighbor_allgather(v),
 * MPI_Neighbor_alltoall(v,w) and their nonblocking forms). Every rank
 * sends to each of its destinations and receives from each of its sources
 * (comm/topo.h gives both lists in the standard's order), all messages at
 * once. A neighbour may appear more than once: on a Cartesian topology
 * (a periodic dimension of size 1 or 2) each message is tagged with the
 * slot it fills at the receiver (the -1 neighbour's slot receives what
 * that neighbour sent its +1 neighbour); on graphs the k-th message from a
 * neighbour fills the k-th slot for it, which message order guarantees.
 * MPI_PROC_NULL neighbours (the ends of a non-periodic dimension) leave
 * their receive blocks untouched.
 */
#include "runtime/api.h"
#include "coll/algo.h"
#include "coll/coll_api.h"
#include "coll/coll_args.h"
#include "coll/pcoll.h"
#include "comm/topo.h"

#include <stdlib.h>
#include <string.h>

enum nform { N_ALLGATHER, N_ALLGATHERV, N_ALLTOALL, N_ALLTOALLV, N_ALLTOALLW };

struct nargs {
    const void *sbuf;
    MPI_Count scount;
    const MPI_Count *scounts;
    const MPI_Aint *sdispls;
    const MPI_Aint *sbdispls; /* alltoallw */
    struct tide_datatype *sdt;
    struct tide_datatype **sdts;
    void *rbuf;
    MPI_Count rcount;
    const MPI_Count *rcounts;
    const MPI_Aint *rdispls;
    const MPI_Aint *rbdispls;
    struct tide_datatype *rdt;
    struct tide_datatype **rdts;
    /* the int form's arrays (widened into scounts, sdispls, rcounts, rdispls) */
    const int *iscounts, *isdispls, *ircounts, *irdispls;
    struct tide_coll_wide wide;
};

/* the receive slot a message to destination k fills at its receiver */
static int slot_at_receiver(const struct tide_topo *t, int k)
{
    return t->kind == MPI_CART ? (k ^ 1) : 0;
}

static void build(struct tide_sched *s, struct tide_comm *c, const struct nargs *a, enum nform f)
{
    struct tide_cv v;
    tide_cv_comm(&v, c);
    const struct tide_topo *t = c->topo;
    bool cart = t->kind == MPI_CART;
    for (int i = 0; i < t->indegree; i++) {
        int src = t->in[i];
        if (src == MPI_PROC_NULL)
            continue;
        void *p;
        size_t n;
        struct tide_datatype *dt = a->rdt;
        switch (f) {
        case N_ALLGATHER:
        case N_ALLTOALL:
            p = elem_at(a->rbuf, a->rdt, (size_t)i * (size_t)a->rcount);
            n = (size_t)a->rcount;
            break;
        case N_ALLGATHERV:
        case N_ALLTOALLV:
            p = elem_at(a->rbuf, a->rdt, (size_t)(MPI_Aint)a->rdispls[i]);
            n = (size_t)a->rcounts[i];
            break;
        default:
            p = (char *)a->rbuf + a->rbdispls[i];
            n = (size_t)a->rcounts[i];
            dt = a->rdts[i];
            break;
        }
        if (n * dt->size == 0)
            continue;
        cv_recv(s, &v, src, cart ? i : 0, p, n, dt);
    }
    for (int k = 0; k < t->outdegree; k++) {
        int dst = t->out[k];
        if (dst == MPI_PROC_NULL)
            continue;
        const void *p;
        size_t n;
        struct tide_datatype *dt = a->sdt;
        switch (f) {
        case N_ALLGATHER:
        case N_ALLGATHERV:
            p = a->sbuf;
            n = (size_t)a->scount;
            break;
        case N_ALLTOALL:
            p = elem_at(a->sbuf, a->sdt, (size_t)k * (size_t)a->scount);
            n = (size_t)a->scount;
            break;
        case N_ALLTOALLV:
            p = elem_at(a->sbuf, a->sdt, (size_t)(MPI_Aint)a->sdispls[k]);
            n = (size_t)a->scounts[k];
            break;
        default:
            p = (const char *)a->sbuf + a->sbdispls[k];
            n = (size_t)a->scounts[k];
            dt = a->sdts[k];
            break;
        }
        if (n * dt->size == 0)
            continue;
        cv_send(s, &v, dst, slot_at_receiver(t, k), p, n, dt);
    }
}

/* Alltoallw arrays: per-neighbour counts (>= 0) and valid types where
 * the count is not zero. */
static int check_w(const MPI_Count *counts, const MPI_Aint *displs, const MPI_Datatype *types, int n, const char *fn,
                   const char *cname, const char *dname, const char *tname, struct tide_datatype **dts)
{
    if (n > 0 && (!counts || !displs || !types))
        return tide_err(MPI_ERR_ARG, "%s: %s, %s and %s must not be NULL", fn, cname, dname, tname);
    for (int i = 0; i < n; i++) {
        if (counts[i] < 0)
            return tide_err(MPI_ERR_COUNT, "%s: negative count %lld at index %d (argument %s)", fn, counts[i], i,
                            cname);
        dts[i] = tide_datatype_get(types[i]);
        if (counts[i] == 0 && !dts[i]) {
            dts[i] = tide_coll_byte();
            continue;
        }
        int rc = tide_datatype_check(dts[i], types[i], counts[i], fn, tname);
        if (rc)
            return rc;
    }
    return MPI_SUCCESS;
}

static int check(const char *fn, struct tide_comm *c, struct nargs *a, MPI_Datatype stype, MPI_Datatype rtype,
                 const MPI_Datatype *stypes, const MPI_Datatype *rtypes, enum nform f)
{
    int rc;
    if (c->is_inter)
        return tide_err(MPI_ERR_COMM, "%s: not defined on an intercommunicator (argument comm)", fn);
    const struct tide_topo *t = c->topo;
    if (!t)
        return tide_err(MPI_ERR_TOPOLOGY, "%s: the communicator has no process topology (argument comm)", fn);
    if ((rc = tide_coll_no_in_place(a->sbuf, fn, "sendbuf", "neighbourhood collectives have no in-place form")) ||
        (rc = tide_coll_no_in_place(a->rbuf, fn, "recvbuf", "neighbourhood collectives have no in-place form")))
        return rc;
    int in = t->indegree, out = t->outdegree;
    if ((a->ircounts && (rc = tide_coll_widen(&a->wide, a->ircounts, a->irdispls, in, fn, &a->rcounts, &a->rdispls))) ||
        (a->iscounts && (rc = tide_coll_widen(&a->wide, a->iscounts, a->isdispls, out, fn, &a->scounts, &a->sdispls))))
        return rc;
    switch (f) {
    case N_ALLGATHER:
    case N_ALLTOALL:
        if ((rc = tide_coll_check_type(stype, a->scount, fn, "sendtype", &a->sdt)) ||
            (rc = tide_coll_check_type(rtype, a->rcount, fn, "recvtype", &a->rdt)))
            return rc;
        if (out > 0 && (rc = tide_coll_check_buf(a->sbuf, a->scount, a->sdt, fn, "sendbuf")))
            return rc;
        if (in > 0 && (rc = tide_coll_check_buf(a->rbuf, a->rcount, a->rdt, fn, "recvbuf")))
            return rc;
        return MPI_SUCCESS;
    case N_ALLGATHERV:
        if ((rc = tide_coll_check_type(stype, a->scount, fn, "sendtype", &a->sdt)) ||
            (rc = tide_coll_check_type(rtype, 0, fn, "recvtype", &a->rdt)) ||
            (rc = tide_coll_check_counts(a->rcounts, a->rdispls, in, a->rdt, false, fn, "recvcounts", "displs")))
            return rc;
        return MPI_SUCCESS;
    case N_ALLTOALLV:
        if ((rc = tide_coll_check_type(stype, 0, fn, "sendtype", &a->sdt)) ||
            (rc = tide_coll_check_type(rtype, 0, fn, "recvtype", &a->rdt)) ||
            (rc = tide_coll_check_counts(a->scounts, a->sdispls, out, a->sdt, false, fn, "sendcounts", "sdispls")) ||
            (rc = tide_coll_check_counts(a->rcounts, a->rdispls, in, a->rdt, false, fn, "recvcounts", "rdispls")))
            return rc;
        return MPI_SUCCESS;
    default:
        a->sdts = malloc((size_t)(out ? out : 1) * sizeof *a->sdts);
        a->rdts = malloc((size_t)(in ? in : 1) * sizeof *a->rdts);
        if (!a->sdts || !a->rdts)
            return tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
        if ((rc = check_w(a->scounts, a->sbdispls, stypes, out, fn, "sendcounts", "sdispls", "sendtypes", a->sdts)) ||
            (rc = check_w(a->rcounts, a->rbdispls, rtypes, in, fn, "recvcounts", "rdispls", "recvtypes", a->rdts)))
            return rc;
        a->sdt = a->rdt = tide_coll_byte();
        return MPI_SUCCESS;
    }
}

static void agree_build(struct tide_sched *s, struct tide_comm *c, const char *fn, const struct nargs *a,
                        enum nform f)
{
    if (tide_coll_checking()) {
        struct tide_coll_agree ag = {.root = 0, .bytes = -1};
        tide_coll_agree_add(s, c, &ag, fn);
    }
    build(s, c, a, f);
}

/* what a persistent neighbourhood collective keeps */
struct neighbor_kept {
    struct nargs a;
    enum nform f;
};

static void kept_build(struct tide_sched *s, struct tide_comm *c, const char *fn, void *args)
{
    const struct neighbor_kept *k = args;
    agree_build(s, c, fn, &k->a, k->f);
}

/* An _init call: the request keeps the checked arguments (copies of the
 * wide arrays; the caller still frees a->sdts and a->rdts). */
static int keep(const char *fn, struct tide_comm *c, const struct nargs *a, enum nform f, MPI_Request *request)
{
    struct tide_pcoll *p = tide_pcoll_new(c, fn, kept_build);
    if (!p)
        return tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    struct neighbor_kept k = {*a, f};
    size_t in = (size_t)c->topo->indegree, out = (size_t)c->topo->outdegree;
    k.a.scounts = k.a.rcounts = NULL;
    k.a.sdispls = k.a.rdispls = NULL;
    k.a.iscounts = k.a.isdispls = k.a.ircounts = k.a.irdispls = NULL;
    k.a.wide = (struct tide_coll_wide){{NULL}, 0};
    k.a.sbdispls = k.a.rbdispls = NULL;
    k.a.sdts = k.a.rdts = NULL;
    if (f == N_ALLGATHERV || f == N_ALLTOALLV || f == N_ALLTOALLW)
        k.a.rcounts = tide_pcoll_keep(p, a->rcounts, in * sizeof *a->rcounts);
    if (f == N_ALLGATHERV || f == N_ALLTOALLV)
        k.a.rdispls = tide_pcoll_keep(p, a->rdispls, in * sizeof *a->rdispls);
    if (f == N_ALLTOALLV || f == N_ALLTOALLW)
        k.a.scounts = tide_pcoll_keep(p, a->scounts, out * sizeof *a->scounts);
    if (f == N_ALLTOALLV)
        k.a.sdispls = tide_pcoll_keep(p, a->sdispls, out * sizeof *a->sdispls);
    if (f == N_ALLTOALLW) {
        k.a.sbdispls = tide_pcoll_keep(p, a->sbdispls, out * sizeof *a->sbdispls);
        k.a.rbdispls = tide_pcoll_keep(p, a->rbdispls, in * sizeof *a->rbdispls);
        k.a.sdts = tide_pcoll_keep(p, a->sdts, out * sizeof *a->sdts);
        k.a.rdts = tide_pcoll_keep(p, a->rdts, in * sizeof *a->rdts);
        for (size_t i = 0; i < out; i++)
            tide_pcoll_hold_dt(p, a->sdts[i]);
        for (size_t i = 0; i < in; i++)
            tide_pcoll_hold_dt(p, a->rdts[i]);
    }
    tide_pcoll_hold_dt(p, a->sdt);
    tide_pcoll_hold_dt(p, a->rdt);
    return tide_pcoll_commit(p, tide_pcoll_keep(p, &k, sizeof k), request);
}

static int run_api(const char *fn, struct nargs *a, MPI_Datatype stype, MPI_Datatype rtype,
                   const MPI_Datatype *stypes, const MPI_Datatype *rtypes, MPI_Comm comm, enum nform f,
                   MPI_Request *request, enum tide_coll_mode mode)
{
    bool nonblocking = mode != TIDE_COLL_BLOCKING;
    struct tide_comm *c;
    int rc = tide_coll_check_comm(comm, fn, &c);
    if (rc)
        return tide_coll_raise(c, rc);
    tide_coll_count_call(c);
    rc = check(fn, c, a, stype, rtype, stypes, rtypes, f);
    if (!rc && nonblocking)
        rc = tide_coll_check_request(request, fn);
    rc = tide_coll_checked(c, rc, fn);
    if (rc) {
        free(a->sdts);
        free(a->rdts);
        return tide_raise_comm(c, tide_coll_mode_error(c, mode, rc, 0, fn));
    }
    if (mode == TIDE_COLL_PERSISTENT) {
        rc = keep(fn, c, a, f, request);
        free(a->sdts);
        free(a->rdts);
        return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
    }
    struct tide_sched *s = tide_sched_new(c);
    if (!s) {
        free(a->sdts);
        free(a->rdts);
        return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    }
    agree_build(s, c, fn, a, f);
    free(a->sdts);
    free(a->rdts);
    rc = nonblocking ? tide_sched_start(s, request) : tide_sched_run(s);
    return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
}

static int start(const char *fn, struct nargs *a, MPI_Datatype stype, MPI_Datatype rtype, const MPI_Datatype *stypes,
                 const MPI_Datatype *rtypes, MPI_Comm comm, enum nform f, MPI_Request *request,
                 enum tide_coll_mode mode)
{
    int rc = run_api(fn, a, stype, rtype, stypes, rtypes, comm, f, request, mode);
    tide_coll_wide_free(&a->wide);
    return rc;
}

int tide_neighbor_api(const char *fn, int form, const void *sbuf, MPI_Count scount, const MPI_Count *scounts,
                      const MPI_Aint *sdispls, MPI_Datatype stype, const MPI_Datatype *stypes, void *rbuf,
                      MPI_Count rcount, const MPI_Count *rcounts, const MPI_Aint *rdispls, MPI_Datatype rtype,
                      const MPI_Datatype *rtypes, MPI_Comm comm, MPI_Request *request, enum tide_coll_mode mode)
{
    static const enum nform forms[] = {N_ALLGATHER, N_ALLGATHERV, N_ALLTOALL, N_ALLTOALLV, N_ALLTOALLW};
    enum nform f = forms[form];
    struct nargs a = {.sbuf = sbuf, .scount = scount, .scounts = scounts, .rbuf = rbuf, .rcount = rcount,
                      .rcounts = rcounts};
    if (f == N_ALLTOALLW) {
        a.sbdispls = sdispls;
        a.rbdispls = rdispls;
    } else {
        a.sdispls = sdispls;
        a.rdispls = rdispls;
    }
    return start(fn, &a, stype, rtype, stypes, rtypes, comm, f, request, mode);
}

int PMPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, MPI_Comm comm)
{
    TIDE_API_ENTER();
    struct nargs a = {.sbuf = sendbuf, .scount = sendcount, .rbuf = recvbuf, .rcount = recvcount};
    return start("MPI_Neighbor_allgather", &a, sendtype, recvtype, NULL, NULL, comm, N_ALLGATHER, NULL,
                 TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Neighbor_allgather)

int PMPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                             int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    struct nargs a = {.sbuf = sendbuf, .scount = sendcount, .rbuf = recvbuf, .rcount = recvcount};
    return start("MPI_Ineighbor_allgather", &a, sendtype, recvtype, NULL, NULL, comm, N_ALLGATHER, request,
                 TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Ineighbor_allgather)

int PMPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                             const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    TIDE_API_ENTER();
    struct nargs a = {.sbuf = sendbuf, .scount = sendcount, .rbuf = recvbuf, .ircounts = recvcounts,
                      .irdispls = displs};
    return start("MPI_Neighbor_allgatherv", &a, sendtype, recvtype, NULL, NULL, comm, N_ALLGATHERV, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Neighbor_allgatherv)

int PMPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                              const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                              MPI_Request *request)
{
    TIDE_API_ENTER();
    struct nargs a = {.sbuf = sendbuf, .scount = sendcount, .rbuf = recvbuf, .ircounts = recvcounts,
                      .irdispls = displs};
    return start("MPI_Ineighbor_allgatherv", &a, sendtype, recvtype, NULL, NULL, comm, N_ALLGATHERV, request, TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Ineighbor_allgatherv)

int PMPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm)
{
    TIDE_API_ENTER();
    struct nargs a = {.sbuf = sendbuf, .scount = sendcount, .rbuf = recvbuf, .rcount = recvcount};
    return start("MPI_Neighbor_alltoall", &a, sendtype, recvtype, NULL, NULL, comm, N_ALLTOALL, NULL,
                 TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Neighbor_alltoall)

int PMPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    struct nargs a = {.sbuf = sendbuf, .scount = sendcount, .rbuf = recvbuf, .rcount = recvcount};
    return start("MPI_Ineighbor_alltoall", &a, sendtype, recvtype, NULL, NULL, comm, N_ALLTOALL, request,
                 TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Ineighbor_alltoall)

int PMPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm)
{
    TIDE_API_ENTER();
    struct nargs a = {.sbuf = sendbuf, .iscounts = sendcounts, .isdispls = sdispls, .rbuf = recvbuf,
                      .ircounts = recvcounts, .irdispls = rdispls};
    return start("MPI_Neighbor_alltoallv", &a, sendtype, recvtype, NULL, NULL, comm, N_ALLTOALLV, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Neighbor_alltoallv)

int PMPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                             MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    struct nargs a = {.sbuf = sendbuf, .iscounts = sendcounts, .isdispls = sdispls, .rbuf = recvbuf,
                      .ircounts = recvcounts, .irdispls = rdispls};
    return start("MPI_Ineighbor_alltoallv", &a, sendtype, recvtype, NULL, NULL, comm, N_ALLTOALLV, request, TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Ineighbor_alltoallv)

int PMPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    TIDE_API_ENTER();
    struct nargs a = {.sbuf = sendbuf, .iscounts = sendcounts, .sbdispls = sdispls, .rbuf = recvbuf,
                      .ircounts = recvcounts, .rbdispls = rdispls};
    return start("MPI_Neighbor_alltoallw", &a, MPI_DATATYPE_NULL, MPI_DATATYPE_NULL, sendtypes, recvtypes, comm,
                 N_ALLTOALLW, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Neighbor_alltoallw)

int PMPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                             const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                             const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                             MPI_Request *request)
{
    TIDE_API_ENTER();
    struct nargs a = {.sbuf = sendbuf, .iscounts = sendcounts, .sbdispls = sdispls, .rbuf = recvbuf,
                      .ircounts = recvcounts, .rbdispls = rdispls};
    return start("MPI_Ineighbor_alltoallw", &a, MPI_DATATYPE_NULL, MPI_DATATYPE_NULL, sendtypes, recvtypes, comm,
                 N_ALLTOALLW, request, TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Ineighbor_alltoallw)

int PMPI_Neighbor_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Neighbor_allgather_init";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    struct nargs a = {.sbuf = sendbuf, .scount = sendcount, .rbuf = recvbuf, .rcount = recvcount};
    return start(fn, &a, sendtype, recvtype, NULL, NULL, comm, N_ALLGATHER, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Neighbor_allgather_init)

int PMPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                  const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                  MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Neighbor_allgatherv_init";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    struct nargs a = {.sbuf = sendbuf, .scount = sendcount, .rbuf = recvbuf, .ircounts = recvcounts,
                      .irdispls = displs};
    return start(fn, &a, sendtype, recvtype, NULL, NULL, comm, N_ALLGATHERV, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Neighbor_allgatherv_init)

int PMPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Neighbor_alltoall_init";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    struct nargs a = {.sbuf = sendbuf, .scount = sendcount, .rbuf = recvbuf, .rcount = recvcount};
    return start(fn, &a, sendtype, recvtype, NULL, NULL, comm, N_ALLTOALL, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Neighbor_alltoall_init)

int PMPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                 MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                                 MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Neighbor_alltoallv_init";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    struct nargs a = {.sbuf = sendbuf, .iscounts = sendcounts, .isdispls = sdispls, .rbuf = recvbuf,
                      .ircounts = recvcounts, .irdispls = rdispls};
    return start(fn, &a, sendtype, recvtype, NULL, NULL, comm, N_ALLTOALLV, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Neighbor_alltoallv_init)

int PMPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                 const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                 const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                 MPI_Info info, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Neighbor_alltoallw_init";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    struct nargs a = {.sbuf = sendbuf, .iscounts = sendcounts, .sbdispls = sdispls, .rbuf = recvbuf,
                      .ircounts = recvcounts, .rbdispls = rdispls};
    return start(fn, &a, MPI_DATATYPE_NULL, MPI_DATATYPE_NULL, sendtypes, recvtypes, comm, N_ALLTOALLW, request,
                 TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Neighbor_alltoallw_init)
