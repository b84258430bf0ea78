/*
 * nsclient.c: the asynchronous tide-nameserver client (see nsclient.h):
 * connecting (TLS with a pinned certificate, or a unix socket whose owner
 * is checked), starting the per-user default server when nothing listens,
 * the challenge-response handshake, the request queue with per-request
 * deadlines, reconnecting with back-off and re-publishing after a server
 * restart, and the blocking wrapper.
 *
 * Credentials: the server answers a publish with the name's credential
 * (nsproto.h, "Ownership"). It is kept here, in memory only, with the
 * record of what we published: an unpublish presents it, the end of a job
 * presents those of the job's names (UNPUBLISH_SET), and a re-publication
 * after reconnecting re-asserts the name with it.
 *
 * Re-entrancy: callbacks run only from event callbacks; a callback may
 * close the client, so after running one the code checks c->closing and
 * the free itself waits until the outermost event callback returns.
 */
#include "nsclient.h"
#include "channel.h"
#include "log.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/event.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#define DEFAULT_TIMEOUT_MS 10000
#define HANDSHAKE_MS 5000
#define BACKOFF_MIN_MS 10
#define BACKOFF_MAX_MS 2000

enum cstate { C_IDLE, C_WAIT, C_CONNECTING, C_HANDSHAKE, C_READY };

struct req {
    struct tide_ns_client *c;
    uint16_t type;
    uint32_t id, flags, wait_ms;
    char *service, *port, *owner;
    /* PUBLISH: the random key (or, re-publishing, the credential);
     * UNPUBLISH: the credential presented (has_key 0: none) */
    uint8_t key[TIDE_NS_CRED_LEN];
    int has_key;
    /* UNPUBLISH_SET: the names and their credentials */
    uint32_t nset;
    char **set_service;
    uint8_t (*set_cred)[TIDE_NS_CRED_LEN];
    tide_ns_cb cb;
    void *arg;
    int internal; /* a re-publication after reconnecting: no callback */
    int resent;
    /* an immediate result, delivered from defer_ev */
    int done_status;
    char *done_msg;
    struct event *timer;
    struct req *prev, *next;
};

struct reqlist {
    struct req *head, *tail;
};

struct pubrec {
    char *service, *port, *owner;
    uint8_t cred[TIDE_NS_CRED_LEN]; /* what proves the name is ours */
    struct pubrec *next;
};

/* the requests one tide_ns_unpublish_owner became, answered as one */
struct group {
    int remaining, status;
    uint64_t count;
    char *message;
    tide_ns_cb cb;
    void *arg;
};

struct tide_ns_client {
    struct event_base *base;
    int timeout_ms, no_autostart, idle_exit;
    char *server_prog, *client_name, *secret_file;
    char *uri_file;  /* "@FILE": re-read at each connection */
    int user_default;
    struct tide_ns_uri uri;
    char uri_text[1024];
    uint8_t secret[TIDE_NS_SECRET_MAX];
    size_t secret_len;
    int secret_given; /* from the caller or a secret file: not replaced by the URI file's */

    int state;
    int fd;
    struct event *conn_ev; /* connect completion, back-off and handshake timer */
    struct tide_channel *ch;
    SSL_CTX *ssl_ctx;
    int fp_mismatch;
    char fp_seen[TIDE_NS_FP_HEX + 1];
    uint8_t snonce[TIDE_NS_NONCE_LEN], cnonce[TIDE_NS_NONCE_LEN];
    int sent_mac;
    int backoff_ms;
    int got_hello;
    struct timespec last_spawn;
    int spawned;

    struct reqlist queue, inflight, done;
    struct event *defer_ev;
    struct pubrec *pubs;
    uint32_t next_id;
    char last_error[512];
    int depth, closing;
};

static void start_connect(struct tide_ns_client *c);
static void conn_reset(struct tide_ns_client *c);

/* ---- small helpers ---- */

static void list_push(struct reqlist *l, struct req *r)
{
    r->next = NULL;
    r->prev = l->tail;
    if (l->tail)
        l->tail->next = r;
    else
        l->head = r;
    l->tail = r;
}

static void list_push_front(struct reqlist *l, struct req *r)
{
    r->prev = NULL;
    r->next = l->head;
    if (l->head)
        l->head->prev = r;
    else
        l->tail = r;
    l->head = r;
}

static void list_remove(struct reqlist *l, struct req *r)
{
    if (r->prev)
        r->prev->next = r->next;
    else
        l->head = r->next;
    if (r->next)
        r->next->prev = r->prev;
    else
        l->tail = r->prev;
    r->prev = r->next = NULL;
}

static int list_has(const struct reqlist *l, const struct req *r)
{
    for (const struct req *x = l->head; x; x = x->next)
        if (x == r)
            return 1;
    return 0;
}

static void req_free(struct req *r)
{
    if (r->timer)
        event_free(r->timer);
    free(r->service);
    free(r->port);
    free(r->owner);
    free(r->done_msg);
    for (uint32_t i = 0; r->set_service && i < r->nset; i++)
        free(r->set_service[i]);
    free(r->set_service);
    if (r->set_cred)
        OPENSSL_cleanse(r->set_cred, (size_t)r->nset * TIDE_NS_CRED_LEN);
    free(r->set_cred);
    OPENSSL_cleanse(r->key, sizeof r->key);
    free(r);
}

static void set_error(struct tide_ns_client *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_error(struct tide_ns_client *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->last_error, sizeof c->last_error, fmt, ap);
    va_end(ap);
    TIDE_DEBUG(2, "name server client: %s", c->last_error);
}

static const char *target(const struct tide_ns_client *c)
{
    if (c->uri_text[0])
        return c->uri_text;
    return c->user_default ? "the per-user name service" : "the name server";
}

static void client_free(struct tide_ns_client *c);

static int leave(struct tide_ns_client *c)
{
    if (--c->depth == 0 && c->closing) {
        client_free(c);
        return 1;
    }
    return 0;
}

static int owned_by(const char *entry_owner, const char *owner)
{
    size_t ol = strlen(owner);
    return strncmp(entry_owner, owner, ol) == 0 && (entry_owner[ol] == '\0' || entry_owner[ol] == '/');
}

/* ---- the record of what we published ---- */

static void pubrec_free(struct pubrec *p)
{
    free(p->service);
    free(p->port);
    free(p->owner);
    OPENSSL_cleanse(p->cred, sizeof p->cred);
    free(p);
}

static struct pubrec *pub_find(struct tide_ns_client *c, const char *service)
{
    for (struct pubrec *p = c->pubs; p; p = p->next)
        if (strcmp(p->service, service) == 0)
            return p;
    return NULL;
}

