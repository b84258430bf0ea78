/*
 * hw_resource.c: this process's hardware resources through hwloc
 * (hw_resource.h). The topology is read for each question: the binding
 * may change between two splits.
 */
#include "comm/hw_resource.h"
#include "runtime/state.h"

#include <hwloc.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

const char *const tide_hw_levels[] = {
    TIDE_HW_SHARED_MEMORY, "hwloc://Package", "hwloc://NUMANode", "hwloc://L3Cache",
    "hwloc://L2Cache",     "hwloc://L1Cache", "hwloc://Core",     "hwloc://PU",
};
const int tide_hw_nlevels = (int)(sizeof tide_hw_levels / sizeof tide_hw_levels[0]);

#define HWLOC_PREFIX "hwloc://"

int tide_hw_resource_id(const char *value, char *id, size_t idlen)
{
    if (!value)
        return -1;
    if (strcmp(value, TIDE_HW_SHARED_MEMORY) == 0) {
        snprintf(id, idlen, "%s/%s", TIDE_HW_SHARED_MEMORY, tide.hostname);
        return 1;
    }
    if (strncasecmp(value, HWLOC_PREFIX, strlen(HWLOC_PREFIX)) != 0)
        return -1;
    hwloc_obj_type_t type;
    if (hwloc_type_sscanf(value + strlen(HWLOC_PREFIX), &type, NULL, 0) != 0)
        return -1;
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) != 0)
        return 0;
    int found = 0;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (set && hwloc_topology_load(topo) == 0) {
        if (hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) != 0 || hwloc_bitmap_iszero(set))
            hwloc_bitmap_copy(set, hwloc_topology_get_allowed_cpuset(topo));
        /* the object of the type whose cpuset holds the whole set (NUMA
         * nodes and other memory objects are not on the path to the
         * root, so every object of the type is looked at) */
        int n = hwloc_get_nbobjs_by_type(topo, type);
        for (int i = 0; i < n && !found; i++) {
            hwloc_obj_t o = hwloc_get_obj_by_type(topo, type, (unsigned)i);
            if (o && o->cpuset && hwloc_bitmap_isincluded(set, o->cpuset)) {
                snprintf(id, idlen, "%s/%s/%u", tide.hostname, hwloc_obj_type_string(type), o->logical_index);
                found = 1;
            }
        }
    }
    hwloc_bitmap_free(set);
    hwloc_topology_destroy(topo);
    return found;
}
