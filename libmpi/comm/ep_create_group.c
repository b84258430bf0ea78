/*
 * ep_create_group.c: MPI_Comm_create_group of an endpoints communicator
 * (endpoints.h), collective over the group's members only.
 *
 * A process's members of the group meet (a meeting of some of its
 * endpoints, named by the communicator, the tag and the group's first
 * member, so that calls with other tags or disjoint groups meet apart);
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
#include "pt2pt/progress.h"

#include <stdlib.h>

/* ---- meetings of some of a process's endpoints ---- */

struct sub_meeting {
    struct sub_meeting *next;
    const struct tide_ep_set *set; /* of the communicator */
    int tag, first;                /* the call's tag, the group's first member (rank in the communicator) */
    int expected, arrived, left;
    bool done;
    int rc;
    void **recs;
};

static struct sub_meeting *sub_meetings;

struct sub_wait {
    struct sub_meeting *m;
};

static bool sub_all_arrived(void *arg)
{
    struct sub_wait *w = arg;
    return w->m->arrived == w->m->expected;
}

static bool sub_done(void *arg)
{
    struct sub_wait *w = arg;
    return w->m->done;
}

/* The meeting of this process's nlocal members (this one is `local`,
 * 0 .. nlocal - 1): as tide_ep_meet, the first runs work over every
 * member's rec once all are here. */
static int meet_some(struct tide_comm *h, int tag, int first, int nlocal, int local, void *rec,
                     tide_ep_meeting_work *work, void *arg)
{
    if (nlocal == 1)
        return work(&rec, 1, arg);
    struct sub_meeting *m = sub_meetings;
    while (m && (m->done || m->set != h->ep || m->tag != tag || m->first != first))
        m = m->next;
    if (!m) {
        m = calloc(1, sizeof *m);
        if (m)
            m->recs = calloc((size_t)nlocal, sizeof *m->recs);
        if (!m || !m->recs) {
            free(m);
            return tide_err(MPI_ERR_NO_MEM, "MPI_Comm_create_group: out of memory");
        }
        m->set = h->ep;
        m->tag = tag;
        m->first = first;
        m->expected = nlocal;
        m->next = sub_meetings;
        sub_meetings = m;
    }
    m->recs[local] = rec;
    m->arrived++;
    struct sub_wait w = {m};
    if (local == 0) {
        tide_progress_until(sub_all_arrived, &w);
        m->rc = work(m->recs, nlocal, arg);
        m->done = true;
        tide_progress_wake();
    } else {
        tide_progress_wake(); /* the first may be asleep waiting for us */
        tide_progress_until(sub_done, &w);
    }
    int rc = m->rc;
    if (++m->left == m->expected) {
        for (struct sub_meeting **pp = &sub_meetings; *pp; pp = &(*pp)->next)
            if (*pp == m) {
                *pp = m->next;
                break;
            }
        free(m->recs);
        free(m);
    }
    return rc;
}

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
    rc = meet_some(c, tag, first, nlocal, local_idx[at], &a, cg_work, &b);
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
