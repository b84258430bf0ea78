/*
 * barrier.c: MPI_Barrier and MPI_Ibarrier. Algorithms: dissemination
 * (ceil(log2 n) rounds of one zero-byte message each way, any n), a
 * binomial fan-in to rank 0 and fan-out, a linear one through rank 0 (two
 * rounds), direct (every rank tells every other: one round, n(n-1)
 * messages; for few ranks, above all when they outnumber cores), and the
 * node-aware form: fan
 * in within each node, dissemination among the node leaders, fan out.
 */
#include "runtime/api.h"
#include "coll/algo.h"
#include "coll/coll.h"
#include "coll/coll_args.h"
#include "coll/direct.h"
#include "coll/shm_coll.h"
#include "coll/inter.h"
#include "coll/pcoll.h"

static void zsend(struct tide_sched *s, const struct tide_cv *v, int to, int step)
{
    cv_send(s, v, to, step, NULL, 0, tide_coll_byte());
}

static void zrecv(struct tide_sched *s, const struct tide_cv *v, int from, int step)
{
    cv_recv(s, v, from, step, NULL, 0, tide_coll_byte());
}

void tide_barrier_dissemination(struct tide_sched *s, const struct tide_cv *v, int step)
{
    int n = v->n, me = v->me;
    for (int k = 1; k < n; k <<= 1, step++) {
        zrecv(s, v, (me - k + n) % n, step);
        zsend(s, v, (me + k) % n, step);
        tide_sched_fence(s);
    }
}

/* binomial fan-in to view rank 0 */
void tide_barrier_fan_in(struct tide_sched *s, const struct tide_cv *v, int step)
{
    int n = v->n, me = v->me, mask = 1;
    while (mask < n && !(me & mask)) {
        if (me + mask < n)
            zrecv(s, v, me + mask, step);
        mask <<= 1;
    }
    tide_sched_fence(s);
    if (me != 0)
        zsend(s, v, me - mask, step);
}

