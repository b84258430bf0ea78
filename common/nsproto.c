/*
 * nsproto.c: the tide-nameserver protocol: frame encoders and decoders,
 * request limits, the HMAC-SHA256 proofs, URIs, URI and secret files, and
 * the per-user default service's directory. See nsproto.h.
 */
#include "nsproto.h"
#include "hex.h"
#include "safefs.h"

#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/x509.h>

const char *tide_ns_strstatus(int status)
{
    switch (status) {
    case TIDE_NS_OK: return "success";
    case TIDE_NS_NOT_FOUND: return "name not found";
    case TIDE_NS_DUPLICATE: return "name already published";
    case TIDE_NS_NOT_OWNER: return "name published by another owner";
    case TIDE_NS_TOO_LONG: return "argument too long";
    case TIDE_NS_BAD_REQUEST: return "malformed request";
    case TIDE_NS_AUTH: return "authentication failed";
    case TIDE_NS_VERSION: return "protocol version not supported";
    case TIDE_NS_FULL: return "name server full";
    case TIDE_NS_UNSUPPORTED: return "request not supported by the name server";
    case TIDE_NS_INTERNAL: return "name server internal error";
    case TIDE_NS_TIMEOUT: return "name server did not answer in time";
    case TIDE_NS_UNREACHABLE: return "name server unreachable";
    case TIDE_NS_TLS: return "TLS failure (wrong server certificate?)";
    case TIDE_NS_CLOSED: return "name server connection closed";
    case TIDE_NS_NOMEM: return "out of memory";
    default: return "unknown name server status";
    }
}

/* ---- decoding ---- */

void tide_ns_msg_clear(struct tide_ns_msg *m)
{
    free(m->service);
    free(m->port);
    free(m->owner);
    free(m->value);
    free(m->message);
    free(m->client);
    for (uint32_t i = 0; m->set_service && i < m->nset; i++)
        free(m->set_service[i]);
    free(m->set_service);
    free(m->set_cred);
    memset(m, 0, sizeof *m);
}

static void get_fixed(struct tide_rbuf *r, uint8_t *out, size_t want)
{
    size_t n = 0;
    const void *p = tide_wire_get_bytes(r, &n);
    if (!tide_wire_ok(r))
        return;
    if (n != want) {
        r->bad = 1;
        return;
    }
    memcpy(out, p, n);
}

/* a MAC field: empty (none) or exactly TIDE_NS_MAC_LEN bytes */
static void get_mac(struct tide_rbuf *r, struct tide_ns_msg *m)
{
    size_t n = 0;
    const void *p = tide_wire_get_bytes(r, &n);
    if (!tide_wire_ok(r))
        return;
    if (n == 0)
        return;
    if (n != TIDE_NS_MAC_LEN) {
        r->bad = 1;
        return;
    }
    memcpy(m->mac, p, n);
    m->has_mac = 1;
}

/* a credential (or key) field: empty (none) or exactly TIDE_NS_CRED_LEN bytes */
static void get_cred(struct tide_rbuf *r, uint8_t out[TIDE_NS_CRED_LEN], int *has)
{
    size_t n = 0;
    const void *p = tide_wire_get_bytes(r, &n);
    if (!tide_wire_ok(r) || n == 0)
        return;
    if (n != TIDE_NS_CRED_LEN) {
        r->bad = 1;
        return;
    }
    memcpy(out, p, n);
    *has = 1;
}

/* UNPUBLISH_SET's list: at most TIDE_NS_MAX_SET pairs, each credential present */
static void get_set(struct tide_rbuf *r, struct tide_ns_msg *m)
{
    uint32_t n = tide_wire_get_u32(r);
    if (!tide_wire_ok(r))
        return;
    /* each pair takes at least 8 bytes: a count beyond what is left is a lie */
    if (n > TIDE_NS_MAX_SET || (size_t)n * 8 > r->len - r->pos) {
        r->bad = 1;
        return;
    }
    if (n == 0)
        return;
    m->set_service = calloc(n, sizeof *m->set_service);
    m->set_cred = calloc(n, sizeof *m->set_cred);
    if (!m->set_service || !m->set_cred) {
        r->bad = 1;
        return;
    }
    m->nset = n;
    for (uint32_t i = 0; i < n && tide_wire_ok(r); i++) {
        m->set_service[i] = tide_wire_get_str(r);
        int has = 0;
        get_cred(r, m->set_cred[i], &has);
        if (tide_wire_ok(r) && !has)
            r->bad = 1;
    }
}

