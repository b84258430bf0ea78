/*
 * peer_uid.c: finds the user owning the other end of a connection, so a
 * listener can refuse peers of other users. Unix sockets: SO_PEERCRED.
 * Local TCP: the kernel's sock_diag interface looked up with the exact
 * four-tuple (the peer's socket is the one whose source is our peer
 * address and whose destination is our address), falling back to
 * /proc/net/tcp for IPv4.
 */
#include "peer_uid.h"

#include <arpa/inet.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int diag_lookup(const struct sockaddr_storage *peer, const struct sockaddr_storage *self, uid_t *uid)
{
    struct {
        struct nlmsghdr nlh;
        struct inet_diag_req_v2 req;
    } msg;
    memset(&msg, 0, sizeof msg);
    msg.nlh.nlmsg_len = sizeof msg;
    msg.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
    msg.nlh.nlmsg_flags = NLM_F_REQUEST;
    msg.req.sdiag_family = (unsigned char)peer->ss_family;
    msg.req.sdiag_protocol = IPPROTO_TCP;
    msg.req.idiag_states = ~0u;
    msg.req.id.idiag_cookie[0] = INET_DIAG_NOCOOKIE;
    msg.req.id.idiag_cookie[1] = INET_DIAG_NOCOOKIE;
    if (peer->ss_family == AF_INET) {
        const struct sockaddr_in *p = (const struct sockaddr_in *)peer, *s = (const struct sockaddr_in *)self;
        msg.req.id.idiag_sport = p->sin_port;
        msg.req.id.idiag_dport = s->sin_port;
        memcpy(msg.req.id.idiag_src, &p->sin_addr, 4);
        memcpy(msg.req.id.idiag_dst, &s->sin_addr, 4);
    } else {
        const struct sockaddr_in6 *p = (const struct sockaddr_in6 *)peer, *s = (const struct sockaddr_in6 *)self;
        msg.req.id.idiag_sport = p->sin6_port;
        msg.req.id.idiag_dport = s->sin6_port;
        memcpy(msg.req.id.idiag_src, &p->sin6_addr, 16);
        memcpy(msg.req.id.idiag_dst, &s->sin6_addr, 16);
    }
    int nl = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
    if (nl < 0)
        return -1;
    struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
    struct timeval tv = {.tv_sec = 1};
    setsockopt(nl, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    int rc = -1;
    if (sendto(nl, &msg, sizeof msg, 0, (struct sockaddr *)&kernel, sizeof kernel) == (ssize_t)sizeof msg) {
        long buf[1024];
        ssize_t n = recv(nl, buf, sizeof buf, 0);
        struct nlmsghdr *h = (struct nlmsghdr *)buf;
        if (n > 0 && NLMSG_OK(h, (size_t)n) && h->nlmsg_type == SOCK_DIAG_BY_FAMILY) {
            struct inet_diag_msg *d = NLMSG_DATA(h);
            *uid = d->idiag_uid;
            rc = 0;
        }
    }
    close(nl);
    return rc;
}

static int proc_lookup(const struct sockaddr_in *peer, const struct sockaddr_in *self, uid_t *uid)
{
    FILE *f = fopen("/proc/net/tcp", "re");
    if (!f)
        return -1;
    char line[512];
    int rc = -1;
    while (fgets(line, sizeof line, f)) {
        unsigned la, lp, ra, rp, u;
        if (sscanf(line, " %*d: %x:%x %x:%x %*x %*x:%*x %*x:%*x %*x %u", &la, &lp, &ra, &rp, &u) != 5)
            continue;
        if (la == peer->sin_addr.s_addr && lp == ntohs(peer->sin_port) && ra == self->sin_addr.s_addr &&
            rp == ntohs(self->sin_port)) {
            *uid = (uid_t)u;
            rc = 0;
            break;
        }
    }
    fclose(f);
    return rc;
}

int peer_uid(int fd, uid_t *uid)
{
    struct sockaddr_storage self, peer;
    socklen_t sl = sizeof self, pl = sizeof peer;
    if (getsockname(fd, (struct sockaddr *)&self, &sl) != 0 || getpeername(fd, (struct sockaddr *)&peer, &pl) != 0)
        return -1;
    if (self.ss_family == AF_UNIX) {
        struct ucred cred;
        socklen_t cl = sizeof cred;
        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl) != 0)
            return -1;
        *uid = cred.uid;
        return 0;
    }
    if (self.ss_family != AF_INET && self.ss_family != AF_INET6)
        return -1;
    if (peer.ss_family != self.ss_family)
        return -1;
    if (diag_lookup(&peer, &self, uid) == 0)
        return 0;
    if (self.ss_family == AF_INET)
        return proc_lookup((struct sockaddr_in *)&peer, (struct sockaddr_in *)&self, uid);
    return -1;
}
