/*
 * recovery_node.c: a node daemon is lost in recovery mode (run with
 * several simulated nodes, TIDE_SIM_NODES, and --map-by node). Every rank
 * reports its pid and its daemon's (its parent) to rank 0, which finds
 * the ranks that share the last rank's daemon: they are lost with it.
 * Rank 0 opens a pidfd on each of them; then, after a barrier, the last
 * rank kills its daemon with SIGKILL. The ranks of the other nodes wait
 * for one PMIX_ERR_PROC_TERM_WO_SYNC event per lost rank (exit code
 * 128 + 9), meet (a PMIx fence over the survivors) and check they had no
 * other event; rank 0 also waits (on the pidfds) until every lost rank
 * has gone: none may live on as an orphan. Rank 0 prints
 * "recovery_node: ok: N ranks lost with their node, all gone".
 */
#define _GNU_SOURCE
#include "recovery_events.h"

#include <mpi.h>

#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef RECOVERY_HAVE_PMIX
int main(void)
{
    fprintf(stderr, "recovery_node: built without pmix.h (suite_recovery.sh builds it with pmix's flags)\n");
    return 77;
}
#else

/* Wait (at most seconds) until every pidfd says its process ended. */
static int wait_gone(const int *fds, int n, int seconds)
{
    struct pollfd *p = calloc((size_t)n, sizeof *p);
    int left = 0;
    for (int i = 0; i < n; i++)
        if (fds[i] >= 0) {
            p[left].fd = fds[i];
            p[left].events = POLLIN;
            left++;
        }
    int rc = 0;
    while (left > 0) {
        int k = poll(p, (nfds_t)left, seconds * 1000);
        if (k <= 0) {
            rc = -1;
            break;
        }
        /* drop the ended ones */
        int j = 0;
        for (int i = 0; i < left; i++)
            if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
                p[j++] = p[i];
        left = j;
    }
    free(p);
    return rc;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    pmix_proc_t me;
    if (recovery_register(&me, "recovery_node") != 0)
        MPI_Abort(MPI_COMM_WORLD, 1);
    long mine[2] = {(long)getpid(), (long)getppid()};
    long *all = malloc(2 * sizeof(long) * (size_t)size);
    MPI_Gather(mine, 2, MPI_LONG, all, 2, MPI_LONG, 0, MPI_COMM_WORLD);
    int *lost = calloc((size_t)size, sizeof(int));
    int *pidfds = malloc(sizeof(int) * (size_t)size);
    if (rank == 0) {
        for (int r = 0; r < size; r++) {
            lost[r] = all[2 * r + 1] == all[2 * (size - 1) + 1];
            pidfds[r] = lost[r] ? (int)syscall(SYS_pidfd_open, (pid_t)all[2 * r], 0) : -1;
        }
        if (lost[0]) {
            fprintf(stderr, "recovery_node: rank 0 shares the last rank's node: run with --map-by node\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    MPI_Bcast(lost, size, MPI_INT, 0, MPI_COMM_WORLD);
    int nlost = 0, *lost_ranks = calloc((size_t)size, sizeof(int));
    for (int r = 0; r < size; r++)
        if (lost[r])
            lost_ranks[nlost++] = r;
    MPI_Barrier(MPI_COMM_WORLD);
    if (lost[rank]) {
        /* gone with the daemon; the alarm only ends an orphan that a
         * broken runtime left behind (rank 0 has noticed by then) */
        alarm(60);
        if (rank == size - 1)
            kill(getppid(), SIGKILL);
        for (;;)
            pause();
    }
    char who[64];
    snprintf(who, sizeof who, "recovery_node: rank %d", rank);
    int fail = 0;
    if (recovery_wait(me.nspace, NULL, lost_ranks, nlost, 30) != 0) {
        fprintf(stderr, "%s: not every lost rank was reported within 30 s\n", who);
        fail = 1;
    }
    pmix_proc_t *alive = calloc((size_t)size, sizeof *alive);
    size_t nalive = 0;
    for (int r = 0; r < size; r++)
        if (!lost[r]) {
            PMIX_PROC_LOAD(&alive[nalive], me.nspace, (pmix_rank_t)r);
            nalive++;
        }
    if (!fail && PMIx_Fence(alive, nalive, NULL, 0) != PMIX_SUCCESS) {
        fprintf(stderr, "%s: the fence of the survivors failed\n", who);
        fail = 1;
    }
    if (!fail && recovery_check(who, me.nspace, NULL, lost_ranks, nlost, 128 + SIGKILL) != 0)
        fail = 1;
    if (rank == 0 && wait_gone(pidfds, size, 20) != 0) {
        fprintf(stderr, "%s: a rank of the lost node is still alive 20 s later\n", who);
        fail = 1;
    }
    if (rank == 0 && !fail)
        printf("recovery_node: ok: %d ranks lost with their node, all gone\n", nlost);
    fflush(stdout);
    free(alive);
    free(lost_ranks);
    free(lost);
    free(pidfds);
    free(all);
    PMIx_Finalize(NULL, 0);
    MPI_Finalize();
    return fail;
}
#endif
