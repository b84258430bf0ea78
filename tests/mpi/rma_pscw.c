/*
 * rma_pscw.c: general active target synchronization (MPI-3.1 11.5.2):
 * MPI_Win_post / MPI_Win_start / MPI_Win_complete / MPI_Win_wait and
 * MPI_Win_test. A neighbour exchange where every rank exposes its window to
 * its two neighbours and accesses theirs (the standard's PSCW example);
 * rank 0 only exposes (posts, then tests until done) while the others only
 * access; rank 0 only accesses while the others only expose; ranks left
 * out of a round make no call at all; MPI_Get and MPI_Accumulate inside
 * access epochs; many rounds in a row; MPI_MODE_NOCHECK on both sides.
 * With the argument "allocate" the window comes from MPI_Win_allocate
 * (memory every process of a node maps, where the notices are flags in
 * it), else from MPI_Win_create over malloc'ed memory (notices are
 * messages).
 */
#include "testutil.h"

static MPI_Group world_group;

/* the group of the distinct ranks in r[0..n) */
static MPI_Group group_of(const int *r, int n)
{
    int uniq[4], k = 0;
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int j = 0; j < k; j++)
            seen |= uniq[j] == r[i];
        if (!seen)
            uniq[k++] = r[i];
    }
    MPI_Group g;
    MPI_Group_incl(world_group, k, uniq, &g);
    return g;
}

/* One round of the neighbour exchange: each rank puts rank * scale +
 * round into slot 0 of its right neighbour and slot 1 of its left one,
 * in an access epoch to both while exposing to both. */
