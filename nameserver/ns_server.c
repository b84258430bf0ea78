/*
 * ns_server.c: tide-nameserver's connections on one libevent loop:
 * accepting (TLS over TCP, or a unix socket whose peer must be our own
 * user), the challenge-response handshake, the requests, lookups that wait
 * for a name to appear, saving the table before answering changes when
 * --persist is on, and exiting when idle.
 *
 * Ownership: a name is removed only by whoever presents its credential
 * (nsproto.h, "Ownership"); the owner string a client sends is a label. On
 * the unix socket only our own user connects at all (SO_PEERCRED).
 *
 * Nothing a client sends can hurt another client: a frame that does not
 * decode, a request before authentication, or a client that does not read
 * its replies closes that one connection with a log line; bad arguments
 * get an error reply. Connections are freed from a deferred event, never
 * in the middle of handling, so handlers never touch freed memory.
 */
#include "nameserver.h"
#include "channel.h"
#include "log.h"

#include <arpa/inet.h>
#include <errno.h>
#include <malloc.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <openssl/crypto.h>
#include <openssl/ssl.h>

#define MAX_OUTQ (8u * 1024 * 1024) /* replies a client leaves unread before we hang up */
#define MAX_WAITERS_PER_CONN 1024
#define MAX_WAITERS 65536

struct held {
    struct tide_wbuf w;
    struct held *next;
};

struct ns_conn {
    struct ns_server *srv;
    struct tide_channel *ch;
    uint64_t id;
    int authed, closing;
    uint8_t nonce[TIDE_NS_NONCE_LEN];
    struct event *auth_ev;
    size_t nwaiters;
    struct held *held_head, *held_tail; /* replies waiting for the table to be saved */
    struct ns_conn *prev, *next;
    char peer[64];
};

struct ns_waiter {
    struct ns_conn *c;
    uint32_t id;
    char *service;
    struct event *ev;
    struct ns_waiter *prev, *next;
};

static struct ns_conn *dead_conns; /* closed, freed by reap_ev */
static struct event *reap_ev;

static void conn_close(struct ns_conn *c, const char *why);

/* ---- idle exit ---- */

static void idle_cb(evutil_socket_t fd, short what, void *arg)
{
    struct ns_server *s = arg;
    (void)fd;
    (void)what;
    if (s->nconns == 0 && ns_table_count(s->table) == 0) {
        TIDE_DEBUG(1, "no names and no clients for %d s: exiting", s->idle_exit);
        event_base_loopexit(s->base, NULL);
    }
}

static void check_idle(struct ns_server *s)
{
    if (s->idle_exit <= 0 || !s->idle_ev)
        return;
    if (s->nconns == 0 && ns_table_count(s->table) == 0) {
        if (!evtimer_pending(s->idle_ev, NULL)) {
            struct timeval tv = {s->idle_exit, 0};
            evtimer_add(s->idle_ev, &tv);
        }
    } else {
        evtimer_del(s->idle_ev);
    }
}

/* ---- saving ---- */

static void flush_held(struct ns_server *s)
{
    for (struct ns_conn *c = s->conns; c; c = c->next) {
        while (c->held_head) {
            struct held *h = c->held_head;
            c->held_head = h->next;
            if (!c->closing)
                tide_channel_send(c->ch, &h->w);
            else
                tide_wire_free(&h->w);
            free(h);
        }
        c->held_tail = NULL;
    }
}

static void save_cb(evutil_socket_t fd, short what, void *arg)
{
    struct ns_server *s = arg;
    (void)fd;
    (void)what;
    if (!s->dirty)
        return;
    char err[512];
    if (ns_persist_save(s->persist_path, s->table, &s->id, err, sizeof err) != 0) {
        if (!s->save_failed)
            tide_error("cannot save the name table (retrying every second): %s", err);
        s->save_failed = 1;
        struct timeval tv = {1, 0};
        event_add(s->save_ev, &tv);
    } else {
        if (s->save_failed)
            tide_error("name table saved again to %s", s->persist_path);
        s->save_failed = 0;
        s->dirty = 0;
        TIDE_DEBUG(3, "saved %zu names to %s", ns_table_count(s->table), s->persist_path);
    }
    /* names are live in memory either way: answer the clients */
    flush_held(s);
}

