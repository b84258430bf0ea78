/*
 * match.h: message matching. Each context id has a queue of posted
 * receives and a queue of unexpected messages, both in arrival order, so
 * the first match found respects MPI's non-overtaking rule whatever mix of
 * wildcards is used.
 */
#ifndef TIDE_MATCH_H
#define TIDE_MATCH_H

#include "runtime/spinlock.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tide_request;
struct tide_proc;

/* A message that arrived before its receive was posted. */
struct tide_unexpected {
    struct tide_unexpected *next; /* in its source's bucket */
    uint64_t stamp;               /* arrival order within the context */
    uint32_t ctx;
    int src, tag;
    struct tide_proc *from;
    uint8_t type;             /* TIDE_MSG_EAGER or TIDE_MSG_RTS */
    uint8_t flags;
    uint16_t niov;
    uint64_t len;             /* message length */
    uint64_t sreq;            /* sender's request id */
    void *data;               /* EAGER: the payload; RTS: the sender's iovec list */
    size_t data_len;
    struct tide_request *self_sreq; /* a send to ourselves, not copied yet */
};

/* Unexpected messages wait in buckets by source rank, each in arrival
 * order, so a receive naming its source looks only at that source's
 * messages (and one bucket's neighbours): a sender that runs far ahead,
 * as the leaves of a tree do in a loop of rooted collectives, does not
 * make every other receive walk past its backlog. A receive from any
 * source takes the oldest match of all buckets (by stamp). */
#define TIDE_UQ_BUCKETS 32
struct tide_uq_bucket {
    struct tide_unexpected *head, *tail;
};

struct tide_matchq {
    uint32_t ctx;
    struct tide_request *posted_head, *posted_tail;
    struct tide_uq_bucket uq[TIDE_UQ_BUCKETS];
    uint64_t uq_stamp;
    size_t nposted, nunexpected;
    /* A handler that sees each message of the context from another
     * process as it arrives, before matching (one-sided windows serve
     * their operations this way): eager says the payload is all here;
     * true means it took the message, which is then not matched. */
    bool (*arrival)(void *arg, int src, int tag, bool eager, const void *payload, size_t plen);
    void *arrival_arg;
    /* Holders of the shared library lock (runtime/lock.h) change the
     * queues only with this held; exclusive holders need not take it. */
    tide_spinlock lock;
};

/* The queues of a context id, created on first use (messages may arrive
 * for a communicator this process has not finished creating). */
struct tide_matchq *tide_matchq_get(uint32_t ctx);
/* The queues of ctx if it has them (NULL if not): inline, the directory
 * is chunks of TIDE_MATCHQ_CHUNK contexts. */
#define TIDE_MATCHQ_CHUNK_BITS 10
#define TIDE_MATCHQ_CHUNK (1u << TIDE_MATCHQ_CHUNK_BITS)
#define TIDE_MATCHQ_CHUNKS 1024u
extern struct tide_matchq **tide_matchq_dir[TIDE_MATCHQ_CHUNKS];
static inline struct tide_matchq *tide_matchq_find(uint32_t ctx)
{
    uint32_t c = ctx >> TIDE_MATCHQ_CHUNK_BITS;
    if (c >= TIDE_MATCHQ_CHUNKS)
        return NULL;
    struct tide_matchq **chunk = tide_matchq_dir[c];
    return chunk ? chunk[ctx & (TIDE_MATCHQ_CHUNK - 1)] : NULL;
}
void tide_matchq_drop(uint32_t ctx);
void tide_matchq_finalize(void);

static inline bool tide_match_ok(int want_src, int want_tag, int src, int tag)
{
    return (want_src == src || want_src == -1 /* MPI_ANY_SOURCE */) &&
           (want_tag == tag || (want_tag == -1 /* MPI_ANY_TAG */ && tag >= 0));
}

void tide_match_post(struct tide_matchq *q, struct tide_request *req);
/* First posted receive matching (src, tag), removed from the queue. */
struct tide_request *tide_match_take_posted(struct tide_matchq *q, int src, int tag);
/* First posted receive matching (src, tag), left in the queue; and its
 * removal. */
struct tide_request *tide_match_peek_posted(struct tide_matchq *q, int src, int tag);
void tide_match_unlink_posted(struct tide_matchq *q, struct tide_request *r);
/* Remove a posted receive (cancel); false if it is not there. */
bool tide_match_unpost(struct tide_matchq *q, struct tide_request *req);
void tide_match_add_unexpected(struct tide_matchq *q, struct tide_unexpected *u);
/* First unexpected message matching (src, tag); removed if take. */
struct tide_unexpected *tide_match_find_unexpected(struct tide_matchq *q, int src, int tag, bool take);
/* Remove an unexpected message from `from` with sender id sreq (cancel). */
struct tide_unexpected *tide_match_take_by_sender(struct tide_matchq *q, struct tide_proc *from,
                                                  uint64_t sreq);
/* Remove a given unexpected message (found by a scan). */
void tide_match_remove(struct tide_matchq *q, struct tide_unexpected *u);
/* Every unexpected message of q, bucket by bucket: first, then next
 * (which may be asked before u is removed). */
struct tide_unexpected *tide_match_uq_first(struct tide_matchq *q);
struct tide_unexpected *tide_match_uq_next(struct tide_matchq *q, struct tide_unexpected *u);
struct tide_unexpected *tide_unexpected_new(size_t data_len);
void tide_unexpected_free(struct tide_unexpected *u);

#endif
