/*
 * recovery_spawn.c: recovery mode chosen per spawned job. Usage:
 * recovery_spawn true|false: one parent spawns 3 children (itself, with
 * argument "child") with the info key enable_recovery set to the given
 * value. Parent and children register a PMIx handler for
 * PMIX_ERR_PROC_TERM_WO_SYNC first and swap their namespaces; then child
 * 1 kills itself with SIGKILL. The parent and children 0 and 2 wait for
 * the event naming child 1 (exit code 128 + 9), meet (a PMIx fence over
 * the three of them), check it was their only event and finalize. The
 * parent prints "recovery_spawn: ok" when everything agreed. With
 * enable_recovery=false, mpiexec ends the run when child 1 dies, as it
 * does without recovery mode.
 */
#include "recovery_events.h"

#include <mpi.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef RECOVERY_HAVE_PMIX
int main(void)
{
    fprintf(stderr, "recovery_spawn: built without pmix.h (suite_recovery.sh builds it with pmix's flags)\n");
    return 77;
}
#else

#define NCHILDREN 3
#define VICTIM 1

/* The fence of the survivors (the parent, children 0 and 2), then the
 * check of the events: one, naming the victim. */
static int survivors_meet(const char *who, const char *parent_ns, const char *child_ns)
{
    pmix_proc_t alive[3];
    PMIX_PROC_LOAD(&alive[0], parent_ns, 0);
    PMIX_PROC_LOAD(&alive[1], child_ns, 0);
    PMIX_PROC_LOAD(&alive[2], child_ns, 2);
    int victim = VICTIM;
    if (recovery_wait(child_ns, NULL, &victim, 1, 30) != 0) {
        fprintf(stderr, "%s: the failure of child %d was not reported within 30 s\n", who, VICTIM);
        return 1;
    }
    if (PMIx_Fence(alive, 3, NULL, 0) != PMIX_SUCCESS) {
        fprintf(stderr, "%s: the fence of the survivors failed\n", who);
        return 1;
    }
    return recovery_check(who, child_ns, NULL, &victim, 1, 128 + SIGKILL) != 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    pmix_proc_t me;
    if (recovery_register(&me, "recovery_spawn") != 0)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    char parent_ns[PMIX_MAX_NSLEN + 1] = "", child_ns[PMIX_MAX_NSLEN + 1] = "";
    int fail = 0;
    if (parent == MPI_COMM_NULL) {
        if (argc != 2) {
            fprintf(stderr, "usage: recovery_spawn true|false\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        MPI_Info info;
        MPI_Info_create(&info);
        MPI_Info_set(info, "enable_recovery", argv[1]);
        char *child_argv[] = {"child", NULL};
        MPI_Comm children;
        int errs[NCHILDREN];
        MPI_Comm_spawn(argv[0], child_argv, NCHILDREN, info, 0, MPI_COMM_SELF, &children, errs);
        MPI_Info_free(&info);
        snprintf(parent_ns, sizeof parent_ns, "%s", me.nspace);
        for (int c = 0; c < NCHILDREN; c++)
            MPI_Send(parent_ns, (int)sizeof parent_ns, MPI_CHAR, c, 0, children);
        MPI_Recv(child_ns, (int)sizeof child_ns, MPI_CHAR, 0, 0, children, MPI_STATUS_IGNORE);
        fail = survivors_meet("recovery_spawn: parent", parent_ns, child_ns);
        if (!fail)
            printf("recovery_spawn: ok\n");
    } else {
        int rank;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        snprintf(child_ns, sizeof child_ns, "%s", me.nspace);
        MPI_Recv(parent_ns, (int)sizeof parent_ns, MPI_CHAR, 0, 0, parent, MPI_STATUS_IGNORE);
        if (rank == 0)
            MPI_Send(child_ns, (int)sizeof child_ns, MPI_CHAR, 0, 0, parent);
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == VICTIM)
            raise(SIGKILL);
        char who[64];
        snprintf(who, sizeof who, "recovery_spawn: child %d", rank);
        fail = survivors_meet(who, parent_ns, child_ns);
    }
    fflush(stdout);
    PMIx_Finalize(NULL, 0);
    MPI_Finalize();
    return fail;
}
#endif
