/*
 * spawn.c: jobs started by running jobs (MPI_Comm_spawn through
 * PMIx_Spawn and a daemon). mpiexec maps the new job onto the slots that
 * are free (oversubscribing if allowed; with "soft", starting the largest
 * allowed number that fits), launches it like the first job, and answers
 * the daemon once every daemon has reported that its ranks were exec'd.
 */
#include "mpiexec.h"
#include "argv.h"
#include "channel.h"
#include "ctlmsg.h"
#include "log.h"
#include "params.h"
#include "spawnreq.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void reply(struct mdaemon *d, uint32_t reqid, int status, const char *text, int nprocs)
{
    if (!daemon_up(d))
        return;
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_SPAWN_RESULT);
    tide_wire_put_u32(&w, reqid);
    tide_wire_put_i32(&w, status);
    tide_wire_put_str(&w, text);
    tide_wire_put_u32(&w, (uint32_t)nprocs);
    daemon_send(d, &w);
}

static int free_slots(void)
{
    int f = 0;
    for (int n = 0; n < mx.nnodes; n++)
        if (mx.slots[n] > mx.used[n])
            f += mx.slots[n] - mx.used[n];
    return f;
}

void spawn_on_request(struct mdaemon *d, struct tide_rbuf *r)
{
    struct spawn_request req;
    char err[1024] = "";
    int status = spawn_request_decode(r, &req, err, sizeof err);
    uint32_t reqid = req.reqid, napps = req.napps;
    struct job_app_spec *specs = req.specs;
    char **hosts = req.hosts, **softs = req.softs;
    int total = req.total;
    /* placement requests: only the hosts of this universe */
    for (uint32_t a = 0; status == 0 && a < napps; a++) {
        if (!hosts[a] || !*hosts[a])
            continue;
        char **names = tide_argv_split(hosts[a], ',');
        for (size_t i = 0; names[i] && status == 0; i++)
            if (job_node_of_host(names[i]) < 0) {
                snprintf(err, sizeof err, "spawn: host '%s' is not part of this job's allocation", names[i]);
                status = -1;
            }
        tide_argv_free(names);
        specs[a].hosts = hosts[a];
    }
    /* maxprocs against the free slots */
    if (status == 0 && !tide_config_int("oversubscribe")) {
        int avail = free_slots();
        if (total > avail) {
            bool all_soft = true;
            int left = avail;
            for (uint32_t a = 0; a < napps; a++) {
                if (!softs[a]) {
                    all_soft = false;
                    left -= specs[a].np;
                    continue;
                }
            }
            for (uint32_t a = 0; all_soft && a < napps; a++) {
                int k = spawn_soft_choose(softs[a], left < specs[a].np ? left : specs[a].np);
                if (k <= 0) {
                    all_soft = false;
                    break;
                }
                specs[a].np = k;
                left -= k;
            }
            if (!all_soft) {
                snprintf(err, sizeof err,
                         "spawn: %d processes requested but only %d slots are free "
                         "(the 'soft' info key allows fewer; mpiexec --oversubscribe allows more)",
                         total, avail);
                status = -1;
            }
        }
    } else if (status == 0) {
        /* oversubscription allowed: soft still caps at maxprocs */
        for (uint32_t a = 0; a < napps; a++)
            if (softs[a]) {
                int k = spawn_soft_choose(softs[a], specs[a].np);
                if (k <= 0) {
                    snprintf(err, sizeof err, "spawn: invalid 'soft' value '%s'", softs[a]);
                    status = -1;
                } else {
                    specs[a].np = k;
                }
            }
    }
    /* the enable_recovery info key: this job's mode, else mpiexec's */
    int recovery = status == 0 ? spawn_recovery_choose(&req, err, sizeof err) : -1;
    if (recovery == -2)
        status = -1;
    struct mjob *job = NULL;
    if (status == 0) {
        struct job_parent parent = {req.parent_nspace, req.parent_rank};
        if (job_build(specs, (int)napps, &parent, &job, err, sizeof err) != 0) {
            status = -1;
        } else if (limits_check(job, err, sizeof err) != 0) {
            job_discard(job);
            job = NULL;
            status = -1;
        } else if (recovery >= 0) {
            job_set_recovery(job, recovery == 1);
        }
    }
    /* recovery mode: a node whose daemon was lost takes no new rank */
    for (int k = 0; job && k < job->desc.nprocs; k++) {
        struct mdaemon *on = daemon_of_node(job->desc.rank_node[k]);
        if (on && on->gone) {
            snprintf(err, sizeof err, "spawn: rank %d would go to node %d (%s), whose daemon was lost", k, on->node,
                     on->host);
            job_discard(job);
            job = NULL;
            status = -1;
        }
    }
    spawn_request_free(&req);
    if (status != 0) {
        /* the spawning rank's error says to look here for the reason */
        fprintf(stderr, "mpiexec: a spawn request was refused: %s\n", err);
        reply(d, reqid, -1, err, 0);
        return;
    }
    job->spawn_daemon = d;
    job->spawn_reqid = reqid;
    TIDE_DEBUG(1, "spawning %s: %d ranks for %s:%u", job->desc.nspace, job->desc.nprocs, job->desc.parent_nspace,
               (unsigned)job->desc.parent_rank);
    if (job_launch(job) != 0) {
        job->launch_failed = true;
        reply(d, reqid, -1, "cannot send the job to the daemons", 0);
        job->spawn_daemon = NULL;
    }
}

/* Called on every LAUNCHED report for a spawned job. */
void spawn_launch_report(struct mjob *job)
{
    if (!job->spawn_daemon || job->launch_reports < mx.nnodes)
        return;
    if (job->launch_failed)
        reply(job->spawn_daemon, job->spawn_reqid, -1, job->launch_error ? job->launch_error : "launch failed", 0);
    else
        reply(job->spawn_daemon, job->spawn_reqid, 0, job->desc.nspace, job->desc.nprocs);
    job->spawn_daemon = NULL;
}
