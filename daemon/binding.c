/*
 * binding.c: binding a node's ranks to cpus. The node's topology is loaded
 * once with hwloc; when a job starts, each local rank gets a binding slot
 * (the lowest index no live rank of another job on this node holds), and
 * bind_policy.c turns the policy, the cpus per rank, the slot and the
 * number of slots in use into objects, whose cpus make the rank's cpuset.
 * The set is made in the daemon before fork; the child only calls
 * sched_setaffinity. With TIDE_JOB_REPORT_BINDINGS each rank's binding is
 * described to mpiexec in a notice.
 */
#include "tided.h"
#include "bind_policy.h"
#include "log.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>

static hwloc_topology_t topo;
static bool topo_tried, topo_ok;
static struct bind_topo counts;

static bool load_topology(void)
{
    if (topo_tried)
        return topo_ok;
    topo_tried = true;
    if (hwloc_topology_init(&topo) != 0)
        return false;
    if (hwloc_topology_load(topo) != 0) {
        hwloc_topology_destroy(topo);
        tide_error("cannot load the node's topology with hwloc: ranks are not bound");
        return false;
    }
    counts.npackages = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
    counts.nnuma = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
    counts.ncores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    counts.npus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    if (counts.ncores <= 0)
        counts.ncores = counts.npus; /* no cores known: a hardware thread is one */
    topo_ok = counts.npus > 0;
    TIDE_DEBUG(2, "topology: %d packages, %d NUMA nodes, %d cores, %d hwthreads", counts.npackages,
               counts.nnuma, counts.ncores, counts.npus);
    return topo_ok;
}

static hwloc_obj_type_t obj_type(int obj)
{
    switch (obj) {
    case BIND_OBJ_CORE:
        return hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE) > 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
    case BIND_OBJ_PU: return HWLOC_OBJ_PU;
    case BIND_OBJ_PACKAGE: return HWLOC_OBJ_PACKAGE;
    default: return HWLOC_OBJ_NUMANODE;
    }
}

static const char *obj_name(int obj, bool plural)
{
    switch (obj) {
    case BIND_OBJ_CORE: return plural ? "cores" : "core";
    case BIND_OBJ_PU: return plural ? "hwthreads" : "hwthread";
    case BIND_OBJ_PACKAGE: return plural ? "packages" : "package";
    default: return plural ? "NUMA nodes" : "NUMA node";
    }
}

/* Simulated nodes (sim_nodes > 1) all run on this machine: the default
 * binds nothing there, as each daemon sees only its own ranks. */
static bool simulated_nodes(const struct djob *job)
{
    for (size_t i = 0; job->desc.params && job->desc.params[i]; i++)
        if (strncmp(job->desc.params[i], "TIDE_SIM_NODES=", 15) == 0)
            return atoi(job->desc.params[i] + 15) > 1;
    return false;
}

static int policy_of(const struct djob *job)
{
    if (job->desc.bind_policy == TIDE_BIND_DEFAULT && simulated_nodes(job))
        return TIDE_BIND_NONE;
    return job->desc.bind_policy;
}

void binding_plan_job(struct djob *job)
{
    int nused = 0;
    for (struct djob *j = tided.jobs; j; j = j->next)
        if (j != job)
            for (int i = 0; i < j->nlocal; i++)
                nused += !j->procs[i].exited;
    int *used = nused ? malloc((size_t)nused * sizeof *used) : NULL;
    int *slots = job->nlocal ? malloc((size_t)job->nlocal * sizeof *slots) : NULL;
    int k = 0;
    if (used)
        for (struct djob *j = tided.jobs; j; j = j->next)
            if (j != job)
                for (int i = 0; i < j->nlocal; i++)
                    if (!j->procs[i].exited)
                        used[k++] = j->procs[i].bind_slot;
    if (job->nlocal > 0 && !slots) {
        for (int i = 0; i < job->nlocal; i++)
            job->procs[i].bind_slot = nused + i;
    } else if (slots) {
        bind_free_slots(used, k, job->nlocal, slots);
        for (int i = 0; i < job->nlocal; i++)
            job->procs[i].bind_slot = slots[i];
    }
    free(used);
    free(slots);
    job->bind_nslots = nused + job->nlocal;
    for (int i = 0; i < job->nlocal; i++)
        if (job->procs[i].bind_slot >= job->bind_nslots)
            job->bind_nslots = job->procs[i].bind_slot + 1;

    int policy = policy_of(job);
    if (policy == TIDE_BIND_NONE || job->nlocal == 0 || !load_topology())
        return;
    struct bind_target t;
    bool shared = false;
    bind_compute(policy, job->desc.cpus_per_rank, &counts, job->procs[0].bind_slot, job->bind_nslots,
                 &t, &shared);
    if (shared) {
        char msg[256];
        int cpr = job->desc.cpus_per_rank > 0 ? job->desc.cpus_per_rank : 1;
        snprintf(msg, sizeof msg,
                 "warning: %d ranks x %d %s each on %s, which has %d: ranks share them",
                 job->bind_nslots, cpr, obj_name(t.obj, cpr > 1), job->desc.hosts[tided.node],
                 t.obj == BIND_OBJ_PU ? counts.npus : counts.ncores);
        hub_send_notice(job, -1, msg);
    }
}

