/*
 * jobmap.h: placing ranks on nodes. Ranks fill free slots node by node
 * (by slot); when every slot is taken and oversubscription is allowed, the
 * rest are dealt round-robin over the nodes.
 */
#ifndef TIDE_JOBMAP_H
#define TIDE_JOBMAP_H

#include <stdbool.h>
#include <stddef.h>

/* used[n] counts processes already placed on node n (by earlier jobs) and
 * is updated. Returns 0, or -1 with a message when the slots are exhausted
 * and oversubscription is refused. */
int jobmap_by_slot(int nprocs, int nnodes, const int *slots, int *used, bool oversubscribe,
                   int *rank_node, char *err, size_t errlen);

#endif
