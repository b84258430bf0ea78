/*
 * rank_auth_target.c: the target of tests/security/suite_rank_auth.sh.
 *
 *   rank_auth_target victim PORTFILE GOFILE [accept]
 *     Rank 0 opens a port, writes its name to PORTFILE and posts a receive
 *     from rank 1 (tag 77) while a hostile client works on its listener;
 *     when GOFILE appears, rank 1 sends 1234 with tag 77: the receive must
 *     get exactly that (a message injected as rank 1 would come first).
 *     With "accept", the job then accepts one connection on the port and
 *     runs an allreduce and a broadcast over the intercommunicator.
 *     With "forge", the job accepts one connection whose client (run with
 *     --param test_forge_envelope=1) sends rank 0 a message forged as rank
 *     1 on MPI_COMM_WORLD (tag 78) and then a real one on the
 *     intercommunicator; after that rank 1 sends 1234 with tag 78, and
 *     rank 0's receive from rank 1 must get that, not the forgery.
 *   rank_auth_target client PORTFILE [forge]
 *     Connects to that port; the same collectives from the other side
 *     (with "forge": the message that ends the forgery's window).
 */
#include "testutil.h"

#include <time.h>
#include <unistd.h>

static void wait_file_progressing(const char *path, MPI_Request *req)
{
    for (int i = 0; i < 60000; i++) {
        if (access(path, F_OK) == 0)
            return;
        if (req && *req != MPI_REQUEST_NULL) {
            int done = 0;
            MPI_Status st;
            MPI_Test(req, &done, &st);
            if (done) {
                fprintf(stderr, "victim: INJECTED: a message 'from rank 1' arrived before rank 1 sent anything\n");
                MPI_Abort(MPI_COMM_WORLD, 5);
            }
        }
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
    CHECK(0, "no %s within 120 s", path);
}

static void collectives(MPI_Comm inter, int is_client)
{
    int rank, lsize, rsize;
    MPI_Comm_rank(inter, &rank);
    MPI_Comm_size(inter, &lsize);
    MPI_Comm_remote_size(inter, &rsize);
    /* allreduce: each group gets the sum of the other group's values */
    int mine = is_client ? 100 + rank : rank, sum = -1, want = 0;
    CHECK_OK(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, inter));
    for (int r = 0; r < rsize; r++)
        want += is_client ? r : 100 + r;
    CHECK(sum == want, "intercomm allreduce %d, expected %d", sum, want);
    /* broadcast from the victim's rank 0 */
    int v = is_client ? -1 : 4242;
    if (is_client)
        CHECK_OK(MPI_Bcast(&v, 1, MPI_INT, 0, inter));
    else
        CHECK_OK(MPI_Bcast(&v, 1, MPI_INT, rank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter));
    if (is_client)
        CHECK(v == 4242, "intercomm bcast %d", v);
    (void)lsize;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(argc >= 3, "usage: victim PORTFILE GOFILE [accept] | client PORTFILE");
    char port[MPI_MAX_PORT_NAME] = "";
    if (strcmp(argv[1], "victim") == 0) {
        CHECK(argc >= 4 && size >= 2, "victim needs GOFILE and 2 ranks");
        MPI_Request req = MPI_REQUEST_NULL;
        int got = -1;
        if (rank == 0) {
            CHECK_OK(MPI_Open_port(MPI_INFO_NULL, port));
            char tmp[4096];
            snprintf(tmp, sizeof tmp, "%s.tmp", argv[2]);
            FILE *f = fopen(tmp, "w");
            CHECK(f, "cannot write %s", tmp);
            fprintf(f, "%s\n", port);
            fclose(f);
            CHECK(rename(tmp, argv[2]) == 0, "rename");
            CHECK_OK(MPI_Irecv(&got, 1, MPI_INT, 1, 77, MPI_COMM_WORLD, &req));
            wait_file_progressing(argv[3], &req);
        }
        CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
        if (rank == 1) {
            int v = 1234;
            CHECK_OK(MPI_Send(&v, 1, MPI_INT, 0, 77, MPI_COMM_WORLD));
        }
        if (rank == 0) {
            CHECK_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
            if (got != 1234) {
                fprintf(stderr, "victim: INJECTED: got %d as rank 1's message instead of 1234\n", got);
                MPI_Abort(MPI_COMM_WORLD, 5);
            }
            printf("victim: clean\n");
            fflush(stdout);
        }
        if (argc >= 5 && strcmp(argv[4], "forge") == 0) {
            MPI_Comm inter;
            CHECK_OK(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter));
            if (rank == 0) {
                /* sent after the forgery, on the same connection */
                int done = 0;
                CHECK_OK(MPI_Recv(&done, 1, MPI_INT, 0, 5, inter, MPI_STATUS_IGNORE));
                CHECK(done == 55, "client's message %d", done);
            }
            CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
            if (rank == 1) {
                int v = 1234;
                CHECK_OK(MPI_Send(&v, 1, MPI_INT, 0, 78, MPI_COMM_WORLD));
            }
            if (rank == 0) {
                int v = -1;
                CHECK_OK(MPI_Recv(&v, 1, MPI_INT, 1, 78, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
                if (v != 1234) {
                    fprintf(stderr, "victim: FORGED: got %d as rank 1's message instead of 1234\n", v);
                    MPI_Abort(MPI_COMM_WORLD, 5);
                }
                printf("victim: no forged message taken\n");
                fflush(stdout);
            }
            CHECK_OK(MPI_Comm_disconnect(&inter));
        }
        if (argc >= 5 && strcmp(argv[4], "accept") == 0) {
            MPI_Comm inter;
            CHECK_OK(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter));
            collectives(inter, 0);
            CHECK_OK(MPI_Comm_disconnect(&inter));
            if (rank == 0) {
                printf("victim: accepted and ran collectives\n");
                fflush(stdout);
            }
        }
        if (rank == 0)
            MPI_Close_port(port);
    } else if (strcmp(argv[1], "client") == 0) {
        if (rank == 0) {
            FILE *f = fopen(argv[2], "r");
            CHECK(f && fgets(port, sizeof port, f), "cannot read %s", argv[2]);
            fclose(f);
            port[strcspn(port, "\n")] = '\0';
        }
        MPI_Comm inter;
        CHECK_OK(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter));
        if (argc >= 4 && strcmp(argv[3], "forge") == 0) {
            int done = 55;
            if (rank == 0)
                CHECK_OK(MPI_Send(&done, 1, MPI_INT, 0, 5, inter));
            CHECK_OK(MPI_Comm_disconnect(&inter));
            if (rank == 0)
                printf("client: forged and connected\n");
            MPI_Finalize();
            return 0;
        }
        collectives(inter, 1);
        CHECK_OK(MPI_Comm_disconnect(&inter));
        if (rank == 0)
            printf("client: connected and ran collectives\n");
    } else {
        CHECK(0, "unknown mode %s", argv[1]);
    }
    MPI_Finalize();
    return 0;
}
