/*
 * dpm_core.c: start and end of the dynamic-process layer, and dropping
 * the transport state of processes that left.
 */
#include "runtime/api.h"
#include "comm/comm.h"
#include "dpm/dpm.h"
#include "runtime/proc.h"
#include "transport/transport.h"

#include <pmix.h>
#include <stdlib.h>
#include <string.h>

void tide_dpm_forget(struct tide_proc *p)
{
    for (int i = 0; i < tide_ntransports; i++)
        if (tide_transport_list[i]->forget)
            tide_transport_list[i]->forget(p);
    p->tx = NULL;
    p->msg_max = 0;
    /* its card too (fetched again should it be met again) */
    free(p->card);
    p->card = NULL;
    p->card_len = 0;
}

void tide_dpm_finalize(void)
{
    tide_dpm_wait_singleton_runs();
    tide_ports_finalize();
}

/* Was p started by the same mpiexec (its namespace is ours but for the
 * job number after the last dot), so that our daemons know it? */
static bool same_universe(struct tide_proc *p)
{
    const char *dot = strrchr(tide.nspace, '.');
    if (!dot || strncmp(p->nspace, tide.nspace, (size_t)(dot - tide.nspace) + 1) != 0 ||
        strchr(p->nspace + (dot - tide.nspace) + 1, '.'))
        return false;
    return true;
}

static void forget_done(pmix_status_t status, void *cbdata)
{
    (void)status;
    (void)cbdata;
}

/* libpmix keeps the job data of every namespace it was told about (a
 * spawned job's comes with the answer to PMIx_Spawn) until the client
 * disconnects from it. Both sides of an intercommunicator being
 * disconnected call this with the same processes (their two groups):
 * libpmix drops the data of the other namespaces at once, and the
 * operation completes when all have called (the daemons, asked when the
 * processes run on several nodes, complete it at once: ours was the
 * barrier). Only for processes started by our mpiexec: the daemons of
 * another universe would know nothing of it. */
void tide_dpm_forget_nspaces(struct tide_proc *const *procs, int n)
{
    if (!tide.have_pmix || n <= 0)
        return;
    bool other = false;
    for (int i = 0; i < n; i++) {
        if (!same_universe(procs[i]))
            return;
        other |= strcmp(procs[i]->nspace, tide.nspace) != 0;
    }
    if (!other)
        return;
    pmix_proc_t *pp = calloc((size_t)n, sizeof *pp);
    if (!pp)
        return;
    for (int i = 0; i < n; i++)
        PMIX_LOAD_PROCID(&pp[i], procs[i]->nspace, procs[i]->rank);
    PMIx_Disconnect_nb(pp, (size_t)n, NULL, 0, forget_done, NULL);
    free(pp); /* packed into the request already */
}
