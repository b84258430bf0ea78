/*
 * p2p_sync.c: synchronous mode means what it says: MPI_Issend does not
 * complete, however long the sender tests, until the receive is posted;
 * a standard eager send completes at once without a receive.
 */
#include "testutil.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int sizes[] = {0, 8, 100000, 2 << 20};
    for (int k = 0; k < 4; k++) {
        int n = sizes[k];
        char *b = calloc((size_t)n + 1, 1);
        if (rank == 0) {
            MPI_Request r;
            int flag = 0;
            CHECK_OK(MPI_Issend(b, n, MPI_CHAR, 1, 1, MPI_COMM_WORLD, &r));
            for (int i = 0; i < 20000; i++) {
                CHECK_OK(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
                CHECK(!flag, "MPI_Issend of %d bytes completed before the receive was posted", n);
            }
            /* now let the receiver post its receive */
            CHECK_OK(MPI_Send(NULL, 0, MPI_CHAR, 1, 2, MPI_COMM_WORLD));
            CHECK_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
            /* and a blocking MPI_Ssend returns only after the match */
            CHECK_OK(MPI_Ssend(b, n, MPI_CHAR, 1, 3, MPI_COMM_WORLD));
            int v = 0;
            CHECK_OK(MPI_Recv(&v, 1, MPI_INT, 1, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(v == 1, "the receiver had not matched when MPI_Ssend returned");
        } else if (rank == 1) {
            CHECK_OK(MPI_Recv(NULL, 0, MPI_CHAR, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK_OK(MPI_Recv(b, n, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK_OK(MPI_Recv(b, n, MPI_CHAR, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            int v = 1;
            CHECK_OK(MPI_Send(&v, 1, MPI_INT, 0, 4, MPI_COMM_WORLD));
        }
        free(b);
    }
    /* an eager standard send completes locally */
    if (rank == 0) {
        int v = 5, flag = 0;
        MPI_Request r;
        CHECK_OK(MPI_Isend(&v, 1, MPI_INT, 1, 10, MPI_COMM_WORLD, &r));
        for (int i = 0; i < 100000 && !flag; i++)
            CHECK_OK(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
        CHECK(flag, "a small standard send did not complete without its receive");
        CHECK_OK(MPI_Send(NULL, 0, MPI_CHAR, 1, 11, MPI_COMM_WORLD));
    } else if (rank == 1) {
        int v;
        CHECK_OK(MPI_Recv(NULL, 0, MPI_CHAR, 0, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_OK(MPI_Recv(&v, 1, MPI_INT, 0, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(v == 5, "value %d", v);
    }
    MPI_Finalize();
    return 0;
}
