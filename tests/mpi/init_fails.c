/*
 * init_fails.c: what MPI_Init does when the process cannot join its job.
 * Usage:
 *   init_fails join     MPI_Init alone (run with a PMIx server that is not
 *                       there): prints "init_fails: MPI_Init returned ..."
 *                       when it returns instead of ending the process.
 *   init_fails orphan   (under mpiexec --enable-recovery, 2 ranks) rank 0
 *                       spawns one child and is killed by it before the
 *                       child's MPI_Init joins its parents; a child that
 *                       comes out of MPI_Init says whether it has a parent
 *                       ("init_fails: child went on ...").
 * By default MPI_Init must end the process with the reason (the initial
 * error handler is MPI_ERRORS_ARE_FATAL); with initial_errhandler set to
 * mpi_errors_return it returns the error instead.
 */
#include "testutil.h"

#include <errno.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

static void said_init(int rc)
{
    char msg[MPI_MAX_ERROR_STRING] = "";
    int len = 0, cls = -1;
    MPI_Error_class(rc, &cls);
    MPI_Error_string(rc, msg, &len);
    printf("init_fails: MPI_Init returned class %d: %s\n", cls, msg);
    fflush(stdout);
}

/* Kill pid and wait (bounded) until it is gone or a zombie. */
static void kill_and_wait(pid_t pid)
{
    kill(pid, SIGKILL);
    for (int i = 0; i < 2000; i++) {
        char path[64], st = '?';
        snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
        FILE *f = fopen(path, "r");
        if (!f)
            return;
        int ok = fscanf(f, "%*d %*s %c", &st);
        fclose(f);
        if (ok == 1 && (st == 'Z' || st == 'X'))
            return;
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "join";
    if (!strcmp(mode, "join")) {
        int rc = MPI_Init(&argc, &argv);
        if (rc != MPI_SUCCESS) {
            said_init(rc);
            return 0;
        }
        printf("init_fails: MPI_Init succeeded\n");
        MPI_Finalize();
        return 0;
    }
    if (!strcmp(mode, "orphan-child")) {
        /* the parent rank dies before we try to join it */
        kill_and_wait((pid_t)atoi(argv[2]));
        int rc = MPI_Init(&argc, &argv);
        if (rc != MPI_SUCCESS)
            said_init(rc);
        MPI_Comm parent = MPI_COMM_NULL;
        if (rc == MPI_SUCCESS)
            MPI_Comm_get_parent(&parent);
        printf("init_fails: child went on (%s)\n", parent == MPI_COMM_NULL ? "no parent" : "with its parent");
        fflush(stdout);
        if (rc == MPI_SUCCESS)
            MPI_Finalize();
        return 0;
    }
    /* orphan: the parents */
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    char pid[32];
    snprintf(pid, sizeof pid, "%d", (int)getpid());
    MPI_Bcast(pid, sizeof pid, MPI_CHAR, 0, MPI_COMM_WORLD);
    char *cargv[] = {"orphan-child", pid, NULL};
    MPI_Comm ic;
    int code = MPI_SUCCESS;
    int rc = MPI_Comm_spawn(argv[0], cargv, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic, &code);
    /* rank 0 is dead by now; rank 1 learns the spawn failed */
    printf("init_fails: rank %d: the spawn %s\n", rank, rc == MPI_SUCCESS ? "succeeded" : "failed");
    fflush(stdout);
    if (rc == MPI_SUCCESS)
        MPI_Comm_disconnect(&ic);
    return 0;
}
