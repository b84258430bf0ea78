/*
 * sessiondir.c: making and removing session directories, and removing the
 * ones left behind by jobs whose processes were killed (kill -9 of
 * mpiexec and its daemons): each directory records who owns it (pid,
 * process start time, pid namespace), and the next job of the same user
 * removes the directories whose owners are all dead.
 */
#include "sessiondir.h"

#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
    if (!base || !*base)
        base = default_base();
    int n = snprintf(out, outlen, "%s/tide-%u-%s-XXXXXX", base, (unsigned)getuid(), tag);
    if (n < 0 || (size_t)n >= outlen) {
        errno = ENAMETOOLONG;
        return -1;
    }
    if (!mkdtemp(out))
        return -1;
    chmod(out, 0700);
    if (tide_session_owner_write(out) != 0) {
        int e = errno;
        rmdir(out);
        errno = e;
        return -1;
    }
    return 0;
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

int tide_session_owner_write(const char *dir)
{
    unsigned long long start;
    if (proc_start_time((long)getpid(), &start) != 0) {
        errno = ENOENT; /* no /proc: nothing can be checked later anyway */
        return 0;
    }
    char ns[128], tmp[4200], path[4200];
    pid_namespace(ns, sizeof ns);
    if (snprintf(path, sizeof path, "%s/owner", dir) >= (int)sizeof path ||
        snprintf(tmp, sizeof tmp, "%s/.owner.%d", dir, (int)getpid()) >= (int)sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    FILE *f = fopen(tmp, "wx");
    if (!f)
        return -1;
    fprintf(f, "%ld %llu %s\n", (long)getpid(), start, ns);
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

void tide_session_dir_remove_if_unused(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    bool other = false;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 && strcmp(e->d_name, "owner") != 0)
            other = true;
    closedir(d);
    if (other)
        return;
    char path[4200];
    if (snprintf(path, sizeof path, "%s/owner", dir) < (int)sizeof path)
        unlink(path);
    rmdir(dir);
}

enum owner_state { OWNER_NONE, OWNER_DEAD, OWNER_ALIVE };

/* The state of the owner recorded in dir/owner. An unreadable or foreign
 * record counts as alive: only a record proven dead allows removal. */
static enum owner_state owner_state(const char *dir, const char *my_ns)
{
    char path[4200];
    if (snprintf(path, sizeof path, "%s/owner", dir) >= (int)sizeof path)
        return OWNER_ALIVE;
    FILE *f = fopen(path, "r");
    if (!f)
        return errno == ENOENT ? OWNER_NONE : OWNER_ALIVE;
    long pid = 0;
    unsigned long long start = 0;
    char ns[128] = "";
    int got = fscanf(f, "%ld %llu %127s", &pid, &start, ns);
    fclose(f);
    if (got != 3 || pid <= 0 || strcmp(ns, my_ns) != 0)
        return OWNER_ALIVE;
    unsigned long long now;
    if (proc_start_time(pid, &now) != 0)
        return errno == ENOENT || errno == ESRCH ? OWNER_DEAD : OWNER_ALIVE;
    return now == start ? OWNER_ALIVE : OWNER_DEAD; /* else the pid was reused */
}

/* Dead when the directory's own record and those of its subdirectories
 * (the daemons') are all dead, and there is at least one. */
static bool session_dead(const char *dir, const char *my_ns)
{
    enum owner_state top = owner_state(dir, my_ns);
    if (top != OWNER_DEAD)
        return false;
    DIR *d = opendir(dir);
    if (!d)
        return false;
    bool dead = true;
    struct dirent *e;
    while (dead && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char sub[4200];
        struct stat st;
        if (snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name) >= (int)sizeof sub ||
            lstat(sub, &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        if (owner_state(sub, my_ns) == OWNER_ALIVE)
            dead = false;
    }
    closedir(d);
    return dead;
}

int tide_session_dirs_clean_stale(const char *base, const char *skip)
{
    base = tide_session_dir_base(base);
    char prefix[64], my_ns[128];
    snprintf(prefix, sizeof prefix, "tide-%u-", (unsigned)getuid());
    pid_namespace(my_ns, sizeof my_ns);
    DIR *d = opendir(base);
    if (!d)
        return 0;
    int removed = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, prefix, strlen(prefix)) != 0)
            continue;
        char path[4200];
        struct stat st;
        if (snprintf(path, sizeof path, "%s/%s", base, e->d_name) >= (int)sizeof path)
            continue;
        if (skip && strcmp(path, skip) == 0)
            continue;
        /* our own real directory only: no symlink, no other user's */
        if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid())
            continue;
        if (!session_dead(path, my_ns))
            continue;
        tide_rmtree(path);
        removed++;
    }
    closedir(d);
    return removed;
}

static void rmtree_at(const char *path, int depth)
{
    if (depth > 16)
        return;
    DIR *d = opendir(path);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            char sub[4096];
            if (snprintf(sub, sizeof sub, "%s/%s", path, e->d_name) >= (int)sizeof sub)
                continue;
            struct stat st;
            if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode))
                rmtree_at(sub, depth + 1);
            else
                unlink(sub);
        }
        closedir(d);
    }
    rmdir(path);
}

void tide_rmtree(const char *path)
{
    if (!path || !*path || !strstr(path, "tide"))
        return;
    rmtree_at(path, 0);
}
