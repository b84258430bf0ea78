/*
 * tcp_auth.c: the TCP handshake's messages, keys and proofs (tcp_auth.h).
 * Pure code over byte buffers and OpenSSL: no state of the library but the
 * universe secret, so the decoders can be fuzzed on their own.
 */
#include "tcp_auth.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint8_t secret[TIDE_SECRET_LEN];
static bool have_secret;

void tide_auth_random(uint8_t *out, size_t n)
{
    if (RAND_bytes(out, (int)n) != 1) {
        fprintf(stderr, "tide: no randomness available (RAND_bytes failed)\n");
        abort();
    }
}


/* ---- messages ---- */

size_t tide_hs_challenge_encode(const uint8_t nonce_a[TIDE_NONCE_LEN], uint8_t out[TIDE_HS_CHALLENGE_LEN])
{
    tide_auth_put32(out, TIDE_HS_MAGIC);
    memcpy(out + 4, nonce_a, TIDE_NONCE_LEN);
    return TIDE_HS_CHALLENGE_LEN;
}

int tide_hs_challenge_decode(const uint8_t *b, size_t len, uint8_t nonce_a[TIDE_NONCE_LEN])
{
    if (len >= 4 && tide_auth_get32(b) != TIDE_HS_MAGIC)
        return -1;
    if (len < TIDE_HS_CHALLENGE_LEN)
        return 0;
    memcpy(nonce_a, b + 4, TIDE_NONCE_LEN);
    return TIDE_HS_CHALLENGE_LEN;
}

size_t tide_hs_hello_encode(const struct tide_hello *h, uint8_t out[TIDE_HS_HELLO_MAX])
{
    size_t fl = strnlen(h->from.nspace, 255), tl = strnlen(h->to.nspace, 255);
    tide_auth_put32(out, TIDE_HS_MAGIC);
    out[4] = TIDE_HS_VERSION;
    out[5] = h->kind;
    out[6] = (uint8_t)fl;
    out[7] = (uint8_t)tl;
    tide_auth_put32(out + 8, h->from.rank);
    tide_auth_put32(out + 12, h->to.rank);
    memcpy(out + 16, h->nonce_c, TIDE_NONCE_LEN);
    memcpy(out + 16 + TIDE_NONCE_LEN, h->mac, TIDE_MAC_LEN);
    memcpy(out + TIDE_HS_HELLO_FIXED, h->from.nspace, fl);
    memcpy(out + TIDE_HS_HELLO_FIXED + fl, h->to.nspace, tl);
    return TIDE_HS_HELLO_FIXED + fl + tl;
}

/* A name travels as its bytes: printable ASCII, no NUL. */
static int name_ok(const uint8_t *s, size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] < 0x21 || s[i] > 0x7e)
            return 0;
    return 1;
}

int tide_hs_hello_decode(const uint8_t *b, size_t len, struct tide_hello *h)
{
    /* reject what is wrong as soon as it is visible */
    if (len >= 4 && tide_auth_get32(b) != TIDE_HS_MAGIC)
        return -1;
    if (len >= 5 && b[4] != TIDE_HS_VERSION)
        return -1;
    if (len >= 6 && b[5] > TIDE_AUTH_PORT)
        return -1;
    if (len >= 7 && b[6] == 0)
        return -1;
    if (len >= 8 && b[7] == 0)
        return -1;
    if (len < TIDE_HS_HELLO_FIXED)
        return 0;
    size_t fl = b[6], tl = b[7];
    if (len < TIDE_HS_HELLO_FIXED + fl + tl)
        return 0;
    const uint8_t *fn = b + TIDE_HS_HELLO_FIXED, *tn = fn + fl;
    if (!name_ok(fn, fl) || !name_ok(tn, tl))
        return -1;
    memset(h, 0, sizeof *h);
    h->kind = b[5];
    h->from.rank = tide_auth_get32(b + 8);
    h->to.rank = tide_auth_get32(b + 12);
    memcpy(h->nonce_c, b + 16, TIDE_NONCE_LEN);
    memcpy(h->mac, b + 16 + TIDE_NONCE_LEN, TIDE_MAC_LEN);
    memcpy(h->from.nspace, fn, fl);
    memcpy(h->to.nspace, tn, tl);
    return (int)(TIDE_HS_HELLO_FIXED + fl + tl);
}

size_t tide_hs_reply_encode(bool accepted, const uint8_t mac[TIDE_MAC_LEN], uint8_t out[TIDE_HS_REPLY_LEN])
{
    tide_auth_put32(out, TIDE_HS_MAGIC);
    out[4] = accepted ? 1 : 0;
    memcpy(out + 5, mac, TIDE_MAC_LEN);
    return TIDE_HS_REPLY_LEN;
}

