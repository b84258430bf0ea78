/*
 * sessiondir.h: the private per-session directory (0700) that holds PMIx
 * rendezvous files and shared-memory segments, and its removal.
 */
#ifndef TIDE_SESSIONDIR_H
#define TIDE_SESSIONDIR_H

#include <stddef.h>

/* Make a fresh private directory base/tide-UID-TAG-XXXXXX (mkdtemp:
 * exclusive, unguessable, 0700) under base (NULL/empty: the configured
 * default: /dev/shm if writable, else $TMPDIR or /tmp), with the caller
 * recorded as its owner. Writes its path to out. Returns 0 or -1 with
 * errno set; tide_session_dir_make returns the directory open instead. */
int tide_session_dir_create(const char *base, const char *tag, char *out, size_t outlen);
int tide_session_dir_make(const char *base, const char *tag, char *out, size_t outlen);
/* Remove a private directory tree of ours (best effort; safefs.h: never
 * follows a symlink). Refuses paths without "tide". */
void tide_rmtree(const char *path);

/* The base directory session directories go in (base as configured, or
 * the default when NULL/empty). */
const char *tide_session_dir_base(const char *base);

/* Record the calling process as an owner of dir: the file dir/owner holds
 * "tide-owner-2", its pid, its start time (from /proc/PID/stat), its pid
 * namespace, the boot id (/proc/sys/kernel/random/boot_id) and the host
 * name. dir must be a private directory of ours.
 * tide_session_dir_create records the creator; a daemon records itself in
 * its own subdirectory. Returns 0 or -1 with errno set. */
int tide_session_owner_write(const char *dir);
int tide_session_owner_write_at(int dirfd);

/* Remove dir if nothing is left in it but its owner record (what the
 * last daemon of a session whose mpiexec is gone does). */
void tide_session_dir_remove_if_unused(const char *dir);

/* Remove the session directories of this user under base whose every
 * recorded owner is dead (pid gone, or reused: its start time differs).
 * Kept: directories of other users or not private, without an owner
 * record, with an owner alive, in another pid namespace (whose pids cannot
 * be checked from here), of another boot or host (a base shared by hosts),
 * or with a record of the old format, and skip (if not NULL). Returns how
 * many were removed. */
int tide_session_dirs_clean_stale(const char *base, const char *skip);

#endif
