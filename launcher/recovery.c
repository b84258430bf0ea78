/*
 * recovery.c: mpiexec's side of recovery mode (docs/FAULTS.md). In a job
 * with TIDE_JOB_RECOVERY (mpiexec --enable-recovery, the enable_recovery
 * parameter, or MPI_Comm_spawn's enable_recovery info key), a rank that
 * ends abnormally, or the loss of the node daemon that hosted it, does not
 * end the run: mpiexec says so on stderr, records the rank for the summary
 * printed at the end, and sends every daemon an EVENT raised by the
 * runtime itself, which each daemon turns into a PMIx event
 * (PMIX_ERR_PROC_TERM_WO_SYNC naming the failed rank and its exit code)
 * for every rank it hosts, of every job (daemon/events.c).
 */
#include "mpiexec.h"
#include "argv.h"
#include "ctlmsg.h"
#include "log.h"
#include "params.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void recovery_rank_name(const struct mjob *job, int rank, char *out, size_t len)
{
    if (job->desc.jobid == 0)
        snprintf(out, len, "rank %d", rank);
    else
        snprintf(out, len, "rank %d of spawned job %u", rank, job->desc.jobid);
}

bool recovery_goes_on(const struct mjob *job)
{
    return (job->desc.flags & TIDE_JOB_RECOVERY) && mx.end_reason == END_NONE && !mx.shutting_down;
}

/* The event of one failed rank, to every daemon that is up. */
static void announce(struct mjob *job, int rank, int exit_code)
{
    struct mrank *rk = &job->ranks[rank];
    if (rk->announced)
        return;
    rk->announced = true;
    struct tide_wbuf info;
    tide_wire_begin(&info, TIDE_CTL_EVENT);
    tide_wire_put_i32(&info, exit_code);
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_EVENT);
    tide_wire_put_u32(&w, TIDE_EVENT_FROM_RUNTIME);
    tide_wire_put_i32(&w, TIDE_EVENT_PROC_FAILED);
    tide_wire_put_str(&w, job->desc.nspace);
    tide_wire_put_u32(&w, (uint32_t)rank);
    tide_wire_put_u32(&w, TIDE_EVENT_RANGE_GLOBAL);
    tide_wire_put_bytes(&w, info.data + TIDE_WIRE_HEADER, info.len - TIDE_WIRE_HEADER);
    tide_wire_free(&info);
    TIDE_DEBUG(1, "failure of %s:%d (exit code %d) sent to every daemon", job->desc.nspace, rank, exit_code);
    daemons_broadcast(&w);
}

static void record(const struct mjob *job, int rank, int status)
{
    char name[64];
    recovery_rank_name(job, rank, name, sizeof name);
    if (!mx.failed_names)
        mx.failed_names = calloc(1, sizeof(char *));
    tide_argv_append(&mx.failed_names, name);
    if (mx.nfailed++ == 0)
        mx.first_failure_status = status;
}

void recovery_rank_failed(struct mjob *job, int rank, pid_t pid, int how, int code, bool connected)
{
    char who[64];
    recovery_rank_name(job, rank, who, sizeof who);
    const char *host = mx.hosts[job->desc.rank_node[rank]];
    int exit_code;
    char cause[128];
    if (how == TIDE_EXIT_SIGNALED) {
        exit_code = 128 + code;
        snprintf(cause, sizeof cause, "was killed by signal %d (%s)", code, strsignal(code));
    } else if (code != 0) {
        exit_code = code;
        snprintf(cause, sizeof cause, "exited with status %d", code);
    } else {
        exit_code = code;
        snprintf(cause, sizeof cause, "exited without calling MPI_Finalize");
    }
    fprintf(stderr, "mpiexec: %s (pid %d) on host %s %s; the job goes on (recovery mode)\n", who, (int)pid, host,
            cause);
    job->ranks[rank].failed = true;
    /* as mpiexec's status would have been had the failure ended the run */
    record(job, rank, how == TIDE_EXIT_SIGNALED ? 128 + code : code != 0 ? code : 1);
    announce(job, rank, exit_code);
    fences_ranks_failed();
    if (!connected && !job->start_failed) {
        /* it died before it reached the PMIx server: the job's start-up
         * fence (libpmix's own count of the node's ranks) can never
         * complete, so the job cannot start; its other ranks are ended
         * (and reported failed), and a spawn waiting for it fails */
        job->start_failed = true;
        fprintf(stderr, "mpiexec: %s died before it started: its job cannot start and is ended\n", who);
        daemons_kill_job(job->desc.jobid, SIGKILL);
    }
}

