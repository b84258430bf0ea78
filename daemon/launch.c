/*
 * launch.c: starting a job's local ranks. Registers the namespace and each
 * client with the PMIx server, builds each rank's environment (the job's
 * settings, -x variables, PMIx_server_setup_fork), and fork/execs it with
 * its working directory, its stdio pipes, and a pipe that tells whether the
 * exec succeeded, bound to its cpus (binding.c), a batch of ranks per
 * event-loop turn so that a kill
 * request or a signal stops a long launch at once. Also tearing jobs down
 * (SIGTERM, then SIGKILL) and forwarding SIGUSR1/SIGUSR2 to the ranks.
 */
#include "tided.h"
#include "pmix_gate.h"
#include "argv.h"
#include "fdutil.h"
#include "log.h"
#include "server_nspace.h"
#include "safefs.h"
#include "sessiondir.h"
#include "taskq.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

extern char **environ;

enum { STAGE_CHDIR = 1, STAGE_EXEC = 2, STAGE_SETUP = 3 };

static int register_nspace(struct djob *job, char *err, size_t errlen)
{
    pmix_info_t *info = NULL;
    size_t ninfo = 0;
    int nlocal = 0;
    if (tide_nspace_info(&job->desc, tided.node, &info, &ninfo, &nlocal) != 0) {
        snprintf(err, errlen, "cannot build the PMIx job information");
        return -1;
    }
    pmix_status_t rc = PMIx_server_register_nspace(job->desc.nspace, nlocal, info, ninfo, NULL, NULL);
    PMIX_INFO_FREE(info, ninfo);
    if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED) {
        snprintf(err, errlen, "PMIx_server_register_nspace: %s", PMIx_Error_string(rc));
        return -1;
    }
    job->registered = true;
    TIDE_DEBUG(2, "registered namespace %s (%d ranks, %d local)", job->desc.nspace, job->desc.nprocs,
               nlocal);
    return 0;
}

/* The variables other launchers give their ranks (Open MPI's mpirun,
 * Hydra, PMI), for scripts and tools that read them. They describe the
 * rank's own job (a spawned job's world for its ranks). The node rank
 * counts the ranks of every job on this node: it is the binding slot.
 * PMIX_RANK and PMIX_NAMESPACE come from PMIx_server_setup_fork; PMI_FD
 * and PMI_PORT are not set, as there is no PMI-1 server. */
static void launcher_compat_env(struct djob *job, struct dproc *p, char ***env)
{
    static const struct {
        const char *name;
        int what;
    } vars[] = {
        {"OMPI_COMM_WORLD_RANK", 0},       {"OMPI_COMM_WORLD_SIZE", 1},
        {"OMPI_COMM_WORLD_LOCAL_RANK", 2}, {"OMPI_COMM_WORLD_LOCAL_SIZE", 3},
        {"OMPI_COMM_WORLD_NODE_RANK", 4},  {"OMPI_UNIVERSE_SIZE", 5},
        {"PMI_RANK", 0},                   {"PMI_SIZE", 1},
        {"MPI_LOCALRANKID", 2},            {"MPI_LOCALNRANKS", 3},
    };
    int val[6] = {p->rank, job->desc.nprocs, p->local_rank, job->nlocal, p->bind_slot,
                  job->desc.universe_size};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        char num[32];
        snprintf(num, sizeof num, "%d", val[vars[i].what]);
        tide_env_set(env, vars[i].name, num);
    }
}

