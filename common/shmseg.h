/*
 * shmseg.h: the layout of a rank's shared-memory receive segment (how many
 * sender slots, how big each ring). libmpi's shm transport sizes its
 * segment with it, and mpiexec uses it to check, before launching, that
 * the session directory's file system can hold what a job's segments may
 * fill. The number of slots is capped, so a segment's size does not grow
 * with the number of ranks: senders beyond the cap use another transport.
 */
#ifndef TIDE_SHMSEG_H
#define TIDE_SHMSEG_H

#include <stdbool.h>
#include <stdint.h>

#define TIDE_SHM_SEG_HEADER 4096u /* the segment header, before the slots' areas */
#define TIDE_SHM_AREA_CTRL 4096u  /* the control block at the start of each slot's area */
#define TIDE_SHM_MIN_SLOTS 128u   /* room for spawned and connected processes */
#define TIDE_SHM_MAX_SLOTS 256u   /* whatever the number of local ranks */

struct tide_shm_layout {
    uint32_t nslots;
    uint64_t ring_size; /* a power of two */
    uint64_t area_size; /* TIDE_SHM_AREA_CTRL + ring_size */
    uint64_t len;       /* the whole segment (a sparse file) */
};

/* The segment of a rank with local_size ranks of its job on its node;
 * ring_param is the configured ring size (shm_ring_size, or
 * shm_ring_size_oversub when ranks outnumber cores). */
void tide_shm_layout(uint32_t local_size, uint64_t ring_param, struct tide_shm_layout *out);

/* Bytes the segments of nlocal ranks of one node can fill at most when
 * they all talk to each other over shared memory (each receiver's rings
 * full for every other local rank; slots of later, dynamic processes are
 * not counted). */
uint64_t tide_shm_node_bytes(uint32_t nlocal, const struct tide_shm_layout *l);

#endif