static void pub_add(struct tide_ns_client *c, const struct req *r, const uint8_t cred[TIDE_NS_CRED_LEN])
{
    struct pubrec *p = pub_find(c, r->service);
    if (p) { /* published again (after an unpublish that failed): the newest credential */
        memcpy(p->cred, cred, sizeof p->cred);
        return;
    }
    p = calloc(1, sizeof *p);
    if (!p)
        return;
    p->service = strdup(r->service);
    p->port = strdup(r->port);
    p->owner = strdup(r->owner);
    if (!p->service || !p->port || !p->owner) {
        pubrec_free(p);
        return;
    }
    memcpy(p->cred, cred, sizeof p->cred);
    p->next = c->pubs;
    c->pubs = p;
}

static void pub_remove(struct tide_ns_client *c, const char *service)
{
    for (struct pubrec **pp = &c->pubs; *pp; pp = &(*pp)->next) {
        struct pubrec *p = *pp;
        if (strcmp(p->service, service) == 0) {
            *pp = p->next;
            pubrec_free(p);
            return;
        }
    }
}

/* ---- completing requests ---- */

/* r is on no list. Runs its callback and frees it. cred: the credential
 * a publish's reply carried (NULL: none). */
static void complete_cred(struct tide_ns_client *c, struct req *r, int status, const char *value,
                          uint64_t count, const char *message, const uint8_t *cred)
{
    if (r->type == TIDE_NS_PUBLISH && status == TIDE_NS_OK && !cred) {
        status = TIDE_NS_INTERNAL;
        message = "the name server accepted the name but sent no credential for it";
    }
    if (r->internal) {
        if (status == TIDE_NS_DUPLICATE) {
            tide_error("name '%.100s' published through %s was taken by someone else while the "
                       "server was unreachable",
                       r->service, target(c));
            pub_remove(c, r->service);
        }
        req_free(r);
        return;
    }
    if (r->resent && r->type == TIDE_NS_UNPUBLISH && status == TIDE_NS_NOT_FOUND)
        status = TIDE_NS_OK; /* the first attempt did it before the connection broke */
    if (status == TIDE_NS_OK) {
        if (r->type == TIDE_NS_PUBLISH)
            pub_add(c, r, cred);
        else if (r->type == TIDE_NS_UNPUBLISH)
            pub_remove(c, r->service);
        else if (r->type == TIDE_NS_UNPUBLISH_SET)
            for (uint32_t i = 0; i < r->nset; i++)
                pub_remove(c, r->set_service[i]);
    }
    struct tide_ns_result res = {
        .status = status,
        .value = value,
        .count = count,
        .message = message && *message ? message : tide_ns_strstatus(status),
    };
    tide_ns_cb cb = r->cb;
    void *arg = r->arg;
    req_free(r);
    if (cb) {
        c->depth++;
        cb(&res, arg);
        c->depth--;
    }
}

static void complete(struct tide_ns_client *c, struct req *r, int status, const char *value,
                     uint64_t count, const char *message)
{
    complete_cred(c, r, status, value, count, message, NULL);
}

static void fail_all(struct tide_ns_client *c, int status, const char *message)
{
    while (c->queue.head || c->inflight.head) {
        struct reqlist *l = c->inflight.head ? &c->inflight : &c->queue;
        struct req *r = l->head;
        list_remove(l, r);
        complete(c, r, status, NULL, 0, message);
    }
}

static void defer_cb(evutil_socket_t fd, short what, void *arg)
{
    struct tide_ns_client *c = arg;
    (void)fd;
    (void)what;
    c->depth++;
    while (c->done.head) {
        struct req *r = c->done.head;
        list_remove(&c->done, r);
        char *msg = r->done_msg;
        r->done_msg = NULL;
        complete(c, r, r->done_status, NULL, 0, msg);
        free(msg);
    }
    leave(c);
}

/* ---- sending ---- */

static void send_req(struct tide_ns_client *c, struct req *r)
{
    struct tide_wbuf w;
    r->id = ++c->next_id;
    if (r->id == 0)
        r->id = ++c->next_id;
    switch (r->type) {
    case TIDE_NS_PUBLISH:
        /* sent again after a broken connection, the same key gets the
         * same credential; a re-publication presents the credential */
        tide_ns_enc_publish(&w, r->id, r->flags | (r->internal ? TIDE_NS_PUB_REASSERT : 0),
                            r->service, r->port, r->owner, r->key);
        break;
    case TIDE_NS_LOOKUP: tide_ns_enc_lookup(&w, r->id, r->service, r->wait_ms); break;
    case TIDE_NS_UNPUBLISH:
        tide_ns_enc_unpublish(&w, r->id, r->service, r->has_key ? r->key : NULL);
        break;
    case TIDE_NS_UNPUBLISH_SET:
        tide_ns_enc_unpublish_set(&w, r->id, r->nset, (const char *const *)r->set_service,
                                  (const uint8_t(*)[TIDE_NS_CRED_LEN])r->set_cred);
        break;
    case TIDE_NS_STATUS: tide_ns_enc_status(&w, r->id); break;
    default: tide_ns_enc_ping(&w, r->id); break;
    }
    list_push(&c->inflight, r);
    tide_channel_send(c->ch, &w);
}

static void send_queued(struct tide_ns_client *c)
{
    while (c->state == C_READY && c->queue.head) {
        struct req *r = c->queue.head;
        list_remove(&c->queue, r);
        send_req(c, r);
    }
}

static int need_connection(const struct tide_ns_client *c)
{
    return c->queue.head || c->inflight.head || c->pubs;
}

/* ---- connection life ---- */

static void retry_cb(evutil_socket_t fd, short what, void *arg);

static void retry_later(struct tide_ns_client *c)
{
    int ms = c->backoff_ms ? c->backoff_ms : BACKOFF_MIN_MS;
    c->backoff_ms = ms * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : ms * 2;
    c->state = C_WAIT;
    event_del(c->conn_ev);
    event_assign(c->conn_ev, c->base, -1, 0, retry_cb, c);
    struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
    event_add(c->conn_ev, &tv);
}

/* The connection is gone (or never came up). Requests in flight go back to
 * the front of the queue, to be sent again; re-publications are dropped
 * (they are made again from c->pubs). */