/* binomial fan-out from view rank 0 */
void tide_barrier_fan_out(struct tide_sched *s, const struct tide_cv *v, int step)
{
    int n = v->n, me = v->me, mask = 1;
    while (mask < n && !(me & mask))
        mask <<= 1;
    if (me != 0) {
        zrecv(s, v, me - mask, step);
        tide_sched_fence(s);
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (me + mask < n)
            zsend(s, v, me + mask, step);
}

void tide_barrier_tree(struct tide_sched *s, const struct tide_cv *v, int step)
{
    tide_barrier_fan_in(s, v, step);
    tide_sched_fence(s);
    tide_barrier_fan_out(s, v, step + 1);
}

void tide_barrier_linear(struct tide_sched *s, const struct tide_cv *v, int step)
{
    int n = v->n;
    if (v->me == 0) {
        for (int i = 1; i < n; i++)
            zrecv(s, v, i, step);
        tide_sched_fence(s);
        for (int i = 1; i < n; i++)
            zsend(s, v, i, step + 1);
    } else {
        zsend(s, v, 0, step);
        zrecv(s, v, 0, step + 1);
    }
}

/* everyone tells everyone: one round of n(n-1) zero-byte messages */
static void barrier_direct(struct tide_sched *s, const struct tide_cv *v, int step)
{
    int n = v->n, me = v->me;
    for (int k = 1; k < n; k++)
        zrecv(s, v, (me - k + n) % n, step);
    for (int k = 1; k < n; k++)
        zsend(s, v, (me + k) % n, step);
}

static void barrier_hier(struct tide_sched *s, const struct tide_cv *all, const struct tide_coll_state *st)
{
    struct tide_cv node, lead;
    tide_cv_node(&node, st, all);
    tide_cv_leaders(&lead, st, all);
    tide_barrier_fan_in(s, &node, 0);
    tide_sched_fence(s);
    if (lead.me >= 0) {
        tide_barrier_dissemination(s, &lead, TIDE_STEP_PHASE);
        tide_sched_fence(s);
    }
    tide_barrier_fan_out(s, &node, 2 * TIDE_STEP_PHASE);
}

/* shm: a blocking call, which the shared region may carry */
static int barrier_alg(struct tide_comm *c, bool shm)
{
    struct tide_coll_sel sel = {.kind = TC_BARRIER, .commute = true, .even = true};
    tide_coll_sel_comm(&sel, c);
    sel.shm = shm && tide_shm_coll_fits(c, 0);
    return tide_coll_select(&sel);
}

static void barrier_build(struct tide_sched *s, struct tide_comm *c)
{
    if (c->is_inter) {
        tide_inter_barrier(s, c);
        return;
    }
    int alg = barrier_alg(c, false);
    struct tide_cv v;
    tide_cv_comm(&v, c);
    if (v.n == 1)
        return;
    switch (alg) {
    case TA_HIER:
        barrier_hier(s, &v, c->coll);
        break;
    case TA_TREE:
        tide_barrier_tree(s, &v, 0);
        break;
    case TA_LINEAR:
        tide_barrier_linear(s, &v, 0);
        break;
    case TA_DIRECT:
        barrier_direct(s, &v, 0);
        break;
    default:
        tide_barrier_dissemination(s, &v, 0);
        break;
    }
}

static int agree(struct tide_sched *s, struct tide_comm *c, const char *fn)
{
    if (tide_coll_checking()) {
        struct tide_coll_agree a = {.root = 0, .bytes = -1, .op = 0, .err = 0};
        tide_coll_agree_add(s, c, &a, fn);
    }
    return MPI_SUCCESS;
}

/* A blocking barrier without a schedule, if its algorithm allows:
 * MPI_SUCCESS or an error, or -1 when the caller must build one. */
static int barrier_direct_run(struct tide_comm *c)
{
    if (!tide_direct_allowed(c))
        return -1;
    int alg = barrier_alg(c, true);
    if (alg == TA_SHM) {
        int rc = tide_shm_barrier(c);
        if (rc >= 0)
            return rc;
        alg = barrier_alg(c, false); /* no region after all */
    }
    if (!tide_direct_barrier_ok(alg))
        return -1;
    struct tide_cv v;
    tide_cv_comm(&v, c);
    return tide_direct_barrier(&v, alg);
}

int tide_coll_barrier(struct tide_comm *c)
{
    tide_coll_enter(c, true);
    int rc = barrier_direct_run(c);
    if (rc >= 0)
        return rc;
    struct tide_sched *s = tide_sched_new(c);
    if (!s)
        return tide_err(MPI_ERR_NO_MEM, "MPI_Barrier: out of memory");
    barrier_build(s, c);
    return tide_sched_run(s);
}

int PMPI_Barrier(MPI_Comm comm)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Barrier";
    struct tide_comm *c;
    int rc = tide_coll_check_comm(comm, fn, &c);
    if (rc)
        return tide_coll_raise(c, rc);
    tide_coll_enter(c, true);
    tide_coll_count_call(c);
    if ((rc = tide_coll_checked(c, MPI_SUCCESS, fn)))
        return tide_raise_comm(c, tide_coll_local_error(c, rc, 0, fn));
    if ((rc = barrier_direct_run(c)) >= 0)
        return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
    struct tide_sched *s = tide_sched_new(c);
    if (!s)
        return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    agree(s, c, fn);
    barrier_build(s, c);
    rc = tide_sched_run(s);
    return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Barrier)

int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Ibarrier";
    struct tide_comm *c;
    int rc = tide_coll_check_comm(comm, fn, &c);
    if (rc)
        return tide_coll_raise(c, rc);
    tide_coll_count_call(c);
    if ((rc = tide_coll_checked(c, tide_coll_check_request(request, fn), fn)))
        return tide_raise_comm(c, tide_coll_local_error(c, rc, 0, fn));
    struct tide_sched *s = tide_sched_new(c);
    if (!s)
        return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    agree(s, c, fn);
    barrier_build(s, c);
    rc = tide_sched_start(s, request);
    return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Ibarrier)

static void barrier_pbuild(struct tide_sched *s, struct tide_comm *c, const char *fn, void *args)
{
    (void)args;
    agree(s, c, fn);
    barrier_build(s, c);
}

int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Barrier_init";
    struct tide_comm *c;
    int rc = tide_coll_check_comm(comm, fn, &c);
    if (rc)
        return tide_coll_raise(c, rc);
    tide_coll_enter(c, true);
    tide_coll_count_call(c);
    if ((rc = tide_pcoll_check_info(info, fn)) || (rc = tide_coll_check_request(request, fn)) ||
        (rc = tide_coll_checked(c, MPI_SUCCESS, fn)))
        return tide_raise_comm(c, tide_coll_mode_error(c, TIDE_COLL_PERSISTENT, rc, 0, fn));
    struct tide_pcoll *p = tide_pcoll_new(c, fn, barrier_pbuild);
    if (!p)
        return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    rc = tide_pcoll_commit(p, NULL, request);
    return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Barrier_init)
