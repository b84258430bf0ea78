/*
 * shrink.c: MPIX_Comm_shrink and MPIX_Comm_ishrink: a new communicator
 * of the survivors. One agreement (agree.c) decides both which processes
 * failed and a context id free at every survivor (for an
 * intercommunicator a second one, which each group's local communicator
 * takes: the two groups are disjoint), so every survivor builds the same
 * communicator, with the ranks in their old order, even when more
 * processes fail during the call. Works on revoked communicators.
 */
#include "runtime/api.h"
#include "comm/comm.h"
#include "comm/endpoints.h"
#include "comm/comm_create.h"
#include "comm/context.h"
#include "comm/group.h"
#include "ft/ft.h"
#include "mpi-ext.h"
#include "pt2pt/progress.h"
#include "pt2pt/request.h"
#include "runtime/proc.h"

#include <stdlib.h>

struct shrink_call {
    struct tide_comm *c;
    MPI_Comm *newcomm;
    bool done;
    int err;
    struct tide_request *req; /* ishrink */
};

static bool decided_failed(const struct tide_ft_outcome *o, const struct tide_proc *p)
{
    for (int i = 0; i < o->nparts; i++)
        if (o->parts[i] == p)
            return (o->failed[i] & 1) != 0; /* FAILED (agree.c) */
    return true;
}

/* g without the processes o says failed, in g's order. */
static struct tide_group *survivors(const struct tide_group *g, const struct tide_ft_outcome *o)
{
    struct tide_proc **v = malloc(((size_t)g->size + 1) * sizeof *v);
    if (!v)
        return NULL;
    int n = 0;
    for (int i = 0; i < g->size; i++)
        if (!decided_failed(o, g->procs[i]))
            v[n++] = g->procs[i];
    struct tide_group *s = n ? tide_group_new(n, v) : NULL;
    free(v);
    return s;
}

static int build(struct tide_comm *c, const struct tide_ft_outcome *o, struct tide_comm **out)
{
    *out = NULL;
    if (decided_failed(o, tide.me))
        return tide_err(MPIX_ERR_PROC_FAILED, "MPIX_Comm_shrink: the other survivors count this process as failed");
    struct tide_group *lg = survivors(c->is_inter ? c->local_comm->group : c->group, o);
    if (!lg)
        return tide_err(MPI_ERR_NO_MEM, "MPIX_Comm_shrink: out of memory");
    if (!c->is_inter) {
        tide_context_reserve(o->ctx_a);
        *out = tide_comm_derive(c, lg, NULL, o->ctx_a, NULL);
        tide_group_release(lg);
        return *out ? MPI_SUCCESS : tide_err(MPI_ERR_NO_MEM, "MPIX_Comm_shrink: out of memory");
    }
    struct tide_group *rg = survivors(c->remote_group, o);
    if (!rg) {
        /* every process of the remote group failed: an intercommunicator
         * needs one */
        tide_group_release(lg);
        return tide_err(MPIX_ERR_PROC_FAILED, "MPIX_Comm_shrink: every process of the remote group has failed");
    }
    tide_context_reserve(o->ctx_b);
    struct tide_comm *nlc = tide_comm_derive(c, lg, NULL, o->ctx_b, NULL);
    if (nlc) {
        tide_context_reserve(o->ctx_a);
        *out = tide_comm_derive(c, lg, rg, o->ctx_a, nlc);
    }
    tide_group_release(lg);
    tide_group_release(rg);
    return *out ? MPI_SUCCESS : tide_err(MPI_ERR_NO_MEM, "MPIX_Comm_shrink: out of memory");
}

static void shrink_done(const struct tide_ft_outcome *o, int err, void *arg)
{
    struct shrink_call *sc = arg;
    struct tide_comm *nc = NULL;
    if (err == MPI_SUCCESS)
        err = build(sc->c, o, &nc);
    *sc->newcomm = nc ? nc->handle : MPI_COMM_NULL;
    sc->err = err;
    sc->done = true;
    if (sc->req) {
        struct tide_request *r = sc->req;
        r->error = err;
        r->status.MPI_ERROR = err;
        r->cb_data = NULL;
        free(sc);
        tide_request_complete(r);
    }
}

static bool call_done(void *arg)
{
    return ((struct shrink_call *)arg)->done;
}

static struct tide_comm *shrink_comm(MPI_Comm comm, MPI_Comm *newcomm, const char *fn, int *rc)
{
    struct tide_comm *c = tide_comm_get(comm);
    if (!c) {
        *rc = TIDE_ERR(MPI_ERR_COMM, "%s: invalid communicator%s (argument comm)", fn,
                       comm == MPI_COMM_NULL ? " MPI_COMM_NULL" : "");
        return NULL;
    }
    if (!newcomm) {
        *rc = TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: newcomm must not be NULL", fn);
        return NULL;
    }
    if ((*rc = tide_ep_refuse(c, fn)))
        return NULL;
    return c;
}

int PMPIX_Comm_shrink(MPI_Comm comm, MPI_Comm *newcomm)
{
    TIDE_API_ENTER();
    int rc = MPI_SUCCESS;
    struct tide_comm *c = shrink_comm(comm, newcomm, "MPIX_Comm_shrink", &rc);
    if (!c)
        return rc;
    struct shrink_call sc = {.c = c, .newcomm = newcomm};
    tide_comm_retain(c);
    rc = tide_ft_agree_start(c, 1, true, shrink_done, &sc);
    if (rc == MPI_SUCCESS) {
        tide_progress_until(call_done, &sc);
        rc = sc.err;
    }
    rc = rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
    tide_comm_release(c);
    return rc;
}
TIDE_ALIAS(MPIX_Comm_shrink)

int PMPIX_Comm_ishrink(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    TIDE_API_ENTER();
    int rc = MPI_SUCCESS;
    struct tide_comm *c = shrink_comm(comm, newcomm, "MPIX_Comm_ishrink", &rc);
    if (!c)
        return rc;
    if (!request)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "MPIX_Comm_ishrink: request must not be NULL");
    struct shrink_call *sc = calloc(1, sizeof *sc);
    if (sc) {
        sc->c = c;
        sc->newcomm = newcomm;
    }
    rc = tide_ft_start_nb(c, 1, true, shrink_done, sc, sc ? &sc->req : NULL, request);
    return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
}
TIDE_ALIAS(MPIX_Comm_ishrink)
