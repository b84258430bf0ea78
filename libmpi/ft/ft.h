/*
 * ft.h: process failures, and what User-Level Failure Mitigation
 * (mpi-ext.h) builds on them.
 *
 * A failure is learnt from the runtime (a PMIx event: the daemon saw the
 * process end; recovery mode, docs/FAULTS.md), from a TCP connection to a
 * process of another universe breaking, or from another process (a
 * collective's revocation notice naming it). Each process is failed once,
 * and failures are kept in the order they were learnt: that order is the
 * order of the groups MPIX_Comm_get_failed returns.
 *
 * When a process fails: operations that name it (sends, receives from it,
 * matched receives of its data) end with MPIX_ERR_PROC_FAILED; wildcard
 * receives on communicators that hold it are interrupted
 * (MPIX_ERR_PROC_FAILED_PENDING from MPI_Wait/MPI_Test, the request stays
 * pending until acknowledged) and the collectives of every communicator
 * holding it are revoked with that error (comm/comm_fault.h), so that no
 * collective waits for it. All of this runs on the progress engine; the
 * PMIx event only queues the news.
 *
 * Nothing here costs anything until the first failure or revocation:
 * the fast paths test tide_comm_faults (comm/comm_fault.h), which a
 * failure makes non-zero.
 */
#ifndef TIDE_FT_H
#define TIDE_FT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mpi.h"

struct tide_comm;
struct tide_proc;
struct tide_request;
struct tide_group;

/* Per communicator, made on first need (tide_ft_comm_of). */
struct tide_ft_agree_hist;
struct tide_ft_comm {
    bool revoked;               /* MPIX_Comm_revoke: point-to-point and collectives */
    int nacked;                 /* the first nacked of its failed processes are acknowledged */
    uint32_t agree_calls;       /* agreements started on it (their sequence numbers) */
    struct tide_ft_agree_hist *hist; /* decided agreements (agree.c) */
};

/* ---- failures (failure.c) ---- */

/* A process is reported failed (any thread: queued, handled by the
 * progress engine). */
void tide_ft_report(const char *nspace, uint32_t rank);
/* The same from a pidfd: the process ended, maybe cleanly (watch.c). */
void tide_ft_report_ended(const char *nspace, uint32_t rank);
/* p failed: handle it now (the progress engine's thread). */
void tide_ft_proc_failed(struct tide_proc *p);
/* Processes known failed, in the order they were learnt. */
int tide_ft_nfailed(void);
struct tide_proc *tide_ft_failed_at(int i);
/* The failed members of c (local then remote group), in failure order;
 * *out is malloc'd (NULL when none). Returns how many. */
int tide_ft_comm_failed(struct tide_comm *c, struct tide_proc ***out);
/* Has a process of nspace failed? */
bool tide_ft_nspace_failed(const char *nspace);
/* Does c (either group) hold p? */
bool tide_ft_comm_holds(const struct tide_comm *c, const struct tide_proc *p);
/* Does c hold a failed process that this process has not acknowledged
 * on c? */
bool tide_ft_unacked(struct tide_comm *c);
/* The per-communicator state, made if need be (NULL: out of memory). */
struct tide_ft_comm *tide_ft_comm_of(struct tide_comm *c);
void tide_ft_comm_free(struct tide_comm *c);
/* The error of an operation that involves failed process p of c. */
int tide_ft_failed_error(const char *fn, struct tide_comm *c, const struct tide_proc *p);
/* Watch p, a process of another universe, for its death (watch.c):
 * those on this host through a pidfd; nothing for the others. */
void tide_ft_watch(struct tide_proc *p);
void tide_ft_watch_stop(void);
/* Start: register for the runtime's failure events. */
void tide_ft_init(void);
void tide_ft_finalize(void);

/* ---- operations meeting failures and revocation ---- */

/* Slow path of a send's or receive's start once something failed or was
 * revoked: true if r must end at once (r->error set; the caller
 * completes it). A wildcard receive on a communicator with
 * unacknowledged failures is marked interrupted and started. */
bool tide_ft_refuse_op(struct tide_request *r);
/* Is r a wildcard receive interrupted by a failure not acknowledged
 * since (MPI_Wait/MPI_Test return MPIX_ERR_PROC_FAILED_PENDING)? */
