/*
 * ft_server.c: a server that accepted client jobs through a port keeps
 * running when some of them die (each client is its own mpiexec; the
 * server's is not in recovery mode: only its intercommunicators to the
 * dead clients report the failure).
 * Usage: ft_server server FILE NCLIENTS NDEAD
 *        ft_server client FILE INDEX DIE (DIE 1: kill itself mid-session)
 *
 * Server (1 rank): opens a port, writes it to FILE, accepts NCLIENTS
 * clients, receives a hello from each, then serves NROUNDS rounds: in
 * each it sends every live client a number and waits for it doubled.
 * The dying clients kill themselves at round 1 instead of answering:
 * the server's receive from them ends with MPIX_ERR_PROC_FAILED, and it
 * stops serving them; the others are served to the end, get a final 0
 * and disconnect. The server checks that exactly NDEAD failed.
 */
#include "testutil.h"

#include <mpi-ext.h>
#include <signal.h>

#define NROUNDS 4

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    CHECK(argc == 5, "usage");
    const char *file = argv[2];
    if (!strcmp(argv[1], "server")) {
        int n = atoi(argv[3]), ndead = atoi(argv[4]);
        char port[MPI_MAX_PORT_NAME];
        CHECK_OK(MPI_Open_port(MPI_INFO_NULL, port));
        char tmp[4096];
        snprintf(tmp, sizeof tmp, "%s.tmp", file);
        FILE *f = fopen(tmp, "w");
        CHECK(f, "cannot write %s", tmp);
        fprintf(f, "%s\n", port);
        fclose(f);
        rename(tmp, file);
        MPI_Comm *cl = calloc((size_t)n, sizeof *cl);
        int *alive = calloc((size_t)n, sizeof(int));
        for (int k = 0; k < n; k++) {
            CHECK_OK(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &cl[k]));
            MPI_Comm_set_errhandler(cl[k], MPI_ERRORS_RETURN);
            int idx;
            CHECK_OK(MPI_Recv(&idx, 1, MPI_INT, 0, 0, cl[k], MPI_STATUS_IGNORE));
            alive[k] = 1;
        }
        int failed = 0;
        for (int round = 0; round < NROUNDS; round++) {
            for (int k = 0; k < n; k++) {
                if (!alive[k])
                    continue;
                int v = 1000 * k + round + 1, back = 0;
                int rc = MPI_Send(&v, 1, MPI_INT, 0, 1, cl[k]);
                if (rc == MPI_SUCCESS)
                    rc = MPI_Recv(&back, 1, MPI_INT, 0, 2, cl[k], MPI_STATUS_IGNORE);
                if (rc != MPI_SUCCESS) {
                    int cls;
                    MPI_Error_class(rc, &cls);
                    CHECK(cls == MPIX_ERR_PROC_FAILED, "client %d: error class %d", k, cls);
                    alive[k] = 0;
                    failed++;
                    MPI_Comm_free(&cl[k]);
                    continue;
                }
                CHECK(back == 2 * v, "client %d round %d: %d", k, round, back);
            }
        }
        for (int k = 0; k < n; k++) {
            if (!alive[k])
                continue;
            int zero = 0;
            CHECK_OK(MPI_Send(&zero, 1, MPI_INT, 0, 1, cl[k]));
            CHECK_OK(MPI_Comm_disconnect(&cl[k]));
        }
        CHECK(failed == ndead, "%d clients failed, expected %d", failed, ndead);
        printf("ft_server: served %d clients, %d failed\n", n - failed, failed);
        MPI_Close_port(port);
        free(cl);
        free(alive);
    } else {
        int idx = atoi(argv[3]), die = atoi(argv[4]);
        char port[MPI_MAX_PORT_NAME] = "";
        FILE *f = fopen(file, "r");
        CHECK(f && fgets(port, sizeof port, f), "cannot read %s", file);
        fclose(f);
        port[strcspn(port, "\n")] = '\0';
        MPI_Comm srv;
        CHECK_OK(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &srv));
        CHECK_OK(MPI_Send(&idx, 1, MPI_INT, 0, 0, srv));
        for (int round = 0;; round++) {
            int v;
            CHECK_OK(MPI_Recv(&v, 1, MPI_INT, 0, 1, srv, MPI_STATUS_IGNORE));
            if (v == 0)
                break;
            if (die && round == 1)
                raise(SIGKILL);
            v *= 2;
            CHECK_OK(MPI_Send(&v, 1, MPI_INT, 0, 2, srv));
        }
        CHECK_OK(MPI_Comm_disconnect(&srv));
    }
    MPI_Finalize();
    return 0;
}