static void mark_dirty(struct ns_server *s)
{
    if (!s->persist_path)
        return;
    s->dirty = 1;
    if (!s->save_failed)
        event_active(s->save_ev, 0, 0);
}

void ns_server_save_now(struct ns_server *s)
{
    if (s->persist_path && s->dirty)
        save_cb(-1, 0, s);
}

/* ---- replies ---- */

static void conn_send(struct ns_conn *c, struct tide_wbuf *w)
{
    if (c->closing) {
        tide_wire_free(w);
        return;
    }
    if (c->held_head || (c->srv->persist_path && c->srv->dirty)) {
        struct held *h = malloc(sizeof *h);
        if (!h) {
            tide_wire_free(w);
            conn_close(c, "out of memory");
            return;
        }
        h->w = *w;
        h->next = NULL;
        if (c->held_tail)
            c->held_tail->next = h;
        else
            c->held_head = h;
        c->held_tail = h;
        return;
    }
    tide_channel_send(c->ch, w);
    if (tide_channel_outq(c->ch) > MAX_OUTQ) {
        tide_error("closing connection from %s: it does not read its replies", c->peer);
        conn_close(c, "not reading");
    }
}

static void reply_cred(struct ns_conn *c, uint32_t id, int status, const char *value,
                       uint64_t count, const char *message, const uint8_t *cred)
{
    struct tide_wbuf w;
    tide_ns_enc_reply(&w, id, (uint16_t)status, value, count, message, cred);
    conn_send(c, &w);
}

static void reply(struct ns_conn *c, uint32_t id, int status, const char *value, uint64_t count,
                  const char *message)
{
    reply_cred(c, id, status, value, count, message, NULL);
}

/* ---- lookups that wait ---- */

static void waiter_free(struct ns_server *s, struct ns_waiter *w, int unlink)
{
    if (unlink) {
        if (w->prev)
            w->prev->next = w->next;
        else
            s->waiters = w->next;
        if (w->next)
            w->next->prev = w->prev;
    }
    s->nwaiters--;
    w->c->nwaiters--;
    event_free(w->ev);
    free(w->service);
    free(w);
}

static void waiter_timeout_cb(evutil_socket_t fd, short what, void *arg)
{
    struct ns_waiter *w = arg;
    struct ns_conn *c = w->c;
    struct ns_server *s = c->srv;
    (void)fd;
    (void)what;
    char msg[200];
    snprintf(msg, sizeof msg, "no name '%.100s' was published before the wait ended", w->service);
    uint32_t id = w->id;
    waiter_free(s, w, 1);
    reply(c, id, TIDE_NS_NOT_FOUND, NULL, 0, msg);
}

static void waiters_wake(struct ns_server *s, const struct ns_entry *e)
{
    /* take the matching waiters out first: replying may close connections */
    struct ns_waiter *hit = NULL;
    for (struct ns_waiter *w = s->waiters, *next; w; w = next) {
        next = w->next;
        if (strcmp(w->service, e->service) != 0)
            continue;
        if (w->prev)
            w->prev->next = w->next;
        else
            s->waiters = w->next;
        if (w->next)
            w->next->prev = w->prev;
        w->next = hit;
        hit = w;
    }
    while (hit) {
        struct ns_waiter *w = hit;
        hit = w->next;
        struct ns_conn *c = w->c;
        uint32_t id = w->id;
        waiter_free(s, w, 0);
        reply(c, id, TIDE_NS_OK, e->port, 0, NULL);
    }
}

static void waiters_drop_conn(struct ns_server *s, struct ns_conn *c)
{
    for (struct ns_waiter *w = s->waiters, *next; w && c->nwaiters; w = next) {
        next = w->next;
        if (w->c == c)
            waiter_free(s, w, 1);
    }
}

