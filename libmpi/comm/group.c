/*
 * group.c: group objects and their handles. The group algebra (union,
 * incl, translate, ...) is in group_ops.c.
 */
#include "comm/group.h"
#include "runtime/handles.h"
#include "runtime/proc.h"
#include "runtime/state.h"

#include <stdlib.h>
#include <string.h>

struct tide_group tide_group_empty = {
    .handle = MPI_GROUP_EMPTY, .refcount = 1, .size = 0, .rank = MPI_UNDEFINED, .procs = NULL};

struct tide_group *tide_group_new(int n, struct tide_proc *const *procs)
{
    struct tide_group *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->procs = malloc((size_t)(n ? n : 1) * sizeof *g->procs);
    if (!g->procs) {
        free(g);
        return NULL;
    }
    if (n)
        memcpy(g->procs, procs, (size_t)n * sizeof *procs);
    g->size = n;
    g->refcount = 1;
    g->handle = MPI_GROUP_NULL;
    g->rank = MPI_UNDEFINED;
    for (int i = 0; i < n; i++) {
        procs[i]->ngroups++;
        if (procs[i] == tide.me && g->rank == MPI_UNDEFINED)
            g->rank = i;
    }
    return g;
}

struct tide_group *tide_group_new_ep(int n, struct tide_proc *const *procs, const int *ep, int rank)
{
    struct tide_group *g = tide_group_new(n, procs);
    if (!g)
        return NULL;
    if (ep) {
        g->ep = malloc((size_t)(n ? n : 1) * sizeof *g->ep);
        if (!g->ep) {
            tide_group_release(g);
            return NULL;
        }
        memcpy(g->ep, ep, (size_t)n * sizeof *ep);
    }
    g->rank = rank;
    return g;
}

void tide_group_retain(struct tide_group *g)
{
    g->refcount++;
}

void tide_group_release(struct tide_group *g)
{
    if (!g || g == &tide_group_empty)
        return;
    if (--g->refcount > 0)
        return;
    if (g->handle != MPI_GROUP_NULL)
        tide_handle_release(g->handle);
    for (int i = 0; i < g->size; i++)
        g->procs[i]->ngroups--;
    free(g->procs);
    free(g->ep);
    free(g);
}

int tide_group_handle(struct tide_group *g)
{
    if (g == &tide_group_empty)
        return MPI_GROUP_EMPTY;
    if (g->handle == MPI_GROUP_NULL)
        g->handle = tide_handle_alloc(TIDE_KIND_GROUP, g);
    return g->handle;
}

struct tide_group *tide_group_get(MPI_Group h)
{
    if (h == MPI_GROUP_EMPTY)
        return &tide_group_empty;
    return tide_handle_get(TIDE_KIND_GROUP, h);
}

int tide_group_rank_of(const struct tide_group *g, const struct tide_proc *p)
{
    for (int i = 0; i < g->size; i++)
        if (g->procs[i] == p)
            return i;
    return MPI_UNDEFINED;
}

int tide_group_index_of(const struct tide_group *g, const struct tide_group *of, int i)
{
    for (int j = 0; j < g->size; j++)
        if (tide_group_same(g, j, of, i))
            return j;
    return MPI_UNDEFINED;
}
