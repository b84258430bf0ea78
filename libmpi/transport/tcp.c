/*
 * tcp.c: the TCP transport, between nodes and wherever shared memory
 * cannot be used.
 *
 * Each process listens on an ephemeral port (its addresses are in its
 * business card) and connects to a peer the first time it sends to it.
 * A connection carries frames [u32 length][tide_hdr][payload] both ways,
 * but only after a handshake that authenticates both ends (tcp_auth.h).
 * When two processes connect to each other at the same time, the
 * connection opened by the lower-named process (nspace, rank) is kept and
 * the other refused, so exactly one connection carries each pair's
 * messages and their order holds. Sockets are nonblocking and driven by
 * the progress engine through one epoll set; contiguous payloads are
 * written straight from the user's buffer (writev), and only what the
 * kernel does not take at once is copied.
 */
#include "runtime/api.h"
#include "runtime/proc.h"
#include "transport/card.h"
#include "transport/tcp_auth.h"
#include "transport/transport.h"
#include "datatype/datatype.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#define TCP_MAGIC 0x54434431u /* "1DCT" */
#define TCP_VERSION 1
#define MAX_FRAME ((64u << 20) + 4096)
#define CHALLENGE_LEN (4 + TIDE_NONCE_LEN)
#define REPLY_LEN (4 + 1 + TIDE_MAC_LEN)
#define HELLO_FIXED (4 + 2 + 2 + 4 + TIDE_NONCE_LEN + TIDE_MAC_LEN)

enum conn_state { C_CONNECTING, C_WAIT_CHALLENGE, C_WAIT_REPLY, C_WAIT_HELLO, C_OPEN, C_DEAD };

struct frame {
    struct frame *next;
    size_t len, off;
    /* zero-copy: after the len bytes of data, ext_len bytes at ext */
    const uint8_t *ext;
    size_t ext_len;
    void (*done)(void *arg);
    void *arg;
    uint8_t data[];
};

#define ZC_MIN 65536 /* DATA payloads at least this large are read in place */
#define ZC_MAX_IOV 64

struct tcp_peer;

struct tcp_conn {
    int fd;
    int state;
    bool outgoing;
    bool writing; /* EPOLLOUT armed */
    struct tide_proc *peer;
    struct tcp_peer *tp;
    uint8_t nonce_a[TIDE_NONCE_LEN]; /* the acceptor's challenge */
    uint8_t nonce_c[TIDE_NONCE_LEN]; /* the connector's nonce */
    struct frame *sq_head, *sq_tail;
    uint8_t *rbuf;
    size_t rlen, rcap;
    /* a DATA payload being read straight into the receive buffer */
    struct iovec zc_iov[ZC_MAX_IOV];
    int zc_niov;
    size_t zc_left;
    struct tide_hdr zc_hdr;
    int addr_idx;
    struct tcp_conn *next;
};

struct tcp_peer {
    struct tcp_conn *active;  /* open, carries the messages */
    struct tcp_conn *attempt; /* our outgoing connection being set up */
    struct frame *pre_head, *pre_tail; /* messages waiting for the connection */
    uint8_t token[TIDE_TOKEN_LEN];
    char addrs[512];
    bool same_host;
    bool failed;
    struct tcp_peer *next; /* every peer we hold state for */
    struct tide_proc *proc;
};

extern struct tide_transport tide_tcp_transport;

static struct {
    int listen_fd;
    int epfd;
    int port;
    struct tcp_conn *conns;
    struct tcp_peer *peers;
    int nopen;
    unsigned pass;
} tcp = {.listen_fd = -1, .epfd = -1};

/* ---- small helpers ---- */

static void put32(uint8_t *b, uint32_t v)
{
    b[0] = (uint8_t)v;
    b[1] = (uint8_t)(v >> 8);
    b[2] = (uint8_t)(v >> 16);
    b[3] = (uint8_t)(v >> 24);
}

