/*
 * peer_uid.h: which user owns the other end of a connected socket.
 */
#ifndef TIDED_PEER_UID_H
#define TIDED_PEER_UID_H

#include <sys/types.h>

/* For a Unix socket, the peer's credentials (SO_PEERCRED). For a TCP
 * connection between two sockets of this host (loopback or a local
 * address), the owner of the peer's socket, asked of the kernel with
 * sock_diag, or found in /proc/net/tcp when netlink is not available.
 * Returns 0 and sets *uid, or -1 when the owner cannot be known (e.g. the
 * peer is on another host). */
int peer_uid(int fd, uid_t *uid);

#endif
