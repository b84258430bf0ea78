/*
 * ns_raw.c: a hostile tide-nameserver client for the test suite. It speaks
 * the protocol by hand (blocking sockets, OpenSSL directly) so it can send
 * what the client library never would: random bytes, truncated and
 * corrupted frames, requests before authentication, a wrong proof,
 * arguments over the limits, oversized frames. Exits 0 when the server
 * answered each abuse the way it should (an error reply or hanging up) and
 * never stopped answering.
 *
 *   ns_raw --uri URI|@FILE [--seed N] MODE [COUNT]
 *   modes: garbage N, plain-garbage N, fuzz N, truncated N, noauth,
 *          wrong-secret, limits, old-version (a version-1 hello),
 *          credentials (wrong, missing and malformed credentials)
 */
#include "nsproto.h"

#include <errno.h>
#include <signal.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

static struct tide_ns_uri uri;
static uint8_t secret[TIDE_NS_SECRET_MAX];
static size_t secret_len;
static SSL_CTX *ctx;
static const uint8_t some_key[TIDE_NS_CRED_LEN] = "a publish key of 32 bytes.......";
static uint64_t rng = 88172645463325252ull;

static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

struct conn {
    int fd;
    SSL *ssl;
};

static int conn_open(struct conn *c, int tls)
{
    c->ssl = NULL;
    if (uri.kind == TIDE_NS_URI_UNIX) {
        c->fd = socket(AF_UNIX, SOCK_STREAM, 0);
        struct sockaddr_un sun = {.sun_family = AF_UNIX};
        snprintf(sun.sun_path, sizeof sun.sun_path, "%s", uri.path);
        if (c->fd < 0 || connect(c->fd, (struct sockaddr *)&sun, sizeof sun) != 0) {
            perror("ns_raw: connect");
            return -1;
        }
    } else {
        char port[16];
        snprintf(port, sizeof port, "%u", uri.port);
        struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *res;
        if (getaddrinfo(uri.host, port, &hints, &res) != 0)
            return -1;
        c->fd = socket(res->ai_family, SOCK_STREAM, 0);
        int rc = c->fd < 0 ? -1 : connect(c->fd, res->ai_addr, res->ai_addrlen);
        freeaddrinfo(res);
        if (rc != 0) {
            perror("ns_raw: connect");
            return -1;
        }
    }
    struct timeval tv = {3, 0};
    setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(c->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    if (tls && uri.kind == TIDE_NS_URI_TCP) {
        c->ssl = SSL_new(ctx);
        SSL_set_fd(c->ssl, c->fd);
        if (SSL_connect(c->ssl) != 1) {
            fprintf(stderr, "ns_raw: TLS handshake failed\n");
            return -1;
        }
    }
    return 0;
}

static void conn_close(struct conn *c)
{
    if (c->ssl) {
        SSL_shutdown(c->ssl);
        SSL_free(c->ssl);
    }
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
    c->ssl = NULL;
}

static int io_write(struct conn *c, const void *p, size_t n)
{
    if (c->ssl)
        return SSL_write(c->ssl, p, (int)n) == (int)n ? 0 : -1;
    const char *q = p;
    while (n) {
        ssize_t w = send(c->fd, q, n, MSG_NOSIGNAL);
        if (w <= 0)
            return -1;
        q += w;
        n -= (size_t)w;
    }
    return 0;
}

static int io_read(struct conn *c, void *p, size_t n)
{
    char *q = p;
    while (n) {
        int r = c->ssl ? SSL_read(c->ssl, q, (int)n) : (int)recv(c->fd, q, n, 0);
        if (r <= 0)
            return -1;
        q += r;
        n -= (size_t)r;
    }
    return 0;
}

/* one frame, decoded; -1 when the server hung up (or said nothing for 3 s) */
static int read_msg(struct conn *c, struct tide_ns_msg *m)
{
    uint8_t hdr[TIDE_WIRE_HEADER];
    uint16_t type;
    uint32_t len;
    if (io_read(c, hdr, sizeof hdr) != 0 || tide_wire_header(hdr, &type, &len) != 0 || len > 1000000)
        return -1;
    uint8_t *buf = malloc(len ? len : 1);
    if (io_read(c, buf, len) != 0) {
        free(buf);
        return -1;
    }
    struct tide_rbuf r;
    tide_wire_reader(&r, buf, len);
    int rc = tide_ns_decode(type, &r, m);
    free(buf);
    return rc == TIDE_NS_OK ? 0 : -1;
}

static int send_frame(struct conn *c, struct tide_wbuf *w)
{
    int rc = tide_wire_finish(w) == 0 ? io_write(c, w->data, w->len) : -1;
    tide_wire_free(w);
    return rc;
}

/* hello with the right proof (or a wrong one); returns the WELCOME status or -1 */
static int handshake(struct conn *c, int wrong)
{
    struct tide_ns_msg m;
    if (read_msg(c, &m) != 0 || m.type != TIDE_NS_SERVER_HELLO)
        return -1;
    uint8_t snonce[TIDE_NS_NONCE_LEN], cnonce[TIDE_NS_NONCE_LEN], mac[TIDE_NS_MAC_LEN];
    memcpy(snonce, m.nonce, sizeof snonce);
    int need = (m.flags & TIDE_NS_AUTH_SECRET) != 0;
    tide_ns_msg_clear(&m);
    tide_ns_random(cnonce, sizeof cnonce);
    const char *fp = uri.kind == TIDE_NS_URI_TCP ? uri.fingerprint : "";
    if (need)
        tide_ns_client_mac(secret, secret_len, snonce, cnonce, fp, mac);
    if (wrong)
        mac[0] ^= 1;
    struct tide_wbuf w;
    tide_ns_enc_hello(&w, cnonce, need || wrong ? mac : NULL, "ns_raw");
    if (send_frame(c, &w) != 0 || read_msg(c, &m) != 0 || m.type != TIDE_NS_WELCOME)
        return -1;
    int st = m.status;
    tide_ns_msg_clear(&m);
    return st;
}

/* we send nothing more: the server must not wait for the rest of a frame */
static void half_close(struct conn *c)
{
    if (c->ssl)
        SSL_shutdown(c->ssl);
    else
        shutdown(c->fd, SHUT_WR);
}

/* read until the server hangs up; 1 if it did, 0 if it kept talking (timeout) */
static int hung_up(struct conn *c)
{
    char buf[4096];
    for (;;) {
        int r = c->ssl ? SSL_read(c->ssl, buf, sizeof buf) : (int)recv(c->fd, buf, sizeof buf, 0);
        if (r == 0)
            return 1;
        if (r < 0) {
            int e = c->ssl ? SSL_get_error(c->ssl, r) : 0;
            if (errno == EAGAIN || errno == EWOULDBLOCK || e == SSL_ERROR_WANT_READ)
                return 0;
            return 1; /* reset or TLS close: hung up */
        }
    }
}

/* the server must still answer a ping on a fresh, well-behaved connection */
static int alive(void)
{
    struct conn c;
    if (conn_open(&c, 1) != 0 || handshake(&c, 0) != TIDE_NS_OK) {
        conn_close(&c);
        return 0;
    }
    struct tide_wbuf w;
    tide_ns_enc_ping(&w, 99);
    struct tide_ns_msg m;
    int ok = send_frame(&c, &w) == 0 && read_msg(&c, &m) == 0 && m.type == TIDE_NS_REPLY &&
             m.id == 99 && m.status == TIDE_NS_OK;
    if (ok)
        tide_ns_msg_clear(&m);
    conn_close(&c);
    return ok;
}

/* a valid request frame of a random kind */
static void sample_frame(struct tide_wbuf *w)
{
    switch (rnd() % 6) {
    case 0: tide_ns_enc_publish(w, 1, 0, "fuzz-service", "fuzz-port", "fuzz-owner", some_key); break;
    case 1: tide_ns_enc_lookup(w, 2, "fuzz-service", 0); break;
    case 2: tide_ns_enc_unpublish(w, 3, "fuzz-service", some_key); break;
    case 3: {
        const char *svc[1] = {"fuzz-service"};
        tide_ns_enc_unpublish_set(w, 4, 1, svc, (const uint8_t(*)[TIDE_NS_CRED_LEN])some_key);
        break;
    }
    case 4: tide_ns_enc_status(w, 5); break;
    default: tide_ns_enc_ping(w, 6); break;
    }
    tide_wire_finish(w);
}

static int fail(const char *what)
{
    printf("ns_raw: FAILED: %s\n", what);
    return 1;
}

/* the reply to request id must have this status; cred (may be NULL) gets
 * the credential it carried */
static int expect_reply_cred(struct conn *c, uint32_t id, int status, const char *what,
                             uint8_t *cred)
{
    struct tide_ns_msg m;
    if (read_msg(c, &m) != 0)
        return fail(what);
    int ok = m.type == TIDE_NS_REPLY && m.id == id && m.status == status;
    if (ok && cred) {
        ok = m.has_cred;
        memcpy(cred, m.cred, TIDE_NS_CRED_LEN);
    }
    if (!ok)
        printf("ns_raw: %s: got status %d (%s)\n", what, m.status, m.message ? m.message : "");
    else
        printf("%s: %s\n", what, m.message ? m.message : tide_ns_strstatus(m.status));
    tide_ns_msg_clear(&m);
    return ok ? 0 : 1;
}

static int expect_reply(struct conn *c, uint32_t id, int status, const char *what)
{
    return expect_reply_cred(c, id, status, what, NULL);
}

static int mode_limits(void)
{
    struct conn c;
    if (conn_open(&c, 1) != 0 || handshake(&c, 0) != TIDE_NS_OK)
        return fail("connect");
    char big[2048];
    memset(big, 's', sizeof big);
    struct tide_wbuf w;
    int bad = 0;
    big[TIDE_NS_MAX_SERVICE + 1] = '\0';
    tide_ns_enc_publish(&w, 10, 0, big, "p", "o", some_key);
    send_frame(&c, &w);
    bad |= expect_reply(&c, 10, TIDE_NS_TOO_LONG, "service of 1024 bytes");
    tide_ns_enc_lookup(&w, 11, big, 0);
    send_frame(&c, &w);
    bad |= expect_reply(&c, 11, TIDE_NS_TOO_LONG, "lookup of 1024 bytes");
    big[TIDE_NS_MAX_SERVICE] = '\0';
    uint8_t cred[TIDE_NS_CRED_LEN];
    tide_ns_enc_publish(&w, 12, 0, big, "p", "raw-owner", some_key);
    send_frame(&c, &w);
    bad |= expect_reply_cred(&c, 12, TIDE_NS_OK, "service of 1023 bytes", cred);
    tide_ns_enc_unpublish(&w, 13, big, cred);
    send_frame(&c, &w);
    bad |= expect_reply(&c, 13, TIDE_NS_OK, "unpublish it");
    memset(big, 'p', sizeof big);
    big[TIDE_NS_MAX_PORT + 1] = '\0';
    tide_ns_enc_publish(&w, 14, 0, "svc", big, "o", some_key);
    send_frame(&c, &w);
    bad |= expect_reply(&c, 14, TIDE_NS_TOO_LONG, "port of 1024 bytes");
    tide_ns_enc_publish(&w, 15, 0, "svc", "p", "", some_key);
    send_frame(&c, &w);
    bad |= expect_reply(&c, 15, TIDE_NS_BAD_REQUEST, "empty owner");
    tide_ns_enc_publish(&w, 16, 0, NULL, "p", "o", some_key);
    send_frame(&c, &w);
    bad |= expect_reply(&c, 16, TIDE_NS_BAD_REQUEST, "absent service");
    tide_wire_begin(&w, 0x4eff);
    tide_wire_put_u32(&w, 17);
    send_frame(&c, &w);
    bad |= expect_reply(&c, 17, TIDE_NS_UNSUPPORTED, "unknown request type");
    /* an oversized frame: the server hangs up */
    char *huge = malloc(70000);
    memset(huge, 'h', 70000);
    huge[69999] = '\0';
    tide_ns_enc_lookup(&w, 18, huge, 0);
    free(huge);
    send_frame(&c, &w);
    if (!hung_up(&c))
        bad |= fail("oversized frame did not end the connection");
    else
        printf("oversized frame: connection closed\n");
    conn_close(&c);
    if (!alive())
        bad |= fail("server stopped answering");
    return bad;
}

/* a client of protocol version 1 (no credentials) is refused, clearly */
static int mode_old_version(void)
{
    struct conn c;
    struct tide_ns_msg m;
    if (conn_open(&c, 1) != 0 || read_msg(&c, &m) != 0 || m.type != TIDE_NS_SERVER_HELLO)
        return fail("connect");
    uint8_t snonce[TIDE_NS_NONCE_LEN], cnonce[TIDE_NS_NONCE_LEN], mac[TIDE_NS_MAC_LEN];
    memcpy(snonce, m.nonce, sizeof snonce);
    int need = (m.flags & TIDE_NS_AUTH_SECRET) != 0;
    printf("server speaks version %u\n", (unsigned)m.version);
    tide_ns_msg_clear(&m);
    tide_ns_random(cnonce, sizeof cnonce);
    if (need)
        tide_ns_client_mac(secret, secret_len, snonce, cnonce,
                           uri.kind == TIDE_NS_URI_TCP ? uri.fingerprint : "", mac);
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_NS_HELLO); /* version 1's hello, written by hand */
    tide_wire_put_u16(&w, 1);
    tide_wire_put_bytes(&w, cnonce, sizeof cnonce);
    tide_wire_put_bytes(&w, mac, need ? sizeof mac : 0);
    tide_wire_put_str(&w, "a version-1 client");
    int bad = 0;
    if (send_frame(&c, &w) != 0 || read_msg(&c, &m) != 0 || m.type != TIDE_NS_WELCOME) {
        bad = fail("no welcome for a version-1 hello");
    } else {
        printf("version-1 hello: status %d (%s): %s\n", m.status, tide_ns_strstatus(m.status),
               m.message ? m.message : "");
        if (m.status != TIDE_NS_VERSION)
            bad = fail("a version-1 client was not refused");
        tide_ns_msg_clear(&m);
        if (!bad && !hung_up(&c))
            bad = fail("the server kept the version-1 connection");
    }
    conn_close(&c);
    return bad;
}

