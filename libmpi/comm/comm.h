/*
 * comm.h: communicators, intra and inter as one kind of object.
 *
 * Point-to-point on a communicator uses context_id; its collectives use
 * context_id + 1, so the two never match each other. `peers` maps a rank
 * argument to the process it names: the local group for an
 * intracommunicator, the remote group for an intercommunicator.
 */
#ifndef TIDE_COMM_H
#define TIDE_COMM_H

#include <stdbool.h>
#include <stdint.h>

#include "mpi.h"

struct tide_group;
struct tide_proc;
struct tide_attr_list;
struct tide_topo;
struct tide_matchq;
struct tide_coll_state;

struct tide_comm {
    int handle;
    int refcount;                    /* the handle + pending operations */
    uint32_t context_id;
    int rank;                        /* in the local group */
    int size;                        /* local group size */
    int remote_size;                 /* intercommunicator: remote group size */
    bool is_inter;
    struct tide_group *group;        /* local group */
    struct tide_group *remote_group; /* NULL for an intracommunicator */
    struct tide_proc **peers;        /* rank argument -> process */
    struct tide_comm *local_comm;    /* intercommunicator: intracomm over the local group */
    int errhandler;                  /* MPI_Errhandler */
    struct tide_attr_list *attrs;
    struct tide_topo *topo;
    struct tide_matchq *matchq;      /* pt2pt matching state (pt2pt/match.h) */
    struct tide_coll_state *coll;    /* collective state (coll/) */
    uint32_t coll_seq;               /* sequence of nonblocking collectives */
    uint32_t coll_calls;             /* collective MPI calls made on it (coll/coll_notice.h) */
    bool coll_doom;                  /* the current call was refused by another rank */
    int info;                        /* MPI_Info hints given at creation (or NULL) */
    bool freed;                      /* MPI_Comm_free called; waits for pending ops */
    struct tide_ft_comm *ft;         /* failures acknowledged, revocation, agreements (ft/ft.h) */
    /* endpoints communicator (comm/endpoints.h): NULL for a plain one */
    struct tide_ep_set *ep;
    const uint32_t *ep_ctx;          /* rank -> its point-to-point context */
    int ep_local;                    /* this handle's index among the process's endpoints */
    uint32_t ep_meetings;            /* meetings of the process's endpoints so far */
    char name[MPI_MAX_OBJECT_NAME];
};

extern struct tide_comm *tide_comm_world;
extern struct tide_comm *tide_comm_self;

/* Look up a communicator handle; NULL if it is not a live communicator. */
struct tide_comm *tide_comm_get(MPI_Comm h);

/* Make a communicator over group (and remote group for an intercomm)
 * with the given context id. Takes references to the groups. The handle
 * is allocated (or fixed, for the predefined ones). */
struct tide_comm *tide_comm_create(struct tide_group *local, struct tide_group *remote,
                                   uint32_t context_id, MPI_Comm fixed_handle);
/* Reference counting (inline: every request takes and drops one). */
static inline void tide_comm_retain(struct tide_comm *c)
{
    c->refcount++;
}
/* Free a communicator whose last reference has gone. */
void tide_comm_destroy(struct tide_comm *c);
/* Drop a reference; the last one frees the communicator and its context. */
static inline void tide_comm_release(struct tide_comm *c)
{
    if (c && --c->refcount <= 0)
        tide_comm_destroy(c);
}

/* The same under the shared library lock (runtime/lock.h): the last
 * reference's free is left to the next exclusive holder. */
static inline void tide_comm_retain_shared(struct tide_comm *c)
{
    __atomic_fetch_add(&c->refcount, 1, __ATOMIC_RELAXED);
}
void tide_comm_release_shared(struct tide_comm *c);

/* The context a message on c to rank dest (of the group `peers` maps)
 * goes to, ctx being one of c's own (point-to-point or collective): on
 * an endpoints communicator, the one of dest's endpoint. */
static inline uint32_t tide_comm_send_ctx(const struct tide_comm *c, int dest, uint32_t ctx)
{
    if (__builtin_expect(c->ep_ctx != NULL, 0) && dest >= 0)
        return ctx - c->context_id + c->ep_ctx[dest];
    return ctx;
}

/* Is ctx a communicator's collective context? Context ids are allocated
 * even (comm/context.c), so collectives' context_id + 1 is the odd one. */
static inline bool tide_ctx_is_coll(uint32_t ctx)
{
    return ctx & 1;
}

/* Hints (comm_info.c): a communicator keeps only the keys Tide knows;
 * others are ignored, as the standard allows, and MPI_Comm_get_info does
 * not return them. Sets on *h (made when MPI_INFO_NULL) the known keys of
 * src (src may be NULL); MPI_SUCCESS or an error class. */
struct tide_info;
bool tide_comm_hint_known(const char *key);
int tide_comm_hints_take(MPI_Info *h, const struct tide_info *src);

/* Build MPI_COMM_WORLD and MPI_COMM_SELF (runtime init). */
int tide_comm_init_predefined(void);
void tide_comm_finalize_predefined(void);

#endif