int binding_prepare(struct djob *job, struct dproc *p, struct rank_binding *b)
{
    memset(b, 0, sizeof *b);
    int policy = policy_of(job);
    if (policy == TIDE_BIND_NONE)
        return 0;
    if (!load_topology())
        return 0;
    bool shared;
    bind_compute(policy, job->desc.cpus_per_rank, &counts, p->bind_slot, job->bind_nslots, &b->target,
                 &shared);
    if (b->target.obj == BIND_OBJ_NONE)
        return 0;
    hwloc_obj_type_t type = obj_type(b->target.obj);
    int nobjs = hwloc_get_nbobjs_by_type(topo, type);
    if (nobjs <= 0) {
        b->target.obj = BIND_OBJ_NONE;
        return 0;
    }
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (!set)
        return -1;
    for (int i = 0; i < b->target.count; i++) {
        hwloc_obj_t o = hwloc_get_obj_by_type(topo, type, (unsigned)((b->target.first + i) % nobjs));
        if (o && o->cpuset)
            hwloc_bitmap_or(set, set, o->cpuset);
    }
    hwloc_bitmap_and(set, set, hwloc_topology_get_allowed_cpuset(topo));
    int last = hwloc_bitmap_last(set);
    if (hwloc_bitmap_iszero(set) || last < 0) {
        hwloc_bitmap_free(set);
        b->target.obj = BIND_OBJ_NONE;
        return 0;
    }
    b->ncpus = last + 1;
    cpu_set_t *mask = CPU_ALLOC((size_t)b->ncpus);
    if (!mask) {
        hwloc_bitmap_free(set);
        return -1;
    }
    b->masksize = CPU_ALLOC_SIZE((size_t)b->ncpus);
    CPU_ZERO_S(b->masksize, mask);
    unsigned cpu;
    hwloc_bitmap_foreach_begin(cpu, set)
    {
        CPU_SET_S(cpu, b->masksize, mask);
    }
    hwloc_bitmap_foreach_end();
    b->mask = mask;
    b->set = set;
    return 0;
}

void binding_apply(const struct rank_binding *b)
{
    /* in the child between fork and exec: a system call only */
    if (b->mask)
        (void)sched_setaffinity(0, b->masksize, b->mask);
}

/* "[B./..][../..]": per package, its cores separated by '/', a character
 * per hardware thread: B bound, '.' not. */
static void append_map(char *buf, size_t cap, hwloc_const_bitmap_t set)
{
    size_t len = strlen(buf);
#define PUT(c)                                                                                          \
    do {                                                                                                \
        if (len + 1 < cap) {                                                                            \
            buf[len++] = (c);                                                                           \
            buf[len] = '\0';                                                                            \
        }                                                                                               \
    } while (0)
    int npkg = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
    hwloc_obj_type_t ctype =
        hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE) > 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
    for (int k = 0; k < (npkg > 0 ? npkg : 1); k++) {
        hwloc_obj_t pkg = npkg > 0 ? hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, (unsigned)k)
                                   : hwloc_get_root_obj(topo);
        PUT('[');
        hwloc_obj_t core = NULL;
        bool first = true;
        while ((core = hwloc_get_next_obj_inside_cpuset_by_type(topo, pkg->cpuset, ctype, core))) {
            if (!first)
                PUT('/');
            first = false;
            hwloc_obj_t pu = NULL;
            while ((pu = hwloc_get_next_obj_inside_cpuset_by_type(topo, core->cpuset, HWLOC_OBJ_PU, pu)))
                PUT(hwloc_bitmap_isset(set, pu->os_index) ? 'B' : '.');
        }
        PUT(']');
    }
#undef PUT
}

void binding_report(struct djob *job, struct dproc *p, const struct rank_binding *b)
{
    if (!(job->desc.flags & TIDE_JOB_REPORT_BINDINGS))
        return;
    char msg[2048], of[64] = "";
    if (job->desc.jobid != 0)
        snprintf(of, sizeof of, " of job %u", job->desc.jobid);
    const char *host = job->desc.hosts[tided.node];
    if (!b->set) {
        snprintf(msg, sizeof msg, "[%s:%d] rank %d%s is not bound", host, (int)p->pid, p->rank, of);
        hub_send_notice(job, p->rank, msg);
        return;
    }
    char objs[256], idx[192] = "?", cpus[512];
    int nobjs = hwloc_get_nbobjs_by_type(topo, obj_type(b->target.obj));
    hwloc_bitmap_t ids = hwloc_bitmap_alloc(); /* logical indexes of the objects */
    if (ids && nobjs > 0) {
        for (int i = 0; i < b->target.count; i++)
            hwloc_bitmap_set(ids, (unsigned)((b->target.first + i) % nobjs));
        hwloc_bitmap_list_snprintf(idx, sizeof idx, ids);
    }
    hwloc_bitmap_free(ids);
    snprintf(objs, sizeof objs, "%s %s", obj_name(b->target.obj, b->target.count > 1), idx);
    hwloc_bitmap_list_snprintf(cpus, sizeof cpus, b->set);
    snprintf(msg, sizeof msg, "[%s:%d] rank %d%s bound to %s, cpus %s: ", host, (int)p->pid, p->rank, of,
             objs, cpus);
    append_map(msg, sizeof msg, b->set);
    hub_send_notice(job, p->rank, msg);
}

void binding_release(struct rank_binding *b)
{
    if (b->mask)
        CPU_FREE(b->mask);
    if (b->set)
        hwloc_bitmap_free(b->set);
    memset(b, 0, sizeof *b);
}
