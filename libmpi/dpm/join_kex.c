/*
 * join_kex.c: the key agreement of MPI_Comm_join (join_kex.h). X25519
 * with one fresh key pair per join (OpenSSL EVP); both LINK keys come
 * from the shared secret by HKDF-SHA256, salted with both public keys and
 * both names, so no key crosses the application's socket.
 */
#include "dpm/join_kex.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <stdlib.h>
#include <string.h>

struct tide_join_kex {
    EVP_PKEY *pair;
};

struct tide_join_kex *tide_join_kex_new(uint8_t pub[TIDE_JOIN_PUB_LEN])
{
    struct tide_join_kex *k = calloc(1, sizeof *k);
    EVP_PKEY_CTX *g = EVP_PKEY_CTX_new_id(EVP_PKEY_X25519, NULL);
    size_t pl = TIDE_JOIN_PUB_LEN;
    bool ok = k && g && EVP_PKEY_keygen_init(g) == 1 && EVP_PKEY_keygen(g, &k->pair) == 1 &&
              EVP_PKEY_get_raw_public_key(k->pair, pub, &pl) == 1 && pl == TIDE_JOIN_PUB_LEN;
    EVP_PKEY_CTX_free(g);
    if (!ok) {
        tide_join_kex_free(k);
        return NULL;
    }
    return k;
}

void tide_join_kex_free(struct tide_join_kex *k)
{
    if (!k)
        return;
    EVP_PKEY_free(k->pair);
    free(k);
}

/* HKDF-SHA256 of the shared secret: the LINK key of the end whose public
 * key is `owner` */
static int link_key(const uint8_t *ss, size_t sl, const uint8_t *salt, size_t saltlen,
                    const uint8_t owner[TIDE_JOIN_PUB_LEN], uint8_t out[TIDE_KEY_LEN])
{
    static const char label[] = "tide-join link key v1";
    uint8_t info[sizeof label + TIDE_JOIN_PUB_LEN];
    memcpy(info, label, sizeof label);
    memcpy(info + sizeof label, owner, TIDE_JOIN_PUB_LEN);
    size_t ol = TIDE_KEY_LEN;
    EVP_PKEY_CTX *k = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, NULL);
    int ok = k && EVP_PKEY_derive_init(k) == 1 && EVP_PKEY_CTX_set_hkdf_md(k, EVP_sha256()) == 1 &&
             EVP_PKEY_CTX_set1_hkdf_salt(k, salt, (int)saltlen) == 1 &&
             EVP_PKEY_CTX_set1_hkdf_key(k, ss, (int)sl) == 1 &&
             EVP_PKEY_CTX_add1_hkdf_info(k, info, (int)sizeof info) == 1 && EVP_PKEY_derive(k, out, &ol) == 1 &&
             ol == TIDE_KEY_LEN;
    EVP_PKEY_CTX_free(k);
    return ok ? 0 : -1;
}

/* name, rank of one end into the salt */
static size_t put_name(uint8_t *b, const char *ns, uint32_t rank)
{
    size_t n = strlen(ns) + 1;
    memcpy(b, ns, n);
    for (int i = 0; i < 4; i++)
        b[n + (size_t)i] = (uint8_t)(rank >> (8 * i));
    return n + 4;
}

int tide_join_kex_keys(struct tide_join_kex *k, const uint8_t mypub[TIDE_JOIN_PUB_LEN], const char *myns,
                       uint32_t myrank, const uint8_t theirpub[TIDE_JOIN_PUB_LEN], const char *theirns,
                       uint32_t theirrank, uint8_t mine[TIDE_KEY_LEN], uint8_t theirs[TIDE_KEY_LEN])
{
    int cmp = memcmp(mypub, theirpub, TIDE_JOIN_PUB_LEN);
    if (!k || cmp == 0 || strlen(myns) > 1024 || strlen(theirns) > 1024)
        return -1; /* our own key back: a reflection */
    EVP_PKEY *peer = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL, theirpub, TIDE_JOIN_PUB_LEN);
    EVP_PKEY_CTX *d = peer ? EVP_PKEY_CTX_new(k->pair, NULL) : NULL;
    uint8_t ss[32];
    size_t sl = sizeof ss;
    /* OpenSSL refuses a peer key of small order (an all-zero secret) */
    bool ok = d && EVP_PKEY_derive_init(d) == 1 && EVP_PKEY_derive_set_peer(d, peer) == 1 &&
              EVP_PKEY_derive(d, ss, &sl) == 1 && sl == sizeof ss;
    EVP_PKEY_CTX_free(d);
    EVP_PKEY_free(peer);
    uint8_t zero[sizeof ss] = {0};
    if (ok && CRYPTO_memcmp(ss, zero, sizeof ss) == 0)
        ok = false;
    /* salt: the lower public key and its owner's name, then the other's */
    uint8_t salt[2 * (TIDE_JOIN_PUB_LEN + 1024 + 1 + 4)];
    size_t n = 0;
    const uint8_t *lo = cmp < 0 ? mypub : theirpub, *hi = cmp < 0 ? theirpub : mypub;
    memcpy(salt + n, lo, TIDE_JOIN_PUB_LEN);
    n += TIDE_JOIN_PUB_LEN;
    n += cmp < 0 ? put_name(salt + n, myns, myrank) : put_name(salt + n, theirns, theirrank);
    memcpy(salt + n, hi, TIDE_JOIN_PUB_LEN);
    n += TIDE_JOIN_PUB_LEN;
    n += cmp < 0 ? put_name(salt + n, theirns, theirrank) : put_name(salt + n, myns, myrank);
    if (ok)
        ok = link_key(ss, sl, salt, n, mypub, mine) == 0 && link_key(ss, sl, salt, n, theirpub, theirs) == 0;
    OPENSSL_cleanse(ss, sizeof ss);
    return ok ? 0 : -1;
}
