/*
 * nodelay_accept.c: libpmix 4.2 never sets TCP_NODELAY on its sockets, so
 * events the server pushes to clients wait ~40 ms for Nagle. tided defines
 * accept/accept4 itself (calling the C library's) and sets TCP_NODELAY on
 * every accepted TCP socket; libpmix's listener then uses these. Accepted
 * sockets are also close-on-exec: none belongs in a rank.
 */
#include <dlfcn.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

int accept(int fd, struct sockaddr *addr, socklen_t *len);
int accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags);

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

int accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags)
{
    static int (*real_accept4)(int, struct sockaddr *, socklen_t *, int);
    if (!real_accept4)
        real_accept4 = (int (*)(int, struct sockaddr *, socklen_t *, int))dlsym(RTLD_NEXT, "accept4");
    int s = real_accept4(fd, addr, len, flags | SOCK_CLOEXEC);
    set_nodelay(s);
    return s;
}

int accept(int fd, struct sockaddr *addr, socklen_t *len)
{
    return accept4(fd, addr, len, 0);
}
