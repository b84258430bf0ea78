/*
 * shm_region.h: a region of memory shared by the ranks of a communicator
 * whose ranks are all on one node, through which blocking collectives
 * move short data without messages (shm_coll.c), or say where long data
 * lies for the others to read straight from their memory (shm_get.c).
 *
 * Each rank has a counter and, for each of two alternating rounds, a
 * slot of tide_region_slot_bytes(n) bytes. A call through the region is round s
 * (the communicator's count of such calls): a rank writes its data into
 * its slot of buffer s % 2, publishes s in its counter, waits until the
 * counters of the ranks it reads from say s, and reads their slots. A
 * rank's counter at s also says it has finished reading round s - 1, so
 * a rank may write buffer s % 2 once every counter is at s - 1.
 */
#ifndef TIDE_COLL_SHM_REGION_H
#define TIDE_COLL_SHM_REGION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "comm/comm.h"

#define TIDE_REGION_MAX_RANKS 64

struct tide_coll_region;

/* The bytes of a slot in the region of a communicator of n ranks (32 KiB
 * at 2 ranks, whose calls through the region are short, 64 KiB at 3 and
 * 4, 32 KiB up to 8, 16 KiB up to 16, 8 KiB beyond). */
size_t tide_region_slot_bytes(int n);

/* Could a blocking collective on c go through a region (c's ranks all on
 * this node, a size the region serves, argument agreement off, no region
 * refused before)? The same answer on every rank. */
bool tide_coll_region_possible(struct tide_comm *c);
/* c's region, setting it up first if this is the first call that wants
 * it (collective: every rank of c calls it in the same call). NULL if
 * it cannot be had, on every rank alike; later calls then know. */
struct tide_coll_region *tide_coll_region_get(struct tide_comm *c);
void tide_coll_region_free(struct tide_coll_region *r);

/* The same region, where every rank can also read the memory of every
 * other (a single-copy get: shm_get.c), agreed by all in the first call
 * that asks; NULL otherwise, on every rank alike. */
struct tide_coll_region *tide_coll_region_get_readable(struct tide_comm *c);
/* Could tide_coll_region_get_readable give a region (not known to be
 * refused)? The same answer on every rank. */
bool tide_coll_region_readable_possible(struct tide_comm *c);
/* Read n bytes at address remote in rank i's memory into dst: 0 or
 * -errno. */
int tide_region_read(struct tide_coll_region *r, int i, void *dst, uint64_t remote, size_t n);

/* Start a round: wait until every rank is done with the buffer it uses,
 * and return the round's number. */
uint64_t tide_region_begin(struct tide_coll_region *r);
/* Rank i's slot in round s. */
void *tide_region_slot(struct tide_coll_region *r, uint64_t s, int i);
/* The slots of round s are one run of n slots, rank 0's first: a round
 * in which one rank alone writes (bcast) may fill all of them. */
size_t tide_region_round_bytes(int n);
/* This rank's slot is written: tell the others (and wake them). */
void tide_region_publish(struct tide_coll_region *r, uint64_t s);
/* A word that goes with this rank's counter: set before publishing a
 * round, it is read by the others once they have seen the round and
 * before they publish their next (the counters' release and acquire
 * order it; bcast: the root's length). */
void tide_region_set_word(struct tide_coll_region *r, uint64_t v);
uint64_t tide_region_word(struct tide_coll_region *r, int i);
/* Wait until every rank has published round s. */
void tide_region_wait_all(struct tide_coll_region *r, uint64_t s);
/* Wait until rank i has published round s. */
void tide_region_wait_one(struct tide_coll_region *r, uint64_t s, int i);
/* MPI_SUCCESS, or the error of a wait that ended because the
 * communicator's collectives were revoked (coll/coll_notice.h): from
 * then on every wait returns at once, the slots and words read mean
 * nothing, and the call must return this error. */
int tide_region_error(const struct tide_coll_region *r);
/* A round that carries nothing: every rank has begun it (so has finished
 * the rounds before). */
void tide_region_barrier(struct tide_coll_region *r);

#endif
