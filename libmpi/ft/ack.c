/*
 * ack.c: acknowledging failures and asking which processes failed
 * (MPIX_Comm_failure_ack, MPIX_Comm_failure_get_acked, and the newer
 * MPIX_Comm_get_failed, MPIX_Comm_ack_failed). A communicator's failed
 * processes are its members (both groups of an intercommunicator) that
 * this process knows failed, in the order it learnt of them; an
 * acknowledgement covers the first of them, and while every one is
 * acknowledged, wildcard receives on the communicator go on.
 */
#include "runtime/api.h"
#include "comm/endpoints.h"
#include "comm/comm.h"
#include "comm/group.h"
#include "ft/ft.h"
#include "mpi-ext.h"
#include "pt2pt/request.h"

#include <stdlib.h>

static struct tide_comm *comm_arg(MPI_Comm comm, const char *fn, int *rc)
{
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        *rc = TIDE_ERR(MPI_ERR_COMM, "%s: invalid communicator%s (argument comm)", fn,
                       comm == MPI_COMM_NULL ? " MPI_COMM_NULL" : "");
    else if ((*rc = tide_ep_refuse(c, fn)))
        return NULL;
    return c;
}

/* Every failure of c is acknowledged: its interrupted wildcard receives
 * go on. */
static void resume_wildcards(struct tide_comm *c)
{
    unsigned end = tide_handle_end(TIDE_KIND_REQUEST);
    for (unsigned i = 0; i < end; i++) {
        struct tide_request *r = tide_handle_slot(TIDE_KIND_REQUEST, i);
        if (r && !r->pooled && r->comm == c && r->ft_interrupted)
            r->ft_interrupted = false;
    }
}

/* Acknowledge the first n failures of c (never fewer than before);
 * returns how many are acknowledged, or -1 when out of memory. */
static int acknowledge(struct tide_comm *c, int n)
{
    struct tide_ft_comm *ft = tide_ft_comm_of(c);
    if (!ft)
        return -1;
    struct tide_proc **f;
    int nf = tide_ft_comm_failed(c, &f);
    free(f);
    if (n > nf)
        n = nf;
    if (n > ft->nacked)
        ft->nacked = n;
    if (ft->nacked == nf)
        resume_wildcards(c);
    return ft->nacked;
}

/* A new group handle of the first n failed processes of c. */
static int failed_group(struct tide_comm *c, bool acked_only, MPI_Group *out, const char *fn)
{
    struct tide_proc **f;
    int n = tide_ft_comm_failed(c, &f);
    if (acked_only && c->ft && n > c->ft->nacked)
        n = c->ft->nacked;
    else if (acked_only && !c->ft)
        n = 0;
    if (n == 0) {
        free(f);
        *out = MPI_GROUP_EMPTY;
        return MPI_SUCCESS;
    }
    struct tide_group *g = tide_group_new(n, f);
    free(f);
    MPI_Group h = g ? tide_group_handle(g) : MPI_GROUP_NULL;
    if (h == MPI_GROUP_NULL) {
        if (g)
            tide_group_release(g);
        return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    }
    *out = h;
    return MPI_SUCCESS;
}

int PMPIX_Comm_failure_ack(MPI_Comm comm)
{
    TIDE_API_ENTER();
    int rc = MPI_SUCCESS;
    struct tide_comm *c = comm_arg(comm, "MPIX_Comm_failure_ack", &rc);
    if (!c)
        return rc;
    if (acknowledge(c, tide_ft_nfailed()) < 0)
        return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "MPIX_Comm_failure_ack: out of memory");
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPIX_Comm_failure_ack)

/* MPIX_Comm_failure_get_acked (acked_only) and MPIX_Comm_get_failed */
static int get_group(MPI_Comm comm, MPI_Group *failedgrp, bool acked_only, const char *fn)
{
    int rc = MPI_SUCCESS;
    struct tide_comm *c = comm_arg(comm, fn, &rc);
    if (!c)
        return rc;
    if (!failedgrp)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: failedgrp must not be NULL", fn);
    return failed_group(c, acked_only, failedgrp, fn);
}

int PMPIX_Comm_failure_get_acked(MPI_Comm comm, MPI_Group *failedgrp)
{
    TIDE_API_ENTER();
    return get_group(comm, failedgrp, true, "MPIX_Comm_failure_get_acked");
}
TIDE_ALIAS(MPIX_Comm_failure_get_acked)

int PMPIX_Comm_get_failed(MPI_Comm comm, MPI_Group *failedgrp)
{
    TIDE_API_ENTER();
    return get_group(comm, failedgrp, false, "MPIX_Comm_get_failed");
}
TIDE_ALIAS(MPIX_Comm_get_failed)

int PMPIX_Comm_ack_failed(MPI_Comm comm, int num_to_ack, int *num_acked)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPIX_Comm_ack_failed";
    int rc = MPI_SUCCESS;
    struct tide_comm *c = comm_arg(comm, fn, &rc);
    if (!c)
        return rc;
    if (num_to_ack < 0)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: num_to_ack is negative (%d)", fn, num_to_ack);
    if (!num_acked)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: num_acked must not be NULL", fn);
    int n = acknowledge(c, num_to_ack);
    if (n < 0)
        return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    *num_acked = n;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPIX_Comm_ack_failed)
