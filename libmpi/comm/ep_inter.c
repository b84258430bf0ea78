/*
 * ep_inter.c: intercommunicators with endpoints (endpoints.h):
 * MPI_Intercomm_create where either group is of endpoints,
 * MPI_Intercomm_merge of such an intercommunicator, and its forms of
 * MPI_Comm_dup, MPI_Comm_split and MPI_Comm_create.
 *
 * Endpoint k of a process (counting its members of its group in rank
 * order) receives on an id agreed for index k among the processes of
 * both groups: in each group the processes' first endpoints reduce their
 * offers, the first of them hands the result to the group's leader,
 * which swaps it with the other group's leader (as for any
 * intercommunicator, intercomm.h) and broadcasts the outcome to every
 * endpoint of its group.
 *
 * A process may have endpoints in both groups (never one endpoint in
 * both). Its endpoints of the group whose first member is lower count
 * first: those of the other group take the indices after them, so no two
 * of its endpoints receive on one id. Only the side counting first
 * reserves the ids at such a process (the other side offers nothing of
 * its own in the agreements) and gives back those no endpoint of the
 * process takes; the merge of such an intercommunicator gathers the
 * process's endpoints of both groups in one meeting.
 */
#include "runtime/api.h"
#include "runtime/proc.h"
#include "comm/comm.h"
#include "comm/comm_create.h"
#include "comm/context.h"
#include "comm/endpoints.h"
#include "comm/exchange.h"
#include "comm/group.h"
#include "comm/intercomm.h"
#include "datatype/datatype.h"
#include "pt2pt/pt2pt.h"

#include <stdlib.h>
#include <string.h>

/* Each member's index among the members of its process (in list
 * order); returns the largest count of one process. */
static int proc_indices(int n, struct tide_proc *const *procs, int *idx)
{
    int most = 0;
    for (int m = 0; m < n; m++) {
        idx[m] = 0;
        for (int q = 0; q < m; q++)
            idx[m] += procs[q] == procs[m];
        if (idx[m] + 1 > most)
            most = idx[m] + 1;
    }
    return most;
}

/* How many of procs are p. */
static int count_of(int n, struct tide_proc *const *procs, const struct tide_proc *p)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        k += procs[i] == p;
    return k;
}

/* Do the endpoints of the group (procs, serials) count before those of
 * the other group at a process in both? The same answer at both groups:
 * the group whose first member is lower. */
static bool counts_first(struct tide_proc *const *procs, const int *serials, struct tide_proc *const *oprocs,
                         const int *oserials)
{
    int c = tide_proc_cmp(procs[0], oprocs[0]);
    if (c != 0)
        return c < 0;
    return (serials ? serials[0] : 0) < (oserials ? oserials[0] : 0);
}

/* Each member's id index: its index among its process's members of its
 * group, after the process's members of the other group (on members)
 * when this group counts second. Returns the largest index + 1. */
static int id_indices(int n, struct tide_proc *const *procs, int on, struct tide_proc *const *oprocs, bool second,
                      int *idx)
{
    int most = proc_indices(n, procs, idx);
    if (!second)
        return most;
    most = 0;
    for (int m = 0; m < n; m++) {
        idx[m] += count_of(on, oprocs, procs[m]);
        if (idx[m] + 1 > most)
            most = idx[m] + 1;
    }
    return most;
}

/* The ranks of c's group that speak for their process (its first), and
 * this process's place among them. */
static int process_leaders(const struct tide_comm *c, int *leaders, int *me)
{
    int n = 0;
    *me = -1;
    for (int r = 0; r < c->size; r++) {
        int first = 1;
        for (int q = 0; q < r && first; q++)
            first = c->group->procs[q] != c->group->procs[r];
        if (!first)
            continue;
        if (r == c->rank)
            *me = n;
        leaders[n++] = r;
    }
    return n;
}

/* One id free at every process of both groups (see the top). Collective
 * over lc; chan is used at the leader only. The processes' first
 * endpoints reserve it. */
