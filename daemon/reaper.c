/*
 * reaper.c: noticing that ranks ended. SIGCHLD arrives through libevent;
 * each exit is reported to mpiexec after the rank's remaining output has
 * been forwarded and after any PMIx upcalls it made (finalize) were run.
 */
#include "tided.h"
#include "log.h"
#include "taskq.h"
#include "ctlmsg.h"

#include <signal.h>
#include <unistd.h>
#include <sys/wait.h>

#include <event2/event.h>

void reaper_collect(void)
{
    /* Upcalls the rank made before exiting (client_finalized) are queued
     * ahead of its SIGCHLD: run them first so the report is accurate. */
    tide_taskq_drain();
    for (;;) {
        int status;
        pid_t pid = waitpid(-1, &status, WNOHANG);
        if (pid <= 0)
            break;
        struct dproc *p = dproc_find_pid(pid);
        if (!p) {
            tree_launch_reaped(pid, status);
            continue;
        }
        iof_drain(p);
        /* MPI_Finalize wrote to the finalize pipe (even if PMIx's own
         * finalize message was slow) */
        char f;
        if (p->fin_fd >= 0 && read(p->fin_fd, &f, 1) == 1 && f == 'F')
            p->finalized = true;
        p->exited = true;
        p->job->nexited++;
        int how, code;
        if (WIFSIGNALED(status)) {
            how = TIDE_EXIT_SIGNALED;
            code = WTERMSIG(status);
        } else {
            how = TIDE_EXIT_NORMAL;
            code = WEXITSTATUS(status);
        }
        TIDE_DEBUG(2, "rank %d of %s (pid %d) %s %d%s", p->rank, p->job->desc.nspace, (int)pid,
                   how == TIDE_EXIT_SIGNALED ? "killed by signal" : "exited with", code,
                   p->finalized ? " after MPI_Finalize" : "");
        hub_send_exit(p, how, code);
        iof_close(p);
    }
    tided_maybe_exit();
}

static void sigchld_cb(evutil_socket_t sig, short what, void *arg)
{
    (void)sig;
    (void)what;
    (void)arg;
    reaper_collect();
}

void reaper_start(void)
{
    tided.sigchld_ev = evsignal_new(tided.base, SIGCHLD, sigchld_cb, NULL);
    event_add(tided.sigchld_ev, NULL);
}
