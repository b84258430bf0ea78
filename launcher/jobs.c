/*
 * jobs.c: turning the command line into a job description (executables
 * resolved, working directories checked, ranks mapped to nodes) and
 * sending it to every daemon.
 */
#include "mpiexec.h"
#include "argv.h"
#include "channel.h"
#include "params.h"
#include "ctlmsg.h"
#include "jobmap.h"
#include "alloc.h"
#include "log.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_exec_file(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return -ENOENT;
    if (S_ISDIR(st.st_mode))
        return -EISDIR;
    if (access(path, X_OK) != 0)
        return -EACCES;
    return 0;
}

/* Resolve an executable as the shell would (relative names with a slash
 * against the working directory, bare names along PATH). */
int job_resolve_exe(const char *name, const char *wdir, const char *search, char *out, size_t outlen,
                    char *err, size_t errlen)
{
    if (strchr(name, '/')) {
        char cand[PATH_MAX];
        if (name[0] != '/' && wdir)
            snprintf(cand, sizeof cand, "%s/%s", wdir, name);
        else
            snprintf(cand, sizeof cand, "%s", name);
        int rc = is_exec_file(cand);
        if (rc != 0 && name[0] != '/' && wdir) { /* also try relative to here */
            snprintf(cand, sizeof cand, "%s", name);
            rc = is_exec_file(cand);
        }
        if (rc != 0) {
            snprintf(err, errlen, "cannot run '%s': %s", name, strerror(-rc));
            return -1;
        }
        if (!realpath(cand, out))
            snprintf(out, outlen, "%s", cand);
        return 0;
    }
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    char both[8192];
    if (search && *search) {
        snprintf(both, sizeof both, "%s:%s", search, path);
        path = both;
    }
    char **dirs = tide_argv_split(path, ':');
    int found = -ENOENT;
    for (size_t i = 0; dirs[i]; i++) {
        char cand[PATH_MAX];
        snprintf(cand, sizeof cand, "%s/%s", dirs[i], name);
        int rc = is_exec_file(cand);
        if (rc == 0) {
            snprintf(out, outlen, "%s", cand);
            found = 0;
            break;
        }
        if (rc == -EACCES)
            found = rc;
    }
    tide_argv_free(dirs);
    if (found != 0) {
        snprintf(err, errlen, "cannot find executable '%s' %s", name,
                 found == -EACCES ? "(found, but not executable)" : "in PATH");
        return -1;
    }
    return 0;
}

int job_check_wdir(const char *wdir, char *err, size_t errlen)
{
    struct stat st;
    if (stat(wdir, &st) != 0) {
        snprintf(err, errlen, "working directory '%s': %s", wdir, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "working directory '%s' is not a directory", wdir);
        return -1;
    }
    if (access(wdir, X_OK | W_OK) != 0) {
        snprintf(err, errlen, "working directory '%s' is not writable: %s", wdir, strerror(errno));
        return -1;
    }
    return 0;
}

/* The binding policy named by --bind-to, else the bind_to parameter. */
int job_bind_policy(const char *name, int *policy)
{
    static const struct {
        const char *name;
        int policy;
    } names[] = {
        {"", TIDE_BIND_DEFAULT},        {"none", TIDE_BIND_NONE},     {"core", TIDE_BIND_CORE},
        {"socket", TIDE_BIND_SOCKET},   {"package", TIDE_BIND_SOCKET}, {"numa", TIDE_BIND_NUMA},
        {"hwthread", TIDE_BIND_HWTHREAD}, {"cpu", TIDE_BIND_HWTHREAD},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i].name) == 0) {
            *policy = names[i].policy;
            return 0;
        }
    return -1;
}

/* The mapping of a job from --map-by, --rank-by, -ppn, --cpus-per-rank and
 * the oversubscribe parameter (which setup_nodes turns off by default for
 * an allocation from --host, --hostfile or Slurm). */