int tide_hs_reply_decode(const uint8_t *b, size_t len, bool *accepted, uint8_t mac[TIDE_MAC_LEN])
{
    if (len >= 4 && tide_auth_get32(b) != TIDE_HS_MAGIC)
        return -1;
    if (len >= 5 && b[4] > 1)
        return -1;
    if (len < TIDE_HS_REPLY_LEN)
        return 0;
    *accepted = b[4] == 1;
    memcpy(mac, b + 5, TIDE_MAC_LEN);
    return TIDE_HS_REPLY_LEN;
}

/* ---- proofs ---- */

static void put_name(uint8_t *buf, size_t *n, const struct tide_hs_name *nm)
{
    size_t l = strnlen(nm->nspace, 255);
    buf[(*n)++] = (uint8_t)l;
    memcpy(buf + *n, nm->nspace, l);
    *n += l;
    tide_auth_put32(buf + *n, nm->rank);
    *n += 4;
}

static void transcript_mac(const char *label, const uint8_t *key, size_t keylen,
                           const uint8_t nonce_a[TIDE_NONCE_LEN], const struct tide_hello *h, int extra,
                           uint8_t mac[TIDE_MAC_LEN])
{
    uint8_t buf[32 + 1 + 2 * TIDE_NONCE_LEN + 2 * (1 + 255 + 4) + 1];
    size_t n = strlen(label);
    memcpy(buf, label, n);
    buf[n++] = h->kind;
    memcpy(buf + n, nonce_a, TIDE_NONCE_LEN);
    n += TIDE_NONCE_LEN;
    memcpy(buf + n, h->nonce_c, TIDE_NONCE_LEN);
    n += TIDE_NONCE_LEN;
    put_name(buf, &n, &h->from);
    put_name(buf, &n, &h->to);
    if (extra >= 0)
        buf[n++] = (uint8_t)extra;
    unsigned ml = TIDE_MAC_LEN;
    if (!HMAC(EVP_sha256(), key, (int)keylen, buf, n, mac, &ml))
        memset(mac, 0, TIDE_MAC_LEN); /* never equal to a real proof by chance */
}

void tide_hs_hello_mac(const uint8_t *key, size_t keylen, const uint8_t nonce_a[TIDE_NONCE_LEN],
                       const struct tide_hello *h, uint8_t mac[TIDE_MAC_LEN])
{
    transcript_mac("tide-hello v2", key, keylen, nonce_a, h, -1, mac);
}

void tide_hs_reply_mac(const uint8_t *key, size_t keylen, const uint8_t nonce_a[TIDE_NONCE_LEN],
                       const struct tide_hello *h, bool accepted, uint8_t mac[TIDE_MAC_LEN])
{
    transcript_mac("tide-reply v2", key, keylen, nonce_a, h, accepted ? 1 : 0, mac);
}

int tide_auth_equal(const uint8_t *a, const uint8_t *b, size_t n)
{
    return CRYPTO_memcmp(a, b, n) == 0;
}

/* ---- the universe secret ---- */

void tide_auth_set_secret(const uint8_t s[TIDE_SECRET_LEN])
{
    memcpy(secret, s, TIDE_SECRET_LEN);
    have_secret = true;
}

bool tide_auth_have_secret(void)
{
    return have_secret;
}

int tide_auth_copy_secret(uint8_t out[TIDE_SECRET_LEN])
{
    if (!have_secret)
        return -1;
    memcpy(out, secret, TIDE_SECRET_LEN);
    return 0;
}

void tide_auth_forget_secret(void)
{
    OPENSSL_cleanse(secret, sizeof secret);
    have_secret = false;
}

int tide_auth_rank_key(const char *nspace, uint32_t rank, uint8_t key[TIDE_KEY_LEN])
{
    if (!have_secret)
        return -1;
    static const char label[] = "tide-rank-key v1";
    uint8_t buf[sizeof label + 256 + 4];
    size_t l = strnlen(nspace, 255), n = sizeof label - 1;
    memcpy(buf, label, n);
    memcpy(buf + n, nspace, l);
    n += l;
    buf[n++] = 0;
    tide_auth_put32(buf + n, rank);
    n += 4;
    unsigned ml = TIDE_KEY_LEN;
    if (!HMAC(EVP_sha256(), secret, sizeof secret, buf, n, key, &ml))
        return -1;
    return 0;
}

/* "tide.<host>.<pid>.<job>": the universe is all but the last part; any
 * other name (a singleton's) is a universe of its own */
static size_t universe_len(const char *ns)
{
    if (strncmp(ns, "tide.", 5) != 0)
        return strlen(ns);
    const char *dot = strrchr(ns, '.');
    return (size_t)(dot - ns);
}

bool tide_auth_same_universe(const char *a, const char *b)
{
    size_t la = universe_len(a), lb = universe_len(b);
    return la == lb && memcmp(a, b, la) == 0;
}
