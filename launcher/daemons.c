/*
 * daemons.c: starting the tided of each node and talking to all of them.
 * Local nodes get a forked tided connected by a socketpair (it dies with
 * mpiexec through PR_SET_PDEATHSIG); other nodes come with the multi-node
 * launcher.
 */
#include "mpiexec.h"
#include "channel.h"
#include "ctlmsg.h"
#include "fdutil.h"
#include "log.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event2/event.h>

static int start_local(struct mdaemon *d, char *err, size_t errlen)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        snprintf(err, errlen, "socketpair: %s", strerror(errno));
        return -1;
    }
    char fdarg[16], nodearg[16], verb[16];
    snprintf(nodearg, sizeof nodearg, "%d", d->node);
    snprintf(verb, sizeof verb, "%d", tide_log_level());
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent)
            _exit(1);
        int fd = dup(sv[1]); /* without CLOEXEC */
        snprintf(fdarg, sizeof fdarg, "%d", fd);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        signal(SIGPIPE, SIG_DFL);
        /* the daemon must not steal the terminal's input */
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0)
            dup2(devnull, 0);
        char *args[] = {mx.tided_path, "--control-fd", fdarg, "--node", nodearg,
                        "--session-dir", mx.session_dir, "--verbose", verb, NULL};
        execv(mx.tided_path, args);
        fprintf(stderr, "mpiexec: cannot execute %s: %s\n", mx.tided_path, strerror(errno));
        _exit(127);
    }
    close(sv[1]);
    d->pid = pid;
    char peer[64];
    snprintf(peer, sizeof peer, "tided on node %d", d->node);
    d->ch = tide_channel_new(mx.base, sv[0], hub_on_message, hub_on_close, d, peer);
    if (!d->ch) {
        snprintf(err, errlen, "cannot set up the channel to tided");
        return -1;
    }
    TIDE_DEBUG(1, "started tided for node %d (%s) as pid %d", d->node, d->host, (int)pid);
    return 0;
}

int daemons_start(char *err, size_t errlen)
{
    mx.daemons = calloc((size_t)mx.nnodes, sizeof *mx.daemons);
    if (!mx.daemons) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int n = 0; n < mx.nnodes; n++) {
        struct mdaemon *d = &mx.daemons[n];
        d->node = n;
        snprintf(d->host, sizeof d->host, "%s", mx.hosts[n]);
        if (start_local(d, err, errlen) != 0)
            return -1;
    }
    return 0;
}

struct mdaemon *daemon_of_node(int node)
{
    if (node < 0 || node >= mx.nnodes)
        return NULL;
    return &mx.daemons[node];
}

void daemons_kill_jobs(int sig)
{
    for (int n = 0; n < mx.nnodes; n++) {
        struct mdaemon *d = &mx.daemons[n];
        if (!d->ch || d->gone)
            continue;
        struct tide_wbuf w;
        tide_wire_begin(&w, TIDE_CTL_KILL);
        tide_wire_put_u32(&w, TIDE_ALL_JOBS);
        tide_wire_put_i32(&w, sig);
        tide_channel_send(d->ch, &w);
    }
}

void daemons_kill_job(uint32_t jobid, int sig)
{
    for (int n = 0; n < mx.nnodes; n++) {
        struct mdaemon *d = &mx.daemons[n];
        if (!d->ch || d->gone)
            continue;
        struct tide_wbuf w;
        tide_wire_begin(&w, TIDE_CTL_KILL);
        tide_wire_put_u32(&w, jobid);
        tide_wire_put_i32(&w, sig);
        tide_channel_send(d->ch, &w);
    }
}

void daemons_shutdown(void)
{
    for (int n = 0; n < mx.nnodes; n++) {
        struct mdaemon *d = &mx.daemons[n];
        if (!d->ch || d->gone)
            continue;
        struct tide_wbuf w;
        tide_wire_begin(&w, TIDE_CTL_SHUTDOWN);
        tide_channel_send(d->ch, &w);
        tide_channel_flush(d->ch);
    }
}

/* Collect exited daemons; a daemon that exits counts as gone. */
void daemons_reap(void)
{
    for (;;) {
        int status;
        pid_t pid = waitpid(-1, &status, WNOHANG);
        if (pid <= 0)
            break;
        for (int n = 0; n < mx.nnodes; n++)
            if (mx.daemons[n].pid == pid) {
                mx.daemons[n].pid = 0;
                TIDE_DEBUG(1, "tided of node %d exited (status %d)", n, status);
            }
    }
}

bool daemons_all_gone(void)
{
    for (int n = 0; n < mx.nnodes; n++)
        if (mx.daemons[n].pid > 0)
            return false;
    return true;
}
