/*
 * daemons.c: starting the tided of each node and talking to all of them.
 * Local nodes get a forked tided connected by a socketpair (it dies with
 * mpiexec through PR_SET_PDEATHSIG); other hosts get theirs through the
 * launch agent (agent.c), and it connects back to mpiexec's control
 * listener, proving itself with the job's control secret (ctllisten.c).
 * The job is launched once every daemon is linked; a daemon that does not
 * link up in time, or whose agent fails, fails the launch with its host
 * named, and everything started so far is taken down.
 */
#include "mpiexec.h"
#include "agentexec.h"
#include "channel.h"
#include "ctlmsg.h"
#include "ctllisten.h"
#include "params.h"
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

static struct tide_ctllisten *listener;
static uint8_t job_secret[TIDE_CTL_SECRET_LEN];
static int unlinked;               /* remote daemons not linked yet */
static struct event *link_timer;
static void (*ready_fn)(void);
static bool launch_given_up;

static void give_up(const char *fmt, const char *host, const char *why)
{
    if (launch_given_up)
        return;
    launch_given_up = true;
    ready_fn = NULL;
    fprintf(stderr, fmt, host, why);
    if (link_timer)
        evtimer_del(link_timer);
    /* agents of daemons still on their way are stopped; linked daemons
     * are told to shut down */
    for (int n = 0; n < mx.nnodes; n++) {
        struct mdaemon *d = &mx.daemons[n];
        if (d->remote && !d->linked && d->pid > 0)
            kill(d->pid, SIGTERM);
    }
    mpiexec_end_job(END_LAUNCH_FAILED, 1);
    mpiexec_check_done();
}

static void linked_one(void);

void daemons_start_failed(struct mdaemon *d, const char *why)
{
    if (d->gone)
        return;
    d->gone = true;
    give_up("mpiexec: cannot start the node daemon on %s: %s\n", d->host, why);
}

void daemons_hello(struct mdaemon *d)
{
    if (d->linked)
        return;
    d->linked = true;
    if (d->remote)
        linked_one();
}

void daemons_tree_ready(struct mdaemon *d, const char *addresses)
{
    int kids[1];
    if (tide_ctltree_children(&mx.tree, d->node, kids, 1) == 0 || launch_given_up)
        return;
    /* it starts them itself (daemon/tree_launch.c) */
    TIDE_DEBUG(1, "tided of node %d (%s) starts the daemons below it; they link to %s", d->node, d->host,
               addresses);
}

static void linked_one(void)
{
    if (--unlinked > 0)
        return;
    if (link_timer)
        evtimer_del(link_timer);
    TIDE_DEBUG(1, "every node daemon is linked");
    void (*fn)(void) = ready_fn;
    ready_fn = NULL;
    if (fn)
        fn();
}

static int on_link(int fd, uint32_t node, struct tide_ctlcrypt *crypt, void *arg)
{
    (void)arg;
    struct mdaemon *d = daemon_of_node((int)node);
    if (!d || !d->remote || d->ch || d->gone || launch_given_up || tide_ctltree_parent(&mx.tree, d->node) != -1) {
        tide_error("refusing a control link claiming node %u (not expected)", node);
        return -1;
    }
    char peer[300];
    snprintf(peer, sizeof peer, "tided on %s", d->host);
    d->ch = tide_channel_new_sealed(mx.base, fd, crypt, hub_on_message, hub_on_close, d, peer);
    if (!d->ch)
        return -1;
    TIDE_DEBUG(1, "tided of node %d (%s) linked", d->node, d->host);
    return 0;
}

static void link_timeout_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    (void)arg;
    char hosts[1024] = "";
    size_t len = 0;
    for (int n = 0; n < mx.nnodes; n++) {
        struct mdaemon *d = &mx.daemons[n];
        if (d->remote && !d->linked && len < sizeof hosts)
            len += (size_t)snprintf(hosts + len, sizeof hosts - len, "%s%s", len ? ", " : "", d->host);
    }
    char why[1200];
    snprintf(why, sizeof why, "did not connect back to mpiexec (%s) within %lld s",
             listener ? tide_ctllisten_addresses(listener) : "?", tide_config_int("daemon_timeout"));
    give_up("mpiexec: the node daemon on %s %s\n", hosts, why);
}

