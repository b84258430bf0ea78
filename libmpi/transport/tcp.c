/*
 * tcp.c: the TCP transport, between nodes and wherever shared memory
 * cannot be used.
 *
 * Each process listens on an ephemeral port (its addresses are in its
 * business card) and connects to a peer the first time it sends to it.
 * A connection carries frames [u32 length][tide_hdr][payload] both ways,
 * but only after a handshake that authenticates both ends (tcp_auth.h):
 * a process of this universe proves its rank key, a process met through
 * connect/accept or join its link key, and a holder of a port name the
 * port's token; a connection of the last kind carries only the
 * connect/accept conversation (context TIDE_CONTEXT_DPM) and is kept
 * apart from the peer's ordinary connection. Until the rank's
 * MPI_Comm_accept takes such a peer's request (tide_tcp_port_accepted),
 * it is a guest with small limits on what it may make the rank hold
 * (port_peer_bytes, port_peers_bytes; see "port guests" below).
 *
 * The listener never waits on one peer: the handshake is a state machine
 * driven by the same epoll set. A peer that has not authenticated within
 * auth_timeout seconds is dropped (a timerfd wakes the progress engine for
 * it), and of more than auth_max_pending such peers the oldest is dropped.
 * A process of another universe just joined to this one (connect/accept,
 * join) may knock before its link keys reach this rank from our root: its
 * hello waits for them within the same limits, instead of being refused.
 * The listener binds 127.0.0.1 in a one-node job, else the addresses of
 * the interfaces if_include names (every non-loopback one by default).
 * When two processes connect to each other at the same time, the
 * connection opened by the lower-named process (nspace, rank) is kept and
 * the other refused, so exactly one connection carries each pair's
 * messages and their order holds. Sockets are nonblocking and driven by
 * the progress engine through one epoll set; contiguous payloads are
 * written straight from the user's buffer (writev), and only what the
 * kernel does not take at once is copied.
 *
 * With encrypt=1 every frame after the handshake travels sealed
 * (common/ctlcrypt.h: [u32 length][ciphertext][tag], AES-256-GCM), with
 * keys of each direction derived from both nonces of the handshake and
 * the keys both ends proved: frames are then sealed in the order they
 * join a connection's queue (no direct writes, no zero-copy, not the
 * shared fast path), and a frame that fails its tag closes the
 * connection. Both ends of a connection must have the same setting.
 * PORT-kind connections are sealed whatever the setting: they carry the
 * port's token and the member lists with their LINK keys.
 *
 * With encrypt=0 the frames of messages that carry a secret (marked
 * TIDE_MSGF_SEALED: the port's token, member lists with LINK keys) are
 * sealed all the same, one by one, with keys of their own ("rank link
 * secrets", from the same handshake material, derived when the
 * connection first seals or opens such a frame, so that a connection
 * that never carries one pays nothing): such a frame goes as
 * [u32 SEALED_FRAME | record length][record], the record sealed as above;
 * its counter advances with the sealed frames only. Other frames keep
 * every fast path.
 */
#include "runtime/api.h"
#include "runtime/spinlock.h"
#include "runtime/proc.h"
#include "transport/card.h"
#include "ctlcrypt.h"
#include "netif.h"
#include "transport/peer_keys.h"
#include "transport/tcp_auth.h"
#include "dpm/dpm.h"
#include "pt2pt/match.h"
#include "pt2pt/progress.h"
#include "pt2pt/request.h"
#include "pt2pt/sender_check.h"
#include "ft/ft.h"
#include "params.h"
#include "client.h"
#include "transport/transport.h"
#include "datatype/datatype.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <stddef.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define MAX_FRAME ((64u << 20) + 4096)
/* In a frame's length word: a sealed record follows (encrypt=0; see above). */
#define SEALED_FRAME 0x80000000u
/* What a connection's keys come from: the length of the input keying
 * material, the keys both ends proved, the salt. */
#define SEAL_SALT_LEN (2 * TIDE_NONCE_LEN + TIDE_MAC_LEN)
#define SEAL_MATERIAL_LEN (1 + 2 * TIDE_KEY_LEN + SEAL_SALT_LEN)
#define MAX_LISTENERS 8

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
    struct tide_hello hello;         /* what the connector said (or we said) */
    uint8_t kind;                    /* how it authenticated (tcp_auth.h) */
    bool port_only;                  /* PORT kind: the DPM conversation only */
    uint8_t port_key[TIDE_PORT_KEY_LEN];
    double deadline;                 /* not authenticated by then: dropped */
    bool deferred;                   /* a LINK hello of a process not known yet: asked again */
    uint64_t seq;                    /* accept order, for evicting the oldest */
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
    tide_spinlock send_lock; /* for holders of the shared library lock (tcp_send_shared) */
    int busy;  /* a holder of the shared library lock is reading it (tcp_progress_shared) */
    bool held; /* the frame at the head of rbuf waits for the exclusive engine */
    struct tide_ctlcrypt *crypt; /* encrypt=1: the keys of this connection */
    struct tide_ctlcrypt *scrypt; /* encrypt=0: the keys of its frames marked TIDE_MSGF_SEALED */
    uint8_t *smaterial;           /* what scrypt is derived from when first needed (seal_material) */
    uint8_t *pbuf;               /* an opened frame */
    size_t pcap;
};

struct tcp_peer {
    struct tcp_conn *active;  /* open, carries the messages */
    struct tcp_conn *attempt; /* our outgoing connection being set up */
    struct frame *pre_head, *pre_tail; /* messages waiting for the connection */
    struct tcp_conn *port_conn; /* PORT-kind connection (DPM messages) */
    struct frame *ppre_head, *ppre_tail; /* DPM messages waiting for it */
    char addrs[512];
    bool same_host;
    bool failed;
    int8_t universe; /* of our universe: 1, of another: 0, not known yet: -1 */
    bool port_accepted; /* came in through a port and an accept took its request */
    bool port_guest;    /* came in through a port; its request not taken by an accept yet */
    bool guest_left;    /* a guest whose connection ended: what it left is to be freed */
    struct tcp_peer *next; /* every peer we hold state for */
    struct tide_proc *proc;
};

extern struct tide_transport tide_tcp_transport;

static struct {
    int listen_fd; /* the first listener (-1: none) */
    int listen_fds[MAX_LISTENERS];
    int nlisten;
    int epfd;
    int timer_fd; /* fires at the earliest handshake deadline */
    int port;
    struct tcp_conn *conns;
    struct tcp_peer *peers;
    int nopen;
    unsigned pass;
    int npending;      /* incoming connections not yet authenticated */
    int nport;         /* incoming PORT-kind connections */
    uint64_t seq;
    double auth_timeout;
    int ndeferred; /* hellos waiting for their process (on_hello) */
    int max_pending;
    uint8_t my_key[TIDE_KEY_LEN]; /* our rank key */
    bool have_key;
    int nheld; /* connections with held set */
    bool encrypt; /* the encrypt parameter: seal every frame */
    size_t guest_bytes, guests_bytes; /* port guests: each, all together (port_peer_bytes...) */
    bool guests_left;                 /* some tcp_peer has guest_left set */
} tcp = {.listen_fd = -1, .epfd = -1, .timer_fd = -1};

static char timer_mark; /* epoll data of the timer (listeners have NULL) */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- small helpers ---- */

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

