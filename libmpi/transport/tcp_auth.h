/*
 * tcp_auth.h: the TCP handshake between ranks: its messages (encoded and
 * decoded here, with no other dependency than OpenSSL, so the decoder can
 * be fuzzed alone), its keys and its proofs.
 *
 *   listener  -> connector  CHALLENGE  magic, nonce_a
 *   connector -> listener   HELLO      magic, version, kind, who I am (from),
 *                                      whom I mean to reach (to), nonce_c,
 *                                      MAC(key of from, transcript)
 *   listener  -> connector  REPLY      magic, accepted, MAC(key of to, transcript)
 *
 * The transcript binds the kind, both nonces and both names, so a proof
 * is good for one connection to one listener only. What the key is
 * depends on the kind:
 *   RANK  both ends belong to one universe (a job and the jobs it spawned):
 *         K(ns, rank) = HMAC-SHA256(universe secret, "tide-rank-key v1" ||
 *         ns || 0 || rank); the connector proves K(from), the listener K(to).
 *   LINK  the ends met through connect/accept or join: each gave the other
 *         group a fresh random key of its own (peer_keys.h); each proves its
 *         own.
 *   PORT  the connector holds a port name: both prove the port's token.
 *         Such a connection carries only the connect/accept conversation,
 *         and may not claim a name of the listener's universe.
 */
#ifndef TIDE_TCP_AUTH_H
#define TIDE_TCP_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TIDE_NONCE_LEN 16
#define TIDE_MAC_LEN 32
#define TIDE_KEY_LEN 32
#define TIDE_SECRET_LEN 32
#define TIDE_PORT_KEY_LEN 16

#define TIDE_HS_MAGIC 0x32444354u /* "TCD2" */
#define TIDE_HS_VERSION 2
#define TIDE_HS_CHALLENGE_LEN (4 + TIDE_NONCE_LEN)
#define TIDE_HS_HELLO_FIXED (4 + 1 + 1 + 1 + 1 + 4 + 4 + TIDE_NONCE_LEN + TIDE_MAC_LEN)
#define TIDE_HS_HELLO_MAX (TIDE_HS_HELLO_FIXED + 2 * 255)
#define TIDE_HS_REPLY_LEN (4 + 1 + TIDE_MAC_LEN)

enum tide_auth_kind { TIDE_AUTH_RANK = 0, TIDE_AUTH_LINK = 1, TIDE_AUTH_PORT = 2 };

struct tide_hs_name {
    char nspace[256];
    uint32_t rank;
};

struct tide_hello {
    uint8_t kind;
    struct tide_hs_name from, to;
    uint8_t nonce_c[TIDE_NONCE_LEN];
    uint8_t mac[TIDE_MAC_LEN];
};

/* Fresh random bytes (OpenSSL RAND_bytes; aborts if there is no entropy). */
void tide_auth_random(uint8_t *out, size_t n);

/* Encoders; each returns the number of bytes written to out. */
size_t tide_hs_challenge_encode(const uint8_t nonce_a[TIDE_NONCE_LEN], uint8_t out[TIDE_HS_CHALLENGE_LEN]);
size_t tide_hs_hello_encode(const struct tide_hello *h, uint8_t out[TIDE_HS_HELLO_MAX]);
size_t tide_hs_reply_encode(bool accepted, const uint8_t mac[TIDE_MAC_LEN], uint8_t out[TIDE_HS_REPLY_LEN]);
/* Decoders of len received bytes: >0 the message's length (consumed),
 * 0 more bytes are needed, -1 malformed (close the connection). */
int tide_hs_challenge_decode(const uint8_t *b, size_t len, uint8_t nonce_a[TIDE_NONCE_LEN]);
int tide_hs_hello_decode(const uint8_t *b, size_t len, struct tide_hello *h);
int tide_hs_reply_decode(const uint8_t *b, size_t len, bool *accepted, uint8_t mac[TIDE_MAC_LEN]);

/* The proofs (key: TIDE_KEY_LEN bytes, or TIDE_PORT_KEY_LEN for PORT). */
void tide_hs_hello_mac(const uint8_t *key, size_t keylen, const uint8_t nonce_a[TIDE_NONCE_LEN],
                       const struct tide_hello *h, uint8_t mac[TIDE_MAC_LEN]);
void tide_hs_reply_mac(const uint8_t *key, size_t keylen, const uint8_t nonce_a[TIDE_NONCE_LEN],
                       const struct tide_hello *h, bool accepted, uint8_t mac[TIDE_MAC_LEN]);
/* Constant-time comparison. */
int tide_auth_equal(const uint8_t *a, const uint8_t *b, size_t n);

/* The universe secret (set once at start-up from PMIx) and the rank keys
 * derived from it. tide_auth_rank_key returns -1 without a secret. */
void tide_auth_set_secret(const uint8_t secret[TIDE_SECRET_LEN]);
bool tide_auth_have_secret(void);
/* A copy of the secret (to hand it on through PMIx); -1 without one. */
int tide_auth_copy_secret(uint8_t out[TIDE_SECRET_LEN]);
int tide_auth_rank_key(const char *nspace, uint32_t rank, uint8_t key[TIDE_KEY_LEN]);
void tide_auth_forget_secret(void);

/* Do two namespaces belong to one universe (started by one mpiexec:
 * "tide.<host>.<pid>.<job>" share everything before the job number)? */
bool tide_auth_same_universe(const char *a, const char *b);

/* Little-endian 32-bit fields of the handshake's frames. */
static inline void tide_auth_put32(uint8_t *b, uint32_t v)
{
    b[0] = (uint8_t)v;
    b[1] = (uint8_t)(v >> 8);
    b[2] = (uint8_t)(v >> 16);
    b[3] = (uint8_t)(v >> 24);
}

static inline uint32_t tide_auth_get32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

#endif
