/*
 * ctlauth.h: authentication of control links between mpiexec and the node
 * daemons of other hosts. Both ends hold the job's control secret (made
 * by mpiexec with RAND_bytes and handed to each daemon on its stdin); a
 * link is trusted only after a mutual HMAC-SHA256 challenge bound to both
 * nonces and to the node the daemon claims to be:
 *
 *   listener -> daemon   "TIDECTL1" | nonce_l[32]                     (40 bytes)
 *   daemon   -> listener "TIDECTL1" | nonce_d[32] | node u32le | mac_d  (76 bytes)
 *   listener -> daemon   mac_l                                         (32 bytes)
 *
 * mac_d = HMAC(secret, "tide-ctl daemon"   | nonce_l | nonce_d | node)
 * mac_l = HMAC(secret, "tide-ctl listener" | nonce_l | nonce_d | node)
 *
 * The listener reads nothing but the 76-byte answer until it has checked
 * it; the daemon reads no frame until it has checked mac_l. Everything
 * after the exchange is sealed (ctlcrypt.h) with keys from
 * HKDF(secret, salt nonce_l | nonce_d | node), one per direction, so the
 * link is private and a frame injected, replayed or reordered closes it. The listening
 * side (ctllisten.c) runs on libevent with a deadline and a cap on peers
 * still authenticating; the daemon's side is a blocking exchange with a
 * deadline (it has nothing else to do until it is connected).
 */
#ifndef TIDE_CTLAUTH_H
#define TIDE_CTLAUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tide_ctlcrypt;

#define TIDE_CTL_SECRET_LEN 32
#define TIDE_CTLAUTH_NONCE 32
#define TIDE_CTLAUTH_MAC 32
#define TIDE_CTLAUTH_CHALLENGE_LEN (8 + TIDE_CTLAUTH_NONCE)
#define TIDE_CTLAUTH_ANSWER_LEN (8 + TIDE_CTLAUTH_NONCE + 4 + TIDE_CTLAUTH_MAC)
#define TIDE_CTLAUTH_PROOF_LEN TIDE_CTLAUTH_MAC

/* Fill buf with n random bytes (OpenSSL). 0 or -1. */
int tide_ctlauth_random(uint8_t *buf, size_t n);

/* The listener's first message, with a fresh nonce kept in nonce_l. */
int tide_ctlauth_challenge(uint8_t out[TIDE_CTLAUTH_CHALLENGE_LEN], uint8_t nonce_l[TIDE_CTLAUTH_NONCE]);
/* Check a daemon's answer to our challenge. On success: 0, the claimed
 * node in *node and our proof in proof. -1 if it is not from a holder of
 * the secret. */
int tide_ctlauth_check_answer(const uint8_t secret[TIDE_CTL_SECRET_LEN],
                              const uint8_t nonce_l[TIDE_CTLAUTH_NONCE],
                              const uint8_t answer[TIDE_CTLAUTH_ANSWER_LEN], uint32_t *node,
                              uint8_t proof[TIDE_CTLAUTH_PROOF_LEN]);

/* The keys of the link a successful exchange opened, for its listening
 * end (listener true) or its daemon's end. NULL on failure. */
struct tide_ctlcrypt *tide_ctlauth_keys(const uint8_t secret[TIDE_CTL_SECRET_LEN],
                                        const uint8_t nonce_l[TIDE_CTLAUTH_NONCE],
                                        const uint8_t nonce_d[TIDE_CTLAUTH_NONCE], uint32_t node, bool listener);

/* The daemon's side over a connected socket: answer the challenge as
 * `node` and check the listener's proof, all within timeout_ms. 0 with
 * the link's keys in *crypt, or -1 with a reason in err. */
int tide_ctlauth_connect(int fd, const uint8_t secret[TIDE_CTL_SECRET_LEN], uint32_t node, int timeout_ms,
                         struct tide_ctlcrypt **crypt, char *err, size_t errlen);

/* Hex forms of the secret, for the daemon's stdin. */
void tide_ctlauth_hex(const uint8_t secret[TIDE_CTL_SECRET_LEN], char out[2 * TIDE_CTL_SECRET_LEN + 1]);
int tide_ctlauth_unhex(const char *hex, uint8_t secret[TIDE_CTL_SECRET_LEN]);

#endif
