/*
 * agentexec.h: starting a node daemon on another host through a launch
 * agent (ssh, or any command given the host and then the command to run
 * there). Used by mpiexec for the daemons it links itself and by a daemon
 * for its children in the tree. Nothing secret goes on a command line:
 * the boot data (the job's control secret, the tree, the agent, the host
 * names and the runtime parameters) go on the agent's stdin, read by the
 * daemon's boot.c:
 *
 *   tide-boot 1
 *   secret <64 hex digits>
 *   tree <radix>:<node>,<node>,...   (optional: the tree of daemons, ctltree.h)
 *   agent <command>                  (optional: how a daemon starts its children)
 *   host <node> <name>               (any number: the hosts of the tree)
 *   param TIDE_<NAME>=<VALUE>        (any number)
 *   <empty line>
 */
#ifndef TIDE_AGENTEXEC_H
#define TIDE_AGENTEXEC_H

#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>

#include "ctlauth.h"

struct tide_ctltree;

/* The boot data. hosts[n] names node n for each member of tree (tree may
 * be NULL: no tree, no hosts); agent may be NULL. The caller wipes and
 * frees it. NULL if out of memory. */
char *tide_boot_text(const uint8_t secret[TIDE_CTL_SECRET_LEN], const struct tide_ctltree *tree,
                     const char *agent, char *const *hosts);

/* The command line that starts tided for node on host through agent
 * (split on spaces), linking back to hub ("ip:port,..."). It names no
 * directory: the daemon makes a fresh one of its own there, since argv is
 * readable by every user of the host. NULL-terminated, free with
 * tide_argv_free. */
char **tide_agent_argv(const char *agent, const char *host, const char *tided_path, const char *hub,
                       const char *node, int verbose);

/* Fork argv in its own process group, with boot on its stdin (it dies
 * with its parent). The pid, or -1 with a reason in err. */
pid_t tide_agent_exec(char **argv, const char *boot, char *err, size_t errlen);

/* How an agent that ended (waitpid status) ended, in words. */
void tide_agent_status_text(const char *agent, int status, char *buf, size_t len);

#endif