static int agree_one(struct tide_comm *lc, int leader, const struct tide_leader_chan *chan, const int *pl, int npl,
                     int me_pl, uint32_t seq, int k, bool reserve, uint32_t *id)
{
    struct tide_datatype *byte = tide_datatype_get(MPI_BYTE);
    uint32_t ctx = lc->context_id + 1;
    int tag_reduce = tide_ep_tag(seq, 2 * k), tag_hand = tide_ep_tag(seq, 2 * k + 1);
    struct tide_ctx_reduce r;
    struct tide_ctx_agreement ag;
    if (me_pl >= 0) {
        tide_ctx_reduce_init_sub(&r, lc, npl, me_pl, pl, tag_reduce);
        tide_ctx_agreement_begin(&ag, tide_ctx_reduce_key(&r), reserve);
    } else {
        tide_ctx_agreement_begin(&ag, 0, false);
    }
    for (;;) {
        int rc = MPI_SUCCESS;
        struct tide_ctx_offer acc;
        if (me_pl >= 0) {
            struct tide_ctx_offer o;
            tide_ctx_agreement_offer(&ag, &o);
            tide_ctx_reduce_start(&r, &o);
            rc = tide_ctx_reduce_wait(&r);
            acc = r.acc;
            /* the first process's result goes to the group's leader */
            if (rc == MPI_SUCCESS && me_pl == 0 && lc->rank != leader)
                rc = tide_send_blocking(&r.acc, (int)sizeof r.acc, byte, leader, tag_hand, lc, ctx);
        }
        if (rc == MPI_SUCCESS && lc->rank == leader && me_pl < 0)
            rc = tide_recv_blocking(&acc, (int)sizeof acc, byte, pl[0], tag_hand, lc, ctx, MPI_STATUS_IGNORE);
        rc = tide_ctx_inter_round(lc, leader, chan, &ag, &acc, rc, id);
        if (rc != 0)
            return rc > 0 ? MPI_SUCCESS : rc;
    }
}

/* nids ids, each free at every process of both groups; reserved here
 * unless reserve is false (the other side of this process does). */
static int agree_ids(struct tide_comm *lc, int leader, const struct tide_leader_chan *chan, int nids, bool reserve,
                     uint32_t *ids)
{
    int *pl = malloc((size_t)lc->size * sizeof *pl);
    if (!pl)
        return tide_err(MPI_ERR_NO_MEM, "endpoints: out of memory");
    int me_pl, npl = process_leaders(lc, pl, &me_pl);
    uint32_t seq = lc->coll_seq++;
    int rc = MPI_SUCCESS, k;
    for (k = 0; k < nids && rc == MPI_SUCCESS; k++)
        rc = agree_one(lc, leader, chan, pl, npl, me_pl, seq, k, reserve, &ids[k]);
    if (rc != MPI_SUCCESS && me_pl >= 0 && reserve)
        for (int i = 0; i < k - 1; i++)
            tide_context_release(ids[i]);
    free(pl);
    return rc;
}

/* ---- MPI_Intercomm_create ---- */

struct inter_arrival {
    struct tide_comm *h;   /* its handle of lc */
    struct tide_comm *nlc; /* its local communicator of the new one */
    struct tide_comm *out;
};

struct inter_build {
    struct tide_comm *lc;
    int rn;
    struct tide_proc *const *rp;
    const int *rserials;
    const uint32_t *ids;
    int nids;
    const int *lidx, *ridx; /* id indices */
    const int *lpos;        /* each local member's place among its process's members of the group */
    bool reserve;           /* this side reserved the ids here */
    int own;                /* this process's members of both groups */
};

static int inter_work(void **recs, int nrecs, void *arg)
{
    struct inter_build *b = arg;
    for (int k = b->own; b->reserve && k < b->nids; k++)
        tide_context_release(b->ids[k]);
    struct tide_ep_set *set = tide_ep_set_new(b->rn, nrecs);
    if (!set) {
        for (int i = 0; b->reserve && i < nrecs; i++)
            tide_context_release(b->ids[b->lidx[((struct inter_arrival *)recs[i])->h->rank]]);
        return tide_err(MPI_ERR_NO_MEM, "endpoints: out of memory");
    }
    for (int r = 0; r < b->rn; r++)
        set->ctx_of_rank[r] = b->ids[b->ridx[r]];
    int rc = MPI_SUCCESS;
    for (int i = 0; i < nrecs; i++) {
        struct inter_arrival *a = recs[i];
        struct tide_comm *h = a->h;
        uint32_t id = b->ids[b->lidx[h->rank]];
        struct tide_group *lg = tide_group_new_ep(h->size, h->group->procs, h->group->ep, h->rank);
        struct tide_group *rg = tide_group_new_ep(b->rn, b->rp, b->rserials, MPI_UNDEFINED);
        struct tide_comm *nc = NULL;
        if (lg && rg) {
            nc = tide_comm_derive(h, lg, rg, id, a->nlc);
        } else {
            tide_context_release(id);
            tide_comm_release(a->nlc);
        }
        a->nlc = NULL;
        tide_group_release(lg);
        tide_group_release(rg);
        if (!nc) {
            rc = tide_err(MPI_ERR_NO_MEM, "endpoints: out of memory for a new intercommunicator");
            continue;
        }
        tide_ep_set_join(set, nc, b->lpos[h->rank]);
        a->out = nc;
    }
    tide_ep_set_made(set);
    return rc;
}

