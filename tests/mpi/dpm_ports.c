/*
 * dpm_ports.c: ports within one job: rank 0 opens a port and accepts on
 * MPI_COMM_SELF, the other ranks connect in turn (several clients to one
 * port); then bad port names, a closed port, and an accept timeout.
 */
#include "testutil.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    char port[MPI_MAX_PORT_NAME];
    if (rank == 0) {
        CHECK_OK(MPI_Open_port(MPI_INFO_NULL, port));
        CHECK(strlen(port) < MPI_MAX_PORT_NAME, "port name length");
        for (int r = 1; r < size; r++)
            CHECK_OK(MPI_Send(port, MPI_MAX_PORT_NAME, MPI_CHAR, r, 0, MPI_COMM_WORLD));
        for (int k = 1; k < size; k++) {
            MPI_Comm c;
            CHECK_OK(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &c));
            int v, rs;
            MPI_Comm_remote_size(c, &rs);
            CHECK(rs == 1, "remote size %d", rs);
            CHECK_OK(MPI_Recv(&v, 1, MPI_INT, 0, 5, c, MPI_STATUS_IGNORE));
            v = -v;
            CHECK_OK(MPI_Send(&v, 1, MPI_INT, 0, 6, c));
            CHECK_OK(MPI_Comm_disconnect(&c));
        }
        CHECK_OK(MPI_Close_port(port));
        CHECK_ERR(MPI_Close_port(port), MPI_ERR_PORT);
        /* tell the others the port is closed now */
        for (int r = 1; r < size; r++)
            CHECK_OK(MPI_Send(NULL, 0, MPI_CHAR, r, 1, MPI_COMM_WORLD));
        /* accept with a timeout: nobody connects */
        char p2[MPI_MAX_PORT_NAME];
        CHECK_OK(MPI_Open_port(MPI_INFO_NULL, p2));
        MPI_Info info;
        MPI_Info_create(&info);
        MPI_Info_set(info, "timeout", "1");
        MPI_Comm c;
        double t0 = MPI_Wtime();
        CHECK_ERR(MPI_Comm_accept(p2, info, 0, MPI_COMM_SELF, &c), MPI_ERR_PORT);
        CHECK(MPI_Wtime() - t0 < 10, "accept timeout took %.1f s", MPI_Wtime() - t0);
        MPI_Info_free(&info);
        MPI_Close_port(p2);
    } else {
        CHECK_OK(MPI_Recv(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MPI_Comm c;
        CHECK_OK(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &c));
        int v = rank;
        CHECK_OK(MPI_Send(&v, 1, MPI_INT, 0, 5, c));
        CHECK_OK(MPI_Recv(&v, 1, MPI_INT, 0, 6, c, MPI_STATUS_IGNORE));
        CHECK(v == -rank, "answer %d", v);
        CHECK_OK(MPI_Comm_disconnect(&c));
        CHECK_OK(MPI_Recv(NULL, 0, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        /* a closed port: refused at once */
        double t0 = MPI_Wtime();
        CHECK_ERR(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &c), MPI_ERR_PORT);
        CHECK(MPI_Wtime() - t0 < 10, "connect to a closed port took %.1f s", MPI_Wtime() - t0);
    }
    /* garbage and truncated port names */
    MPI_Comm c;
    CHECK_ERR(MPI_Comm_connect("garbage", MPI_INFO_NULL, 0, MPI_COMM_SELF, &c), MPI_ERR_PORT);
    CHECK_ERR(MPI_Comm_connect("tide-port:v1|x|", MPI_INFO_NULL, 0, MPI_COMM_SELF, &c), MPI_ERR_PORT);
    char trunc[MPI_MAX_PORT_NAME];
    CHECK_OK(MPI_Open_port(MPI_INFO_NULL, trunc));
    trunc[strlen(trunc) / 2] = '\0';
    CHECK_ERR(MPI_Comm_connect(trunc, MPI_INFO_NULL, 0, MPI_COMM_SELF, &c), MPI_ERR_PORT);
    char longp[2 * MPI_MAX_PORT_NAME];
    memset(longp, 'a', sizeof longp);
    longp[sizeof longp - 1] = '\0';
    CHECK_ERR(MPI_Comm_connect(longp, MPI_INFO_NULL, 0, MPI_COMM_SELF, &c), MPI_ERR_PORT);
    CHECK_ERR(MPI_Close_port("tide-port:nonsense"), MPI_ERR_PORT);
    MPI_Finalize();
    return 0;
}
