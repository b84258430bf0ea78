/*
 * tcp_auth.h: the TCP handshake's proofs. The acceptor challenges with a
 * nonce; the connector answers with HMAC-SHA256(acceptor's token, nonce,
 * connector's name) and its own nonce; the acceptor proves itself back
 * with HMAC-SHA256(its token, connector's nonce). Tokens travel only in
 * business cards (through PMIx), so only processes allowed to see a card
 * can connect to its owner.
 */
#ifndef TIDE_TCP_AUTH_H
#define TIDE_TCP_AUTH_H

#include <stddef.h>
#include <stdint.h>

#define TIDE_NONCE_LEN 16
#define TIDE_MAC_LEN 32

void tide_auth_nonce(uint8_t nonce[TIDE_NONCE_LEN]);
void tide_auth_hello_mac(const uint8_t *token, size_t toklen, const uint8_t nonce[TIDE_NONCE_LEN],
                         const char *nspace, uint32_t rank, uint8_t mac[TIDE_MAC_LEN]);
void tide_auth_accept_mac(const uint8_t *token, size_t toklen, const uint8_t nonce[TIDE_NONCE_LEN],
                          uint8_t mac[TIDE_MAC_LEN]);
/* Constant-time comparison. */
int tide_auth_equal(const uint8_t *a, const uint8_t *b, size_t n);

#endif
