/*
 * dpm_join.c: MPI_Comm_join over a TCP socket between ranks 0 and 1.
 */
#include "testutil.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int fd = -1;
    if (rank == 0) {
        int l = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
        socklen_t al = sizeof a;
        CHECK(bind(l, (struct sockaddr *)&a, sizeof a) == 0 && listen(l, 1) == 0, "listen");
        getsockname(l, (struct sockaddr *)&a, &al);
        int port = ntohs(a.sin_port);
        CHECK_OK(MPI_Send(&port, 1, MPI_INT, 1, 0, MPI_COMM_WORLD));
        fd = accept(l, NULL, NULL);
        close(l);
    } else if (rank == 1) {
        int port;
        CHECK_OK(MPI_Recv(&port, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        fd = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
                                .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
        CHECK(connect(fd, (struct sockaddr *)&a, sizeof a) == 0, "connect");
    }
    if (rank < 2) {
        MPI_Comm inter;
        CHECK_OK(MPI_Comm_join(fd, &inter));
        int flag, rs;
        MPI_Comm_test_inter(inter, &flag);
        MPI_Comm_remote_size(inter, &rs);
        CHECK(flag && rs == 1, "join intercomm");
        int v = rank + 40, w = -1;
        CHECK_OK(MPI_Sendrecv(&v, 1, MPI_INT, 0, 3, &w, 1, MPI_INT, 0, 3, inter, MPI_STATUS_IGNORE));
        CHECK(w == (1 - rank) + 40, "joined exchange %d", w);
        CHECK_OK(MPI_Comm_disconnect(&inter));
        close(fd);
    }
    MPI_Finalize();
    return 0;
}
