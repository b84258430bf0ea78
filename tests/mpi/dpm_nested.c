/*
 * dpm_nested.c: children of children: the first job spawns 2, each of
 * which spawns 1 grandchild; a token goes down and back up.
 */
#include "testutil.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent, child;
    MPI_Comm_get_parent(&parent);
    int depth = argc > 1 ? atoi(argv[1]) : 0;
    int v = 0;
    if (parent != MPI_COMM_NULL)
        CHECK_OK(MPI_Recv(&v, 1, MPI_INT, 0, 0, parent, MPI_STATUS_IGNORE));
    if (depth < 2) {
        char d[8];
        snprintf(d, sizeof d, "%d", depth + 1);
        char *cargv[] = {d, NULL};
        CHECK_OK(MPI_Comm_spawn(argv[0], cargv, depth == 0 ? 2 : 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &child,
                                MPI_ERRCODES_IGNORE));
        int rank, n;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm_remote_size(child, &n);
        if (rank == 0) {
            int sum = 0;
            for (int i = 0; i < n; i++) {
                int t = v + 1;
                CHECK_OK(MPI_Send(&t, 1, MPI_INT, i, 0, child));
            }
            for (int i = 0; i < n; i++) {
                int t;
                CHECK_OK(MPI_Recv(&t, 1, MPI_INT, i, 1, child, MPI_STATUS_IGNORE));
                sum += t;
            }
            v = sum;
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
        /* grandchildren get 2 and answer 20; each child sums 20; the top sums 40 */
        if (rank == 0) {
            CHECK(v == 40, "nested spawn result %d", v);
            printf("nested spawn result %d\n", v);
        }
    }
    MPI_Finalize();
    return 0;
}