void recovery_rank_ended_cleanly(void)
{
    mx.clean_ends++;
}

/* every node of d's subtree, d included */
static bool lost_with(const struct mdaemon *d, int node)
{
    return node == d->node || tide_ctltree_in_subtree(&mx.tree, d->node, node);
}

bool recovery_node_loss_goes_on(const struct mdaemon *d)
{
    if (mx.end_reason != END_NONE || mx.shutting_down)
        return false;
    bool any = false;
    for (struct mjob *j = mx.jobs; j; j = j->next)
        for (int k = 0; k < j->desc.nprocs; k++) {
            if (j->ranks[k].exited || mx.daemons[j->desc.rank_node[k]].gone || !lost_with(d, j->desc.rank_node[k]))
                continue;
            if (!(j->desc.flags & TIDE_JOB_RECOVERY))
                return false;
            any = true;
        }
    /* a daemon with no rank: the run's own setting decides */
    return any || tide_config_int("enable_recovery");
}

void recovery_nodes_lost(const struct mdaemon *d, const char *why)
{
    /* one line: the daemon and the ranks it (and its subtree) hosted */
    size_t cap = 256, len = 0;
    char *list = calloc(1, cap);
    int n = 0;
    for (struct mjob *j = mx.jobs; list && j; j = j->next)
        for (int k = 0; k < j->desc.nprocs; k++) {
            struct mrank *rk = &j->ranks[k];
            if (!rk->failed || rk->announced)
                continue;
            char name[64];
            recovery_rank_name(j, k, name, sizeof name);
            if (len + strlen(name) + 3 >= cap) {
                char *bigger = realloc(list, cap * 2 + strlen(name));
                if (!bigger)
                    break;
                list = bigger;
                cap = cap * 2 + strlen(name);
            }
            len += (size_t)snprintf(list + len, cap - len, "%s%s", n ? ", " : "", name);
            n++;
        }
    int below = 0;
    for (int k = 0; k < mx.nnodes; k++)
        below += k != d->node && lost_with(d, k);
    char whose[128];
    if (below)
        snprintf(whose, sizeof whose, "the %s of it and of the %d %s below it in the tree", n == 1 ? "rank" : "ranks",
                 below, below == 1 ? "daemon" : "daemons");
    else
        snprintf(whose, sizeof whose, "its %s", n == 1 ? "rank" : "ranks");
    if (n)
        fprintf(stderr, "mpiexec: lost contact with tided on node %d (%s): %s; %s (%s) %s failed; the job goes on "
                        "(recovery mode)\n",
                d->node, d->host, why, whose, list ? list : "?", n == 1 ? "has" : "have");
    else
        fprintf(stderr, "mpiexec: lost contact with tided on node %d (%s): %s; it had no rank; the job goes on "
                        "(recovery mode)\n",
                d->node, d->host, why);
    free(list);
    /* they were killed with their daemon (its ranks die with it:
     * PR_SET_PDEATHSIG) */
    for (struct mjob *j = mx.jobs; j; j = j->next)
        for (int k = 0; k < j->desc.nprocs; k++)
            if (j->ranks[k].failed && !j->ranks[k].announced) {
                record(j, k, 128 + SIGKILL);
                announce(j, k, 128 + SIGKILL);
            }
    fences_ranks_failed();
}

void recovery_summary(void)
{
    if (mx.summary_done || mx.nfailed == 0)
        return;
    mx.summary_done = true;
    size_t len = 0;
    for (int i = 0; i < mx.nfailed; i++)
        len += strlen(mx.failed_names[i]) + 2;
    char *list = calloc(1, len + 1);
    for (int i = 0; list && i < mx.nfailed; i++) {
        if (i)
            strcat(list, ", ");
        strcat(list, mx.failed_names[i]);
    }
    fprintf(stderr, "mpiexec: %d %s failed and the job went on (recovery mode): %s\n", mx.nfailed,
            mx.nfailed == 1 ? "rank" : "ranks", list ? list : "");
    free(list);
    /* no rank outlived the failures: the run did not succeed */
    if (mx.end_reason == END_NONE && mx.clean_ends == 0)
        mx.exit_status = mx.first_failure_status;
    tide_argv_free(mx.failed_names);
    mx.failed_names = NULL;
}
