/*
 * rma_sync.c: synchronisation of one-sided communication: fences,
 * post/start/complete/wait (PSCW), passive-target locks and flushes, and
 * MPI_Win_sync. Which epoch an operation belongs to is decided here too.
 *
 * A fence sums, over the window, how many operations each process sent
 * to each other one in the epoch it ends, waits until its own count has
 * been applied here, and then begins the next fence epoch; operations of
 * an epoch reaching a target still in the previous one wait there for it
 * (the epoch number travels in every header), so a fence needs no
 * barrier after the count. Unlock, flush and complete rely on the
 * target applying each origin's messages in order: their marker is
 * answered (or counted) after everything sent before it.
 */
#include "runtime/api.h"
#include "rma/win.h"
#include "comm/comm_fault.h"

#include "coll/coll.h"
#include "comm/comm.h"
#include "comm/group.h"
#include "datatype/datatype.h"
#include "op/op.h"
#include "pt2pt/progress.h"

#include <stdatomic.h>
#include <stdlib.h>

static bool in_ranks(const int *ranks, int n, int r)
{
    for (int i = 0; i < n; i++)
        if (ranks[i] == r)
            return true;
    return false;
}

int tide_rma_epoch_of(struct tide_win *w, int r)
{
    if (r >= 0 && r < w->size && (w->lock_all || w->peers[r].held))
        return TIDE_RMA_EPOCH_PASSIVE;
    if (w->start_group && in_ranks(w->start_ranks, w->start_group->size, r))
        return TIDE_RMA_EPOCH_PSCW;
    if (w->fence_active)
        return TIDE_RMA_EPOCH_FENCE;
    return TIDE_RMA_EPOCH_NONE;
}

static int finish(struct tide_win *w, int rc)
{
    if (rc == MPI_SUCCESS)
        rc = tide_rma_take_error(w);
    return rc == MPI_SUCCESS ? MPI_SUCCESS : tide_raise_win(w, rc);
}

static int check_assert(struct tide_win *w, int assert, int allowed, const char *fn)
{
    if (assert & ~allowed)
        return TIDE_ERR_WIN(w, MPI_ERR_ASSERT, "%s: assert %#x holds flags this call does not take (argument assert)",
                            fn, (unsigned)assert);
    return MPI_SUCCESS;
}

static bool fence_ops_pending(const struct tide_win *w)
{
    for (int i = 0; i < w->size; i++)
        if (w->fence_sent[i])
            return true;
    return false;
}

/* ---- fence ---- */

struct fence_wait {
    struct tide_win *w;
    uint64_t expected;
};

static bool fence_applied(void *arg)
{
    struct fence_wait *f = arg;
    return f->w->fence_applied >= f->expected;
}

int PMPI_Win_fence(int assert, MPI_Win win)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Win_fence";
    WIN_OR_FAIL(fn, win, w);
    int rc = check_assert(w, assert, MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (w->locks_held || w->lock_all || w->start_group || w->post_group)
        return TIDE_ERR_WIN(w, MPI_ERR_RMA_SYNC, "%s: a %s epoch is open on the window", fn,
                            w->start_group || w->post_group ? "PSCW" : "passive-target (lock)");
    rc = tide_rma_wait_local(w, -1);
    if (w->direct) {
        /* operations were done by their origins: once every process is
         * here, the epoch's accesses are over everywhere */
        atomic_thread_fence(memory_order_seq_cst);
        rc = tide_coll_barrier(w->comm);
        atomic_thread_fence(memory_order_seq_cst);
    } else if (!(assert & MPI_MODE_NOPRECEDE)) {
        int n = w->size;
        uint32_t *sum = malloc((size_t)n * sizeof *sum);
        if (!sum)
            return TIDE_ERR_WIN(w, MPI_ERR_NO_MEM, "%s: out of memory", fn);
        rc = tide_coll_allreduce(w->fence_sent, sum, n, tide_datatype_get(MPI_UINT32_T), tide_op_get(MPI_SUM),
                                 w->comm);
        if (rc == MPI_SUCCESS) {
            struct fence_wait f = {w, sum[w->rank]};
            if (!fence_applied(&f))
                tide_progress_until(fence_applied, &f);
            w->fence_applied -= f.expected;
        }
        free(sum);
    }
    for (int i = 0; i < w->size; i++)
        w->fence_sent[i] = 0;
    tide_rma_check_forget(w, -1);
    w->fence_epoch++;
    w->fence_active = !(assert & MPI_MODE_NOSUCCEED);
    tide_rma_progress(); /* what waited for this epoch */
    return finish(w, rc);
}
TIDE_ALIAS(MPI_Win_fence)

