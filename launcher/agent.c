/*
 * agent.c: starting the tided of other hosts through a launch agent. The
 * agent is a command given the host and then the command to run there,
 * as ssh is (`--launch-agent CMD`, the launch_agent parameter); inside a
 * Slurm allocation it is srun, one step for all hosts. mpiexec starts
 * the daemons it links itself (the top of the tree of daemons); each of
 * those starts its own children the same way (daemon/tree_launch.c).
 * The command line holds nothing secret: the job's control secret, the
 * tree and the runtime parameters go on the agent's stdin (agentexec.h).
 */
#include "mpiexec.h"
#include "alloc.h"
#include "agentexec.h"
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

int agent_start(const uint8_t secret[TIDE_CTL_SECRET_LEN], const char *hub, const int *nodes, int count_in,
                char *err, size_t errlen)
{
    /* the agent a daemon uses to start its children: ours, unless srun */
    char *boot = tide_boot_text(secret, &mx.tree, agent_is_srun() ? NULL : agent_name(), mx.hosts);
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
        char **dargv = tide_agent_argv("", NULL, mx.tided_path, hub, "-1", tide_log_level());
        for (size_t i = 0; dargv && dargv[i]; i++)
            tide_argv_append(&argv, dargv[i]);
        tide_argv_free(dargv);
        tide_argv_append(&argv, "--node-map");
        tide_argv_append(&argv, map);
        pid_t pid = tide_agent_exec(argv, boot, err, errlen);
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
            char node[16];
            snprintf(node, sizeof node, "%d", n);
            char **argv = tide_agent_argv(agent, d->host, mx.tided_path, hub, node, tide_log_level());
            pid_t pid = tide_agent_exec(argv, boot, err, errlen);
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
