/*
 * dpm_nested.c: children of children: the first job spawns 2 children,
 * which together spawn 1 grandchild; a token goes down and back up.
 */
#include "testutil.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent, child;
    MPI_Comm_get_parent(&parent);
    int depth = argc > 1 ? atoi(argv[1]) : 0;
    int v = 0;
    int myrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    /* only rank 0 of each job takes part in passing the token */
    if (parent != MPI_COMM_NULL && myrank == 0)
        CHECK_OK(MPI_Recv(&v, 1, MPI_INT, 0, 0, parent, MPI_STATUS_IGNORE));
    if (depth < 2) {
        char d[16];
        snprintf(d, sizeof d, "%d", depth + 1);
        char *cargv[] = {d, NULL};
        CHECK_OK(MPI_Comm_spawn(argv[0], cargv, depth == 0 ? 2 : 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &child,
                                MPI_ERRCODES_IGNORE));
        int rank, n;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm_remote_size(child, &n);
        CHECK(n == (depth == 0 ? 2 : 1), "remote size %d", n);
        if (rank == 0) {
            int t = v + 1;
            CHECK_OK(MPI_Send(&t, 1, MPI_INT, 0, 0, child));
            CHECK_OK(MPI_Recv(&t, 1, MPI_INT, 0, 1, child, MPI_STATUS_IGNORE));
            v = t;
        }
        MPI_Comm_disconnect(&child);
    } else {
        v = v * 10;
    }
    if (parent != MPI_COMM_NULL) {
        int rank;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        if (rank == 0)
            CHECK_OK(MPI_Send(&v, 1, MPI_INT, 0, 1, parent));
        MPI_Comm_disconnect(&parent);
    } else {
        int rank;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        /* the grandchild gets 2 and answers 20, passed back up */
        if (rank == 0) {
            CHECK(v == 20, "nested spawn result %d", v);
            printf("nested spawn result %d\n", v);
        }
    }
    MPI_Finalize();
    return 0;
}
