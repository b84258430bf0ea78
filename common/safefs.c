/*
 * safefs.c: private directories and files made, opened and removed
 * without trusting names another user could have taken first (safefs.h).
 */
#include "safefs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#define RMTREE_MAX_DEPTH 32

int tide_safe_check_dir(int fd)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    if (st.st_uid != geteuid() || (st.st_mode & 077)) {
        errno = EPERM;
        return -1;
    }
    return 0;
}

int tide_safe_check_file(int fd)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return -1;
    if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || st.st_nlink > 1) {
        errno = EPERM;
        return -1;
    }
    return 0;
}

/* Close fd keeping errno; -1. */
static int close_fail(int fd)
{
    int e = errno;
    close(fd);
    errno = e;
    return -1;
}

static int checked_dir(int fd)
{
    if (fd < 0)
        return -1;
    if (tide_safe_check_dir(fd) != 0)
        return close_fail(fd);
    return fd;
}

static bool plain_name(const char *name)
{
    if (!name || !*name || strchr(name, '/') || strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
        errno = EINVAL;
        return false;
    }
    return true;
}

int tide_safe_open_dir(const char *path)
{
    if (!path || !*path) {
        errno = EINVAL;
        return -1;
    }
    return checked_dir(open(path, DIR_FLAGS));
}

int tide_safe_open_dir_at(int dirfd, const char *name)
{
    if (!plain_name(name))
        return -1;
    return checked_dir(openat(dirfd, name, DIR_FLAGS));
}

int tide_safe_mkdir_at(int dirfd, const char *name, bool join)
{
    if (!plain_name(name))
        return -1;
    if (mkdirat(dirfd, name, 0700) != 0 && (errno != EEXIST || !join))
        return -1;
    return tide_safe_open_dir_at(dirfd, name);
}

int tide_safe_mkdtemp(const char *base, const char *prefix, char *out, size_t outlen)
{
    int n = snprintf(out, outlen, "%s/%sXXXXXX", base, prefix);
    if (n < 0 || (size_t)n >= outlen) {
        errno = ENAMETOOLONG;
        return -1;
    }
    if (!mkdtemp(out))
        return -1;
    /* mkdtemp made it 0700 whatever the umask; a name swapped in since
     * (in a base that is not sticky) fails the owner check */
    return tide_safe_open_dir(out);
}

int tide_safe_create_at(int dirfd, const char *name, int flags, mode_t mode)
{
    if (!plain_name(name))
        return -1;
    int fd = openat(dirfd, name, flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd < 0)
        return -1;
    if (tide_safe_check_file(fd) != 0)
        return close_fail(fd);
    return fd;
}

int tide_safe_open_at(int dirfd, const char *name, int flags)
{
    if (!plain_name(name))
        return -1;
    /* non-blocking while opening: a fifo put in a file's place must not
     * hang us (it then fails the check) */
    int want = flags & ~(O_CREAT | O_EXCL | O_TRUNC);
    int fd = openat(dirfd, name, want | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return -1;
    if (tide_safe_check_file(fd) != 0)
        return close_fail(fd);
    if (!(want & O_NONBLOCK))
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

int tide_safe_open_parent(const char *path, const char **name)
{
    if (!path || !*path) {
        errno = EINVAL;
        return -1;
    }
    const char *slash = strrchr(path, '/');
    if (!slash) {
        *name = path;
        return open(".", DIR_FLAGS & ~O_NOFOLLOW);
    }
    char parent[PATH_MAX];
    size_t len = (size_t)(slash - path);
    if (len >= sizeof parent) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(parent, path, len);
    parent[len] = '\0';
    *name = slash + 1;
    return open(len ? parent : "/", (DIR_FLAGS & ~O_NOFOLLOW));
}

/* The private parent of path, opened; its last component in *name. */
static int private_parent(const char *path, const char **name)
{
    int pfd = tide_safe_open_parent(path, name);
    if (pfd < 0)
        return -1;
    if (!plain_name(*name) || tide_safe_check_dir(pfd) != 0)
        return close_fail(pfd);
    return pfd;
}

int tide_safe_create(const char *path, int flags, mode_t mode)
{
    const char *name;
    int pfd = private_parent(path, &name);
    if (pfd < 0)
        return -1;
    int fd = tide_safe_create_at(pfd, name, flags, mode);
    if (fd < 0)
        return close_fail(pfd);
    close(pfd);
    return fd;
}

int tide_safe_open(const char *path, int flags)
{
    const char *name;
    int pfd = private_parent(path, &name);
    if (pfd < 0)
        return -1;
    int fd = tide_safe_open_at(pfd, name, flags);
    if (fd < 0)
        return close_fail(pfd);
    close(pfd);
    return fd;
}

int tide_safe_unlink(const char *path)
{
    const char *name;
    int pfd = private_parent(path, &name);
    if (pfd < 0)
        return -1;
    int rc = unlinkat(pfd, name, 0);
    if (rc != 0)
        return close_fail(pfd);
    close(pfd);
    return 0;
}

/* Empty the directory open as fd (ours, on device dev). */
static int clear_dir(int fd, dev_t dev, int depth)
{
    if (depth > RMTREE_MAX_DEPTH) {
        errno = ELOOP;
        return -1;
    }
    int dfd = dup(fd);
    if (dfd < 0)
        return -1;
    DIR *d = fdopendir(dfd);
    if (!d)
        return close_fail(dfd);
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *name = e->d_name;
        if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
            continue;
        struct stat st;
        if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
            if (errno != ENOENT)
                rc = -1;
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            /* a file, socket or symlink: the entry goes, never its target */
            if (unlinkat(fd, name, 0) != 0 && errno != ENOENT)
                rc = -1;
            continue;
        }
        int sub = openat(fd, name, DIR_FLAGS);
        if (sub < 0) {
            if (errno == ELOOP || errno == ENOTDIR) /* replaced by a link since */
                unlinkat(fd, name, 0);
            else if (errno != ENOENT)
                rc = -1;
            continue;
        }
        struct stat sst;
        if (fstat(sub, &sst) != 0 || !S_ISDIR(sst.st_mode) || sst.st_uid != geteuid() || sst.st_dev != dev) {
            close(sub); /* not ours, or another file system mounted here: left alone */
            rc = -1;
            continue;
        }
        if (clear_dir(sub, dev, depth + 1) != 0)
            rc = -1;
        close(sub);
        if (unlinkat(fd, name, AT_REMOVEDIR) != 0 && errno != ENOENT)
            rc = -1;
    }
    closedir(d);
    return rc;
}

int tide_safe_rmtree_at(int dirfd, const char *name)
{
    if (!plain_name(name))
        return -1;
    int fd = openat(dirfd, name, DIR_FLAGS);
    if (fd < 0)
        return errno == ENOENT ? 0 : -1;
    struct stat st;
    if (tide_safe_check_dir(fd) != 0 || fstat(fd, &st) != 0)
        return close_fail(fd);
    int rc = clear_dir(fd, st.st_dev, 0);
    close(fd);
    if (unlinkat(dirfd, name, AT_REMOVEDIR) != 0 && errno != ENOENT)
        rc = -1;
    return rc;
}

int tide_safe_rmtree(const char *path)
{
    const char *name;
    int pfd = tide_safe_open_parent(path, &name);
    if (pfd < 0)
        return errno == ENOENT ? 0 : -1;
    int rc = tide_safe_rmtree_at(pfd, name);
    int e = errno;
    close(pfd);
    errno = e;
    return rc;
}
