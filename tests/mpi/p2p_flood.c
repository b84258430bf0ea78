/*
 * p2p_flood.c: every other rank floods rank 0 (10,000 messages in all,
 * small and medium, some synchronous), received with MPI_ANY_SOURCE;
 * nothing may be lost or reordered per sender.
 */
#include "testutil.h"

#define TOTAL 10000

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= 2, "needs 2 ranks");
    int senders = size - 1;
    int per = TOTAL / senders;
    int buf[2048];
    if (rank == 0) {
        int *next = calloc((size_t)size, sizeof(int));
        for (int k = 0; k < per * senders; k++) {
            MPI_Status st;
            CHECK_OK(MPI_Recv(buf, 2048, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
            int s = st.MPI_SOURCE, count;
            MPI_Get_count(&st, MPI_INT, &count);
            CHECK(s > 0 && s < size, "source %d", s);
            CHECK(buf[0] == next[s], "from %d: message %d arrived when %d was expected", s, buf[0], next[s]);
            CHECK(st.MPI_TAG == buf[0] % 100, "tag");
            int expect = (buf[0] % 13 == 0) ? 2048 : 2 + buf[0] % 5;
            CHECK(count == expect && buf[count - 1] == s, "from %d message %d: count %d", s, buf[0], count);
            next[s]++;
        }
        for (int s = 1; s < size; s++)
            CHECK(next[s] == per, "%d messages from %d, expected %d", next[s], s, per);
        int flag;
        CHECK_OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
        CHECK(!flag, "extra messages");
        free(next);
    } else {
        for (int i = 0; i < per; i++) {
            int n = (i % 13 == 0) ? 2048 : 2 + i % 5;
            buf[0] = i;
            buf[n - 1] = rank;
            if (i % 97 == 0)
                CHECK_OK(MPI_Ssend(buf, n, MPI_INT, 0, i % 100, MPI_COMM_WORLD));
            else
                CHECK_OK(MPI_Send(buf, n, MPI_INT, 0, i % 100, MPI_COMM_WORLD));
        }
    }
    MPI_Finalize();
    return 0;
}
