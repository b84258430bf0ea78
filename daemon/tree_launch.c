/*
 * tree_launch.c: a daemon of the tree starts the daemons of its children
 * (common/ctltree.h) through the launch agent, as mpiexec starts the top
 * of the tree, so starting N hosts costs each process at most `radix`
 * agents and the starts proceed level by level in parallel. The children
 * link back to our listener (relay.c). A child whose agent ends before it
 * linked is reported to mpiexec (NODE_LOST with the agent's status), which
 * fails the launch naming that host.
 */
#include "tided.h"
#include "agentexec.h"
#include "argv.h"
#include "ctlmsg.h"
#include "ctltree.h"
#include "log.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pid_t *agent_pid; /* per child (relay.c order) */
static int nagents;

static void report_lost(int node, const char *why)
{
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_NODE_LOST);
    tide_wire_put_u32(&w, (uint32_t)node);
    tide_wire_put_str(&w, why);
    hub_send(&w);
}

void tree_launch_kids(const char *addresses, const uint8_t secret[TIDE_CTL_SECRET_LEN],
                      const struct tide_ctltree *tree)
{
    int n = relay_nkids();
    const char *agent = boot_agent();
    agent_pid = calloc((size_t)(n ? n : 1), sizeof *agent_pid);
    if (!agent_pid)
        return;
    nagents = n;
    char self[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0) {
        snprintf(self, sizeof self, "tided");
        len = 5;
    }
    self[len] = '\0';
    /* the same boot data as ours, for the grandchildren's sake */
    char **hosts = calloc((size_t)(tree->maxnode > 0 ? tree->maxnode : 1), sizeof *hosts);
    for (int i = 0; hosts && i < tree->n; i++)
        hosts[tree->member[i]] = (char *)boot_host(tree->member[i]);
    char *full = hosts ? tide_boot_text(secret, tree, agent, hosts) : NULL;
    free(hosts);
    for (int i = 0; i < n; i++) {
        int node = relay_kid_node(i);
        const char *host = boot_host(node);
        char why[512];
        if (!full || !agent || !host) {
            report_lost(node, !full ? "out of memory" : "no launch agent or host name in the boot data");
            continue;
        }
        char nodestr[16];
        snprintf(nodestr, sizeof nodestr, "%d", node);
        char **argv = tide_agent_argv(agent, host, self, addresses, nodestr, tide_log_level());
        pid_t pid = tide_agent_exec(argv, full, why, sizeof why);
        tide_argv_free(argv);
        if (pid < 0) {
            report_lost(node, why);
            continue;
        }
        agent_pid[i] = pid;
        TIDE_DEBUG(1, "started tided for node %d (%s) through '%s' (pid %d)", node, host, agent, (int)pid);
    }
    if (full) {
        memset(full, 0, strlen(full));
        free(full);
    }
}

bool tree_launch_reaped(pid_t pid, int status)
{
    for (int i = 0; i < nagents; i++) {
        if (agent_pid[i] != pid)
            continue;
        agent_pid[i] = 0;
        int node = relay_kid_node(i);
        TIDE_DEBUG(1, "the launch agent of node %d ended (status %d)", node, status);
        if (!relay_kid_linked(i) && !tided.shutting_down) {
            char why[256];
            tide_agent_status_text(boot_agent(), status, why, sizeof why);
            relay_kid_gone(i);
            report_lost(node, why);
        }
        return true;
    }
    return false;
}

void tree_launch_stop(void)
{
    for (int i = 0; i < nagents; i++)
        if (agent_pid[i] > 0)
            kill(agent_pid[i], SIGTERM);
    free(agent_pid);
    agent_pid = NULL;
    nagents = 0;
}
