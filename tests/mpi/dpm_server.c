/*
 * dpm_server.c / client roles of the standard's client-server example,
 * between two separate mpiexec invocations. Server: opens a port, writes
 * it to FILE (and publishes it as SERVICE if given), accepts CLIENTS
 * connections in turn on its communicator (root ROOT), and for each
 * receives numbers until a 0, answering their sum. Client: reads the port
 * from FILE (or looks SERVICE up), connects with root ROOT, sends numbers.
 * Usage: dpm_server server FILE ROOT CLIENTS [SERVICE]
 *        dpm_server client FILE ROOT [SERVICE]
 */
#include "testutil.h"

#include <unistd.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(argc >= 4, "usage");
    const char *file = argv[2];
    int root = atoi(argv[3]);
    char port[MPI_MAX_PORT_NAME] = "";
    if (strcmp(argv[1], "server") == 0) {
        int clients = atoi(argv[4]);
        const char *svc = argc > 5 ? argv[5] : NULL;
        if (rank == root) {
            CHECK_OK(MPI_Open_port(MPI_INFO_NULL, port));
            if (svc)
                CHECK_OK(MPI_Publish_name(svc, MPI_INFO_NULL, port));
            char tmp[4096];
            snprintf(tmp, sizeof tmp, "%s.tmp", file);
            FILE *f = fopen(tmp, "w");
            CHECK(f, "cannot write %s", tmp);
            fprintf(f, "%s\n", port);
            fclose(f);
            rename(tmp, file);
        }
        for (int k = 0; k < clients; k++) {
            MPI_Comm c;
            CHECK_OK(MPI_Comm_accept(port, MPI_INFO_NULL, root, MPI_COMM_WORLD, &c));
            int rs;
            MPI_Comm_remote_size(c, &rs);
            /* every client rank sends to the matching server rank (mod size) */
            for (int r = 0; r < rs; r++) {
                if (r % size != rank)
                    continue;
                long sum = 0;
                int v;
                do {
                    CHECK_OK(MPI_Recv(&v, 1, MPI_INT, r, 0, c, MPI_STATUS_IGNORE));
                    sum += v;
                } while (v != 0);
                CHECK_OK(MPI_Send(&sum, 1, MPI_LONG, r, 1, c));
            }
            CHECK_OK(MPI_Comm_disconnect(&c));
        }
        if (rank == root) {
            if (svc)
                CHECK_OK(MPI_Unpublish_name(svc, MPI_INFO_NULL, port));
            CHECK_OK(MPI_Close_port(port));
            printf("server: served %d clients\n", clients);
        }
    } else {
        const char *svc = argc > 4 ? argv[4] : NULL;
        if (rank == root) {
            if (svc) {
                CHECK_OK(MPI_Lookup_name(svc, MPI_INFO_NULL, port));
            } else {
                FILE *f = fopen(file, "r");
                CHECK(f && fgets(port, sizeof port, f), "cannot read the port from %s", file);
                fclose(f);
                port[strcspn(port, "\n")] = '\0';
            }
        }
        MPI_Comm c;
        CHECK_OK(MPI_Comm_connect(port, MPI_INFO_NULL, root, MPI_COMM_WORLD, &c));
        int rs;
        MPI_Comm_remote_size(c, &rs);
        int dst = rank % rs;
        long expect = 0;
        for (int v = rank + 1; v < rank + 20; v++) {
            CHECK_OK(MPI_Send(&v, 1, MPI_INT, dst, 0, c));
            expect += v;
        }
        int zero = 0;
        CHECK_OK(MPI_Send(&zero, 1, MPI_INT, dst, 0, c));
        long sum;
        CHECK_OK(MPI_Recv(&sum, 1, MPI_LONG, dst, 1, c, MPI_STATUS_IGNORE));
        CHECK(sum == expect, "sum %ld, expected %ld", sum, expect);
        CHECK_OK(MPI_Comm_disconnect(&c));
        if (rank == root)
            printf("client: done\n");
    }
    MPI_Finalize();
    return 0;
}