int tide_ep_intercomm_finish(struct tide_comm *lc, int leader, const struct tide_leader_chan *chan, int rn,
                             struct tide_proc *const *rp, const int *rserials, const char *fn,
                             struct tide_comm **out)
{
    *out = NULL;
    int *lidx = malloc((size_t)lc->size * sizeof *lidx), *lpos = malloc((size_t)lc->size * sizeof *lpos);
    int *ridx = malloc((size_t)(rn ? rn : 1) * sizeof *ridx);
    uint32_t *ids = NULL;
    int rc = MPI_SUCCESS;
    if (!lidx || !lpos || !ridx) {
        rc = tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
        goto out;
    }
    bool lfirst = counts_first(lc->group->procs, lc->group->ep, rp, rserials);
    int nl = id_indices(lc->size, lc->group->procs, rn, rp, !lfirst, lidx);
    int nr = id_indices(rn, rp, lc->size, lc->group->procs, lfirst, ridx);
    proc_indices(lc->size, lc->group->procs, lpos);
    int nids = nl > nr ? nl : nr, in_remote = count_of(rn, rp, tide.me);
    bool reserve = lfirst || in_remote == 0;
    int own = count_of(lc->size, lc->group->procs, tide.me) + in_remote;
    ids = malloc((size_t)nids * sizeof *ids);
    struct tide_comm *nlc = NULL;
    rc = lc->ep ? tide_ep_split(lc, 0, 0, &nlc) : tide_comm_dup_plain(lc, true, &nlc);
    if (rc == MPI_SUCCESS && !ids)
        rc = tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    if (rc == MPI_SUCCESS)
        rc = agree_ids(lc, leader, chan, nids, reserve, ids);
    if (rc != MPI_SUCCESS) {
        if (nlc)
            tide_comm_release(nlc);
        goto out;
    }
    struct inter_build b = {lc, rn, rp, rserials, ids, nids, lidx, ridx, lpos, reserve, own};
    struct inter_arrival a = {lc, nlc, NULL};
    rc = tide_ep_meet(lc, &a, inter_work, &b);
    if (a.nlc) /* not handed over */
        tide_comm_release(a.nlc);
    if (rc != MPI_SUCCESS) {
        if (a.out)
            tide_comm_release(a.out);
        goto out;
    }
    *out = a.out;
out:
    free(lidx);
    free(lpos);
    free(ridx);
    free(ids);
    return rc;
}

/* ---- MPI_Intercomm_merge ---- */

struct merge_arrival {
    struct tide_comm *c; /* its handle of the intercommunicator */
    int m;               /* its place in the union */
    struct tide_comm *out;
};

struct merge_build {
    int n;
    struct tide_proc **procs;
    int *serials, *idx;
    const uint32_t *ids;
    int nids;
    bool reserve; /* this side reserved the ids here */
};

/* One meeting of the process's endpoints of the union (of both groups
 * when it has endpoints in both: the first side's work, which reserved
 * the ids, runs it). */
static char merge_scope;

static int merge_work(void **recs, int nrecs, void *arg)
{
    struct merge_build *b = arg;
    struct tide_ep_set *set = NULL;
    if (b->reserve)
        set = tide_ep_set_make(b->n, nrecs, b->ids, b->nids, b->idx);
    else if ((set = tide_ep_set_new(b->n, nrecs)))
        for (int m = 0; m < b->n; m++)
            set->ctx_of_rank[m] = b->ids[b->idx[m]];
    if (!set)
        return tide_err(MPI_ERR_NO_MEM, "endpoints: out of memory");
    int rc = MPI_SUCCESS;
    for (int i = 0; i < nrecs; i++) {
        struct merge_arrival *a = recs[i];
        int m = a->m;
        uint32_t id = b->ids[b->idx[m]];
        struct tide_group *g = tide_group_new_ep(b->n, b->procs, b->serials, m);
        struct tide_comm *nc = g ? tide_comm_derive(a->c, g, NULL, id, NULL) : NULL;
        if (!g)
            tide_context_release(id);
        tide_group_release(g);
        if (!nc) {
            rc = tide_err(MPI_ERR_NO_MEM, "endpoints: out of memory for a new communicator");
            continue;
        }
        tide_ep_set_join(set, nc, b->idx[m]);
        a->out = nc;
    }
    tide_ep_set_made(set);
    return rc;
}

