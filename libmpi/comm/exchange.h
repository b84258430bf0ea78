/*
 * exchange.h: small blocking exchanges among the members of a
 * communicator, used while building communicators (context-id agreement,
 * split, topologies) and by other internal code. They run on the
 * communicator's collective context and, like every collective operation,
 * take the next collective sequence number, so they never mix with a
 * collective (blocking or not) that is still in flight on it.
 *
 * Collective tags: every collective instance on a communicator takes
 * seq = comm->coll_seq++ and tags its messages tide_coll_tag(seq, step).
 */
#ifndef TIDE_EXCHANGE_H
#define TIDE_EXCHANGE_H

#include <stddef.h>
#include <stdint.h>

struct tide_comm;

static inline int tide_coll_tag(uint32_t seq, int step)
{
    return (int)(((seq & 0xfffffu) << 10) | ((unsigned)step & 0x3ffu));
}

/* Every member contributes len bytes; all receives size*len bytes in rank
 * order. For an intercommunicator this runs over the local group. */
int tide_exchange_allgather(struct tide_comm *c, const void *mine, size_t len, void *all);
/* root's len bytes to everyone. */
int tide_exchange_bcast(struct tide_comm *c, void *buf, size_t len, int root);
/* The same two for data that holds secrets (keys): their messages are
 * sealed on their way between hosts whatever `encrypt` says
 * (TIDE_SEND_SEALED, pt2pt.h). */
int tide_exchange_allgather_sealed(struct tide_comm *c, const void *mine, size_t len, void *all);
int tide_exchange_bcast_sealed(struct tide_comm *c, void *buf, size_t len, int root);
/* Bitwise AND of every member's mask of `words` 64-bit words. */
int tide_exchange_allreduce_and(struct tide_comm *c, uint64_t *mask, int words);
/* Maximum of every member's value. */
int tide_exchange_allreduce_max(struct tide_comm *c, int64_t *value);
int tide_exchange_barrier(struct tide_comm *c);

#endif