int tide_ns_decode(uint16_t type, struct tide_rbuf *r, struct tide_ns_msg *m)
{
    memset(m, 0, sizeof *m);
    m->type = type;
    int allow_trailing = 0;
    switch (type) {
    case TIDE_NS_SERVER_HELLO:
        m->version = tide_wire_get_u16(r);
        get_fixed(r, m->nonce, TIDE_NS_NONCE_LEN);
        m->flags = tide_wire_get_u32(r);
        allow_trailing = m->version > TIDE_NS_PROTO_VERSION;
        break;
    case TIDE_NS_HELLO:
        m->version = tide_wire_get_u16(r);
        get_fixed(r, m->nonce, TIDE_NS_NONCE_LEN);
        get_mac(r, m);
        m->client = tide_wire_get_str(r);
        allow_trailing = m->version > TIDE_NS_PROTO_VERSION;
        break;
    case TIDE_NS_WELCOME:
        m->status = tide_wire_get_u16(r);
        get_mac(r, m);
        m->message = tide_wire_get_str(r);
        break;
    case TIDE_NS_PUBLISH:
        m->id = tide_wire_get_u32(r);
        m->flags = tide_wire_get_u32(r);
        m->service = tide_wire_get_str(r);
        m->port = tide_wire_get_str(r);
        m->owner = tide_wire_get_str(r);
        get_cred(r, m->cred, &m->has_cred);
        break;
    case TIDE_NS_LOOKUP:
        m->id = tide_wire_get_u32(r);
        m->service = tide_wire_get_str(r);
        m->wait_ms = tide_wire_get_u32(r);
        break;
    case TIDE_NS_UNPUBLISH:
        m->id = tide_wire_get_u32(r);
        m->service = tide_wire_get_str(r);
        get_cred(r, m->cred, &m->has_cred);
        break;
    case TIDE_NS_UNPUBLISH_SET:
        m->id = tide_wire_get_u32(r);
        get_set(r, m);
        break;
    case TIDE_NS_PING:
    case TIDE_NS_STATUS:
        m->id = tide_wire_get_u32(r);
        break;
    case TIDE_NS_REPLY:
        m->id = tide_wire_get_u32(r);
        m->status = tide_wire_get_u16(r);
        m->value = tide_wire_get_str(r);
        m->count = tide_wire_get_u64(r);
        m->message = tide_wire_get_str(r);
        get_cred(r, m->cred, &m->has_cred);
        break;
    default: {
        uint32_t id = tide_wire_get_u32(r);
        memset(m, 0, sizeof *m);
        m->type = type;
        m->id = id;
        return TIDE_NS_UNSUPPORTED;
    }
    }
    if (allow_trailing ? !tide_wire_ok(r) : !tide_wire_done(r)) {
        uint16_t t = m->type;
        tide_ns_msg_clear(m);
        m->type = t;
        return TIDE_NS_BAD_REQUEST;
    }
    return TIDE_NS_OK;
}

static int check_one(const char *what, const char *s, size_t max, const char *limit_name, char *why,
                     size_t whylen)
{
    if (!s || !*s) {
        snprintf(why, whylen, "the %s is missing or empty", what);
        return TIDE_NS_BAD_REQUEST;
    }
    size_t n = strlen(s);
    if (n > max) {
        snprintf(why, whylen, "the %s is %zu bytes long; the limit is %zu (%s)", what, n, max,
                 limit_name);
        return TIDE_NS_TOO_LONG;
    }
    return TIDE_NS_OK;
}

int tide_ns_check_args(const char *service, const char *port, const char *owner, char *why,
                       size_t whylen)
{
    int rc;
    if (service && (rc = check_one("service name", service, TIDE_NS_MAX_SERVICE,
                                   "MPI_MAX_INFO_VAL - 1", why, whylen)) != TIDE_NS_OK)
        return rc;
    if (port && (rc = check_one("port name", port, TIDE_NS_MAX_PORT, "MPI_MAX_PORT_NAME - 1", why,
                                whylen)) != TIDE_NS_OK)
        return rc;
    if (owner && (rc = check_one("owner", owner, TIDE_NS_MAX_OWNER, "1023 bytes", why, whylen)) !=
                     TIDE_NS_OK)
        return rc;
    return TIDE_NS_OK;
}

