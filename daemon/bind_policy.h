/*
 * bind_policy.h: the arithmetic of process binding, apart from hwloc: which
 * objects of a node (cores, hardware threads, packages, NUMA nodes) a rank
 * is bound to, given the binding policy, the cpus per rank, the rank's
 * binding slot on the node and the counts of the node's objects. Used by
 * binding.c and by its unit test.
 */
#ifndef TIDE_BIND_POLICY_H
#define TIDE_BIND_POLICY_H

#include <stdbool.h>

/* The counts of a node's objects (hwloc's view, allowed ones only). */
struct bind_topo {
    int npackages;
    int nnuma;
    int ncores;
    int npus;
};

enum bind_obj {
    BIND_OBJ_NONE = 0, /* not bound */
    BIND_OBJ_CORE,
    BIND_OBJ_PU,
    BIND_OBJ_PACKAGE,
    BIND_OBJ_NUMA,
};

/* Bound to `count` objects of kind `obj` with logical indexes first,
 * first+1, ... taken modulo the node's number of such objects. */
struct bind_target {
    int obj;   /* enum bind_obj */
    int first;
    int count;
};

/* The objects of the rank in binding slot `slot` of a node that runs
 * `nslots` bound ranks in all (its own and those of the other jobs running
 * there). policy is an enum tide_bind_policy, cpr the cpus per rank (< 1
 * counts as 1). *shared is set when an explicit core or hwthread policy
 * makes ranks share cpus (more slots x cpus than the node has); the
 * default policy binds nothing then instead. Pure: no system calls. */
void bind_compute(int policy, int cpr, const struct bind_topo *t, int slot, int nslots,
                  struct bind_target *out, bool *shared);

/* Binding slots of n new ranks: the lowest indexes not in used[0..nused),
 * written to slots[0..n). */
void bind_free_slots(const int *used, int nused, int n, int *slots);

#endif