/* ---- PSCW ---- */

/* The window ranks of the members of group; MPI_ERR_GROUP if one is not in
 * the window's group. */
static int group_ranks(struct tide_win *w, MPI_Group group, struct tide_group **gout, int **out, const char *fn)
{
    struct tide_group *g = tide_group_get(group);
    if (!g)
        return TIDE_ERR_WIN(w, MPI_ERR_GROUP, "%s: invalid group (argument group)", fn);
    int *r = malloc((size_t)(g->size ? g->size : 1) * sizeof *r);
    if (!r)
        return TIDE_ERR_WIN(w, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    for (int i = 0; i < g->size; i++) {
        r[i] = tide_group_index_of(w->group, g, i);
        if (r[i] < 0 || r[i] >= w->size) {
            free(r);
            return TIDE_ERR_WIN(w, MPI_ERR_GROUP, "%s: process %d of the group is not in the window's group", fn, i);
        }
    }
    tide_group_retain(g);
    *gout = g;
    *out = r;
    return MPI_SUCCESS;
}

int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Win_post";
    WIN_OR_FAIL(fn, win, w);
    int rc = check_assert(w, assert, MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (w->post_group)
        return TIDE_ERR_WIN(w, MPI_ERR_RMA_SYNC, "%s: an exposure epoch is already open (MPI_Win_post without MPI_Win_wait)", fn);
    if (fence_ops_pending(w))
        return TIDE_ERR_WIN(w, MPI_ERR_RMA_SYNC, "%s: operations of a fence epoch are not completed", fn);
    rc = group_ranks(w, group, &w->post_group, &w->post_ranks, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    w->fence_active = false;
    if (w->direct && !(assert & MPI_MODE_NOCHECK))
        tide_rma_direct_post(w);
    else if (!(assert & MPI_MODE_NOCHECK))
        for (int i = 0; rc == MPI_SUCCESS && i < w->post_group->size; i++)
            rc = tide_rma_send_ctrl(w, w->post_ranks[i], TIDE_RMA_C_POST, 0);
    return finish(w, rc);
}
TIDE_ALIAS(MPI_Win_post)

static bool all_posted(void *arg)
{
    struct tide_win *w = arg;
    for (int i = 0; i < w->start_group->size; i++)
        if (w->peers[w->start_ranks[i]].posts_seen == 0 && !tide_rma_peer_gone(w, w->start_ranks[i]))
            return false;
    return true;
}

int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Win_start";
    WIN_OR_FAIL(fn, win, w);
    int rc = check_assert(w, assert, MPI_MODE_NOCHECK, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (w->start_group)
        return TIDE_ERR_WIN(w, MPI_ERR_RMA_SYNC, "%s: an access epoch is already open (MPI_Win_start without MPI_Win_complete)", fn);
    if (w->lock_all || w->locks_held)
        return TIDE_ERR_WIN(w, MPI_ERR_RMA_SYNC, "%s: a passive-target (lock) epoch is open", fn);
    if (fence_ops_pending(w))
        return TIDE_ERR_WIN(w, MPI_ERR_RMA_SYNC, "%s: operations of a fence epoch are not completed", fn);
    rc = group_ranks(w, group, &w->start_group, &w->start_ranks, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    w->fence_active = false;
    if (w->direct && !(assert & MPI_MODE_NOCHECK)) {
        tide_rma_direct_start(w);
    } else if (!(assert & MPI_MODE_NOCHECK)) {
        if (!all_posted(w))
            tide_progress_until(all_posted, w);
        for (int i = 0; i < w->start_group->size; i++)
            if (w->peers[w->start_ranks[i]].posts_seen) /* (none from a failed process) */
                w->peers[w->start_ranks[i]].posts_seen--;
    }
    return finish(w, MPI_SUCCESS);
}
TIDE_ALIAS(MPI_Win_start)

int PMPI_Win_complete(MPI_Win win)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Win_complete";
    WIN_OR_FAIL(fn, win, w);
    if (!w->start_group)
        return TIDE_ERR_WIN(w, MPI_ERR_RMA_SYNC, "%s: no access epoch is open (MPI_Win_start was not called)", fn);
    int rc = MPI_SUCCESS;
    for (int i = 0; i < w->start_group->size; i++)
        tide_rma_wait_local(w, w->start_ranks[i]);
    atomic_thread_fence(memory_order_seq_cst);
    if (w->direct)
        tide_rma_direct_complete(w);
    else
        for (int i = 0; rc == MPI_SUCCESS && i < w->start_group->size; i++)
            rc = tide_rma_send_marker(w, w->start_ranks[i], TIDE_RMA_COMPLETE, 0);
    tide_group_release(w->start_group);
    w->start_group = NULL;
    free(w->start_ranks);
    w->start_ranks = NULL;
    tide_rma_check_forget(w, -1);
    return finish(w, rc);
}
TIDE_ALIAS(MPI_Win_complete)

static bool all_completed(void *arg)
{
    struct tide_win *w = arg;
    for (int i = 0; i < w->post_group->size; i++)
        if (w->peers[w->post_ranks[i]].completes_seen == 0 && !tide_rma_peer_gone(w, w->post_ranks[i]))
            return false;
    return true;
}

static void end_exposure(struct tide_win *w)
{
    for (int i = 0; i < w->post_group->size; i++)
        if (w->peers[w->post_ranks[i]].completes_seen) /* (none from a failed process) */
            w->peers[w->post_ranks[i]].completes_seen--;
    tide_group_release(w->post_group);
    w->post_group = NULL;
    free(w->post_ranks);
    w->post_ranks = NULL;
}

int PMPI_Win_wait(MPI_Win win)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Win_wait";
    WIN_OR_FAIL(fn, win, w);
    if (!w->post_group)
        return TIDE_ERR_WIN(w, MPI_ERR_RMA_SYNC, "%s: no exposure epoch is open (MPI_Win_post was not called)", fn);
    if (w->direct) {
        tide_rma_direct_completed(w, true);
        end_exposure(w);
        return finish(w, MPI_SUCCESS);
    }
    if (!all_completed(w))
        tide_progress_until(all_completed, w);
    end_exposure(w);
    return finish(w, MPI_SUCCESS);
}
TIDE_ALIAS(MPI_Win_wait)

int PMPI_Win_test(MPI_Win win, int *flag)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Win_test";
    WIN_OR_FAIL(fn, win, w);
    if (!flag)
        return TIDE_ERR_WIN(w, MPI_ERR_ARG, "%s: flag must not be NULL", fn);
    if (!w->post_group)
        return TIDE_ERR_WIN(w, MPI_ERR_RMA_SYNC, "%s: no exposure epoch is open (MPI_Win_post was not called)", fn);
    tide_progress();
    if (w->direct) {
        *flag = tide_rma_direct_completed(w, false);
        if (*flag)
            end_exposure(w);
        return finish(w, MPI_SUCCESS);
    }
    *flag = all_completed(w);
    if (*flag)
        end_exposure(w);
    return finish(w, MPI_SUCCESS);
}
TIDE_ALIAS(MPI_Win_test)