/* ownership is the credential: a missing or wrong one is refused, a
 * malformed one ends the connection */
static int mode_credentials(void)
{
    struct conn c;
    if (conn_open(&c, 1) != 0 || handshake(&c, 0) != TIDE_NS_OK)
        return fail("connect");
    struct tide_wbuf w;
    int bad = 0;
    uint8_t cred[TIDE_NS_CRED_LEN], again[TIDE_NS_CRED_LEN], wrong[TIDE_NS_CRED_LEN];
    uint8_t key[TIDE_NS_CRED_LEN];
    tide_ns_random(key, sizeof key);
    tide_ns_enc_publish(&w, 1, 0, "raw-owned", "raw-port", "raw/0", key);
    send_frame(&c, &w);
    bad |= expect_reply_cred(&c, 1, TIDE_NS_OK, "publish", cred);
    /* the same key again (a resend after a broken connection): the same credential */
    tide_ns_enc_publish(&w, 2, 0, "raw-owned", "raw-port", "raw/0", key);
    send_frame(&c, &w);
    bad |= expect_reply_cred(&c, 2, TIDE_NS_OK, "publish again with the same key", again);
    if (memcmp(cred, again, sizeof cred) != 0)
        bad |= fail("the same key gave another credential");
    /* another key, the same owner string: someone else */
    key[0] ^= 1;
    tide_ns_enc_publish(&w, 3, 0, "raw-owned", "raw-port", "raw/0", key);
    send_frame(&c, &w);
    bad |= expect_reply(&c, 3, TIDE_NS_DUPLICATE, "publish with another key");
    memcpy(wrong, cred, sizeof wrong);
    wrong[7] ^= 0x40;
    tide_ns_enc_unpublish(&w, 4, "raw-owned", wrong);
    send_frame(&c, &w);
    bad |= expect_reply(&c, 4, TIDE_NS_NOT_OWNER, "unpublish with a wrong credential");
    tide_ns_enc_unpublish(&w, 5, "raw-owned", NULL);
    send_frame(&c, &w);
    bad |= expect_reply(&c, 5, TIDE_NS_NOT_OWNER, "unpublish with no credential");
    /* re-asserting with a wrong credential: taken */
    tide_ns_enc_publish(&w, 6, TIDE_NS_PUB_REASSERT, "raw-owned", "raw-port", "raw/0", wrong);
    send_frame(&c, &w);
    bad |= expect_reply(&c, 6, TIDE_NS_DUPLICATE, "re-assert with a wrong credential");
    const char *svc[2] = {"raw-owned", "raw-owned"};
    uint8_t set[2][TIDE_NS_CRED_LEN];
    memcpy(set[0], wrong, sizeof wrong);
    memcpy(set[1], wrong, sizeof wrong);
    tide_ns_enc_unpublish_set(&w, 7, 2, svc, (const uint8_t(*)[TIDE_NS_CRED_LEN])set);
    send_frame(&c, &w);
    struct tide_ns_msg m;
    if (read_msg(&c, &m) != 0 || m.id != 7 || m.status != TIDE_NS_OK || m.count != 0)
        bad |= fail("a set of wrong credentials removed something");
    else
        printf("unpublish set with wrong credentials: 0 removed\n");
    tide_ns_msg_clear(&m);
    tide_ns_enc_lookup(&w, 8, "raw-owned", 0);
    send_frame(&c, &w);
    bad |= expect_reply(&c, 8, TIDE_NS_OK, "still published");
    tide_ns_enc_publish(&w, 9, TIDE_NS_PUB_REASSERT, "raw-owned", "raw-port", "raw/0", cred);
    send_frame(&c, &w);
    bad |= expect_reply(&c, 9, TIDE_NS_OK, "re-assert with the credential");
    memcpy(set[1], cred, sizeof cred);
    tide_ns_enc_unpublish_set(&w, 10, 2, svc, (const uint8_t(*)[TIDE_NS_CRED_LEN])set);
    send_frame(&c, &w);
    if (read_msg(&c, &m) != 0 || m.id != 10 || m.status != TIDE_NS_OK || m.count != 1)
        bad |= fail("the set with the credential did not remove the name");
    else
        printf("unpublish set with the credential: 1 removed\n");
    tide_ns_msg_clear(&m);
    /* a publish without a key: refused, the connection stays */
    tide_ns_enc_publish(&w, 11, 0, "raw-nokey", "p", "o", NULL);
    send_frame(&c, &w);
    bad |= expect_reply(&c, 11, TIDE_NS_BAD_REQUEST, "publish without a key");
    /* a credential of the wrong length does not decode: the server hangs up */
    tide_wire_begin(&w, TIDE_NS_UNPUBLISH);
    tide_wire_put_u32(&w, 12);
    tide_wire_put_str(&w, "raw-owned");
    tide_wire_put_bytes(&w, cred, 31);
    send_frame(&c, &w);
    if (!hung_up(&c))
        bad |= fail("a 31-byte credential did not end the connection");
    else
        printf("31-byte credential: connection closed\n");
    conn_close(&c);
    /* a set that claims more names than it holds */
    if (conn_open(&c, 1) != 0 || handshake(&c, 0) != TIDE_NS_OK)
        return fail("connect");
    tide_wire_begin(&w, TIDE_NS_UNPUBLISH_SET);
    tide_wire_put_u32(&w, 13);
    tide_wire_put_u32(&w, 0x7fffffff);
    send_frame(&c, &w);
    if (!hung_up(&c))
        bad |= fail("a set of 2^31 names did not end the connection");
    else
        printf("set of 2^31 names: connection closed\n");
    conn_close(&c);
    return bad;
}

