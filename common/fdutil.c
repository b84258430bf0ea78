/*
 * fdutil.c: file-descriptor helpers.
 */
#include "fdutil.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

int tide_fd_cloexec(int fd)
{
    int f = fcntl(fd, F_GETFD);
    return f < 0 ? -1 : fcntl(fd, F_SETFD, f | FD_CLOEXEC);
}

int tide_fd_nonblock(int fd)
{
    int f = fcntl(fd, F_GETFL);
    return f < 0 ? -1 : fcntl(fd, F_SETFL, f | O_NONBLOCK);
}

int tide_write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN) {
                struct pollfd pf = {.fd = fd, .events = POLLOUT};
                poll(&pf, 1, 100);
                continue;
            }
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

ssize_t tide_read_full(int fd, void *buf, size_t len)
{
    size_t got = 0;
    while (got < len) {
        ssize_t n = read(fd, (char *)buf + got, len - got);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (n == 0)
            break;
        got += (size_t)n;
    }
    return (ssize_t)got;
}