void daemons_agent_exited(pid_t pid, int status)
{
    for (int n = 0; n < mx.nnodes; n++) {
        struct mdaemon *d = &mx.daemons[n];
        if (!d->remote || d->pid != pid || d->linked || d->gone)
            continue;
        char why[256];
        tide_agent_status_text(agent_name(), status, why, sizeof why);
        d->gone = true;
        give_up("mpiexec: cannot start the node daemon on %s: %s\n", d->host, why);
        return;
    }
}

void daemons_when_ready(void (*fn)(void))
{
    if (unlinked == 0) {
        fn();
        return;
    }
    ready_fn = fn;
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
        d->remote = mx.node_local && !mx.node_local[n];
        if (d->remote)
            unlinked++;
        else if (start_local(d, err, errlen) != 0)
            return -1;
    }
    if (unlinked == 0)
        return 0;
    int *remote = malloc((size_t)mx.nnodes * sizeof(int)), nremote = 0;
    for (int n = 0; remote && n < mx.nnodes; n++)
        if (mx.daemons[n].remote)
            remote[nremote++] = n;
    /* srun starts every daemon in one step (Slurm fans it out): they all
     * hang from mpiexec; otherwise they form a tree of tree_radix */
    long radix = tide_config_int("tree_radix");
    if (agent_is_srun() || radix <= 0 || radix > nremote)
        radix = nremote > 0 ? nremote : 1;
    if (radix > 4096)
        radix = 4096;
    if (!remote || tide_ctltree_init(&mx.tree, (int)radix, remote, nremote) != 0) {
        free(remote);
        snprintf(err, errlen, "cannot make the tree of daemons");
        return -1;
    }
    free(remote);
    uint8_t *secret = job_secret;
    if (tide_ctlauth_random(secret, TIDE_CTL_SECRET_LEN) != 0) {
        snprintf(err, errlen, "no random bytes for the job's secret");
        return -1;
    }
    const char *inc = tide_config_get("if_include");
    listener = tide_ctllisten_new(mx.base, secret, inc ? inc : "", (int)tide_config_int("auth_timeout"),
                                  (int)tide_config_int("auth_max_pending"), on_link, NULL, err, errlen);
    if (!listener)
        return -1;
    long to = tide_config_int("daemon_timeout");
    link_timer = evtimer_new(mx.base, link_timeout_cb, NULL);
    struct timeval tv = {to > 0 ? to : 60, 0};
    evtimer_add(link_timer, &tv);
    int kids[4096];
    int k = tide_ctltree_children(&mx.tree, -1, kids, 4096);
    return agent_start(secret, tide_ctllisten_addresses(listener), kids, k, err, errlen);
}

struct mdaemon *daemon_of_node(int node)
{
    if (node < 0 || node >= mx.nnodes)
        return NULL;
    return &mx.daemons[node];
}

void daemons_kill_jobs(int sig)
{
    daemons_kill_job(TIDE_ALL_JOBS, sig);
}

void daemons_kill_job(uint32_t jobid, int sig)
{
    if (!mx.daemons)
        return;
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_KILL);
    tide_wire_put_u32(&w, jobid);
    tide_wire_put_i32(&w, sig);
    daemons_broadcast(&w);
}

void daemons_shutdown(void)
{
    if (!mx.daemons)
        return;
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_SHUTDOWN);
    daemons_broadcast(&w);
    for (int n = 0; n < mx.nnodes; n++)
        if (mx.daemons[n].ch && !mx.daemons[n].gone)
            tide_channel_flush(mx.daemons[n].ch);
}

/* Collect exited daemons; a daemon that exits counts as gone. */
void daemons_reap(void)
{
    for (;;) {
        int status;
        pid_t pid = waitpid(-1, &status, WNOHANG);
        if (pid <= 0)
            break;
        daemons_agent_exited(pid, status);
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
