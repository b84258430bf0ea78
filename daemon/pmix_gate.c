/*
 * pmix_gate.c: the gate in front of libpmix's TCP listener.
 *
 * libpmix 4.2.2 can only listen on TCP (its listener has no Unix-socket
 * support), accepts any local user, and reads each new peer's connection
 * message with blocking reads on its progress thread: a peer that connects
 * and sends nothing stalls every PMIx operation of the daemon, spawns
 * included, until it goes away.
 *
 * tided defines listen, accept and accept4 itself. Armed before
 * PMIx_server_init, the gate takes over the socket of libpmix's listen():
 * it keeps the real listening socket for itself and puts an eventfd under
 * the descriptor number libpmix knows, so libpmix's listener thread wakes
 * only when the gate has a connection for it. The gate thread accepts
 * every connection, drops peers of another uid at once, peeks (never
 * reads) at what each peer sends until the whole connection message is
 * there (header: int32 pindex = -1, uint32 tag = UINT32_MAX, uint32 nbytes,
 * 4 bytes padding, host order; then nbytes of payload), drops garbage,
 * absurd lengths and peers that have not finished within the deadline,
 * keeps at most max_pending such peers (dropping the oldest), and queues
 * complete ones for libpmix's accept. libpmix's blocking reads of the
 * connection message then never wait.
 *
 * Every accepted TCP socket gets TCP_NODELAY (libpmix never sets it, so
 * events it pushes would wait ~40 ms for Nagle) and close-on-exec.
 */
#include "pmix_gate.h"
#include "peer_uid.h"
#include "log.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

int accept(int fd, struct sockaddr *addr, socklen_t *len);
int accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags);
int listen(int fd, int backlog);

#define HDR_BYTES 16
/* Tide's clients send about 100 bytes; libpmix itself allows 128 KiB, but
 * a message must fit in the socket's receive buffer to be peeked whole */
#define MAX_CONNECT_MSG 32768

struct gate_conn {
    int fd;
    long long deadline_ms;
    struct sockaddr_storage addr;
    socklen_t addrlen;
    struct gate_conn *prev, *next;
};

static struct {
    int armed, active;
    int timeout_ms, max_pending;
    uid_t uid;
    int pmix_fd;   /* the number libpmix holds: our eventfd after the swap */
    int real_fd;   /* the real listening socket */
    int ready_efd; /* counts connections ready for libpmix (semaphore) */
    int stop_efd;
    int epfd;
    pthread_t thread;
    long long listen_paused_until;
    pthread_mutex_t lock;
    struct gate_conn *ready_head, *ready_tail; /* under lock */
    struct gate_conn *pend_head, *pend_tail;   /* gate thread only */
    int npending;
    unsigned char peek[HDR_BYTES + MAX_CONNECT_MSG];
} gate = {.pmix_fd = -1, .real_fd = -1, .ready_efd = -1, .stop_efd = -1, .epfd = -1,
          .lock = PTHREAD_MUTEX_INITIALIZER};

/* epoll tags for the two descriptors that are not connections */
static char tag_listener, tag_stop;

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void set_nodelay(int s)
{
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    if (s < 0 || getsockname(s, (struct sockaddr *)&ss, &sl) != 0)
        return;
    if (ss.ss_family != AF_INET && ss.ss_family != AF_INET6)
        return;
    int one = 1;
    setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

static int real_accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags)
{
    static int (*fn)(int, struct sockaddr *, socklen_t *, int);
    if (!fn)
        fn = (int (*)(int, struct sockaddr *, socklen_t *, int))dlsym(RTLD_NEXT, "accept4");
    return fn(fd, addr, len, flags);
}

static int real_listen(int fd, int backlog)
{
    static int (*fn)(int, int);
    if (!fn)
        fn = (int (*)(int, int))dlsym(RTLD_NEXT, "listen");
    return fn(fd, backlog);
}

/* ---- the pending list (gate thread only), oldest first ---- */

static void pending_unlink(struct gate_conn *c)
{
    if (c->prev)
        c->prev->next = c->next;
    else
        gate.pend_head = c->next;
    if (c->next)
        c->next->prev = c->prev;
    else
        gate.pend_tail = c->prev;
    c->prev = c->next = NULL;
    gate.npending--;
    epoll_ctl(gate.epfd, EPOLL_CTL_DEL, c->fd, NULL);
}

