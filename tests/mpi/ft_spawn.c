/*
 * ft_spawn.c: failures across an intercommunicator of MPI_Comm_spawn
 * (run under mpiexec --enable-recovery). Usage: ft_spawn NCHILDREN VICTIM
 * [init|run]: the parents spawn NCHILDREN copies; child VICTIM kills itself
 * after the first exchange (with "init": before MPI_Init, so it never
 * joins, and the spawn itself must report it).
 *
 * Without "init": every parent receives one number from every child; the
 * victim then dies while the parents wait for a second one: the receive
 * from it ends with MPIX_ERR_PROC_FAILED, the others arrive. Parents and
 * surviving children then shrink the intercommunicator together, and an
 * MPI_Allreduce across the shrunk intercommunicator gives each side the
 * other's sum. With "init": MPI_Comm_spawn returns at the parents (an
 * error, or success with the victim's error code set), and nothing hangs.
 */
#include "testutil.h"

#include <mpi-ext.h>
#include <signal.h>

static int cls_of(int rc)
{
    int c = MPI_SUCCESS;
    if (rc)
        MPI_Error_class(rc, &c);
    return c;
}

int main(int argc, char **argv)
{
    int nchildren = argc > 1 ? atoi(argv[1]) : 3;
    int victim = argc > 2 ? atoi(argv[2]) : 1;
    int at_init = argc > 3 && !strcmp(argv[3], "init");
    int is_child = argc > 4 && !strcmp(argv[4], "child"); /* the parents add it */
    if (is_child && at_init) {
        /* which child am I? PMIx's rank is not known before MPI_Init: the
         * launcher's variable is */
        const char *r = getenv("PMIX_RANK");
        if (r && atoi(r) == victim)
            raise(SIGKILL);
    }
    MPI_Init(&argc, &argv);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (parent == MPI_COMM_NULL) {
        MPI_Info info;
        MPI_Info_create(&info);
        MPI_Comm ic;
        int *codes = calloc((size_t)nchildren, sizeof(int));
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        char n[16], vs[16];
        snprintf(n, sizeof n, "%d", nchildren);
        snprintf(vs, sizeof vs, "%d", victim);
        char *cargv[] = {n, vs, at_init ? "init" : "run", "child", NULL};
        int rc = MPI_Comm_spawn(argv[0], cargv, nchildren, info, 0, MPI_COMM_WORLD, &ic, codes);
        MPI_Info_free(&info);
        if (at_init) {
            int cls = cls_of(rc);
            CHECK(cls == MPI_SUCCESS || cls == MPI_ERR_SPAWN || cls == MPIX_ERR_PROC_FAILED,
                  "spawn with a child dying in MPI_Init: class %d", cls);
            if (rank == 0)
                printf("ft_spawn: init death reported (class %d, code of child %d: %d)\n", cls, victim,
                       codes[victim]);
            if (ic != MPI_COMM_NULL)
                MPI_Comm_free(&ic);
            free(codes);
            MPI_Finalize();
            return 0;
        }
        CHECK_OK(rc);
        free(codes);
        MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN);
        int v;
        for (int c = 0; c < nchildren; c++) {
            CHECK_OK(MPI_Recv(&v, 1, MPI_INT, c, 1, ic, MPI_STATUS_IGNORE));
            CHECK(v == 100 + c, "first number from child %d: %d", c, v);
        }
        int here = 1;
        CHECK_OK(MPIX_Comm_agree(ic, &here));
        for (int c = 0; c < nchildren; c++) {
            rc = MPI_Recv(&v, 1, MPI_INT, c, 2, ic, MPI_STATUS_IGNORE);
            if (c == victim) {
                CHECK(cls_of(rc) == MPIX_ERR_PROC_FAILED, "receive from the dead child: class %d", cls_of(rc));
            } else {
                CHECK_OK(rc);
                CHECK(v == 200 + c, "second number from child %d: %d", c, v);
            }
        }
        MPI_Comm small;
        CHECK_OK(MPIX_Comm_shrink(ic, &small));
        int rs;
        MPI_Comm_remote_size(small, &rs);
        CHECK(rs == nchildren - 1, "remote size after shrink %d", rs);
        int mine = 1, theirs = 0;
        CHECK_OK(MPI_Allreduce(&mine, &theirs, 1, MPI_INT, MPI_SUM, small));
        CHECK(theirs == 10 * (nchildren - 1), "children's sum %d", theirs);
        MPI_Comm_free(&small);
        MPI_Comm_free(&ic);
        if (rank == 0)
            printf("ft_spawn: %d children, child %d failed, %d shrunk\n", nchildren, victim, rs);
    } else {
        MPI_Comm_set_errhandler(parent, MPI_ERRORS_RETURN);
        int psize;
        MPI_Comm_remote_size(parent, &psize);
        for (int p = 0; p < psize; p++) {
            int v = 100 + rank;
            CHECK_OK(MPI_Send(&v, 1, MPI_INT, p, 1, parent));
        }
        /* everyone has its first number (an agreement: the victim leaves
         * it before it dies) */
        int here = 1;
        CHECK_OK(MPIX_Comm_agree(parent, &here));
        if (rank == victim)
            raise(SIGKILL);
        for (int p = 0; p < psize; p++) {
            int v = 200 + rank;
            CHECK_OK(MPI_Send(&v, 1, MPI_INT, p, 2, parent));
        }
        MPI_Comm small;
        int rc = MPIX_Comm_shrink(parent, &small);
        CHECK_OK(rc);
        int mine = 10, theirs = 0;
        CHECK_OK(MPI_Allreduce(&mine, &theirs, 1, MPI_INT, MPI_SUM, small));
        CHECK(theirs == psize, "parents' sum %d", theirs);
        MPI_Comm_free(&small);
        MPI_Comm_free(&parent);
    }
    MPI_Finalize();
    return 0;
}
