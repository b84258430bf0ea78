/*
 * ctllisten.c: the listening side of authenticated control links (see
 * ctllisten.h). Everything runs on the owner's libevent loop and never
 * blocks on a peer: a pending peer is a small state (its challenge nonce
 * and the bytes of its answer so far), a read event and a deadline.
 * There is one listening socket per address handed out, bound to that
 * address only (never the wildcard address): a daemon told these
 * addresses can reach it there, and nothing else is listened on.
 */
#include "ctllisten.h"
#include "ctlcrypt.h"
#include "log.h"
#include "netif.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <event2/event.h>

struct pending {
    struct tide_ctllisten *l;
    int fd;
    struct event *ev;
    uint8_t nonce[TIDE_CTLAUTH_NONCE];
    uint8_t answer[TIDE_CTLAUTH_ANSWER_LEN];
    size_t have;
    struct pending *next;
};

#define CTL_MAX_LISTENERS 16

struct tide_ctllisten {
    struct event_base *base;
    uint8_t secret[TIDE_CTL_SECRET_LEN];
    int fds[CTL_MAX_LISTENERS];
    struct event *accept_evs[CTL_MAX_LISTENERS];
    int nfds;
    struct timeval timeout;
    int max_pending, npending;
    struct pending *pending; /* oldest first */
    tide_ctllisten_fn fn;
    void *arg;
    char addresses[1024];
    unsigned long rejected;
};

static void pending_drop(struct pending *p, bool close_fd)
{
    struct tide_ctllisten *l = p->l;
    for (struct pending **pp = &l->pending; *pp; pp = &(*pp)->next)
        if (*pp == p) {
            *pp = p->next;
            break;
        }
    l->npending--;
    event_free(p->ev);
    if (close_fd)
        close(p->fd);
    memset(p->answer, 0, sizeof p->answer);
    free(p);
}

static void pending_cb(evutil_socket_t fd, short what, void *arg)
{
    struct pending *p = arg;
    struct tide_ctllisten *l = p->l;
    if (what & EV_TIMEOUT) {
        TIDE_DEBUG(1, "control link: a peer did not authenticate in time; dropped");
        l->rejected++;
        pending_drop(p, true);
        return;
    }
    ssize_t n = read(fd, p->answer + p->have, sizeof p->answer - p->have);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return;
    if (n <= 0) {
        l->rejected++;
        pending_drop(p, true);
        return;
    }
    p->have += (size_t)n;
    if (p->have < sizeof p->answer)
        return;
    uint32_t node;
    uint8_t proof[TIDE_CTLAUTH_PROOF_LEN];
    if (tide_ctlauth_check_answer(l->secret, p->nonce, p->answer, &node, proof) != 0) {
        tide_error("control link: a peer failed authentication; dropped");
        l->rejected++;
        pending_drop(p, true);
        return;
    }
    /* a fresh socket always has room for 32 bytes */
    if (write(fd, proof, sizeof proof) != (ssize_t)sizeof proof) {
        l->rejected++;
        pending_drop(p, true);
        return;
    }
    struct tide_ctlcrypt *crypt = tide_ctlauth_keys(l->secret, p->nonce, p->answer + 8, node, true);
    if (!crypt) {
        tide_error("control link: cannot derive the link's keys; dropped");
        pending_drop(p, true);
        return;
    }
    int cfd = p->fd;
    pending_drop(p, false);
    if (l->fn(cfd, node, crypt, l->arg) != 0) {
        /* the owner took neither */
        close(cfd);
        tide_ctlcrypt_free(crypt);
    }
}