static uint32_t get32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void set_sock_opts(int fd)
{
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

static void arm(struct tcp_conn *c, bool want_write)
{
    if (c->fd < 0)
        return;
    struct epoll_event ev = {.events = EPOLLIN | (want_write ? EPOLLOUT : 0), .data.ptr = c};
    epoll_ctl(tcp.epfd, EPOLL_CTL_MOD, c->fd, &ev);
    c->writing = want_write;
}

static struct tcp_conn *conn_new(int fd, bool outgoing)
{
    struct tcp_conn *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->fd = fd;
    c->outgoing = outgoing;
    c->rcap = 65536;
    c->rbuf = malloc(c->rcap);
    if (!c->rbuf) {
        free(c);
        return NULL;
    }
    struct epoll_event ev = {.events = EPOLLIN | (outgoing ? EPOLLOUT : 0), .data.ptr = c};
    epoll_ctl(tcp.epfd, EPOLL_CTL_ADD, fd, &ev);
    c->writing = outgoing;
    c->next = tcp.conns;
    tcp.conns = c;
    return c;
}

static void frames_free(struct frame *f)
{
    while (f) {
        struct frame *n = f->next;
        if (f->done)
            f->done(f->arg);
        free(f);
        f = n;
    }
}

static void conn_close(struct tcp_conn *c)
{
    if (c->fd >= 0) {
        epoll_ctl(tcp.epfd, EPOLL_CTL_DEL, c->fd, NULL);
        close(c->fd);
        c->fd = -1;
    }
    if (c->state == C_OPEN)
        tcp.nopen--;
    c->state = C_DEAD;
    frames_free(c->sq_head);
    c->sq_head = c->sq_tail = NULL;
    if (c->tp) {
        if (c->tp->active == c)
            c->tp->active = NULL;
        if (c->tp->attempt == c)
            c->tp->attempt = NULL;
    }
}

/* Write a small handshake message whole (the socket buffer is empty then). */
static int write_small(struct tcp_conn *c, const void *b, size_t n)
{
    ssize_t w = send(c->fd, b, n, MSG_NOSIGNAL);
    return w == (ssize_t)n ? 0 : -1;
}

static struct frame *frame_new(size_t len)
{
    struct frame *f = malloc(sizeof *f + len);
    if (f) {
        memset(f, 0, sizeof *f);
        f->len = len;
    }
    return f;
}

static void queue_frame(struct frame **head, struct frame **tail, struct frame *f)
{
    f->next = NULL;
    if (*tail)
        (*tail)->next = f;
    else
        *head = f;
    *tail = f;
}

/* Write as much of the connection's queue as the socket takes. */
static int flush_queue(struct tcp_conn *c)
{
    while (c->sq_head) {
        struct frame *f = c->sq_head;
        struct iovec iov[2];
        int n = 0;
        size_t total = f->len + f->ext_len;
        if (f->off < f->len) {
            iov[n].iov_base = f->data + f->off;
            iov[n++].iov_len = f->len - f->off;
        }
        size_t eoff = f->off > f->len ? f->off - f->len : 0;
        if (f->ext_len > eoff) {
            iov[n].iov_base = (void *)(f->ext + eoff);
            iov[n++].iov_len = f->ext_len - eoff;
        }
        struct msghdr mh = {.msg_iov = iov, .msg_iovlen = (size_t)n};
        ssize_t w = sendmsg(c->fd, &mh, MSG_NOSIGNAL);
        if (w < 0) {
            if (errno == EAGAIN || errno == EINTR)
                break;
            return -1;
        }
        f->off += (size_t)w;
        if (f->off < total)
            break;
        c->sq_head = f->next;
        if (!c->sq_head)
            c->sq_tail = NULL;
        void (*done)(void *) = f->done;
        void *arg = f->arg;
        free(f);
        if (done)
            done(arg);
    }
    bool want = c->sq_head != NULL;
    if (want != c->writing)
        arm(c, want);
    return 0;
}

/* ---- connection setup ---- */

static void start_connect(struct tide_proc *p, struct tcp_peer *tp);

static void peer_open(struct tcp_peer *tp, struct tcp_conn *c)
{
    tp->active = c;
    /* messages queued before the connection existed go first, in order */
    if (tp->pre_head) {
        if (c->sq_tail)
            c->sq_tail->next = tp->pre_head;
        else
            c->sq_head = tp->pre_head;
        c->sq_tail = tp->pre_tail;
        tp->pre_head = tp->pre_tail = NULL;
        flush_queue(c);
    }
}

static struct tcp_peer *peer_state(struct tide_proc *p)
{
    if (!p->tcp_state) {
        struct tcp_peer *tp = calloc(1, sizeof *tp);
        if (!tp)
            return NULL;
        tp->next = tcp.peers;
        tp->proc = p;
        tcp.peers = tp;
        p->tcp_state = tp;
    }
    return p->tcp_state;
}

static void try_next_address(struct tcp_conn *c)
{
    struct tcp_peer *tp = c->tp;
    char list[512];
    snprintf(list, sizeof list, "%s", tp->addrs);
    int idx = 0;
    for (char *save = NULL, *a = strtok_r(list, ",", &save); a; a = strtok_r(NULL, ",", &save), idx++) {
        if (idx < c->addr_idx)
            continue;
        c->addr_idx = idx + 1;
        char host[64];
        int port;
        char *colon = strrchr(a, ':');
        if (!colon || (size_t)(colon - a) >= sizeof host)
            continue;
        memcpy(host, a, (size_t)(colon - a));
        host[colon - a] = '\0';
        port = atoi(colon + 1);
        struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
        if (inet_pton(AF_INET, host, &sa.sin_addr) != 1)
            continue;
        if (!tp->same_host && sa.sin_addr.s_addr == htonl(INADDR_LOOPBACK))
            continue;
        int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0)
            continue;
        set_sock_opts(fd);
        int rc = connect(fd, (struct sockaddr *)&sa, sizeof sa);
        if (rc != 0 && errno != EINPROGRESS) {
            close(fd);
            continue;
        }
        if (c->fd >= 0) {
            epoll_ctl(tcp.epfd, EPOLL_CTL_DEL, c->fd, NULL);
            close(c->fd);
        }
        c->fd = fd;
        c->state = C_CONNECTING;
        struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT, .data.ptr = c};
        epoll_ctl(tcp.epfd, EPOLL_CTL_ADD, fd, &ev);
        c->writing = true;
        return;
    }
    /* no address worked */
    conn_close(c);
    tp->failed = !tp->active;
}

