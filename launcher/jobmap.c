/*
 * jobmap.c: by-slot placement of ranks on nodes.
 */
#include "jobmap.h"

#include <stdio.h>

int jobmap_by_slot(int nprocs, int nnodes, const int *slots, int *used, bool oversubscribe,
                   int *rank_node, char *err, size_t errlen)
{
    long total_free = 0;
    for (int n = 0; n < nnodes; n++)
        if (slots[n] > used[n])
            total_free += slots[n] - used[n];
    if (nprocs > total_free && !oversubscribe) {
        snprintf(err, errlen,
                 "%d processes requested but only %ld slots are free "
                 "(allow it with --oversubscribe)",
                 nprocs, total_free);
        return -1;
    }
    int r = 0;
    for (int n = 0; n < nnodes && r < nprocs; n++)
        while (used[n] < slots[n] && r < nprocs) {
            rank_node[r++] = n;
            used[n]++;
        }
    /* oversubscribe: least-loaded node first, keeping each node's ranks contiguous
     * is impossible now, so deal round-robin starting from the least loaded */
    while (r < nprocs) {
        int best = 0;
        for (int n = 1; n < nnodes; n++)
            if ((long)used[n] * slots[best] < (long)used[best] * slots[n])
                best = n;
        rank_node[r++] = best;
        used[best]++;
    }
    return 0;
}