static void conn_reset(struct tide_ns_client *c)
{
    event_del(c->conn_ev);
    if (c->ch) {
        tide_channel_free(c->ch);
        c->ch = NULL;
    }
    if (c->fd >= 0) {
        close(c->fd);
        c->fd = -1;
    }
    while (c->inflight.tail) {
        struct req *r = c->inflight.tail;
        list_remove(&c->inflight, r);
        if (r->internal) {
            req_free(r);
            continue;
        }
        r->resent = 1;
        list_push_front(&c->queue, r);
    }
    for (struct req *r = c->queue.head, *next; r; r = next) {
        next = r->next;
        if (r->internal) {
            list_remove(&c->queue, r);
            req_free(r);
        }
    }
    c->state = C_IDLE;
    c->got_hello = 0;
}

/* a failure that waiting will not cure: fail what is pending, retry only
 * for the names we must re-publish */
static void conn_fatal(struct tide_ns_client *c, int status)
{
    conn_reset(c);
    char msg[600];
    snprintf(msg, sizeof msg, "%s", c->last_error);
    fail_all(c, status, msg);
    if (c->closing)
        return;
    if (c->pubs) {
        c->backoff_ms = BACKOFF_MAX_MS;
        retry_later(c);
    }
}

static void conn_lost(struct tide_ns_client *c)
{
    conn_reset(c);
    if (need_connection(c))
        retry_later(c);
}

static void retry_cb(evutil_socket_t fd, short what, void *arg)
{
    struct tide_ns_client *c = arg;
    (void)fd;
    (void)what;
    c->depth++;
    c->state = C_IDLE;
    if (need_connection(c))
        start_connect(c);
    leave(c);
}

static void handshake_timeout_cb(evutil_socket_t fd, short what, void *arg)
{
    struct tide_ns_client *c = arg;
    (void)fd;
    (void)what;
    c->depth++;
    set_error(c, "%s did not complete the handshake within %d ms", target(c), HANDSHAKE_MS);
    conn_lost(c);
    leave(c);
}

static void become_ready(struct tide_ns_client *c)
{
    c->state = C_READY;
    c->backoff_ms = 0;
    c->last_error[0] = '\0';
    event_del(c->conn_ev);
    TIDE_DEBUG(1, "connected to %s", target(c));
    /* re-publish first, so lookups queued behind see the names */
    for (struct pubrec *p = c->pubs; p; p = p->next) {
        struct req *r = calloc(1, sizeof *r);
        if (!r)
            break;
        r->c = c;
        r->type = TIDE_NS_PUBLISH;
        r->internal = 1;
        r->service = strdup(p->service);
        r->port = strdup(p->port);
        r->owner = strdup(p->owner);
        memcpy(r->key, p->cred, sizeof r->key);
        r->has_key = 1;
        if (!r->service || !r->port || !r->owner) {
            req_free(r);
            break;
        }
        send_req(c, r);
    }
    send_queued(c);
}

static void on_msg(struct tide_channel *ch, uint16_t type, struct tide_rbuf *rb, void *arg)
{
    struct tide_ns_client *c = arg;
    (void)ch;
    c->depth++;
    struct tide_ns_msg m;
    int rc = tide_ns_decode(type, rb, &m);
    if (rc != TIDE_NS_OK) {
        set_error(c, "%s sent a malformed message (type 0x%x)", target(c), type);
        tide_error("%s", c->last_error);
        conn_lost(c);
        goto out;
    }
    if (c->state == C_HANDSHAKE && !c->got_hello) {
        if (type != TIDE_NS_SERVER_HELLO || m.version < 1) {
            set_error(c, "%s does not speak the name server protocol", target(c));
            conn_fatal(c, TIDE_NS_VERSION);
            goto out;
        }
        if (m.version != TIDE_NS_PROTO_VERSION) {
            set_error(c,
                      "%s speaks name server protocol version %u; this client speaks version %d%s",
                      target(c), (unsigned)m.version, TIDE_NS_PROTO_VERSION,
                      m.version < TIDE_NS_PROTO_VERSION
                          ? " (an older tide-nameserver, without publisher credentials: update it)"
                          : " (update this client)");
            conn_fatal(c, TIDE_NS_VERSION);
            goto out;
        }
        c->got_hello = 1;
        memcpy(c->snonce, m.nonce, sizeof c->snonce);
        uint8_t mac[TIDE_NS_MAC_LEN];
        c->sent_mac = 0;
        const char *fp = c->uri.kind == TIDE_NS_URI_TCP ? c->uri.fingerprint : "";
        if (tide_ns_random(c->cnonce, sizeof c->cnonce) != 0) {
            set_error(c, "no random numbers");
            conn_fatal(c, TIDE_NS_INTERNAL);
            goto out;
        }
        if (m.flags & TIDE_NS_AUTH_SECRET) {
            if (!c->secret_len) {
                set_error(c, "%s requires a secret and none was given (the URI file holds it, or "
                             "name a secret file)",
                          target(c));
                conn_fatal(c, TIDE_NS_AUTH);
                goto out;
            }
            if (tide_ns_client_mac(c->secret, c->secret_len, c->snonce, c->cnonce, fp, mac) != 0) {
                set_error(c, "cannot compute the authentication proof");
                conn_fatal(c, TIDE_NS_INTERNAL);
                goto out;
            }
            c->sent_mac = 1;
        } else if (c->uri.kind == TIDE_NS_URI_TCP) {
            set_error(c, "%s does not ask for the secret: refusing an unauthenticated server", target(c));
            conn_fatal(c, TIDE_NS_AUTH);
            goto out;
        }
        char name[128];
        if (c->client_name)
            snprintf(name, sizeof name, "%s", c->client_name);
        else
            snprintf(name, sizeof name, "%s[%d]", program_invocation_short_name, (int)getpid());
        struct tide_wbuf w;
        tide_ns_enc_hello(&w, c->cnonce, c->sent_mac ? mac : NULL, name);
        tide_channel_send(c->ch, &w);
        goto out;
    }
    if (c->state == C_HANDSHAKE) {
        if (type != TIDE_NS_WELCOME) {
            set_error(c, "%s sent 0x%x instead of its welcome", target(c), type);
            conn_lost(c);
            goto out;
        }
        if (m.status != TIDE_NS_OK) {
            set_error(c, "%s refused us: %s", target(c), m.message ? m.message : tide_ns_strstatus(m.status));
            conn_fatal(c, m.status == TIDE_NS_AUTH ? TIDE_NS_AUTH
                          : m.status == TIDE_NS_VERSION ? TIDE_NS_VERSION
                                                        : TIDE_NS_UNREACHABLE);
            goto out;
        }
        if (c->sent_mac) {
            const char *fp = c->uri.kind == TIDE_NS_URI_TCP ? c->uri.fingerprint : "";
            uint8_t want[TIDE_NS_MAC_LEN];
            if (!m.has_mac ||
                tide_ns_server_mac(c->secret, c->secret_len, c->snonce, c->cnonce, fp, want) != 0 ||
                !tide_ns_mac_equal(want, m.mac)) {
                set_error(c, "%s could not prove it knows the secret: refusing it", target(c));
                conn_fatal(c, TIDE_NS_AUTH);
                goto out;
            }
        }
        become_ready(c);
        goto out;
    }
    if (c->state != C_READY || type != TIDE_NS_REPLY) {
        set_error(c, "%s sent an unexpected message (type 0x%x)", target(c), type);
        tide_error("%s", c->last_error);
        conn_lost(c);
        goto out;
    }
    struct req *r = c->inflight.head;
    while (r && r->id != m.id)
        r = r->next;
    if (!r) {
        TIDE_DEBUG(2, "reply to request %u that is no longer waiting", (unsigned)m.id);
        goto out;
    }
    list_remove(&c->inflight, r);
    complete_cred(c, r, m.status, m.value, m.count, m.message, m.has_cred ? m.cred : NULL);
out:
    tide_ns_msg_clear(&m);
    leave(c);
}

