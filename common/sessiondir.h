/*
 * sessiondir.h: the private per-session directory (0700) that holds PMIx
 * rendezvous files and shared-memory segments, and its removal.
 */
#ifndef TIDE_SESSIONDIR_H
#define TIDE_SESSIONDIR_H

#include <stddef.h>

/* Make a fresh private directory under base (NULL/empty: the configured
 * default: /dev/shm if writable, else $TMPDIR or /tmp). Writes its path to
 * out. Returns 0 or -1 with errno set. */
int tide_session_dir_create(const char *base, const char *tag, char *out, size_t outlen);
/* Remove a directory tree (best effort). Refuses paths without "tide". */
void tide_rmtree(const char *path);

#endif