static char **rank_environment(struct djob *job, struct dproc *p, int app)
{
    char **env = tide_argv_copy(environ);
    /* Variables of the launcher that must not leak into ranks. */
    tide_env_unset(&env, "TIDE_TIDED_CONTROL_FD");
    for (size_t i = 0; job->desc.params && job->desc.params[i]; i++) {
        char *kv = strdup(job->desc.params[i]);
        char *eq = kv ? strchr(kv, '=') : NULL;
        if (eq) {
            *eq = '\0';
            tide_env_set(&env, kv, eq + 1);
        }
        free(kv);
    }
    const struct tide_app *a = &job->desc.apps[app];
    for (size_t i = 0; a->env && a->env[i]; i++) {
        char *kv = strdup(a->env[i]);
        char *eq = kv ? strchr(kv, '=') : NULL;
        if (eq) {
            *eq = '\0';
            tide_env_set(&env, kv, eq + 1);
        }
        free(kv);
    }
    int over = job->nlocal > job->desc.node_slots[tided.node];
    tide_env_set(&env, "TIDE_OVERSUBSCRIBED", over ? "1" : "0");
    tide_env_set(&env, "TIDE_SESSION_DIR", tided.session_dir);
    char jobdir[4200];
    snprintf(jobdir, sizeof jobdir, "%s/job%u", tided.session_dir, job->desc.jobid);
    tide_env_set(&env, "TIDE_JOB_DIR", jobdir);
    char num[32];
    snprintf(num, sizeof num, "%d", job->nlocal);
    tide_env_set(&env, "TIDE_LOCAL_SIZE", num);
    snprintf(num, sizeof num, "%d", p->local_rank);
    tide_env_set(&env, "TIDE_LOCAL_RANK", num);
    snprintf(num, sizeof num, "%d", job->desc.nprocs);
    tide_env_set(&env, "TIDE_JOB_SIZE", num); /* MPI_Info_create_env before MPI_Init */
    launcher_compat_env(job, p, &env);
    /* PMIx's data store: no lock-file noise, fast client init. */
    tide_env_set(&env, "PMIX_MCA_gds", "hash");
    if (PMIx_server_setup_fork(&p->pproc, &env) != PMIX_SUCCESS) {
        tide_argv_free(env);
        return NULL;
    }
    return env;
}

/* this daemon, as its ranks see their parent */
static pid_t daemon_pid;

/* The child side of fork: never returns. */
static void exec_child(struct djob *job, struct dproc *p, int app, char **env, int in_fd, int out_fd,
                       int err_fd, int status_fd, int fin_fd, const struct rank_binding *bind)
{
    const struct tide_app *a = &job->desc.apps[app];
    int report[2];
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    for (int s = 1; s < NSIG; s++)
        if (s != SIGKILL && s != SIGSTOP)
            signal(s, SIG_DFL);
    /* a session of its own, so a process group of its own (kill(-pid)
     * reaches the rank and what it starts) and, with the kernel's
     * autogroup scheduling, a scheduling group of its own: on a node that
     * other sessions keep busy the ranks get the share every session gets,
     * instead of sharing one among them all (as MPICH's ranks, whose
     * launcher does the same) */
    if (setsid() < 0)
        setpgid(0, 0);
    /* the rank dies with its daemon (a lost daemon's ranks must not live
     * on as orphans: recovery mode counts them as failed); if the daemon
     * died before this line, at once */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != daemon_pid)
        raise(SIGKILL);
    binding_apply(bind);
    if (dup2(in_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0) {
        report[0] = STAGE_SETUP;
        goto fail;
    }
    /* Nothing else of the daemon's reaches the rank: an inherited copy of
     * a PMIx client socket keeps that connection's file alive after the
     * server closes it, and with it a stale entry in the server's epoll
     * set, which can swallow the events of the next connection given the
     * same descriptor number. */
    if (close_range(3, ~0u, CLOSE_RANGE_CLOEXEC) != 0) {
        long max = sysconf(_SC_OPEN_MAX);
        for (int fd = 3; fd < (max > 0 && max < 65536 ? max : 65536); fd++)
            fcntl(fd, F_SETFD, FD_CLOEXEC);
    }
    /* the finalize pipe stays open across exec */
    fcntl(fin_fd, F_SETFD, 0);
    if (a->wdir && chdir(a->wdir) != 0) {
        report[0] = STAGE_CHDIR;
        goto fail;
    }
    execve(a->exe, a->argv, env);
    report[0] = STAGE_EXEC;
fail:
    report[1] = errno;
    tide_write_all(status_fd, report, sizeof report);
    _exit(127);
}