static void drop(struct gate_conn *c, const char *why)
{
    TIDE_DEBUG(1, "dropped a PMIx connection (fd %d): %s", c->fd, why);
    pending_unlink(c);
    close(c->fd);
    free(c);
}

static void hand_to_pmix(struct gate_conn *c)
{
    pending_unlink(c);
    set_nodelay(c->fd);
    pthread_mutex_lock(&gate.lock);
    if (gate.ready_tail)
        gate.ready_tail->next = c;
    else
        gate.ready_head = c;
    gate.ready_tail = c;
    pthread_mutex_unlock(&gate.lock);
    uint64_t one = 1;
    if (write(gate.ready_efd, &one, sizeof one) != sizeof one)
        TIDE_DEBUG(1, "gate: cannot signal a ready connection: %s", strerror(errno));
}

/* Look at what the peer has sent so far, without consuming it. */
static void check_conn(struct gate_conn *c, uint32_t events)
{
    ssize_t n = recv(c->fd, gate.peek, sizeof gate.peek, MSG_PEEK | MSG_DONTWAIT);
    if (n == 0) {
        drop(c, "closed before its connection message");
        return;
    }
    if (n < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
            if (events & (EPOLLHUP | EPOLLERR))
                drop(c, "connection error");
            return;
        }
        drop(c, strerror(errno));
        return;
    }
    if (n >= HDR_BYTES) {
        int32_t pindex;
        uint32_t tag, nbytes;
        memcpy(&pindex, gate.peek, 4);
        memcpy(&tag, gate.peek + 4, 4);
        memcpy(&nbytes, gate.peek + 8, 4);
        if (pindex != -1 || tag != UINT32_MAX) {
            drop(c, "not a PMIx connection message");
            return;
        }
        if (nbytes == 0 || nbytes > MAX_CONNECT_MSG) {
            drop(c, "connection message of an absurd length");
            return;
        }
        if ((size_t)n >= HDR_BYTES + (size_t)nbytes) {
            hand_to_pmix(c);
            return;
        }
    }
    if (events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR))
        drop(c, "closed before its connection message was complete");
}

static void admit(int fd, const struct sockaddr_storage *addr, socklen_t addrlen)
{
    uid_t uid;
    if (peer_uid(fd, &uid) != 0) {
        TIDE_DEBUG(1, "refused a PMIx connection whose owner is unknown");
        close(fd);
        return;
    }
    if (uid != gate.uid) {
        TIDE_DEBUG(1, "refused a PMIx connection of uid %u", (unsigned)uid);
        close(fd);
        return;
    }
    if (gate.npending >= gate.max_pending)
        drop(gate.pend_head, "too many connections pending, oldest dropped");
    struct gate_conn *c = calloc(1, sizeof *c);
    if (!c) {
        close(fd);
        return;
    }
    c->fd = fd;
    c->addr = *addr;
    c->addrlen = addrlen;
    c->deadline_ms = now_ms() + gate.timeout_ms;
    c->prev = gate.pend_tail;
    if (gate.pend_tail)
        gate.pend_tail->next = c;
    else
        gate.pend_head = c;
    gate.pend_tail = c;
    gate.npending++;
    /* edge-triggered: a peer that sent part of its message wakes us again
     * only when more arrives; an already readable socket is reported once */
    struct epoll_event ev = {.events = EPOLLIN | EPOLLRDHUP | EPOLLET, .data.ptr = c};
    if (epoll_ctl(gate.epfd, EPOLL_CTL_ADD, fd, &ev) != 0) {
        drop(c, "cannot watch it");
        return;
    }
}

static void pause_listener(long long ms)
{
    struct epoll_event ev = {.events = 0, .data.ptr = &tag_listener};
    epoll_ctl(gate.epfd, EPOLL_CTL_MOD, gate.real_fd, &ev);
    gate.listen_paused_until = now_ms() + ms;
}

static void accept_all(void)
{
    for (;;) {
        struct sockaddr_storage addr;
        socklen_t alen = sizeof addr;
        int s = real_accept4(gate.real_fd, (struct sockaddr *)&addr, &alen, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (s >= 0) {
            admit(s, &addr, alen);
            continue;
        }
        if (errno == EINTR || errno == ECONNABORTED)
            continue;
        if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
            /* out of descriptors: the oldest unfinished peer makes room */
            if (gate.pend_head) {
                drop(gate.pend_head, "out of descriptors, oldest dropped");
                continue;
            }
            TIDE_DEBUG(1, "gate: accept: %s", strerror(errno));
            pause_listener(100);
        }
        return;
    }
}

