/*
 * ctlcrypt.c: AES-256-GCM records with per-direction keys from HKDF and
 * a counter nonce (see ctlcrypt.h).
 */
#include "ctlcrypt.h"

#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>

#define KEY_LEN 32
#define IV_LEN 12

struct crypt_dir {
    EVP_CIPHER_CTX *ctx;
    uint8_t iv[IV_LEN];
    uint64_t seq;
};

struct tide_ctlcrypt {
    struct crypt_dir tx, rx;
    bool failed;
};

static int hkdf(const uint8_t *secret, size_t secretlen, const uint8_t *salt, size_t saltlen, const char *label,
                uint8_t *out, size_t outlen)
{
    char info[128];
    int il = snprintf(info, sizeof info, "tide-crypt v1 %s", label ? label : "");
    if (il < 0 || (size_t)il >= sizeof info)
        return -1;
    EVP_PKEY_CTX *k = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, NULL);
    int ok = k && EVP_PKEY_derive_init(k) == 1 && EVP_PKEY_CTX_set_hkdf_md(k, EVP_sha256()) == 1 &&
             EVP_PKEY_CTX_set1_hkdf_salt(k, salt, (int)saltlen) == 1 &&
             EVP_PKEY_CTX_set1_hkdf_key(k, secret, (int)secretlen) == 1 &&
             EVP_PKEY_CTX_add1_hkdf_info(k, (const unsigned char *)info, il) == 1 &&
             EVP_PKEY_derive(k, out, &outlen) == 1;
    EVP_PKEY_CTX_free(k);
    return ok ? 0 : -1;
}

static int dir_init(struct crypt_dir *d, const uint8_t *key, const uint8_t *iv, bool enc)
{
    d->ctx = EVP_CIPHER_CTX_new();
    if (!d->ctx)
        return -1;
    memcpy(d->iv, iv, IV_LEN);
    d->seq = 0;
    return EVP_CipherInit_ex(d->ctx, EVP_aes_256_gcm(), NULL, key, NULL, enc ? 1 : 0) == 1 ? 0 : -1;
}

struct tide_ctlcrypt *tide_ctlcrypt_new(const uint8_t *secret, size_t secretlen, const uint8_t *transcript,
                                        size_t tlen, const char *label, enum tide_crypt_role role)
{
    struct tide_ctlcrypt *c = calloc(1, sizeof *c);
    uint8_t km[2 * (KEY_LEN + IV_LEN)];
    if (!c || hkdf(secret, secretlen, transcript, tlen, label, km, sizeof km) != 0) {
        free(c);
        return NULL;
    }
    /* the first half seals what the initiator sends */
    const uint8_t *i2r = km, *r2i = km + KEY_LEN + IV_LEN;
    const uint8_t *txk = role == TIDE_CRYPT_INITIATOR ? i2r : r2i;
    const uint8_t *rxk = role == TIDE_CRYPT_INITIATOR ? r2i : i2r;
    int rc = dir_init(&c->tx, txk, txk + KEY_LEN, true);
    if (rc == 0)
        rc = dir_init(&c->rx, rxk, rxk + KEY_LEN, false);
    OPENSSL_cleanse(km, sizeof km);
    if (rc != 0) {
        tide_ctlcrypt_free(c);
        return NULL;
    }
    return c;
}

void tide_ctlcrypt_free(struct tide_ctlcrypt *c)
{
    if (!c)
        return;
    EVP_CIPHER_CTX_free(c->tx.ctx);
    EVP_CIPHER_CTX_free(c->rx.ctx);
    OPENSSL_cleanse(c, sizeof *c);
    free(c);
}

bool tide_ctlcrypt_usable(const struct tide_ctlcrypt *c)
{
    return c && !c->failed;
}

/* This record's nonce: the IV with the counter xored into its last 8 bytes. */
static void nonce_of(const struct crypt_dir *d, uint8_t nonce[IV_LEN])
{
    memcpy(nonce, d->iv, IV_LEN);
    for (int i = 0; i < 8; i++)
        nonce[IV_LEN - 1 - i] ^= (uint8_t)(d->seq >> (8 * i));
}