int tide_ns_check_request(const struct tide_ns_msg *m, char *why, size_t whylen)
{
    /* a missing string is checked as an empty one */
    const char *svc = m->service ? m->service : "";
    const char *port = m->port ? m->port : "";
    const char *own = m->owner ? m->owner : "";
    switch (m->type) {
    case TIDE_NS_PUBLISH: {
        int rc = tide_ns_check_args(svc, port, own, why, whylen);
        if (rc == TIDE_NS_OK && !m->has_cred) {
            snprintf(why, whylen, "the publish key is missing (%d random bytes)", TIDE_NS_CRED_LEN);
            rc = TIDE_NS_BAD_REQUEST;
        }
        return rc;
    }
    case TIDE_NS_LOOKUP: return tide_ns_check_args(svc, NULL, NULL, why, whylen);
    case TIDE_NS_UNPUBLISH: return tide_ns_check_args(svc, NULL, NULL, why, whylen);
    case TIDE_NS_UNPUBLISH_SET:
        for (uint32_t i = 0; i < m->nset; i++) {
            int rc = tide_ns_check_args(m->set_service[i] ? m->set_service[i] : "", NULL, NULL, why,
                                        whylen);
            if (rc != TIDE_NS_OK)
                return rc;
        }
        return TIDE_NS_OK;
    case TIDE_NS_PING:
    case TIDE_NS_STATUS: return TIDE_NS_OK;
    default:
        snprintf(why, whylen, "frame type 0x%x is not a request", m->type);
        return TIDE_NS_BAD_REQUEST;
    }
}

/* ---- encoding ---- */

void tide_ns_enc_server_hello(struct tide_wbuf *w, const uint8_t nonce[TIDE_NS_NONCE_LEN],
                              uint32_t flags)
{
    tide_wire_begin(w, TIDE_NS_SERVER_HELLO);
    tide_wire_put_u16(w, TIDE_NS_PROTO_VERSION);
    tide_wire_put_bytes(w, nonce, TIDE_NS_NONCE_LEN);
    tide_wire_put_u32(w, flags);
}

void tide_ns_enc_hello(struct tide_wbuf *w, const uint8_t nonce[TIDE_NS_NONCE_LEN],
                       const uint8_t *mac, const char *client)
{
    tide_wire_begin(w, TIDE_NS_HELLO);
    tide_wire_put_u16(w, TIDE_NS_PROTO_VERSION);
    tide_wire_put_bytes(w, nonce, TIDE_NS_NONCE_LEN);
    tide_wire_put_bytes(w, mac, mac ? TIDE_NS_MAC_LEN : 0);
    tide_wire_put_str(w, client);
}

void tide_ns_enc_welcome(struct tide_wbuf *w, uint16_t status, const uint8_t *mac,
                         const char *message)
{
    tide_wire_begin(w, TIDE_NS_WELCOME);
    tide_wire_put_u16(w, status);
    tide_wire_put_bytes(w, mac, mac ? TIDE_NS_MAC_LEN : 0);
    tide_wire_put_str(w, message);
}

void tide_ns_enc_publish(struct tide_wbuf *w, uint32_t id, uint32_t flags, const char *service,
                         const char *port, const char *owner, const uint8_t *key)
{
    tide_wire_begin(w, TIDE_NS_PUBLISH);
    tide_wire_put_u32(w, id);
    tide_wire_put_u32(w, flags);
    tide_wire_put_str(w, service);
    tide_wire_put_str(w, port);
    tide_wire_put_str(w, owner);
    tide_wire_put_bytes(w, key, key ? TIDE_NS_CRED_LEN : 0);
}

void tide_ns_enc_lookup(struct tide_wbuf *w, uint32_t id, const char *service, uint32_t wait_ms)
{
    tide_wire_begin(w, TIDE_NS_LOOKUP);
    tide_wire_put_u32(w, id);
    tide_wire_put_str(w, service);
    tide_wire_put_u32(w, wait_ms);
}

void tide_ns_enc_unpublish(struct tide_wbuf *w, uint32_t id, const char *service,
                           const uint8_t *cred)
{
    tide_wire_begin(w, TIDE_NS_UNPUBLISH);
    tide_wire_put_u32(w, id);
    tide_wire_put_str(w, service);
    tide_wire_put_bytes(w, cred, cred ? TIDE_NS_CRED_LEN : 0);
}