static void accept_cb(evutil_socket_t lfd, short what, void *arg)
{
    (void)what;
    struct tide_ctllisten *l = arg;
    for (;;) {
        int fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            return;
        if (l->npending >= l->max_pending && l->pending) {
            TIDE_DEBUG(1, "control link: too many peers authenticating; dropping the oldest");
            l->rejected++;
            pending_drop(l->pending, true);
        }
        struct pending *p = calloc(1, sizeof *p);
        uint8_t chal[TIDE_CTLAUTH_CHALLENGE_LEN];
        if (!p || tide_ctlauth_challenge(chal, p->nonce) != 0 ||
            write(fd, chal, sizeof chal) != (ssize_t)sizeof chal) {
            free(p);
            close(fd);
            continue;
        }
        p->l = l;
        p->fd = fd;
        p->ev = event_new(l->base, fd, EV_READ | EV_PERSIST, pending_cb, p);
        event_add(p->ev, &l->timeout);
        struct pending **pp = &l->pending;
        while (*pp)
            pp = &(*pp)->next;
        *pp = p;
        l->npending++;
    }
}

struct tide_ctllisten *tide_ctllisten_new(struct event_base *base, const uint8_t secret[TIDE_CTL_SECRET_LEN],
                                          const char *include, int timeout_s, int max_pending,
                                          tide_ctllisten_fn fn, void *arg, char *err, size_t errlen)
{
    struct tide_ctllisten *l = calloc(1, sizeof *l);
    if (!l) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    l->base = base;
    memcpy(l->secret, secret, TIDE_CTL_SECRET_LEN);
    l->timeout.tv_sec = timeout_s > 0 ? timeout_s : 3;
    l->max_pending = max_pending > 0 ? max_pending : 64;
    l->fn = fn;
    l->arg = arg;
    char ips[800];
    err[0] = '\0';
    if (tide_netif_addresses(include, ips, sizeof ips) != 0) {
        snprintf(err, errlen, "no network interface matches if_include '%s'", include);
        free(l);
        return NULL;
    }
    size_t len = 0;
    char *save = NULL;
    for (char *ip = strtok_r(ips, ",", &save); ip && l->nfds < CTL_MAX_LISTENERS; ip = strtok_r(NULL, ",", &save)) {
        struct sockaddr_in sa = {.sin_family = AF_INET};
        socklen_t sl = sizeof sa;
        if (inet_pton(AF_INET, ip, &sa.sin_addr) != 1)
            continue;
        int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 128) != 0 ||
            getsockname(fd, (struct sockaddr *)&sa, &sl) != 0) {
            /* an address that cannot be bound is not handed out */
            snprintf(err, errlen, "cannot listen for node daemons on %s: %s", ip, strerror(errno));
            TIDE_DEBUG(1, "%s", err);
            if (fd >= 0)
                close(fd);
            continue;
        }
        int n = snprintf(l->addresses + len, sizeof l->addresses - len, "%s%s:%d", len ? "," : "", ip,
                         ntohs(sa.sin_port));
        if (n < 0 || len + (size_t)n >= sizeof l->addresses) {
            close(fd);
            break;
        }
        len += (size_t)n;
        l->fds[l->nfds] = fd;
        l->accept_evs[l->nfds] = event_new(base, fd, EV_READ | EV_PERSIST, accept_cb, l);
        event_add(l->accept_evs[l->nfds++], NULL);
    }
    if (l->nfds == 0) {
        if (!err[0])
            snprintf(err, errlen, "no address to listen on for node daemons");
        tide_ctllisten_free(l);
        return NULL;
    }
    return l;
}

const char *tide_ctllisten_addresses(const struct tide_ctllisten *l)
{
    return l->addresses;
}

unsigned long tide_ctllisten_rejected(const struct tide_ctllisten *l)
{
    return l->rejected;
}

void tide_ctllisten_free(struct tide_ctllisten *l)
{
    if (!l)
        return;
    while (l->pending)
        pending_drop(l->pending, true);
    for (int i = 0; i < l->nfds; i++) {
        event_free(l->accept_evs[i]);
        close(l->fds[i]);
    }
    memset(l->secret, 0, sizeof l->secret);
    free(l);
}