static void put_u32le(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

size_t tide_ctlcrypt_sealv(struct tide_ctlcrypt *c, const struct iovec *iov, int niov, uint8_t *out)
{
    size_t len = 0;
    for (int i = 0; i < niov; i++)
        len += iov[i].iov_len;
    if (!c || c->failed || len > TIDE_CRYPT_MAX_PLAIN || c->tx.seq == UINT64_MAX)
        goto fail;
    put_u32le(out, (uint32_t)len);
    uint8_t nonce[IV_LEN];
    nonce_of(&c->tx, nonce);
    int n;
    if (EVP_EncryptInit_ex(c->tx.ctx, NULL, NULL, NULL, nonce) != 1 ||
        EVP_EncryptUpdate(c->tx.ctx, NULL, &n, out, TIDE_CRYPT_HEADER) != 1)
        goto fail;
    uint8_t *p = out + TIDE_CRYPT_HEADER;
    for (int i = 0; i < niov; i++) {
        if (iov[i].iov_len == 0)
            continue;
        if (EVP_EncryptUpdate(c->tx.ctx, p, &n, iov[i].iov_base, (int)iov[i].iov_len) != 1)
            goto fail;
        p += n;
    }
    if (EVP_EncryptFinal_ex(c->tx.ctx, p, &n) != 1)
        goto fail;
    p += n;
    if (EVP_CIPHER_CTX_ctrl(c->tx.ctx, EVP_CTRL_GCM_GET_TAG, TIDE_CRYPT_TAG, p) != 1)
        goto fail;
    c->tx.seq++;
    return TIDE_CRYPT_HEADER + len + TIDE_CRYPT_TAG;
fail:
    if (c)
        c->failed = true;
    return 0;
}

size_t tide_ctlcrypt_seal(struct tide_ctlcrypt *c, const uint8_t *plain, size_t len, uint8_t *out)
{
    struct iovec v = {.iov_base = (void *)plain, .iov_len = len};
    return tide_ctlcrypt_sealv(c, &v, 1, out);
}

int tide_ctlcrypt_record_len(const uint8_t hdr[TIDE_CRYPT_HEADER], size_t max, size_t *plain_len)
{
    size_t len = (size_t)hdr[0] | (size_t)hdr[1] << 8 | (size_t)hdr[2] << 16 | (size_t)hdr[3] << 24;
    if (len > max || len > TIDE_CRYPT_MAX_PLAIN)
        return -1;
    *plain_len = len;
    return 0;
}

int tide_ctlcrypt_open(struct tide_ctlcrypt *c, const uint8_t *record, size_t reclen, uint8_t *plain)
{
    size_t len;
    if (!c || c->failed || reclen < TIDE_CRYPT_OVERHEAD ||
        tide_ctlcrypt_record_len(record, TIDE_CRYPT_MAX_PLAIN, &len) != 0 || len != reclen - TIDE_CRYPT_OVERHEAD ||
        c->rx.seq == UINT64_MAX)
        goto fail;
    uint8_t nonce[IV_LEN];
    nonce_of(&c->rx, nonce);
    int n;
    const uint8_t *tag = record + TIDE_CRYPT_HEADER + len;
    if (EVP_DecryptInit_ex(c->rx.ctx, NULL, NULL, NULL, nonce) != 1 ||
        EVP_DecryptUpdate(c->rx.ctx, NULL, &n, record, TIDE_CRYPT_HEADER) != 1 ||
        (len && EVP_DecryptUpdate(c->rx.ctx, plain, &n, record + TIDE_CRYPT_HEADER, (int)len) != 1) ||
        EVP_CIPHER_CTX_ctrl(c->rx.ctx, EVP_CTRL_GCM_SET_TAG, TIDE_CRYPT_TAG, (void *)tag) != 1 ||
        EVP_DecryptFinal_ex(c->rx.ctx, plain + len, &n) != 1) {
        if (len)
            OPENSSL_cleanse(plain, len);
        goto fail;
    }
    c->rx.seq++;
    return 0;
fail:
    if (c)
        c->failed = true;
    return -1;
}
