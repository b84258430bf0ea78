/*
 * comm_concurrent.c: communicators made at the same time by disjoint
 * groups, and by two threads of every process. The world is split in
 * three; each part makes its own mix of communicators (dups, splits,
 * creates, idups, Cartesian grids, subgroups splitting again) with no
 * coordination between parts, while messages cross between parts on
 * MPI_COMM_WORLD. Then every communicator still alive carries messages
 * that name it, and communicators over the whole world are made on top
 * of the uneven use of ids. Then an MPI_Comm_idup stays pending while
 * blocking creations run on other communicators (MPI_Comm_dup of another
 * communicator, MPI_Comm_create_group), half the ranks starting the idup
 * first and half last: the nonblocking agreement must not keep the
 * blocking ones from ending. Then every rank keeps MPI_Comm_idup of three
 * communicators pending at once, started in an order that differs from
 * rank to rank and from round to round (agreements that cross, each
 * started first somewhere): they must all end, on ids free at every
 * member, however many rounds are run. Last, under MPI_THREAD_MULTIPLE, two threads
 * of every process each duplicate their own communicator in a loop
 * (agreements of one process running at the same time).
 */
#include "testutil.h"

#include <pthread.h>

#define MAXC 512

static int rank, size;

/* Messages on c naming it by tag: a ring with payload (id, rank). */
static void check_comm(MPI_Comm c, int id)
{
    int r, n;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    int out[2] = {id, r}, in[2] = {-1, -1};
    MPI_Status st;
    CHECK_OK(MPI_Sendrecv(out, 2, MPI_INT, (r + 1) % n, id % 1000, in, 2, MPI_INT, (r + n - 1) % n, MPI_ANY_TAG, c,
                          &st));
    CHECK(in[0] == id && in[1] == (r + n - 1) % n && st.MPI_TAG == id % 1000,
          "communicator %d: got (%d, %d) tag %d from the left", id, in[0], in[1], st.MPI_TAG);
}

static void cross_talk(int round)
{
    /* a message to another part and back, on WORLD */
    if (size < 2)
        return;
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    int out = round * 100 + rank, in = -1;
    CHECK_OK(MPI_Sendrecv(&out, 1, MPI_INT, to, 500, &in, 1, MPI_INT, from, 500, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(in == round * 100 + from, "cross talk %d: %d", round, in);
}

/* the communicator made in each round (MPI_COMM_NULL: none, or freed) */
static MPI_Comm comms[MAXC];
static int ids[MAXC], ncomms;

static void part_work(MPI_Comm part, int color)
{
    int pr, pn;
    MPI_Comm_rank(part, &pr);
    MPI_Comm_size(part, &pn);
    for (int round = 0; round < 40; round++) {
        MPI_Comm c = MPI_COMM_NULL;
        int id = color * 100000 + round * 10;
        switch ((round + color) % 6) {
        case 0:
            CHECK_OK(MPI_Comm_dup(part, &c));
            break;
        case 1:
            CHECK_OK(MPI_Comm_split(part, pr % 2, -pr, &c));
            id += pr % 2;
            break;
        case 2: {
            MPI_Group g, sub;
            MPI_Comm_group(part, &g);
            int r0[1] = {0};
            MPI_Group_excl(g, pn > 1 ? 1 : 0, r0, &sub);
            CHECK_OK(MPI_Comm_create(part, sub, &c));
            MPI_Group_free(&g);
            MPI_Group_free(&sub);
            break;
        }
        case 3: {
            MPI_Request rq;
            CHECK_OK(MPI_Comm_idup(part, &c, &rq));
            check_comm(part, id + 7);
            CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
            break;
        }
        case 4: {
            int dims[2] = {0, 0}, per[2] = {1, 0};
            MPI_Dims_create(pn, 2, dims);
            CHECK_OK(MPI_Cart_create(part, 2, dims, per, 0, &c));
            break;
        }
        default: {
            /* a split that splits again at once */
            MPI_Comm s;
            CHECK_OK(MPI_Comm_split(part, pr % 3, 0, &s));
            CHECK_OK(MPI_Comm_dup(s, &c));
            MPI_Comm_free(&s);
            id += pr % 3;
            break;
        }
        }
        comms[round] = c;
        ids[round] = id;
        ncomms = round + 1;
        if (round % 7 == 3)
            cross_talk(round);
        /* some go early, leaving holes */
        if (round % 5 == 4 && comms[round - 3] != MPI_COMM_NULL)
            CHECK_OK(MPI_Comm_free(&comms[round - 3]));
    }
}

/* Even ranks: the blocking creation, then the idup; odd ranks: the idup
 * first. Collectives on each communicator are in the same order at every
 * rank, so this must complete. */
static void pending_idup(void)
{
    MPI_Comm other, d_idup, d_block;
    MPI_Group wg;
    MPI_Request req;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &other));
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    for (int k = 0; k < 4; k++) {
        int first = rank % 2 == 1;
        if (first)
            CHECK_OK(MPI_Comm_idup(MPI_COMM_WORLD, &d_idup, &req));
        if (k % 2 == 0)
            CHECK_OK(MPI_Comm_dup(other, &d_block));
        else
            CHECK_OK(MPI_Comm_create_group(MPI_COMM_WORLD, wg, 40 + k, &d_block));
        if (!first)
            CHECK_OK(MPI_Comm_idup(MPI_COMM_WORLD, &d_idup, &req));
        CHECK_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        check_comm(d_idup, 600 + 2 * k);
        check_comm(d_block, 601 + 2 * k);
        MPI_Comm_free(&d_idup);
        MPI_Comm_free(&d_block);
    }
    MPI_Group_free(&wg);
    MPI_Comm_free(&other);
}