static int job_map_spec(struct jobmap_spec *spec, char *err, size_t errlen)
{
    memset(spec, 0, sizeof *spec);
    spec->policy = JOBMAP_BY_SLOT;
    spec->rank_by = JOBMAP_RANK_AS_MAPPED;
    if (mx.opts.map_by) {
        struct jobmap_mapby m;
        if (jobmap_parse_map_by(mx.opts.map_by, &m, err, errlen) != 0)
            return -1;
        spec->policy = m.policy;
        spec->ppr = m.ppr;
        /* ppr:N:socket: N times the sockets of this machine; the nodes
         * of an allocation are taken to be alike (as batch systems'
         * partitions mostly are) */
        if (m.policy == JOBMAP_PPR && m.ppr_socket) {
            long per_node = (long)m.ppr * tide_alloc_local_sockets();
            spec->ppr = per_node > INT_MAX ? INT_MAX : (int)per_node;
        }
    }
    if (mx.opts.npernode > 0) {
        spec->policy = JOBMAP_PPR;
        spec->ppr = mx.opts.npernode;
    }
    if (mx.opts.rank_by && jobmap_parse_rank_by(mx.opts.rank_by, &spec->rank_by, err, errlen) != 0)
        return -1;
    spec->cpus_per_rank = mx.opts.cpus_per_rank > 0 ? mx.opts.cpus_per_rank : 1;
    spec->oversubscribe = tide_config_int("oversubscribe") != 0;
    return 0;
}

static void display_map(const struct tide_job *d)
{
    printf("Job map: %d process%s on %d node%s\n", d->nprocs, d->nprocs == 1 ? "" : "es", d->nnodes,
           d->nnodes == 1 ? "" : "s");
    for (int n = 0; n < d->nnodes; n++) {
        printf("  node %d %s (%d slot%s): ranks", n, d->hosts[n], d->node_slots[n], d->node_slots[n] == 1 ? "" : "s");
        int count = 0;
        for (int r = 0; r < d->nprocs; r++)
            if (d->rank_node[r] == n) {
                printf(" %d", r);
                count++;
            }
        printf("%s\n", count ? "" : " none");
    }
    fflush(stdout);
}

int job_node_of_host(const char *host)
{
    for (int n = 0; n < mx.nnodes; n++)
        if (strcmp(mx.hosts[n], host) == 0)
            return n;
    /* "localhost" or one of our addresses: the node that is this machine */
    if (tide_alloc_is_local_host(host))
        for (int n = 0; n < mx.nnodes; n++)
            if (!mx.node_local || mx.node_local[n])
                return n;
    return -1;
}

/* An app context placed on given hosts (spawn's "host" key): its ranks
 * fill those nodes' free slots in order, then go round-robin over them. */
static int place_on_hosts(struct tide_job *d, const struct tide_app *app, const char *hosts, char *err,
                          size_t errlen)
{
    char **names = tide_argv_split(hosts, ',');
    int nodes[256], nn = 0;
    for (size_t i = 0; names[i] && nn < 256; i++) {
        int n = job_node_of_host(names[i]);
        if (n < 0) {
            snprintf(err, errlen, "host '%s' is not part of this job's allocation", names[i]);
            tide_argv_free(names);
            return -1;
        }
        nodes[nn++] = n;
    }
    tide_argv_free(names);
    if (nn == 0) {
        snprintf(err, errlen, "empty host list");
        return -1;
    }
    for (int r = app->first_rank; r < app->first_rank + app->np; r++)
        mx.used[d->rank_node[r]]--;
    int k = 0;
    for (int r = app->first_rank; r < app->first_rank + app->np; r++) {
        int pick = -1;
        for (int i = 0; i < nn && pick < 0; i++)
            if (mx.used[nodes[i]] < mx.slots[nodes[i]])
                pick = nodes[i];
        if (pick < 0)
            pick = nodes[k++ % nn];
        d->rank_node[r] = pick;
        mx.used[pick]++;
    }
    return 0;
}