static void start_connect(struct tide_proc *p, struct tcp_peer *tp)
{
    if (tp->attempt || tp->active || tp->failed)
        return;
    struct tcp_conn *c = calloc(1, sizeof *c);
    if (!c)
        return;
    c->fd = -1;
    c->outgoing = true;
    c->peer = p;
    c->tp = tp;
    c->rcap = 65536;
    c->rbuf = malloc(c->rcap);
    c->next = tcp.conns;
    tcp.conns = c;
    tp->attempt = c;
    try_next_address(c);
}

static bool tcp_reachable(struct tide_proc *p, const struct tide_card *card)
{
    if (tcp.listen_fd < 0 || !card->tcp[0] || p == tide.me)
        return false;
    struct tcp_peer *tp = peer_state(p);
    if (!tp)
        return false;
    memcpy(tp->token, card->token, sizeof tp->token);
    snprintf(tp->addrs, sizeof tp->addrs, "%s", card->tcp);
    tp->same_host = strcmp(card->host, tide.hostname) == 0;
    return true;
}

/* connector: the challenge arrived; answer with our name and proof */
static int send_hello(struct tcp_conn *c)
{
    uint8_t b[HELLO_FIXED + 256];
    size_t nl = strlen(tide.nspace);
    put32(b, TCP_MAGIC);
    b[4] = TCP_VERSION;
    b[5] = 0;
    b[6] = (uint8_t)nl;
    b[7] = (uint8_t)(nl >> 8);
    put32(b + 8, tide.rank);
    tide_auth_nonce(c->nonce_c);
    memcpy(b + 12, c->nonce_c, TIDE_NONCE_LEN);
    tide_auth_hello_mac(c->tp->token, TIDE_TOKEN_LEN, c->nonce_a, tide.nspace, tide.rank,
                        b + 12 + TIDE_NONCE_LEN);
    memcpy(b + HELLO_FIXED, tide.nspace, nl);
    return write_small(c, b, HELLO_FIXED + nl);
}

