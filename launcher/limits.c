/*
 * limits.c: checks made before a job is launched, so a job this machine
 * cannot hold is refused at once with a message naming the limit, instead
 * of starting ranks until something runs out: ranks per core
 * (max_ranks_per_core, even with oversubscription), the user's process
 * limit (RLIMIT_NPROC), open files of mpiexec and tided (RLIMIT_NOFILE;
 * the soft limit is raised up to the hard one when that is enough), and
 * the space the ranks' shared-memory segments may fill on the session
 * directory's file system. Slots without oversubscription are checked by
 * the mapping (jobmap.c).
 */
#include "mpiexec.h"
#include "params.h"
#include "shmseg.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* Descriptors tided holds per local rank (stdout, stderr, the finalize
 * pipe, the PMIx connection) and for itself (libevent, PMIx listeners,
 * the control channel, a rank being forked). */
#define FDS_PER_RANK 4
#define FDS_DAEMON 64
/* Tasks a rank runs (its main thread and the PMIx progress thread). */
#define TASKS_PER_RANK 2
/* Tasks of a tided (main thread and PMIx's). */
#define TASKS_PER_DAEMON 4

static long cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? n : 1;
}

/* Tasks (threads) the user already runs: what RLIMIT_NPROC counts. */
static long user_tasks(uid_t uid)
{
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    long total = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!isdigit((unsigned char)e->d_name[0]))
            continue;
        char path[300], line[256];
        snprintf(path, sizeof path, "/proc/%.200s/status", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        long ruid = -1, threads = 1;
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "Uid:", 4) == 0)
                ruid = strtol(line + 4, NULL, 10);
            else if (strncmp(line, "Threads:", 8) == 0)
                threads = strtol(line + 8, NULL, 10);
        }
        fclose(f);
        if (ruid == (long)uid)
            total += threads > 0 ? threads : 1;
    }
    closedir(d);
    return total;
}

static bool uses_shm(void)
{
    const char *t = tide_config_get("transports");
    if (!t)
        return true;
    char *copy = strdup(t), *save = NULL;
    bool found = false;
    for (char *tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save))
        if (strcmp(tok, "shm") == 0)
            found = true;
    free(copy);
    return found;
}

static void human(uint64_t bytes, char *out, size_t len)
{
    if (bytes >= (1ull << 30))
        snprintf(out, len, "%.1f GiB", (double)bytes / (double)(1ull << 30));
    else
        snprintf(out, len, "%.1f MiB", (double)bytes / (double)(1ull << 20));
}

int limits_check(const struct mjob *job, char *err, size_t errlen)
{
    /* ranks per node: this job's and those of the jobs still running */
    long ncores = cores();
    long max_per_core = tide_config_int("max_ranks_per_core");
    long busiest = 0;
    int busiest_node = 0;
    for (int n = 0; n < mx.nnodes; n++) {
        if (mx.used[n] > busiest) {
            busiest = mx.used[n];
            busiest_node = n;
        }
    }
    if (max_per_core > 0 && busiest > max_per_core * ncores) {
        snprintf(err, errlen,
                 "%ld processes on %s, which has %ld cores: more than max_ranks_per_core=%ld "
                 "allows (%ld), even with oversubscription (change it with --param "
                 "max_ranks_per_core=N, 0 for no limit)",
                 busiest, mx.hosts[busiest_node], ncores, max_per_core, max_per_core * ncores);
        return -1;
    }

    /* every node's daemon and ranks run on this machine for now */
    struct rlimit rl;
    if (getuid() != 0 && getrlimit(RLIMIT_NPROC, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        long have = user_tasks(getuid());
        long need = (long)job->desc.nprocs * TASKS_PER_RANK +
                    (job->desc.jobid == 0 ? (long)mx.nnodes * TASKS_PER_DAEMON : 0);
        if (have + need > (long)rl.rlim_cur) {
            snprintf(err, errlen,
                     "%d processes would exceed the limit on processes of this user "
                     "(RLIMIT_NPROC, ulimit -u: %ld; %ld tasks run already and the job needs "
                     "about %ld: %d per rank)",
                     job->desc.nprocs, (long)rl.rlim_cur, have, need, TASKS_PER_RANK);
            return -1;
        }
    }

    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        long need = busiest * FDS_PER_RANK + FDS_DAEMON;
        if (need > (long)rl.rlim_cur) {
            if (rl.rlim_max == RLIM_INFINITY || (long)rl.rlim_max >= need) {
                /* the hard limit allows it: raise ours (tided inherits it) */
                rl.rlim_cur = (rlim_t)need;
                if (setrlimit(RLIMIT_NOFILE, &rl) == 0) {
                    /* daemons already running (a spawn) get it too */
                    for (int n = 0; mx.daemons && n < mx.nnodes; n++)
                        if (mx.daemons[n].pid > 0)
                            prlimit(mx.daemons[n].pid, RLIMIT_NOFILE, &rl, NULL);
                    goto fds_ok;
                }
            }
            snprintf(err, errlen,
                     "%ld processes on %s need about %ld open files in its tided (%d per rank "
                     "and %d), but the limit on open files (RLIMIT_NOFILE, ulimit -n) is %ld: "
                     "raise it or run fewer processes",
                     busiest, mx.hosts[busiest_node], need, FDS_PER_RANK, FDS_DAEMON,
                     (long)(rl.rlim_max != RLIM_INFINITY && rl.rlim_max < rl.rlim_cur ? rl.rlim_max
                                                                                        : rl.rlim_cur));
            return -1;
        }
    }
fds_ok:

    if (uses_shm() && mx.session_dir[0]) {
        struct statvfs vfs;
        if (statvfs(mx.session_dir, &vfs) == 0) {
            uint64_t avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
            uint64_t need = 0;
            for (int n = 0; n < mx.nnodes; n++) {
                int nlocal = 0;
                for (int r = 0; r < job->desc.nprocs; r++)
                    if (job->desc.rank_node[r] == n)
                        nlocal++;
                bool over = nlocal > mx.slots[n] || nlocal > ncores;
                struct tide_shm_layout lay;
                tide_shm_layout((uint32_t)nlocal,
                                (uint64_t)tide_config_int(over ? "shm_ring_size_oversub" : "shm_ring_size"),
                                &lay);
                need += tide_shm_node_bytes((uint32_t)nlocal, &lay);
            }
            if (need > avail) {
                char a[32], b[32];
                human(need, a, sizeof a);
                human(avail, b, sizeof b);
                snprintf(err, errlen,
                         "the shared-memory segments of %d processes may need %s, but %s (the "
                         "session directory's file system) has only %s free: use another "
                         "directory (--param tmpdir=DIR), smaller rings (--param shm_ring_size "
                         "and shm_ring_size_oversub) or fewer processes",
                         job->desc.nprocs, a, mx.session_dir, b);
                return -1;
            }
        }
    }
    return 0;
}