static inline bool tide_ft_interrupted(const struct tide_request *r);
/* A blocking wildcard receive interrupted: unposted and completed with
 * MPIX_ERR_PROC_FAILED. */
void tide_ft_end_interrupted(struct tide_request *r);
/* A probe of source on c that can never match: c revoked, source
 * failed, or MPI_ANY_SOURCE with a failure not acknowledged; then its
 * error. */
bool tide_ft_probe_fails(struct tide_comm *c, int source);
int tide_ft_probe_error(struct tide_comm *c, int source, const char *fn);
/* The error MPI_Wait/MPI_Test give an interrupted request. */
int tide_ft_pending_error(struct tide_request *r);

/* A call is about to return code (before its error handler runs): if it
 * is a failure or revocation, one pass of the progress engine. Such calls
 * fail at once, without waiting; a process that makes nothing else (a
 * loop of collectives on a communicator with a failed member, sends to a
 * failed process) must still read what the others send it: the
 * revocation notices above all. Nothing from inside the engine. */
void tide_ft_error_progress(int code);

/* Is this job in recovery mode (mpiexec --enable-recovery)? */
bool tide_ft_recovery(void);
/* A barrier that failures cannot hang: every survivor of c has entered it
 * when it returns (an agreement, agree.c); MPI_SUCCESS or an error code
 * (not raised). */
int tide_ft_barrier(struct tide_comm *c);

/* ---- revocation (revoke.c) ---- */

/* Is c's point-to-point context revoked? */
bool tide_ft_revoked(struct tide_comm *c);
int tide_ft_revoked_error(const char *fn, struct tide_comm *c);
/* Revoke c here and tell the others (from a user's call, or another
 * process's notice: rank, of the remote group if remote, revoked it). */
void tide_ft_revoke_local(struct tide_comm *c, int rank, bool remote);

/* ---- agreement (agree.c) ---- */

/* The tag of agreement messages on a collective context (negative: never
 * a user's or a collective's; taken on arrival, never queued). */
#define TIDE_FT_AGREE_TAG (-0x4e1)
/* A message of an agreement arrived (from the progress engine). */
void tide_ft_agree_arrival(struct tide_proc *from, uint32_t ctx, const void *payload, size_t plen);
/* A failure happened: agreements waiting for the process move on. */
void tide_ft_agree_failure(struct tide_proc *p);
/* c goes: its agreements' records too. */
void tide_ft_agree_forget(struct tide_comm *c);

/* What an agreement decides: the AND of the flags, the union of the
 * failed processes the participants knew (as a bitmap over the sorted
 * participants), and, for shrink, a context id free at all of them. */
struct tide_ft_outcome {
    int flag;
    int nparts;                 /* participants */
    struct tide_proc **parts;   /* sorted (tide_proc_cmp) */
    uint8_t *failed;            /* nparts entries: bit 0 failed, bit 1 not acknowledged by all */
    uint32_t ctx_a, ctx_b;      /* shrink: two ids free at every participant */
};
/* Start an agreement on c; done(outcome, err, arg) runs when decided
 * (err: MPI_SUCCESS or an error code). want_ctx: also agree on context
 * ids. Returns MPI_SUCCESS or an error code. */
int tide_ft_agree_start(struct tide_comm *c, int flag, bool want_ctx,
                        void (*done)(const struct tide_ft_outcome *o, int err, void *arg), void *arg);

/* The same as a request (MPIX_Comm_iagree, MPIX_Comm_ishrink): state
 * (malloc'd, freed here if the start fails; done frees it) has its
 * request stored in *reqp, and the user's handle in *request. A NULL
 * state is out of memory. MPI_SUCCESS or an error code (not raised). */
struct tide_request;
int tide_ft_start_nb(struct tide_comm *c, int flag, bool want_ctx,
                     void (*done)(const struct tide_ft_outcome *o, int err, void *arg), void *state,
                     struct tide_request **reqp, MPI_Request *request);

#include "pt2pt/request.h"
static inline bool tide_ft_interrupted(const struct tide_request *r)
{
    return r->ft_interrupted && !r->complete;
}

#endif