/* acceptor: decide about a connector's hello */
static int on_hello(struct tcp_conn *c, const uint8_t *b, size_t n)
{
    size_t nl = (size_t)b[6] | (size_t)b[7] << 8;
    if (get32(b) != TCP_MAGIC || b[4] != TCP_VERSION || nl == 0 || nl > 255 || n < HELLO_FIXED + nl)
        return -1;
    char ns[256];
    memcpy(ns, b + HELLO_FIXED, nl);
    ns[nl] = '\0';
    if (memchr(ns, '\0', nl))
        return -1;
    uint32_t rank = get32(b + 8);
    uint8_t mac[TIDE_MAC_LEN];
    tide_auth_hello_mac(tide_card_my_token(), TIDE_TOKEN_LEN, c->nonce_a, ns, rank, mac);
    if (!tide_auth_equal(mac, b + 12 + TIDE_NONCE_LEN, TIDE_MAC_LEN))
        return -1; /* not a member of a job allowed to talk to us */
    struct tide_proc *p = tide_proc_get(ns, rank);
    if (!p)
        return -1;
    struct tcp_peer *tp = peer_state(p);
    if (!tp)
        return -1;
    bool accept = true;
    if (tp->active && tp->active->state == C_OPEN)
        accept = false;
    else if (tp->attempt && tide_proc_cmp(tide.me, p) < 0)
        accept = false; /* both connected at once: ours (the lower name's) wins */
    uint8_t rep[REPLY_LEN];
    put32(rep, TCP_MAGIC);
    rep[4] = accept;
    tide_auth_accept_mac(tide_card_my_token(), TIDE_TOKEN_LEN, b + 12, rep + 5);
    if (write_small(c, rep, sizeof rep) != 0)
        return -1;
    if (!accept) {
        conn_close(c);
        return 1;
    }
    if (!p->tx)
        p->tx = &tide_tcp_transport;
    c->peer = p;
    c->tp = tp;
    c->state = C_OPEN;
    tcp.nopen++;
    peer_open(tp, c);
    return 0;
}

/* connector: the acceptor's reply */
static int on_reply(struct tcp_conn *c, const uint8_t *b)
{
    if (get32(b) != TCP_MAGIC)
        return -1;
    uint8_t mac[TIDE_MAC_LEN];
    tide_auth_accept_mac(c->tp->token, TIDE_TOKEN_LEN, c->nonce_c, mac);
    if (!tide_auth_equal(mac, b + 5, TIDE_MAC_LEN))
        return -1; /* whoever listens there is not the process we meant */
    struct tcp_peer *tp = c->tp;
    if (tp->attempt == c)
        tp->attempt = NULL;
    if (!b[4]) { /* refused: the peer's own connection to us is the one */
        conn_close(c);
        return 1;
    }
    c->state = C_OPEN;
    tcp.nopen++;
    peer_open(tp, c);
    return 0;
}

/* ---- frames ---- */

static int deliver_frames(struct tcp_conn *c)
{
    size_t off = 0;
    int n = 0;
    while (c->rlen - off >= 4) {
        uint32_t len = get32(c->rbuf + off);
        if (len < sizeof(struct tide_hdr) || len > MAX_FRAME)
            return -1;
        if (c->rlen - off < 4 + (size_t)len) {
            /* a big DATA payload: read the rest of it in place */
            if (c->rlen - off >= 4 + sizeof(struct tide_hdr) && len - sizeof(struct tide_hdr) >= ZC_MIN) {
                struct tide_hdr h;
                memcpy(&h, c->rbuf + off + 4, sizeof h);
                int niov = h.type == TIDE_MSG_DATA && h.len == len - sizeof h
                               ? tide_protocol_data_target(&h, c->zc_iov, ZC_MAX_IOV)
                               : 0;
                if (niov > 0) {
                    /* what is already here goes first */
                    size_t have = c->rlen - off - 4 - sizeof h;
                    const uint8_t *src = c->rbuf + off + 4 + sizeof h;
                    int i = 0;
                    while (have > 0 && i < niov) {
                        size_t k = have < c->zc_iov[i].iov_len ? have : c->zc_iov[i].iov_len;
                        memcpy(c->zc_iov[i].iov_base, src, k);
                        src += k;
                        have -= k;
                        c->zc_iov[i].iov_base = (uint8_t *)c->zc_iov[i].iov_base + k;
                        c->zc_iov[i].iov_len -= k;
                        if (c->zc_iov[i].iov_len == 0)
                            i++;
                    }
                    memmove(c->zc_iov, c->zc_iov + i, (size_t)(niov - i) * sizeof *c->zc_iov);
                    c->zc_niov = niov - i;
                    c->zc_left = 0;
                    for (int k = 0; k < c->zc_niov; k++)
                        c->zc_left += c->zc_iov[k].iov_len;
                    c->zc_hdr = h;
                    c->rlen = off; /* consumed */
                    if (c->zc_left == 0) {
                        tide_protocol_data_arrived(&c->zc_hdr);
                        n++;
                    }
                    break;
                }
            }
            if (4 + (size_t)len > c->rcap) { /* make room for a big frame */
                memmove(c->rbuf, c->rbuf + off, c->rlen - off);
                c->rlen -= off;
                off = 0;
                uint8_t *nb = realloc(c->rbuf, 4 + (size_t)len);
                if (!nb)
                    return -1;
                c->rbuf = nb;
                c->rcap = 4 + (size_t)len;
            }
            break;
        }
        struct tide_hdr h;
        memcpy(&h, c->rbuf + off + 4, sizeof h);
        tide_protocol_incoming(c->peer, &h, c->rbuf + off + 4 + sizeof h, len - sizeof h);
        off += 4 + (size_t)len;
        n++;
        if (c->state != C_OPEN)
            return n;
    }
    if (off) {
        memmove(c->rbuf, c->rbuf + off, c->rlen - off);
        c->rlen -= off;
    }
    return n;
}

