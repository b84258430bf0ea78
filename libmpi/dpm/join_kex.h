/*
 * join_kex.h: how the two ends of MPI_Comm_join agree on their LINK keys
 * without sending them: each sends a fresh X25519 public key over the
 * application's socket, both compute the same shared secret, and each
 * end's LINK key is derived from it (docs/SECURITY.md, "MPI_Comm_join").
 */
#ifndef TIDE_JOIN_KEX_H
#define TIDE_JOIN_KEX_H

#include "transport/tcp_auth.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TIDE_JOIN_PUB_LEN 32

struct tide_join_kex;

/* A fresh key pair; its public half into pub. NULL on failure. */
struct tide_join_kex *tide_join_kex_new(uint8_t pub[TIDE_JOIN_PUB_LEN]);
void tide_join_kex_free(struct tide_join_kex *k);

/* Both LINK keys of this join: ours (mine) and the other end's (theirs),
 * bound to both public keys and both names. -1 if the other end's public
 * key is ours (reflected) or unusable (small order), or OpenSSL fails. */
int tide_join_kex_keys(struct tide_join_kex *k, const uint8_t mypub[TIDE_JOIN_PUB_LEN], const char *myns,
                       uint32_t myrank, const uint8_t theirpub[TIDE_JOIN_PUB_LEN], const char *theirns,
                       uint32_t theirrank, uint8_t mine[TIDE_KEY_LEN], uint8_t theirs[TIDE_KEY_LEN]);

#endif
