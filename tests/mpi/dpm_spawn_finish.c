/*
 * dpm_spawn_finish.c: children that send to their parent and end at once.
 * A one-process parent spawns 1, 2 or 4 children, round after round; each
 * child sends one to three messages (small, or the last one large) over
 * the intercommunicator and then either disconnects or just calls
 * MPI_Finalize, without waiting for the parent. A message whose MPI_Send
 * returned must still be delivered after its sender has finalized and
 * gone: the parent receives every one (from MPI_ANY_SOURCE or naming the
 * child) and checks every element. Children that never spoke to the
 * parent before (all but the first) send over a connection the parent
 * has not seen open before it was closed. Usage: dpm_spawn_finish ROUNDS
 */
#include "testutil.h"

#define BIG 300000

static int msg_len(int i, int nmsg, int big)
{
    return (i == nmsg - 1 && big) ? BIG : 1 + i * 100;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        CHECK(argc > 3, "child arguments");
        int rank;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        int nmsg = atoi(argv[1]), big = atoi(argv[2]), disconnect = atoi(argv[3]);
        for (int i = 0; i < nmsg; i++) {
            int n = msg_len(i, nmsg, big);
            int *b = malloc((size_t)n * sizeof *b);
            for (int j = 0; j < n; j++)
                b[j] = rank * 1000 + i + j;
            CHECK_OK(MPI_Send(b, n, MPI_INT, 0, i, parent));
            free(b);
        }
        if (disconnect)
            CHECK_OK(MPI_Comm_disconnect(&parent));
        MPI_Finalize();
        return 0;
    }
    int rounds = argc > 1 ? atoi(argv[1]) : 30;
    int *buf = malloc(BIG * sizeof *buf);
    for (int r = 0; r < rounds; r++) {
        int nc = r % 3 == 0 ? 1 : r % 3 == 1 ? 2 : 4;
        int nmsg = 1 + r % 3, big = r % 2, disconnect = (r / 2) % 2;
        char a1[16], a2[16], a3[16];
        snprintf(a1, sizeof a1, "%d", nmsg);
        snprintf(a2, sizeof a2, "%d", big);
        snprintf(a3, sizeof a3, "%d", disconnect);
        char *cargv[] = {a1, a2, a3, NULL};
        MPI_Comm inter;
        CHECK_OK(MPI_Comm_spawn(argv[0], cargv, nc, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter, MPI_ERRCODES_IGNORE));
        for (int c = 0; c < nc; c++)
            for (int i = 0; i < nmsg; i++) {
                MPI_Status st;
                int src = r % 4 < 2 ? MPI_ANY_SOURCE : c, count;
                CHECK_OK(MPI_Recv(buf, BIG, MPI_INT, src, i, inter, &st));
                MPI_Get_count(&st, MPI_INT, &count);
                int n = msg_len(i, nmsg, big);
                CHECK(count == n && (src == MPI_ANY_SOURCE || st.MPI_SOURCE == c),
                      "round %d: message %d from child %d: count %d (expected %d)", r, i, st.MPI_SOURCE, count, n);
                for (int j = 0; j < n; j++)
                    CHECK(buf[j] == st.MPI_SOURCE * 1000 + i + j, "round %d: message %d from child %d: element %d is %d",
                          r, i, st.MPI_SOURCE, j, buf[j]);
            }
        if (disconnect)
            CHECK_OK(MPI_Comm_disconnect(&inter));
        else
            CHECK_OK(MPI_Comm_free(&inter));
    }
    free(buf);
    printf("dpm_spawn_finish: %d rounds, every message of the children received\n", rounds);
    MPI_Finalize();
    return 0;
}