/* Read into the zero-copy destination; 1 when the payload is complete,
 * 0 when the socket has no more for now, -1 on error. */
static int zc_read(struct tcp_conn *c)
{
    while (c->zc_left > 0) {
        ssize_t r = readv(c->fd, c->zc_iov, c->zc_niov);
        if (r == 0)
            return -1;
        if (r < 0)
            return (errno == EAGAIN || errno == EINTR) ? 0 : -1;
        c->zc_left -= (size_t)r;
        size_t k = (size_t)r;
        int i = 0;
        while (k > 0 && i < c->zc_niov) {
            if (k >= c->zc_iov[i].iov_len) {
                k -= c->zc_iov[i].iov_len;
                i++;
            } else {
                c->zc_iov[i].iov_base = (uint8_t *)c->zc_iov[i].iov_base + k;
                c->zc_iov[i].iov_len -= k;
                k = 0;
            }
        }
        memmove(c->zc_iov, c->zc_iov + i, (size_t)(c->zc_niov - i) * sizeof *c->zc_iov);
        c->zc_niov -= i;
    }
    tide_protocol_data_arrived(&c->zc_hdr);
    return 1;
}

static int conn_read(struct tcp_conn *c)
{
    int delivered = 0;
    for (;;) {
        if (c->zc_left > 0) {
            int z = zc_read(c);
            if (z < 0)
                return -1;
            if (z == 0)
                return delivered;
            delivered++;
        }
        if (c->rcap - c->rlen < 4096) {
            size_t cap = c->rcap * 2;
            uint8_t *nb = realloc(c->rbuf, cap);
            if (!nb)
                return -1;
            c->rbuf = nb;
            c->rcap = cap;
        }
        ssize_t r = recv(c->fd, c->rbuf + c->rlen, c->rcap - c->rlen, 0);
        if (r == 0)
            return -1;
        if (r < 0)
            return (errno == EAGAIN || errno == EINTR) ? delivered : -1;
        c->rlen += (size_t)r;
        /* handshake messages */
        if (c->state == C_WAIT_CHALLENGE) {
            if (c->rlen < CHALLENGE_LEN)
                continue;
            if (get32(c->rbuf) != TCP_MAGIC)
                return -1;
            memcpy(c->nonce_a, c->rbuf + 4, TIDE_NONCE_LEN);
            memmove(c->rbuf, c->rbuf + CHALLENGE_LEN, c->rlen - CHALLENGE_LEN);
            c->rlen -= CHALLENGE_LEN;
            if (send_hello(c) != 0)
                return -1;
            c->state = C_WAIT_REPLY;
        }
        if (c->state == C_WAIT_REPLY) {
            if (c->rlen < REPLY_LEN)
                continue;
            uint8_t rep[REPLY_LEN];
            memcpy(rep, c->rbuf, REPLY_LEN);
            memmove(c->rbuf, c->rbuf + REPLY_LEN, c->rlen - REPLY_LEN);
            c->rlen -= REPLY_LEN;
            int rc = on_reply(c, rep);
            if (rc != 0)
                return rc < 0 ? -1 : delivered;
        }
        if (c->state == C_WAIT_HELLO) {
            if (c->rlen < HELLO_FIXED)
                continue;
            size_t nl = (size_t)c->rbuf[6] | (size_t)c->rbuf[7] << 8;
            if (nl > 255)
                return -1;
            if (c->rlen < HELLO_FIXED + nl)
                continue;
            uint8_t hello[HELLO_FIXED + 256];
            memcpy(hello, c->rbuf, HELLO_FIXED + nl);
            memmove(c->rbuf, c->rbuf + HELLO_FIXED + nl, c->rlen - HELLO_FIXED - nl);
            c->rlen -= HELLO_FIXED + nl;
            int rc = on_hello(c, hello, HELLO_FIXED + nl);
            if (rc != 0)
                return rc < 0 ? -1 : delivered;
        }
        if (c->state == C_OPEN) {
            int n = deliver_frames(c);
            if (n < 0)
                return -1;
            delivered += n;
        }
    }
}