/* ---- passive target ---- */

static bool granted(void *arg)
{
    struct tide_win *w = arg;
    for (int i = 0; i < w->size; i++)
        if (w->peers[i].want_grant && w->peers[i].grants == 0 && !tide_rma_peer_gone(w, i))
            return false;
    return true;
}

/* every acknowledgement asked for has come (as a progress condition) */
static bool all_acked(void *arg)
{
    struct tide_win *w = arg;
    for (int i = 0; i < w->size; i++)
        if (w->peers[i].acks < w->peers[i].acks_wanted && !tide_rma_peer_gone(w, i))
            return false;
    return true;
}

/* Ask r for the lock (already marked held) unless nocheck. */
static int ask_lock(struct tide_win *w, int r, int type, bool nocheck)
{
    w->peers[r].held = type;
    w->peers[r].nocheck = nocheck;
    w->peers[r].want_grant = !nocheck && !w->direct;
    if (nocheck)
        return MPI_SUCCESS;
    if (w->direct) {
        tide_rma_direct_lock(w, r, type);
        return MPI_SUCCESS;
    }
    return tide_rma_send_marker(w, r, TIDE_RMA_LOCK, type);
}

static void take_grants(struct tide_win *w)
{
    if (!granted(w))
        tide_progress_until(granted, w);
    for (int i = 0; i < w->size; i++)
        if (w->peers[i].want_grant) {
            if (w->peers[i].grants) /* (none from a failed process) */
                w->peers[i].grants--;
            w->peers[i].want_grant = false;
        }
}

