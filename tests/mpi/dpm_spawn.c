/*
 * dpm_spawn.c: MPI_Comm_spawn of N copies of this program, the children's
 * MPI_Comm_get_parent, messages both ways over the intercommunicator,
 * MPI_UNIVERSE_SIZE and MPI_APPNUM, and MPI_Comm_disconnect.
 * Usage: dpm_spawn N [root]
 */
#include "testutil.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (parent == MPI_COMM_NULL) {
        int n = argc > 1 ? atoi(argv[1]) : 2;
        int root = argc > 2 ? atoi(argv[2]) : 0;
        int *univ, flag;
        MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &univ, &flag);
        CHECK(flag && *univ >= 1, "MPI_UNIVERSE_SIZE");
        char *cargv[] = {"child", NULL};
        MPI_Comm inter;
        int errcodes[64];
        for (int i = 0; i < 64; i++)
            errcodes[i] = -1;
        CHECK_OK(MPI_Comm_spawn(argv[0], cargv, n, MPI_INFO_NULL, root, MPI_COMM_WORLD, &inter, errcodes));
        int flag2, rsize, lsize;
        MPI_Comm_test_inter(inter, &flag2);
        MPI_Comm_remote_size(inter, &rsize);
        MPI_Comm_size(inter, &lsize);
        CHECK(flag2 && rsize == n && lsize == size, "intercomm: inter %d remote %d local %d", flag2, rsize, lsize);
        /* filled on every rank, not only at the root */
        for (int i = 0; i < n; i++)
            CHECK(errcodes[i] == MPI_SUCCESS, "errcode %d = %d", i, errcodes[i]);
        /* every parent sends its rank to every child; children answer */
        for (int c = 0; c < n; c++) {
            int v = rank * 100 + c;
            CHECK_OK(MPI_Send(&v, 1, MPI_INT, c, 1, inter));
        }
        for (int c = 0; c < n; c++) {
            int v;
            MPI_Status st;
            CHECK_OK(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 2, inter, &st));
            CHECK(v == st.MPI_SOURCE * 1000 + rank, "answer %d from %d", v, st.MPI_SOURCE);
        }
        CHECK_OK(MPI_Comm_disconnect(&inter));
        CHECK(inter == MPI_COMM_NULL, "disconnect did not null the handle");
        if (rank == 0)
            printf("parent: %d children spawned and answered\n", n);
    } else {
        CHECK(argc > 1 && strcmp(argv[1], "child") == 0, "child argv");
        int *appnum, flag;
        MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag);
        CHECK(flag && *appnum == 0, "child MPI_APPNUM");
        int psize, flag2;
        MPI_Comm_remote_size(parent, &psize);
        MPI_Comm_test_inter(parent, &flag2);
        CHECK(flag2, "parent is not an intercommunicator");
        for (int p = 0; p < psize; p++) {
            int v;
            MPI_Status st;
            CHECK_OK(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 1, parent, &st));
            CHECK(v == st.MPI_SOURCE * 100 + rank, "from parent %d got %d", st.MPI_SOURCE, v);
            int a = rank * 1000 + st.MPI_SOURCE;
            CHECK_OK(MPI_Send(&a, 1, MPI_INT, st.MPI_SOURCE, 2, parent));
        }
        CHECK_OK(MPI_Comm_disconnect(&parent));
        MPI_Comm_get_parent(&parent);
        CHECK(parent == MPI_COMM_NULL, "MPI_Comm_get_parent after disconnect");
    }
    MPI_Finalize();
    return 0;
}
