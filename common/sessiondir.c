/*
 * sessiondir.c: making and removing session directories, and removing the
 * ones left behind by jobs whose processes were killed (kill -9 of
 * mpiexec and its daemons): each directory records who owns it (pid,
 * process start time, pid namespace, boot id and host name), and the next
 * job of the same user on the same host removes the directories whose
 * owners are all dead. Every directory and file is made, opened and
 * removed through safefs.h (exclusive, never through a symlink, checked).
 */
#include "sessiondir.h"
#include "fdutil.h"
#include "safefs.h"

#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The first word of an owner record: records without it (the old
 * format) are never removed. */
#define OWNER_FORMAT "tide-owner-2"

static const char *default_base(void);

const char *tide_session_dir_base(const char *base)
{
    if (base && *base)
        return base;
    return default_base();
}

static const char *default_base(void)
{
    if (access("/dev/shm", W_OK | X_OK) == 0)
        return "/dev/shm";
    const char *t = getenv("TMPDIR");
    return (t && *t) ? t : "/tmp";
}

int tide_session_dir_create(const char *base, const char *tag, char *out, size_t outlen)
{
    int fd = tide_session_dir_make(base, tag, out, outlen);
    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}

int tide_session_dir_make(const char *base, const char *tag, char *out, size_t outlen)
{
    if (!base || !*base)
        base = default_base();
    char prefix[128];
    snprintf(prefix, sizeof prefix, "tide-%u-%.64s-", (unsigned)getuid(), tag);
    int fd = tide_safe_mkdtemp(base, prefix, out, outlen);
    if (fd < 0)
        return -1;
    if (tide_session_owner_write_at(fd) != 0) {
        int e = errno;
        close(fd);
        const char *name;
        int pfd = tide_safe_open_parent(out, &name);
        if (pfd >= 0) {
            tide_safe_rmtree_at(pfd, name);
            close(pfd);
        }
        errno = e;
        return -1;
    }
    return fd;
}

/* Field 22 of /proc/PID/stat: the start time in clock ticks after boot.
 * -1 with errno ENOENT if there is no such process, ESRCH if a zombie. */
static int proc_start_time(long pid, unsigned long long *out)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')'); /* the command name may hold spaces and ')' */
    if (!p)
        return -1;
    p++;
    /* a zombie is dead, whether or not its parent has reaped it yet */
    if (p[0] == ' ' && (p[1] == 'Z' || p[1] == 'X')) {
        errno = ESRCH;
        return -1;
    }
    /* after ')': field 3 (state) ... field 22 (starttime) */
    for (int field = 3; field < 22; field++) {
        p = strchr(p + 1, ' ');
        if (!p)
            return -1;
    }
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p + 1, &end, 10);
    if (errno || end == p + 1)
        return -1;
    *out = v;
    return 0;
}

static void pid_namespace(char *out, size_t len)
{
    ssize_t n = readlink("/proc/self/ns/pid", out, len - 1);
    if (n <= 0)
        n = snprintf(out, len, "unknown");
    out[n] = '\0';
}

/* This boot of this host: the kernel's boot id (a fresh random UUID at
 * every boot, different on every host). "" if unknown. */
static void boot_id(char *out, size_t len)
{
    out[0] = '\0';
    int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    ssize_t n = read(fd, out, len - 1);
    close(fd);
    if (n <= 0) {
        out[0] = '\0';
        return;
    }
    out[n] = '\0';
    for (char *p = out; *p; p++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || *p == '-')) {
            *p = '\0';
            break;
        }
}

/* The host name as one word ("?" if none). */
static void host_word(char *out, size_t len)
{
    if (gethostname(out, len - 1) != 0 || !out[0])
        snprintf(out, len, "?");
    out[len - 1] = '\0';
    for (char *p = out; *p; p++)
        if (*p <= ' ' || *p > '~')
            *p = '_';
}

int tide_session_owner_write_at(int dirfd)
{
    unsigned long long start;
    if (proc_start_time((long)getpid(), &start) != 0) {
        errno = ENOENT; /* no /proc: nothing can be checked later anyway */
        return 0;
    }
    char ns[128], boot[64], host[256], tmp[64], text[600];
    pid_namespace(ns, sizeof ns);
    boot_id(boot, sizeof boot);
    host_word(host, sizeof host);
    int len = snprintf(text, sizeof text, "%s %ld %llu %s %s %s\n", OWNER_FORMAT, (long)getpid(), start, ns,
                       boot[0] ? boot : "unknown", host);
    snprintf(tmp, sizeof tmp, ".owner.%d", (int)getpid());
    int fd = tide_safe_create_at(dirfd, tmp, O_WRONLY, 0600);
    if (fd < 0)
        return -1;
    int bad = len < 0 || (size_t)len >= sizeof text || tide_write_all(fd, text, (size_t)len) != 0;
    if (close(fd) != 0 || bad || renameat(dirfd, tmp, dirfd, "owner") != 0) {
        int e = errno;
        unlinkat(dirfd, tmp, 0);
        errno = e ? e : EIO;
        return -1;
    }
    return 0;
}