int job_build(const struct job_app_spec *specs, int napps, const struct job_parent *parent,
              struct mjob **out, char *err, size_t errlen)
{
    struct mjob *job = calloc(1, sizeof *job);
    if (!job) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    struct tide_job *d = &job->desc;
    d->jobid = mx.next_jobid++;
    char ns[256];
    snprintf(ns, sizeof ns, "%s.%u", mx.nspace_base, d->jobid);
    d->nspace = strdup(ns);
    const char *bind = mx.opts.bind_to ? mx.opts.bind_to : tide_config_get("bind_to");
    if (job_bind_policy(bind ? bind : "", &d->bind_policy) != 0) {
        snprintf(err, errlen, "--bind-to: '%s' is not core, socket, numa, hwthread or none", bind);
        goto fail;
    }
    struct jobmap_spec spec;
    if (job_map_spec(&spec, err, errlen) != 0)
        goto fail;
    spec.max_slots = mx.max_slots;
    /* an app context without -n takes one rank per free slot of the
     * allocation (N per node with ppr), less the ranks of the others */
    int *nps = calloc((size_t)napps, sizeof(int));
    int unset = -1;
    long given = 0;
    for (int a = 0; a < napps; a++) {
        nps[a] = specs[a].np;
        if (nps[a] > 0) {
            given += nps[a];
        } else if (unset >= 0) {
            snprintf(err, errlen,
                     "programs %d and %d have no -n: with several programs, at most one may take the "
                     "rest of the slots",
                     unset + 1, a + 1);
            free(nps);
            goto fail;
        } else {
            unset = a;
        }
    }
    if (unset >= 0) {
        long def = jobmap_default_nprocs(&spec, mx.nnodes, mx.slots, mx.used) - given;
        nps[unset] = def > 0 ? (int)def : 1;
    }
    d->napps = napps;
    d->apps = calloc((size_t)napps, sizeof *d->apps);
    int rank = 0;
    for (int a = 0; a < napps; a++) {
        const struct job_app_spec *src = &specs[a];
        struct tide_app *app = &d->apps[a];
        if (src->wdir && job_check_wdir(src->wdir, err, errlen) != 0) {
            free(nps);
            goto fail;
        }
        char exe[PATH_MAX];
        if (job_resolve_exe(src->exe, src->wdir, src->path, exe, sizeof exe, err, errlen) != 0) {
            free(nps);
            goto fail;
        }
        if ((long)rank + nps[a] > TIDE_JOB_MAX_PROCS) {
            snprintf(err, errlen, "too many processes (at most %d)", TIDE_JOB_MAX_PROCS);
            free(nps);
            goto fail;
        }
        app->np = nps[a];
        app->first_rank = rank;
        rank += nps[a];
        app->exe = strdup(exe);
        app->argv = tide_argv_copy(src->argv);
        app->env = tide_argv_copy(mx.opts.global_env);
        for (size_t i = 0; src->env && src->env[i]; i++) {
            char *kv = strdup(src->env[i]);
            char *eq = strchr(kv, '=');
            if (eq) {
                *eq = '\0';
                tide_env_set(&app->env, kv, eq + 1);
            }
            free(kv);
        }
        app->wdir = src->wdir ? realpath(src->wdir, NULL) : NULL;
    }
    free(nps);
    d->nprocs = rank;
    d->nnodes = mx.nnodes;
    d->hosts = tide_argv_copy(mx.hosts);
    d->node_slots = malloc((size_t)mx.nnodes * sizeof(int));
    memcpy(d->node_slots, mx.slots, (size_t)mx.nnodes * sizeof(int));
    d->rank_node = calloc((size_t)d->nprocs, sizeof(int));
    int total_slots = 0;
    for (int n = 0; n < mx.nnodes; n++)
        total_slots += mx.slots[n];
    if (jobmap_place(&spec, d->nprocs, mx.nnodes, mx.slots, mx.used, d->rank_node, err, errlen) != 0)
        goto fail;
    for (int a = 0; a < napps; a++)
        if (specs[a].hosts && *specs[a].hosts && place_on_hosts(d, &d->apps[a], specs[a].hosts, err, errlen) != 0) {
            for (int k = 0; k < d->nprocs; k++)
                mx.used[d->rank_node[k]]--;
            goto fail;
        }
    d->universe_size = mx.opts.universe_size > 0 ? mx.opts.universe_size : total_slots;
    if (d->universe_size < d->nprocs && mx.opts.universe_size <= 0)
        d->universe_size = d->nprocs;
    if (mx.opts.tag_output)
        d->flags |= TIDE_JOB_TAG_OUTPUT;
    /* ranks' stdout through a terminal, line-buffered as mpiexec's own
     * terminal would have it (parameter stdout_pty: auto, 1 or 0) */
    const char *pty = tide_config_get("stdout_pty");
    if (strcmp(pty, "1") == 0 || (strcmp(pty, "auto") == 0 && isatty(STDOUT_FILENO)))
        d->flags |= TIDE_JOB_STDOUT_PTY;
    d->parent_rank = -1;
    if (parent) {
        d->flags |= TIDE_JOB_SPAWNED;
        d->parent_nspace = strdup(parent->nspace);
        d->parent_rank = (int)parent->rank;
    }
    d->params = calloc(1, sizeof(char *));
    tide_config_export(&d->params);
    job_set_recovery(job, tide_config_int("enable_recovery") != 0);
    d->cpus_per_rank = spec.cpus_per_rank;
    if (mx.opts.report_bindings || tide_config_int("report_bindings"))
        d->flags |= TIDE_JOB_REPORT_BINDINGS;
    job->ranks = calloc((size_t)d->nprocs, sizeof *job->ranks);
    if (!parent && mx.opts.display_map)
        display_map(d);
    *out = job;
    return 0;
fail:
    mx.next_jobid--;
    tide_job_free(&job->desc);
    free(job);
    return -1;
}