static void add_waiter(struct ns_conn *c, const struct tide_ns_msg *m)
{
    struct ns_server *s = c->srv;
    if (c->nwaiters >= MAX_WAITERS_PER_CONN || s->nwaiters >= MAX_WAITERS) {
        reply(c, m->id, TIDE_NS_FULL, NULL, 0, "too many lookups waiting");
        return;
    }
    struct ns_waiter *w = calloc(1, sizeof *w);
    if (w)
        w->service = strdup(m->service);
    if (w && w->service)
        w->ev = evtimer_new(s->base, waiter_timeout_cb, w);
    if (!w || !w->ev) {
        if (w)
            free(w->service);
        free(w);
        reply(c, m->id, TIDE_NS_INTERNAL, NULL, 0, "out of memory");
        return;
    }
    w->c = c;
    w->id = m->id;
    struct timeval tv = {m->wait_ms / 1000, (m->wait_ms % 1000) * 1000};
    evtimer_add(w->ev, &tv);
    w->next = s->waiters;
    if (s->waiters)
        s->waiters->prev = w;
    s->waiters = w;
    s->nwaiters++;
    c->nwaiters++;
}

/* ---- requests ---- */

static void do_request(struct ns_conn *c, const struct tide_ns_msg *m)
{
    struct ns_server *s = c->srv;
    char why[256];
    s->requests++;
    int st = tide_ns_check_request(m, why, sizeof why);
    if (st != TIDE_NS_OK) {
        TIDE_DEBUG(1, "request from %s refused: %s", c->peer, why);
        reply(c, m->id, st, NULL, 0, why);
        return;
    }
    switch (m->type) {
    case TIDE_NS_PUBLISH: {
        int changed = 0;
        /* a fresh publication's credential comes from our key and the
         * client's; a re-assertion carries the credential itself */
        uint8_t cred[TIDE_NS_CRED_LEN], hash[NS_CRED_HASH_LEN];
        if ((m->flags & TIDE_NS_PUB_REASSERT)
                ? (memcpy(cred, m->cred, sizeof cred), 0)
                : tide_ns_cred_derive(s->id.cred_key, m->service, m->cred, cred)) {
            st = TIDE_NS_NOMEM;
        } else if (tide_ns_cred_hash(cred, hash) != 0) {
            st = TIDE_NS_NOMEM;
        } else {
            st = ns_table_publish(s->table, m->service, m->port, m->owner, hash, c->id, &changed);
        }
        if (st == TIDE_NS_DUPLICATE)
            snprintf(why, sizeof why, "'%.100s' is already published", m->service);
        else if (st == TIDE_NS_FULL)
            snprintf(why, sizeof why, "the table is full (%zu names)", ns_table_count(s->table));
        else if (st == TIDE_NS_NOMEM)
            st = TIDE_NS_INTERNAL;
        TIDE_DEBUG(2, "publish '%s' by %s from %s%s: %s", m->service, m->owner, c->peer,
                   (m->flags & TIDE_NS_PUB_REASSERT) ? " (re-asserted)" : "", tide_ns_strstatus(st));
        if (changed)
            mark_dirty(s);
        reply_cred(c, m->id, st, NULL, 0, st == TIDE_NS_OK ? NULL : why,
                   st == TIDE_NS_OK ? cred : NULL);
        OPENSSL_cleanse(cred, sizeof cred);
        if (st == TIDE_NS_OK) {
            const struct ns_entry *e = ns_table_lookup(s->table, m->service);
            if (e)
                waiters_wake(s, e);
        }
        check_idle(s);
        break;
    }
    case TIDE_NS_LOOKUP: {
        const struct ns_entry *e = ns_table_lookup(s->table, m->service);
        if (e) {
            reply(c, m->id, TIDE_NS_OK, e->port, 0, NULL);
        } else if (m->wait_ms > 0) {
            add_waiter(c, m);
        } else {
            snprintf(why, sizeof why, "no name '%.100s' is published", m->service);
            reply(c, m->id, TIDE_NS_NOT_FOUND, NULL, 0, why);
        }
        break;
    }
    case TIDE_NS_UNPUBLISH: {
        uint8_t hash[NS_CRED_HASH_LEN];
        int have = m->has_cred && tide_ns_cred_hash(m->cred, hash) == 0;
        st = ns_table_unpublish(s->table, m->service, have ? hash : NULL);
        if (st == TIDE_NS_NOT_FOUND)
            snprintf(why, sizeof why, "no name '%.100s' is published", m->service);
        else if (st == TIDE_NS_NOT_OWNER)
            snprintf(why, sizeof why, "'%.100s' was published by another owner: %s", m->service,
                     m->has_cred ? "the credential does not match" : "no credential was presented");
        if (st == TIDE_NS_NOT_OWNER)
            tide_error("refused to unpublish '%.100s' for %s: %s credential", m->service, c->peer,
                       m->has_cred ? "wrong" : "no");
        TIDE_DEBUG(2, "unpublish '%s' from %s: %s", m->service, c->peer, tide_ns_strstatus(st));
        if (st == TIDE_NS_OK)
            mark_dirty(s);
        reply(c, m->id, st, NULL, 0, st == TIDE_NS_OK ? NULL : why);
        check_idle(s);
        break;
    }
    case TIDE_NS_UNPUBLISH_SET: {
        size_t n = 0, refused = 0;
        for (uint32_t i = 0; i < m->nset; i++) {
            uint8_t hash[NS_CRED_HASH_LEN];
            if (tide_ns_cred_hash(m->set_cred[i], hash) != 0)
                continue;
            int r = ns_table_unpublish(s->table, m->set_service[i], hash);
            if (r == TIDE_NS_OK)
                n++;
            else if (r == TIDE_NS_NOT_OWNER)
                refused++;
        }
        if (refused)
            tide_error("refused to unpublish %zu of %u names for %s: wrong credentials", refused,
                       (unsigned)m->nset, c->peer);
        TIDE_DEBUG(2, "unpublish %u names from %s: %zu removed", (unsigned)m->nset, c->peer, n);
        if (n)
            mark_dirty(s);
        reply(c, m->id, TIDE_NS_OK, NULL, n, NULL);
        check_idle(s);
        break;
    }
    case TIDE_NS_PING:
        reply(c, m->id, TIDE_NS_OK, NULL, 0, NULL);
        break;
    case TIDE_NS_STATUS: {
        char v[256];
        snprintf(v, sizeof v, "names=%zu connections=%zu waiters=%zu pid=%d mode=%s persist=%s",
                 ns_table_count(s->table), s->nconns, s->nwaiters, (int)getpid(),
                 s->user_mode ? "user" : "tls", s->persist_path ? "yes" : "no");
        reply(c, m->id, TIDE_NS_OK, v, ns_table_count(s->table), NULL);
        break;
    }
    }
}

