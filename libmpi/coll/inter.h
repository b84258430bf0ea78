/*
 * inter.h: the intercommunicator forms of the collectives (inter.c), as
 * schedule builders. Each takes one sequence number on the
 * intercommunicator and one on its local communicator (comm->local_comm).
 * Rooted operations follow the standard's root rules: in the root's group
 * the root passes MPI_ROOT and the others MPI_PROC_NULL; in the other
 * group everyone passes the root's rank in the remote group.
 */
#ifndef TIDE_COLL_INTER_H
#define TIDE_COLL_INTER_H

#include <stddef.h>

struct tide_sched;
struct tide_comm;
struct tide_datatype;
struct tide_op;

void tide_inter_barrier(struct tide_sched *s, struct tide_comm *c);
void tide_inter_bcast(struct tide_sched *s, struct tide_comm *c, void *buf, MPI_Count count, struct tide_datatype *dt,
                      int root);
void tide_inter_gather(struct tide_sched *s, struct tide_comm *c, const void *sbuf, MPI_Count scount,
                       struct tide_datatype *sdt, void *rbuf, MPI_Count rcount, struct tide_datatype *rdt, int root);
void tide_inter_gatherv(struct tide_sched *s, struct tide_comm *c, const void *sbuf, MPI_Count scount,
                        struct tide_datatype *sdt, void *rbuf, const MPI_Count *rcounts, const MPI_Aint *displs,
                        struct tide_datatype *rdt, int root);
void tide_inter_scatter(struct tide_sched *s, struct tide_comm *c, const void *sbuf, MPI_Count scount,
                        struct tide_datatype *sdt, void *rbuf, MPI_Count rcount, struct tide_datatype *rdt, int root);
void tide_inter_scatterv(struct tide_sched *s, struct tide_comm *c, const void *sbuf, const MPI_Count *scounts,
                         const MPI_Aint *displs, struct tide_datatype *sdt, void *rbuf, MPI_Count rcount,
                         struct tide_datatype *rdt, int root);
void tide_inter_allgather(struct tide_sched *s, struct tide_comm *c, const void *sbuf, MPI_Count scount,
                          struct tide_datatype *sdt, void *rbuf, MPI_Count rcount, struct tide_datatype *rdt);
void tide_inter_allgatherv(struct tide_sched *s, struct tide_comm *c, const void *sbuf, MPI_Count scount,
                           struct tide_datatype *sdt, void *rbuf, const MPI_Count *rcounts, const MPI_Aint *displs,
                           struct tide_datatype *rdt);
void tide_inter_alltoall(struct tide_sched *s, struct tide_comm *c, const void *sbuf, MPI_Count scount,
                         struct tide_datatype *sdt, void *rbuf, MPI_Count rcount, struct tide_datatype *rdt);
/* v form (sdts/rdts NULL: one type, displacements in its extent) or w
 * form (per-block types, byte displacements) */
void tide_inter_alltoallv(struct tide_sched *s, struct tide_comm *c, const void *sbuf, const MPI_Count *scounts,
                          const MPI_Aint *sdispls, struct tide_datatype *sdt, struct tide_datatype *const *sdts,
                          void *rbuf, const MPI_Count *rcounts, const MPI_Aint *rdispls, struct tide_datatype *rdt,
                          struct tide_datatype *const *rdts);
void tide_inter_reduce(struct tide_sched *s, struct tide_comm *c, const void *sbuf, void *rbuf, MPI_Count count,
                       struct tide_datatype *dt, struct tide_op *op, int root);
void tide_inter_allreduce(struct tide_sched *s, struct tide_comm *c, const void *sbuf, void *rbuf, MPI_Count count,
                          struct tide_datatype *dt, struct tide_op *op);
/* counts: one per rank of the local group (the blocks this group gets) */
void tide_inter_reduce_scatter(struct tide_sched *s, struct tide_comm *c, const void *sbuf, void *rbuf,
                               const MPI_Count *counts, struct tide_datatype *dt, struct tide_op *op);

#endif
