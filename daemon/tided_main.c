/*
 * tided_main.c: the node daemon's entry point. Parses its options, makes
 * its directories, starts the PMIx server and the libevent loop, connects
 * to mpiexec, and runs until told to shut down or until mpiexec goes away;
 * then it ends every rank it started and removes every file it made.
 */
#include "tided.h"
#include "channel.h"
#include "params.h"
#include "log.h"
#include "safefs.h"
#include "sessiondir.h"
#include "taskq.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event2/event.h>
#include <event2/thread.h>

struct tided tided;
static int exit_status;

static void usage(FILE *f)
{
    fprintf(f, "usage: tided (--control-fd FD --session-dir DIR | --hub ADDRESSES --boot-stdin) --node N\n"
               "             [--verbose N]\n"
               "tided is Tide's node daemon; mpiexec starts it, you do not.\n");
}

static bool all_exited(void)
{
    for (struct djob *j = tided.jobs; j; j = j->next)
        if (j->nexited < j->nlocal)
            return false;
    return true;
}

static void final_exit(void)
{
    fence_fail_all();
    while (tided.jobs) {
        struct djob *j = tided.jobs;
        djob_remove(j);
        tided_job_release(j);
    }
    relay_fini();
    if (tided.hub) {
        tide_channel_flush(tided.hub);
        tide_channel_free(tided.hub);
        tided.hub = NULL;
    }
    pmix_host_fini();
    tide_taskq_fini();
    tide_rmtree(tided.session_dir);
    /* mpiexec is gone and cannot clean up: the last daemon removes its directory */
    if (tided.hub_lost || tided.made_universe_dir)
        tide_session_dir_remove_if_unused(tided.universe_dir);
    TIDE_DEBUG(1, "exiting");
    exit(exit_status);
}

void tided_maybe_exit(void)
{
    /* release jobs whose local ranks have all ended */
    for (struct djob *j = tided.jobs, *next; j; j = next) {
        next = j->next;
        if (j->nlocal > 0 && j->nexited == j->nlocal && !tided.shutting_down) {
            bool streams_open = false;
            for (int i = 0; i < j->nlocal; i++)
                if (j->procs[i].out.fd >= 0 || j->procs[i].err.fd >= 0)
                    streams_open = true;
            if (streams_open) {
                continue;
            } else if (j->desc.flags & TIDE_JOB_RECOVERY) {
                /* recovery mode: the job may go on elsewhere; it stays
                 * known here until mpiexec says it ended (JOB_ENDED) */
                tided_job_release_local(j);
            } else {
                djob_remove(j);
                tided_job_release(j);
            }
        }
    }
    if (tided.shutting_down && all_exited() && !relay_kids_linked())
        final_exit();
}

void tided_shutdown(int status)
{
    if (tided.shutting_down) {
        tided_kill_all(SIGKILL);
        return;
    }
    tided.shutting_down = true;
    exit_status = status;
    /* not mpiexec's orderly shutdown (which reached our children too):
     * closing their links ends them */
    if (status != 0)
        relay_drop_kids();
    TIDE_DEBUG(1, "shutting down");
    tided_kill_all(SIGTERM);
    tided_maybe_exit();
}

static void signal_cb(evutil_socket_t sig, short what, void *arg)
{
    (void)what;
    (void)arg;
    TIDE_DEBUG(1, "signal %d", (int)sig);
    if (getppid() == 1 || sig == SIGTERM)
        tided.hub_lost = true;
    tided_shutdown(1);
}

/* srun starts one daemon per host with the same arguments: each finds
 * its node number in "host=N,host=N" by the name Slurm gives its host. */