static void conn_failed(struct tcp_conn *c, const char *why)
{
    if (c->state == C_OPEN && c->peer)
        tide_proc_mark_failed(c->peer->nspace, c->peer->rank);
    if (tide.tuning.verbose > 0)
        fprintf(stderr, "tide[%u]: TCP connection %s\n", tide.rank, why);
    bool was_attempt = c->tp && c->tp->attempt == c && c->state == C_CONNECTING;
    if (was_attempt) {
        try_next_address(c);
        return;
    }
    conn_close(c);
}

static void on_event(struct tcp_conn *c, uint32_t events)
{
    if (c->state == C_CONNECTING) {
        if (!(events & (EPOLLOUT | EPOLLERR | EPOLLHUP)))
            return;
        int err = 0;
        socklen_t el = sizeof err;
        getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &el);
        if (err) {
            try_next_address(c);
            return;
        }
        c->state = C_WAIT_CHALLENGE;
        arm(c, false);
        return;
    }
    if (events & (EPOLLIN | EPOLLERR | EPOLLHUP)) {
        if (conn_read(c) < 0) {
            conn_failed(c, "closed or sent a malformed message");
            return;
        }
    }
    if (c->state == C_OPEN && (events & EPOLLOUT))
        if (flush_queue(c) != 0)
            conn_failed(c, "write failed");
}