static int passive_checks(struct tide_win *w, const char *fn)
{
    if (w->no_locks)
        return TIDE_ERR_WIN(w, MPI_ERR_RMA_SYNC, "%s: the window was made with the hint no_locks=true", fn);
    if (w->start_group || w->post_group)
        return TIDE_ERR_WIN(w, MPI_ERR_RMA_SYNC, "%s: a PSCW epoch is open on the window", fn);
    if (fence_ops_pending(w))
        return TIDE_ERR_WIN(w, MPI_ERR_RMA_SYNC, "%s: operations of a fence epoch are not completed by MPI_Win_fence", fn);
    return MPI_SUCCESS;
}

int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Win_lock";
    WIN_OR_FAIL(fn, win, w);
    if (lock_type != MPI_LOCK_EXCLUSIVE && lock_type != MPI_LOCK_SHARED)
        return TIDE_ERR_WIN(w, MPI_ERR_LOCKTYPE, "%s: lock_type %d is neither MPI_LOCK_EXCLUSIVE nor MPI_LOCK_SHARED", fn,
                            lock_type);
    if (rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (rank < 0 || rank >= w->size)
        return TIDE_ERR_WIN(w, MPI_ERR_RANK, "%s: invalid rank %d (argument rank; the window has %d ranks)", fn, rank,
                            w->size);
    int rc = check_assert(w, assert, MPI_MODE_NOCHECK, fn);
    if (rc == MPI_SUCCESS)
        rc = passive_checks(w, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (w->lock_all || w->peers[rank].held)
        return TIDE_ERR_WIN(w, MPI_ERR_RMA_SYNC, "%s: the window is already locked at rank %d by this process", fn, rank);
    /* a failed target (ft/ft.h): no epoch is opened */
    if (__builtin_expect(tide_comm_faults != 0, 0) && (rc = tide_rma_target_failed(w, rank, fn)) != MPI_SUCCESS)
        return tide_raise_win(w, rc);
    w->fence_active = false;
    rc = ask_lock(w, rank, lock_type, assert & MPI_MODE_NOCHECK);
    if (rc != MPI_SUCCESS) {
        w->peers[rank].held = 0;
        return finish(w, rc);
    }
    w->locks_held++;
    take_grants(w);
    if (__builtin_expect(tide_comm_faults != 0, 0) && (rc = tide_rma_target_failed(w, rank, fn)) != MPI_SUCCESS) {
        /* it failed while we waited for the lock: none is held */
        w->peers[rank].held = 0;
        w->peers[rank].want_grant = false;
        w->locks_held--;
        tide_rma_take_error(w);
        return tide_raise_win(w, rc);
    }
    /* (errors of earlier operations go to the call that ends their epoch) */
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Win_lock)

/* Send r the end of its epoch (unlock, or a flush for a NOCHECK lock)
 * and count the answer to wait for. */
static int release(struct tide_win *w, int r)
{
    struct tide_rma_origin_state *o = &w->peers[r];
    if (w->direct) {
        atomic_thread_fence(memory_order_release);
        if (!o->nocheck)
            tide_rma_direct_unlock(w, r, o->held);
        return MPI_SUCCESS;
    }
    int rc = tide_rma_send_marker(w, r, o->nocheck ? TIDE_RMA_FLUSH : TIDE_RMA_UNLOCK, 0);
    if (rc == MPI_SUCCESS)
        o->acks_wanted++;
    return rc;
}

static void forget(struct tide_win *w, int r)
{
    tide_rma_check_forget(w, r);
    w->peers[r].held = 0;
    w->peers[r].nocheck = false;
    w->peers[r].dirty = false;
}

int PMPI_Win_unlock(int rank, MPI_Win win)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Win_unlock";
    WIN_OR_FAIL(fn, win, w);
    if (rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (rank < 0 || rank >= w->size)
        return TIDE_ERR_WIN(w, MPI_ERR_RANK, "%s: invalid rank %d (argument rank; the window has %d ranks)", fn, rank,
                            w->size);
    if (w->lock_all || !w->peers[rank].held)
        return TIDE_ERR_WIN(w, MPI_ERR_RMA_SYNC, "%s: the window is not locked at rank %d by MPI_Win_lock", fn, rank);
    tide_rma_wait_local(w, rank);
    int rc = release(w, rank);
    if (rc == MPI_SUCCESS)
        tide_rma_wait_acks(w, rank);
    forget(w, rank);
    w->locks_held--;
    return finish(w, rc);
}
TIDE_ALIAS(MPI_Win_unlock)

int PMPI_Win_lock_all(int assert, MPI_Win win)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Win_lock_all";
    WIN_OR_FAIL(fn, win, w);
    int rc = check_assert(w, assert, MPI_MODE_NOCHECK, fn);
    if (rc == MPI_SUCCESS)
        rc = passive_checks(w, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (w->lock_all || w->locks_held)
        return TIDE_ERR_WIN(w, MPI_ERR_RMA_SYNC, "%s: the window is already locked by this process", fn);
    w->fence_active = false;
    for (int r = 0; rc == MPI_SUCCESS && r < w->size; r++)
        rc = ask_lock(w, r, MPI_LOCK_SHARED, assert & MPI_MODE_NOCHECK);
    w->lock_all = true;
    take_grants(w);
    return finish(w, rc);
}
TIDE_ALIAS(MPI_Win_lock_all)


int PMPI_Win_unlock_all(MPI_Win win)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Win_unlock_all";
    WIN_OR_FAIL(fn, win, w);
    if (!w->lock_all)
        return TIDE_ERR_WIN(w, MPI_ERR_RMA_SYNC, "%s: the window is not locked by MPI_Win_lock_all", fn);
    tide_rma_wait_local(w, -1);
    int rc = MPI_SUCCESS;
    for (int r = 0; rc == MPI_SUCCESS && r < w->size; r++)
        if (w->peers[r].held)
            rc = release(w, r);
    if (!all_acked(w))
        tide_progress_until(all_acked, w);
    for (int r = 0; r < w->size; r++)
        forget(w, r);
    w->lock_all = false;
    return finish(w, rc);
}
TIDE_ALIAS(MPI_Win_unlock_all)