static void *gate_main(void *arg)
{
    (void)arg;
    struct epoll_event evs[64];
    for (;;) {
        long long now = now_ms();
        if (gate.listen_paused_until && now >= gate.listen_paused_until) {
            struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &tag_listener};
            epoll_ctl(gate.epfd, EPOLL_CTL_MOD, gate.real_fd, &ev);
            gate.listen_paused_until = 0;
        }
        long long wait = -1;
        if (gate.pend_head)
            wait = gate.pend_head->deadline_ms > now ? gate.pend_head->deadline_ms - now : 0;
        if (gate.listen_paused_until && (wait < 0 || gate.listen_paused_until - now < wait))
            wait = gate.listen_paused_until > now ? gate.listen_paused_until - now : 0;
        int n = epoll_wait(gate.epfd, evs, 64, (int)wait);
        if (n < 0 && errno != EINTR) {
            tide_error("PMIx gate: epoll_wait: %s", strerror(errno));
            break;
        }
        int listener_ready = 0, stop = 0;
        /* connections first: accepting may drop the oldest pending one,
         * which could still be in this batch */
        for (int i = 0; i < n; i++) {
            if (evs[i].data.ptr == &tag_listener)
                listener_ready = 1;
            else if (evs[i].data.ptr == &tag_stop)
                stop = 1;
            else
                check_conn(evs[i].data.ptr, evs[i].events);
        }
        if (stop)
            break;
        if (listener_ready)
            accept_all();
        now = now_ms();
        while (gate.pend_head && gate.pend_head->deadline_ms <= now)
            drop(gate.pend_head, "no complete connection message within auth_timeout");
    }
    return NULL;
}

void pmix_gate_arm(int auth_timeout_ms, int max_pending)
{
    gate.timeout_ms = auth_timeout_ms > 0 ? auth_timeout_ms : 3000;
    gate.max_pending = max_pending > 0 ? max_pending : 64;
    gate.uid = geteuid();
    gate.armed = 1;
}

int pmix_gate_active(void)
{
    return gate.active;
}

/* Take over libpmix's freshly listening socket fd. 0 on success; on
 * failure nothing has changed and the listener works ungated. */
static int take_over(int fd)
{
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    if (getsockname(fd, (struct sockaddr *)&ss, &sl) != 0 || (ss.ss_family != AF_INET && ss.ss_family != AF_INET6))
        return -1;
    gate.real_fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    gate.ready_efd = eventfd(0, EFD_SEMAPHORE | EFD_NONBLOCK | EFD_CLOEXEC);
    gate.stop_efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    gate.epfd = epoll_create1(EPOLL_CLOEXEC);
    if (gate.real_fd < 0 || gate.ready_efd < 0 || gate.stop_efd < 0 || gate.epfd < 0)
        goto fail;
    int fl = fcntl(gate.real_fd, F_GETFL);
    fcntl(gate.real_fd, F_SETFL, fl | O_NONBLOCK);
    struct epoll_event lev = {.events = EPOLLIN, .data.ptr = &tag_listener};
    struct epoll_event sev = {.events = EPOLLIN, .data.ptr = &tag_stop};
    if (epoll_ctl(gate.epfd, EPOLL_CTL_ADD, gate.real_fd, &lev) != 0 ||
        epoll_ctl(gate.epfd, EPOLL_CTL_ADD, gate.stop_efd, &sev) != 0)
        goto fail;
    /* from here libpmix's descriptor is the ready-count eventfd */
    if (dup3(gate.ready_efd, fd, O_CLOEXEC) < 0)
        goto fail;
    gate.pmix_fd = fd;
    if (pthread_create(&gate.thread, NULL, gate_main, NULL) != 0) {
        /* put the socket back where libpmix expects it */
        dup3(gate.real_fd, fd, O_CLOEXEC);
        gate.pmix_fd = -1;
        goto fail;
    }
    gate.active = 1;
    TIDE_DEBUG(2, "PMIx listener gated (auth_timeout %d ms, max_pending %d)", gate.timeout_ms, gate.max_pending);
    return 0;
fail:
    tide_error("cannot gate the PMIx listener: %s", strerror(errno));
    if (gate.real_fd >= 0)
        close(gate.real_fd);
    if (gate.ready_efd >= 0)
        close(gate.ready_efd);
    if (gate.stop_efd >= 0)
        close(gate.stop_efd);
    if (gate.epfd >= 0)
        close(gate.epfd);
    gate.real_fd = gate.ready_efd = gate.stop_efd = gate.epfd = -1;
    return -1;
}

