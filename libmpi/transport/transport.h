/*
 * transport.h: what a transport (self, shm, tcp) provides to the
 * point-to-point protocol, and the header every message carries.
 *
 * A transport moves messages (a tide_hdr plus payload) to a peer in order,
 * and delivers arriving ones to tide_protocol_incoming(). Connections are
 * made on demand from the peer's business card. Bulk data of rendezvous
 * messages travels either by the transport's single-copy `get` (shm with
 * CMA) or as DATA messages.
 */
#ifndef TIDE_TRANSPORT_H
#define TIDE_TRANSPORT_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

struct tide_proc;
struct tide_convertor;
struct tide_card;

enum tide_msg_type {
    TIDE_MSG_EAGER = 1,        /* envelope + the whole message */
    TIDE_MSG_RTS = 2,          /* envelope; data follows on request (payload: sender iovecs for get) */
    TIDE_MSG_CTS = 3,          /* receiver ready: sreq, aux = receiver's request */
    TIDE_MSG_DATA = 4,         /* aux = receiver's request, sreq = byte offset, len = chunk */
    TIDE_MSG_FIN = 5,          /* receiver has read the data of sreq (single-copy get) */
    TIDE_MSG_ACK = 6,          /* a synchronous send sreq was matched */
    TIDE_MSG_CANCEL = 7,       /* please drop unexpected message sreq (context ctx) if unmatched */
    TIDE_MSG_CANCEL_REPLY = 8, /* aux = 1 if it was dropped */
    TIDE_MSG_PUT = 9,          /* receiver -> sender of a GET rendezvous: write len bytes from offset
                                  (first 8 payload bytes) into the receiver's iovecs (the rest);
                                  sreq = sender's request, aux = receiver's request */
    TIDE_MSG_PUT_DONE = 10,    /* sender -> receiver: aux = receiver's request, len = bytes written
                                  (0: could not write: read them yourself) */
};

enum tide_msg_flags {
    TIDE_MSGF_SYNC = 1,  /* the sender waits for ACK (MPI_Ssend) */
    TIDE_MSGF_GET = 2,   /* RTS: the payload lists the sender's iovecs for a single-copy get */
    TIDE_MSGF_SEALED = 4, /* EAGER, RTS, DATA of a message that carries a secret (a key, a port's
                             token): a transport between hosts seals it whatever `encrypt` says */
};

struct tide_hdr {
    uint8_t type;
    uint8_t flags;
    uint16_t niov;   /* RTS with GET: number of iovecs in the payload */
    uint32_t ctx;    /* context id */
    int32_t src;     /* sender's rank in the communicator's local group */
    int32_t tag;
    uint64_t len;    /* message length (EAGER, RTS) or chunk length (DATA) */
    uint64_t sreq;   /* sender's request id (0: none), or DATA offset */
    uint64_t aux;    /* receiver's request id (CTS, DATA), reply value */
};

struct tide_transport {
    const char *name;
    size_t eager_limit;
    size_t eager_limit_coll; /* the same for collectives' own messages (tide_ctx_is_coll) */
    size_t max_chunk;    /* largest DATA payload per message */
    bool can_get;        /* has a single-copy get */
    /* Can this transport reach p (given its card)? Connects lazily later. */
    bool (*reachable)(struct tide_proc *p, const struct tide_card *card);
    /* Send hdr + extra (raw bytes, e.g. an RTS iovec list) + len bytes taken
     * from cv (NULL when len is 0). Returns 0 when the message is on its
     * way (every byte copied or written), 1 if the transport cannot take it
     * now (the caller retries after progress), <0 on a broken peer. */
    int (*send)(struct tide_proc *p, const struct tide_hdr *h, const void *extra, size_t extra_len,
                struct tide_convertor *cv, size_t len);
    /* Single-copy read of p's memory (remote iovecs) into local iovecs.
     * Returns bytes read or -errno. */
    long (*get)(struct tide_proc *p, const struct iovec *local, int nlocal, const struct iovec *remote,
                int nremote);
    /* Single-copy write of local iovecs into p's memory (remote iovecs). */
    long (*put)(struct tide_proc *p, const struct iovec *local, int nlocal, const struct iovec *remote,
                int nremote);
    /* Poll for arrivals; returns how many messages were delivered. */
    int (*progress)(void);
    /* Optional: the part of progress worth running on every pass of a
     * waiting loop (cheap to call when nothing is there); the waiting loop
     * runs the whole of progress only every few idle passes. */
    int (*progress_quick)(void);
    /* Before sleeping: add fds to wait on and arm wake-ups. Returns the
     * number of fds added, or -1 if work is waiting (do not sleep). */
    int (*block_prepare)(struct pollfd *fds, int max);
    void (*block_finish)(void);
    /* Optional: the progress engine has found nothing to do and is about
     * to wait (deferred work that only matters to a waiting peer). */
    void (*idle)(void);
    void (*finalize)(void);
    /* Optional, for DATA: send hdr + len bytes of cv without copying them;
     * done(arg) is called once every byte has been written (the buffer
     * must stay untouched until then). 0 queued, 1 busy, <0 broken. */
    int (*send_zc)(struct tide_proc *p, const struct tide_hdr *h, struct tide_convertor *cv, size_t len,
                   void (*done)(void *arg), void *arg);
    /* Optional: of messages above eager_limit_low (and up to the eager
     * limit), whether one of len bytes to p still goes eagerly now: with a
     * transport that buffers them (a ring), a burst of them that would
     * fill the buffer goes by rendezvous instead, one copy instead of two
     * and no waiting for room. */
    size_t eager_limit_low;
    bool (*eager_room)(const struct tide_proc *p, size_t len);
    /* Drop what is kept for p (it left through MPI_Comm_disconnect). */
    void (*forget)(struct tide_proc *p);
    /* Optional: are messages still waiting to leave (queued behind a
     * connection being made, or not yet written)? Finalize waits for them. */
    bool (*output_pending)(void);
    /* Optional, for MPI_THREAD_MULTIPLE's fast path (pt2pt/fastpath.c),
     * called holding the library lock shared: send as send does, safe
     * against other threads doing the same (1 also when p is not set up
     * yet: the caller goes the exclusive way); and deliver what the fast
     * path takes (tide_protocol_incoming_shared), setting *exclusive when
     * something waits that needs the exclusive lock. */
    int (*send_shared)(struct tide_proc *p, const struct tide_hdr *h, const void *extra, size_t extra_len,
                       struct tide_convertor *cv, size_t len);
    int (*progress_shared)(bool *exclusive);
    /* Optional: has this transport something to poll now (a transport
     * without progress_shared that has makes waiting under the shared
     * lock give way to the exclusive engine soon)? */
    bool (*active)(void);
    /* Optional, for the single-threaded short path (pt2pt/lean.c): send a
     * plain eager message (no flags) of len bytes from a contiguous buffer,
     * as send would with the header { EAGER, ctx, src, tag, len, sreq }. */
    int (*send_eager)(struct tide_proc *p, uint32_t ctx, int32_t src, int32_t tag, uint64_t sreq, const void *data,
                      size_t len);
    /* Optional: p may be asleep waiting for memory this process shares
     * with it and has just written (the writer issued a full barrier
     * since): wake it if so. Transports without it cannot wake peers. */
    void (*wake)(struct tide_proc *p);
};