static void on_close(struct tide_channel *ch, const char *why, void *arg)
{
    struct tide_ns_client *c = arg;
    (void)ch;
    c->depth++;
    if (c->fp_mismatch) {
        set_error(c,
                  "the certificate of %s:%u (sha256 %s) does not match the fingerprint in the URI: "
                  "refusing it",
                  c->uri.host, c->uri.port, c->fp_seen);
        c->fp_mismatch = 0;
        conn_fatal(c, TIDE_NS_TLS);
    } else if (c->state == C_HANDSHAKE) {
        unsigned long e = ERR_get_error();
        char ebuf[256] = "";
        if (e)
            ERR_error_string_n(e, ebuf, sizeof ebuf);
        ERR_clear_error();
        set_error(c, "%s closed the connection during the handshake%s%s", target(c), e ? ": " : "",
                  ebuf);
        conn_lost(c);
    } else {
        set_error(c, "connection to %s lost: %s", target(c), why);
        if (c->state == C_READY)
            TIDE_DEBUG(1, "%s", c->last_error);
        conn_lost(c);
    }
    leave(c);
}

static int verify_cert(X509_STORE_CTX *xs, void *arg)
{
    struct tide_ns_client *c = arg;
    X509 *cert = X509_STORE_CTX_get0_cert(xs);
    char fp[TIDE_NS_FP_HEX + 1];
    if (!cert || tide_ns_cert_fingerprint(cert, fp) != 0) {
        X509_STORE_CTX_set_error(xs, X509_V_ERR_UNSPECIFIED);
        return 0;
    }
    if (strcmp(fp, c->uri.fingerprint) != 0) {
        c->fp_mismatch = 1;
        snprintf(c->fp_seen, sizeof c->fp_seen, "%s", fp);
        X509_STORE_CTX_set_error(xs, X509_V_ERR_CERT_REJECTED);
        return 0;
    }
    return 1;
}

static void connected(struct tide_ns_client *c)
{
    int fd = c->fd;
    c->fd = -1;
    struct bufferevent *bev;
    char peer[64];
    if (c->uri.kind == TIDE_NS_URI_UNIX) {
        struct ucred cr;
        socklen_t l = sizeof cr;
        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &l) != 0 || cr.uid != geteuid()) {
            close(fd);
            set_error(c, "the server on %s is not run by our user: refusing it", c->uri.path);
            conn_fatal(c, TIDE_NS_AUTH);
            return;
        }
        snprintf(peer, sizeof peer, "name server pid %d", (int)cr.pid);
        bev = bufferevent_socket_new(c->base, fd, BEV_OPT_CLOSE_ON_FREE);
        if (!bev)
            close(fd);
    } else {
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (!c->ssl_ctx) {
            c->ssl_ctx = SSL_CTX_new(TLS_client_method());
            if (c->ssl_ctx) {
                SSL_CTX_set_min_proto_version(c->ssl_ctx, TLS1_2_VERSION);
                SSL_CTX_set_verify(c->ssl_ctx, SSL_VERIFY_PEER, NULL);
                SSL_CTX_set_cert_verify_callback(c->ssl_ctx, verify_cert, c);
            }
        }
        SSL *ssl = c->ssl_ctx ? SSL_new(c->ssl_ctx) : NULL;
        bev = ssl ? bufferevent_openssl_socket_new(c->base, fd, ssl, BUFFEREVENT_SSL_CONNECTING,
                                                   BEV_OPT_CLOSE_ON_FREE)
                  : NULL;
        if (!bev) {
            SSL_free(ssl);
            close(fd);
        } else {
            bufferevent_openssl_set_allow_dirty_shutdown(bev, 1);
        }
        snprintf(peer, sizeof peer, "name server %.40s:%u", c->uri.host, c->uri.port);
    }
    c->fp_mismatch = 0;
    c->ch = tide_channel_new_bev(bev, on_msg, on_close, c, peer);
    if (!c->ch) {
        set_error(c, "cannot set up a connection to %s", target(c));
        conn_fatal(c, TIDE_NS_NOMEM);
        return;
    }
    tide_channel_set_max_payload(c->ch, TIDE_NS_MAX_FRAME);
    c->state = C_HANDSHAKE;
    c->got_hello = 0;
    event_del(c->conn_ev);
    event_assign(c->conn_ev, c->base, -1, 0, handshake_timeout_cb, c);
    struct timeval tv = {HANDSHAKE_MS / 1000, (HANDSHAKE_MS % 1000) * 1000};
    event_add(c->conn_ev, &tv);
}

static void connect_done_cb(evutil_socket_t fd, short what, void *arg)
{
    struct tide_ns_client *c = arg;
    c->depth++;
    int err = 0;
    socklen_t l = sizeof err;
    if (what & EV_TIMEOUT)
        err = ETIMEDOUT;
    else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &l) != 0)
        err = errno;
    if (err) {
        set_error(c, "cannot connect to %s: %s", target(c), strerror(err));
        conn_lost(c);
    } else {
        connected(c);
    }
    leave(c);
}

/* ---- starting the per-user server ---- */