static void neighbour_round(MPI_Group ng, int left, int right, int scale, int round, int assert, MPI_Win win,
                            const int *buf)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int v = rank * scale + round;
    CHECK_OK(MPI_Win_post(ng, assert, win));
    if (assert & MPI_MODE_NOCHECK)
        MPI_Barrier(MPI_COMM_WORLD);
    CHECK_OK(MPI_Win_start(ng, assert, win));
    CHECK_OK(MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win));
    CHECK_OK(MPI_Put(&v, 1, MPI_INT, left, 1, 1, MPI_INT, win));
    CHECK_OK(MPI_Win_complete(win));
    CHECK_OK(MPI_Win_wait(win));
    CHECK(buf[0] == left * scale + round, "round %d (assert %d): from left %d", round, assert, buf[0]);
    CHECK(buf[1] == right * scale + round, "round %d (assert %d): from right %d", round, assert, buf[1]);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    int left = (rank + size - 1) % size, right = (rank + 1) % size;

    int allocate = argc > 1 && strcmp(argv[1], "allocate") == 0;
    MPI_Aint bytes = (4 * size + 4) * (MPI_Aint)sizeof(int);
    int *buf;
    MPI_Win win;
    if (allocate) {
        CHECK_OK(MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &buf, &win));
        memset(buf, 0, (size_t)bytes);
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
        buf = calloc(4 * size + 4, sizeof(int));
        CHECK_OK(MPI_Win_create(buf, bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    }

    /* neighbour exchange: buf[0] gets the left neighbour's value, buf[1]
     * the right one's; each rank exposes to and accesses its neighbours */
    int nb[2] = {left, right};
    MPI_Group ng = group_of(nb, 2);
    for (int round = 0; round < 50; round++)
        neighbour_round(ng, left, right, 1000, round, 0, win, buf);
    /* MPI_MODE_NOCHECK: the posts are known to be done (a barrier) when
     * the starts are made; both sides say so */
    for (int round = 0; round < 10; round++)
        neighbour_round(ng, left, right, 100, round, MPI_MODE_NOCHECK, win, buf);
    /* the last round of the exchange again, as the gets below expect */
    neighbour_round(ng, left, right, 1000, 49, 0, win, buf);

    /* MPI_Get in an access epoch: read the neighbours' slots back; the
     * exposure says NOPUT and NOSTORE (the window is only read) */
    int got[2] = {-1, -1};
    CHECK_OK(MPI_Win_post(ng, MPI_MODE_NOPUT | MPI_MODE_NOSTORE, win));
    CHECK_OK(MPI_Win_start(ng, 0, win));
    CHECK_OK(MPI_Get(&got[0], 1, MPI_INT, right, 0, 1, MPI_INT, win));
    CHECK_OK(MPI_Get(&got[1], 1, MPI_INT, left, 1, 1, MPI_INT, win));
    CHECK_OK(MPI_Win_complete(win));
    CHECK_OK(MPI_Win_wait(win));
    CHECK(got[0] == rank * 1000 + 49 && got[1] == rank * 1000 + 49, "gets %d %d", got[0], got[1]);
    MPI_Group_free(&ng);

    /* rank 0 only exposes, to everybody; the others only access it, each
     * adding into its own slot and into a shared one */
    MPI_Group others;
    int ex[1] = {0};
    MPI_Group_excl(world_group, 1, ex, &others);
    if (rank == 0 && size > 1) {
        memset(buf, 0, (4 * size + 4) * sizeof(int));
        CHECK_OK(MPI_Win_post(others, 0, win));
        int flag = 0;
        long polls = 0;
        while (!flag) {
            CHECK_OK(MPI_Win_test(win, &flag));
            polls++;
        }
        CHECK(polls >= 1, "no poll");
        for (int r = 1; r < size; r++)
            CHECK(buf[2 + r] == r * 3, "slot of rank %d: %d", r, buf[2 + r]);
        CHECK(buf[2] == size - 1, "shared slot %d, expected %d", buf[2], size - 1);
    } else if (rank != 0) {
        int zero = 0;
        MPI_Group g0 = group_of(&zero, 1);
        int v = rank * 3, one = 1;
        CHECK_OK(MPI_Win_start(g0, 0, win));
        CHECK_OK(MPI_Put(&v, 1, MPI_INT, 0, 2 + rank, 1, MPI_INT, win));
        CHECK_OK(MPI_Accumulate(&one, 1, MPI_INT, 0, 2, 1, MPI_INT, MPI_SUM, win));
        CHECK_OK(MPI_Win_complete(win));
        MPI_Group_free(&g0);
    }

    /* rank 0 only accesses everyone else; they only expose to it */
    if (rank == 0) {
        if (size > 1) {
            /* origin buffers stay untouched until MPI_Win_complete */
            int *vs = malloc(sizeof(int) * size);
            CHECK_OK(MPI_Win_start(others, 0, win));
            for (int r = 1; r < size; r++) {
                vs[r] = 5000 + r;
                CHECK_OK(MPI_Put(&vs[r], 1, MPI_INT, r, 3, 1, MPI_INT, win));
            }
            CHECK_OK(MPI_Win_complete(win));
            free(vs);
        }
    } else {
        int zero = 0;
        MPI_Group g0 = group_of(&zero, 1);
        CHECK_OK(MPI_Win_post(g0, 0, win));
        CHECK_OK(MPI_Win_wait(win));
        CHECK(buf[3] == 5000 + rank, "rank 0 put %d", buf[3]);
        MPI_Group_free(&g0);
    }

    MPI_Group_free(&others);

    /* only ranks 1 and 2 take part (the others make no RMA call): 1
     * exposes to 2 and 2 accesses 1, over and over, with MPI_Win_test */
    if (size >= 3 && (rank == 1 || rank == 2)) {
        int peer = 3 - rank;
        MPI_Group pg = group_of(&peer, 1);
        for (int round = 0; round < 30; round++) {
            if (rank == 1) {
                CHECK_OK(MPI_Win_post(pg, 0, win));
                int flag = 0;
                while (!flag)
                    CHECK_OK(MPI_Win_test(win, &flag));
                CHECK(buf[4] == round * 11, "round %d: %d", round, buf[4]);
            } else {
                int v = round * 11;
                CHECK_OK(MPI_Win_start(pg, 0, win));
                CHECK_OK(MPI_Put(&v, 1, MPI_INT, 1, 4, 1, MPI_INT, win));
                CHECK_OK(MPI_Win_complete(win));
            }
        }
        MPI_Group_free(&pg);
    }

    /* every rank exposes to all and accesses all: an all-to-all of puts.
     * No barrier before it: ranks 0 and 3.. post here while 1 and 2 are
     * still in their rounds above, so rank 2's MPI_Win_start({1}) sees a
     * post from rank 0 that belongs to its next access epoch; that post
     * must neither satisfy nor block the current one (MPI-3.1 11.5.2).
     * MPICH 4.0.2 (ch4) hangs here; Open MPI 4.1 passes. */
    int *vs = malloc(sizeof(int) * size);
    CHECK_OK(MPI_Win_post(world_group, 0, win));
    CHECK_OK(MPI_Win_start(world_group, 0, win));
    for (int t = 0; t < size; t++) {
        vs[t] = rank * size + t;
        CHECK_OK(MPI_Put(&vs[t], 1, MPI_INT, t, 4 + rank, 1, MPI_INT, win));
    }
    CHECK_OK(MPI_Win_complete(win));
    free(vs);
    CHECK_OK(MPI_Win_wait(win));
    for (int o = 0; o < size; o++)
        CHECK(buf[4 + o] == o * size + rank, "all-to-all from %d: %d", o, buf[4 + o]);

    CHECK_OK(MPI_Win_free(&win));
    if (!allocate)
        free(buf);
    MPI_Group_free(&world_group);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("rma_pscw: ok\n");
    MPI_Finalize();
    return 0;
}
