/*
 * sched.h: the schedule engine collectives are built on. A schedule is a
 * list of entries (sends, receives, local reductions and copies) cut into
 * rounds by fences: everything up to a fence is started at once, and
 * nothing after it runs until all of it has completed. A nonblocking
 * collective is a schedule advanced from the progress engine and
 * completed through a TIDE_REQ_COLL request; a blocking one is the same
 * schedule run to completion in the caller.
 *
 * Builders add entries; the add calls never fail (running out of memory
 * is recorded and reported when the schedule is started or run).
 * Buffers named in entries must stay valid until the schedule is done:
 * the user's buffers, or temporaries from tide_sched_alloc, which live
 * exactly as long as the schedule.
 */
#ifndef TIDE_COLL_SCHED_H
#define TIDE_COLL_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mpi.h"

struct tide_comm;
struct tide_datatype;
struct tide_op;
struct tide_request;
struct tide_sched;

/* A new, empty schedule for a collective on comm (held until it is freed). */
struct tide_sched *tide_sched_new(struct tide_comm *comm);

/* Send / receive count elements of dt to / from rank peer of comm, on its
 * collective context, with the given tag. A peer of MPI_PROC_NULL is a
 * no-op. */
void tide_sched_send(struct tide_sched *s, const void *buf, size_t count, struct tide_datatype *dt, int peer,
                     int tag, struct tide_comm *comm);
void tide_sched_recv(struct tide_sched *s, void *buf, size_t count, struct tide_datatype *dt, int peer,
                     int tag, struct tide_comm *comm);
/* inout = in op inout over count elements of dt (both with dt's layout). */
void tide_sched_reduce(struct tide_sched *s, const void *in, void *inout, size_t count,
                       struct tide_datatype *dt, struct tide_op *op);
/* Copy (scount, sdt) at src to (rcount, rdt) at dst; the data (its
 * packed bytes) must fit, else MPI_ERR_TRUNCATE. */
void tide_sched_copy(struct tide_sched *s, const void *src, size_t scount, struct tide_datatype *sdt, void *dst,
                     size_t rcount, struct tide_datatype *rdt);
/* Wait for everything started before this point. */
void tide_sched_fence(struct tide_sched *s);
/* Call fn(s, arg) when the schedule reaches this point. */
void tide_sched_call(struct tide_sched *s, void (*fn)(struct tide_sched *s, void *arg), void *arg);

/* Scratch memory that lives as long as the schedule (64-byte aligned). */
void *tide_sched_alloc(struct tide_sched *s, size_t bytes);
/* Scratch for count elements of dt with dt's layout: the returned pointer
 * is where element 0 would start (the bytes lie at its true lower bound
 * and on). */
void *tide_sched_tmp(struct tide_sched *s, size_t count, struct tide_datatype *dt);
/* From a tide_sched_call function: skip the rest of the schedule and
 * finish with code. */
void tide_sched_stop(struct tide_sched *s, int code);
/* Record an error found while building (the first one is reported). */
void tide_sched_fail(struct tide_sched *s, int code);
int tide_sched_error(const struct tide_sched *s);
/* The number of entries so far (builders use it to see whether a phase
 * added anything). */
int tide_sched_length(const struct tide_sched *s);

/* Run to completion and free; returns the first error. */
int tide_sched_run(struct tide_sched *s);
/* Start as a nonblocking collective; *request gets the user's handle.
 * On an error the schedule is freed and the error returned. */
int tide_sched_start(struct tide_sched *s, MPI_Request *request);
/* Start as one run of a persistent collective request r (inactive; its
 * completion makes it complete again). On an error the schedule is freed
 * and the error returned. */
int tide_sched_start_on(struct tide_sched *s, struct tide_request *r);
/* The collective MPI call s belongs to (by default the latest one made
 * on its communicator; a persistent request's start: its init call). */
void tide_sched_set_call(struct tide_sched *s, uint32_t call);
/* The request a started schedule completes (NULL when run blocking):
 * a call may fill its status. */
struct tide_request *tide_sched_request(const struct tide_sched *s);
/* Free a schedule that was never run. */
void tide_sched_free(struct tide_sched *s);

/* The copy of tide_sched_copy, done now: returns MPI_SUCCESS or an error. */
int tide_coll_copy(const void *src, size_t scount, struct tide_datatype *sdt, void *dst, size_t rcount,
                   struct tide_datatype *rdt);

/* Number of nonblocking collectives in flight (for tests and finalize). */
int tide_sched_active(void);

#endif
