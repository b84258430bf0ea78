/*
 * hub.c: tided's control channel to mpiexec (directly, or through its
 * parent in the tree of daemons: relay.c). Decodes what mpiexec asks
 * (launch, stdin, kill, shutdown, fence releases, modex requests) and
 * reports what happens (hello, launched, output, exits, aborts).
 */
#include "tided.h"
#include "channel.h"
#include "ctlframe.h"
#include "ctlmsg.h"
#include "log.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void send_launched(uint32_t jobid, int status, const char *msg)
{
    if (!tided.hub)
        return;
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_LAUNCHED);
    tide_wire_put_u32(&w, jobid);
    tide_wire_put_i32(&w, status);
    tide_wire_put_str(&w, msg);
    hub_send(&w);
}

void hub_send_io(struct dproc *p, int stream, const void *data, size_t len)
{
    if (!tided.hub)
        return;
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_IO);
    tide_wire_put_u32(&w, p->job->desc.jobid);
    tide_wire_put_u32(&w, (uint32_t)p->rank);
    tide_wire_put_u8(&w, (uint8_t)stream);
    tide_wire_put_bytes(&w, data, len);
    hub_send(&w);
}

void hub_send_exit(struct dproc *p, int how, int code)
{
    if (!tided.hub)
        return;
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_EXIT);
    tide_wire_put_u32(&w, p->job->desc.jobid);
    tide_wire_put_u32(&w, (uint32_t)p->rank);
    tide_wire_put_u32(&w, (uint32_t)p->pid);
    tide_wire_put_u8(&w, (uint8_t)how);
    tide_wire_put_i32(&w, code);
    tide_wire_put_u8(&w, p->connected);
    tide_wire_put_u8(&w, p->finalized);
    hub_send(&w);
}

void hub_send_abort(struct dproc *p, int status, const char *msg)
{
    if (!tided.hub)
        return;
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_ABORT);
    tide_wire_put_u32(&w, p->job->desc.jobid);
    tide_wire_put_u32(&w, (uint32_t)p->rank);
    tide_wire_put_i32(&w, status);
    tide_wire_put_str(&w, msg);
    hub_send(&w);
}

void hub_send_notice(struct djob *job, int rank, const char *msg)
{
    if (!tided.hub)
        return;
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_NOTICE);
    tide_wire_put_u32(&w, job ? job->desc.jobid : TIDE_ALL_JOBS);
    tide_wire_put_u32(&w, (uint32_t)rank);
    tide_wire_put_str(&w, msg);
    hub_send(&w);
}

static void on_launch(struct tide_rbuf *r)
{
    char err[512];
    struct djob *job = calloc(1, sizeof *job);
    if (!job)
        return;
    if (tide_job_decode(r, &job->desc, err, sizeof err) != 0) {
        tide_error("rejecting launch request: %s", err);
        send_launched(TIDE_ALL_JOBS, -1, err);
        free(job);
        return;
    }
    if (djob_find(job->desc.nspace) || djob_find_id(job->desc.jobid)) {
        send_launched(job->desc.jobid, -1, "job already exists");
        tide_job_free(&job->desc);
        free(job);
        return;
    }
    for (int k = 0; k < job->desc.nprocs; k++)
        if (job->desc.rank_node[k] == tided.node)
            job->nlocal++;
    job->procs = calloc(job->nlocal ? (size_t)job->nlocal : 1, sizeof *job->procs);
    int i = 0;
    for (int k = 0; k < job->desc.nprocs; k++) {
        if (job->desc.rank_node[k] != tided.node)
            continue;
        struct dproc *p = &job->procs[i];
        p->job = job;
        p->rank = k;
        p->local_rank = i++;
        p->out.fd = p->err.fd = p->stdin_fd = p->fin_fd = -1;
        PMIX_PROC_LOAD(&p->pproc, job->desc.nspace, (pmix_rank_t)k);
    }
    djob_add(job);
    TIDE_DEBUG(1, "launching %s: %d ranks here of %d", job->desc.nspace, job->nlocal, job->desc.nprocs);
    if (tided_launch(job, err, sizeof err) != 0)
        hub_launch_done(job, -1, err);
}

void hub_launch_done(struct djob *job, int rc, const char *err)
{
    send_launched(job->desc.jobid, rc, rc ? err : NULL);
    if (rc != 0) {
        /* ranks that never started count as exited, so the job can end */
        for (int k = 0; k < job->nlocal; k++) {
            struct dproc *p = &job->procs[k];
            if (p->pid == 0 && !p->exited) {
                p->exited = true;
                job->nexited++;
                hub_send_exit(p, TIDE_EXIT_EXEC_FAILED, 0);
            }
        }
        if (!job->killing)
            tided_kill_job(job, SIGKILL);
    }
    tided_maybe_exit();
}