/* Pending idups of three communicators, started in rotated orders (and
 * reversed at every other rank); many rounds, so that agreements that
 * get in each other's way would run out of ids. */
static void crossing_idups(void)
{
    MPI_Comm base[3], d[3];
    MPI_Request req[3];
    for (int k = 0; k < 3; k++)
        CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &base[k]));
    for (int round = 0; round < 200; round++) {
        for (int j = 0; j < 3; j++) {
            int k = (j + rank + round) % 3;
            if ((rank + round) % 2)
                k = 2 - k;
            CHECK_OK(MPI_Comm_idup(base[k], &d[k], &req[k]));
        }
        CHECK_OK(MPI_Waitall(3, req, MPI_STATUSES_IGNORE));
        for (int k = 0; k < 3; k++) {
            if (round % 50 == 0)
                check_comm(d[k], 800 + 10 * (round / 50) + k);
            MPI_Comm_free(&d[k]);
        }
    }
    for (int k = 0; k < 3; k++)
        MPI_Comm_free(&base[k]);
}

static void *thread_main(void *arg)
{
    MPI_Comm mine = *(MPI_Comm *)arg;
    for (int i = 0; i < 300; i++) {
        MPI_Comm d;
        CHECK_OK(MPI_Comm_dup(mine, &d));
        if (i % 50 == 0) {
            int r;
            MPI_Comm_rank(d, &r);
            check_comm(d, 900 + i);
        }
        CHECK_OK(MPI_Comm_free(&d));
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int color = rank % 3;
    MPI_Comm part;
    CHECK_OK(MPI_Comm_split(MPI_COMM_WORLD, color, rank, &part));
    part_work(part, color);
    /* everything alive still works, with its own messages */
    for (int i = 0; i < ncomms; i++)
        if (comms[i] != MPI_COMM_NULL)
            check_comm(comms[i], ids[i]);
    /* over the whole world, on top of the parts' uneven use */
    MPI_Comm w[3];
    for (int k = 0; k < 3; k++) {
        CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &w[k]));
        check_comm(w[k], 700 + k);
    }
    for (int i = 0; i < ncomms; i++)
        if (comms[i] != MPI_COMM_NULL)
            check_comm(comms[i], ids[i] + 1);
    for (int i = 0; i < ncomms; i++)
        if (comms[i] != MPI_COMM_NULL)
            MPI_Comm_free(&comms[i]);
    for (int k = 0; k < 3; k++)
        MPI_Comm_free(&w[k]);
    MPI_Comm_free(&part);
    pending_idup();
    crossing_idups();
    if (provided == MPI_THREAD_MULTIPLE) {
        MPI_Comm t[2];
        MPI_Comm_dup(MPI_COMM_WORLD, &t[0]);
        MPI_Comm_dup(MPI_COMM_WORLD, &t[1]);
        pthread_t th;
        pthread_create(&th, NULL, thread_main, &t[1]);
        thread_main(&t[0]);
        pthread_join(th, NULL);
        MPI_Comm_free(&t[0]);
        MPI_Comm_free(&t[1]);
    }
    cross_talk(99);
    if (rank == 0)
        printf("comm_concurrent: ok on %d ranks (threads: %s)\n", size,
               provided == MPI_THREAD_MULTIPLE ? "yes" : "no");
    MPI_Finalize();
    return 0;
}
