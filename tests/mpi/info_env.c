/*
 * info_env.c: MPI_INFO_ENV. Usage: info_env NPROCS THREAD_LEVEL [ARGS...]
 * (THREAD_LEVEL: single or multiple, the level asked of MPI_Init_thread).
 * Checks command, argv, maxprocs, thread_level, wdir (the directory it
 * was started in) and that the object is predefined (not freed, dup-able);
 * prints mpi_initial_errhandler (mpiexec -initial-errhandler).
 */
#include "testutil.h"

#include <unistd.h>

static int get(const char *key, char *v)
{
    int flag = 0;
    CHECK_OK(MPI_Info_get(MPI_INFO_ENV, key, MPI_MAX_INFO_VAL, v, &flag));
    return flag;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: info_env NPROCS single|multiple [ARGS...]\n");
        return 2;
    }
    int want = strcmp(argv[2], "multiple") == 0 ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, got;
    char cwd[4096];
    CHECK(getcwd(cwd, sizeof cwd) != NULL, "getcwd");
    MPI_Init_thread(&argc, &argv, want, &got);
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    char v[MPI_MAX_INFO_VAL + 1];
    CHECK(get("command", v), "no command");
    CHECK(strstr(v, "info_env") != NULL, "command '%s'", v);
    char args[MPI_MAX_INFO_VAL + 1] = "";
    for (int i = 1; i < argc; i++) {
        if (i > 1)
            strcat(args, " ");
        strcat(args, argv[i]);
    }
    CHECK(get("argv", v), "no argv");
    CHECK(strcmp(v, args) == 0, "argv '%s', expected '%s'", v, args);
    CHECK(get("maxprocs", v), "no maxprocs");
    CHECK(strcmp(v, argv[1]) == 0, "maxprocs '%s', expected %s", v, argv[1]);
    CHECK(get("thread_level", v), "no thread_level");
    CHECK(strcmp(v, want == MPI_THREAD_MULTIPLE ? "MPI_THREAD_MULTIPLE" : "MPI_THREAD_SINGLE") == 0,
          "thread_level '%s'", v);
    CHECK(get("wdir", v), "no wdir");
    CHECK(strcmp(v, cwd) == 0, "wdir '%s', expected '%s'", v, cwd);
    CHECK(get("host", v) && v[0], "no host");
    CHECK(get("arch", v) && v[0], "no arch");
    char errh[MPI_MAX_INFO_VAL + 1];
    CHECK(get("mpi_initial_errhandler", errh), "no mpi_initial_errhandler");
    int n = 0;
    CHECK_OK(MPI_Info_get_nkeys(MPI_INFO_ENV, &n));
    CHECK(n >= 7, "MPI_INFO_ENV has %d keys", n);
    MPI_Info copy, env = MPI_INFO_ENV;
    CHECK_OK(MPI_Info_dup(MPI_INFO_ENV, &copy));
    CHECK_OK(MPI_Info_set(copy, "mine", "yes"));
    CHECK_OK(MPI_Info_free(&copy));
    CHECK_ERR(MPI_Info_free(&env), MPI_ERR_INFO);
    CHECK_ERR(MPI_Info_set(MPI_INFO_ENV, "mine", "no"), MPI_ERR_INFO);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("info_env: ok (%d keys, mpi_initial_errhandler %s)\n", n, errh);
    MPI_Finalize();
    return 0;
}