void job_set_recovery(struct mjob *job, bool on)
{
    struct tide_job *d = &job->desc;
    if (on)
        d->flags |= TIDE_JOB_RECOVERY;
    else
        d->flags &= ~(uint32_t)TIDE_JOB_RECOVERY;
    /* the ranks read their own job's mode from TIDE_ENABLE_RECOVERY (a
     * spawned job's may differ from mpiexec's) */
    if (on || tide_config_int("enable_recovery"))
        tide_env_set(&d->params, "TIDE_ENABLE_RECOVERY", on ? "1" : "0");
}

void job_discard(struct mjob *job)
{
    for (int k = 0; k < job->desc.nprocs; k++)
        mx.used[job->desc.rank_node[k]]--;
    free(job->ranks);
    tide_job_free(&job->desc);
    free(job);
}

int job_build_primary(struct mjob **out, char *err, size_t errlen)
{
    struct job_app_spec *specs = calloc((size_t)mx.opts.napps, sizeof *specs);
    if (!specs) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int a = 0; a < mx.opts.napps; a++) {
        specs[a].np = mx.opts.apps[a].np;
        specs[a].exe = mx.opts.apps[a].exe;
        specs[a].argv = mx.opts.apps[a].argv;
        specs[a].env = mx.opts.apps[a].env;
        specs[a].wdir = mx.opts.apps[a].wdir;
    }
    int rc = job_build(specs, mx.opts.napps, NULL, out, err, errlen);
    free(specs);
    return rc;
}

int job_launch(struct mjob *job)
{
    job->next = mx.jobs;
    mx.jobs = job;
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_LAUNCH);
    tide_job_encode(&job->desc, &w);
    if (daemons_broadcast(&w) != 0)
        return -1;
    TIDE_DEBUG(1, "launch of %s (%d ranks) sent to %d daemons", job->desc.nspace, job->desc.nprocs,
               mx.nnodes);
    return 0;
}

bool jobs_all_done(void)
{
    for (struct mjob *j = mx.jobs; j; j = j->next)
        if (j->nexited < j->desc.nprocs)
            return false;
    return true;
}

/* A spawned job that has ended everywhere and whose parent has its
 * answer is forgotten, here and by every daemon (JOB_ENDED): a program
 * that spawns and disconnects in a loop leaves nothing behind. The first
 * job stays to the end (its ranks' statuses make mpiexec's). */
void jobs_release_if_done(struct mjob *job)
{
    if (job->desc.jobid == 0 || !job->ended || job->spawn_daemon || job->launch_reports < mx.nnodes)
        return;
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_JOB_ENDED);
    tide_wire_put_str(&w, job->desc.nspace);
    daemons_broadcast(&w);
    for (struct mjob **pp = &mx.jobs; *pp; pp = &(*pp)->next)
        if (*pp == job) {
            *pp = job->next;
            break;
        }
    TIDE_DEBUG(2, "spawned job %s ended: released", job->desc.nspace);
    tide_job_free(&job->desc);
    free(job->ranks);
    free(job->launch_error);
    free(job);
}