/* ---- handshake ---- */

static void refuse(struct ns_conn *c, int status, const char *message)
{
    struct tide_wbuf w;
    tide_ns_enc_welcome(&w, (uint16_t)status, NULL, message);
    tide_channel_send(c->ch, &w);
    if (c->authed == 0)
        c->srv->npending--;
    c->authed = -1; /* ignore anything else it sends */
    tide_channel_close_after_flush(c->ch);
}

static void do_hello(struct ns_conn *c, uint16_t type, int rc, const struct tide_ns_msg *m)
{
    struct ns_server *s = c->srv;
    if (type != TIDE_NS_HELLO || rc != TIDE_NS_OK) {
        tide_error("closing connection from %s: expected a HELLO frame, got %s frame 0x%x", c->peer,
                   rc == TIDE_NS_OK ? "a" : "a malformed", type);
        conn_close(c, "no hello");
        return;
    }
    if (m->version != TIDE_NS_PROTO_VERSION) {
        char msg[200];
        snprintf(msg, sizeof msg,
                 "protocol version %u not supported: this name server speaks version %d%s", m->version,
                 TIDE_NS_PROTO_VERSION,
                 m->version < TIDE_NS_PROTO_VERSION ? " (update the client: mpiexec, tools)" : "");
        tide_error("refusing connection from %s (%.60s): protocol version %u", c->peer,
                   m->client ? m->client : "unnamed client", m->version);
        refuse(c, TIDE_NS_VERSION, msg);
        return;
    }
    uint8_t mac[TIDE_NS_MAC_LEN];
    int need = !s->user_mode;
    const char *fp = s->user_mode ? "" : s->fingerprint;
    if (need) {
        uint8_t want[TIDE_NS_MAC_LEN];
        if (!m->has_mac ||
            tide_ns_client_mac(s->id.secret, s->id.secret_len, c->nonce, m->nonce, fp, want) != 0 ||
            !tide_ns_mac_equal(want, m->mac)) {
            tide_error("refusing connection from %s (%.60s): wrong secret", c->peer,
                       m->client ? m->client : "unnamed client");
            s->refused++;
            refuse(c, TIDE_NS_AUTH, "authentication failed: wrong secret");
            return;
        }
        if (tide_ns_server_mac(s->id.secret, s->id.secret_len, c->nonce, m->nonce, fp, mac) != 0) {
            refuse(c, TIDE_NS_INTERNAL, "cannot compute the server's proof");
            return;
        }
    }
    c->authed = 1;
    s->npending--;
    evtimer_del(c->auth_ev);
    TIDE_DEBUG(1, "client %s (%.100s) authenticated", c->peer, m->client ? m->client : "unnamed");
    struct tide_wbuf w;
    tide_ns_enc_welcome(&w, TIDE_NS_OK, need ? mac : NULL, NULL);
    conn_send(c, &w);
}