void tide_ns_enc_unpublish_set(struct tide_wbuf *w, uint32_t id, uint32_t n,
                               const char *const *services, const uint8_t (*creds)[TIDE_NS_CRED_LEN])
{
    tide_wire_begin(w, TIDE_NS_UNPUBLISH_SET);
    tide_wire_put_u32(w, id);
    tide_wire_put_u32(w, n);
    for (uint32_t i = 0; i < n; i++) {
        tide_wire_put_str(w, services[i]);
        tide_wire_put_bytes(w, creds[i], TIDE_NS_CRED_LEN);
    }
}

void tide_ns_enc_ping(struct tide_wbuf *w, uint32_t id)
{
    tide_wire_begin(w, TIDE_NS_PING);
    tide_wire_put_u32(w, id);
}

void tide_ns_enc_status(struct tide_wbuf *w, uint32_t id)
{
    tide_wire_begin(w, TIDE_NS_STATUS);
    tide_wire_put_u32(w, id);
}

void tide_ns_enc_reply(struct tide_wbuf *w, uint32_t id, uint16_t status, const char *value,
                       uint64_t count, const char *message, const uint8_t *cred)
{
    tide_wire_begin(w, TIDE_NS_REPLY);
    tide_wire_put_u32(w, id);
    tide_wire_put_u16(w, status);
    tide_wire_put_str(w, value);
    tide_wire_put_u64(w, count);
    tide_wire_put_str(w, message);
    tide_wire_put_bytes(w, cred, cred ? TIDE_NS_CRED_LEN : 0);
}

/* ---- credentials ---- */

int tide_ns_cred_derive(const uint8_t cred_key[TIDE_NS_CRED_LEN], const char *service,
                        const uint8_t key[TIDE_NS_CRED_LEN], uint8_t cred[TIDE_NS_CRED_LEN])
{
    static const char label[] = "tide-ns cred v2";
    size_t ll = sizeof label - 1, sl = strlen(service) + 1;
    uint8_t msg[sizeof label + TIDE_NS_MAX_SERVICE + 1 + TIDE_NS_CRED_LEN];
    if (sl > TIDE_NS_MAX_SERVICE + 1)
        return -1;
    memcpy(msg, label, ll);
    memcpy(msg + ll, service, sl);
    memcpy(msg + ll + sl, key, TIDE_NS_CRED_LEN);
    unsigned int outlen = 0;
    int ok = HMAC(EVP_sha256(), cred_key, TIDE_NS_CRED_LEN, msg, ll + sl + TIDE_NS_CRED_LEN, cred,
                  &outlen) != NULL &&
             outlen == TIDE_NS_CRED_LEN;
    OPENSSL_cleanse(msg, sizeof msg);
    return ok ? 0 : -1;
}

int tide_ns_cred_hash(const uint8_t cred[TIDE_NS_CRED_LEN], uint8_t hash[TIDE_NS_CRED_LEN])
{
    unsigned int n = 0;
    return EVP_Digest(cred, TIDE_NS_CRED_LEN, hash, &n, EVP_sha256(), NULL) && n == TIDE_NS_CRED_LEN
               ? 0
               : -1;
}

/* ---- authentication ---- */

static int proof(const char *label, const uint8_t *secret, size_t secret_len, const uint8_t *n1,
                 const uint8_t *n2, const char *fp, uint8_t mac[TIDE_NS_MAC_LEN])
{
    size_t ll = strlen(label), fl = fp ? strlen(fp) : 0;
    uint8_t msg[64 + 2 * TIDE_NS_NONCE_LEN + TIDE_NS_FP_HEX];
    if (ll > 64 || fl > TIDE_NS_FP_HEX || !secret || secret_len == 0)
        return -1;
    memcpy(msg, label, ll);
    memcpy(msg + ll, n1, TIDE_NS_NONCE_LEN);
    memcpy(msg + ll + TIDE_NS_NONCE_LEN, n2, TIDE_NS_NONCE_LEN);
    if (fl)
        memcpy(msg + ll + 2 * TIDE_NS_NONCE_LEN, fp, fl);
    unsigned int outlen = 0;
    if (!HMAC(EVP_sha256(), secret, (int)secret_len, msg, ll + 2 * TIDE_NS_NONCE_LEN + fl, mac,
              &outlen) ||
        outlen != TIDE_NS_MAC_LEN)
        return -1;
    return 0;
}

