/*
 * ep_create_group.c: MPI_Comm_create_group of an endpoints communicator
 * (endpoints.h), collective over the group's members only.
 *
 * A process's members of the group meet (tide_ep_meet_keyed, named by
 * the communicator, the tag and the group's first member, so that calls
 * with other tags or disjoint groups meet apart);
 * the first of them agrees, with the first members of the other
 * processes, one context id per endpoint index (index k: the k-th member
 * of a process in the group's order), and makes every new handle of its
 * process. The agreements among those first members are
 * tide_context_agree_sub's, on the communicator, tagged as the plain
 * MPI_Comm_create_group tags them; they run one after another, between
 * the same members in the same order, so they may share the tag.
 */
#include "runtime/api.h"
#include "runtime/proc.h"
#include "comm/comm.h"
#include "comm/comm_create.h"
#include "comm/context.h"
#include "comm/endpoints.h"
#include "comm/group.h"

#include <stdlib.h>

/* ---- the build ---- */

struct cg_arrival {
    struct tide_comm *h; /* its handle of the communicator */
    int at;              /* its rank in the group */
    struct tide_comm *out;
};

struct cg_build {
    const struct tide_group *g;
    int tag;
    const int *local_idx; /* each member's index among its process's members */
    int nids;
    const int *leaders; /* the processes' first members, as ranks in the communicator */
    int nleaders, me_leader;
};

static int cg_work(void **recs, int nrecs, void *arg)
{
    struct cg_build *b = arg;
    uint32_t *ids = malloc((size_t)b->nids * sizeof *ids);
    if (!ids)
        return tide_err(MPI_ERR_NO_MEM, "MPI_Comm_create_group: out of memory");
    struct tide_comm *lead = ((struct cg_arrival *)recs[0])->h;
    int rc = MPI_SUCCESS;
    for (int k = 0; k < b->nids; k++) {
        rc = tide_context_agree_sub(lead, b->nleaders, b->me_leader, b->leaders, tide_tag_create_group(b->tag),
                                    &ids[k]);
        if (rc != MPI_SUCCESS) {
            while (k-- > 0)
                tide_context_release(ids[k]);
            free(ids);
            return rc;
        }
    }
    struct tide_ep_set *set = tide_ep_set_make(b->g->size, nrecs, ids, b->nids, b->local_idx);
    if (!set) {
        free(ids);
        return tide_err(MPI_ERR_NO_MEM, "MPI_Comm_create_group: out of memory");
    }
    for (int i = 0; i < nrecs; i++) {
        struct cg_arrival *a = recs[i];
        int k = b->local_idx[a->at];
        struct tide_group *ng = tide_group_new_ep(b->g->size, b->g->procs, b->g->ep, a->at);
        struct tide_comm *nc = ng ? tide_comm_derive(a->h, ng, NULL, ids[k], NULL) : NULL;
        if (!ng)
            tide_context_release(ids[k]);
        tide_group_release(ng);
        if (!nc) {
            rc = tide_err(MPI_ERR_NO_MEM, "MPI_Comm_create_group: out of memory for a new communicator");
            continue;
        }
        tide_ep_set_join(set, nc, k);
        a->out = nc;
    }
    tide_ep_set_made(set);
    free(ids);
    return rc;
}

int tide_ep_create_group(struct tide_comm *c, const struct tide_group *g, int tag, struct tide_comm **out)
{
    *out = NULL;
    if (g->size > 0 && !g->ep)
        return tide_err(MPI_ERR_GROUP, "MPI_Comm_create_group: the group names processes, not endpoints (argument "
                                       "group; make it from MPI_Comm_group of the endpoints communicator)");
    int at = tide_group_index_of(g, c->group, c->rank);
    if (at == MPI_UNDEFINED)
        return MPI_SUCCESS; /* not a member: nothing to take part in */
    int n = g->size;
    int *local_idx = malloc((size_t)n * sizeof *local_idx), *leaders = malloc((size_t)n * sizeof *leaders);
    int rc = MPI_SUCCESS;
    if (!local_idx || !leaders) {
        rc = tide_err(MPI_ERR_NO_MEM, "MPI_Comm_create_group: out of memory");
        goto out;
    }
    int nids = 0, nleaders = 0, me_leader = -1, nlocal = 0;
    for (int m = 0; m < n; m++) {
        local_idx[m] = 0;
        for (int q = 0; q < m; q++)
            local_idx[m] += g->procs[q] == g->procs[m];
        if (local_idx[m] + 1 > nids)
            nids = local_idx[m] + 1;
        if (g->procs[m] == tide.me)
            nlocal++;
        if (local_idx[m] == 0) {
            int r = tide_group_index_of(c->group, g, m);
            if (r == MPI_UNDEFINED) {
                rc = tide_err(MPI_ERR_GROUP, "MPI_Comm_create_group: member %d of the group is not in comm "
                                             "(argument group; it must be a subset)", m);
                goto out;
            }
            if (g->procs[m] == tide.me)
                me_leader = nleaders;
            leaders[nleaders++] = r;
        }
    }
    struct cg_build b = {g, tag, local_idx, nids, leaders, nleaders, me_leader};
    struct cg_arrival a = {c, at, NULL};
    int first = tide_group_index_of(c->group, g, 0);
    rc = tide_ep_meet_keyed(c->ep, tag, first, nlocal, local_idx[at], &a, cg_work, &b);
    if (rc != MPI_SUCCESS) {
        if (a.out)
            tide_comm_release(a.out);
        goto out;
    }
    *out = a.out;
    if (!*out)
        rc = tide_err(MPI_ERR_INTERN, "MPI_Comm_create_group: a handle was not made");
out:
    free(local_idx);
    free(leaders);
    return rc;
}
