/*
 * hw_resource.h: which hardware resource this process runs on, for
 * MPI_Comm_split_type's MPI_COMM_TYPE_HW_GUIDED and _HW_UNGUIDED
 * (MPI-4.0 section 7.4.2), from hwloc: the resource of a type is the one
 * whose cpuset holds the whole of the process's binding (its allowed
 * cpuset when it is not bound, which usually only the machine holds).
 */
#ifndef TIDE_HW_RESOURCE_H
#define TIDE_HW_RESOURCE_H

#include <stddef.h>

#include "mpi.h"

/* The value of "mpi_hw_resource_type" naming a node's shared memory
 * (what MPI_COMM_TYPE_SHARED groups by). */
#define TIDE_HW_SHARED_MEMORY "mpi_shared_memory"

/* The levels MPI_COMM_TYPE_HW_UNGUIDED tries, largest first. */
extern const char *const tide_hw_levels[];
extern const int tide_hw_nlevels;

/* The identity of the resource named by value ("mpi_shared_memory" or
 * "hwloc://TYPE", TYPE an hwloc object type such as Package, NUMANode,
 * L3Cache, Core) that holds this process, as a string equal at exactly
 * the processes sharing it, written to id (idlen bytes). Returns 1 with
 * the identity, 0 when no resource of the type holds this process, -1
 * when value names no resource type. */
int tide_hw_resource_id(const char *value, char *id, size_t idlen);

#endif
