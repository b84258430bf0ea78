/*
 * comm_create.h: the internal constructors of communicators that the
 * communicator, intercommunicator and topology code share (comm_create.c):
 * a communicator derived from a parent, the collective "new communicator
 * over this group", and encoding of process lists for exchanges.
 */
#ifndef TIDE_COMM_CREATE_H
#define TIDE_COMM_CREATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mpi.h"

struct tide_comm;
struct tide_group;
struct tide_proc;

/* A communicator over local (and remote, for an intercommunicator) with
 * context ctx, which the caller has reserved; it takes the parent's error
 * handler (parent may be NULL: MPI_ERRORS_ARE_FATAL). For an
 * intercommunicator, local_comm (an intracommunicator over local) is
 * handed over. On failure returns NULL and releases local_comm and the
 * context. */
struct tide_comm *tide_comm_derive(struct tide_comm *parent, struct tide_group *local, struct tide_group *remote,
                                   uint32_t ctx, struct tide_comm *local_comm);

/* Collective over intracommunicator parent: the processes that pass a
 * group (each its own; the groups are disjoint subsets of parent's group)
 * get a new communicator over it in *out, the others pass NULL and get
 * NULL. The context id is agreed over parent. MPI_SUCCESS or an error
 * code (not raised). */
int tide_comm_make(struct tide_comm *parent, struct tide_group *group, struct tide_comm **out);

/* tide_comm_make where the groups are made of parent's ranks: on an
 * endpoints communicator, where a group of processes cannot tell its
 * endpoints apart, the ranks passing a group with the same color make
 * one communicator, ranked by key (their rank in it). */
int tide_comm_make_split(struct tide_comm *parent, struct tide_group *group, int color, int key,
                         struct tide_comm **out);

/* An internal duplicate of intracommunicator c (same group, own context,
 * nothing else copied): the local communicator of an intercommunicator.
 * Collective over c. member false: take part without getting one. */
int tide_comm_dup_plain(struct tide_comm *c, bool member, struct tide_comm **out);

/* The user handle of a new communicator, NULL giving MPI_COMM_NULL. */
MPI_Comm tide_comm_handle_of(struct tide_comm *c);

/* MPI_SUCCESS if every process of sub is in g, else an MPI_ERR_GROUP
 * code naming fn and `what` (g's description). */
int tide_group_check_subset(const struct tide_group *sub, const struct tide_group *g, const char *fn,
                            const char *what);
/* The processes r of g with ck[r * stride] == color, ordered by key
 * ck[r * stride + 1], ties by rank in g (MPI_Comm_split's rule); NULL if
 * there are none (or no memory). */
struct tide_group *tide_group_by_color(const struct tide_group *g, const int *ck, int stride, int color);

/* Internal tags, below every tag a user or a collective uses, so that no
 * receive of theirs can match them (on a parent's collective context). */
static inline int tide_tag_intercomm(int tag)
{
    return -2 - (tag & ((1 << 29) - 1)); /* MPI_Intercomm_create's leaders */
}
static inline int tide_tag_create_group(int tag)
{
    return -2 - (1 << 29) - (tag & ((1 << 29) - 1)); /* MPI_Comm_create_group */
}
static inline int tide_tag_from_group(uint32_t hash)
{
    return -2 - (1 << 30) - (int)(hash & ((1u << 29) - 1)); /* MPI_Comm_create_from_group & co */
}

/* Process lists in a byte form other processes (of any job) can read:
 * the distinct namespaces, then (namespace index, rank) per process.
 * tide_procs_encode: malloc'd buffer in *buf. tide_procs_decode: *procs
 * malloc'd (n entries); MPI_SUCCESS or an error class. */
int tide_procs_encode(int n, struct tide_proc *const *procs, void **buf, size_t *len);
int tide_procs_decode(const void *buf, size_t len, int *n, struct tide_proc ***procs);

#endif