int tide_ep_intercomm_merge(struct tide_comm *c, const struct tide_leader_chan *chan, bool local_first,
                            struct tide_comm **out)
{
    *out = NULL;
    const struct tide_group *first = local_first ? c->group : c->remote_group;
    const struct tide_group *second = local_first ? c->remote_group : c->group;
    int n = first->size + second->size, base = local_first ? 0 : first->size;
    struct merge_build b = {.n = n};
    b.procs = malloc((size_t)n * sizeof *b.procs);
    b.serials = malloc((size_t)n * sizeof *b.serials);
    b.idx = malloc((size_t)n * sizeof *b.idx);
    uint32_t *ids = NULL;
    int rc = MPI_SUCCESS;
    if (!b.procs || !b.serials || !b.idx) {
        rc = tide_err(MPI_ERR_NO_MEM, "MPI_Intercomm_merge: out of memory");
        goto out;
    }
    for (int m = 0; m < n; m++) {
        const struct tide_group *g = m < first->size ? first : second;
        int i = m < first->size ? m : m - first->size;
        b.procs[m] = g->procs[i];
        b.serials[m] = g->ep ? g->ep[i] : 0;
    }
    b.nids = proc_indices(n, b.procs, b.idx);
    /* a process with endpoints in both groups: the union's first group
     * reserves its ids */
    bool in_both = count_of(c->remote_size, c->remote_group->procs, tide.me) > 0;
    b.reserve = !in_both || local_first;
    ids = malloc((size_t)b.nids * sizeof *ids);
    if (!ids) {
        rc = tide_err(MPI_ERR_NO_MEM, "MPI_Intercomm_merge: out of memory");
        goto out;
    }
    rc = agree_ids(c->local_comm, 0, chan, b.nids, b.reserve, ids);
    if (rc != MPI_SUCCESS)
        goto out;
    b.ids = ids;
    struct merge_arrival a = {c, base + c->rank, NULL};
    if (in_both) /* named by the first id, the same at both groups */
        rc = tide_ep_meet_keyed(&merge_scope, (int)ids[0], 0, count_of(n, b.procs, tide.me), b.idx[a.m], &a,
                                merge_work, &b);
    else
        rc = tide_ep_meet(c, &a, merge_work, &b);
    if (rc != MPI_SUCCESS) {
        if (a.out)
            tide_comm_release(a.out);
        goto out;
    }
    *out = a.out;
out:
    free(b.procs);
    free(b.serials);
    free(b.idx);
    free(ids);
    return rc;
}

/* ---- MPI_Comm_dup, MPI_Comm_split and MPI_Comm_create ----
 * The new local communicators come from a split of the local one; each
 * endpoint's new context id is the one agreed for its index among its
 * process's members of the old group (not of the new one), so that two
 * endpoints of one process that go to different new communicators never
 * receive on the same id. */

struct split_arrival {
    struct tide_comm *c;   /* its handle of the intercommunicator */
    struct tide_comm *nlc; /* its new local communicator (NULL: none) */
    int color;
    struct tide_comm *out;
};

struct split_build {
    const struct tide_comm *c;
    const int *theirs; /* (color, key) of each remote rank */
    const uint32_t *ids;
    int nids;
    const int *lidx, *ridx; /* each rank's id index: local, remote group */
    const int *all;         /* (color, key) of each local rank */
    bool reserve;           /* this side reserved the ids here */
};

/* Will remote rank r get a new intercommunicator (a color that some
 * local rank has too)? */
static bool remote_gets_one(const struct split_build *b, int r)
{
    int color = b->theirs[2 * r];
    if (color == MPI_UNDEFINED)
        return false;
    for (int l = 0; l < b->c->size; l++)
        if (b->all[2 * l] == color)
            return true;
    return false;
}

struct keyed_rank {
    int key, rank;
};

static int keyed_rank_cmp(const void *a, const void *b)
{
    const struct keyed_rank *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* The remote ranks of one color, ordered by key then rank, as a group,
 * with each member's context id in *ctx (malloc'd); NULL if there are
 * none (*rc set if that is for want of memory). */
