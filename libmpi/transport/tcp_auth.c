/*
 * tcp_auth.c: HMAC-SHA256 proofs for the TCP handshake (tcp_auth.h).
 */
#include "transport/tcp_auth.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tide_auth_nonce(uint8_t nonce[TIDE_NONCE_LEN])
{
    if (RAND_bytes(nonce, TIDE_NONCE_LEN) != 1) {
        FILE *f = fopen("/dev/urandom", "rb");
        if (!f || fread(nonce, 1, TIDE_NONCE_LEN, f) != TIDE_NONCE_LEN)
            abort();
        fclose(f);
    }
}

void tide_auth_hello_mac(const uint8_t *token, size_t toklen, const uint8_t nonce[TIDE_NONCE_LEN],
                         const char *nspace, uint32_t rank, uint8_t mac[TIDE_MAC_LEN])
{
    uint8_t msg[TIDE_NONCE_LEN + 256 + 8 + 6];
    size_t nl = strlen(nspace);
    if (nl > 256)
        nl = 256;
    memcpy(msg, "hello:", 6);
    memcpy(msg + 6, nonce, TIDE_NONCE_LEN);
    memcpy(msg + 6 + TIDE_NONCE_LEN, nspace, nl);
    uint8_t r[4] = {(uint8_t)rank, (uint8_t)(rank >> 8), (uint8_t)(rank >> 16), (uint8_t)(rank >> 24)};
    memcpy(msg + 6 + TIDE_NONCE_LEN + nl, r, 4);
    unsigned len = TIDE_MAC_LEN;
    HMAC(EVP_sha256(), token, (int)toklen, msg, 6 + TIDE_NONCE_LEN + nl + 4, mac, &len);
}

void tide_auth_accept_mac(const uint8_t *token, size_t toklen, const uint8_t nonce[TIDE_NONCE_LEN],
                          uint8_t mac[TIDE_MAC_LEN])
{
    uint8_t msg[7 + TIDE_NONCE_LEN];
    memcpy(msg, "accept:", 7);
    memcpy(msg + 7, nonce, TIDE_NONCE_LEN);
    unsigned len = TIDE_MAC_LEN;
    HMAC(EVP_sha256(), token, (int)toklen, msg, sizeof msg, mac, &len);
}

int tide_auth_equal(const uint8_t *a, const uint8_t *b, size_t n)
{
    return CRYPTO_memcmp(a, b, n) == 0;
}
