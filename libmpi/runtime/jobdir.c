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
#include "sessiondir.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char made[sizeof tide.session_dir]; /* the directory we made or joined, to remove */

/* a directory of ours that no other user can write in or read */
static bool private_dir(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
           (st.st_mode & 0077) == 0 && access(path, W_OK | X_OK) == 0;
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
    if (mkdir(path, 0700) != 0 && errno != EEXIST)
        return false;
    if (!private_dir(path))
        return false;
    snprintf(tide.session_dir, sizeof tide.session_dir, "%s", path);
    snprintf(made, sizeof made, "%s", path);
    return true;
}

void tide_jobdir_pick(const char *server_nsdir)
{
    tide.session_dir[0] = '\0';
    const char *jobdir = getenv("TIDE_JOB_DIR");
    if (jobdir && *jobdir) {
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
    if (made[0])
        rmdir(made); /* fails while a peer's file is still in it: that peer removes it */
    made[0] = '\0';
}