int main(int argc, char **argv)
{
    const char *u = NULL;
    int i = 1;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
        if (strcmp(argv[i], "--uri") == 0 && i + 1 < argc)
            u = argv[++i];
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            rng = strtoull(argv[++i], NULL, 10) * 2654435761u + 1;
    }
    if (!u || i >= argc) {
        fprintf(stderr, "usage: ns_raw --uri URI|@FILE [--seed N] MODE [COUNT]\n");
        return 2;
    }
    const char *mode = argv[i];
    int count = i + 1 < argc ? atoi(argv[i + 1]) : 1;
    char err[1024], text[1024];
    if (u[0] == '@') {
        if (tide_ns_urifile_read(u + 1, text, sizeof text, secret, &secret_len, err, sizeof err) != 0) {
            printf("ns_raw: %s\n", err);
            return 2;
        }
        u = text;
    }
    if (tide_ns_uri_parse(u, &uri, err, sizeof err) != 0) {
        printf("ns_raw: %s\n", err);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    ctx = SSL_CTX_new(TLS_client_method());
    SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL);
    int bad = 0, closed = 0, replies = 0;
    if (strcmp(mode, "limits") == 0) {
        bad = mode_limits();
    } else if (strcmp(mode, "old-version") == 0) {
        bad = mode_old_version();
    } else if (strcmp(mode, "credentials") == 0) {
        bad = mode_credentials();
    } else if (strcmp(mode, "noauth") == 0) {
        struct conn c;
        struct tide_ns_msg m;
        if (conn_open(&c, 1) != 0 || read_msg(&c, &m) != 0)
            return fail("connect");
        tide_ns_msg_clear(&m);
        struct tide_wbuf w;
        tide_ns_enc_publish(&w, 1, 0, "sneaky", "p", "o", some_key);
        send_frame(&c, &w);
        if (!hung_up(&c))
            bad = fail("a request before authentication did not end the connection");
        else
            printf("request before hello: connection closed\n");
        conn_close(&c);
    } else if (strcmp(mode, "wrong-secret") == 0) {
        struct conn c;
        if (conn_open(&c, 1) != 0)
            return fail("connect");
        int st = handshake(&c, 1);
        printf("wrong secret: welcome status %d (%s)\n", st, st >= 0 ? tide_ns_strstatus(st) : "none");
        if (st != TIDE_NS_AUTH || !hung_up(&c))
            bad = fail("a wrong proof was not refused");
        conn_close(&c);
    } else if (strcmp(mode, "garbage") == 0 || strcmp(mode, "plain-garbage") == 0) {
        int tls = strcmp(mode, "garbage") == 0;
        for (int k = 0; k < count; k++) {
            struct conn c;
            if (conn_open(&c, tls) != 0) {
                bad = fail("connect");
                break;
            }
            size_t n = 1 + rnd() % 4096;
            uint8_t buf[4096];
            for (size_t j = 0; j < n; j++)
                buf[j] = (uint8_t)rnd();
            if (k % 3 == 0 && n > 4) /* sometimes start like a frame */
                memcpy(buf, "TIDE", 4);
            io_write(&c, buf, n);
            half_close(&c);
            closed += hung_up(&c);
            conn_close(&c);
        }
    } else if (strcmp(mode, "fuzz") == 0 || strcmp(mode, "truncated") == 0) {
        int trunc = strcmp(mode, "truncated") == 0;
        for (int k = 0; k < count; k++) {
            struct conn c;
            if (conn_open(&c, 1) != 0 || handshake(&c, 0) != TIDE_NS_OK) {
                conn_close(&c);
                bad = fail("connect and authenticate");
                break;
            }
            struct tide_wbuf w;
            sample_frame(&w);
            if (trunc) {
                size_t cut = rnd() % w.len; /* every prefix is a frame cut short */
                io_write(&c, w.data, cut);
                /* and a close right after: the server must drop the half frame */
            } else {
                int flips = 1 + (int)(rnd() % 4);
                for (int f = 0; f < flips; f++)
                    w.data[rnd() % w.len] ^= (uint8_t)(1u << (rnd() % 8));
                if (rnd() % 4 == 0)
                    w.len = rnd() % w.len + 1;
                io_write(&c, w.data, w.len);
                half_close(&c);
                if (getenv("NS_RAW_DEBUG")) {
                    for (size_t j = 0; j < w.len; j++)
                        fprintf(stderr, "%02x", w.data[j]);
                    fprintf(stderr, "\n");
                }
                struct tide_ns_msg m;
                /* either an answer or a hang-up; never silence forever */
                if (read_msg(&c, &m) == 0) {
                    replies++;
                    tide_ns_msg_clear(&m);
                } else {
                    closed++;
                }
            }
            tide_wire_free(&w);
            conn_close(&c);
        }
    } else {
        fprintf(stderr, "ns_raw: unknown mode %s\n", mode);
        return 2;
    }
    if (!alive())
        bad |= fail("the server stopped answering");
    printf("ns_raw %s: %d connections, %d replies, %d closed by the server; server alive: %s\n", mode,
           count, replies, closed, bad ? "?" : "yes");
    SSL_CTX_free(ctx);
    return bad;
}
