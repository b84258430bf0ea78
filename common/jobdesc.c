/*
 * jobdesc.c: encoding, decoding and validation of job descriptions.
 * The decoder accepts only descriptions that are internally consistent,
 * so the daemon can index with them without further checks.
 */
#include "jobdesc.h"
#include "argv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tide_job_encode(const struct tide_job *job, struct tide_wbuf *w)
{
    tide_wire_put_u32(w, job->jobid);
    tide_wire_put_str(w, job->nspace);
    tide_wire_put_u32(w, (uint32_t)job->nprocs);
    tide_wire_put_u32(w, (uint32_t)job->universe_size);
    tide_wire_put_u32(w, job->flags);
    tide_wire_put_u32(w, (uint32_t)job->napps);
    for (int a = 0; a < job->napps; a++) {
        const struct tide_app *app = &job->apps[a];
        tide_wire_put_u32(w, (uint32_t)app->np);
        tide_wire_put_u32(w, (uint32_t)app->first_rank);
        tide_wire_put_str(w, app->exe);
        tide_wire_put_strv(w, app->argv);
        tide_wire_put_strv(w, app->env);
        tide_wire_put_str(w, app->wdir);
    }
    tide_wire_put_u32(w, (uint32_t)job->nnodes);
    for (int n = 0; n < job->nnodes; n++) {
        tide_wire_put_str(w, job->hosts[n]);
        tide_wire_put_u32(w, (uint32_t)job->node_slots[n]);
    }
    for (int r = 0; r < job->nprocs; r++)
        tide_wire_put_u32(w, (uint32_t)job->rank_node[r]);
    tide_wire_put_str(w, job->parent_nspace);
    tide_wire_put_i32(w, job->parent_rank);
    tide_wire_put_strv(w, job->params);
    tide_wire_put_u32(w, (uint32_t)job->bind_policy);
    tide_wire_put_u32(w, (uint32_t)(job->cpus_per_rank > 0 ? job->cpus_per_rank : 1));
}

#define FAIL(...)                                 \
    do {                                          \
        if (err)                                  \
            snprintf(err, errlen, __VA_ARGS__);   \
        goto bad;                                 \
    } while (0)

int tide_job_decode(struct tide_rbuf *r, struct tide_job *job, char *err, size_t errlen)
{
    memset(job, 0, sizeof *job);
    job->jobid = tide_wire_get_u32(r);
    job->nspace = tide_wire_get_str(r);
    job->nprocs = (int)tide_wire_get_u32(r);
    job->universe_size = (int)tide_wire_get_u32(r);
    job->flags = tide_wire_get_u32(r);
    uint32_t napps = tide_wire_get_u32(r);
    if (!tide_wire_ok(r) || !job->nspace)
        FAIL("truncated job header");
    if (job->nprocs <= 0 || job->nprocs > TIDE_JOB_MAX_PROCS)
        FAIL("bad process count %d", job->nprocs);
    if (napps == 0 || napps > (uint32_t)job->nprocs)
        FAIL("bad app count %u", napps);
    if (strlen(job->nspace) == 0 || strlen(job->nspace) > 255)
        FAIL("bad namespace");
    /* Counts the payload cannot hold are refused before anything is
     * allocated for them: an app context takes at least 24 bytes, a node
     * 8 and a rank's node index 4 (and at least one node follows). */
    if ((size_t)napps * 24 + 4 + 8 + (size_t)job->nprocs * 4 > r->len - r->pos)
        FAIL("%u app contexts and %d ranks do not fit in the %zu bytes left", napps, job->nprocs,
             r->len - r->pos);
    job->apps = calloc(napps, sizeof *job->apps);
    if (!job->apps)
        FAIL("out of memory");
    job->napps = (int)napps;
    int next = 0;
    for (uint32_t a = 0; a < napps; a++) {
        struct tide_app *app = &job->apps[a];
        app->np = (int)tide_wire_get_u32(r);
        app->first_rank = (int)tide_wire_get_u32(r);
        app->exe = tide_wire_get_str(r);
        app->argv = tide_wire_get_strv(r);
        app->env = tide_wire_get_strv(r);
        app->wdir = tide_wire_get_str(r);
        if (!tide_wire_ok(r) || !app->exe || !app->argv || !app->env)
            FAIL("truncated app context %u", a);
        if (app->np <= 0 || app->first_rank != next || app->np > job->nprocs - next)
            FAIL("app context %u has inconsistent ranks", a);
        if (!app->argv[0])
            FAIL("app context %u has an empty argv", a);
        next += app->np;
    }
    if (next != job->nprocs)
        FAIL("app contexts cover %d of %d ranks", next, job->nprocs);
    uint32_t nnodes = tide_wire_get_u32(r);
    if (!tide_wire_ok(r) || nnodes == 0 || nnodes > 65536)
        FAIL("bad node count");
    if ((size_t)nnodes * 8 + (size_t)job->nprocs * 4 > r->len - r->pos)
        FAIL("%u nodes and %d ranks do not fit in the %zu bytes left", nnodes, job->nprocs,
             r->len - r->pos);
    job->hosts = calloc(nnodes + 1, sizeof(char *));
    job->node_slots = calloc(nnodes, sizeof(int));
    job->rank_node = calloc((size_t)job->nprocs, sizeof(int));
    if (!job->hosts || !job->node_slots || !job->rank_node)
        FAIL("out of memory");
    job->nnodes = (int)nnodes;
    for (uint32_t n = 0; n < nnodes; n++) {
        job->hosts[n] = tide_wire_get_str(r);
        job->node_slots[n] = (int)tide_wire_get_u32(r);
        if (!job->hosts[n])
            FAIL("truncated node list");
    }
    for (int k = 0; k < job->nprocs; k++) {
        uint32_t nd = tide_wire_get_u32(r);
        if (!tide_wire_ok(r) || nd >= nnodes)
            FAIL("rank %d mapped to a bad node", k);
        job->rank_node[k] = (int)nd;
    }
    job->parent_nspace = tide_wire_get_str(r);
    job->parent_rank = tide_wire_get_i32(r);
    job->params = tide_wire_get_strv(r);
    uint32_t bind = tide_wire_get_u32(r), cpr = tide_wire_get_u32(r);
    if (bind > TIDE_BIND_HWTHREAD)
        FAIL("unknown binding policy %u", bind);
    if (cpr == 0 || cpr > 4096)
        FAIL("bad cpus per rank %u", cpr);
    job->bind_policy = (int)bind;
    job->cpus_per_rank = (int)cpr;
    if (!job->params || !tide_wire_done(r))
        FAIL("truncated or oversized job description");
    return 0;
bad:
    tide_job_free(job);
    return -1;
}

void tide_job_free(struct tide_job *job)
{
    if (!job)
        return;
    free(job->nspace);
    for (int a = 0; job->apps && a < job->napps; a++) {
        free(job->apps[a].exe);
        tide_argv_free(job->apps[a].argv);
        tide_argv_free(job->apps[a].env);
        free(job->apps[a].wdir);
    }
    free(job->apps);
    if (job->hosts)
        tide_argv_free(job->hosts);
    free(job->node_slots);
    free(job->rank_node);
    free(job->parent_nspace);
    tide_argv_free(job->params);
    memset(job, 0, sizeof *job);
}

int tide_job_app_of(const struct tide_job *job, int rank)
{
    for (int a = 0; a < job->napps; a++)
        if (rank >= job->apps[a].first_rank && rank < job->apps[a].first_rank + job->apps[a].np)
            return a;
    return -1;
}
