/*
 * mpiexec_main.c: mpiexec's entry point and the life of a run: options and
 * configuration, the session directory, starting the daemons, launching
 * the job, signals (SIGINT, SIGTERM, SIGHUP end the job; SIGUSR1 and
 * SIGUSR2 are forwarded to every rank) and --timeout, ending the job early when a rank fails,
 * and the exit status.
 */
#include "mpiexec.h"
#include "alloc.h"
#include "argv.h"
#include "config.h"
#include "errhname.h"
#include "params.h"
#include "ctlmsg.h"
#include "log.h"
#include "sessiondir.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#ifndef TIDE_SYSCONFDIR
#define TIDE_SYSCONFDIR "/etc"
#endif
#ifndef TIDE_BINDIR
#define TIDE_BINDIR "/usr/bin"
#endif

#define TIDE_EXIT_TIMEOUT 124

struct mpiexec mx;

static const char *env_lookup(const char *name)
{
    return getenv(name);
}

void mpiexec_finish(void)
{
    /* clean-up requests to the name service go out first */
    if (names_drain_then(mpiexec_finish))
        return;
    recovery_summary();
    if (mx.session_dir[0])
        tide_rmtree(mx.session_dir);
    TIDE_DEBUG(1, "exit status %d", mx.exit_status);
    exit(mx.exit_status);
}

static void failsafe_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    (void)arg;
    /* daemons did not finish in time: take everything down by force */
    tide_error("the job did not end in time; killing it");
    for (int n = 0; n < mx.nnodes; n++)
        if (mx.daemons && mx.daemons[n].pid > 0)
            kill(mx.daemons[n].pid, SIGKILL);
    mpiexec_finish();
}

static void arm_failsafe(int seconds)
{
    if (!mx.failsafe_ev)
        mx.failsafe_ev = evtimer_new(mx.base, failsafe_cb, NULL);
    struct timeval tv = {seconds, 0};
    evtimer_add(mx.failsafe_ev, &tv);
}

void mpiexec_end_job(enum end_reason why, int status)
{
    if (mx.end_reason != END_NONE)
        return;
    mx.end_reason = why;
    mx.exit_status = status;
    TIDE_DEBUG(1, "ending the job (reason %d, status %d)", why, status);
    stdin_stop();
    daemons_kill_jobs(SIGTERM);
    arm_failsafe(5 + (int)(tide_config_int("kill_grace_ms") / 1000));
}

void mpiexec_check_done(void)
{
    if (mx.shutting_down || !jobs_all_done())
        return;
    mx.shutting_down = true;
    recovery_summary();
    TIDE_DEBUG(1, "every rank has ended: shutting the daemons down");
    if (mx.timeout_ev)
        evtimer_del(mx.timeout_ev);
    daemons_shutdown();
    arm_failsafe(5);
    daemons_reap();
    if (daemons_all_gone())
        mpiexec_finish();
}

static void timeout_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    (void)arg;
    if (mx.end_reason == END_NONE)
        fprintf(stderr, "mpiexec: the job timed out after %d seconds; ending it\n", mx.opts.timeout);
    mpiexec_end_job(END_TIMEOUT, TIDE_EXIT_TIMEOUT);
}

static void user_signal_cb(evutil_socket_t sig, short what, void *arg)
{
    (void)what;
    (void)arg;
    mx.user_signals++;
    if (mx.user_signals == 1 && mx.end_reason == END_NONE) {
        TIDE_DEBUG(1, "signal %d: forwarding it and ending the job", (int)sig);
        daemons_kill_jobs((int)sig);
        mpiexec_end_job(END_USER_SIGNAL, 128 + (int)sig);
    } else {
        fprintf(stderr, "mpiexec: killing the job\n");
        daemons_kill_jobs(SIGKILL);
        if (mx.end_reason == END_NONE)
            mpiexec_end_job(END_USER_SIGNAL, 128 + (int)sig);
    }
}