static void conn_free(struct tcp_conn *c)
{
    tide_ctlcrypt_free(c->crypt);
    tide_ctlcrypt_free(c->scrypt);
    if (c->smaterial) {
        memset(c->smaterial, 0, SEAL_MATERIAL_LEN);
        free(c->smaterial);
    }
    free(c->pbuf);
    free(c->rbuf);
    free(c);
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
    if (c->state == C_WAIT_HELLO)
        tcp.npending--;
    if (c->deferred) {
        c->deferred = false;
        tcp.ndeferred--;
    }
    if (c->state == C_OPEN && c->port_only && !c->outgoing)
        tcp.nport--;
    c->state = C_DEAD;
    frames_free(c->sq_head);
    c->sq_head = c->sq_tail = NULL;
    if (c->tp) {
        if (c->tp->active == c)
            c->tp->active = NULL;
        if (c->tp->attempt == c)
            c->tp->attempt = NULL;
        if (c->tp->port_conn == c)
            c->tp->port_conn = NULL;
        if (c->tp->port_guest && !c->tp->port_conn) /* freed by the next progress pass */
            c->tp->guest_left = tcp.guests_left = true;
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

/* The start of a frame of total bytes written from iovecs: its length
 * and header into head, which iov[0] names, then extra; returns the
 * iovecs used (the payload goes in the next). */
static int frame_start(uint8_t *head, const struct tide_hdr *h, size_t total, const void *extra, size_t extra_len,
                       struct iovec *iov)
{
    tide_auth_put32(head, (uint32_t)(total - 4));
    memcpy(head + 4, h, sizeof *h);
    int n = 0;
    iov[n].iov_base = head;
    iov[n++].iov_len = 4 + sizeof *h;
    if (extra_len) {
        iov[n].iov_base = (void *)extra;
        iov[n++].iov_len = extra_len;
    }
    return n;
}

/* A frame of what is left of a message of total bytes (in n iovecs)
 * once done bytes of it are written; NULL without memory. */
static struct frame *frame_of_rest(const struct iovec *iov, int n, size_t done, size_t total)
{
    struct frame *f = frame_new(total - done);
    if (!f)
        return NULL;
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
    return f;
}

/* ---- sealing: every frame (encrypt=1, PORT) or secret-bearing ones ---- */

static bool frame_allowed(const struct tcp_conn *c, const struct tide_hdr *h);

static struct tide_ctlcrypt *seal_keys_of(const struct tcp_conn *c, const uint8_t *m, const char *label)
{
    return tide_ctlcrypt_new(m + 1, m[0], m + 1 + 2 * TIDE_KEY_LEN, SEAL_SALT_LEN, label,
                             c->outgoing ? TIDE_CRYPT_INITIATOR : TIDE_CRYPT_RESPONDER);
}

/* The keys of a connection that has just opened. The connector proved
 * `connector_key`, the acceptor `acceptor_key` (both ends know both); the
 * salt is the handshake's two nonces and the hello's proof, which binds
 * the kind and both names. */
static int conn_seal_keys(struct tcp_conn *c, const uint8_t *prove, const uint8_t *check, size_t kl)
{
    /* a PORT-kind connection is always sealed: it carries the port's
     * token (CONNECT) and the groups' LINK keys (GROUP), and little else;
     * any other connection seals its secret-bearing frames only, with
     * keys of another label, made when first needed (secret_keys) */
    bool whole = tcp.encrypt || c->kind == TIDE_AUTH_PORT;
    uint8_t here[SEAL_MATERIAL_LEN];
    uint8_t *m = whole ? here : malloc(SEAL_MATERIAL_LEN);
    if (!m)
        return -1;
    /* [ikm length][connector's key, acceptor's key][salt: both nonces, the hello's proof] */
    const uint8_t *connector_key = c->outgoing ? prove : check;
    const uint8_t *acceptor_key = c->outgoing ? check : prove;
    m[0] = (uint8_t)(2 * kl);
    memcpy(m + 1, connector_key, kl);
    memcpy(m + 1 + kl, acceptor_key, kl);
    uint8_t *salt = m + 1 + 2 * TIDE_KEY_LEN;
    memcpy(salt, c->nonce_a, TIDE_NONCE_LEN);
    memcpy(salt + TIDE_NONCE_LEN, c->hello.nonce_c, TIDE_NONCE_LEN);
    memcpy(salt + 2 * TIDE_NONCE_LEN, c->hello.mac, TIDE_MAC_LEN);
    if (!whole) {
        c->smaterial = m;
        return 0;
    }
    c->crypt = seal_keys_of(c, m, "rank link");
    memset(m, 0, SEAL_MATERIAL_LEN);
    return c->crypt ? 0 : -1;
}

/* The keys for c's secret-bearing frames (encrypt=0), made the first time
 * they are needed; NULL when they cannot be. */
static struct tide_ctlcrypt *secret_keys(struct tcp_conn *c)
{
    if (!c->scrypt && c->smaterial) {
        c->scrypt = seal_keys_of(c, c->smaterial, "rank link secrets");
        memset(c->smaterial, 0, SEAL_MATERIAL_LEN);
        free(c->smaterial);
        c->smaterial = NULL;
    }
    return c->scrypt;
}

/* Does the frame f (length word, header, ...) carry a secret? */
static bool frame_is_sealed(const struct frame *f)
{
    return f->len >= 4 + sizeof(struct tide_hdr) &&
           (f->data[4 + offsetof(struct tide_hdr, flags)] & TIDE_MSGF_SEALED) != 0;
}

/* A frame as it goes on c's wire: sealed when c is encrypted or the frame
 * carries a secret (f is then replaced, its done callback kept for when
 * the record is written). NULL without memory or when sealing fails. */
static struct frame *frame_for_wire(struct tcp_conn *c, struct frame *f)
{
    /* encrypt=1: every frame is a record; encrypt=0: a secret-bearing
     * frame is a record after a length word that says so */
    bool one = !c->crypt;
    if (one && !frame_is_sealed(f))
        return f;
    size_t plain = f->len - 4 + f->ext_len, head = one ? 4 : 0;
    struct frame *s = frame_new(head + plain + TIDE_CRYPT_OVERHEAD);
    struct iovec v[2] = {{f->data + 4, f->len - 4}, {(void *)f->ext, f->ext_len}};
    if (s && one)
        tide_auth_put32(s->data, SEALED_FRAME | (uint32_t)(plain + TIDE_CRYPT_OVERHEAD));
    if (s && tide_ctlcrypt_sealv(one ? secret_keys(c) : c->crypt, v, 2, s->data + head) != s->len - head) {
        free(s);
        s = NULL;
    }
    if (s) {
        s->done = f->done;
        s->arg = f->arg;
        memset(f->data, 0, f->len);
        free(f);
    }
    return s;
}

/* Put frames (a chain) at the end of c's queue, sealed if need be. -1 if
 * one could not be sealed (c is then unusable). */
static int conn_queue(struct tcp_conn *c, struct frame *f)
{
    while (f) {
        struct frame *next = f->next;
        struct frame *w = frame_for_wire(c, f);
        if (!w) {
            f->next = next;
            frames_free(f);
            return -1;
        }
        queue_frame(&c->sq_head, &c->sq_tail, w);
        f = next;
    }
    return 0;
}

static bool guest_conn(const struct tcp_conn *c);
static void guest_dropped(const struct tcp_conn *c, const char *why);
static bool guest_frame_ok(const struct tcp_conn *c, const struct tide_hdr *h, uint32_t len);

/* Makes c's buffer for opened records hold len bytes. -1: out of memory. */
static int pbuf_reserve(struct tcp_conn *c, size_t len)
{
    if (len <= c->pcap)
        return 0;
    uint8_t *nb = realloc(c->pbuf, len);
    if (!nb)
        return -1;
    c->pbuf = nb;
    c->pcap = len;
    return 0;
}

/* Makes c's read buffer hold a whole frame of need bytes, moving what is
 * unread (from *off) to its start. -1: out of memory. */
static int rbuf_make_room(struct tcp_conn *c, size_t *off, size_t need)
{
    if (need <= c->rcap)
        return 0;
    memmove(c->rbuf, c->rbuf + *off, c->rlen - *off);
    c->rlen -= *off;
    *off = 0;
    uint8_t *nb = realloc(c->rbuf, need);
    if (!nb)
        return -1;
    c->rbuf = nb;
    c->rcap = need;
    return 0;
}

/* Open the complete records at the head of an encrypted connection's
 * buffer and deliver their frames. The count, or -1 (the connection must
 * close: a record of a bad length, or one that fails its tag). */
static int deliver_sealed(struct tcp_conn *c)
{
    size_t off = 0;
    int n = 0;
    while (c->rlen - off >= TIDE_CRYPT_HEADER) {
        size_t len;
        if (tide_ctlcrypt_record_len(c->rbuf + off, MAX_FRAME, &len) != 0 || len < sizeof(struct tide_hdr))
            return -1;
        /* a port guest's record is no longer than its limit, checked
         * before any room is made for it */
        bool guest = guest_conn(c);
        if (guest && len - sizeof(struct tide_hdr) > tcp.guest_bytes) {
            guest_dropped(c, "a frame longer than port_peer_bytes");
            return -1;
        }
        size_t reclen = len + TIDE_CRYPT_OVERHEAD;
        if (c->rlen - off < reclen) {
            if (rbuf_make_room(c, &off, reclen) < 0) /* a big record */
                return -1;
            break;
        }
        if (pbuf_reserve(c, len) < 0)
            return -1;
        if (tide_ctlcrypt_open(c->crypt, c->rbuf + off, reclen, c->pbuf) != 0) {
            if (tide.tuning.verbose > 0)
                fprintf(stderr, "tide[%u]: TCP: a frame failed its authentication (tampered or replayed)\n",
                        tide.rank);
            return -1;
        }
        off += reclen;
        struct tide_hdr h;
        memcpy(&h, c->pbuf, sizeof h);
        if (!frame_allowed(c, &h) || (guest && !guest_frame_ok(c, &h, (uint32_t)len)))
            return -1;
        tide_protocol_incoming(c->peer, &h, c->pbuf + sizeof h, len - sizeof h);
        n++;
        if (c->state != C_OPEN)
            break;
    }
    if (off && c->state != C_DEAD) {
        memmove(c->rbuf, c->rbuf + off, c->rlen - off);
        c->rlen -= off;
    }
    return n;
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

static void peer_open(struct tcp_peer *tp, struct tcp_conn *c)
{
    struct frame **head = &tp->pre_head, **tail = &tp->pre_tail;
    if (c->port_only) {
        tp->port_conn = c;
        head = &tp->ppre_head;
        tail = &tp->ppre_tail;
    } else {
        tp->active = c;
    }
    /* messages queued before the connection existed go first, in order */
    if (*head) {
        struct frame *f = *head;
        *head = *tail = NULL;
        if (conn_queue(c, f) != 0) {
            conn_close(c);
            return;
        }
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
        tp->universe = -1;
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
    bool port = c->port_only;
    conn_close(c);
    if (port) {
        frames_free(tp->ppre_head);
        tp->ppre_head = tp->ppre_tail = NULL;
    } else {
        tp->failed = !tp->active;
    }
}

/* How we prove who we are to p on an ordinary connection: a rank key in
 * our universe, else the link key of a bridge. -1: we cannot. */
static bool rank_key_ready(void)
{
    if (!tcp.have_key)
        tcp.have_key = tide_auth_rank_key(tide.nspace, tide.rank, tcp.my_key) == 0;
    return tcp.have_key;
}

static bool of_our_universe(struct tide_proc *p)
{
    struct tcp_peer *tp = p->tcp_state;
    if (!tp)
        return tide_auth_same_universe(p->nspace, tide.nspace);
    if (tp->universe < 0)
        tp->universe = tide_auth_same_universe(p->nspace, tide.nspace) ? 1 : 0;
    return tp->universe == 1;
}

static int ordinary_kind(struct tide_proc *p)
{
    if (of_our_universe(p))
        return rank_key_ready() ? TIDE_AUTH_RANK : -1;
    uint8_t a[TIDE_KEY_LEN], b[TIDE_KEY_LEN];
    return tide_peer_keys_link(p, a, b) == 0 ? TIDE_AUTH_LINK : -1;
}

static void start_connect(struct tide_proc *p, struct tcp_peer *tp, bool port)
{
    if (port ? tp->port_conn != NULL : (tp->attempt || tp->active || tp->failed))
        return;
    uint8_t token[TIDE_PORT_KEY_LEN];
    int kind = port ? (tide_peer_keys_port(p, token) == 0 ? TIDE_AUTH_PORT : -1) : ordinary_kind(p);
    if (kind < 0) {
        if (tide.tuning.verbose > 0)
            fprintf(stderr, "tide[%u]: TCP: no key to authenticate to %s:%u\n", tide.rank, p->nspace, p->rank);
        if (!port)
            tp->failed = !tp->active;
        return;
    }
    struct tcp_conn *c = calloc(1, sizeof *c);
    if (!c)
        return;
    c->fd = -1;
    c->outgoing = true;
    c->peer = p;
    c->tp = tp;
    c->kind = (uint8_t)kind;
    c->port_only = port;
    if (port)
        memcpy(c->port_key, token, sizeof token);
    c->rcap = 65536;
    c->rbuf = malloc(c->rcap);
    c->next = tcp.conns;
    tcp.conns = c;
    if (port)
        tp->port_conn = c;
    else
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
    snprintf(tp->addrs, sizeof tp->addrs, "%s", card->tcp);
    tp->same_host = strcmp(card->host, tide.hostname) == 0;
    return true;
}

static void name_of(struct tide_hs_name *n, const char *nspace, uint32_t rank)
{
    snprintf(n->nspace, sizeof n->nspace, "%s", nspace);
    n->rank = rank;
}

/* The key a connection of this kind proves or checks. For LINK, mine is
 * the key we gave p's group (we prove it), theirs the one p gave us. */
static int conn_keys(struct tcp_conn *c, struct tide_proc *p, uint8_t prove[TIDE_KEY_LEN],
                     uint8_t check[TIDE_KEY_LEN], size_t *keylen)
{
    *keylen = TIDE_KEY_LEN;
    switch (c->kind) {
    case TIDE_AUTH_RANK:
        if (!rank_key_ready() || tide_auth_rank_key(p->nspace, p->rank, check) != 0)
            return -1;
        memcpy(prove, tcp.my_key, TIDE_KEY_LEN);
        return 0;
    case TIDE_AUTH_LINK:
        return tide_peer_keys_link(p, prove, check);
    case TIDE_AUTH_PORT:
        memcpy(prove, c->port_key, TIDE_PORT_KEY_LEN);
        memcpy(check, c->port_key, TIDE_PORT_KEY_LEN);
        *keylen = TIDE_PORT_KEY_LEN;
        return 0;
    }
    return -1;
}

/* connector: the challenge arrived; answer with our name and proof */
static int send_hello(struct tcp_conn *c)
{
    struct tide_hello *h = &c->hello;
    memset(h, 0, sizeof *h);
    h->kind = c->kind;
    name_of(&h->from, tide.nspace, tide.rank);
    name_of(&h->to, c->peer->nspace, c->peer->rank);
    tide_auth_random(h->nonce_c, TIDE_NONCE_LEN);
    uint8_t prove[TIDE_KEY_LEN], check[TIDE_KEY_LEN];
    size_t kl;
    if (conn_keys(c, c->peer, prove, check, &kl) != 0)
        return -1;
    tide_hs_hello_mac(prove, kl, c->nonce_a, h, h->mac);
    uint8_t b[TIDE_HS_HELLO_MAX];
    size_t n = tide_hs_hello_encode(h, b);
    return write_small(c, b, n);
}

static void auth_refused(const char *why, const struct tide_hello *h)
{
    if (tide.tuning.verbose > 0)
        fprintf(stderr, "tide[%u]: TCP: refused a connection claiming to be %.64s:%u: %s\n", tide.rank,
                h->from.nspace, h->from.rank, why);
}

/* Keep at most max_pending PORT-kind connections: drop the oldest. */
static void cap_port_conns(void)
{
    while (tcp.nport > tcp.max_pending) {
        struct tcp_conn *old = NULL;
        for (struct tcp_conn *c = tcp.conns; c; c = c->next)
            if (c->state == C_OPEN && c->port_only && !c->outgoing && (!old || c->seq < old->seq))
                old = c;
        if (!old)
            return;
        conn_close(old);
    }
}

/* acceptor: decide about a connector's hello */
static int on_hello(struct tcp_conn *c, const struct tide_hello *h)
{
    if (strcmp(h->to.nspace, tide.nspace) != 0 || h->to.rank != tide.rank) {
        auth_refused("it meant another process", h);
        return -1;
    }
    bool ours = tide_auth_same_universe(h->from.nspace, tide.nspace);
    if ((h->kind == TIDE_AUTH_RANK) != ours) {
        /* a name of our universe proves a rank key, and only such a name */
        auth_refused(ours ? "a name of this job's universe without its rank key" : "a rank key of another universe", h);
        return -1;
    }
    if (strcmp(h->from.nspace, tide.nspace) == 0 && h->from.rank == tide.rank) {
        auth_refused("our own name", h);
        return -1;
    }
    struct tide_proc *p = h->kind == TIDE_AUTH_LINK ? tide_proc_find(h->from.nspace, h->from.rank)
                                                   : tide_proc_get(h->from.nspace, h->from.rank);
    if (h->kind == TIDE_AUTH_LINK) {
        /* a process of another universe that has just been joined to us
         * may reach this rank before its keys do (they come with the rest
         * of the communicator from our root): its hello waits for them,
         * as long as any unauthenticated peer may */
        uint8_t km[TIDE_KEY_LEN], kt[TIDE_KEY_LEN];
        bool known = p && tide_peer_keys_link(p, km, kt) == 0;
        if (!known) {
            if (!c->deferred) {
                c->deferred = true;
                c->hello = *h;
                tcp.ndeferred++;
            }
            return 1;
        }
        if (c->deferred) {
            c->deferred = false;
            tcp.ndeferred--;
        }
    }
    if (!p) {
        auth_refused("unknown process", h);
        return -1;
    }
    c->kind = h->kind;
    uint8_t prove[TIDE_KEY_LEN], check[TIDE_KEY_LEN], mac[TIDE_MAC_LEN];
    size_t kl = 0;
    bool ok = false;
    if (h->kind == TIDE_AUTH_PORT) {
        /* which of our open ports is it for? */
        for (int i = 0; !ok && tide_port_open_token(i, c->port_key) == 0; i++) {
            tide_hs_hello_mac(c->port_key, TIDE_PORT_KEY_LEN, c->nonce_a, h, mac);
            ok = tide_auth_equal(mac, h->mac, TIDE_MAC_LEN);
        }
        memcpy(prove, c->port_key, TIDE_PORT_KEY_LEN);
        memcpy(check, c->port_key, TIDE_PORT_KEY_LEN);
        kl = TIDE_PORT_KEY_LEN;
    } else if (conn_keys(c, p, prove, check, &kl) == 0) {
        tide_hs_hello_mac(check, kl, c->nonce_a, h, mac);
        ok = tide_auth_equal(mac, h->mac, TIDE_MAC_LEN);
    }
    if (!ok) {
        auth_refused("wrong proof", h);
        return -1;
    }
    struct tcp_peer *tp = peer_state(p);
    if (!tp)
        return -1;
    bool accept = true;
    if (h->kind != TIDE_AUTH_PORT) {
        if (tp->active && tp->active->state == C_OPEN)
            accept = false;
        else if (tp->attempt && tide_proc_cmp(tide.me, p) < 0)
            accept = false; /* both connected at once: ours (the lower name's) wins */
    }
    c->hello = *h;
    if (accept && conn_seal_keys(c, prove, check, kl) != 0)
        return -1;
    uint8_t rep[TIDE_HS_REPLY_LEN];
    tide_hs_reply_mac(prove, kl, c->nonce_a, h, accept, mac);
    tide_hs_reply_encode(accept, mac, rep);
    if (write_small(c, rep, sizeof rep) != 0)
        return -1;
    tcp.npending--;
    c->state = C_OPEN; /* authenticated, counted as open from here */
    tcp.nopen++;
    if (!accept) {
        conn_close(c);
        return 1;
    }
    c->peer = p;
    c->tp = tp;
    if (h->kind == TIDE_AUTH_PORT) {
        c->port_only = true;
        c->seq = ++tcp.seq;
        if (tp->port_conn && tp->port_conn != c) /* a newer conversation replaces it */
            conn_close(tp->port_conn);
        if (!tp->port_accepted)
            tp->port_guest = true;
        tcp.nport++;
        cap_port_conns();
    } else if (!p->tx) {
        p->tx = &tide_tcp_transport;
    }
    peer_open(tp, c);
    return 0;
}

/* connector: the acceptor's reply */
static int on_reply(struct tcp_conn *c, bool accepted, const uint8_t *rmac)
{
    uint8_t prove[TIDE_KEY_LEN], check[TIDE_KEY_LEN], mac[TIDE_MAC_LEN];
    size_t kl;
    if (conn_keys(c, c->peer, prove, check, &kl) != 0)
        return -1;
    tide_hs_reply_mac(check, kl, c->nonce_a, &c->hello, accepted, mac);
    if (!tide_auth_equal(mac, rmac, TIDE_MAC_LEN))
        return -1; /* whoever listens there is not the process we meant */
    struct tcp_peer *tp = c->tp;
    if (tp->attempt == c)
        tp->attempt = NULL;
    if (!accepted) { /* refused: the peer's own connection to us is the one */
        conn_close(c);
        return 1;
    }
    if (conn_seal_keys(c, prove, check, kl) != 0)
        return -1;
    c->state = C_OPEN;
    tcp.nopen++;
    peer_open(tp, c);
    return 0;
}

/* What a PORT-kind connection may deliver: the DPM conversation, and
 * the protocol's control messages about requests of that conversation
 * with that peer. */
static bool frame_allowed(const struct tcp_conn *c, const struct tide_hdr *h)
{
    if (!c->port_only)
        return true;
    uint64_t id;
    switch (h->type) {
    case TIDE_MSG_EAGER:
    case TIDE_MSG_RTS:
    case TIDE_MSG_CANCEL:
        return h->ctx == TIDE_CONTEXT_DPM;
    case TIDE_MSG_DATA:
    case TIDE_MSG_PUT_DONE:
        id = h->aux;
        break;
    default:
        id = h->sreq;
        break;
    }
    struct tide_request *r = tide_request_by_id(id);
    return r && r->ctx == TIDE_CONTEXT_DPM && (!r->proc || r->proc == c->peer);
}

/* ---- port guests ----
 * A holder of a port name may connect (PORT kind) before the rank's
 * MPI_Comm_accept is posted; what it sends waits in the unexpected queue
 * of the connect/accept context until an accept takes its request. Such
 * a guest may make the rank hold at most guest_bytes (port_peer_bytes):
 * no frame larger, all its waiting messages together no more; all guests
 * together at most guests_bytes (port_peers_bytes). Only eager messages
 * are taken from it (a legitimate request is a short eager message: a
 * name, a port token and a business card, TIDE_CARD_MAX at most). A guest
 * that would exceed a limit is dropped, and when a guest's connection
 * ends, whatever it left waiting is freed (and the transport's state for
 * it). Once an accept has taken its request (tide_tcp_port_accepted) it
 * is an ordinary peer of the conversation: its group's member list, which
 * grows with the size of its group, comes after that. */

#define GUEST_MSG_COST 128 /* what a waiting message costs beside its payload */

static bool guest_conn(const struct tcp_conn *c)
{
    return c->port_only && !c->outgoing && c->tp && c->tp->port_guest;
}

/* Bytes the messages of guests hold, from p (*mine) and from all of them. */
static size_t guests_held(const struct tide_proc *p, size_t *mine)
{
    size_t all = 0;
    *mine = 0;
    struct tide_matchq *q = tide_matchq_find(TIDE_CONTEXT_DPM);
    for (struct tide_unexpected *u = q ? tide_match_uq_first(q) : NULL; u; u = tide_match_uq_next(q, u)) {
        const struct tcp_peer *tp = u->from ? u->from->tcp_state : NULL;
        if (!tp || !tp->port_guest)
            continue;
        size_t cost = u->data_len + GUEST_MSG_COST;
        all += cost;
        if (u->from == p)
            *mine += cost;
    }
    return all;
}

static void guest_dropped(const struct tcp_conn *c, const char *why)
{
    if (tide.tuning.verbose > 0)
        fprintf(stderr, "tide[%u]: TCP: dropped a port peer not yet accepted (%.64s:%u): %s\n", tide.rank,
                c->peer ? c->peer->nspace : "?", c->peer ? c->peer->rank : 0, why);
}

/* May guest connection c deliver this frame (total length len, header h)? */
static bool guest_frame_ok(const struct tcp_conn *c, const struct tide_hdr *h, uint32_t len)
{
    if (h->type == TIDE_MSG_RTS) {
        guest_dropped(c, "a message too long to come eagerly");
        return false;
    }
    if (h->type != TIDE_MSG_EAGER)
        return true; /* about a request of ours (frame_allowed): no payload kept */
    size_t mine, all = guests_held(c->peer, &mine), cost = (size_t)len - sizeof *h + GUEST_MSG_COST;
    if (mine + cost > tcp.guest_bytes) {
        guest_dropped(c, "more waiting messages than port_peer_bytes allows");
        return false;
    }
    if (all + cost > tcp.guests_bytes) {
        guest_dropped(c, "the port peers not yet accepted hold port_peers_bytes already");
        return false;
    }
    return true;
}

/* Free what guests whose connections ended left behind, and the
 * transport's state for them. */
static void guests_left_free(void)
{
    tcp.guests_left = false;
    struct tide_matchq *q = tide_matchq_find(TIDE_CONTEXT_DPM);
    for (struct tide_unexpected *u = q ? tide_match_uq_first(q) : NULL, *next; u; u = next) {
        next = tide_match_uq_next(q, u);
        const struct tcp_peer *tp = u->from ? u->from->tcp_state : NULL;
        if (tp && tp->guest_left && !tp->port_conn) {
            tide_match_remove(q, u);
            tide_unexpected_free(u);
        }
    }
    for (struct tcp_peer *tp = tcp.peers, *next; tp; tp = next) {
        next = tp->next;
        struct tide_proc *p = tp->proc;
        if (tp->guest_left && !tp->port_conn && !tp->active && !tp->attempt && !tp->pre_head && !tp->ppre_head &&
            p && !p->pend_head && p->ngroups == 0)
            tide_dpm_forget(p); /* its card, its transport state */
        else
            tp->guest_left = false;
    }
}

void tide_tcp_port_accepted(struct tide_proc *p)
{
    struct tcp_peer *tp = p->tcp_state;
    if (tp) {
        tp->port_accepted = true;
        tp->port_guest = tp->guest_left = false;
    }
}

/* ---- frames ---- */

/* Open the secret-bearing frame whose record (reclen bytes) is at rec and
 * deliver it: 1, or -1 (the connection must close). */
static int deliver_one_sealed(struct tcp_conn *c, const uint8_t *rec, size_t reclen)
{
    size_t len;
    if (!secret_keys(c) || reclen < TIDE_CRYPT_OVERHEAD + sizeof(struct tide_hdr) ||
        tide_ctlcrypt_record_len(rec, MAX_FRAME, &len) != 0 || len + TIDE_CRYPT_OVERHEAD != reclen)
        return -1;
    if (pbuf_reserve(c, len) < 0)
        return -1;
    struct tide_hdr h;
    if (tide_ctlcrypt_open(c->scrypt, rec, reclen, c->pbuf) != 0 ||
        (memcpy(&h, c->pbuf, sizeof h), !(h.flags & TIDE_MSGF_SEALED))) {
        if (tide.tuning.verbose > 0)
            fprintf(stderr, "tide[%u]: TCP: a sealed frame failed its authentication (tampered or replayed)\n",
                    tide.rank);
        return -1;
    }
    if (!frame_allowed(c, &h))
        return -1;
    tide_protocol_incoming(c->peer, &h, c->pbuf + sizeof h, len - sizeof h);
    /* the secret it held is the receiver's now */
    memset(c->pbuf, 0, len);
    return 1;
}

static int deliver_frames(struct tcp_conn *c)
{
    if (c->crypt)
        return deliver_sealed(c);
    size_t off = 0;
    int n = 0;
    while (c->rlen - off >= 4) {
        uint32_t len = tide_auth_get32(c->rbuf + off);
        if (len & SEALED_FRAME) {
            /* a secret-bearing frame (encrypt=0): a whole record */
            len &= ~SEALED_FRAME;
            if (len < TIDE_CRYPT_OVERHEAD + sizeof(struct tide_hdr) || len > MAX_FRAME + TIDE_CRYPT_OVERHEAD ||
                guest_conn(c))
                return -1;
            if (c->rlen - off < 4 + (size_t)len) {
                if (rbuf_make_room(c, &off, 4 + (size_t)len) < 0)
                    return -1;
                break;
            }
            if (deliver_one_sealed(c, c->rbuf + off + 4, len) < 0)
                return -1;
            off += 4 + (size_t)len;
            n++;
            if (c->state != C_OPEN)
                return n;
            continue;
        }
        if (len < sizeof(struct tide_hdr) || len > MAX_FRAME)
            return -1;
        bool guest = guest_conn(c);
        if (guest && (size_t)len - sizeof(struct tide_hdr) > tcp.guest_bytes) {
            guest_dropped(c, "a frame longer than port_peer_bytes");
            return -1;
        }
        if (c->rlen - off < 4 + (size_t)len) {
            /* a big DATA payload: read the rest of it in place */
            if (c->rlen - off >= 4 + sizeof(struct tide_hdr) && len - sizeof(struct tide_hdr) >= ZC_MIN) {
                struct tide_hdr h;
                memcpy(&h, c->rbuf + off + 4, sizeof h);
                if (!frame_allowed(c, &h))
                    return -1;
                int niov = h.type == TIDE_MSG_DATA && h.len == len - sizeof h
                               ? tide_protocol_data_target(c->peer, &h, c->zc_iov, ZC_MAX_IOV)
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
                        tide_protocol_data_arrived(c->peer, &c->zc_hdr);
                        n++;
                    }
                    break;
                }
            }
            if (rbuf_make_room(c, &off, 4 + (size_t)len) < 0) /* a big frame */
                return -1;
            break;
        }
        struct tide_hdr h;
        memcpy(&h, c->rbuf + off + 4, sizeof h);
        if (!frame_allowed(c, &h) || (guest && !guest_frame_ok(c, &h, len)))
            return -1;
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
/* Why conn_read gave up, when it was not over a malformed message. */
static const char *read_failure;
#define READ_PEER_CLOSED (-2) /* orderly end: EOF at a frame boundary */

static int read_failed(const char *why)
{
    read_failure = why;
    return -1;
}

static int read_error(int err)
{
    static char why[96];
    snprintf(why, sizeof why, "failed: %s", strerror(err));
    return read_failed(why);
}

static int zc_read(struct tcp_conn *c)
{
    while (c->zc_left > 0) {
        ssize_t r = readv(c->fd, c->zc_iov, c->zc_niov);
        if (r == 0)
            return read_failed("closed by the peer in the middle of a message");
        if (r < 0)
            return (errno == EAGAIN || errno == EINTR) ? 0 : read_error(errno);
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
    tide_protocol_data_arrived(c->peer, &c->zc_hdr);
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
        if (r == 0) {
            /* the peer closed its end: between two frames of an open
             * connection, that is how a finished peer leaves */
            if (c->state == C_OPEN && c->rlen == 0)
                return READ_PEER_CLOSED;
            return read_failed("closed by the peer in the middle of a message");
        }
        if (r < 0)
            return (errno == EAGAIN || errno == EINTR) ? delivered : read_error(errno);
        c->rlen += (size_t)r;
        /* handshake messages */
        if (c->state == C_WAIT_CHALLENGE) {
            int k = tide_hs_challenge_decode(c->rbuf, c->rlen, c->nonce_a);
            if (k < 0)
                return -1;
            if (k == 0)
                continue;
            memmove(c->rbuf, c->rbuf + k, c->rlen - (size_t)k);
            c->rlen -= (size_t)k;
            if (send_hello(c) != 0)
                return -1;
            c->state = C_WAIT_REPLY;
        }
        if (c->state == C_WAIT_REPLY) {
            bool accepted;
            uint8_t mac[TIDE_MAC_LEN];
            int k = tide_hs_reply_decode(c->rbuf, c->rlen, &accepted, mac);
            if (k < 0)
                return -1;
            if (k == 0)
                continue;
            memmove(c->rbuf, c->rbuf + k, c->rlen - (size_t)k);
            c->rlen -= (size_t)k;
            int rc = on_reply(c, accepted, mac);
            if (rc != 0)
                return rc < 0 ? -1 : delivered;
        }
        if (c->state == C_WAIT_HELLO) {
            struct tide_hello h;
            int k = tide_hs_hello_decode(c->rbuf, c->rlen, &h);
            if (k < 0)
                return -1;
            if (k == 0)
                continue;
            if (c->rlen != (size_t)k)
                return -1; /* nothing may follow a hello before our reply */
            c->rlen = 0;
            int rc = on_hello(c, &h);
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
    /* a process of another universe gets no event from our runtime: a
     * broken connection is how its death shows (ft/ft.h); our own
     * universe's are reported by the runtime, which knows a death from a
     * finished process's exit */
    if (c->state == C_OPEN && c->peer && !c->port_only && tide_sender_is_foreign(c->peer))
        tide_ft_report(c->peer->nspace, c->peer->rank);
    if (!why) { /* an orderly close: said only when asked for details */
        if (tide.tuning.verbose > 1)
            fprintf(stderr, "tide[%u]: TCP connection closed by the peer\n", tide.rank);
    } else if (tide.tuning.verbose > 0) {
        fprintf(stderr, "tide[%u]: TCP connection %s\n", tide.rank, why);
    }
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
        read_failure = NULL;
        int rc = conn_read(c);
        if (rc == READ_PEER_CLOSED) {
            conn_failed(c, NULL);
            return;
        }
        if (rc < 0) {
            conn_failed(c, read_failure ? read_failure : "dropped: the peer sent a malformed message");
            return;
        }
    }
    if (c->state == C_OPEN && (events & EPOLLOUT))
        if (flush_queue(c) != 0)
            conn_failed(c, "write failed");
}

/* Arm the timer for the earliest handshake deadline (or disarm it). */
static void arm_timer(void)
{
    if (tcp.timer_fd < 0)
        return;
    double first = 0;
    for (struct tcp_conn *c = tcp.conns; c; c = c->next)
        if (c->state == C_WAIT_HELLO && (first == 0 || c->deadline < first))
            first = c->deadline;
    struct itimerspec its = {{0, 0}, {0, 0}};
    if (first > 0) {
        double d = first - now_s();
        if (d < 0.001)
            d = 0.001;
        its.it_value.tv_sec = (time_t)d;
        its.it_value.tv_nsec = (long)((d - (double)(time_t)d) * 1e9);
    }
    timerfd_settime(tcp.timer_fd, 0, &its, NULL);
}

/* Drop peers that did not authenticate in time. */
static int expire_handshakes(void)
{
    if (tcp.npending == 0)
        return 0;
    double t = now_s();
    int n = 0;
    for (struct tcp_conn *c = tcp.conns; c; c = c->next)
        if (c->state == C_WAIT_HELLO && c->deadline <= t) {
            if (tide.tuning.verbose > 0)
                fprintf(stderr, "tide[%u]: TCP: dropped a peer that did not authenticate within %.0f s\n",
                        tide.rank, tcp.auth_timeout);
            conn_close(c);
            n++;
        }
    return n;
}

/* Too many peers not yet authenticated: drop the oldest. */
static void evict_oldest_pending(void)
{
    struct tcp_conn *old = NULL;
    for (struct tcp_conn *c = tcp.conns; c; c = c->next)
        if (c->state == C_WAIT_HELLO && (!old || c->seq < old->seq))
            old = c;
    if (old)
        conn_close(old);
}

static void on_accept(int lfd)
{
    for (int k = 0; k < 256; k++) { /* a flood cannot keep us here */
        int fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            break;
        set_sock_opts(fd);
        if (tcp.npending >= tcp.max_pending)
            evict_oldest_pending();
        struct tcp_conn *c = conn_new(fd, false);
        if (!c) {
            close(fd);
            continue;
        }
        arm(c, false);
        c->state = C_WAIT_HELLO;
        c->deadline = now_s() + tcp.auth_timeout;
        c->seq = ++tcp.seq;
        tcp.npending++;
        uint8_t ch[TIDE_HS_CHALLENGE_LEN];
        tide_auth_random(c->nonce_a, TIDE_NONCE_LEN);
        tide_hs_challenge_encode(c->nonce_a, ch);
        if (write_small(c, ch, sizeof ch) != 0)
            conn_close(c);
    }
    arm_timer();
}

static void reap_dead(void)
{
    for (struct tcp_conn **pp = &tcp.conns; *pp;) {
        struct tcp_conn *c = *pp;
        if (c->state == C_DEAD) {
            *pp = c->next;
            conn_free(c);
        } else {
            pp = &c->next;
        }
    }
}

static int on_hello(struct tcp_conn *c, const struct tide_hello *h);

/* Ask again about the hellos that waited for their process's keys. */
static int retry_deferred(void)
{
    int n = 0;
    for (struct tcp_conn *c = tcp.conns; c && tcp.ndeferred; c = c->next) {
        if (!c->deferred || c->state != C_WAIT_HELLO)
            continue;
        struct tide_hello h = c->hello;
        int rc = on_hello(c, &h);
        if (rc < 0)
            conn_close(c);
        if (!c->deferred)
            n++;
    }
    return n;
}

/* The frames the shared path left (tcp_progress_shared), before anything
 * newer is read from their connections. */
static int deliver_held(void)
{
    int n = 0;
    for (struct tcp_conn *c = tcp.conns; c && tcp.nheld; c = c->next) {
        if (!c->held)
            continue;
        c->held = false;
        tcp.nheld--;
        if (c->state != C_OPEN)
            continue;
        int k = deliver_frames(c);
        if (k < 0)
            conn_failed(c, "dropped: the peer sent a malformed message");
        else
            n += k;
    }
    return n;
}

static int tcp_progress(void)
{
    /* with no open connection, look at the listener only now and then */
    if (tcp.nopen == 0 && !tcp.conns && (++tcp.pass & 1023) != 0)
        return 0;
    int work = tcp.nheld ? deliver_held() : 0;
    struct epoll_event evs[64];
    int n = epoll_wait(tcp.epfd, evs, 64, 0);
    bool listeners = false, timer = false;
    for (int i = 0; i < n; i++) {
        if (!evs[i].data.ptr) {
            listeners = true;
            continue;
        }
        if (evs[i].data.ptr == &timer_mark) {
            uint64_t ticks;
            ssize_t r = read(tcp.timer_fd, &ticks, sizeof ticks);
            (void)r;
            timer = true;
            continue;
        }
        on_event(evs[i].data.ptr, evs[i].events);
        work++;
    }
    if (listeners) {
        for (int i = 0; i < tcp.nlisten; i++)
            on_accept(tcp.listen_fds[i]);
        work++;
    }
    if (tcp.ndeferred > 0) {
        int d = retry_deferred();
        work += d;
        n += d;
    }
    if (tcp.npending > 0 || timer) {
        int x = expire_handshakes();
        if (x > 0 || timer)
            arm_timer();
        if (x > 0)
            n++;
    }
    if (tcp.guests_left)
        guests_left_free();
    if (n > 0)
        reap_dead();
    return work;
}

/* ---- arrivals under the shared library lock ----
 * Threads holding the library lock shared (runtime/lock.h) read open
 * connections of their own, one thread per connection at a time (its busy
 * flag, taken by an exchange), and deliver the plain eager frames the
 * fast path takes (tide_protocol_incoming_shared). The first frame it
 * does not take stays at the head of the connection's buffer, held: the
 * connection is left alone until the exclusive engine has delivered it
 * (deliver_held), so every frame of a connection is delivered in order.
 * Everything else the sockets and the epoll set report (listeners,
 * handshakes, the timer, queued output, errors) is the exclusive
 * engine's. */

/* Could the frame of header h and length len go the shared way? */
static bool shared_candidate(const struct tide_hdr *h, uint32_t len)
{
    return h->type == TIDE_MSG_EAGER && len - sizeof *h <= tide_tcp_transport.eager_limit;
}

/* What the shared path read from c's socket is no longer there for a
 * thread asleep in the exclusive engine to see: wake it. */
static void hold(struct tcp_conn *c)
{
    __atomic_store_n(&c->held, true, __ATOMIC_RELAXED);
    __atomic_add_fetch(&tcp.nheld, 1, __ATOMIC_RELAXED);
    tide_progress_wake_sleepers();
}

/* Deliver the complete frames at the head of c's buffer that the fast
 * path takes; hold c at the first it does not. */
static int deliver_shared(struct tcp_conn *c)
{
    size_t off = 0;
    int n = 0;
    while (c->rlen - off >= 4 + sizeof(struct tide_hdr)) {
        uint32_t len = tide_auth_get32(c->rbuf + off);
        struct tide_hdr h;
        memcpy(&h, c->rbuf + off + 4, sizeof h);
        if (len < sizeof h || len > MAX_FRAME || !shared_candidate(&h, len)) {
            hold(c);
            break;
        }
        if (c->rlen - off < 4 + (size_t)len)
            break; /* the rest is on its way */
        if (!tide_protocol_incoming_shared(c->peer, &h, c->rbuf + off + 4 + sizeof h, len - sizeof h)) {
            hold(c);
            break;
        }
        off += 4 + (size_t)len;
        n++;
    }
    if (off) {
        memmove(c->rbuf, c->rbuf + off, c->rlen - off);
        c->rlen -= off;
    }
    return n;
}

/* Read c and deliver what the shared path takes; *exclusive set when
 * something is left for the exclusive engine. A few reads at most, so
 * that a peer streaming without pause does not keep the thread from its
 * own wait. */
#define SHARED_READS 8
static int conn_read_shared(struct tcp_conn *c, bool *exclusive)
{
    int delivered = 0;
    for (int reads = 0;; reads++) {
        delivered += deliver_shared(c);
        if (c->held) {
            *exclusive = true;
            return delivered;
        }
        if (reads == SHARED_READS)
            return delivered;
        if (c->rcap - c->rlen < 4096) {
            size_t cap = c->rcap * 2;
            uint8_t *nb = realloc(c->rbuf, cap);
            if (!nb) {
                *exclusive = true;
                return delivered;
            }
            c->rbuf = nb;
            c->rcap = cap;
        }
        ssize_t r = recv(c->fd, c->rbuf + c->rlen, c->rcap - c->rlen, MSG_DONTWAIT);
        if (r <= 0) {
            /* an end or an error is the exclusive engine's to find (it
             * reads the socket again) */
            if (r == 0 || (errno != EAGAIN && errno != EINTR))
                *exclusive = true;
            return delivered;
        }
        c->rlen += (size_t)r;
    }
}

static int tcp_progress_shared(bool *exclusive)
{
    if (tcp.nopen == 0 && !tcp.conns)
        return 0;
    if (__atomic_load_n(&tcp.nheld, __ATOMIC_RELAXED))
        *exclusive = true;
    struct epoll_event evs[16];
    int n = epoll_wait(tcp.epfd, evs, 16, 0), got = 0;
    for (int i = 0; i < n; i++) {
        struct tcp_conn *c = evs[i].data.ptr;
        if (!c || evs[i].data.ptr == &timer_mark || c->state != C_OPEN || c->port_only || c->crypt ||
            (evs[i].events & ~(uint32_t)EPOLLIN)) {
            *exclusive = true;
            continue;
        }
        if (__atomic_load_n(&c->held, __ATOMIC_RELAXED) || c->zc_left ||
            __atomic_load_n(&c->busy, __ATOMIC_RELAXED) || __atomic_exchange_n(&c->busy, 1, __ATOMIC_ACQUIRE))
            continue;
        if (!c->held && !c->zc_left) /* as the exclusive engine last left it */
            got += conn_read_shared(c, exclusive);
        __atomic_store_n(&c->busy, 0, __ATOMIC_RELEASE);
    }
    return got;
}

/* Every pass of a waiting loop: only while connections are open (the
 * listener alone is looked at by the full progress). */
static int tcp_progress_quick(void)
{
    return tcp.nopen == 0 && !tcp.conns ? 0 : tcp_progress();
}

/* Out of memory for the rest of a frame part of which is on the wire:
 * write the rest now, waiting for the socket (a broken connection is
 * found by the reading side). */
static void write_rest(int fd, const struct iovec *iov, int n, size_t done)
{
    for (int i = 0; i < n; i++) {
        size_t l = iov[i].iov_len;
        if (done >= l) {
            done -= l;
            continue;
        }
        const uint8_t *b = (const uint8_t *)iov[i].iov_base + done;
        l -= done;
        done = 0;
        while (l > 0) {
            ssize_t w = send(fd, b, l, MSG_NOSIGNAL | MSG_DONTWAIT);
            if (w > 0) {
                b += w;
                l -= (size_t)w;
            } else if (w < 0 && errno != EAGAIN && errno != EINTR) {
                return;
            } else {
                struct pollfd pf = {.fd = fd, .events = POLLOUT};
                poll(&pf, 1, 10);
            }
        }
    }
}

/* tcp_send for a holder of the shared library lock (runtime/lock.h): only
 * on an open connection of our universe with nothing queued, one thread
 * at a time; what the socket does not take at once is queued (as
 * tcp_send does). 1, with nothing written, in every other case: the
 * exclusive path then sends it. */
static int tcp_send_shared(struct tide_proc *p, const struct tide_hdr *h, const void *extra, size_t extra_len,
                           struct tide_convertor *cv, size_t len)
{
    struct tcp_peer *tp = p->tcp_state;
    /* universe and key as the exclusive path found them (it wrote them) */
    if (!tp || tp->failed || tp->universe != 1 || !tcp.have_key || tp->pre_head || (len && !cv->dt->contig) ||
        (h->flags & TIDE_MSGF_SEALED))
        return 1;
    struct tcp_conn *c = tp->active;
    if (!c || c->state != C_OPEN || c->crypt)
        return 1;
    size_t total = 4 + sizeof *h + extra_len + len;
    uint8_t head[4 + sizeof *h];
    struct iovec iov[3];
    int n = frame_start(head, h, total, extra, extra_len, iov);
    if (len) {
        iov[n].iov_base = cv->buf + cv->dt->true_lb + cv->pos;
        iov[n++].iov_len = len;
    }
    int rc = 1;
    tide_spin_lock(&c->send_lock);
    if (!c->sq_head) {
        struct msghdr mh = {.msg_iov = iov, .msg_iovlen = (size_t)n};
        ssize_t w = sendmsg(c->fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
        size_t done = w > 0 ? (size_t)w : 0;
        if (done == total) {
            rc = 0;
        } else if (done > 0) {
            /* part of the frame is on the wire: the rest must follow it */
            struct frame *f = frame_of_rest(iov, n, done, total);
            if (f) {
                queue_frame(&c->sq_head, &c->sq_tail, f);
                arm(c, true);
            } else {
                write_rest(c->fd, iov, n, done);
            }
            rc = 0;
        }
    }
    tide_spin_unlock(&c->send_lock);
    if (rc == 0 && len)
        cv->pos += len;
    return rc;
}

static bool tcp_active(void)
{
    return tcp.nopen != 0 || tcp.conns;
}

/* ---- sending ---- */

/* Does traffic to p go over a PORT-kind connection? Only to a process of
 * another universe we hold no link key for yet: the one whose port we
 * connect to, or the one that connected to ours. */
static bool via_port(struct tide_proc *p, struct tcp_peer *tp)
{
    uint8_t token[TIDE_PORT_KEY_LEN];
    if (of_our_universe(p) || ordinary_kind(p) >= 0)
        return false;
    return tp->port_conn || tide_peer_keys_port(p, token) == 0;
}

/* Bytes waiting in c's send queue. */
static size_t queued_bytes(const struct tcp_conn *c)
{
    size_t n = 0;
    for (const struct frame *f = c->sq_head; f; f = f->next)
        n += f->len + f->ext_len - f->off;
    return n;
}

static int tcp_send(struct tide_proc *p, const struct tide_hdr *h, const void *extra, size_t extra_len,
                    struct tide_convertor *cv, size_t len)
{
    struct tcp_peer *tp = p->tcp_state;
    if (!tp)
        return -1;
    bool port = via_port(p, tp);
    if (!port && (tp->failed || ordinary_kind(p) < 0))
        return -1;
    size_t total = 4 + sizeof *h + extra_len + len;
    struct tcp_conn *c = port ? tp->port_conn : tp->active;
    /* written at once unless it is to be sealed (frame_for_wire) */
    if (c && c->state == C_OPEN && !c->sq_head && !c->crypt && !(h->flags & TIDE_MSGF_SEALED)) {
        uint8_t head[4 + sizeof *h];
        struct iovec iov[3];
        int n = frame_start(head, h, total, extra, extra_len, iov);
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
            struct frame *f = frame_of_rest(iov, n, done, total);
            if (!f) {
                free(packed);
                return -1;
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
    tide_auth_put32(f->data, (uint32_t)(total - 4));
    memcpy(f->data + 4, h, sizeof *h);
    if (extra_len)
        memcpy(f->data + 4 + sizeof *h, extra, extra_len);
    if (len)
        tide_conv_pack(cv, f->data + 4 + sizeof *h + extra_len, len);
    if (c && c->state == C_OPEN) {
        if (conn_queue(c, f) != 0) {
            conn_failed(c, "write failed");
            return -1;
        }
        if (guest_conn(c) && queued_bytes(c) > tcp.guest_bytes) {
            guest_dropped(c, "it does not read our answers");
            conn_close(c);
            return -1;
        }
        if (flush_queue(c) != 0) {
            conn_failed(c, "write failed");
            return -1;
        }
    } else if (port) {
        queue_frame(&tp->ppre_head, &tp->ppre_tail, f);
        start_connect(p, tp, true);
        if (!tp->port_conn)
            return -1;
    } else {
        queue_frame(&tp->pre_head, &tp->pre_tail, f);
        start_connect(p, tp, false);
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
    struct tcp_conn *c = via_port(p, tp) ? tp->port_conn : tp->active;
    if (!c || c->state != C_OPEN || !cv->dt->contig)
        return 1;
    struct frame *f = frame_new(4 + sizeof *h);
    if (!f)
        return 1;
    tide_auth_put32(f->data, (uint32_t)(sizeof *h + len));
    memcpy(f->data + 4, h, sizeof *h);
    f->ext = (const uint8_t *)cv->buf + cv->dt->true_lb + cv->pos;
    f->ext_len = len;
    f->done = done;
    f->arg = arg;
    cv->pos += len;
    if (conn_queue(c, f) != 0 || flush_queue(c) != 0) {
        conn_failed(c, "write failed");
        return 0; /* frames_free ran done() */
    }
    return 0;
}

/* Messages not yet written: queued on an open connection, or waiting for
 * one to a peer that can still be reached. */
bool tide_tcp_peer_open(const struct tide_proc *p)
{
    const struct tcp_peer *tp = p->tcp_state;
    return tp && tp->active && tp->active->state == C_OPEN;
}

static bool tcp_output_pending(void)
{
    /* what waits for a failed process (ft/ft.h) never leaves */
    for (struct tcp_conn *c = tcp.conns; c; c = c->next)
        if (c->state == C_OPEN && c->sq_head && !(c->peer && c->peer->failed))
            return true;
    for (struct tcp_peer *tp = tcp.peers; tp; tp = tp->next)
        if (!(tp->proc && tp->proc->failed) && ((tp->pre_head && !tp->failed) || (tp->ppre_head && tp->port_conn)))
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

/* Is every process of this job (and, as far as we know, of its universe)
 * on this one node? Then loopback is all the job needs. */
static bool one_node_job(void)
{
    if (!tide.have_pmix)
        return true;
    if (tide_config_int("sim_nodes") > 1)
        return false;
    uint32_t nn = 0;
    if (tide_pmix_get_u32(tide.nspace, UINT32_MAX, "pmix.num.nodes", &nn, tide.tuning.pmix_timeout) == 0)
        return nn <= 1;
    return tide.local_size == tide.size;
}

static int add_listener(struct in_addr addr, char *list, size_t *len, size_t cap, char *err, size_t errlen)
{
    if (tcp.nlisten == MAX_LISTENERS)
        return 0;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        snprintf(err, errlen, "TCP transport: %s", strerror(errno));
        return -1;
    }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr = addr};
    char ip[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, &addr, ip, sizeof ip);
    if (bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 256) != 0) {
        snprintf(err, errlen, "TCP transport: cannot listen on %s: %s", ip, strerror(errno));
        close(fd);
        return -1;
    }
    socklen_t sl = sizeof sa;
    getsockname(fd, (struct sockaddr *)&sa, &sl);
    int port = ntohs(sa.sin_port);
    int n = snprintf(list + *len, cap - *len, "%s%s:%d", *len ? "," : "", ip, port);
    if (n < 0 || *len + (size_t)n >= cap) {
        close(fd);
        return 0;
    }
    *len += (size_t)n;
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = NULL};
    epoll_ctl(tcp.epfd, EPOLL_CTL_ADD, fd, &ev);
    if (tcp.nlisten == 0) {
        tcp.listen_fd = fd;
        tcp.port = port;
    }
    tcp.listen_fds[tcp.nlisten++] = fd;
    return 0;
}

/* Listen on the interfaces the job uses, and put them in the card. */
static int open_listeners(char *err, size_t errlen)
{
    char include[256];
    snprintf(include, sizeof include, "%s", tide_config_get("if_include") ? tide_config_get("if_include") : "");
    if (!include[0] && tide.tuning.tcp_if[0]) /* the older name of the same setting */
        snprintf(include, sizeof include, "%s", tide.tuning.tcp_if);
    char list[512] = "";
    size_t len = 0;
    struct in_addr lo = {.s_addr = htonl(INADDR_LOOPBACK)};
    if (!include[0] && one_node_job()) {
        if (add_listener(lo, list, &len, sizeof list, err, errlen) != 0)
            return -1;
    } else {
        struct ifaddrs *ifs = NULL;
        if (getifaddrs(&ifs) == 0) {
            for (struct ifaddrs *i = ifs; i; i = i->ifa_next) {
                if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || !(i->ifa_flags & IFF_UP))
                    continue;
                struct in_addr a = ((struct sockaddr_in *)i->ifa_addr)->sin_addr;
                bool want;
                if (include[0]) {
                    want = tide_netif_included(include, i->ifa_name, a);
                } else {
                    want = a.s_addr != lo.s_addr;
                }
                if (want && add_listener(a, list, &len, sizeof list, err, errlen) != 0) {
                    freeifaddrs(ifs);
                    return -1;
                }
            }
            freeifaddrs(ifs);
        }
        if (tcp.nlisten == 0 && include[0]) {
            snprintf(err, errlen, "TCP transport: no interface matches if_include '%s'", include);
            return -1;
        }
        if (tcp.nlisten == 0 && add_listener(lo, list, &len, sizeof list, err, errlen) != 0)
            return -1;
    }
    tide_card_add("tcp", list);
    return 0;
}

int tide_tcp_init(char *err, size_t errlen);
int tide_tcp_init(char *err, size_t errlen)
{
    tcp.epfd = epoll_create1(EPOLL_CLOEXEC);
    tcp.timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (tcp.epfd < 0 || tcp.timer_fd < 0) {
        snprintf(err, errlen, "TCP transport: %s", strerror(errno));
        return -1;
    }
    struct epoll_event tev = {.events = EPOLLIN, .data.ptr = &timer_mark};
    epoll_ctl(tcp.epfd, EPOLL_CTL_ADD, tcp.timer_fd, &tev);
    long long to = tide_config_int("auth_timeout"), mp = tide_config_int("auth_max_pending");
    tcp.auth_timeout = to > 0 ? (double)to : 3.0;
    tcp.max_pending = mp > 0 ? (int)mp : 64;
    tcp.encrypt = tide_config_int("encrypt") != 0;
    long long gb = tide_config_int("port_peer_bytes"), gsb = tide_config_int("port_peers_bytes");
    tcp.guest_bytes = gb > 0 ? (size_t)gb : 16384;
    tcp.guests_bytes = gsb > 0 ? (size_t)gsb : 262144;
    if (open_listeners(err, errlen) != 0)
        return -1;
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
        conn_free(c);
    }
    while (tcp.peers) {
        struct tcp_peer *tp = tcp.peers;
        tcp.peers = tp->next;
        frames_free(tp->pre_head);
        frames_free(tp->ppre_head);
        tp->proc->tcp_state = NULL;
        free(tp);
    }
    for (int i = 0; i < tcp.nlisten; i++)
        close(tcp.listen_fds[i]);
    if (tcp.timer_fd >= 0)
        close(tcp.timer_fd);
    if (tcp.epfd >= 0)
        close(tcp.epfd);
    tcp.listen_fd = tcp.epfd = tcp.timer_fd = -1;
    tcp.nlisten = 0;
    tcp.nopen = tcp.npending = tcp.nport = 0;
    tcp.have_key = false;
    tide_peer_keys_clear();
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
    if (tp->port_conn)
        conn_close(tp->port_conn);
    frames_free(tp->ppre_head);
    tide_peer_keys_forget(p);
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
    .active = tcp_active,
    .send_shared = tcp_send_shared,
    .progress_shared = tcp_progress_shared,
    .block_prepare = tcp_block_prepare,
    .block_finish = NULL,
    .finalize = tcp_finalize,
    .forget = tcp_forget,
    .send_zc = tcp_send_zc,
    .output_pending = tcp_output_pending,
};