static int spawn_rank(struct djob *job, struct dproc *p, bool gets_stdin, char *err, size_t errlen)
{
    int app = tide_job_app_of(&job->desc, p->rank);
    char **env = rank_environment(job, p, app);
    if (!env) {
        snprintf(err, errlen, "PMIx_server_setup_fork failed for rank %d", p->rank);
        return -1;
    }
    int outp[2], errp[2], inp[2] = {-1, -1}, st[2], fin[2];
    /* stdout through a terminal when the job asks (line-buffered by the
     * rank's stdio; a pipe when no terminal can be had) */
    bool pty = (job->desc.flags & TIDE_JOB_STDOUT_PTY) && iof_open_pty(outp) == 0;
    if (!pty && (job->desc.flags & TIDE_JOB_STDOUT_PTY))
        TIDE_DEBUG(1, "no pseudo-terminal for rank %d (%s): its stdout is a pipe", p->rank, strerror(errno));
    if ((!pty && pipe2(outp, O_CLOEXEC)) || pipe2(errp, O_CLOEXEC) || pipe2(st, O_CLOEXEC) ||
        pipe2(fin, O_CLOEXEC)) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        tide_argv_free(env);
        return -1;
    }
    if (gets_stdin) {
        if (pipe2(inp, O_CLOEXEC)) {
            snprintf(err, errlen, "pipe: %s", strerror(errno));
            tide_argv_free(env);
            return -1;
        }
    } else {
        inp[0] = open("/dev/null", O_RDONLY | O_CLOEXEC);
    }
    char fdnum[16];
    snprintf(fdnum, sizeof fdnum, "%d", fin[1]);
    tide_env_set(&env, "TIDE_FINALIZE_FD", fdnum);
    struct rank_binding bind;
    if (binding_prepare(job, p, &bind) != 0) {
        snprintf(err, errlen, "out of memory binding rank %d", p->rank);
        tide_argv_free(env);
        return -1;
    }
    daemon_pid = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        tide_argv_free(env);
        binding_release(&bind);
        return -1;
    }
    if (pid == 0)
        exec_child(job, p, app, env, inp[0], outp[1], errp[1], st[1], fin[1], &bind);
    tide_argv_free(env);
    p->pid = pid;
    /* no setpgid here: it would make the child a group leader before its
     * setsid, which would then fail; until the child has its session a
     * signal goes to its pid (tided_kill_job, signal_ranks) */
    binding_report(job, p, &bind);
    binding_release(&bind);
    close(outp[1]);
    close(errp[1]);
    close(inp[0]);
    close(st[1]);
    close(fin[1]);
    p->fin_fd = fin[0];
    tide_fd_nonblock(p->fin_fd);
    iof_start(p, outp[0], errp[0], gets_stdin ? inp[1] : -1);
    int report[2];
    ssize_t n = tide_read_full(st[0], report, sizeof report);
    close(st[0]);
    if (n == (ssize_t)sizeof report) {
        const struct tide_app *a = &job->desc.apps[app];
        const char *what = report[0] == STAGE_CHDIR ? "cannot change to working directory"
                           : report[0] == STAGE_EXEC ? "cannot execute"
                                                     : "cannot set up stdio for";
        snprintf(err, errlen, "%s %s: %s", what,
                 report[0] == STAGE_CHDIR ? (a->wdir ? a->wdir : "?") : a->exe, strerror(report[1]));
        return 1; /* the child exits 127; the reaper reports it */
    }
    TIDE_DEBUG(2, "started rank %d of %s as pid %d", p->rank, job->desc.nspace, (int)pid);
    return 0;
}

/* Ranks started per event-loop turn (a fork and exec each), and how long
 * a turn may take at most (a fork of a big daemon, under a sanitizer for
 * instance, can take milliseconds): a kill request or a signal waits for
 * one short batch at most. */
