/*
 * rma_fault.c: one-sided communication meeting a failed process (ft/ft.h).
 * Every wait of the synchronisation calls counts something the target
 * sends (lock grants, acknowledgements, post notices, complete markers);
 * a failed target sends nothing more, so the waits pass over it
 * (tide_rma_peer_gone), and the window's next synchronisation returns
 * the failure (MPIX_ERR_PROC_FAILED). Operations to it in flight end with their
 * requests (ft/failure.c ends those); new ones are refused at once. A
 * window in shared memory keeps working on the dead process's memory,
 * which stays mapped: only the locks it held are broken.
 */
#include "runtime/api.h"
#include "comm/comm.h"
#include "comm/group.h"
#include "ft/ft.h"
#include "rma/win.h"
#include "runtime/proc.h"

void tide_rma_proc_failed(struct tide_proc *p)
{
    for (struct tide_win *w = tide_rma_windows; w; w = w->next) {
        int r = tide_group_rank_of(w->group, p);
        if (r == MPI_UNDEFINED || r == w->rank)
            continue;
        if (w->lock_excl == r)
            w->lock_excl = -1; /* the lock it held here is gone with it */
        if (w->error == MPI_SUCCESS)
            w->error = tide_ft_failed_error("one-sided communication", w->comm, p);
        /* its answers will not come */
        tide_rma_fetches_abandon(w, r, tide_ft_failed_error("one-sided communication", w->comm, p));
    }
}

bool tide_rma_rank_failed(const struct tide_win *w, int r)
{
    return r >= 0 && r < w->size && w->comm->peers[r]->failed;
}

int tide_rma_target_failed(struct tide_win *w, int target, const char *fn)
{
    if (target < 0 || target >= w->size || !w->comm->peers[target]->failed)
        return MPI_SUCCESS;
    return tide_ft_failed_error(fn, w->comm, w->comm->peers[target]);
}
