/*
 * jobdir.c: choosing the directory for a job's shared-memory files
 * (jobdir.h). Tide's daemon makes one per job and names it in
 * TIDE_JOB_DIR. Another PMIx server (Slurm's slurmstepd under srun
 * --mpi=pmix) usually names a per-job directory of its own, PMIX_NSDIR,
 * which it removes when the step ends. Failing both, the ranks of the node
 * meet in a directory named after their namespace: made 0700 by the first
 * one, accepted by the others only if it is a real directory, ours, and
 * closed to other users (another user could have made the name first).
 */
#include "runtime/jobdir.h"
#include "runtime/state.h"
#include "safefs.h"
#include "sessiondir.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char made[sizeof tide.session_dir]; /* the directory we made or joined, to remove */

/* a directory of ours that no other user can write in or read, not a
 * symlink (safefs.h) */
static bool private_dir(const char *path)
{
    int fd = tide_safe_open_dir(path);
    if (fd < 0)
        return false;
    close(fd);
    return true;
}

static bool name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-' ||
           c == '_';
}

static bool shared_by_name(void)
{
    /* the namespace, kept to characters safe in a file name */
    char ns[128];
    size_t n = 0;
    for (const char *p = tide.nspace; *p && n < sizeof ns - 1; p++)
        ns[n++] = name_char(*p) ? *p : '_';
    ns[n] = '\0';
    char path[sizeof tide.session_dir];
    int w = snprintf(path, sizeof path, "%s/tide-%u-job-%s", tide_session_dir_base(NULL), (unsigned)geteuid(), ns);
    if (w < 0 || (size_t)w >= sizeof path)
        return false;
    /* made by the first rank, joined by the others if private and ours */
    const char *name;
    int pfd = tide_safe_open_parent(path, &name);
    int fd = pfd >= 0 ? tide_safe_mkdir_at(pfd, name, true) : -1;
    if (pfd >= 0)
        close(pfd);
    if (fd < 0)
        return false;
    close(fd);
    snprintf(tide.session_dir, sizeof tide.session_dir, "%s", path);
    snprintf(made, sizeof made, "%s", path);
    return true;
}

void tide_jobdir_pick(const char *server_nsdir)
{
    tide.session_dir[0] = '\0';
    const char *jobdir = getenv("TIDE_JOB_DIR");
    if (jobdir && *jobdir) {
        /* the daemon's; no shared memory if it is not private and ours */
        if (strlen(jobdir) < sizeof tide.session_dir && private_dir(jobdir))
            snprintf(tide.session_dir, sizeof tide.session_dir, "%s", jobdir);
        return;
    }
    /* a singleton, or alone on its node: nobody to share memory with */
    if (!tide.have_pmix || tide.local_size < 2)
        return;
    if (server_nsdir && *server_nsdir && strlen(server_nsdir) < sizeof tide.session_dir &&
        private_dir(server_nsdir)) {
        snprintf(tide.session_dir, sizeof tide.session_dir, "%s", server_nsdir);
        return;
    }
    shared_by_name();
}

void tide_jobdir_release(void)
{
    const char *name;
    int pfd = made[0] ? tide_safe_open_parent(made, &name) : -1;
    if (pfd >= 0) {
        /* fails while a peer's file is still in it: that peer removes it */
        unlinkat(pfd, name, AT_REMOVEDIR);
        close(pfd);
    }
    made[0] = '\0';
}