int tide_ns_client_mac(const uint8_t *secret, size_t secret_len,
                       const uint8_t server_nonce[TIDE_NS_NONCE_LEN],
                       const uint8_t client_nonce[TIDE_NS_NONCE_LEN], const char *fp,
                       uint8_t mac[TIDE_NS_MAC_LEN])
{
    return proof("tide-ns client v1", secret, secret_len, server_nonce, client_nonce, fp, mac);
}

int tide_ns_server_mac(const uint8_t *secret, size_t secret_len,
                       const uint8_t server_nonce[TIDE_NS_NONCE_LEN],
                       const uint8_t client_nonce[TIDE_NS_NONCE_LEN], const char *fp,
                       uint8_t mac[TIDE_NS_MAC_LEN])
{
    return proof("tide-ns server v1", secret, secret_len, client_nonce, server_nonce, fp, mac);
}

int tide_ns_mac_equal(const uint8_t a[TIDE_NS_MAC_LEN], const uint8_t b[TIDE_NS_MAC_LEN])
{
    return CRYPTO_memcmp(a, b, TIDE_NS_MAC_LEN) == 0;
}

int tide_ns_random(void *buf, size_t len)
{
    return RAND_bytes(buf, (int)len) == 1 ? 0 : -1;
}

int tide_ns_cert_fingerprint(struct x509_st *cert, char out[TIDE_NS_FP_HEX + 1])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (!cert || !X509_digest(cert, EVP_sha256(), md, &n) || n != TIDE_NS_FP_HEX / 2)
        return -1;
    tide_hex(md, n, out);
    return 0;
}

/* ---- URIs ---- */

#define URI_TCP "tide-ns://"
#define URI_UNIX "tide-ns+unix://"

int tide_ns_uri_parse(const char *s, struct tide_ns_uri *u, char *err, size_t errlen)
{
    memset(u, 0, sizeof *u);
    if (!s) {
        snprintf(err, errlen, "no name server URI");
        return -1;
    }
    if (strncmp(s, URI_UNIX, strlen(URI_UNIX)) == 0) {
        const char *p = s + strlen(URI_UNIX);
        if (*p != '/' || strlen(p) >= sizeof u->path) {
            snprintf(err, errlen, "bad name server URI '%.200s': expected %s/ABSOLUTE/PATH (under %zu bytes)",
                     s, URI_UNIX, sizeof u->path);
            return -1;
        }
        u->kind = TIDE_NS_URI_UNIX;
        snprintf(u->path, sizeof u->path, "%s", p);
        return 0;
    }
    if (strncmp(s, URI_TCP, strlen(URI_TCP)) != 0) {
        snprintf(err, errlen,
                 "bad name server URI '%.200s': expected tide-ns://HOST:PORT/#sha256=FINGERPRINT "
                 "or tide-ns+unix://PATH",
                 s);
        return -1;
    }
    const char *p = s + strlen(URI_TCP);
    const char *hend;
    bool bracketed = *p == '[';
    if (bracketed) {
        hend = strchr(p, ']');
        if (!hend || hend[1] != ':')
            goto bad;
        p++;
    } else {
        hend = strchr(p, ':');
        if (!hend)
            goto bad;
    }
    size_t hl = (size_t)(hend - p);
    if (hl == 0 || hl >= sizeof u->host)
        goto bad;
    /* a name or an address: letters, digits, '.', '-', '_'; in brackets
     * an IPv6 address (it has a ':'), with its zone after '%' */
    if (bracketed && !memchr(p, ':', hl))
        goto bad;
    for (size_t i = 0; i < hl; i++) {
        unsigned char c = (unsigned char)p[i];
        if (!isalnum(c) && c != '.' && c != '-' && c != '_' && !(bracketed && (c == ':' || c == '%')))
            goto bad;
    }
    memcpy(u->host, p, hl);
    u->host[hl] = '\0';
    p = hend + (*hend == ']' ? 2 : 1);
    unsigned long port = 0;
    int digits = 0;
    while (isdigit((unsigned char)*p) && digits < 6) {
        port = port * 10 + (unsigned long)(*p - '0');
        p++;
        digits++;
    }
    if (digits == 0 || port == 0 || port > 65535)
        goto bad;
    u->port = (unsigned)port;
    if (*p == '/')
        p++;
    if (strncmp(p, "#sha256=", 8) != 0) {
        snprintf(err, errlen,
                 "name server URI '%.200s' has no #sha256= certificate fingerprint (take the URI "
                 "from the file tide-nameserver writes)",
                 s);
        return -1;
    }
    p += 8;
    if (strlen(p) != TIDE_NS_FP_HEX) {
        snprintf(err, errlen, "name server URI '%.200s': the fingerprint must be %d hex digits", s,
                 TIDE_NS_FP_HEX);
        return -1;
    }
    for (int i = 0; i < TIDE_NS_FP_HEX; i++) {
        if (!isxdigit((unsigned char)p[i])) {
            snprintf(err, errlen, "name server URI '%.200s': the fingerprint must be hex", s);
            return -1;
        }
        u->fingerprint[i] = (char)tolower((unsigned char)p[i]);
    }
    u->kind = TIDE_NS_URI_TCP;
    return 0;
bad:
    snprintf(err, errlen, "bad name server URI '%.200s': expected tide-ns://HOST:PORT/#sha256=FINGERPRINT",
             s);
    return -1;
}

