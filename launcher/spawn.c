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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void reply(struct mdaemon *d, uint32_t reqid, int status, const char *text, int nprocs)
{
    if (!d || !d->ch)
        return;
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_SPAWN_RESULT);
    tide_wire_put_u32(&w, reqid);
    tide_wire_put_i32(&w, status);
    tide_wire_put_str(&w, text);
    tide_wire_put_u32(&w, (uint32_t)nprocs);
    tide_channel_send(d->ch, &w);
}

static int free_slots(void)
{
    int f = 0;
    for (int n = 0; n < mx.nnodes; n++)
        if (mx.slots[n] > mx.used[n])
            f += mx.slots[n] - mx.used[n];
    return f;
}

/* The largest count in a soft specification ("a:b:c,d,e:f": ranges with
 * optional strides) that is at most limit; -1 if none or malformed. */
static int soft_choose(const char *spec, int limit)
{
    int best = -1;
    char **parts = tide_argv_split(spec, ',');
    for (size_t i = 0; parts[i]; i++) {
        int a, b = -1, c = 1;
        int k = sscanf(parts[i], "%d:%d:%d", &a, &b, &c);
        if (k < 1 || a < 0 || c <= 0) {
            best = -2;
            break;
        }
        if (k == 1)
            b = a;
        for (int v = a; v <= b && v <= limit; v += c)
            if (v > best)
                best = v;
    }
    tide_argv_free(parts);
    return best == -2 ? -1 : best;
}

void spawn_on_request(struct mdaemon *d, struct tide_rbuf *r)
{
    uint32_t reqid = tide_wire_get_u32(r);
    char *pns = tide_wire_get_str(r);
    uint32_t prank = tide_wire_get_u32(r);
    uint32_t napps = tide_wire_get_u32(r);
    char err[1024] = "";
    if (!pns || !tide_wire_ok(r) || napps == 0 || napps > 1024) {
        free(pns);
        reply(d, reqid, -1, "malformed spawn request", 0);
        return;
    }
    struct job_app_spec *specs = calloc(napps, sizeof *specs);
    char **hosts = calloc(napps, sizeof *hosts), **softs = calloc(napps, sizeof *softs);
    int total = 0, status = 0;
    for (uint32_t a = 0; a < napps && specs; a++) {
        specs[a].exe = tide_wire_get_str(r);
        specs[a].argv = tide_wire_get_strv(r);
        specs[a].env = tide_wire_get_strv(r);
        specs[a].wdir = tide_wire_get_str(r);
        specs[a].np = (int)tide_wire_get_u32(r);
        hosts[a] = tide_wire_get_str(r);
        specs[a].path = tide_wire_get_str(r);
        softs[a] = tide_wire_get_str(r);
        if (!tide_wire_ok(r) || !specs[a].exe || !specs[a].argv || specs[a].np <= 0 ||
            specs[a].np > TIDE_JOB_MAX_PROCS) {
            snprintf(err, sizeof err, "malformed spawn request");
            status = -1;
            break;
        }
        total += specs[a].np;
    }
    if (status == 0 && !tide_wire_done(r)) {
        snprintf(err, sizeof err, "malformed spawn request");
        status = -1;
    }
    /* placement requests: only the hosts of this universe */
    for (uint32_t a = 0; status == 0 && a < napps; a++) {
        if (!hosts[a] || !*hosts[a])
            continue;
        bool known = false;
        for (int n = 0; n < mx.nnodes; n++)
            if (strcmp(mx.hosts[n], hosts[a]) == 0 || strcmp(hosts[a], "localhost") == 0)
                known = true;
        if (!known) {
            snprintf(err, sizeof err, "spawn: host '%s' is not part of this job's allocation", hosts[a]);
            status = -1;
        }
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
                int k = soft_choose(softs[a], left < specs[a].np ? left : specs[a].np);
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
                int k = soft_choose(softs[a], specs[a].np);
                if (k <= 0) {
                    snprintf(err, sizeof err, "spawn: invalid 'soft' value '%s'", softs[a]);
                    status = -1;
                } else {
                    specs[a].np = k;
                }
            }
    }
    struct mjob *job = NULL;
    if (status == 0) {
        struct job_parent parent = {pns, prank};
        if (job_build(specs, (int)napps, &parent, &job, err, sizeof err) != 0) {
            status = -1;
        } else if (limits_check(job, err, sizeof err) != 0) {
            job_discard(job);
            job = NULL;
            status = -1;
        }
    }
    for (uint32_t a = 0; specs && a < napps; a++) {
        free((char *)specs[a].exe);
        tide_argv_free(specs[a].argv);
        tide_argv_free(specs[a].env);
        free((char *)specs[a].wdir);
        free((char *)specs[a].path);
        free(hosts[a]);
        free(softs[a]);
    }
    free(specs);
    free(hosts);
    free(softs);
    free(pns);
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
