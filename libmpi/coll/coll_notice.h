/*
 * coll_notice.h: a collective call refused by one rank's local argument
 * check must not leave the other ranks waiting in it. The refusing rank
 * sends every other rank an error notice (a small message on the
 * communicator's collective context with a reserved tag, naming the call,
 * itself, its error class and the function); the notice is taken where
 * messages arrive (pt2pt/protocol.c), never queued.
 *
 * Every collective MPI call on a communicator has a number, its count of
 * such calls (tide_comm.coll_calls), the same on every rank whatever the
 * call does (algorithm, shared region, failure). With the notice of call
 * k, a rank that
 *   - refused call k itself: ignores it (every rank saw the same error);
 *   - has not reached call k: keeps it; when it makes call k, the call
 *     fails at once (after its own checks), having sent nothing;
 *   - made call k with good arguments (it may be waiting in it, or even
 *     have left it: its messages or shared-region rounds are out):
 *     revokes the communicator's collectives and tells every other rank
 *     so. A revoked context's pending operations complete with an error,
 *     its messages are dropped, shared-region waits on it end, and every
 *     later collective call on the communicator fails at once. Point-to-
 *     point on the communicator goes on.
 * The state lives in comm/comm_fault.h. Under coll_check (the agreement)
 * no notice is needed but for persistent _init calls, which take part in
 * no agreement.
 */
#ifndef TIDE_COLL_NOTICE_H
#define TIDE_COLL_NOTICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "comm/comm.h"
#include "comm/comm_fault.h"

struct tide_proc;

/* The tag of notices: negative, so never a user's tag nor a collective's. */
#define TIDE_COLL_NOTICE_TAG (-0x4e0)

/* Slow half of tide_coll_count_call: call k of c meets fault state. */
void tide_coll_notice_entered(struct tide_comm *c, uint32_t k);

/* Count a collective MPI call on c (every form: blocking, nonblocking,
 * _init), after the communicator is known and before any check. */
static inline void tide_coll_count_call(struct tide_comm *c)
{
    uint32_t k = c->coll_calls++;
    if (__builtin_expect(tide_comm_faults != 0, 0))
        tide_coll_notice_entered(c, k);
}

/* After the call's own checks (rc their result): the error of a call
 * another rank refused first, or of a revoked communicator. */
int tide_coll_doom_error(struct tide_comm *c, const char *fn);
static inline int tide_coll_checked(struct tide_comm *c, int rc, const char *fn)
{
    return rc || !c->coll_doom ? rc : tide_coll_doom_error(c, fn);
}

/* This rank refuses the current call on c with code (a valid
 * communicator): takes the collective sequence numbers the call would
 * have taken, records the refusal and sends the notices. Returns code. */
int tide_coll_notice_send(struct tide_comm *c, int code, const char *fn);

/* From the arrival of a message on a collective context (a notice, or
 * any message once some context has fault state): true if it is taken
 * here (a notice; a message for a revoked context, dropped). */
bool tide_coll_arrival(struct tide_proc *from, uint32_t ctx, int src, int tag, const void *payload, size_t plen);

/* Revoke c's collectives, every call in flight and later, because rank
 * (of the remote group if remote) failed (cls MPIX_ERR_PROC_FAILED) or
 * revoked c (MPIX_ERR_REVOKED); tell: send every other member the notice
 * (which names that rank, so the failure spreads). */
void tide_coll_revoke_all(struct tide_comm *c, int cls, int rank, bool remote, bool tell);

/* The error of an operation on the revoked collective context ctx. */
int tide_coll_revoked_error(uint32_t ctx);

/* Is c (or an intercommunicator's local communicator) revoked from call
 * `call` or before? Then the error that call ends with, else
 * MPI_SUCCESS. */
int tide_coll_revoked(struct tide_comm *c, uint32_t call);

#endif