static struct tide_group *remote_of_color(const struct split_build *b, int color, uint32_t **ctx, int *rc)
{
    const struct tide_group *rg = b->c->remote_group;
    int rn = rg->size, n = 0;
    struct keyed_rank *v = malloc((size_t)(rn ? rn : 1) * sizeof *v);
    struct tide_proc **procs = malloc((size_t)(rn ? rn : 1) * sizeof *procs);
    int *serials = malloc((size_t)(rn ? rn : 1) * sizeof *serials);
    *ctx = malloc((size_t)(rn ? rn : 1) * sizeof **ctx);
    struct tide_group *g = NULL;
    if (!v || !procs || !serials || !*ctx) {
        *rc = tide_err(MPI_ERR_NO_MEM, "endpoints: out of memory");
        goto out;
    }
    for (int r = 0; r < rn; r++)
        if (b->theirs[2 * r] == color)
            v[n++] = (struct keyed_rank){b->theirs[2 * r + 1], r};
    if (n == 0)
        goto out;
    qsort(v, (size_t)n, sizeof *v, keyed_rank_cmp);
    for (int k = 0; k < n; k++) {
        procs[k] = rg->procs[v[k].rank];
        serials[k] = rg->ep ? rg->ep[v[k].rank] : 0;
        (*ctx)[k] = b->ids[b->ridx[v[k].rank]];
    }
    if (!(g = tide_group_new_ep(n, procs, rg->ep ? serials : NULL, MPI_UNDEFINED)))
        *rc = tide_err(MPI_ERR_NO_MEM, "endpoints: out of memory");
out:
    free(v);
    free(procs);
    free(serials);
    if (!g) {
        free(*ctx);
        *ctx = NULL;
    }
    return g;
}

/* Run once per process over its endpoints' arrivals: one new
 * intercommunicator (and set) per color, the ids no handle took given
 * back. */
static int split_work(void **recs, int nrecs, void *arg)
{
    struct split_build *b = arg;
    bool *used = calloc((size_t)b->nids, sizeof *used);
    int rc = used ? MPI_SUCCESS : tide_err(MPI_ERR_NO_MEM, "endpoints: out of memory");
    for (int i = 0; i < nrecs; i++) {
        struct split_arrival *first = recs[i];
        if (!first->nlc)
            continue; /* none, or its color was done */
        int nlocal = 0;
        for (int j = i; j < nrecs; j++) {
            struct split_arrival *a = recs[j];
            nlocal += a->nlc && a->color == first->color;
        }
        uint32_t *ctx = NULL;
        struct tide_group *rg = rc == MPI_SUCCESS ? remote_of_color(b, first->color, &ctx, &rc) : NULL;
        struct tide_ep_set *set = rg ? tide_ep_set_new(rg->size, nlocal) : NULL;
        if (rg && !set)
            rc = tide_err(MPI_ERR_NO_MEM, "endpoints: out of memory");
        if (set)
            memcpy(set->ctx_of_rank, ctx, (size_t)rg->size * sizeof *ctx);
        for (int j = i; j < nrecs; j++) {
            struct split_arrival *a = recs[j];
            if (!a->nlc || a->color != first->color)
                continue;
            struct tide_comm *nlc = a->nlc;
            a->nlc = NULL;
            if (!set) { /* no remote rank of its color (or no memory) */
                tide_comm_release(nlc);
                continue;
            }
            int k = b->lidx[a->c->rank], local = nlc->ep ? nlc->ep_local : 0;
            used[k] = true;
            struct tide_comm *nc = tide_comm_derive(a->c, nlc->group, rg, b->ids[k], nlc);
            if (!nc) {
                rc = tide_err(MPI_ERR_NO_MEM, "endpoints: out of memory for a new intercommunicator");
                continue;
            }
            tide_ep_set_join(set, nc, local);
            a->out = nc;
        }
        if (set)
            tide_ep_set_made(set);
        tide_group_release(rg);
        free(ctx);
    }
    /* the ids this process's endpoints in the other group take too (their
     * side reserved none) */
    const struct tide_group *rgroup = b->c->remote_group;
    for (int r = 0; used && b->reserve && r < rgroup->size; r++)
        if (rgroup->procs[r] == tide.me && remote_gets_one(b, r))
            used[b->ridx[r]] = true;
    for (int k = 0; b->reserve && k < b->nids; k++)
        if (!used || !used[k])
            tide_context_release(b->ids[k]);
    free(used);
    return rc;
}

