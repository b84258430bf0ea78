/*
 * comm_fault.h: the fault state of communicators' collective contexts:
 * which collective calls some rank refused (its local argument check
 * failed), and whether the context is revoked (no collective operation
 * can complete on it any more; point-to-point on the communicator is
 * untouched). Kept by collective context id (context_id + 1), not on the
 * communicator, because a notice may arrive before this process has
 * finished creating the communicator it is about. coll/coll_notice.c
 * fills it; the point-to-point layer looks at it (one flag test while
 * nothing ever failed) to refuse new messages on a revoked context. It is
 * also what a future MPIX_Comm_revoke would set.
 */
#ifndef TIDE_COMM_FAULT_H
#define TIDE_COMM_FAULT_H

#include <stdbool.h>
#include <stdint.h>

struct tide_comm;

#define TIDE_FAULT_FN 40

/* One refused collective call: the call's number on the communicator
 * (tide_comm.coll_calls before it), who refused it and why. */
struct tide_fault_call {
    uint32_t call;
    uint32_t seq;             /* the collective sequence number the call started at */
    uint32_t lseq;            /* intercommunicator: the same on its local communicator */
    int rank;                 /* in the group of the rank that refused */
    int cls;                  /* its error class */
    bool remote;              /* that rank is in the remote group (intercommunicator) */
    bool own;                 /* this process refused it */
    char fn[TIDE_FAULT_FN];   /* the function it was refused in */
};

struct tide_comm_fault {
    uint32_t ctx;
    bool revoked;
    /* revoked from this call (and its first sequence number) on: the
     * calls before it, and their messages, are not touched */
    uint32_t from_call, from_seq;
    struct tide_fault_call cause;   /* why it was revoked */
    struct tide_fault_call *calls;  /* refused calls this process knows of */
    int ncalls, capcalls;
    struct tide_comm_fault *next;
};

/* Number of contexts with fault state: 0 while nothing ever failed (the
 * only thing the fast paths look at). */
extern int tide_comm_faults;

struct tide_comm_fault *tide_comm_fault_find(uint32_t ctx);
/* The state of ctx, created empty if there is none; NULL if out of memory. */
struct tide_comm_fault *tide_comm_fault_get(uint32_t ctx);
/* The record of call on ctx, or NULL. */
struct tide_fault_call *tide_comm_fault_call(struct tide_comm_fault *f, uint32_t call);
/* Record a refused call (merged with a record of the same call); NULL if
 * out of memory. */
struct tide_fault_call *tide_comm_fault_add_call(struct tide_comm_fault *f, const struct tide_fault_call *rec);
/* Forget the records of calls before `call`: other ranks' refusals (they
 * were needed until this process made the call), and this process's own
 * from more than `own_window` calls back. */
void tide_comm_fault_prune(struct tide_comm_fault *f, uint32_t call, uint32_t own_window);
/* Forget ctx (its communicator is gone; the id may be given out again),
 * and remember for a while that it is gone: a notice about it arriving
 * late is dropped, not kept for a communicator still to come. */
void tide_comm_fault_drop(uint32_t ctx);
/* A communicator with collective context ctx is made: it is not gone. */
void tide_comm_fault_born(uint32_t ctx);
/* Was ctx's communicator destroyed lately (and none made since)? */
bool tide_comm_fault_gone(uint32_t ctx);

/* Is the collective context ctx revoked (from some call on)? */
static inline bool tide_ctx_revoked(uint32_t ctx)
{
    if (__builtin_expect(tide_comm_faults == 0, 1))
        return false;
    struct tide_comm_fault *f = tide_comm_fault_find(ctx);
    return f && f->revoked;
}

/* Does a message tagged tag (comm/exchange.h: 20 bits of sequence number,
 * 10 of step) belong to a collective at or after sequence number from?
 * (Within half the tag space ahead: the older ones are behind.) */
static inline bool tide_fault_tag_covered(int tag, uint32_t from)
{
    uint32_t seq = ((uint32_t)tag >> 10) & 0xfffffu;
    return ((seq - from) & 0xfffffu) < 0x80000u;
}

/* Is a message tagged tag on ctx one of a revoked collective? */
static inline bool tide_ctx_revoked_tag(uint32_t ctx, int tag)
{
    if (__builtin_expect(tide_comm_faults == 0, 1) || tag < 0)
        return false;
    struct tide_comm_fault *f = tide_comm_fault_find(ctx);
    return f && f->revoked && tide_fault_tag_covered(tag, f->from_seq);
}

/* The error an operation gets because of rec ("MPI_Gatherv: rank 0 of the
 * communicator failed its argument check (MPI_ERR_BUFFER)"), class
 * MPI_ERR_OTHER; revoked adds that the communicator's collectives are
 * revoked. */
int tide_comm_fault_error(const struct tide_fault_call *rec, bool revoked);

/* The live communicator whose collective context is ctx, or the
 * intercommunicator whose local communicator's is (*via_local set);
 * NULL if this process has none (a rare path: it looks through every
 * communicator). */
struct tide_comm *tide_comm_by_coll_ctx(uint32_t ctx, bool *via_local);

void tide_comm_faults_finalize(void);

#endif