int listen(int fd, int backlog)
{
    int rc = real_listen(fd, backlog);
    if (rc == 0 && gate.armed) {
        gate.armed = 0;
        take_over(fd);
    }
    return rc;
}

/* Connections handed to libpmix, clients it reported connected, and when
 * the last hand-over was (libpmix's listener thread and its progress
 * thread write them; tided's main thread reads them). */
static _Atomic unsigned long handed, connected;
static _Atomic long long last_handed_ms;

void pmix_gate_note_connected(void)
{
    atomic_fetch_add(&connected, 1);
}

int pmix_gate_handshaking(void)
{
    if (!gate.active || atomic_load(&handed) <= atomic_load(&connected))
        return 0;
    /* a hand-over that never led to a connected client (a tool, or a peer
     * that failed) stops counting after a second */
    return now_ms() - atomic_load(&last_handed_ms) < 1000;
}

/* libpmix's listener thread, woken by the eventfd: one ready connection */
static int gated_accept(struct sockaddr *addr, socklen_t *len, int flags)
{
    uint64_t v;
    if (read(gate.ready_efd, &v, sizeof v) != sizeof v) {
        errno = ECONNABORTED; /* libpmix's listener just goes round again */
        return -1;
    }
    pthread_mutex_lock(&gate.lock);
    struct gate_conn *c = gate.ready_head;
    if (c) {
        gate.ready_head = c->next;
        if (!gate.ready_head)
            gate.ready_tail = NULL;
    }
    pthread_mutex_unlock(&gate.lock);
    if (!c) {
        errno = ECONNABORTED;
        return -1;
    }
    int s = c->fd;
    /* a peer gone already is not handed over: libpmix's handshake with a
     * dead peer corrupts its records (pmix_gate.h) */
    struct pollfd pf = {.fd = s, .events = POLLRDHUP};
    if (poll(&pf, 1, 0) == 1 && (pf.revents & (POLLRDHUP | POLLHUP | POLLERR))) {
        close(s);
        free(c);
        errno = ECONNABORTED;
        return -1;
    }
    atomic_store(&last_handed_ms, now_ms());
    atomic_fetch_add(&handed, 1);
    if (addr && len) {
        socklen_t n = *len < c->addrlen ? *len : c->addrlen;
        memcpy(addr, &c->addr, n);
        *len = c->addrlen;
    }
    free(c);
    if (!(flags & SOCK_NONBLOCK)) {
        int fl = fcntl(s, F_GETFL);
        fcntl(s, F_SETFL, fl & ~O_NONBLOCK);
    }
    return s;
}

int accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags)
{
    if (gate.active && fd == gate.pmix_fd)
        return gated_accept(addr, len, flags);
    int s = real_accept4(fd, addr, len, flags | SOCK_CLOEXEC);
    set_nodelay(s);
    return s;
}

int accept(int fd, struct sockaddr *addr, socklen_t *len)
{
    return accept4(fd, addr, len, 0);
}

/* Call after PMIx_server_finalize (its listener thread has ended). */
void pmix_gate_stop(void)
{
    if (!gate.active)
        return;
    uint64_t one = 1;
    if (write(gate.stop_efd, &one, sizeof one) == sizeof one)
        pthread_join(gate.thread, NULL);
    gate.active = 0;
    while (gate.pend_head)
        drop(gate.pend_head, "shutting down");
    pthread_mutex_lock(&gate.lock);
    while (gate.ready_head) {
        struct gate_conn *c = gate.ready_head;
        gate.ready_head = c->next;
        close(c->fd);
        free(c);
    }
    gate.ready_tail = NULL;
    pthread_mutex_unlock(&gate.lock);
    close(gate.real_fd);
    close(gate.stop_efd);
    close(gate.epfd);
    /* called after PMIx_server_finalize: libpmix has closed its copy */
    close(gate.ready_efd);
    gate.real_fd = gate.stop_efd = gate.epfd = gate.ready_efd = -1;
}
