/*
 * protocol.h: how messages travel: eager below a transport's limit,
 * rendezvous above it (a single-copy get where the transport has one,
 * several gets from one process done in one call when their messages
 * arrive together; otherwise, and for receives of small pieces,
 * clear-to-send and DATA chunks), synchronous mode by
 * acknowledgement, sends to oneself without a transport, cancellation of
 * unmatched sends, and the per-peer queues that keep messages in order
 * when a transport is momentarily full.
 */
#ifndef TIDE_PROTOCOL_H
#define TIDE_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "mpi.h"

struct tide_proc;
struct tide_request;
struct tide_unexpected;
struct tide_comm;
struct tide_datatype;

/* Messages and bytes this process sent (sends started, to itself
 * included) and received (receives matched), since it started; read by
 * the tool information interface (tools/mpit_pvar.c). */
struct tide_msg_counters {
    unsigned long long msgs_sent, bytes_sent, msgs_received, bytes_received;
};
extern struct tide_msg_counters tide_msg_counters;
/* The counters with what threads on the fast path counted (their own
 * blocks, protocol_shared.c); called under the exclusive lock. */
void tide_msg_counters_read(struct tide_msg_counters *out);

int tide_protocol_init(void);
void tide_protocol_finalize(void);
int tide_protocol_progress(void);
bool tide_protocol_has_pending(void);
/* Are messages to p queued behind a busy transport? */
bool tide_protocol_output_queued(const struct tide_proc *p);
/* Single-copy read of bytes [off, off + n) of p's memory described by
 * riov into dst, through p's transport: 0, or -errno (-EIO: the
 * transport has no such read). */
int tide_protocol_get_span(struct tide_proc *from, const struct iovec *riov, int nriov, size_t off, size_t n,
                           void *dst);

/* Start a send described by req (buf, count, dt, peer, tag, comm, ctx,
 * mode). Returns MPI_SUCCESS or an error code. */
int tide_send_start(struct tide_request *req);
/* A blocking standard send that can complete at once (eager, transport
 * not busy): returns 1 if sent, 0 if the caller must use a request. */
int tide_send_immediate(const void *buf, MPI_Count count, struct tide_datatype *dt, int dest, int tag,
                        struct tide_comm *comm, uint32_t ctx);
/* As tide_send_immediate, the message being prefix_len bytes at prefix
 * followed by the buffer's data (one message, no staging copy). */
int tide_send_immediate_prefixed(const void *prefix, size_t prefix_len, const void *buf, MPI_Count count,
                                 struct tide_datatype *dt, int dest, int tag, struct tide_comm *comm, uint32_t ctx);
/* A nonblocking standard or ready send that goes out eagerly at once:
 * returns 1 with r (new, unfilled) complete and holding only what a
 * cancel needs (no datatype or communicator reference), 0 if r must be
 * filled and started the ordinary way. */
int tide_isend_eager_now(struct tide_request *r, const void *buf, MPI_Count count, struct tide_datatype *dt, int dest,
                         int tag, struct tide_comm *comm, uint32_t ctx, int mode);
/* A blocking receive that can complete at once from an eager message
 * already here: MPI_SUCCESS or MPI_ERR_TRUNCATE with *status filled, or
 * -1 if the caller must post a request. */
int tide_recv_immediate(void *buf, MPI_Count count, struct tide_datatype *dt, int source, int tag, uint32_t ctx,
                        MPI_Status *status);
/* Under the shared library lock (protocol_shared.c): an eager send that
 * goes out at once (1; *procp, if not NULL, gets its process), or 0
 * with nothing done; sreq names the sender's request (0: none). */
int tide_send_eager_shared(const void *buf, MPI_Count count, struct tide_datatype *dt, int dest, int tag,
                           struct tide_comm *comm, uint32_t ctx, uint64_t sreq, struct tide_proc **procp);
/* Post filled receive r, or complete it from an eager message already
 * here: 1; 0 with nothing done when the exclusive path must. */
int tide_recv_post_shared(struct tide_request *r);
/* Post a receive (matches the unexpected queue first). */
int tide_recv_start(struct tide_request *req);
/* Receive a message taken out of the unexpected queue (MPI_Mrecv). */
void tide_recv_unexpected(struct tide_request *req, struct tide_unexpected *u);
/* Start cancelling req (MPI_Cancel). */
int tide_request_cancel(struct tide_request *req);
/* Abandon an operation of a revoked collective context: a posted or
 * matched receive, or a send waiting for its receiver's answer, completes
 * now with err (true); anything else completes by itself (false). */
bool tide_request_abort(struct tide_request *req, int err);
/* Abandon every such operation on ctx whose tag covers(arg, tag) says
 * belongs to the revoked operations, and drop those unexpected messages;
 * make_err(arg) gives each its error. Returns how many were abandoned. */
/* proc failed: what waits to go out to it is dropped, and the requests
 * of those messages complete with err. */
void tide_protocol_drop_peer(struct tide_proc *proc, int err);
int tide_requests_abort_ctx(uint32_t ctx, bool (*covers)(void *arg, int tag), int (*make_err)(void *arg), void *arg);

#endif
