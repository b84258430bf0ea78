/*
 * peer_keys.h: what this process holds to authenticate to processes of
 * other universes (tcp_auth.h): for each such peer met through
 * connect/accept or join, the LINK keys both sides gave each other, and
 * for a peer whose port this process connects to, the port's token.
 * Keys are never kept for processes of this process's own universe: those
 * authenticate with rank keys only, whatever another group claims.
 */
#ifndef TIDE_PEER_KEYS_H
#define TIDE_PEER_KEYS_H

#include <stdbool.h>
#include <stdint.h>

#include "transport/tcp_auth.h"

struct tide_proc;

/* A fresh key to give another group (one per connect/accept or join). */
void tide_peer_keys_new_link(uint8_t key[TIDE_KEY_LEN]);
/* p was met through a bridge: mine is the key this process gave p's
 * group, theirs the one p gave ours. Ignored (returns -1) for p of our
 * own universe. */
int tide_peer_keys_set_link(struct tide_proc *p, const uint8_t mine[TIDE_KEY_LEN],
                            const uint8_t theirs[TIDE_KEY_LEN]);
int tide_peer_keys_link(const struct tide_proc *p, uint8_t mine[TIDE_KEY_LEN], uint8_t theirs[TIDE_KEY_LEN]);
/* The token of p's port this process is connecting to (for PORT kind). */
void tide_peer_keys_set_port(struct tide_proc *p, const uint8_t token[TIDE_PORT_KEY_LEN]);
int tide_peer_keys_port(const struct tide_proc *p, uint8_t token[TIDE_PORT_KEY_LEN]);
void tide_peer_keys_forget(const struct tide_proc *p);
void tide_peer_keys_clear(void);

#endif