static int node_from_map(const char *map)
{
    char me[256] = "";
    const char *slurm = getenv("SLURMD_NODENAME");
    if (slurm)
        snprintf(me, sizeof me, "%s", slurm);
    else
        gethostname(me, sizeof me - 1);
    char *copy = strdup(map), *save = NULL;
    int node = -1;
    for (char *it = strtok_r(copy, ",", &save); it && node < 0; it = strtok_r(NULL, ",", &save)) {
        char *eq = strrchr(it, '=');
        if (!eq)
            continue;
        *eq = '\0';
        size_t ml = strlen(me), il = strlen(it);
        /* a short name matches its long form and the other way round */
        if (strcmp(it, me) == 0 || (il < ml && strncmp(me, it, il) == 0 && me[il] == '.') ||
            (ml < il && strncmp(it, me, ml) == 0 && it[ml] == '.'))
            node = atoi(eq + 1);
    }
    free(copy);
    if (node < 0)
        fprintf(stderr, "tided on %s: this host is not in the node map %s\n", me, map);
    return node;
}

/* Our directories: a session directory (mpiexec's, given with
 * --control-fd on mpiexec's host; else a fresh one of our own, made with
 * mkdtemp under the tmpdir parameter), our subdirectory nodeN in it, and
 * nodeN/pmix for the PMIx server's files. Every one is checked to be a
 * private directory of ours (safefs.h). 0, or -1 with the error logged. */
static int make_dirs(bool local)
{
    int ufd;
    if (local) {
        ufd = tide_safe_open_dir(tided.session_dir);
        if (ufd < 0) {
            tide_error("refusing the session directory %s: %s", tided.session_dir,
                       errno == EPERM ? "it is not a private directory of this user" : strerror(errno));
            return -1;
        }
        snprintf(tided.universe_dir, sizeof tided.universe_dir, "%.3990s", tided.session_dir);
    } else {
        ufd = tide_session_dir_make(tide_config_get("tmpdir"), "node", tided.universe_dir,
                                    sizeof tided.universe_dir);
        if (ufd < 0) {
            tide_error("cannot make a session directory in %s: %s",
                       tide_session_dir_base(tide_config_get("tmpdir")), strerror(errno));
            return -1;
        }
        tided.made_universe_dir = true;
        /* what daemons of this host killed with -9 left (mpiexec sweeps
         * only its own host): records of this host that are all dead */
        tide_session_dirs_clean_stale(tide_config_get("tmpdir"), tided.universe_dir);
    }
    char node[32];
    snprintf(node, sizeof node, "node%d", tided.node);
    if (snprintf(tided.session_dir, sizeof tided.session_dir, "%s/%s", tided.universe_dir, node) >=
        (int)sizeof tided.session_dir) {
        tide_error("session directory path too long");
        close(ufd);
        return -1;
    }
    /* joined only if private and ours: nobody else can have made it in a
     * private directory of ours */
    int nfd = tide_safe_mkdir_at(ufd, node, true);
    close(ufd);
    if (nfd < 0) {
        tide_error("cannot make %s: %s", tided.session_dir,
                   errno == EPERM ? "it exists and is not a private directory of this user" : strerror(errno));
        if (tided.made_universe_dir)
            tide_rmtree(tided.universe_dir);
        return -1;
    }
    /* so a job that outlives us by kill -9 can be told dead (sessiondir.h) */
    tide_session_owner_write_at(nfd);
    snprintf(tided.pmix_dir, sizeof tided.pmix_dir, "%s/pmix", tided.session_dir);
    int pfd = tide_safe_mkdir_at(nfd, "pmix", true);
    close(nfd);
    if (pfd < 0) {
        tide_error("cannot make %s: %s", tided.pmix_dir, strerror(errno));
        tide_rmtree(tided.session_dir);
        return -1;
    }
    close(pfd);
    return 0;
}

