/*
 * disconnect.c: MPI_Comm_disconnect. Waits until every message on the
 * communicator has been delivered (a barrier across both groups: every
 * earlier message from a process arrives before its barrier message),
 * then frees the communicator and lets the transports drop what they kept
 * for processes no other communicator uses; after that either side may
 * end without affecting the other.
 */
#include "runtime/api.h"
#include "coll/coll_notice.h"
#include "comm/comm.h"
#include "comm/exchange.h"
#include "comm/group.h"
#include "dpm/dpm.h"
#include "pt2pt/pt2pt.h"
#include "runtime/proc.h"

#include <stdlib.h>
#include <string.h>

/* A barrier over an intercommunicator: local barrier, leaders swap, local barrier. */
static int inter_barrier(struct tide_comm *c)
{
    int rc = tide_exchange_barrier(c);
    if (rc)
        return rc;
    if (c->rank == 0) {
        char z = 0;
        uint32_t seq = c->coll_seq++;
        struct tide_request *rr, *sr;
        rc = tide_irecv(&z, 1, tide_datatype_get(MPI_BYTE), 0, tide_coll_tag(seq, 1), c, c->context_id + 1, &rr);
        if (!rc) {
            rc = tide_isend(&z, 1, tide_datatype_get(MPI_BYTE), 0, tide_coll_tag(seq, 1), c, c->context_id + 1, 0, &sr);
            if (!rc)
                rc = tide_wait_free(sr, MPI_STATUS_IGNORE);
            int e = tide_wait_free(rr, MPI_STATUS_IGNORE);
            rc = rc ? rc : e;
        }
    } else {
        c->coll_seq++;
    }
    if (rc)
        return rc;
    return tide_exchange_barrier(c);
}

int PMPI_Comm_disconnect(MPI_Comm *comm)
{
    TIDE_API_ENTER();
    if (!comm)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Comm_disconnect: comm must not be NULL");
    struct tide_comm *c = tide_comm_get(*comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "MPI_Comm_disconnect: invalid communicator (argument comm)");
    if (c == tide_comm_world || c == tide_comm_self)
        return TIDE_ERR_COMM(c, MPI_ERR_COMM, "MPI_Comm_disconnect: cannot disconnect %s", c->name);
    int rc = c->is_inter ? inter_barrier(c) : tide_exchange_barrier(c);
    if (rc)
        return tide_raise_comm(c, rc);
    /* the other side may see this process end from now on: not a failure */
    tide_coll_notice_depart(c);
    tide_dpm_clear_parent(c);
    if (c->is_inter) {
        /* both groups, in the same order on both sides */
        struct tide_group *lo = c->group, *re = c->remote_group;
        bool low_first = lo->size && re->size && tide_proc_cmp(lo->procs[0], re->procs[0]) < 0;
        struct tide_group *a = low_first ? lo : re, *b = low_first ? re : lo;
        struct tide_proc **all = malloc((size_t)(a->size + b->size) * sizeof *all);
        if (all) {
            memcpy(all, a->procs, (size_t)a->size * sizeof *all);
            memcpy(all + a->size, b->procs, (size_t)b->size * sizeof *all);
            tide_dpm_forget_nspaces(all, a->size + b->size);
            free(all);
        }
    }
    /* processes of the other side that nothing else uses any more */
    int n = c->is_inter ? c->remote_group->size : 0;
    struct tide_proc **gone = n ? malloc((size_t)n * sizeof *gone) : NULL;
    for (int i = 0; gone && i < n; i++)
        gone[i] = c->remote_group->procs[i];
    c->freed = true;
    tide_comm_release(c);
    for (int i = 0; gone && i < n; i++)
        if (gone[i]->ngroups == 0)
            tide_dpm_forget(gone[i]);
    free(gone);
    *comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Comm_disconnect)