static void on_accept(void)
{
    for (;;) {
        int fd = accept4(tcp.listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            return;
        set_sock_opts(fd);
        struct tcp_conn *c = conn_new(fd, false);
        if (!c) {
            close(fd);
            continue;
        }
        arm(c, false);
        c->state = C_WAIT_HELLO;
        uint8_t ch[CHALLENGE_LEN];
        put32(ch, TCP_MAGIC);
        tide_auth_nonce(c->nonce_a);
        memcpy(ch + 4, c->nonce_a, TIDE_NONCE_LEN);
        if (write_small(c, ch, sizeof ch) != 0)
            conn_close(c);
    }
}

static void reap_dead(void)
{
    for (struct tcp_conn **pp = &tcp.conns; *pp;) {
        struct tcp_conn *c = *pp;
        if (c->state == C_DEAD) {
            *pp = c->next;
            free(c->rbuf);
            free(c);
        } else {
            pp = &c->next;
        }
    }
}

static int tcp_progress(void)
{
    /* with no open connection, look at the listener only now and then */
    if (tcp.nopen == 0 && !tcp.conns && (++tcp.pass & 1023) != 0)
        return 0;
    struct epoll_event evs[64];
    int n = epoll_wait(tcp.epfd, evs, 64, 0);
    int work = 0;
    for (int i = 0; i < n; i++) {
        if (!evs[i].data.ptr) {
            on_accept();
            work++;
            continue;
        }
        on_event(evs[i].data.ptr, evs[i].events);
        work++;
    }
    if (n > 0)
        reap_dead();
    return work;
}

/* Every pass of a waiting loop: only while connections are open (the
 * listener alone is looked at by the full progress). */
static int tcp_progress_quick(void)
{
    return tcp.nopen == 0 && !tcp.conns ? 0 : tcp_progress();
}

/* ---- sending ---- */

static int tcp_send(struct tide_proc *p, const struct tide_hdr *h, const void *extra, size_t extra_len,
                    struct tide_convertor *cv, size_t len)
{
    struct tcp_peer *tp = p->tcp_state;
    if (!tp || tp->failed)
        return -1;
    size_t total = 4 + sizeof *h + extra_len + len;
    struct tcp_conn *c = tp->active;
    if (c && c->state == C_OPEN && !c->sq_head) {
        uint8_t head[4 + sizeof *h];
        put32(head, (uint32_t)(total - 4));
        memcpy(head + 4, h, sizeof *h);
        struct iovec iov[3];
        int n = 0;
        iov[n].iov_base = head;
        iov[n++].iov_len = sizeof head;
        if (extra_len) {
            iov[n].iov_base = (void *)extra;
            iov[n++].iov_len = extra_len;
        }
        uint8_t *packed = NULL;
        if (len) {
            if (cv->dt->contig) {
                iov[n].iov_base = cv->buf + cv->dt->true_lb + cv->pos;
            } else {
                packed = malloc(len);
                if (!packed)
                    return 1;
                tide_conv_pack(cv, packed, len);
                iov[n].iov_base = packed;
            }
            iov[n++].iov_len = len;
        }
        struct msghdr mh = {.msg_iov = iov, .msg_iovlen = (size_t)n};
        ssize_t w = sendmsg(c->fd, &mh, MSG_NOSIGNAL);
        if (w < 0 && errno != EAGAIN && errno != EINTR) {
            free(packed);
            conn_failed(c, "write failed");
            return -1;
        }
        size_t done = w > 0 ? (size_t)w : 0;
        if (done < total) {
            /* keep the rest: copy it (the caller's buffer is free once we return) */
            struct frame *f = frame_new(total - done);
            if (!f) {
                free(packed);
                return -1;
            }
            size_t pos = 0, skip = done;
            for (int i = 0; i < n; i++) {
                size_t l = iov[i].iov_len;
                if (skip >= l) {
                    skip -= l;
                    continue;
                }
                memcpy(f->data + pos, (uint8_t *)iov[i].iov_base + skip, l - skip);
                pos += l - skip;
                skip = 0;
            }
            queue_frame(&c->sq_head, &c->sq_tail, f);
            arm(c, true);
        }
        if (len && cv->dt->contig)
            cv->pos += len;
        free(packed);
        return 0;
    }
    /* connection busy or not open yet: queue a copy, but let big data wait */
    if (c && c->state == C_OPEN && c->sq_head && len > 65536)
        return 1;
    struct frame *f = frame_new(total);
    if (!f)
        return 1;
    put32(f->data, (uint32_t)(total - 4));
    memcpy(f->data + 4, h, sizeof *h);
    if (extra_len)
        memcpy(f->data + 4 + sizeof *h, extra, extra_len);
    if (len)
        tide_conv_pack(cv, f->data + 4 + sizeof *h + extra_len, len);
    if (c && c->state == C_OPEN) {
        queue_frame(&c->sq_head, &c->sq_tail, f);
        if (flush_queue(c) != 0) {
            conn_failed(c, "write failed");
            return -1;
        }
    } else {
        queue_frame(&tp->pre_head, &tp->pre_tail, f);
        start_connect(p, tp);
        if (tp->failed)
            return -1;
    }
    return 0;
}

static int tcp_send_zc(struct tide_proc *p, const struct tide_hdr *h, struct tide_convertor *cv, size_t len,
                       void (*done)(void *arg), void *arg)
{
    struct tcp_peer *tp = p->tcp_state;
    if (!tp || tp->failed)
        return -1;
    struct tcp_conn *c = tp->active;
    if (!c || c->state != C_OPEN || !cv->dt->contig)
        return 1;
    struct frame *f = frame_new(4 + sizeof *h);
    if (!f)
        return 1;
    put32(f->data, (uint32_t)(sizeof *h + len));
    memcpy(f->data + 4, h, sizeof *h);
    f->ext = (const uint8_t *)cv->buf + cv->dt->true_lb + cv->pos;
    f->ext_len = len;
    f->done = done;
    f->arg = arg;
    cv->pos += len;
    queue_frame(&c->sq_head, &c->sq_tail, f);
    if (flush_queue(c) != 0) {
        conn_failed(c, "write failed");
        return 0; /* frames_free ran done() */
    }
    return 0;
}

/* Messages not yet written: queued on an open connection, or waiting for
 * one to a peer that can still be reached. */
static bool tcp_output_pending(void)
{
    for (struct tcp_conn *c = tcp.conns; c; c = c->next)
        if (c->state == C_OPEN && c->sq_head)
            return true;
    for (struct tcp_peer *tp = tcp.peers; tp; tp = tp->next)
        if (tp->pre_head && !tp->failed)
            return true;
    return false;
}

static int tcp_block_prepare(struct pollfd *fds, int max)
{
    if (tcp.epfd < 0 || max < 1)
        return 0;
    fds[0].fd = tcp.epfd;
    fds[0].events = POLLIN;
    fds[0].revents = 0;
    return 1;
}

/* ---- set up ---- */

static void add_addresses(int port)
{
    char list[512] = "";
    size_t len = 0;
    struct ifaddrs *ifs = NULL;
    if (getifaddrs(&ifs) == 0) {
        for (struct ifaddrs *i = ifs; i; i = i->ifa_next) {
            if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || !(i->ifa_flags & IFF_UP))
                continue;
            struct sockaddr_in *sa = (struct sockaddr_in *)i->ifa_addr;
            if (sa->sin_addr.s_addr == htonl(INADDR_LOOPBACK))
                continue;
            if (tide.tuning.tcp_if[0] && strcmp(tide.tuning.tcp_if, i->ifa_name) != 0)
                continue;
            char ip[INET_ADDRSTRLEN];
            inet_ntop(AF_INET, &sa->sin_addr, ip, sizeof ip);
            int n = snprintf(list + len, sizeof list - len, "%s%s:%d", len ? "," : "", ip, port);
            if (n < 0 || len + (size_t)n >= sizeof list - 32)
                break;
            len += (size_t)n;
        }
        freeifaddrs(ifs);
    }
    snprintf(list + len, sizeof list - len, "%s127.0.0.1:%d", len ? "," : "", port);
    tide_card_add("tcp", list);
}