int tide_ns_uri_format(const struct tide_ns_uri *u, char *out, size_t outlen)
{
    int n;
    if (u->kind == TIDE_NS_URI_UNIX)
        n = snprintf(out, outlen, "%s%s", URI_UNIX, u->path);
    else if (strchr(u->host, ':'))
        n = snprintf(out, outlen, "%s[%s]:%u/#sha256=%s", URI_TCP, u->host, u->port, u->fingerprint);
    else
        n = snprintf(out, outlen, "%s%s:%u/#sha256=%s", URI_TCP, u->host, u->port, u->fingerprint);
    return (n < 0 || (size_t)n >= outlen) ? -1 : 0;
}

/* ---- files ---- */

/* Read a small text file; heap string (caller frees) or NULL with err set. */
static char *read_small(const char *path, struct stat *st, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode) || st->st_size > 65536) {
        snprintf(err, errlen, "%s is not a small regular file", path);
        close(fd);
        return NULL;
    }
    char *buf = malloc((size_t)st->st_size + 1);
    if (!buf) {
        snprintf(err, errlen, "out of memory");
        close(fd);
        return NULL;
    }
    size_t got = 0;
    while (got < (size_t)st->st_size) {
        ssize_t n = read(fd, buf + got, (size_t)st->st_size - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    buf[got] = '\0';
    if (memchr(buf, '\0', got)) {
        snprintf(err, errlen, "%s holds binary data", path);
        free(buf);
        return NULL;
    }
    return buf;
}

static int check_private(const char *path, const struct stat *st, char *err, size_t errlen)
{
    if (st->st_uid != geteuid() || (st->st_mode & 077)) {
        snprintf(err, errlen,
                 "%s holds a secret but is not private (owner uid %u, mode %03o): it must belong to "
                 "you with mode 0600",
                 path, (unsigned)st->st_uid, (unsigned)(st->st_mode & 0777));
        return -1;
    }
    return 0;
}

/* find "key=" at the start of a line; returns the value (trimmed) copied into out */
static int find_key(const char *text, const char *key, char *out, size_t outlen)
{
    size_t kl = strlen(key);
    for (const char *line = text; line && *line;) {
        const char *eol = strchr(line, '\n');
        size_t ll = eol ? (size_t)(eol - line) : strlen(line);
        if (ll > kl && strncmp(line, key, kl) == 0 && line[kl] == '=') {
            const char *v = line + kl + 1;
            size_t vl = ll - kl - 1;
            while (vl && isspace((unsigned char)v[vl - 1]))
                vl--;
            if (vl >= outlen)
                return -1;
            memcpy(out, v, vl);
            out[vl] = '\0';
            return 1;
        }
        line = eol ? eol + 1 : NULL;
    }
    return 0;
}

static int parse_secret_line(const char *path, const char *text, uint8_t *secret, size_t *secret_len,
                             char *err, size_t errlen)
{
    char hex[2 * TIDE_NS_SECRET_MAX + 2];
    int f = find_key(text, "secret", hex, sizeof hex);
    if (f == 0)
        return 0;
    int n = f < 0 ? -1 : tide_unhex(hex, secret, TIDE_NS_SECRET_MAX);
    if (n < TIDE_NS_SECRET_MIN) {
        snprintf(err, errlen, "%s: the secret= line must hold %d to %d hex-encoded bytes", path,
                 TIDE_NS_SECRET_MIN, TIDE_NS_SECRET_MAX);
        return -1;
    }
    *secret_len = (size_t)n;
    return 1;
}

int tide_ns_urifile_parse(const char *path, const char *text, char *uri, size_t urilen,
                          uint8_t *secret, size_t *secret_len, char *err, size_t errlen)
{
    *secret_len = 0;
    size_t l = strcspn(text, "\r\n");
    while (l && isspace((unsigned char)text[l - 1]))
        l--;
    const char *start = text;
    while (l && isspace((unsigned char)*start)) {
        start++;
        l--;
    }
    if (l == 0 || l >= urilen) {
        snprintf(err, errlen, "%s does not start with a name server URI", path);
        return -1;
    }
    memcpy(uri, start, l);
    uri[l] = '\0';
    return parse_secret_line(path, text, secret, secret_len, err, errlen);
}

int tide_ns_urifile_read(const char *path, char *uri, size_t urilen, uint8_t *secret,
                         size_t *secret_len, char *err, size_t errlen)
{
    struct stat st;
    char *text = read_small(path, &st, err, errlen);
    if (!text)
        return -1;
    int rc = tide_ns_urifile_parse(path, text, uri, urilen, secret, secret_len, err, errlen);
    if (rc > 0 && check_private(path, &st, err, errlen) != 0)
        rc = -1;
    OPENSSL_cleanse(text, strlen(text));
    free(text);
    return rc < 0 ? -1 : 0;
}

int tide_ns_secret_parse(const char *path, const char *text, uint8_t *secret, size_t *secret_len,
                         char *err, size_t errlen)
{
    int rc = parse_secret_line(path, text, secret, secret_len, err, errlen);
    if (rc != 0)
        return rc < 0 ? -1 : 0;
    size_t n = strlen(text);
    while (n && isspace((unsigned char)text[n - 1]))
        n--;
    if (n < TIDE_NS_SECRET_MIN || n > TIDE_NS_SECRET_MAX) {
        snprintf(err, errlen, "the secret in %s must be %d to %d bytes long (it is %zu)", path,
                 TIDE_NS_SECRET_MIN, TIDE_NS_SECRET_MAX, n);
        return -1;
    }
    memcpy(secret, text, n);
    *secret_len = n;
    return 0;
}

int tide_ns_secret_load(const char *path, uint8_t *secret, size_t *secret_len, char *err,
                        size_t errlen)
{
    struct stat st;
    char *text = read_small(path, &st, err, errlen);
    if (!text)
        return -1;
    int rc = check_private(path, &st, err, errlen);
    if (rc == 0)
        rc = tide_ns_secret_parse(path, text, secret, secret_len, err, errlen);
    OPENSSL_cleanse(text, strlen(text));
    free(text);
    return rc < 0 ? -1 : 0;
}

/* ---- the per-user default service ---- */

static int check_dir(const char *dir, char *err, size_t errlen)
{
    struct stat st;
    if (lstat(dir, &st) != 0) {
        int e = errno;
        snprintf(err, errlen, "cannot use %s: %s", dir, strerror(e));
        errno = e; /* callers tell "not there yet" (ENOENT) from other failures */
        return -1;
    }
    if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077)) {
        snprintf(err, errlen,
                 "refusing to use %s for the name service: it must be a directory that belongs to "
                 "you with mode 0700 (owner uid %u, mode %03o)",
                 dir, (unsigned)st.st_uid, (unsigned)(st.st_mode & 0777));
        errno = EPERM;
        return -1;
    }
    return 0;
}