int tide_session_owner_write(const char *dir)
{
    int fd = tide_safe_open_dir(dir);
    if (fd < 0)
        return -1;
    int rc = tide_session_owner_write_at(fd);
    int e = errno;
    close(fd);
    errno = e;
    return rc;
}

void tide_session_dir_remove_if_unused(const char *dir)
{
    const char *name;
    int pfd = tide_safe_open_parent(dir, &name);
    if (pfd < 0)
        return;
    int fd = tide_safe_open_dir_at(pfd, name);
    if (fd < 0) {
        close(pfd);
        return;
    }
    int dfd = dup(fd);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    bool other = !d;
    if (!d && dfd >= 0)
        close(dfd);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 && strcmp(e->d_name, "owner") != 0)
            other = true;
    if (d)
        closedir(d);
    if (!other) {
        unlinkat(fd, "owner", 0);
        unlinkat(pfd, name, AT_REMOVEDIR);
    }
    close(fd);
    close(pfd);
}

enum owner_state { OWNER_NONE, OWNER_DEAD, OWNER_ALIVE };

/* What an owner record is compared with: this host, boot, pid namespace. */
struct here {
    char ns[128], boot[64], host[256];
};

/* The state of the owner recorded in dirfd's "owner". An unreadable
 * record, one of the old format, or one of another host, boot or pid
 * namespace counts as alive: only a record proven dead allows removal. */
static enum owner_state owner_state(int dirfd, const struct here *here)
{
    int fd = tide_safe_open_at(dirfd, "owner", O_RDONLY);
    if (fd < 0)
        return errno == ENOENT ? OWNER_NONE : OWNER_ALIVE;
    char text[600];
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0)
        return OWNER_ALIVE;
    text[n] = '\0';
    char format[16] = "", ns[128] = "", boot[64] = "", host[256] = "";
    long pid = 0;
    unsigned long long start = 0;
    int got = sscanf(text, "%15s %ld %llu %127s %63s %255s", format, &pid, &start, ns, boot, host);
    if (got != 6 || strcmp(format, OWNER_FORMAT) != 0 || pid <= 0)
        return OWNER_ALIVE;
    if (!here->boot[0] || strcmp(boot, here->boot) != 0 || strcmp(host, here->host) != 0 ||
        strcmp(ns, here->ns) != 0)
        return OWNER_ALIVE;
    unsigned long long now;
    if (proc_start_time(pid, &now) != 0)
        return errno == ENOENT || errno == ESRCH ? OWNER_DEAD : OWNER_ALIVE;
    return now == start ? OWNER_ALIVE : OWNER_DEAD; /* else the pid was reused */
}

/* Dead when the directory's own record and those of its subdirectories
 * (the daemons') are all dead, and there is at least one. */
static bool session_dead(int dirfd, const struct here *here)
{
    if (owner_state(dirfd, here) != OWNER_DEAD)
        return false;
    int dfd = dup(dirfd);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (!d) {
        if (dfd >= 0)
            close(dfd);
        return false;
    }
    bool dead = true;
    struct dirent *e;
    while (dead && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        int sub = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub < 0)
            continue; /* not a directory */
        if (owner_state(sub, here) == OWNER_ALIVE)
            dead = false;
        close(sub);
    }
    closedir(d);
    return dead;
}

int tide_session_dirs_clean_stale(const char *base, const char *skip)
{
    base = tide_session_dir_base(base);
    char prefix[64];
    struct here here;
    snprintf(prefix, sizeof prefix, "tide-%u-", (unsigned)getuid());
    pid_namespace(here.ns, sizeof here.ns);
    boot_id(here.boot, sizeof here.boot);
    host_word(here.host, sizeof here.host);
    if (!here.boot[0])
        return 0; /* which records are this host's cannot be told */
    int bfd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (bfd < 0)
        return 0;
    int dfd = dup(bfd);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (!d) {
        if (dfd >= 0)
            close(dfd);
        close(bfd);
        return 0;
    }
    const char *skip_name = NULL;
    if (skip) {
        const char *slash = strrchr(skip, '/');
        skip_name = slash ? slash + 1 : skip;
    }
    int removed = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, prefix, strlen(prefix)) != 0)
            continue;
        if (skip_name && strcmp(e->d_name, skip_name) == 0)
            continue;
        /* our own private real directory only: no symlink, no other user's */
        int fd = tide_safe_open_dir_at(bfd, e->d_name);
        if (fd < 0)
            continue;
        bool dead = session_dead(fd, &here);
        close(fd);
        if (!dead)
            continue;
        tide_safe_rmtree_at(bfd, e->d_name);
        removed++;
    }
    closedir(d);
    close(bfd);
    return removed;
}

void tide_rmtree(const char *path)
{
    if (!path || !*path || !strstr(path, "tide"))
        return;
    tide_safe_rmtree(path);
}