int tide_tcp_init(char *err, size_t errlen);
int tide_tcp_init(char *err, size_t errlen)
{
    tcp.epfd = epoll_create1(EPOLL_CLOEXEC);
    tcp.listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (tcp.epfd < 0 || tcp.listen_fd < 0) {
        snprintf(err, errlen, "TCP transport: %s", strerror(errno));
        return -1;
    }
    int one = 1;
    setsockopt(tcp.listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY)};
    if (bind(tcp.listen_fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(tcp.listen_fd, 256) != 0) {
        snprintf(err, errlen, "TCP transport: cannot listen: %s", strerror(errno));
        return -1;
    }
    socklen_t sl = sizeof sa;
    getsockname(tcp.listen_fd, (struct sockaddr *)&sa, &sl);
    tcp.port = ntohs(sa.sin_port);
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = NULL};
    epoll_ctl(tcp.epfd, EPOLL_CTL_ADD, tcp.listen_fd, &ev);
    add_addresses(tcp.port);
    tide_tcp_transport.eager_limit = tide.tuning.tcp_eager_limit;
    tide_tcp_transport.eager_limit_coll = tide.tuning.tcp_eager_limit;
    return 0;
}

static void tcp_finalize(void)
{
    /* give queued bytes a last chance to leave */
    for (struct tcp_conn *c = tcp.conns; c; c = c->next)
        if (c->state == C_OPEN && c->sq_head) {
            for (int tries = 0; tries < 1000 && c->sq_head; tries++) {
                if (flush_queue(c) != 0)
                    break;
                if (c->sq_head) {
                    struct pollfd pf = {.fd = c->fd, .events = POLLOUT};
                    poll(&pf, 1, 10);
                }
            }
        }
    while (tcp.conns) {
        struct tcp_conn *c = tcp.conns;
        tcp.conns = c->next;
        conn_close(c);
        free(c->rbuf);
        free(c);
    }
    while (tcp.peers) {
        struct tcp_peer *tp = tcp.peers;
        tcp.peers = tp->next;
        frames_free(tp->pre_head);
        tp->proc->tcp_state = NULL;
        free(tp);
    }
    if (tcp.listen_fd >= 0)
        close(tcp.listen_fd);
    if (tcp.epfd >= 0)
        close(tcp.epfd);
    tcp.listen_fd = tcp.epfd = -1;
    tcp.nopen = 0;
}

static void tcp_forget(struct tide_proc *p)
{
    struct tcp_peer *tp = p->tcp_state;
    if (!tp)
        return;
    if (tp->active) {
        flush_queue(tp->active);
        conn_close(tp->active);
    }
    if (tp->attempt)
        conn_close(tp->attempt);
    for (struct tcp_conn *c = tcp.conns; c; c = c->next)
        if (c->tp == tp) {
            conn_close(c);
            c->tp = NULL;
        }
    frames_free(tp->pre_head);
    for (struct tcp_peer **pp = &tcp.peers; *pp; pp = &(*pp)->next)
        if (*pp == tp) {
            *pp = tp->next;
            break;
        }
    free(tp);
    p->tcp_state = NULL;
    reap_dead();
}

struct tide_transport tide_tcp_transport = {
    .name = "tcp",
    .eager_limit = 65536,
    .eager_limit_coll = 65536,
    .max_chunk = 262144,
    .can_get = false,
    .reachable = tcp_reachable,
    .send = tcp_send,
    .get = NULL,
    .progress = tcp_progress,
    .progress_quick = tcp_progress_quick,
    .block_prepare = tcp_block_prepare,
    .block_finish = NULL,
    .finalize = tcp_finalize,
    .forget = tcp_forget,
    .send_zc = tcp_send_zc,
    .output_pending = tcp_output_pending,
};
