/*
 * sessiondir.c: making and removing session directories.
 */
#include "sessiondir.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
    return 0;
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
