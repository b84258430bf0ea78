/*
 * p2p_completion.c: the completion calls with MPI_REQUEST_NULL entries
 * mixed in: MPI_Waitany, MPI_Testany, MPI_Waitsome, MPI_Testsome,
 * MPI_Testall, MPI_Waitall, MPI_Request_get_status; all-null arrays give
 * MPI_UNDEFINED; statuses of null requests are empty.
 */
#include "testutil.h"

#define N 8

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int peer = rank ^ 1;
    MPI_Request reqs[N];
    int vals[N], index, flag, outcount, indices[N];
    MPI_Status st, sts[N];
    for (int i = 0; i < N; i++)
        reqs[i] = MPI_REQUEST_NULL;
    /* all null */
    CHECK_OK(MPI_Waitany(N, reqs, &index, &st));
    CHECK(index == MPI_UNDEFINED && st.MPI_SOURCE == MPI_ANY_SOURCE, "waitany on nulls: %d", index);
    CHECK_OK(MPI_Testany(N, reqs, &index, &flag, &st));
    CHECK(flag && index == MPI_UNDEFINED, "testany on nulls");
    CHECK_OK(MPI_Waitsome(N, reqs, &outcount, indices, sts));
    CHECK(outcount == MPI_UNDEFINED, "waitsome on nulls: %d", outcount);
    CHECK_OK(MPI_Testsome(N, reqs, &outcount, indices, sts));
    CHECK(outcount == MPI_UNDEFINED, "testsome on nulls");
    CHECK_OK(MPI_Testall(N, reqs, &flag, sts));
    CHECK(flag, "testall on nulls");
    CHECK_OK(MPI_Waitall(0, NULL, NULL));
    CHECK_OK(MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &st));
    CHECK(flag, "get_status on null");
    if (rank > 1) {
        MPI_Finalize();
        return 0;
    }
    /* receives in the odd slots, nulls in the even ones */
    for (int round = 0; round < 4; round++) {
        for (int i = 1; i < N; i += 2)
            CHECK_OK(MPI_Irecv(&vals[i], 1, MPI_INT, peer, i, MPI_COMM_WORLD, &reqs[i]));
        /* nothing sent yet: tests find nothing */
        CHECK_OK(MPI_Testany(N, reqs, &index, &flag, &st));
        CHECK(!flag && index == MPI_UNDEFINED, "testany found something");
        CHECK_OK(MPI_Testsome(N, reqs, &outcount, indices, sts));
        CHECK(outcount == 0, "testsome found %d", outcount);
        CHECK_OK(MPI_Request_get_status(reqs[1], &flag, &st));
        CHECK(!flag, "get_status says complete");
        /* the peer sends in reverse order after our go-ahead */
        CHECK_OK(MPI_Sendrecv(NULL, 0, MPI_INT, peer, 100, NULL, 0, MPI_INT, peer, 100, MPI_COMM_WORLD, &st));
        for (int i = N - 1; i >= 1; i -= 2) {
            int v = i * 10 + round;
            CHECK_OK(MPI_Send(&v, 1, MPI_INT, peer, i, MPI_COMM_WORLD));
        }
        int got = 0;
        if (round == 0) {
            while (got < N / 2) {
                CHECK_OK(MPI_Waitany(N, reqs, &index, &st));
                CHECK(index % 2 == 1 && reqs[index] == MPI_REQUEST_NULL, "index %d", index);
                CHECK(st.MPI_TAG == index && vals[index] == index * 10, "waitany status/value");
                got++;
            }
        } else if (round == 1) {
            while (got < N / 2) {
                CHECK_OK(MPI_Waitsome(N, reqs, &outcount, indices, sts));
                CHECK(outcount >= 1, "waitsome %d", outcount);
                for (int k = 0; k < outcount; k++)
                    CHECK(sts[k].MPI_TAG == indices[k] && vals[indices[k]] == indices[k] * 10 + 1, "some");
                got += outcount;
            }
        } else if (round == 2) {
            do
                CHECK_OK(MPI_Testall(N, reqs, &flag, sts));
            while (!flag);
            for (int i = 1; i < N; i += 2)
                CHECK(sts[i].MPI_TAG == i && vals[i] == i * 10 + 2, "testall status %d", i);
            for (int i = 0; i < N; i += 2)
                CHECK(sts[i].MPI_SOURCE == MPI_ANY_SOURCE, "status of a null request is not empty");
        } else {
            while (got < N / 2) {
                CHECK_OK(MPI_Testany(N, reqs, &index, &flag, &st));
                if (flag) {
                    CHECK(index != MPI_UNDEFINED && vals[index] == index * 10 + 3, "testany");
                    got++;
                }
            }
        }
        for (int i = 0; i < N; i++)
            CHECK(reqs[i] == MPI_REQUEST_NULL, "request %d not freed", i);
    }
    MPI_Finalize();
    return 0;
}