static void forward_signal_cb(evutil_socket_t sig, short what, void *arg)
{
    (void)what;
    (void)arg;
    TIDE_DEBUG(1, "signal %d: forwarding it to every rank", (int)sig);
    daemons_kill_jobs((int)sig);
}

static void sigchld_cb(evutil_socket_t sig, short what, void *arg)
{
    (void)sig;
    (void)what;
    (void)arg;
    daemons_reap();
    if (mx.shutting_down && daemons_all_gone())
        mpiexec_finish();
}

static void self_dir(char *out, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        snprintf(out, len, "%s", TIDE_BINDIR);
        return;
    }
    exe[n] = '\0';
    snprintf(out, len, "%s", dirname(exe));
}

static void find_paths(void)
{
    char dir[PATH_MAX];
    /* an installation moved elsewhere: TIDE_PREFIX names it (else our
     * own directory tells) */
    const char *prefix = getenv("TIDE_PREFIX");
    if (prefix && *prefix)
        snprintf(dir, sizeof dir, "%.4000s/bin", prefix);
    else
        self_dir(dir, sizeof dir);
    const char *t = getenv("TIDE_TIDED");
    if (t && *t)
        snprintf(mx.tided_path, sizeof mx.tided_path, "%s", t);
    else
        snprintf(mx.tided_path, sizeof mx.tided_path, "%.4000s/tided", dir);
    const char *conf = getenv("TIDE_CONF");
    if (!conf || !*conf) {
        char cand[PATH_MAX + 32];
        snprintf(cand, sizeof cand, "%s/../etc/tide.conf", dir);
        if (access(cand, R_OK) != 0)
            snprintf(cand, sizeof cand, "%s/tide.conf", TIDE_SYSCONFDIR);
        char real[PATH_MAX];
        if (realpath(cand, real))
            setenv("TIDE_CONF", real, 1);
    }
}

static int setup_nodes(char *err, size_t errlen)
{
    char host[256] = "localhost";
    gethostname(host, sizeof host - 1);
    long slots = tide_config_int("slots");
    if (slots <= 0)
        slots = sysconf(_SC_NPROCESSORS_ONLN);
    if (slots <= 0)
        slots = 1;
    if (slots > INT_MAX)
        slots = INT_MAX;
    /* --host, --hostfile, a Slurm allocation, else this node alone */
    struct tide_alloc al;
    if (tide_alloc_build(mx.opts.hosts, mx.opts.hostfile, env_lookup, (int)slots, &al, err, errlen) != 0)
        return -1;
    mx.alloc_source = (int)al.source;
    long sim = tide_config_int("sim_nodes");
    if (al.source == TIDE_ALLOC_LOCAL && sim > 1) {
        /* testing aid: several daemons on this machine, each a node */
        mx.nnodes = (int)sim;
        mx.hosts = calloc((size_t)mx.nnodes + 1, sizeof(char *));
        mx.slots = calloc((size_t)mx.nnodes, sizeof(int));
        for (int n = 0; n < mx.nnodes; n++) {
            char name[300];
            if (n == 0)
                snprintf(name, sizeof name, "%s", host);
            else
                snprintf(name, sizeof name, "%s-sim%d", host, n);
            mx.hosts[n] = strdup(name);
            mx.slots[n] = (int)slots;
        }
    } else {
        /* the allocation's names are unique (a host listed twice is one
         * node with the slots of both) */
        mx.nnodes = al.nnodes;
        mx.hosts = tide_argv_copy(al.hosts);
        mx.slots = calloc((size_t)mx.nnodes, sizeof(int));
        memcpy(mx.slots, al.slots, (size_t)mx.nnodes * sizeof(int));
        if (al.max_slots) {
            mx.max_slots = calloc((size_t)mx.nnodes, sizeof(int));
            if (mx.max_slots)
                memcpy(mx.max_slots, al.max_slots, (size_t)mx.nnodes * sizeof(int));
        }
    }
    mx.used = calloc((size_t)mx.nnodes, sizeof(int));
    mx.node_local = calloc((size_t)mx.nnodes, sizeof(bool));
    for (int n = 0; n < mx.nnodes; n++)
        mx.node_local[n] = al.source == TIDE_ALLOC_LOCAL ? true : al.local[n];
    tide_alloc_free(&al);
    /* as with Open MPI: on an allocation given by the user or the batch
     * system, more ranks than slots needs --oversubscribe */
    if (mx.alloc_source != TIDE_ALLOC_LOCAL && tide_config_source("oversubscribe") == TIDE_SRC_DEFAULT)
        tide_config_set("oversubscribe", "0", TIDE_SRC_DEFAULT);
    snprintf(mx.nspace_base, sizeof mx.nspace_base, "tide.%.64s.%d", host, (int)getpid());
    return 0;
}