static int executable(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

static int find_server_prog(const struct tide_ns_client *c, char *out, size_t outlen)
{
    if (c->server_prog) {
        snprintf(out, outlen, "%s", c->server_prog);
        return executable(out) ? 0 : -1;
    }
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *dir = dirname(exe);
        if (snprintf(out, outlen, "%s/tide-nameserver", dir) < (int)outlen && executable(out))
            return 0;
        size_t dl = strlen(dir);
        if (dl > 6 && strcmp(dir + dl - 6, "/.libs") == 0) { /* a libtool build tree */
            dir[dl - 6] = '\0';
            if (snprintf(out, outlen, "%s/tide-nameserver", dir) < (int)outlen && executable(out))
                return 0;
        }
    }
    const char *path = getenv("PATH");
    if (path) {
        const char *p = path;
        while (*p) {
            size_t l = strcspn(p, ":");
            if (l && snprintf(out, outlen, "%.*s/tide-nameserver", (int)l, p) < (int)outlen &&
                executable(out))
                return 0;
            p += l;
            if (*p == ':')
                p++;
        }
    }
    return -1;
}

/* Start "tide-nameserver --user-default" detached (double fork, new
 * session, no inherited descriptors) and return at once: the caller retries
 * connecting. The server's lock makes concurrent starts end with one. */
static int spawn_server(struct tide_ns_client *c)
{
    char prog[4096];
    if (find_server_prog(c, prog, sizeof prog) != 0) {
        set_error(c, "nothing serves names for this user and tide-nameserver cannot be started: "
                     "%s%snot found next to this program or in PATH",
                  c->server_prog ? c->server_prog : "", c->server_prog ? " " : "");
        return -1;
    }
    char idle[16];
    char *argv[6] = {prog, "--user-default", "--no-daemonize", NULL, NULL, NULL};
    if (c->idle_exit > 0) {
        snprintf(idle, sizeof idle, "%d", c->idle_exit);
        argv[3] = "--idle-exit";
        argv[4] = idle;
    }
    sigset_t all;
    sigemptyset(&all);
    pid_t pid = fork();
    if (pid < 0) {
        set_error(c, "cannot start %s: fork: %s", prog, strerror(errno));
        return -1;
    }
    if (pid == 0) {
        /* only async-signal-safe calls from here on */
        setsid();
        if (fork() != 0)
            _exit(0);
        sigprocmask(SIG_SETMASK, &all, NULL);
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, 0);
            dup2(null, 1);
            dup2(null, 2);
        }
#ifdef SYS_close_range
        if (syscall(SYS_close_range, 3u, ~0u, 0u) != 0)
#endif
            for (int fd = 3; fd < 65536; fd++)
                close(fd);
        execv(prog, argv);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    TIDE_DEBUG(1, "started %s --user-default", prog);
    return 0;
}

/* ---- connecting ---- */

static int load_target(struct tide_ns_client *c)
{
    char err[600];
    if (c->uri_file) {
        uint8_t sec[TIDE_NS_SECRET_MAX];
        size_t sl = 0;
        char uri[1024];
        if (tide_ns_urifile_read(c->uri_file, uri, sizeof uri, sec, &sl, err, sizeof err) != 0 ||
            tide_ns_uri_parse(uri, &c->uri, err, sizeof err) != 0) {
            set_error(c, "%s", err);
            return -1;
        }
        snprintf(c->uri_text, sizeof c->uri_text, "%s", uri);
        if (!c->secret_given && sl) {
            memcpy(c->secret, sec, sl);
            c->secret_len = sl;
        }
        OPENSSL_cleanse(sec, sizeof sec);
    } else if (c->user_default) {
        char sock[108], lock[4096];
        if (tide_ns_user_paths(sock, sizeof sock, lock, sizeof lock, 0, err, sizeof err) != 0) {
            if (errno == ENOENT) { /* no directory yet: nothing listens */
                char dir[4096];
                tide_ns_user_dir(dir, sizeof dir, 0, err, sizeof err);
                memset(&c->uri, 0, sizeof c->uri);
                c->uri.kind = TIDE_NS_URI_UNIX;
                snprintf(c->uri.path, sizeof c->uri.path, "%.99s/ns.sock", dir);
                return 1;
            }
            set_error(c, "%s", err);
            return -1;
        }
        memset(&c->uri, 0, sizeof c->uri);
        c->uri.kind = TIDE_NS_URI_UNIX;
        snprintf(c->uri.path, sizeof c->uri.path, "%s", sock);
    }
    return 0;
}

static void start_connect(struct tide_ns_client *c)
{
    if (c->state != C_IDLE || c->closing)
        return;
    int lt = load_target(c);
    if (lt < 0) {
        conn_fatal(c, TIDE_NS_UNREACHABLE);
        return;
    }
    int fd = -1, rc = -1, err = 0;
    if (c->uri.kind == TIDE_NS_URI_UNIX) {
        if (lt == 0) {
            fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
            struct sockaddr_un sun = {.sun_family = AF_UNIX};
            snprintf(sun.sun_path, sizeof sun.sun_path, "%s", c->uri.path);
            rc = fd < 0 ? -1 : connect(fd, (struct sockaddr *)&sun, sizeof sun);
            err = rc == 0 ? 0 : errno;
        } else {
            err = ENOENT;
        }
        if (rc != 0 && c->user_default && (err == ENOENT || err == ECONNREFUSED)) {
            if (fd >= 0)
                close(fd);
            set_error(c, "nothing listens on %s", c->uri.path);
            if (c->no_autostart) {
                conn_fatal(c, TIDE_NS_UNREACHABLE);
                return;
            }
            struct timespec now;
            clock_gettime(CLOCK_MONOTONIC, &now);
            long since = (now.tv_sec - c->last_spawn.tv_sec) * 1000 +
                         (now.tv_nsec - c->last_spawn.tv_nsec) / 1000000;
            if (!c->spawned || since > 1000) {
                if (spawn_server(c) != 0) {
                    conn_fatal(c, TIDE_NS_UNREACHABLE);
                    return;
                }
                c->spawned = 1;
                c->last_spawn = now;
                c->backoff_ms = BACKOFF_MIN_MS;
            }
            retry_later(c);
            return;
        }
    } else {
        char ports[16];
        snprintf(ports, sizeof ports, "%u", c->uri.port);
        struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *res = NULL;
        int g = getaddrinfo(c->uri.host, ports, &hints, &res);
        if (g != 0) {
            set_error(c, "cannot resolve %s: %s", c->uri.host, gai_strerror(g));
            conn_lost(c);
            return;
        }
        for (struct addrinfo *a = res; a; a = a->ai_next) {
            fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
            if (fd < 0)
                continue;
            rc = connect(fd, a->ai_addr, a->ai_addrlen);
            err = rc == 0 ? 0 : errno;
            if (rc == 0 || err == EINPROGRESS)
                break;
            close(fd);
            fd = -1;
        }
        freeaddrinfo(res);
    }
    if (fd < 0 || (rc != 0 && err != EINPROGRESS)) {
        if (fd >= 0)
            close(fd);
        set_error(c, "cannot connect to %s: %s", target(c), strerror(err ? err : EINVAL));
        conn_lost(c);
        return;
    }
    c->fd = fd;
    if (rc == 0) {
        connected(c);
        return;
    }
    c->state = C_CONNECTING;
    event_del(c->conn_ev);
    event_assign(c->conn_ev, c->base, fd, EV_WRITE, connect_done_cb, c);
    struct timeval tv = {HANDSHAKE_MS / 1000, (HANDSHAKE_MS % 1000) * 1000};
    event_add(c->conn_ev, &tv);
}