int tide_ep_intercomm_split(struct tide_comm *c, int color, int key, struct tide_comm **out)
{
    *out = NULL;
    struct tide_comm *lc = c->local_comm;
    int n = c->size, rn = c->remote_size;
    struct tide_leader_chan ch;
    struct tide_pt2pt_chan pc;
    tide_intercomm_chan(c, &ch, &pc);
    int mine[2] = {color, key};
    int *all = malloc((size_t)n * sizeof mine), *theirs = NULL;
    int *lidx = malloc((size_t)n * sizeof *lidx), *ridx = malloc((size_t)(rn ? rn : 1) * sizeof *ridx);
    uint32_t *ids = NULL;
    struct tide_comm *nlc = NULL;
    struct tide_group *g = NULL;
    int rc = all && lidx && ridx ? MPI_SUCCESS : tide_err(MPI_ERR_NO_MEM, "MPI_Comm_split: out of memory");
    if (rc == MPI_SUCCESS)
        rc = tide_exchange_allgather(lc, mine, sizeof mine, all);
    if (rc == MPI_SUCCESS)
        rc = tide_intercomm_swap(c, &ch, all, (size_t)n * sizeof mine, (void **)&theirs, (size_t)rn * sizeof mine);
    if (rc != MPI_SUCCESS)
        goto out;
    /* the new local communicators; everyone takes part in what follows,
     * even after a local failure */
    if (color != MPI_UNDEFINED && !lc->ep && !(g = tide_group_by_color(lc->group, all, 2, color)))
        rc = tide_err(MPI_ERR_NO_MEM, "MPI_Comm_split: out of memory");
    int rc2 = lc->ep ? tide_ep_split(lc, color, key, &nlc) : tide_comm_make(lc, g, &nlc);
    tide_group_release(g);
    if (rc == MPI_SUCCESS)
        rc = rc2;
    const struct tide_group *lg = c->group, *rg = c->remote_group;
    bool lfirst = counts_first(lg->procs, lg->ep, rg->procs, rg->ep);
    int nl = id_indices(n, lg->procs, rn, rg->procs, !lfirst, lidx);
    int nr = id_indices(rn, rg->procs, n, lg->procs, lfirst, ridx);
    int nids = nl > nr ? nl : nr;
    bool reserve = lfirst || count_of(rn, rg->procs, tide.me) == 0;
    ids = malloc((size_t)nids * sizeof *ids);
    rc2 = ids ? agree_ids(lc, 0, &ch, nids, reserve, ids)
              : tide_err(MPI_ERR_NO_MEM, "MPI_Comm_split: out of memory");
    if (rc2 != MPI_SUCCESS) {
        if (nlc)
            tide_comm_release(nlc);
        rc = rc == MPI_SUCCESS ? rc2 : rc;
        goto out;
    }
    struct split_build b = {c, theirs, ids, nids, lidx, ridx, all, reserve};
    struct split_arrival a = {c, rc == MPI_SUCCESS ? nlc : NULL, color, NULL};
    if (rc != MPI_SUCCESS && nlc)
        tide_comm_release(nlc);
    rc2 = tide_ep_meet(c, &a, split_work, &b);
    if (a.nlc) /* not handed over */
        tide_comm_release(a.nlc);
    if (rc == MPI_SUCCESS)
        rc = rc2;
    if (rc != MPI_SUCCESS) {
        if (a.out)
            tide_comm_release(a.out);
        goto out;
    }
    *out = a.out;
out:
    free(all);
    free(theirs);
    free(lidx);
    free(ridx);
    free(ids);
    return rc;
}

int tide_ep_intercomm_create(struct tide_comm *c, const struct tide_group *g, struct tide_comm **out)
{
    *out = NULL;
    if (g->size > 0 && c->group->ep && !g->ep)
        return tide_err(MPI_ERR_GROUP, "MPI_Comm_create: the group names processes, not endpoints (argument "
                                       "group; make it from MPI_Comm_group of the intercommunicator)");
    /* this endpoint's place in g is its key */
    int at = MPI_UNDEFINED;
    for (int i = 0; i < g->size && at == MPI_UNDEFINED; i++)
        if (tide_group_same(g, i, c->group, c->rank))
            at = i;
    return tide_ep_intercomm_split(c, at == MPI_UNDEFINED ? MPI_UNDEFINED : 0, at, out);
}
