/*
 * hier.c: the node layout of a communicator, for the node-aware
 * (two-level) algorithms: which ranks share a node, and each node's
 * leader (its lowest rank). Collectives must choose the same algorithm on
 * every rank, so the layout is only used once every rank knows the same
 * one:
 *  - a communicator of one job whose ranks are all on this node is flat
 *    (every member sees the same, since a job's locality comes from PMIx);
 *  - otherwise the first blocking collective on the communicator
 *    exchanges each rank's view (its node's lowest rank, and whether its
 *    node is oversubscribed; processes of other jobs are placed by the
 *    host on their cards); until then (nonblocking collectives before
 *    it) the flat algorithms are used, which every rank agrees on too.
 * The state hangs off comm->coll and goes away with the communicator.
 */
#include "runtime/api.h"
#include "coll/algo.h"
#include "coll/shm_region.h"
#include "comm/group.h"
#include "runtime/info.h"
#include "runtime/proc.h"
#include "transport/card.h"

#include <stdlib.h>
#include <string.h>

/* comm.c calls this when a communicator goes away (comm.c defines it) */
extern void (*tide_comm_detach_hook)(struct tide_comm *c);
static void (*prev_detach)(struct tide_comm *c);
static bool hook_installed;

static void state_free(struct tide_coll_state *st)
{
    if (!st)
        return;
    free(st->leaders);
    free(st->node_of);
    free(st->local);
    free(st->hint);
    tide_coll_rules_free(st->hint_rules);
    tide_coll_region_free(st->region);
    free(st);
}

static void coll_detach(struct tide_comm *c)
{
    state_free(c->coll);
    c->coll = NULL;
    if (prev_detach)
        prev_detach(c);
}

static void install_hook(void)
{
    if (hook_installed)
        return;
    hook_installed = true;
    if (tide_comm_detach_hook != coll_detach) {
        prev_detach = tide_comm_detach_hook;
        tide_comm_detach_hook = coll_detach;
    }
}

/* One job, all here? */
static bool single_node_job(struct tide_comm *c)
{
    for (int i = 0; i < c->size; i++) {
        struct tide_proc *p = c->group->procs[i];
        if (!p->local || strcmp(p->nspace, tide.nspace) != 0)
            return false;
    }
    return true;
}

/* Is p on this node? This job's processes are known from PMIx at start;
 * one of another job (spawned or connected) is placed by the host on its
 * card, as the shared-memory transport places it, once. */
static bool on_this_node(struct tide_proc *p)
{
    if (!p->locality_known && strcmp(p->nspace, tide.nspace) != 0) {
        struct tide_card card;
        p->local = tide_card_of(p, &card) == 0 && strcmp(card.host, tide.hostname) == 0;
        p->locality_known = true;
    }
    return p->local;
}

/* The lowest rank of c on this process's node (as this process sees it). */
static int my_key(struct tide_comm *c)
{
    for (int i = 0; i < c->size; i++)
        if (on_this_node(c->group->procs[i]))
            return i;
    return c->rank;
}

static void detect(struct tide_comm *c, struct tide_coll_state *st)
{
    int n = c->size;
    int32_t mine = (int32_t)(((uint32_t)my_key(c) << 1) | (tide.oversubscribed ? 1u : 0u));
    int32_t *all = malloc((size_t)n * sizeof *all);
    int *node_of = malloc((size_t)n * sizeof *node_of);
    int *node_of_key = malloc((size_t)n * sizeof *node_of_key);
    int *leaders = malloc((size_t)n * sizeof *leaders);
    int *local = malloc((size_t)n * sizeof *local);
    if (!all || !node_of || !node_of_key || !leaders || !local ||
        tide_exchange_allgather(c, &mine, sizeof mine, all) != MPI_SUCCESS) {
        /* every rank ran the exchange; if it failed here the job is in
         * trouble anyway: stay flat */
        free(all);
        free(node_of);
        free(node_of_key);
        free(leaders);
        free(local);
        st->layout = 1;
        return;
    }
    bool over = false;
    int nnodes = 0;
    for (int i = 0; i < n; i++)
        node_of_key[i] = -1;
    for (int r = 0; r < n; r++) {
        int key = (int)((uint32_t)all[r] >> 1);
        if (key < 0 || key >= n)
            key = r;
        if (all[r] & 1)
            over = true;
        if (node_of_key[key] < 0) {
            node_of_key[key] = nnodes;
            leaders[nnodes++] = r;
        }
        node_of[r] = node_of_key[key];
    }
    int nl = 0, me_at = 0;
    for (int r = 0; r < n; r++) {
        if (node_of[r] == node_of[c->rank]) {
            if (r == c->rank)
                me_at = nl;
            local[nl++] = r;
        }
    }
    free(all);
    free(node_of_key);
    st->oversub = over;
    st->agreed = true;
    st->nnodes = nnodes;
    st->leaders = leaders;
    st->node_of = node_of;
    st->local = local;
    st->nlocal = nl;
    st->local_me = me_at;
    st->my_node = node_of[c->rank];
    st->layout = (nnodes > 1 && nnodes < n) ? 2 : 1;
    st->one_node = nnodes == 1;
}

struct tide_coll_state *tide_coll_state(struct tide_comm *c, bool may_block)
{
    struct tide_coll_state *st = c->coll;
    if (!st) {
        st = calloc(1, sizeof *st);
        if (!st)
            return NULL;
        install_hook();
        c->coll = st;
        if (c->ep) {
            /* endpoints: ranks share processes, so the shared region and
             * the node-aware algorithms (one rank per process) are out */
            st->layout = 1;
            st->oversub = tide.oversubscribed;
            st->agreed = true;
            st->one_node = false;
        } else if (c->is_inter || c->size == 1 || single_node_job(c)) {
            st->layout = 1;
            st->oversub = tide.oversubscribed;
            st->agreed = true;
            st->one_node = !c->is_inter;
        }
    }
    if (st->layout == 0 && may_block)
        detect(c, st);
    return st;
}

void tide_coll_sel_comm(struct tide_coll_sel *sel, struct tide_comm *c)
{
    struct tide_coll_state *st = tide_coll_state(c, false);
    sel->n = c->size;
    sel->hier = st && st->layout == 2;
    sel->oversub = st && st->agreed && st->oversub;
    sel->over = NULL;
    if (c->info == MPI_INFO_NULL || !st)
        return;
    const char *h = tide_info_lookup(tide_info_get(c->info), "tide_coll_tuning");
    if (!h)
        return;
    if (!st->hint || strcmp(st->hint, h) != 0) {
        char err[256];
        free(st->hint);
        tide_coll_rules_free(st->hint_rules);
        st->hint = strdup(h);
        st->hint_rules = tide_coll_rules_parse(h, err, sizeof err);
    }
    sel->over = st->hint_rules;
}

void tide_cv_node(struct tide_cv *v, const struct tide_coll_state *st, const struct tide_cv *all)
{
    v->comm = all->comm;
    v->seq = all->seq;
    v->n = st->nlocal;
    v->me = st->local_me;
    v->map = st->local;
}

void tide_cv_leaders(struct tide_cv *v, const struct tide_coll_state *st, const struct tide_cv *all)
{
    v->comm = all->comm;
    v->seq = all->seq;
    v->n = st->nnodes;
    v->me = st->leaders[st->my_node] == all->me ? st->my_node : -1;
    v->map = st->leaders;
}
