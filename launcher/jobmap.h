/*
 * jobmap.h: placing ranks on nodes. The mapping policy (--map-by) says
 * how many ranks each node gets and in which order they are dealt (by
 * slot: fill each node's free slots in turn; by node: round-robin over
 * the nodes; ppr: N per node); the ranking (--rank-by) renumbers them.
 * When every slot is taken and oversubscription is allowed, the rest are
 * dealt round-robin over the nodes. Placement within a node (cores,
 * sockets) is the daemon's binding, not the map's.
 */
#ifndef TIDE_JOBMAP_H
#define TIDE_JOBMAP_H

#include <stdbool.h>
#include <stddef.h>

enum jobmap_policy {
    JOBMAP_BY_SLOT = 0, /* also core, socket, hwthread, numa: at node level, by slot */
    JOBMAP_BY_NODE,
    JOBMAP_PPR,         /* ppr ranks per node */
};

enum jobmap_rank {
    JOBMAP_RANK_AS_MAPPED = 0,
    JOBMAP_RANK_BY_SLOT,  /* each node's ranks contiguous, node after node */
    JOBMAP_RANK_BY_NODE,  /* round-robin over the nodes */
};

/* A parsed --map-by value: "slot", "node", "ppr:2:node", "socket:PE=2",
 * "node:OVERSUBSCRIBE", ... */
struct jobmap_mapby {
    enum jobmap_policy policy;
    int ppr;            /* JOBMAP_PPR: the N of ppr:N:... */
    bool ppr_socket;    /* ppr:N:socket (N per socket) rather than per node */
    int pe;             /* :PE=n, 0 if absent */
    int oversubscribe;  /* :OVERSUBSCRIBE 1, :NOOVERSUBSCRIBE 0, absent -1 */
};

struct jobmap_spec {
    enum jobmap_policy policy;
    int ppr;            /* JOBMAP_PPR: ranks per node */
    enum jobmap_rank rank_by;
    int cpus_per_rank;  /* slots each rank takes, >= 1 */
    bool oversubscribe;
    const int *max_slots; /* per node: a hostfile's max_slots, which even
                           * oversubscription does not pass (0: no limit);
                           * NULL: no limits */
};

/* Parse --map-by / --rank-by values. 0, or -1 with a message naming the option. */
int jobmap_parse_map_by(const char *s, struct jobmap_mapby *m, char *err, size_t errlen);
int jobmap_parse_rank_by(const char *s, enum jobmap_rank *r, char *err, size_t errlen);

/* The number of ranks a job gets when -n is not given: N per node for
 * ppr, else the free slots (divided by cpus_per_rank), at least 1. */
int jobmap_default_nprocs(const struct jobmap_spec *spec, int nnodes, const int *slots, const int *used);

/* Place nprocs ranks. used[n] counts processes already placed on node n
 * (by earlier jobs) and is updated. Returns 0, or -1 with a message when
 * the slots are exhausted and oversubscription is refused, or when ppr
 * has too few nodes. */
int jobmap_place(const struct jobmap_spec *spec, int nprocs, int nnodes, const int *slots, int *used,
                 int *rank_node, char *err, size_t errlen);

/* By slot, one slot per rank (jobmap_place with the default spec). */
int jobmap_by_slot(int nprocs, int nnodes, const int *slots, int *used, bool oversubscribe,
                   int *rank_node, char *err, size_t errlen);

#endif
