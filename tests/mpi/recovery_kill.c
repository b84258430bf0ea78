/*
 * recovery_kill.c: ranks fail and the others are told (recovery mode,
 * docs/FAULTS.md). Usage: recovery_kill kill|exit|nofinalize RANKS CODE
 * Every rank registers a PMIx handler for PMIX_ERR_PROC_TERM_WO_SYNC;
 * after a barrier the ranks of the comma-separated list RANKS fail at
 * once (kill: SIGKILL to themselves; exit: exit(3) without MPI_Finalize;
 * nofinalize: exit(0) without MPI_Finalize). Every other rank waits (30 s
 * at most) for the events naming them, meets the other survivors (a PMIx
 * fence over them), then checks it got exactly one event per failed rank,
 * each with exit code CODE, and finalizes. Each survivor prints
 * "recovery_kill: rank R ok (N events)".
 */
#include "recovery_events.h"

#include <mpi.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef RECOVERY_HAVE_PMIX
int main(void)
{
    fprintf(stderr, "recovery_kill: built without pmix.h (suite_recovery.sh builds it with pmix's flags)\n");
    return 77;
}
#else

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: recovery_kill kill|exit|nofinalize RANKS CODE\n");
        return 2;
    }
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int victims[64], nvictims = 0;
    bool victim = false;
    for (char *p = argv[2]; *p && nvictims < 64;) {
        victims[nvictims] = (int)strtol(p, &p, 10);
        if (victims[nvictims] == rank)
            victim = true;
        nvictims++;
        if (*p == ',')
            p++;
    }
    int want_code = atoi(argv[3]);
    pmix_proc_t me;
    if (recovery_register(&me, "recovery_kill") != 0)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    if (victim) {
        if (strcmp(argv[1], "kill") == 0)
            raise(SIGKILL);
        exit(strcmp(argv[1], "exit") == 0 ? 3 : 0);
    }
    char who[64];
    snprintf(who, sizeof who, "recovery_kill: rank %d", rank);
    int fail = 0;
    if (recovery_wait(me.nspace, NULL, victims, nvictims, 30) != 0) {
        fprintf(stderr, "%s: not every failure was reported within 30 s\n", who);
        fail = 1;
    }
    /* the survivors meet: an event sent twice would have come by now */
    pmix_proc_t *alive = calloc((size_t)size, sizeof *alive);
    size_t nalive = 0;
    for (int r = 0; r < size; r++) {
        bool dead = false;
        for (int v = 0; v < nvictims; v++)
            dead |= victims[v] == r;
        if (!dead) {
            PMIX_PROC_LOAD(&alive[nalive], me.nspace, (pmix_rank_t)r); /* a macro: no ++ inside */
            nalive++;
        }
    }
    if (!fail && PMIx_Fence(alive, nalive, NULL, 0) != PMIX_SUCCESS) {
        fprintf(stderr, "%s: the fence of the survivors failed\n", who);
        fail = 1;
    }
    free(alive);
    if (!fail && recovery_check(who, me.nspace, NULL, victims, nvictims, want_code) != 0)
        fail = 1;
    if (!fail)
        printf("%s ok (%d events)\n", who, nvictims);
    fflush(stdout);
    PMIx_Finalize(NULL, 0);
    MPI_Finalize();
    return fail;
}
#endif
