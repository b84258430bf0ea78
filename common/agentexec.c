/*
 * agentexec.c: starting a node daemon through a launch agent, with its
 * boot data on the agent's stdin (agentexec.h).
 */
#include "agentexec.h"
#include "argv.h"
#include "ctltree.h"
#include "params.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* A growing text. */
struct text {
    char *s;
    size_t len, cap;
    int failed;
};

static void text_add(struct text *t, const char *fmt, const char *a, const char *b)
{
    size_t need = strlen(fmt) + strlen(a) + (b ? strlen(b) : 0) + 1;
    if (t->failed)
        return;
    if (t->len + need > t->cap) {
        size_t cap = (t->len + need) * 2;
        char *s = realloc(t->s, cap);
        if (!s) {
            t->failed = 1;
            return;
        }
        t->s = s;
        t->cap = cap;
    }
    t->len += (size_t)snprintf(t->s + t->len, t->cap - t->len, fmt, a, b ? b : "");
}

char *tide_boot_text(const uint8_t secret[TIDE_CTL_SECRET_LEN], const struct tide_ctltree *tree,
                     const char *agent, char *const *hosts)
{
    struct text t = {0};
    char hex[2 * TIDE_CTL_SECRET_LEN + 1];
    tide_ctlauth_hex(secret, hex);
    text_add(&t, "tide-boot 1\nsecret %s%s\n", hex, NULL);
    memset(hex, 0, sizeof hex);
    if (tree && tree->n > 0) {
        char *line = tide_ctltree_format(tree);
        if (!line)
            t.failed = 1;
        else
            text_add(&t, "tree %s%s\n", line, NULL);
        free(line);
        for (int i = 0; hosts && i < tree->n; i++) {
            char node[16];
            snprintf(node, sizeof node, "%d", tree->member[i]);
            const char *h = hosts[tree->member[i]];
            if (h && !strpbrk(h, " \n"))
                text_add(&t, "host %s %s\n", node, h);
        }
    }
    if (agent && *agent && !strchr(agent, '\n'))
        text_add(&t, "agent %s%s\n", agent, NULL);
    char **params = NULL;
    tide_config_export(&params);
    for (size_t i = 0; params && params[i]; i++)
        if (!strchr(params[i], '\n'))
            text_add(&t, "param %s%s\n", params[i], NULL);
    tide_argv_free(params);
    text_add(&t, "\n%s%s", "", NULL);
    if (t.failed) {
        if (t.s)
            memset(t.s, 0, t.cap);
        free(t.s);
        return NULL;
    }
    return t.s;
}

char **tide_agent_argv(const char *agent, const char *host, const char *tided_path, const char *hub,
                       const char *node, int verbose)
{
    char **argv = tide_argv_split(agent, ' ');
    if (host)
        tide_argv_append(&argv, host);
    char verb[16];
    snprintf(verb, sizeof verb, "%d", verbose);
    const char *args[] = {tided_path, "--hub", hub, "--boot-stdin", "--node", node, "--verbose", verb};
    for (size_t i = 0; i < sizeof args / sizeof args[0]; i++)
        tide_argv_append(&argv, args[i]);
    return argv;
}

pid_t tide_agent_exec(char **argv, const char *boot, char *err, size_t errlen)
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
        fprintf(stderr, "%s: cannot execute the launch agent '%s': %s\n", program_invocation_short_name, argv[0],
                strerror(errno));
        _exit(127);
    }
    close(p[0]);
    /* a few kilobytes (more with thousands of hosts): a pipe this size
     * takes them without blocking */
    size_t len = strlen(boot), off = 0;
    if (len >= 65536)
        fcntl(p[1], F_SETPIPE_SZ, (int)(len + 1));
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

void tide_agent_status_text(const char *agent, int status, char *buf, size_t len)
{
    if (WIFEXITED(status))
        snprintf(buf, len, "the launch agent '%s' exited with status %d", agent, WEXITSTATUS(status));
    else
        snprintf(buf, len, "the launch agent '%s' was killed by signal %d", agent,
                 WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
