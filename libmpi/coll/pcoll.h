/*
 * pcoll.h: persistent collective requests (MPI_Bcast_init and the other
 * MPI-4 _init calls). The init call checks its arguments as the
 * nonblocking form does and keeps them: copies of its count,
 * displacement and type arrays, references to its datatypes, operation
 * and communicator, and the collective sequence numbers (message tags)
 * one instance takes, reserved at init. Every MPI_Start builds the
 * nonblocking collective's schedule again with those numbers and runs it
 * on the persistent request, which MPI_Wait/MPI_Test then make inactive;
 * the ranks may start their persistent collectives in any order.
 */
#ifndef TIDE_COLL_PCOLL_H
#define TIDE_COLL_PCOLL_H

#include <stddef.h>

#include "mpi.h"

struct tide_comm;
struct tide_datatype;
struct tide_op;
struct tide_sched;
struct tide_request;
struct tide_pcoll;

/* Adds one instance of the collective to s (agreement and algorithm),
 * from the arguments kept at init; fn names the init call. */
typedef void tide_pcoll_build_fn(struct tide_sched *s, struct tide_comm *c, const char *fn, void *args);

/* A new persistent collective of the init call fn on c; NULL if out of
 * memory. */
struct tide_pcoll *tide_pcoll_new(struct tide_comm *c, const char *fn, tide_pcoll_build_fn *build);
/* A copy of bytes at src that lives as long as the request (NULL for a
 * NULL src); out of memory is recorded and reported by tide_pcoll_commit. */
void *tide_pcoll_keep(struct tide_pcoll *p, const void *src, size_t bytes);
/* References held as long as the request (NULL and predefined: nothing). */
void tide_pcoll_hold_dt(struct tide_pcoll *p, struct tide_datatype *dt);
void tide_pcoll_hold_op(struct tide_pcoll *p, struct tide_op *op);
/* The request, inactive, with args (kept by tide_pcoll_keep) as what its
 * builder gets; builds once to reserve the sequence numbers. On an error
 * p is freed and the error returned. */
int tide_pcoll_commit(struct tide_pcoll *p, void *args, MPI_Request *request);
/* Freed without a request (an argument failed its check after new). */
void tide_pcoll_discard(struct tide_pcoll *p);

/* MPI_Start of a persistent collective request (inactive). */
int tide_pcoll_start(struct tide_request *r);

/* The info argument of an init call: MPI_INFO_NULL or a valid info. */
int tide_pcoll_check_info(MPI_Info info, const char *fn);
/* The same for an init call on comm, raised there (an invalid comm is
 * left to the communicator's check: MPI_SUCCESS). */
int tide_pcoll_info(MPI_Comm comm, MPI_Info info, const char *fn);

#endif
