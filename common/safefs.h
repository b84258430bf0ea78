/*
 * safefs.h: making, opening and removing Tide's private directories and
 * files so that another local user cannot substitute their own: every
 * directory and file is created exclusively (mkdtemp, mkdirat,
 * O_CREAT|O_EXCL), never through a symlink (O_NOFOLLOW), relative to a
 * directory descriptor that was checked once, and checked again with
 * fstat after it is opened (owner, type, mode). Removal never follows a
 * symlink and descends only into directories that are ours.
 *
 * "Ours" means owned by the effective uid (the owner the kernel gives
 * what we create). A private directory is ours, a real directory, and has
 * no group or other permission bits. Functions returning a descriptor
 * return it with O_CLOEXEC, or -1 with errno set: EPERM when the object
 * exists but fails a check (owner, mode), ENOTDIR/ELOOP when it is not a
 * directory or is a symlink, EEXIST when an exclusive create finds a name
 * taken.
 */
#ifndef TIDE_SAFEFS_H
#define TIDE_SAFEFS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* 0 if fd is a private directory (ours, a directory, no group/other bits). */
int tide_safe_check_dir(int fd);
/* 0 if fd is a regular file of ours with one link. */
int tide_safe_check_file(int fd);

/* Open path (its last component not a symlink) as a private directory. */
int tide_safe_open_dir(const char *path);
/* Open the private directory name inside dirfd (not a symlink). */
int tide_safe_open_dir_at(int dirfd, const char *name);
/* Make the directory name inside dirfd (mode 0700) and open it. With join,
 * a name that exists already is accepted if it is a private directory;
 * without, it fails with EEXIST. */
int tide_safe_mkdir_at(int dirfd, const char *name, bool join);
/* Make a fresh directory base/PREFIXxxxxxx (mkdtemp: exclusive, 0700,
 * unguessable), write its path to out and return it opened and checked. */
int tide_safe_mkdtemp(const char *base, const char *prefix, char *out, size_t outlen);

/* Create the file name inside dirfd exclusively (O_CREAT|O_EXCL|O_NOFOLLOW,
 * plus flags such as O_RDWR) and check it. */
int tide_safe_create_at(int dirfd, const char *name, int flags, mode_t mode);
/* Open the existing file name inside dirfd (O_NOFOLLOW) and check it is a
 * regular file of ours. */
int tide_safe_open_at(int dirfd, const char *name, int flags);

/* The same by path: the parent directory must be private (checked through
 * a descriptor), the file is created or opened relative to it. */
int tide_safe_create(const char *path, int flags, mode_t mode);
int tide_safe_open(const char *path, int flags);
/* Remove the non-directory path from its private parent (a symlink is
 * removed itself, never what it points to). 0 or -1. */
int tide_safe_unlink(const char *path);

/* Remove the directory name inside dirfd and everything below it: only
 * directories of ours on the same file system are entered (opened with
 * O_NOFOLLOW and checked with fstat), symlinks and other entries are
 * unlinked, never followed. 0, or -1 if something was left. */
int tide_safe_rmtree_at(int dirfd, const char *name);
/* The same by path: path itself must be a private directory (not a
 * symlink); its parent need not be ours. */
int tide_safe_rmtree(const char *path);

/* Split path into its parent (opened as a directory, following symlinks
 * only in the parent's own path, unchecked) and its last component
 * (pointer into path). For callers that check the parent themselves. */
int tide_safe_open_parent(const char *path, const char **name);

#endif
