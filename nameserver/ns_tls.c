/*
 * ns_tls.c: the TLS identity of tide-nameserver. At start-up it makes a
 * P-256 key and a self-signed certificate in memory (or reuses the ones
 * saved with --persist), and the server context that presents them. The
 * certificate's SHA-256 fingerprint goes into the URI: clients pin it, so
 * no certificate authority is involved.
 */
#include "nameserver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

static void ssl_err(char *err, size_t errlen, const char *what)
{
    char buf[256];
    unsigned long e = ERR_get_error();
    ERR_error_string_n(e, buf, sizeof buf);
    snprintf(err, errlen, "%s: %s", what, e ? buf : "unknown OpenSSL error");
    ERR_clear_error();
}

static X509 *make_cert(EVP_PKEY *key)
{
    X509 *x = X509_new();
    if (!x)
        return NULL;
    unsigned char serial[16];
    BIGNUM *bn = NULL;
    int ok = X509_set_version(x, 2) && tide_ns_random(serial, sizeof serial) == 0;
    serial[0] &= 0x7f; /* positive */
    if (ok)
        ok = (bn = BN_bin2bn(serial, sizeof serial, NULL)) != NULL &&
             BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(x)) != NULL;
    BN_free(bn);
    ok = ok && X509_gmtime_adj(X509_getm_notBefore(x), -3600) &&
         X509_time_adj_ex(X509_getm_notAfter(x), 3650, 0, NULL) && X509_set_pubkey(x, key);
    X509_NAME *name = ok ? X509_get_subject_name(x) : NULL;
    ok = ok && name &&
         X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)"tide-nameserver",
                                    -1, -1, 0) &&
         X509_set_issuer_name(x, name) && X509_sign(x, key, EVP_sha256()) > 0;
    if (!ok) {
        X509_free(x);
        return NULL;
    }
    return x;
}

static char *to_pem(EVP_PKEY *key, X509 *cert)
{
    BIO *b = BIO_new(BIO_s_mem());
    char *out = NULL;
    if (b && PEM_write_bio_PrivateKey(b, key, NULL, NULL, 0, NULL, NULL) && PEM_write_bio_X509(b, cert)) {
        char *p;
        long n = BIO_get_mem_data(b, &p);
        out = n > 0 ? malloc((size_t)n + 1) : NULL;
        if (out) {
            memcpy(out, p, (size_t)n);
            out[n] = '\0';
        }
    }
    BIO_free(b);
    return out;
}

int ns_tls_setup(struct ns_server *s, char *err, size_t errlen)
{
    EVP_PKEY *key = NULL;
    X509 *cert = NULL;
    int rc = -1;
    if (s->id.pem) {
        BIO *b = BIO_new_mem_buf(s->id.pem, -1);
        if (b) {
            key = PEM_read_bio_PrivateKey(b, NULL, NULL, NULL);
            cert = key ? PEM_read_bio_X509(b, NULL, NULL, NULL) : NULL;
            BIO_free(b);
        }
        if (!key || !cert) {
            ssl_err(err, errlen, "the saved TLS key or certificate cannot be read");
            goto out;
        }
    } else {
        key = EVP_EC_gen("P-256");
        cert = key ? make_cert(key) : NULL;
        if (!cert) {
            ssl_err(err, errlen, "cannot make the TLS key and certificate");
            goto out;
        }
        s->id.pem = to_pem(key, cert);
        if (!s->id.pem) {
            ssl_err(err, errlen, "cannot encode the TLS key");
            goto out;
        }
    }
    if (tide_ns_cert_fingerprint(cert, s->fingerprint) != 0) {
        ssl_err(err, errlen, "cannot compute the certificate fingerprint");
        goto out;
    }
    SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
    if (!ctx || !SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION) ||
        SSL_CTX_use_certificate(ctx, cert) != 1 || SSL_CTX_use_PrivateKey(ctx, key) != 1 ||
        SSL_CTX_check_private_key(ctx) != 1) {
        ssl_err(err, errlen, "cannot set up TLS");
        SSL_CTX_free(ctx);
        goto out;
    }
    SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL); /* clients prove themselves with the secret */
    SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
    /* idle connections (a flood of silent ones too) hold no TLS buffers */
    SSL_CTX_set_mode(ctx, SSL_MODE_RELEASE_BUFFERS);
    s->ssl_ctx = ctx;
    rc = 0;
out:
    EVP_PKEY_free(key);
    X509_free(cert);
    return rc;
}

void ns_tls_fini(struct ns_server *s)
{
    SSL_CTX_free(s->ssl_ctx);
    s->ssl_ctx = NULL;
}
