/*
 * proc.h: the processes this one knows about. A process is a PMIx proc
 * (namespace, rank); groups and communicators hold pointers to these
 * entries, which live until MPI_Finalize. Transports keep their per-peer
 * connection state here (lazily created from the peer's business card).
 */
#ifndef TIDE_PROC_H
#define TIDE_PROC_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

struct tide_transport;
struct tide_pending;

struct tide_proc {
    char *nspace;
    uint32_t rank;
    uint32_t hash;
    bool local;                   /* on this node (shared memory possible) */
    bool locality_known;
    bool failed;                  /* its death was reported (ft/failure.c) */
    struct tide_transport *tx;    /* transport chosen to reach it (NULL: not yet) */
    void *tx_state;               /* the shm transport's state for it */
    void *tcp_state;              /* the TCP transport's state for it */
    void *card;                   /* its business card, once fetched */
    uint32_t card_len;
    bool no_get;                  /* single-copy reads from it were refused */
    bool get_ok;                  /* a single-copy read from it worked */
    size_t msg_max;               /* largest payload its transport carries to it in one
                                     message (0: only the transport's own limits) */
    /* messages waiting for the transport to take them, in order */
    struct tide_pending *pend_head, *pend_tail;
    struct tide_proc *pend_next;  /* on the list of processes with pending messages */
    bool on_pend_list;
    int ngroups;                  /* groups that hold it (transport state may go at 0) */
    uint8_t universe;             /* TIDE_UNIV_* of pt2pt/sender_check.h (0: not known yet) */
    void *sender_state;           /* another universe's process: what it may send (sender_check.c) */
    struct tide_proc *hash_next;
};

/* Find or create the entry for (nspace, rank). NULL only on out-of-memory. */
struct tide_proc *tide_proc_get(const char *nspace, uint32_t rank);
/* Find without creating. */
struct tide_proc *tide_proc_find(const char *nspace, uint32_t rank);
void tide_proc_table_free(void);
/* The transports went down: every process is to be reached afresh (its
 * business card fetched again) when they come up again. */
void tide_proc_table_forget_transports(void);
/* Total order for building groups deterministically. */
int tide_proc_cmp(const struct tide_proc *a, const struct tide_proc *b);

#endif
