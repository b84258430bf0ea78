/*
 * ctlcrypt.h: encryption of a link after its handshake. Every message is
 * sealed in a record with AES-256-GCM (OpenSSL EVP):
 *
 *   length u32le (of the plaintext) | ciphertext | tag[16]
 *
 * The length is the additional authenticated data. The keys and IVs of
 * the two directions are different and come from HKDF-SHA256 over a
 * secret both ends proved they hold, salted with the handshake's
 * transcript (both nonces, the names), so they are fresh for every link.
 * A record's nonce is its direction's IV xor a 64-bit counter that both
 * ends advance: a record replayed, reordered, dropped, reflected back or
 * tampered with fails its tag, and the first failure makes the link
 * unusable (every later seal or open fails too; the caller closes it).
 *
 * Used by the control links between mpiexec and the node daemons
 * (channel.c, ctlauth.c, ctllisten.c) and, with encrypt=1, by libmpi's
 * TCP transport.
 */
#ifndef TIDE_CTLCRYPT_H
#define TIDE_CTLCRYPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TIDE_CRYPT_HEADER 4
#define TIDE_CRYPT_TAG 16
#define TIDE_CRYPT_OVERHEAD (TIDE_CRYPT_HEADER + TIDE_CRYPT_TAG)
/* The longest plaintext a record may hold. */
#define TIDE_CRYPT_MAX_PLAIN ((64u << 20) + 4096)

struct tide_ctlcrypt;

/* The two ends of a link: each seals with the key the other opens with. */
enum tide_crypt_role { TIDE_CRYPT_INITIATOR = 0, TIDE_CRYPT_RESPONDER = 1 };

/* Keys for one end of a link. secret: what both ends proved they hold;
 * transcript: the handshake's bytes both ends saw (nonces, names);
 * label: which kind of link (keys of different kinds never meet).
 * NULL on failure (out of memory, OpenSSL). */
struct tide_ctlcrypt *tide_ctlcrypt_new(const uint8_t *secret, size_t secretlen, const uint8_t *transcript,
                                        size_t tlen, const char *label, enum tide_crypt_role role);
void tide_ctlcrypt_free(struct tide_ctlcrypt *c);

/* Seal len bytes (gathered from niov pieces) into out, which has room for
 * len + TIDE_CRYPT_OVERHEAD bytes. Returns the record's length, or 0 on
 * failure (the link is then unusable). */
size_t tide_ctlcrypt_seal(struct tide_ctlcrypt *c, const uint8_t *plain, size_t len, uint8_t *out);
struct iovec;
size_t tide_ctlcrypt_sealv(struct tide_ctlcrypt *c, const struct iovec *iov, int niov, uint8_t *out);

/* The plaintext length a record announces (its first TIDE_CRYPT_HEADER
 * bytes); -1 if above max (the link must then be closed). */
int tide_ctlcrypt_record_len(const uint8_t hdr[TIDE_CRYPT_HEADER], size_t max, size_t *plain_len);
/* Open one whole record of reclen bytes into plain (room for
 * reclen - TIDE_CRYPT_OVERHEAD). 0, or -1 if it is not the next record
 * sealed by the other end with our key (the link is then unusable). */
int tide_ctlcrypt_open(struct tide_ctlcrypt *c, const uint8_t *record, size_t reclen, uint8_t *plain);

/* False once a seal or an open has failed. */
bool tide_ctlcrypt_usable(const struct tide_ctlcrypt *c);

#endif
