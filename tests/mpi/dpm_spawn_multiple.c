/*
 * dpm_spawn_multiple.c: MPI_Comm_spawn_multiple with two commands with
 * their own argv, maxprocs and working directory; the children check
 * MPI_APPNUM, their argv and their directory. Usage: dpm_spawn_multiple DIR
 */
#include "testutil.h"

#include <limits.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent == MPI_COMM_NULL) {
        CHECK(argc > 1, "usage: dpm_spawn_multiple DIR");
        char *cmds[2] = {argv[0], argv[0]};
        char *a0[] = {"first", "x", NULL}, *a1[] = {"second", NULL};
        char **argvs[2] = {a0, a1};
        int maxprocs[2] = {2, 3};
        MPI_Info infos[2];
        MPI_Info_create(&infos[0]);
        MPI_Info_create(&infos[1]);
        MPI_Info_set(infos[0], "wdir", "/tmp");
        MPI_Info_set(infos[1], "wdir", argv[1]);
        MPI_Comm inter;
        int errs[5] = {-1, -1, -1, -1, -1};
        CHECK_OK(MPI_Comm_spawn_multiple(2, cmds, argvs, maxprocs, infos, 0, MPI_COMM_WORLD, &inter, errs));
        /* one code per process started, on every rank */
        for (int i = 0; i < 5; i++)
            CHECK(errs[i] == MPI_SUCCESS, "errcode %d = %d", i, errs[i]);
        int rsize;
        MPI_Comm_remote_size(inter, &rsize);
        CHECK(rsize == 5, "remote size %d", rsize);
        int ok = 0, total = 0, rank;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        for (int i = 0; rank == 0 && i < 5; i++) {
            CHECK_OK(MPI_Recv(&ok, 1, MPI_INT, i, 0, inter, MPI_STATUS_IGNORE));
            total += ok;
        }
        CHECK(rank != 0 || total == 5, "%d children are happy", total);
        MPI_Info_free(&infos[0]);
        MPI_Info_free(&infos[1]);
        MPI_Comm_disconnect(&inter);
    } else {
        int rank, *appnum, flag;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag);
        char cwd[PATH_MAX];
        CHECK(getcwd(cwd, sizeof cwd), "getcwd");
        int ok;
        if (rank < 2)
            ok = *appnum == 0 && strcmp(argv[1], "first") == 0 && argc == 3 && strcmp(argv[2], "x") == 0 &&
                 strcmp(cwd, "/tmp") == 0;
        else
            ok = *appnum == 1 && strcmp(argv[1], "second") == 0 && argc == 2 && strcmp(cwd, "/tmp") != 0;
        if (!ok)
            fprintf(stderr, "child %d: appnum %d argv1 %s cwd %s\n", rank, *appnum, argv[1], cwd);
        CHECK_OK(MPI_Send(&ok, 1, MPI_INT, 0, 0, parent));
        MPI_Comm_disconnect(&parent);
    }
    MPI_Finalize();
    return 0;
}
