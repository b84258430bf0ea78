/*
 * fdutil.h: small file-descriptor helpers (flags, full reads and writes).
 */
#ifndef TIDE_FDUTIL_H
#define TIDE_FDUTIL_H

#include <stddef.h>
#include <sys/types.h>

int tide_fd_cloexec(int fd);
int tide_fd_nonblock(int fd);
/* write/read everything, retrying on EINTR/EAGAIN. 0 or -1. */
int tide_write_all(int fd, const void *buf, size_t len);
ssize_t tide_read_full(int fd, void *buf, size_t len);

#endif
