/*
 * group.h: process groups. A group is an ordered list of processes (PMIx
 * procs), so a group may mix processes of several jobs.
 */
#ifndef TIDE_GROUP_H
#define TIDE_GROUP_H

#include "mpi.h"

struct tide_proc;

struct tide_group {
    int handle;        /* MPI_GROUP_NULL while the group has no user handle */
    int refcount;      /* handle + communicators using it */
    int size;
    int rank;          /* this process's rank in it, or MPI_UNDEFINED */
    struct tide_proc **procs;
    int *ep;           /* endpoints: member i is endpoint ep[i] of procs[i]
                          (serials, comm/endpoints.h); NULL: processes */
};

/* A new group of n processes (copied), refcount 1, no handle. */
struct tide_group *tide_group_new(int n, struct tide_proc *const *procs);
void tide_group_retain(struct tide_group *g);
void tide_group_release(struct tide_group *g);
/* Give the group a user handle (takes one reference). */
int tide_group_handle(struct tide_group *g);
struct tide_group *tide_group_get(MPI_Group h);
/* MPI_IDENT, MPI_SIMILAR or MPI_UNEQUAL (group_ops.c). */
int tide_group_compare(const struct tide_group *a, const struct tide_group *b);
/* A group of endpoints: member i is endpoint ep[i] of procs[i]; rank is
 * this handle's (or MPI_UNDEFINED). */
struct tide_group *tide_group_new_ep(int n, struct tide_proc *const *procs, const int *ep, int rank);
/* Are member i of a and member j of b the same process or endpoint? */
static inline int tide_group_same(const struct tide_group *a, int i, const struct tide_group *b, int j)
{
    return a->procs[i] == b->procs[j] && (a->ep ? a->ep[i] : 0) == (b->ep ? b->ep[j] : 0);
}
/* Rank of proc in g, or MPI_UNDEFINED. */
int tide_group_rank_of(const struct tide_group *g, const struct tide_proc *p);
/* The rank in g of member i of `of` (the same process, or endpoint);
 * MPI_UNDEFINED if it is not in g. */
int tide_group_index_of(const struct tide_group *g, const struct tide_group *of, int i);

extern struct tide_group tide_group_empty;

#endif
