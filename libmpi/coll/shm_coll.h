/*
 * shm_coll.h: blocking collectives through the shared region of a
 * one-node communicator (shm_region.h), for short data: barrier,
 * allreduce, allgather(v), alltoall and reduce_scatter(_block), and
 * bcast of any length (algorithm "shm").
 *
 * Each runs the call and returns MPI_SUCCESS or an error, or returns -1
 * without doing anything when the region cannot be had (then on every
 * rank alike, and for good): the caller chooses another algorithm.
 */
#ifndef TIDE_COLL_SHM_COLL_H
#define TIDE_COLL_SHM_COLL_H

#include <stdbool.h>
#include <stddef.h>

#include "comm/comm.h"
#include "datatype/datatype.h"

struct tide_op;

/* Could the region carry a call on c that puts slot_bytes in each
 * rank's slot? */
bool tide_shm_coll_fits(struct tide_comm *c, size_t slot_bytes);
/* Can the reductions combine elements of dt where they lie in the region
 * (one contiguous run, no gaps)? */
bool tide_shm_plain(const struct tide_datatype *dt);

int tide_shm_barrier(struct tide_comm *c);
int tide_shm_bcast(struct tide_comm *c, void *buf, size_t count, struct tide_datatype *dt, int root);
int tide_shm_allreduce(struct tide_comm *c, const void *sbuf, void *rbuf, size_t count, struct tide_datatype *dt,
                       struct tide_op *op);
int tide_shm_allgather(struct tide_comm *c, const void *sbuf, size_t scount, struct tide_datatype *sdt, void *rbuf,
                       size_t rcount, struct tide_datatype *rdt);
int tide_shm_allgatherv(struct tide_comm *c, const void *sbuf, size_t scount, struct tide_datatype *sdt, void *rbuf,
                        const MPI_Count *rcounts, const MPI_Aint *displs, struct tide_datatype *rdt);
/* counts: every rank's block (elements of dt, a plain layout) */
int tide_shm_reduce_scatter(struct tide_comm *c, const void *sbuf, void *rbuf, const MPI_Count *counts,
                            struct tide_datatype *dt, struct tide_op *op);
int tide_shm_alltoall(struct tide_comm *c, const void *sbuf, size_t scount, struct tide_datatype *sdt, void *rbuf,
                      size_t rcount, struct tide_datatype *rdt);

#endif