/* ---- requests ---- */

static void deadline_cb(evutil_socket_t fd, short what, void *arg);

/* Queue r (its fields set) with its deadline, and get it going. 0 or -1
 * (r freed). */
static int enqueue(struct tide_ns_client *c, struct req *r)
{
    /* the deadline: our timeout on top of the lookup's own wait */
    long long ms = (long long)c->timeout_ms + r->wait_ms;
    r->timer = evtimer_new(c->base, deadline_cb, r);
    if (!r->timer) {
        req_free(r);
        return -1;
    }
    struct timeval tv = {(time_t)(ms / 1000), (suseconds_t)((ms % 1000) * 1000)};
    evtimer_add(r->timer, &tv);
    list_push(&c->queue, r);
    if (c->state == C_READY)
        send_queued(c);
    else if (c->state == C_IDLE)
        start_connect(c);
    return 0;
}

/* key: a publish's key or an unpublish's credential (NULL: none) */
static int submit(struct tide_ns_client *c, uint16_t type, const char *service, const char *port,
                  const char *owner, const uint8_t *key, uint32_t wait_ms, tide_ns_cb cb, void *arg)
{
    if (!c || c->closing)
        return -1;
    struct req *r = calloc(1, sizeof *r);
    if (!r)
        return -1;
    r->c = c;
    r->type = type;
    r->wait_ms = wait_ms;
    r->cb = cb;
    r->arg = arg;
    if (key) {
        memcpy(r->key, key, sizeof r->key);
        r->has_key = 1;
    }
    char why[256];
    int st = tide_ns_check_args(service, port, owner, why, sizeof why);
    if (st == TIDE_NS_OK) {
        r->service = service ? strdup(service) : NULL;
        r->port = port ? strdup(port) : NULL;
        r->owner = owner ? strdup(owner) : NULL;
        if ((service && !r->service) || (port && !r->port) || (owner && !r->owner)) {
            req_free(r);
            return -1;
        }
        return enqueue(c, r);
    }
    r->done_status = st;
    r->done_msg = strdup(why);
    list_push(&c->done, r);
    event_active(c->defer_ev, 0, 0);
    return 0;
}

static void deadline_cb(evutil_socket_t fd, short what, void *arg)
{
    struct req *r = arg;
    struct tide_ns_client *c = r->c;
    (void)fd;
    (void)what;
    c->depth++;
    char msg[2048];
    int status = TIDE_NS_TIMEOUT;
    if (list_has(&c->inflight, r)) {
        list_remove(&c->inflight, r);
        snprintf(msg, sizeof msg, "%s did not answer within %d ms", target(c),
                 c->timeout_ms + (int)r->wait_ms);
    } else {
        list_remove(&c->queue, r);
        if (c->last_error[0])
            snprintf(msg, sizeof msg, "cannot reach %s within %d ms: %s", target(c),
                     c->timeout_ms + (int)r->wait_ms, c->last_error);
        else
            snprintf(msg, sizeof msg, "cannot reach %s within %d ms", target(c),
                     c->timeout_ms + (int)r->wait_ms);
        status = c->last_error[0] ? TIDE_NS_UNREACHABLE : TIDE_NS_TIMEOUT;
    }
    complete(c, r, status, NULL, 0, msg);
    leave(c);
}

int tide_ns_publish(struct tide_ns_client *c, const char *service, const char *port,
                    const char *owner, tide_ns_cb cb, void *arg)
{
    /* a fresh key per publication: the server derives the credential from it */
    uint8_t key[TIDE_NS_CRED_LEN];
    if (tide_ns_random(key, sizeof key) != 0)
        return -1;
    int rc = submit(c, TIDE_NS_PUBLISH, service ? service : "", port ? port : "", owner ? owner : "",
                    key, 0, cb, arg);
    OPENSSL_cleanse(key, sizeof key);
    return rc;
}

int tide_ns_lookup(struct tide_ns_client *c, const char *service, uint32_t wait_ms, tide_ns_cb cb,
                   void *arg)
{
    return submit(c, TIDE_NS_LOOKUP, service ? service : "", NULL, NULL, NULL, wait_ms, cb, arg);
}

int tide_ns_unpublish(struct tide_ns_client *c, const char *service, const char *owner,
                      tide_ns_cb cb, void *arg)
{
    /* only a name we published, for the same owner, gets its credential */
    const struct pubrec *p = c && service ? pub_find(c, service) : NULL;
    const uint8_t *cred = p && owner && strcmp(p->owner, owner) == 0 ? p->cred : NULL;
    return submit(c, TIDE_NS_UNPUBLISH, service ? service : "", NULL, owner ? owner : "", cred, 0,
                  cb, arg);
}

int tide_ns_unpublish_cred(struct tide_ns_client *c, const char *service,
                           const uint8_t cred[TIDE_NS_CRED_LEN], tide_ns_cb cb, void *arg)
{
    return submit(c, TIDE_NS_UNPUBLISH, service ? service : "", NULL, NULL, cred, 0, cb, arg);
}

int tide_ns_held_cred(const struct tide_ns_client *c, const char *service,
                      uint8_t cred[TIDE_NS_CRED_LEN])
{
    for (const struct pubrec *p = c->pubs; p; p = p->next)
        if (strcmp(p->service, service) == 0) {
            memcpy(cred, p->cred, TIDE_NS_CRED_LEN);
            return 0;
        }
    return -1;
}

/* ---- the end of a job: every name of an owner we hold a credential for ---- */