/* The message layer's entry point for arriving messages. The payload is
 * valid only during the call. */
void tide_protocol_incoming(struct tide_proc *from, const struct tide_hdr *h, const void *payload,
                            size_t payload_len);
/* The same for a plain eager message (no flags) given by its fields: a
 * transport that writes such messages with a short header of its own
 * hands them over without making a tide_hdr. */
void tide_protocol_incoming_eager(struct tide_proc *from, uint32_t ctx, int32_t src, int32_t tag, uint64_t sreq,
                                  const void *payload, size_t payload_len);
/* Around a pass that delivers several messages from one process: work
 * their arrival starts may be done together at the end (single-copy
 * reads). Nest freely. */
/* Under the shared library lock: take a message if it is one the fast
 * path delivers (a plain eager message to a receive it can complete, or
 * to the unexpected queue); false, and nothing done, if not. */
bool tide_protocol_incoming_shared(struct tide_proc *from, const struct tide_hdr *h, const void *payload,
                                   size_t payload_len);
void tide_protocol_burst_begin(void);
void tide_protocol_burst_end(void);

/* Zero-copy receive of DATA: where the payload of h should go. Fills up to
 * max iovecs covering the whole payload and returns their number, or 0 if
 * the payload must be delivered through tide_protocol_incoming instead.
 * After the bytes are in place, call tide_protocol_data_arrived(from, h).
 * from: the process the frame came from (the receive must be with it). */
int tide_protocol_data_target(struct tide_proc *from, const struct tide_hdr *h, struct iovec *iov, int max);
void tide_protocol_data_arrived(struct tide_proc *from, const struct tide_hdr *h);

/* Registry of transports in use (select.c). */
int tide_transports_init(char *err, size_t errlen);
void tide_transports_finalize(void);
/* Choose a transport for p (fetching its card); NULL if unreachable. */
struct tide_transport *tide_transport_for(struct tide_proc *p);
int tide_transports_progress(void);
/* The quick progress of the transports that have one. */
int tide_transports_progress_quick(void);
/* The transports' progress_shared; -1 when something needs the exclusive lock. */
int tide_transports_progress_shared(void);
/* Can a wait under the shared lock go on for a while (no transport
 * without progress_shared has anything to poll)? */
bool tide_transports_shared_only(void);
/* Tell the transports the caller is about to wait (their idle hooks). */
void tide_transports_idle(void);
/* Can p be woken by tide_transport_wake (choosing its transport)? */
bool tide_transport_can_wake(struct tide_proc *p);
void tide_transport_wake(struct tide_proc *p);
/* Does any transport still hold messages that have not left? */
bool tide_transports_output_pending(void);
extern struct tide_transport *tide_transport_list[4];
/* "shm, tcp": the transports in use (those built in before MPI_Init). */
const char *tide_transports_names(void);
extern int tide_ntransports;

/* Has the TCP transport an open connection to p? (Its end comes after
 * everything p sent on it: the sign of p's death that keeps the order.) */
bool tide_tcp_peer_open(const struct tide_proc *p);
/* p came in through a port and an accept has taken its request: it is no
 * longer held to the limits of a port peer nobody has accepted. */
void tide_tcp_port_accepted(struct tide_proc *p);

#endif
