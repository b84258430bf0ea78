/*
 * pmix_gate.h: the gate in front of libpmix's TCP listener (pmix_gate.c).
 * libpmix 4.2.2 reads a new peer's connection message with blocking reads
 * on its progress thread, so one silent peer stalls the whole server. The
 * gate accepts connections itself, drops peers of another uid, peers that
 * send garbage and peers that have not sent a complete connection message
 * within a deadline, caps those still pending, and hands libpmix only
 * connections whose connection message is already there.
 */
#ifndef TIDED_PMIX_GATE_H
#define TIDED_PMIX_GATE_H

/* Arm the gate: the next TCP listen() of this process (libpmix's, inside
 * PMIx_server_init) is gated. auth_timeout_ms: how long a peer has to send
 * its connection message; max_pending: connections kept waiting for one
 * (beyond it the oldest is dropped). */
void pmix_gate_arm(int auth_timeout_ms, int max_pending);
/* Whether the gate took over a listener (0 after a failed or no listen). */
int pmix_gate_active(void);
/* libpmix 4.2.2 releases a client's rank record twice when the client
 * dies during the connection handshake (its error path and the peer's
 * destructor both do), and any later use of that namespace then
 * deadlocks its progress thread. The gate hands over no connection
 * whose peer has gone, and counts hand-overs against clients reported
 * connected (pmix_gate_note_connected, from client_connected), so that
 * tided holds back signals to ranks not yet connected while a handshake
 * may be under way (pmix_gate_handshaking: 1 then, for at most a second
 * after the last hand-over). */
void pmix_gate_note_connected(void);
int pmix_gate_handshaking(void);
/* Stop the gate thread and close every connection it holds. */
void pmix_gate_stop(void);

#endif