/* ---- connections ---- */

static void on_msg(struct tide_channel *ch, uint16_t type, struct tide_rbuf *r, void *arg)
{
    struct ns_conn *c = arg;
    (void)ch;
    if (c->closing || c->authed < 0)
        return;
    struct tide_ns_msg m;
    int rc = tide_ns_decode(type, r, &m);
    if (!c->authed) {
        do_hello(c, type, rc, &m);
    } else if (rc == TIDE_NS_BAD_REQUEST) {
        tide_error("closing connection from %s: malformed frame (type 0x%x)", c->peer, type);
        conn_close(c, "malformed frame");
    } else if (rc == TIDE_NS_UNSUPPORTED) {
        reply(c, m.id, TIDE_NS_UNSUPPORTED, NULL, 0, "unknown request type");
    } else {
        do_request(c, &m);
    }
    tide_ns_msg_clear(&m);
}

static void on_close(struct tide_channel *ch, const char *why, void *arg)
{
    struct ns_conn *c = arg;
    (void)ch;
    conn_close(c, why);
}

static void auth_timeout_cb(evutil_socket_t fd, short what, void *arg)
{
    struct ns_conn *c = arg;
    (void)fd;
    (void)what;
    tide_error("closing connection from %s: no authentication within %d ms", c->peer,
               c->srv->auth_timeout_ms);
    conn_close(c, "authentication timeout");
}

static void reap_cb(evutil_socket_t fd, short what, void *arg)
{
    struct ns_server *s = arg;
    (void)fd;
    (void)what;
    while (dead_conns) {
        struct ns_conn *c = dead_conns;
        dead_conns = c->next;
        free(c);
        if (s)
            s->freed_since_trim++;
    }
    /* after a burst of connections (a flood of silent ones, say), the
     * allocator keeps their TLS state's memory: give it back to the system
     * a little later (libevent finishes freeing a connection's buffers
     * from its own deferred callbacks), at most every 200 ms */
    if (s && s->freed_since_trim >= 32 && s->trim_ev && !evtimer_pending(s->trim_ev, NULL)) {
        struct timeval tv = {0, 200000};
        evtimer_add(s->trim_ev, &tv);
    }
}

static void trim_cb(evutil_socket_t fd, short what, void *arg)
{
    struct ns_server *s = arg;
    (void)fd;
    (void)what;
    TIDE_DEBUG(1, "%zu connections closed: memory given back to the system", s->freed_since_trim);
    s->freed_since_trim = 0;
    malloc_trim(0);
}