static void group_cb(const struct tide_ns_result *r, void *arg)
{
    struct group *g = arg;
    if (r->status == TIDE_NS_OK) {
        g->count += r->count;
    } else if (g->status == TIDE_NS_OK) {
        g->status = r->status;
        free(g->message);
        g->message = strdup(r->message);
    }
    if (--g->remaining > 0)
        return;
    struct tide_ns_result res = {
        .status = g->status,
        .count = g->count,
        .message = g->message ? g->message : tide_ns_strstatus(g->status),
    };
    if (g->cb)
        g->cb(&res, g->arg);
    free(g->message);
    free(g);
}

/* a frame of UNPUBLISH_SET stays well under TIDE_NS_MAX_FRAME */
#define SET_MAX_BYTES (TIDE_NS_MAX_FRAME / 2)
#define SET_MAX_NAMES 256

int tide_ns_unpublish_owner(struct tide_ns_client *c, const char *owner, tide_ns_cb cb, void *arg)
{
    if (!c || c->closing)
        return -1;
    if (!owner || !*owner) /* checked (and answered) like any other bad argument */
        return submit(c, TIDE_NS_UNPUBLISH_SET, NULL, NULL, "", NULL, 0, cb, arg);
    size_t n = 0;
    for (const struct pubrec *p = c->pubs; p; p = p->next)
        n += owned_by(p->owner, owner);
    if (n == 0) { /* nothing of it published through us: nothing to prove, no round trip */
        struct req *r = calloc(1, sizeof *r);
        if (!r)
            return -1;
        r->c = c;
        r->type = TIDE_NS_UNPUBLISH_SET;
        r->cb = cb;
        r->arg = arg;
        r->done_status = TIDE_NS_OK;
        list_push(&c->done, r);
        event_active(c->defer_ev, 0, 0);
        return 0;
    }
    /* cut into requests; each gets its own copy of the names and credentials */
    struct req *reqs = NULL, **tail = &reqs;
    int nreq = 0;
    const struct pubrec *p = c->pubs;
    for (size_t taken = 0; taken < n;) {
        struct req *r = calloc(1, sizeof *r);
        if (!r)
            goto fail;
        *tail = r;
        tail = &r->next;
        nreq++;
        r->c = c;
        r->type = TIDE_NS_UNPUBLISH_SET;
        r->set_service = calloc(SET_MAX_NAMES, sizeof *r->set_service);
        r->set_cred = calloc(SET_MAX_NAMES, sizeof *r->set_cred);
        if (!r->set_service || !r->set_cred)
            goto fail;
        size_t bytes = 0;
        for (; p && r->nset < SET_MAX_NAMES; p = p->next) {
            if (!owned_by(p->owner, owner))
                continue;
            size_t need = strlen(p->service) + TIDE_NS_CRED_LEN + 16;
            if (r->nset && bytes + need > SET_MAX_BYTES)
                break;
            r->set_service[r->nset] = strdup(p->service);
            if (!r->set_service[r->nset])
                goto fail;
            memcpy(r->set_cred[r->nset], p->cred, TIDE_NS_CRED_LEN);
            r->nset++;
            bytes += need;
            taken++;
        }
    }
    struct group *g = calloc(1, sizeof *g);
    if (!g)
        goto fail;
    g->remaining = nreq;
    g->status = TIDE_NS_OK;
    g->cb = cb;
    g->arg = arg;
    while (reqs) {
        struct req *r = reqs;
        reqs = r->next;
        r->next = NULL;
        r->cb = group_cb;
        r->arg = g;
        if (enqueue(c, r) != 0) {
            /* answered as a failure, so the group still completes once */
            struct tide_ns_result res = {.status = TIDE_NS_NOMEM, .message = "out of memory"};
            group_cb(&res, g);
        }
    }
    return 0;
fail:
    while (reqs) {
        struct req *r = reqs;
        reqs = r->next;
        req_free(r);
    }
    return -1;
}

int tide_ns_ping(struct tide_ns_client *c, tide_ns_cb cb, void *arg)
{
    return submit(c, TIDE_NS_PING, NULL, NULL, NULL, NULL, 0, cb, arg);
}

int tide_ns_status(struct tide_ns_client *c, tide_ns_cb cb, void *arg)
{
    return submit(c, TIDE_NS_STATUS, NULL, NULL, NULL, NULL, 0, cb, arg);
}

const char *tide_ns_last_error(const struct tide_ns_client *c) { return c->last_error; }

int tide_ns_connected(const struct tide_ns_client *c) { return c->state == C_READY; }

/* ---- opening and closing ---- */

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

struct tide_ns_client *tide_ns_open(struct event_base *base, const char *uri, const char *secret,
                                    const struct tide_ns_opts *opts, char *err, size_t errlen)
{
    struct tide_ns_opts none = {0};
    if (!opts)
        opts = &none;
    struct tide_ns_client *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    c->base = base;
    c->fd = -1;
    c->timeout_ms = opts->timeout_ms > 0 ? opts->timeout_ms : DEFAULT_TIMEOUT_MS;
    c->no_autostart = opts->no_autostart;
    c->idle_exit = opts->idle_exit;
    c->server_prog = dup_or_null(opts->server_prog);
    c->client_name = dup_or_null(opts->client_name);
    c->conn_ev = event_new(base, -1, 0, retry_cb, c);
    c->defer_ev = event_new(base, -1, 0, defer_cb, c);
    if (!c->conn_ev || !c->defer_ev) {
        snprintf(err, errlen, "cannot set up events");
        goto fail;
    }
    if (!uri || !*uri) {
        c->user_default = 1;
    } else if (uri[0] == '@') {
        c->uri_file = strdup(uri + 1);
        if (!c->uri_file)
            goto fail;
    } else {
        if (tide_ns_uri_parse(uri, &c->uri, err, errlen) != 0)
            goto fail;
        snprintf(c->uri_text, sizeof c->uri_text, "%s", uri);
    }
    if (secret) {
        size_t n = strlen(secret);
        if (n < TIDE_NS_SECRET_MIN || n > TIDE_NS_SECRET_MAX) {
            snprintf(err, errlen, "the name server secret must be %d to %d bytes long", TIDE_NS_SECRET_MIN,
                     TIDE_NS_SECRET_MAX);
            goto fail;
        }
        memcpy(c->secret, secret, n);
        c->secret_len = n;
        c->secret_given = 1;
    } else {
        const char *sf = opts->secret_file;
        if (!sf && !c->uri_file && !c->user_default)
            sf = getenv("TIDE_NAMESERVER_SECRET_FILE");
        if (sf && *sf) {
            if (tide_ns_secret_load(sf, c->secret, &c->secret_len, err, errlen) != 0)
                goto fail;
            c->secret_given = 1;
        }
    }
    if (c->uri_file) { /* read it now, so a wrong path is reported at once */
        if (load_target(c) != 0) {
            snprintf(err, errlen, "%s", c->last_error);
            goto fail;
        }
        c->last_error[0] = '\0';
    }
    if (c->uri.kind == TIDE_NS_URI_TCP && !c->secret_len) {
        snprintf(err, errlen,
                 "no secret for the name server %s: use @URI_FILE, or name a secret file "
                 "(TIDE_NAMESERVER_SECRET_FILE)",
                 c->uri_text);
        goto fail;
    }
    return c;
fail:
    if (!err[0])
        snprintf(err, errlen, "out of memory");
    client_free(c);
    return NULL;
}