static void on_stdin(const struct tide_ctl_msg *m)
{
    struct djob *job = djob_find_id(m->jobid);
    if (!job)
        return;
    for (int i = 0; i < job->nlocal; i++)
        if (job->procs[i].rank == (int)m->rank)
            iof_stdin(&job->procs[i], m->data, m->len);
}

static void on_kill(const struct tide_ctl_msg *m)
{
    uint32_t jobid = m->jobid;
    int sig = m->code; /* checked: 0 < sig < NSIG */
    TIDE_DEBUG(1, "killing %s with signal %d", jobid == TIDE_ALL_JOBS ? "every job" : "a job", sig);
    if (jobid == TIDE_ALL_JOBS) {
        tided_kill_all(sig);
        return;
    }
    struct djob *job = djob_find_id(jobid);
    if (job)
        tided_kill_job(job, sig);
}

/* mpiexec: a job has ended everywhere. A namespace registered here only
 * for reference (no local rank), or a recovery job whose local ranks have
 * all ended, is released now; one with local ranks is released as soon as
 * their output is drained (tided_maybe_exit). */
static void on_job_ended(const struct tide_ctl_msg *m)
{
    struct djob *job = djob_find(m->text);
    if (job && (job->nlocal == 0 || job->local_released) && !tided.shutting_down) {
        TIDE_DEBUG(2, "job %s ended: releasing its namespace", job->desc.nspace);
        djob_remove(job);
        tided_job_release(job);
    }
    tided_maybe_exit();
}

void hub_handle(uint16_t type, struct tide_rbuf *r)
{
    switch (type) {
    case TIDE_CTL_ROUTE: relay_from_parent(r); return;
    case TIDE_CTL_LAUNCH: on_launch(r); return;
    case TIDE_CTL_SHUTDOWN: tided_shutdown(0); return;
    case TIDE_CTL_NAME_RESULT: dpm_name_result(r); return;
    case TIDE_CTL_STDIN:
    case TIDE_CTL_KILL:
    case TIDE_CTL_FENCE_RELEASE:
    case TIDE_CTL_DMODEX_REQ:
    case TIDE_CTL_DMODEX_RESP:
    case TIDE_CTL_SPAWN_RESULT:
    case TIDE_CTL_JOB_ENDED:
    case TIDE_CTL_EVENT: break;
    default: tide_error("ignoring unknown control message %u from mpiexec", type); return;
    }
    struct tide_ctl_msg m;
    if (tide_ctl_decode(type, r, &m) != 0) {
        tide_error("ignoring a malformed control message %u from mpiexec", type);
        return;
    }
    switch (type) {
    case TIDE_CTL_STDIN: on_stdin(&m); break;
    case TIDE_CTL_KILL: on_kill(&m); break;
    case TIDE_CTL_FENCE_RELEASE: fence_release(&m); break;
    case TIDE_CTL_DMODEX_REQ: dmodex_serve(&m); break;
    case TIDE_CTL_DMODEX_RESP: dmodex_answer(&m); break;
    case TIDE_CTL_SPAWN_RESULT: dpm_spawn_result(&m); break;
    case TIDE_CTL_JOB_ENDED: on_job_ended(&m); break;
    case TIDE_CTL_EVENT: events_deliver(&m); break;
    default: break;
    }
    tide_ctl_msg_clear(&m);
}

static void hub_msg(struct tide_channel *ch, uint16_t type, struct tide_rbuf *r, void *arg)
{
    (void)ch;
    (void)arg;
    hub_handle(type, r);
}

static void hub_closed(struct tide_channel *ch, const char *why, void *arg)
{
    (void)ch;
    (void)arg;
    TIDE_DEBUG(1, "control channel to mpiexec closed (%s): ending every job", why);
    tide_channel_free(tided.hub);
    tided.hub = NULL;
    tided.hub_lost = true;
    relay_drop_kids();
    dpm_fail_all();
    tided_shutdown(1);
}

void hub_connect_fd(int fd, struct tide_ctlcrypt *crypt)
{
    if (crypt)
        tided.hub = tide_channel_new_sealed(tided.base, fd, crypt, hub_msg, hub_closed, NULL, "mpiexec");
    else
        tided.hub = tide_channel_new(tided.base, fd, hub_msg, hub_closed, NULL, "mpiexec");
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_HELLO);
    tide_wire_put_u32(&w, (uint32_t)tided.node);
    tide_wire_put_str(&w, tided.hostname);
    tide_wire_put_u32(&w, (uint32_t)getpid());
    hub_send(&w);
    relay_start();
}