static void conn_close(struct ns_conn *c, const char *why)
{
    struct ns_server *s = c->srv;
    if (c->closing)
        return;
    c->closing = 1;
    if (c->authed == 0)
        s->npending--;
    TIDE_DEBUG(1, "connection from %s closed: %s", c->peer, why ? why : "");
    waiters_drop_conn(s, c);
    while (c->held_head) {
        struct held *h = c->held_head;
        c->held_head = h->next;
        tide_wire_free(&h->w);
        free(h);
    }
    c->held_tail = NULL;
    if (c->auth_ev)
        event_free(c->auth_ev);
    c->auth_ev = NULL;
    tide_channel_free(c->ch);
    c->ch = NULL;
    if (s->user_mode) {
        size_t n = ns_table_drop_conn(s->table, c->id);
        if (n) {
            TIDE_DEBUG(1, "%zu names of %s removed with its connection", n, c->peer);
            mark_dirty(s);
        }
    }
    if (c->prev)
        c->prev->next = c->next;
    else
        s->conns = c->next;
    if (c->next)
        c->next->prev = c->prev;
    s->nconns--;
    c->next = dead_conns;
    dead_conns = c;
    event_active(reap_ev, 0, 0);
    check_idle(s);
}

static void describe_peer(const struct sockaddr *sa, char *out, size_t outlen, int fd)
{
    if (sa->sa_family == AF_UNIX) {
        struct ucred cr;
        socklen_t l = sizeof cr;
        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &l) == 0)
            snprintf(out, outlen, "pid %d (uid %u)", (int)cr.pid, (unsigned)cr.uid);
        else
            snprintf(out, outlen, "unix peer");
        return;
    }
    char host[INET6_ADDRSTRLEN] = "?";
    unsigned port = 0;
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
        inet_ntop(AF_INET, &in->sin_addr, host, sizeof host);
        port = ntohs(in->sin_port);
    } else if (sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
        inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof host);
        port = ntohs(in6->sin6_port);
    }
    snprintf(out, outlen, "%s:%u", host, port);
}

static void accept_cb(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa, int salen,
                      void *arg)
{
    struct ns_server *s = arg;
    (void)l;
    (void)salen;
    char peer[64];
    describe_peer(sa, peer, sizeof peer, fd);
    /* unauthenticated connections have their own cap, so a flood of them
     * never keeps authenticated clients out: the oldest makes room */
    if (s->npending >= s->max_pending) {
        struct ns_conn *oldest = NULL;
        for (struct ns_conn *o = s->conns; o; o = o->next)
            if (o->authed == 0 && !o->closing)
                oldest = o; /* the list is newest first */
        if (oldest) {
            tide_error("closing connection from %s: %zu connections waiting to authenticate, it is the oldest",
                       oldest->peer, s->npending);
            conn_close(oldest, "too many unauthenticated connections");
        }
    }
    if (s->nconns >= s->max_conns) {
        tide_error("refusing connection from %s: %zu clients already", peer, s->nconns);
        s->refused++;
        close(fd);
        return;
    }
    if (sa->sa_family == AF_UNIX) {
        struct ucred cr;
        socklen_t cl = sizeof cr;
        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &cl) != 0 || cr.uid != geteuid()) {
            tide_error("refusing connection from %s: not our user", peer);
            s->refused++;
            close(fd);
            return;
        }
    } else {
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    struct ns_conn *c = calloc(1, sizeof *c);
    if (!c) {
        close(fd);
        return;
    }
    c->srv = s;
    c->id = ++s->next_conn_id;
    snprintf(c->peer, sizeof c->peer, "%s", peer);
    struct bufferevent *bev;
    if (s->ssl_ctx) {
        SSL *ssl = SSL_new(s->ssl_ctx);
        bev = ssl ? bufferevent_openssl_socket_new(s->base, fd, ssl, BUFFEREVENT_SSL_ACCEPTING,
                                                   BEV_OPT_CLOSE_ON_FREE)
                  : NULL;
        if (!bev) {
            SSL_free(ssl);
            close(fd);
        } else {
            bufferevent_openssl_set_allow_dirty_shutdown(bev, 1);
        }
    } else {
        bev = bufferevent_socket_new(s->base, fd, BEV_OPT_CLOSE_ON_FREE);
        if (!bev)
            close(fd);
    }
    c->ch = tide_channel_new_bev(bev, on_msg, on_close, c, peer);
    c->auth_ev = evtimer_new(s->base, auth_timeout_cb, c);
    if (!c->ch || !c->auth_ev || tide_ns_random(c->nonce, sizeof c->nonce) != 0) {
        tide_error("cannot set up a connection from %s", peer);
        tide_channel_free(c->ch);
        if (c->auth_ev)
            event_free(c->auth_ev);
        free(c);
        return;
    }
    tide_channel_set_max_payload(c->ch, TIDE_NS_MAX_FRAME);
    c->next = s->conns;
    if (s->conns)
        s->conns->prev = c;
    s->conns = c;
    s->nconns++;
    s->npending++;
    check_idle(s);
    struct timeval tv = {s->auth_timeout_ms / 1000, (s->auth_timeout_ms % 1000) * 1000};
    evtimer_add(c->auth_ev, &tv);
    TIDE_DEBUG(2, "connection from %s", peer);
    struct tide_wbuf w;
    tide_ns_enc_server_hello(&w, c->nonce, s->user_mode ? 0 : TIDE_NS_AUTH_SECRET);
    tide_channel_send(c->ch, &w);
}