/* $XDG_RUNTIME_DIR when it names a private directory of ours (systemd
 * makes it per user, 0700, on a tmpfs only the user can write). */
static bool xdg_usable(const char *xdg)
{
    if (!xdg || *xdg != '/')
        return false;
    int fd = tide_safe_open_dir(xdg);
    if (fd < 0)
        return false;
    close(fd);
    return true;
}

/* Our home directory, opened: $HOME, else the password database's; it
 * must be a directory owned by us (it may be open to others to read). */
static int open_home(char *home, size_t homelen, char *err, size_t errlen)
{
    const char *h = getenv("HOME");
    if (!h || *h != '/') {
        struct passwd *pw = getpwuid(geteuid());
        h = pw ? pw->pw_dir : NULL;
    }
    if (!h || *h != '/' || (size_t)snprintf(home, homelen, "%s", h) >= homelen) {
        snprintf(err, errlen,
                 "no place for the per-user name service: no home directory (set XDG_RUNTIME_DIR or "
                 "TIDE_NS_DIR to a private directory)");
        errno = EPERM;
        return -1;
    }
    int fd = open(home, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_uid != geteuid()) {
        int e = fd < 0 ? errno : EPERM;
        snprintf(err, errlen,
                 "no place for the per-user name service: the home directory %s is %s (set "
                 "XDG_RUNTIME_DIR or TIDE_NS_DIR to a private directory)",
                 home, fd < 0 ? strerror(e) : "not yours");
        if (fd >= 0)
            close(fd);
        errno = e == ENOENT ? EPERM : e; /* not "nothing listens yet" */
        return -1;
    }
    return fd;
}