static int passive_to(struct tide_win *w, int rank, const char *fn)
{
    if (rank < 0 || rank >= w->size)
        return TIDE_ERR_WIN(w, MPI_ERR_RANK, "%s: invalid rank %d (argument rank; the window has %d ranks)", fn, rank,
                            w->size);
    if (!w->lock_all && !w->peers[rank].held)
        return TIDE_ERR_WIN(w, MPI_ERR_RMA_SYNC, "%s: no passive-target epoch is open to rank %d (lock it first)", fn,
                            rank);
    return MPI_SUCCESS;
}

/* flush r (remote completion of what was sent to it) */
static int flush_start(struct tide_win *w, int r)
{
    struct tide_rma_origin_state *o = &w->peers[r];
    /* direct: the stores are done, and they are seen in order with
     * whatever tells the target about them (a release fence suffices) */
    if (w->direct)
        atomic_thread_fence(memory_order_release);
    if (!o->dirty || w->direct)
        return MPI_SUCCESS;
    int rc = tide_rma_send_marker(w, r, TIDE_RMA_FLUSH, 0);
    if (rc == MPI_SUCCESS)
        o->acks_wanted++;
    o->dirty = false;
    return rc;
}

int PMPI_Win_flush(int rank, MPI_Win win)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Win_flush";
    WIN_OR_FAIL(fn, win, w);
    if (rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    int rc = passive_to(w, rank, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    tide_rma_wait_local(w, rank);
    rc = flush_start(w, rank);
    tide_rma_wait_acks(w, rank);
    tide_rma_check_forget(w, rank);
    return finish(w, rc);
}
TIDE_ALIAS(MPI_Win_flush)

static int passive_any(struct tide_win *w, const char *fn)
{
    if (!w->lock_all && !w->locks_held)
        return TIDE_ERR_WIN(w, MPI_ERR_RMA_SYNC, "%s: no passive-target epoch is open (lock the window first)", fn);
    return MPI_SUCCESS;
}

int PMPI_Win_flush_all(MPI_Win win)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Win_flush_all";
    WIN_OR_FAIL(fn, win, w);
    int rc = passive_any(w, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    tide_rma_wait_local(w, -1);
    for (int r = 0; rc == MPI_SUCCESS && r < w->size; r++)
        if (w->lock_all || w->peers[r].held)
            rc = flush_start(w, r);
    if (!all_acked(w))
        tide_progress_until(all_acked, w);
    tide_rma_check_forget(w, -1);
    return finish(w, rc);
}
TIDE_ALIAS(MPI_Win_flush_all)

int PMPI_Win_flush_local(int rank, MPI_Win win)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Win_flush_local";
    WIN_OR_FAIL(fn, win, w);
    if (rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    int rc = passive_to(w, rank, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    tide_rma_wait_local(w, rank);
    return finish(w, MPI_SUCCESS);
}
TIDE_ALIAS(MPI_Win_flush_local)

int PMPI_Win_flush_local_all(MPI_Win win)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Win_flush_local_all";
    WIN_OR_FAIL(fn, win, w);
    int rc = passive_any(w, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    tide_rma_wait_local(w, -1);
    return finish(w, MPI_SUCCESS);
}
TIDE_ALIAS(MPI_Win_flush_local_all)

int PMPI_Win_sync(MPI_Win win)
{
    TIDE_API_ENTER();
    WIN_OR_FAIL("MPI_Win_sync", win, w);
    /* the public and private copies are one (unified model): order this
     * process's loads and stores, and serve what arrived */
    atomic_thread_fence(memory_order_seq_cst);
    tide_progress();
    atomic_thread_fence(memory_order_seq_cst);
    return finish(w, MPI_SUCCESS);
}
TIDE_ALIAS(MPI_Win_sync)
