/*
 * shm_get.h: blocking bcast, allgather and alltoall(v,w) for long data on a
 * one-node communicator, each rank reading what it needs straight from
 * the others' buffers (algorithm "get", shm_get.c).
 *
 * Each runs the call and returns MPI_SUCCESS or an error, or returns -1
 * without doing anything when the ranks cannot read each other's memory
 * (then on every rank alike, and for good): the caller chooses another
 * algorithm.
 */
#ifndef TIDE_COLL_SHM_GET_H
#define TIDE_COLL_SHM_GET_H

#include <stdbool.h>
#include <stddef.h>

#include "comm/comm.h"
#include "datatype/datatype.h"

int tide_get_bcast(struct tide_comm *c, void *buf, size_t count, struct tide_datatype *dt, int root);
int tide_get_allgather(struct tide_comm *c, const void *sbuf, size_t scount, struct tide_datatype *sdt, void *rbuf,
                       size_t rcount, struct tide_datatype *rdt);
int tide_get_alltoall(struct tide_comm *c, const void *sbuf, size_t scount, struct tide_datatype *sdt, void *rbuf,
                      size_t rcount, struct tide_datatype *rdt);

/* One side of an alltoallv or alltoallw: block i is counts[i] elements
 * of dts[i] at buf + displs[i] bytes (alltoallw), or of dt at buf +
 * displs[i] * dt's extent (alltoallv: dts NULL). */
struct tide_get_blocks {
    const void *buf; /* send side: MPI_IN_PLACE for the in-place form */
    const MPI_Count *counts;
    const MPI_Aint *displs;
    struct tide_datatype *dt;
    struct tide_datatype **dts;
};

/* Can the region describe the blocks of an alltoallv on n ranks? */
bool tide_get_alltoallv_fits(int n);
int tide_get_alltoallv(struct tide_comm *c, const struct tide_get_blocks *snd, const struct tide_get_blocks *rcv);

#endif