#define LAUNCH_BATCH 16
#define LAUNCH_TURN_NS (20 * 1000 * 1000)

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int start_one(struct djob *job, struct dproc *p, char *err, size_t errlen)
{
    pmix_status_t rc = PMIx_server_register_client(&p->pproc, getuid(), getgid(), p, NULL, NULL);
    if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED) {
        snprintf(err, errlen, "PMIx_server_register_client(rank %d): %s", p->rank, PMIx_Error_string(rc));
        return -1;
    }
    p->registered = true;
    bool gets_stdin = p->rank == 0 && !(job->desc.flags & TIDE_JOB_SPAWNED);
    return spawn_rank(job, p, gets_stdin, err, errlen);
}

/* A timer of zero, not event_active: an event activated from its own
 * callback runs again before the loop looks at descriptors and signals. */
static void launch_schedule(struct djob *job)
{
    struct timeval now = {0, 0};
    evtimer_add(job->launch_ev, &now);
}

static void launch_batch_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct djob *job = arg;
    char err[512] = "";
    int rc = 0;
    if (job->launch_stop || tided.shutting_down) {
        /* ended while it was starting: the rest never start */
        TIDE_DEBUG(1, "launch of %s stopped after %d of %d local ranks", job->desc.nspace,
                   job->launch_next, job->nlocal);
        snprintf(err, sizeof err, "the launch was interrupted");
        rc = 1;
    }
    int64_t turn_end = now_ns() + LAUNCH_TURN_NS;
    for (int n = 0; rc == 0 && n < LAUNCH_BATCH && job->launch_next < job->nlocal; n++) {
        if (n > 0 && now_ns() > turn_end)
            break;
        rc = start_one(job, &job->procs[job->launch_next++], err, sizeof err);
    }
    if (rc == 0 && job->launch_next < job->nlocal) {
        launch_schedule(job); /* the next batch, after other events */
        return;
    }
    job->launching = false;
    hub_launch_done(job, rc, err); /* may release the job */
}

int tided_launch(struct djob *job, char *err, size_t errlen)
{
    if (register_nspace(job, err, errlen) != 0)
        return -1;
    /* Make the job's private directory for shared-memory segments. */
    char name[32];
    snprintf(name, sizeof name, "job%u", job->desc.jobid);
    int sfd = tide_safe_open_dir(tided.session_dir);
    int jfd = sfd >= 0 ? tide_safe_mkdir_at(sfd, name, true) : -1;
    if (jfd < 0) {
        snprintf(err, errlen, "cannot make %s/%s: %s", tided.session_dir, name,
                 errno == EPERM ? "not a private directory of this user" : strerror(errno));
        if (sfd >= 0)
            close(sfd);
        return -1;
    }
    close(jfd);
    close(sfd);
    job->launch_ev = evtimer_new(tided.base, launch_batch_cb, job);
    if (!job->launch_ev) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    binding_plan_job(job);
    job->launching = true;
    job->launch_next = 0;
    /* the first batch at once: it holds local rank 0, which is rank 0 when
     * that gets stdin, so stdin mpiexec sends next finds it started */
    launch_batch_cb(-1, EV_TIMEOUT, job);
    return 0;
}

static void kill_timer_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct djob *job = arg;
    for (int i = 0; i < job->nlocal; i++) {
        struct dproc *p = &job->procs[i];
        if (!p->exited && p->pid > 0)
            TIDE_DEBUG(1, "rank %d (pid %d) still alive after SIGTERM: SIGKILL", p->rank, (int)p->pid);
    }
    tided_kill_job(job, SIGKILL);
}

/* Signals that are passed on to the ranks and end nothing by themselves
 * (batch systems send them ahead of a time limit). */
static bool is_forwarded_only(int sig)
{
    return sig == SIGUSR1 || sig == SIGUSR2;
}

static long long mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Signal the ranks of job; a rank not yet connected to the PMIx server
 * may be in the middle of its connection handshake, which libpmix does
 * not survive the peer's death in (pmix_gate.h): its signal is held back
 * while a handshake may be under way, for at most a second. Returns
 * whether some rank's signal was held back. */
