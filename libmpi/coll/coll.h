/*
 * coll.h: collective operations for the rest of libmpi (communicator
 * construction, one-sided, I/O, dynamic processes). These are the
 * blocking collectives without argument checks or error handlers: each
 * returns MPI_SUCCESS or an error code. They work on any communicator,
 * intra or inter (for an intercommunicator with the MPI_ROOT /
 * MPI_PROC_NULL root rules), and take the communicator's next collective
 * sequence number like every collective (comm/exchange.h).
 */
#ifndef TIDE_COLL_H
#define TIDE_COLL_H

#include <stddef.h>

#include "mpi.h"

struct tide_comm;
struct tide_datatype;
struct tide_op;

int tide_coll_barrier(struct tide_comm *c);
int tide_coll_bcast(void *buf, MPI_Count count, struct tide_datatype *dt, int root, struct tide_comm *c);
int tide_coll_gather(const void *sbuf, MPI_Count scount, struct tide_datatype *sdt, void *rbuf, MPI_Count rcount,
                     struct tide_datatype *rdt, int root, struct tide_comm *c);
int tide_coll_scatter(const void *sbuf, MPI_Count scount, struct tide_datatype *sdt, void *rbuf, MPI_Count rcount,
                      struct tide_datatype *rdt, int root, struct tide_comm *c);
int tide_coll_allgather(const void *sbuf, MPI_Count scount, struct tide_datatype *sdt, void *rbuf, MPI_Count rcount,
                        struct tide_datatype *rdt, struct tide_comm *c);
int tide_coll_alltoall(const void *sbuf, MPI_Count scount, struct tide_datatype *sdt, void *rbuf, MPI_Count rcount,
                       struct tide_datatype *rdt, struct tide_comm *c);
int tide_coll_reduce(const void *sbuf, void *rbuf, MPI_Count count, struct tide_datatype *dt, struct tide_op *op,
                     int root, struct tide_comm *c);
int tide_coll_allreduce(const void *sbuf, void *rbuf, MPI_Count count, struct tide_datatype *dt, struct tide_op *op,
                        struct tide_comm *c);

/* Nonblocking collectives in flight on this process. */
int tide_coll_pending(void);

#endif
