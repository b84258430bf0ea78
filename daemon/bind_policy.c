/*
 * bind_policy.c: which objects a rank is bound to, from the policy and the
 * counts of the node's objects (see bind_policy.h). The rules:
 *   default   cores, as "core", when every bound rank of the node gets its
 *             own cpus (slots x cpus per rank <= cores); otherwise none.
 *   core      cores [slot*cpr, (slot+1)*cpr), wrapping around when the
 *             node has too few (ranks then share cores: *shared).
 *   hwthread  the same with hardware threads.
 *   socket    package slot % packages, whole.
 *   numa      NUMA node slot % NUMA nodes, whole.
 *   none      nothing.
 */
#include "bind_policy.h"
#include "jobdesc.h"

#include <stdlib.h>

static void bind_range(int obj, int cpr, int nobjs, int slot, int nslots, struct bind_target *out,
                       bool *shared)
{
    if (nobjs <= 0)
        return;
    int count = cpr < nobjs ? cpr : nobjs;
    out->obj = obj;
    out->first = (int)(((long)slot * cpr) % nobjs);
    out->count = count;
    if ((long)nslots * cpr > nobjs)
        *shared = true;
}

void bind_compute(int policy, int cpr, const struct bind_topo *t, int slot, int nslots,
                  struct bind_target *out, bool *shared)
{
    out->obj = BIND_OBJ_NONE;
    out->first = 0;
    out->count = 0;
    *shared = false;
    if (cpr < 1)
        cpr = 1;
    if (slot < 0)
        slot = 0;
    if (nslots <= slot)
        nslots = slot + 1;
    switch (policy) {
    case TIDE_BIND_DEFAULT:
        if (t->ncores > 0 && (long)nslots * cpr <= t->ncores)
            bind_range(BIND_OBJ_CORE, cpr, t->ncores, slot, nslots, out, shared);
        break;
    case TIDE_BIND_CORE:
        bind_range(BIND_OBJ_CORE, cpr, t->ncores, slot, nslots, out, shared);
        break;
    case TIDE_BIND_HWTHREAD:
        bind_range(BIND_OBJ_PU, cpr, t->npus, slot, nslots, out, shared);
        break;
    case TIDE_BIND_SOCKET:
        if (t->npackages > 0) {
            out->obj = BIND_OBJ_PACKAGE;
            out->first = slot % t->npackages;
            out->count = 1;
        }
        break;
    case TIDE_BIND_NUMA:
        if (t->nnuma > 0) {
            out->obj = BIND_OBJ_NUMA;
            out->first = slot % t->nnuma;
            out->count = 1;
        }
        break;
    default:
        break;
    }
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

void bind_free_slots(const int *used, int nused, int n, int *slots)
{
    int *sorted = nused > 0 ? malloc((size_t)nused * sizeof *sorted) : NULL;
    int k = 0;
    if (sorted) {
        for (int i = 0; i < nused; i++)
            sorted[i] = used[i];
        qsort(sorted, (size_t)nused, sizeof *sorted, cmp_int);
    } else {
        nused = 0; /* out of memory: slots as if the node were empty */
    }
    int cand = 0;
    for (int i = 0; i < n; i++) {
        while (k < nused && sorted[k] < cand)
            k++;
        while (k < nused && sorted[k] == cand) {
            cand++;
            while (k < nused && sorted[k] < cand)
                k++;
        }
        slots[i] = cand++;
    }
    free(sorted);
}
