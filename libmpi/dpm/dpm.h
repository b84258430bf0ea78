/*
 * dpm.h: dynamic process management inside libmpi: ports, the bridge
 * that joins two groups into an intercommunicator, spawn, names.
 *
 * Two groups meet through their leaders. The leaders talk point-to-point
 * on a reserved context (TIDE_CONTEXT_DPM) over the ordinary transports,
 * with each other's business card taken from the port name (connect/
 * accept, possibly between separate mpiexec universes) or from PMIx
 * (spawn). The leaders swap their groups' member lists (names and cards)
 * and context-id masks, pick a context id free on both sides, and each
 * broadcasts the result to its group; then everyone builds the same
 * intercommunicator.
 */
#ifndef TIDE_DPM_H
#define TIDE_DPM_H

#include <stddef.h>
#include <stdint.h>

#include "mpi.h"

struct tide_comm;
struct tide_proc;

#define TIDE_CONTEXT_DPM 4u
#include "dpm/port_name.h"

/* Encode/parse port names ("tide-port:..."); parse returns -1 if malformed. */
int tide_port_format(const struct tide_port *p, char *out, size_t len);
int tide_port_parse(const char *name, struct tide_port *p);
/* Is this token one of our open ports (or an internal spawn port)? */
int tide_port_is_open(const uint8_t token[TIDE_PORT_TOKEN_LEN]);
/* The i-th open port's token (for the transport's PORT handshake); -1
 * past the last. */
int tide_port_open_token(int i, uint8_t token[TIDE_PORT_TOKEN_LEN]);
/* Open an internal port (for spawn); returns its token. */
void tide_port_open_internal(uint8_t token[TIDE_PORT_TOKEN_LEN]);
void tide_port_close_token(const uint8_t token[TIDE_PORT_TOKEN_LEN]);
int tide_port_tag(const uint8_t token[TIDE_PORT_TOKEN_LEN]);

/* Connect/accept of comm's group (collective over comm). The root's port
 * (and, for connect, the target) matter; timeout in seconds (<=0: none).
 * pre_status (accept): an error the root already knows (a failed spawn):
 * the group is told and nobody waits.
 * On success *inter is the new intercommunicator. Returns an MPI error
 * code (MPI_ERR_PORT for a bad/closed port or a timeout). */
int tide_dpm_accept(const uint8_t token[TIDE_PORT_TOKEN_LEN], int root, struct tide_comm *comm, double timeout,
                    int pre_status, struct tide_comm **inter, const char *fn);
int tide_dpm_connect(const struct tide_port *port, int root, struct tide_comm *comm, double timeout,
                     struct tide_comm **inter, const char *fn);

/* Testing aid (parameter test_print_keys): print a key this process made
 * or learned for a connect/accept, spawn or join to stderr, in hex, so
 * that a test can look for it on the wire. Nothing when the parameter is
 * 0 (the default). */
void tide_dpm_test_print_key(const char *what, const uint8_t *key, size_t len);

/* Make p reachable without PMIx: give it its card (from a port name or a
 * member list). */
void tide_dpm_set_card(struct tide_proc *p, const char *card);
/* Drop transport state kept for p (after MPI_Comm_disconnect). */
void tide_dpm_forget(struct tide_proc *p);
/* Let the runtime drop what it keeps about the namespaces of procs other
 * than ours (every process in procs calls it with the same list). */
void tide_dpm_forget_nspaces(struct tide_proc *const *procs, int n);

/* Spawned side: connect to the parent during MPI_Init. */
int tide_dpm_init_child(void);
struct tide_comm *tide_dpm_parent(void);
void tide_dpm_clear_parent(struct tide_comm *c);
void tide_dpm_wait_singleton_runs(void);
int tide_dpm_init(void);
void tide_dpm_finalize(void);
void tide_ports_finalize(void);

/* A spawn waits for the processes of nspace (NULL: done waiting): the
 * wait ends if one of them is reported failed (bridge.c). */
void tide_dpm_expect_nspace(const char *nspace);

#endif
