/*
 * sender_check.h: what a process of another universe (met through
 * MPI_Comm_connect/accept or MPI_Comm_join) may send. Its envelopes
 * (EAGER, RTS) are taken only on the contexts of communicators that
 * include it (a communicator's id and the collective id after it), as
 * the rank it has there; on the DPM context always (the connect/accept
 * conversation, confined by the transport). An envelope on a context
 * this process has not installed yet is held (bounded per process) and
 * checked again when a communicator gets that context. Processes of our
 * own universe are not checked here.
 */
#ifndef TIDE_SENDER_CHECK_H
#define TIDE_SENDER_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/proc.h"

struct tide_hdr;
struct tide_comm;

enum { TIDE_UNIV_UNKNOWN = 0, TIDE_UNIV_OURS = 1, TIDE_UNIV_OTHER = 2 };

/* Held envelopes per process of another universe, at most */
#define TIDE_SENDER_HOLD_MAX 256
#define TIDE_SENDER_HOLD_BYTES (4u << 20)

/* Is p of another universe? (computed once) */
bool tide_sender_is_foreign(struct tide_proc *p);

enum { TIDE_SENDER_DROP = 0, TIDE_SENDER_ACCEPT = 1, TIDE_SENDER_HELD = 2 };

/* An envelope from `from`, a process not known to be of our universe:
 * TIDE_SENDER_ACCEPT (of our universe after all, or allowed),
 * TIDE_SENDER_HELD (kept for a context not installed yet) or
 * TIDE_SENDER_DROP. */
int tide_sender_check_envelope(struct tide_proc *from, const struct tide_hdr *h, const void *payload, size_t plen);

/* Does `from` pass for an envelope of our own universe? The one branch
 * on the path of every message. */
static inline bool tide_sender_trusted(const struct tide_proc *from)
{
    return __builtin_expect(from->universe == TIDE_UNIV_OURS, 1);
}

/* Communicator c has its context id and groups: its members of another
 * universe may send on its contexts; what they sent there early is
 * delivered now (through tide_protocol_incoming). */
void tide_sender_comm_installed(struct tide_comm *c);
/* c goes: its contexts are withdrawn. */
void tide_sender_comm_withdrawn(struct tide_comm *c);
/* Free everything (MPI_Finalize). */
void tide_sender_check_finalize(void);

/* Testing aid (test_forge.c): with the parameter test_forge_envelope =
 * R >= 0, after MPI_Comm_connect this process sends remote rank 0 of ic
 * one forged EAGER on MPI_COMM_WORLD's context, source R, tag
 * TIDE_TEST_FORGE_TAG, holding the int TIDE_TEST_FORGE_VALUE. */
#define TIDE_TEST_FORGE_TAG 78
#define TIDE_TEST_FORGE_VALUE 666
void tide_test_forge_envelope(struct tide_comm *ic);

#endif