static struct mjob *primary_job;

static void launch_primary(void)
{
    if (job_launch(primary_job) != 0) {
        fprintf(stderr, "mpiexec: cannot send the job to the daemons\n");
        mpiexec_end_job(END_LAUNCH_FAILED, 1);
    }
}

int main(int argc, char **argv)
{
    char err[1024];
    /* forwarded to the ranks once they run (forward_signal_cb); until then
     * they must not end mpiexec */
    signal(SIGUSR1, SIG_IGN);
    signal(SIGUSR2, SIG_IGN);
    if (mpiexec_parse(argc, argv, &mx.opts, err, sizeof err, env_lookup) != 0) {
        fprintf(stderr, "mpiexec: %s\n", err);
        return 2;
    }
    if (mx.opts.help) {
        mpiexec_usage(stdout);
        return 0;
    }
    if (mx.opts.version) {
        printf("mpiexec (Tide MPI) %s\n", PACKAGE_VERSION);
        return 0;
    }
    find_paths();
    if (tide_config_load(NULL, err, sizeof err) != 0) {
        fprintf(stderr, "mpiexec: %s\n", err);
        return 2;
    }
    if (err[0])
        fprintf(stderr, "mpiexec: warning: %s\n", err);
    for (size_t i = 0; mx.opts.params[i]; i++) {
        char *kv = strdup(mx.opts.params[i]);
        char *eq = strchr(kv, '=');
        *eq = '\0';
        if (tide_config_set(kv, eq + 1, TIDE_SRC_CMDLINE) != 0) {
            fprintf(stderr, "mpiexec: --param %s: unknown parameter (mpiexec --show-params lists them)\n",
                    kv);
            free(kv);
            return 2;
        }
        free(kv);
    }
    {
        /* the initial error handler of the ranks: a bad name from the
         * config file, TIDE_INITIAL_ERRHANDLER or --param ends here, before
         * anything starts, rather than in every rank */
        const char *ieh = tide_config_get("initial_errhandler");
        if (tide_errh_parse(ieh) == TIDE_ERRH_INVALID) {
            fprintf(stderr, "mpiexec: parameter initial_errhandler (from %s): '%s' is not %s\n",
                    tide_config_origin("initial_errhandler"), ieh, TIDE_ERRH_CHOICES);
            return 2;
        }
    }
    const char *pty = tide_config_get("stdout_pty");
    if (strcmp(pty, "auto") != 0 && strcmp(pty, "0") != 0 && strcmp(pty, "1") != 0) {
        fprintf(stderr, "mpiexec: parameter stdout_pty (from %s): '%s' is not auto, 0 or 1\n",
                tide_config_origin("stdout_pty"), pty);
        return 2;
    }
    if (mx.opts.verbose) {
        char v[32];
        long cur = tide_config_int("verbose");
        snprintf(v, sizeof v, "%ld", cur > mx.opts.verbose ? cur : mx.opts.verbose);
        tide_config_set("verbose", v, TIDE_SRC_CMDLINE);
    }
    if (mx.opts.show_params) {
        tide_config_show(stdout);
        return 0;
    }
    if (mx.opts.oversubscribe == 1)
        tide_config_set("oversubscribe", "1", TIDE_SRC_CMDLINE);
    else if (mx.opts.oversubscribe == 0)
        tide_config_set("oversubscribe", "0", TIDE_SRC_CMDLINE);
    if (mx.opts.recovery >= 0)
        tide_config_set("enable_recovery", mx.opts.recovery ? "1" : "0", TIDE_SRC_CMDLINE);
    if (mx.opts.nameserver)
        tide_config_set("nameserver", mx.opts.nameserver, TIDE_SRC_CMDLINE);
    tide_log_init("mpiexec", (int)tide_config_int("verbose"));
    if (tide_log_async(TIDE_LOG_ASYNC_BYTES) != 0)
        tide_error("cannot start the log writer: logging may wait for stderr");
    /* the daemons inherit the command-line settings through the environment */
    char **exported = NULL;
    tide_config_export(&exported);
    for (size_t i = 0; exported && exported[i]; i++) {
        char *eq = strchr(exported[i], '=');
        *eq = '\0';
        setenv(exported[i], eq + 1, 1);
    }
    tide_argv_free(exported);

    if (setup_nodes(err, sizeof err) != 0) {
        fprintf(stderr, "mpiexec: %s\n", err);
        return 2;
    }
    struct mjob *job = NULL;
    if (job_build_primary(&job, err, sizeof err) != 0) {
        fprintf(stderr, "mpiexec: %s\n", err);
        return strstr(err, "executable") || strstr(err, "cannot run") ? 127 : 2;
    }
    if (access(mx.tided_path, X_OK) != 0) {
        fprintf(stderr, "mpiexec: cannot find the node daemon %s\n", mx.tided_path);
        return 1;
    }
    /* session directories of this user's jobs whose processes were killed */
    int stale = tide_session_dirs_clean_stale(tide_config_get("tmpdir"), NULL);
    if (stale > 0)
        TIDE_DEBUG(1, "removed %d session directories of jobs that are gone", stale);
    if (tide_session_dir_create(tide_config_get("tmpdir"), "run", mx.session_dir, sizeof mx.session_dir) != 0) {
        fprintf(stderr, "mpiexec: cannot make a session directory: %s\n", strerror(errno));
        return 1;
    }
    if (limits_check(job, err, sizeof err) != 0) {
        fprintf(stderr, "mpiexec: %s\n", err);
        tide_rmtree(mx.session_dir);
        job_discard(job);
        mpiexec_opts_free(&mx.opts);
        tide_argv_free(mx.hosts);
        free(mx.slots);
        free(mx.used);
        tide_config_reset();
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    mx.base = event_base_new();
    mx.sig_int = evsignal_new(mx.base, SIGINT, user_signal_cb, NULL);
    mx.sig_term = evsignal_new(mx.base, SIGTERM, user_signal_cb, NULL);
    mx.sig_hup = evsignal_new(mx.base, SIGHUP, user_signal_cb, NULL);
    mx.sig_chld = evsignal_new(mx.base, SIGCHLD, sigchld_cb, NULL);
    event_add(mx.sig_int, NULL);
    event_add(mx.sig_term, NULL);
    event_add(mx.sig_hup, NULL);
    event_add(mx.sig_chld, NULL);
    /* batch systems send these ahead of the time limit: the ranks get them */
    mx.sig_usr1 = evsignal_new(mx.base, SIGUSR1, forward_signal_cb, NULL);
    mx.sig_usr2 = evsignal_new(mx.base, SIGUSR2, forward_signal_cb, NULL);
    event_add(mx.sig_usr1, NULL);
    event_add(mx.sig_usr2, NULL);
    if (daemons_start(err, sizeof err) != 0) {
        fprintf(stderr, "mpiexec: %s\n", err);
        mx.exit_status = 1;
        daemons_kill_jobs(SIGKILL);
        mpiexec_finish();
    }
    primary_job = job;
    daemons_when_ready(launch_primary);
    if (mx.opts.timeout > 0) {
        mx.timeout_ev = evtimer_new(mx.base, timeout_cb, NULL);
        struct timeval tv = {mx.opts.timeout, 0};
        evtimer_add(mx.timeout_ev, &tv);
    }
    stdin_start();
    event_base_dispatch(mx.base);
    mpiexec_finish();
    return mx.exit_status;
}