static void relisten_cb(evutil_socket_t fd, short what, void *arg)
{
    struct ns_server *s = arg;
    (void)fd;
    (void)what;
    evconnlistener_enable(s->listener);
}

static void listener_error_cb(struct evconnlistener *l, void *arg)
{
    struct ns_server *s = arg;
    int e = EVUTIL_SOCKET_ERROR();
    tide_error("accept failed: %s (pausing new connections for 200 ms)", evutil_socket_error_to_string(e));
    evconnlistener_disable(l);
    struct timeval tv = {0, 200000};
    evtimer_add(s->relisten_ev, &tv);
}

int ns_server_start(struct ns_server *s, int listen_fd)
{
    if (!s->id.has_cred_key) {
        if (tide_ns_random(s->id.cred_key, sizeof s->id.cred_key) != 0)
            return -1;
        s->id.has_cred_key = 1;
    }
    reap_ev = event_new(s->base, -1, 0, reap_cb, s);
    s->save_ev = event_new(s->base, -1, 0, save_cb, s);
    s->idle_ev = evtimer_new(s->base, idle_cb, s);
    s->relisten_ev = evtimer_new(s->base, relisten_cb, s);
    s->trim_ev = evtimer_new(s->base, trim_cb, s);
    if (!reap_ev || !s->save_ev || !s->idle_ev || !s->relisten_ev || !s->trim_ev)
        return -1;
    s->listener = evconnlistener_new(s->base, accept_cb, s,
                                     LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC, 0, listen_fd);
    if (!s->listener)
        return -1;
    evconnlistener_set_error_cb(s->listener, listener_error_cb);
    check_idle(s);
    return 0;
}

void ns_server_stop(struct ns_server *s)
{
    while (s->conns)
        conn_close(s->conns, "server exiting");
    reap_cb(-1, 0, s);
    if (s->listener)
        evconnlistener_free(s->listener);
    s->listener = NULL;
    if (reap_ev)
        event_free(reap_ev);
    reap_ev = NULL;
    if (s->save_ev)
        event_free(s->save_ev);
    if (s->idle_ev)
        event_free(s->idle_ev);
    if (s->relisten_ev)
        event_free(s->relisten_ev);
    if (s->trim_ev)
        event_free(s->trim_ev);
    s->save_ev = s->idle_ev = s->relisten_ev = s->trim_ev = NULL;
}