int main(int argc, char **argv)
{
    int control_fd = -1, verbose = -1;
    struct tide_ctlcrypt *control_crypt = NULL; /* the keys of a link to another host */
    const char *hub_addresses = NULL;
    bool boot_stdin = false;
    const char *node_map = NULL;
    tided.node = 0;
    static const struct option opts[] = {
        {"control-fd", required_argument, NULL, 'c'},
        {"node", required_argument, NULL, 'n'},
        {"session-dir", required_argument, NULL, 's'},
        {"verbose", required_argument, NULL, 'v'},
        {"hub", required_argument, NULL, 'H'},
        {"boot-stdin", no_argument, NULL, 'B'},
        {"node-map", required_argument, NULL, 'M'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'c': control_fd = atoi(optarg); break;
        case 'n': tided.node = atoi(optarg); break;
        case 's': snprintf(tided.session_dir, sizeof tided.session_dir, "%s", optarg); break;
        case 'v': verbose = atoi(optarg); break;
        case 'H': hub_addresses = optarg; break;
        case 'B': boot_stdin = true; break;
        case 'M': node_map = optarg; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (node_map && tided.node < 0)
        tided.node = node_from_map(node_map);
    /* a daemon started through a launch agent makes its own directory: a
     * name given in its argv could be taken first by another user */
    if ((control_fd < 0 && !(hub_addresses && boot_stdin)) || (control_fd >= 0) != !!tided.session_dir[0] ||
        tided.node < 0) {
        usage(stderr);
        return 2;
    }
    char err[512];
    uint8_t secret[TIDE_CTL_SECRET_LEN];
    char host_early[256] = "?";
    gethostname(host_early, sizeof host_early - 1);
    char *tree_text = NULL;
    if (control_fd < 0 && boot_read_stdin(secret, &tree_text, err, sizeof err) != 0) {
        fprintf(stderr, "tided on %s: %s\n", host_early, err);
        return 1;
    }
    tide_config_load(NULL, err, sizeof err);
    if (verbose < 0)
        verbose = (int)tide_config_int("verbose");
    char progname[32];
    snprintf(progname, sizeof progname, "tided.%d", tided.node);
    tide_log_init(progname, verbose);
    /* whoever reads our stderr (mpiexec's, a launch agent's) may be slow
     * or stopped: logging must not stop the daemon */
    if (tide_log_async(TIDE_LOG_ASYNC_BYTES) != 0)
        tide_error("cannot start the log writer: logging may wait for stderr");
    tided.kill_grace_ms = (int)tide_config_int("kill_grace_ms");
    if (tided.kill_grace_ms < 0)
        tided.kill_grace_ms = 500;
    gethostname(tided.hostname, sizeof tided.hostname - 1);
    if (make_dirs(control_fd >= 0) != 0)
        return 1;
    signal(SIGPIPE, SIG_IGN);
    /* batch systems signal every process of a job before its time limit:
     * mpiexec forwards these to the ranks; the daemon must not die of them */
    signal(SIGUSR1, SIG_IGN);
    signal(SIGUSR2, SIG_IGN);
    prctl(PR_SET_PDEATHSIG, SIGTERM);

    evthread_use_pthreads();
    tided.base = event_base_new();
    if (!tided.base || tide_taskq_init(tided.base) != 0) {
        tide_error("cannot set up the event loop");
        return 1;
    }
    if (pmix_host_init(err, sizeof err) != 0) {
        tide_error("%s", err);
        tide_rmtree(tided.session_dir);
        return 1;
    }
    reaper_start();
    tided.sigterm_ev = evsignal_new(tided.base, SIGTERM, signal_cb, NULL);
    tided.sigint_ev = evsignal_new(tided.base, SIGINT, signal_cb, NULL);
    tided.sighup_ev = evsignal_new(tided.base, SIGHUP, signal_cb, NULL);
    event_add(tided.sigterm_ev, NULL);
    event_add(tided.sigint_ev, NULL);
    event_add(tided.sighup_ev, NULL);
    if (getppid() == 1) { /* mpiexec already gone */
        tided.hub_lost = true;
        final_exit();
    }
    if (relay_init(tree_text, secret, err, sizeof err) != 0) {
        tide_error("%s", err);
        tided.hub_lost = true;
        exit_status = 1;
        final_exit();
    }
    free(tree_text);
    if (control_fd < 0) {
        control_fd = boot_connect(hub_addresses, secret, &control_crypt, err, sizeof err);
        memset(secret, 0, sizeof secret);
        if (control_fd < 0) {
            tide_error("%s", err);
            tided.hub_lost = true;
            exit_status = 1;
            final_exit();
        }
    }
    hub_connect_fd(control_fd, control_crypt);
    TIDE_DEBUG(1, "node daemon up on %s", tided.hostname);
    event_base_dispatch(tided.base);
    final_exit();
    return 0;
}