/* HOME/.tide/ns-HOST, made (create) or opened, every level checked:
 * a place only this user can make, and one per host when homes are
 * shared by hosts. */
static int home_dir(char *dir, size_t dirlen, int create, char *err, size_t errlen)
{
    char home[4096], host[65] = "";
    if (gethostname(host, sizeof host - 1) != 0 || !host[0])
        snprintf(host, sizeof host, "localhost");
    host[strcspn(host, ".")] = '\0';
    for (char *p = host; *p; p++)
        if (*p == '/' || *p <= ' ')
            *p = '_';
    int hfd = open_home(home, sizeof home, err, errlen);
    if (hfd < 0)
        return -1;
    char leaf[80];
    snprintf(leaf, sizeof leaf, "ns-%s", host);
    int n = snprintf(dir, dirlen, "%s%s.tide/%s", home, home[strlen(home) - 1] == '/' ? "" : "/", leaf);
    if (n < 0 || (size_t)n >= dirlen) {
        close(hfd);
        snprintf(err, errlen, "name service directory path too long");
        errno = ENAMETOOLONG;
        return -1;
    }
    int tfd = create ? tide_safe_mkdir_at(hfd, ".tide", true) : tide_safe_open_dir_at(hfd, ".tide");
    int e = errno;
    close(hfd);
    int dfd = -1;
    if (tfd >= 0) {
        dfd = create ? tide_safe_mkdir_at(tfd, leaf, true) : tide_safe_open_dir_at(tfd, leaf);
        e = errno;
        close(tfd);
    }
    if (dfd < 0) {
        if (e == ENOENT)
            snprintf(err, errlen, "cannot use %s: %s", dir, strerror(e));
        else
            snprintf(err, errlen,
                     "refusing to use %s for the name service: it and %s.tide must be directories that "
                     "belong to you with mode 0700 (%s)",
                     dir, home, strerror(e));
        errno = e;
        return -1;
    }
    close(dfd);
    return 0;
}

int tide_ns_user_dir(char *dir, size_t dirlen, int create, char *err, size_t errlen)
{
    const char *env = getenv("TIDE_NS_DIR");
    const char *xdg = getenv("XDG_RUNTIME_DIR");
    int n;
    if (env && *env)
        n = snprintf(dir, dirlen, "%s", env);
    else if (xdg_usable(xdg))
        n = snprintf(dir, dirlen, "%s/tide", xdg);
    else
        return home_dir(dir, dirlen, create, err, errlen);
    if (n < 0 || (size_t)n >= dirlen) {
        snprintf(err, errlen, "name service directory path too long");
        return -1;
    }
    if (create && mkdir(dir, 0700) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "cannot make %s: %s", dir, strerror(errno));
        return -1;
    }
    return check_dir(dir, err, errlen);
}

int tide_ns_user_paths(char *sock, size_t socklen, char *lock, size_t locklen, int create, char *err,
                       size_t errlen)
{
    char dir[4096];
    if (tide_ns_user_dir(dir, sizeof dir, create, err, errlen) != 0)
        return -1;
    /* a unix socket path must fit sockaddr_un's 108 bytes */
    int n1 = snprintf(sock, socklen, "%s/ns.sock", dir);
    int n2 = snprintf(lock, locklen, "%s/ns.lock", dir);
    if (n1 < 0 || (size_t)n1 >= socklen || n1 >= 108 || n2 < 0 || (size_t)n2 >= locklen) {
        snprintf(err, errlen, "name service socket path %s/ns.sock is too long (limit 107 bytes)", dir);
        return -1;
    }
    return 0;
}