static bool signal_ranks(struct djob *job, int sig, bool hold)
{
    bool held = false;
    for (int i = 0; i < job->nlocal; i++) {
        struct dproc *p = &job->procs[i];
        if (p->exited || p->pid <= 0)
            continue;
        if (hold && !p->connected && pmix_gate_handshaking()) {
            held = true;
            continue;
        }
        kill(-p->pid, sig);
        kill(p->pid, sig);
    }
    return held;
}

static void held_kill_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct djob *job = arg;
    bool hold = mono_ms() - job->held_since_ms < 1000;
    if (signal_ranks(job, job->held_sig, hold)) {
        struct timeval tv = {0, 5000};
        evtimer_add(job->held_kill, &tv);
    }
}

void tided_kill_job(struct djob *job, int sig)
{
    if (is_forwarded_only(sig)) {
        for (int i = 0; i < job->nlocal; i++) {
            struct dproc *p = &job->procs[i];
            /* once: to the rank's process group (itself and its children) */
            if (!p->exited && p->pid > 0 && kill(-p->pid, sig) != 0)
                kill(p->pid, sig);
        }
        return;
    }
    if (signal_ranks(job, sig, true)) {
        if (!job->held_kill)
            job->held_kill = evtimer_new(tided.base, held_kill_cb, job);
        if (job->held_kill && !evtimer_pending(job->held_kill, NULL)) {
            job->held_sig = sig;
            job->held_since_ms = mono_ms();
            struct timeval tv = {0, 5000};
            evtimer_add(job->held_kill, &tv);
        } else if (job->held_kill) {
            job->held_sig = sig; /* the later signal (SIGKILL after SIGTERM) */
        } else {
            signal_ranks(job, sig, false);
        }
    }
    if (job->launching) {
        /* the ranks not started yet never will be (launch_batch_cb) */
        job->launch_stop = true;
        launch_schedule(job);
    }
    if (sig != SIGKILL && !job->killing) {
        job->killing = true;
        if (!job->kill_timer)
            job->kill_timer = evtimer_new(tided.base, kill_timer_cb, job);
        struct timeval tv = {tided.kill_grace_ms / 1000, (tided.kill_grace_ms % 1000) * 1000};
        evtimer_add(job->kill_timer, &tv);
    }
}

void tided_kill_all(int sig)
{
    for (struct djob *j = tided.jobs; j; j = j->next)
        tided_kill_job(j, sig);
}

void tided_job_release_local(struct djob *job)
{
    if (job->local_released)
        return;
    job->local_released = true;
    for (int i = 0; i < job->nlocal; i++) {
        struct dproc *p = &job->procs[i];
        iof_close(p);
        if (p->fin_fd >= 0)
            close(p->fin_fd);
        p->fin_fd = -1;
        /* libpmix 4.2.2 closes a connected client's socket in
         * deregister_client but leaves its read event registered. If that
         * runs before the server has seen the connection drop, the next
         * client given the same descriptor number is never read and hangs
         * in PMIx_Init. A rank that connected is cleaned up by the server
         * itself when its connection closes; only the others are
         * deregistered here. */
        if (p->registered && !p->connected)
            PMIx_server_deregister_client(&p->pproc, NULL, NULL);
    }
    if (job->registered)
        PMIx_server_deregister_nspace(job->desc.nspace, NULL, NULL);
    job->registered = false;
    if (job->kill_timer)
        event_free(job->kill_timer);
    job->kill_timer = NULL;
    if (job->held_kill)
        event_free(job->held_kill);
    job->held_kill = NULL;
    if (job->launch_ev)
        event_free(job->launch_ev);
    job->launch_ev = NULL;
    char jobdir[4200];
    snprintf(jobdir, sizeof jobdir, "%s/job%u", tided.session_dir, job->desc.jobid);
    tide_rmtree(jobdir);
}

void tided_job_release(struct djob *job)
{
    tided_job_release_local(job);
    free(job->procs);
    free(job->failed);
    tide_job_free(&job->desc);
    free(job);
}