static void client_free(struct tide_ns_client *c)
{
    conn_reset(c);
    while (c->queue.head) {
        struct req *r = c->queue.head;
        list_remove(&c->queue, r);
        req_free(r);
    }
    while (c->done.head) {
        struct req *r = c->done.head;
        list_remove(&c->done, r);
        req_free(r);
    }
    while (c->pubs) {
        struct pubrec *p = c->pubs;
        c->pubs = p->next;
        pubrec_free(p);
    }
    if (c->conn_ev)
        event_free(c->conn_ev);
    if (c->defer_ev)
        event_free(c->defer_ev);
    SSL_CTX_free(c->ssl_ctx);
    free(c->server_prog);
    free(c->client_name);
    free(c->secret_file);
    free(c->uri_file);
    OPENSSL_cleanse(c->secret, sizeof c->secret);
    free(c);
}

void tide_ns_close(struct tide_ns_client *c)
{
    if (!c || c->closing)
        return;
    c->depth++;
    c->closing = 1;
    conn_reset(c);
    fail_all(c, TIDE_NS_CLOSED, "the name server client was closed");
    while (c->done.head) {
        struct req *r = c->done.head;
        list_remove(&c->done, r);
        char *msg = r->done_msg;
        r->done_msg = NULL;
        complete(c, r, TIDE_NS_CLOSED, NULL, 0, "the name server client was closed");
        free(msg);
    }
    leave(c);
}

/* ---- the blocking wrapper ---- */

struct tide_ns_sync {
    struct event_base *base;
    struct tide_ns_client *c;
};

struct sync_wait {
    int done, status;
    uint64_t count;
    char *value, *msg;
    size_t valuelen, msglen;
};

static void sync_cb(const struct tide_ns_result *r, void *arg)
{
    struct sync_wait *w = arg;
    w->done = 1;
    w->status = r->status;
    w->count = r->count;
    if (w->value && w->valuelen)
        snprintf(w->value, w->valuelen, "%s", r->value ? r->value : "");
    if (w->msg && w->msglen)
        snprintf(w->msg, w->msglen, "%s", r->message);
}

static int sync_run(struct tide_ns_sync *s, struct sync_wait *w, int rc)
{
    if (rc != 0) {
        if (w->msg && w->msglen)
            snprintf(w->msg, w->msglen, "cannot make the request");
        return TIDE_NS_NOMEM;
    }
    while (!w->done)
        if (event_base_loop(s->base, EVLOOP_ONCE) < 0)
            break;
    return w->done ? w->status : TIDE_NS_INTERNAL;
}

struct tide_ns_sync *tide_ns_sync_open(const char *uri, const char *secret,
                                       const struct tide_ns_opts *opts, char *err, size_t errlen)
{
    struct tide_ns_sync *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->base = event_base_new();
    if (s->base)
        s->c = tide_ns_open(s->base, uri, secret, opts, err, errlen);
    else
        snprintf(err, errlen, "cannot make an event base");
    if (!s->c) {
        if (s->base)
            event_base_free(s->base);
        free(s);
        return NULL;
    }
    return s;
}

int tide_ns_sync_publish(struct tide_ns_sync *s, const char *service, const char *port,
                         const char *owner, char *msg, size_t msglen)
{
    struct sync_wait w = {.msg = msg, .msglen = msglen};
    return sync_run(s, &w, tide_ns_publish(s->c, service, port, owner, sync_cb, &w));
}

int tide_ns_sync_lookup(struct tide_ns_sync *s, const char *service, uint32_t wait_ms, char *port,
                        size_t portlen, char *msg, size_t msglen)
{
    struct sync_wait w = {.value = port, .valuelen = portlen, .msg = msg, .msglen = msglen};
    return sync_run(s, &w, tide_ns_lookup(s->c, service, wait_ms, sync_cb, &w));
}

int tide_ns_sync_unpublish(struct tide_ns_sync *s, const char *service, const char *owner, char *msg,
                           size_t msglen)
{
    struct sync_wait w = {.msg = msg, .msglen = msglen};
    return sync_run(s, &w, tide_ns_unpublish(s->c, service, owner, sync_cb, &w));
}

int tide_ns_sync_unpublish_cred(struct tide_ns_sync *s, const char *service,
                                const uint8_t cred[TIDE_NS_CRED_LEN], char *msg, size_t msglen)
{
    struct sync_wait w = {.msg = msg, .msglen = msglen};
    return sync_run(s, &w, tide_ns_unpublish_cred(s->c, service, cred, sync_cb, &w));
}

int tide_ns_sync_unpublish_owner(struct tide_ns_sync *s, const char *owner, uint64_t *count,
                                 char *msg, size_t msglen)
{
    struct sync_wait w = {.msg = msg, .msglen = msglen};
    int st = sync_run(s, &w, tide_ns_unpublish_owner(s->c, owner, sync_cb, &w));
    if (count)
        *count = w.count;
    return st;
}

int tide_ns_sync_ping(struct tide_ns_sync *s, char *msg, size_t msglen)
{
    struct sync_wait w = {.msg = msg, .msglen = msglen};
    return sync_run(s, &w, tide_ns_ping(s->c, sync_cb, &w));
}

int tide_ns_sync_status(struct tide_ns_sync *s, char *value, size_t valuelen, char *msg,
                        size_t msglen)
{
    struct sync_wait w = {.value = value, .valuelen = valuelen, .msg = msg, .msglen = msglen};
    return sync_run(s, &w, tide_ns_status(s->c, sync_cb, &w));
}

struct tide_ns_client *tide_ns_sync_client(struct tide_ns_sync *s) { return s->c; }
struct event_base *tide_ns_sync_base(struct tide_ns_sync *s) { return s->base; }

void tide_ns_sync_close(struct tide_ns_sync *s)
{
    if (!s)
        return;
    tide_ns_close(s->c);
    event_base_free(s->base);
    free(s);
}
