/*
 * context.h: context ids. Each communicator owns an even id for its
 * point-to-point traffic and the next (odd) one for its collectives.
 * Ids are agreed across a group by AND-ing the members' free masks
 * (context.c); MPI_COMM_WORLD and MPI_COMM_SELF have fixed ids.
 */
#ifndef TIDE_CONTEXT_H
#define TIDE_CONTEXT_H

#include <stdint.h>

#define TIDE_CONTEXT_WORLD 0u
#define TIDE_CONTEXT_SELF 2u
#define TIDE_CONTEXT_MAX (1u << 20) /* ids below this; half a million communicators */
#define TIDE_CONTEXT_MASK_WORDS (TIDE_CONTEXT_MAX / 2 / 64)

void tide_context_reserve(uint32_t id);
void tide_context_release(uint32_t id);
int tide_context_is_free(uint32_t id);
/* This process's free-id mask (bit i: id 2*i is free), for agreement. */
void tide_context_free_mask(uint64_t *mask, int words);
/* Lowest id free in a mask, or UINT32_MAX. */
uint32_t tide_context_lowest(const uint64_t *mask, int words);

#endif
