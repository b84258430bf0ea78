/*
 * agent.c: starting the tided of other hosts through a launch agent. The
 * agent is a command given the host and then the command to run there,
 * as ssh is (`--launch-agent CMD`, the launch_agent parameter); inside a
 * Slurm allocation it is srun, one step for all hosts. The daemon's
 * command line holds nothing secret: the job's control secret and its
 * runtime parameters go on the agent's stdin (boot.c in the daemon).
 */
#include "mpiexec.h"
#include "alloc.h"
#include "argv.h"
#include "ctlauth.h"
#include "log.h"
#include "params.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

/* The boot data for a daemon's stdin. Caller frees. */
static char *boot_text(const uint8_t secret[TIDE_CTL_SECRET_LEN])
{
    char hex[2 * TIDE_CTL_SECRET_LEN + 1];
    tide_ctlauth_hex(secret, hex);
    char **params = calloc(1, sizeof(char *));
    tide_config_export(&params);
    size_t cap = 128;
    for (size_t i = 0; params && params[i]; i++)
        cap += strlen(params[i]) + 8;
    char *tree = tide_ctltree_format(&mx.tree);
    cap += tree ? strlen(tree) + 8 : 0;
    char *text = malloc(cap);
    if (!text) {
        free(tree);
        tide_argv_free(params);
        return NULL;
    }
    size_t len = (size_t)snprintf(text, cap, "tide-boot 1\nsecret %s\n", hex);
    if (tree)
        len += (size_t)snprintf(text + len, cap - len, "tree %s\n", tree);
    free(tree);
    for (size_t i = 0; params && params[i]; i++)
        if (!strchr(params[i], '\n'))
            len += (size_t)snprintf(text + len, cap - len, "param %s\n", params[i]);
    snprintf(text + len, cap - len, "\n");
    tide_argv_free(params);
    memset(hex, 0, sizeof hex);
    return text;
}

/* Is the agent srun (inside Slurm, no agent chosen)? */
bool agent_is_srun(void)
{
    const char *agent = mx.opts.launch_agent ? mx.opts.launch_agent : tide_config_get("launch_agent");
    return (!agent || !*agent) && mx.alloc_source == TIDE_ALLOC_SLURM;
}

const char *agent_name(void)
{
    if (agent_is_srun())
        return "srun";
    const char *agent = mx.opts.launch_agent ? mx.opts.launch_agent : tide_config_get("launch_agent");
    return agent && *agent ? agent : "ssh";
}

/* Fork argv with a pipe on its stdin carrying boot; returns the pid. */
static pid_t run_agent(char **argv, const char *boot, char *err, size_t errlen)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent)
            _exit(1);
        dup2(p[0], 0);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        signal(SIGPIPE, SIG_DFL);
        signal(SIGUSR1, SIG_DFL);
        signal(SIGUSR2, SIG_DFL);
        /* its own process group: ^C at the terminal is mpiexec's to handle */
        setpgid(0, 0);
        execvp(argv[0], argv);
        fprintf(stderr, "mpiexec: cannot execute the launch agent '%s': %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(p[0]);
    /* a few hundred bytes: the pipe takes them without blocking */
    size_t len = strlen(boot), off = 0;
    while (off < len) {
        ssize_t n = write(p[1], boot + off, len - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        off += (size_t)n;
    }
    close(p[1]);
    return pid;
}

/* The daemon's own arguments, after the agent's words. */
static void daemon_args(char ***argv, const char *hub, const char *node)
{
    char verb[16];
    snprintf(verb, sizeof verb, "%d", tide_log_level());
    const char *args[] = {mx.tided_path, "--hub", hub, "--boot-stdin", "--node", node,
                          "--session-dir", mx.session_dir, "--verbose", verb};
    for (size_t i = 0; i < sizeof args / sizeof args[0]; i++)
        tide_argv_append(argv, args[i]);
}

int agent_start(const uint8_t secret[TIDE_CTL_SECRET_LEN], const char *hub, const int *nodes, int count_in,
                char *err, size_t errlen)
{
    char *boot = boot_text(secret);
    if (!boot) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    if (agent_is_srun()) {
        /* one step, one task per remote host; each daemon finds its node
         * number in the map by the name Slurm gives its host */
        char *nodelist = NULL, *map = NULL;
        size_t nl = 0, ml = 0;
        int count = 0;
        for (int i = 0; i < count_in; i++) {
            int n = nodes[i];
            size_t hl = strlen(mx.hosts[n]);
            nodelist = realloc(nodelist, nl + hl + 2);
            nl += (size_t)sprintf(nodelist + nl, "%s%s", nl ? "," : "", mx.hosts[n]);
            map = realloc(map, ml + hl + 16);
            ml += (size_t)sprintf(map + ml, "%s%s=%d", ml ? "," : "", mx.hosts[n], n);
            count++;
        }
        char nn[16];
        snprintf(nn, sizeof nn, "%d", count);
        char **argv = NULL;
        const char *words[] = {"srun", "--nodes", nn, "--ntasks", nn, "--ntasks-per-node=1",
                               "--kill-on-bad-exit", "--overlap", "--input=all", "--nodelist", nodelist};
        for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
            tide_argv_append(&argv, words[i]);
        daemon_args(&argv, hub, "-1");
        tide_argv_append(&argv, "--node-map");
        tide_argv_append(&argv, map);
        pid_t pid = run_agent(argv, boot, err, errlen);
        tide_argv_free(argv);
        free(nodelist);
        free(map);
        if (pid < 0)
            rc = -1;
        for (int i = 0; i < count_in && pid > 0; i++)
            mx.daemons[nodes[i]].pid = pid;
        TIDE_DEBUG(1, "started tided on %d hosts through srun (pid %d)", count, (int)pid);
    } else {
        const char *agent = agent_name();
        for (int i = 0; i < count_in && rc == 0; i++) {
            int n = nodes[i];
            struct mdaemon *d = &mx.daemons[n];
            char **argv = tide_argv_split(agent, ' ');
            tide_argv_append(&argv, d->host);
            char node[16];
            snprintf(node, sizeof node, "%d", n);
            daemon_args(&argv, hub, node);
            pid_t pid = run_agent(argv, boot, err, errlen);
            tide_argv_free(argv);
            if (pid < 0) {
                rc = -1;
                break;
            }
            d->pid = pid;
            TIDE_DEBUG(1, "started tided for node %d (%s) through '%s' (pid %d)", n, d->host, agent, (int)pid);
        }
    }
    memset(boot, 0, strlen(boot));
    free(boot);
    return rc;
}
