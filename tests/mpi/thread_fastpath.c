/*
 * thread_fastpath.c: point-to-point from many threads at once on one
 * communicator, the way MPI_THREAD_MULTIPLE's fast path takes it (sends
 * and receives of several threads running together, each thread matching
 * in the same queues): argv[1] threads per process (default 4), argv[2]
 * rounds (default 300).
 *
 * Thread t of every process sends each round, to thread t of every
 * process (itself included), one message on tag t: sizes cycle through
 * 0 B, 8 B, 1 KiB, 3 KiB (eager), 40 KiB (rendezvous) and a synchronous
 * 8 B one, so that messages the fast path takes and messages it leaves
 * to the exclusive path interleave in one stream. Each message carries
 * its source and round in every word. Receives come from MPI_ANY_SOURCE
 * on the thread's tag, in turn by MPI_Recv, MPI_Irecv + MPI_Wait,
 * MPI_Irecv + an MPI_Test loop, and windows of MPI_Irecv completed by
 * MPI_Waitall, by MPI_Waitany, by MPI_Testany loops and by an MPI_Testall
 * loop (their statuses checked in the order the receives were posted),
 * and by a probe (an MPI_Iprobe or MPI_Improbe loop, MPI_Probe,
 * MPI_Mprobe) followed by the receive of what it found (MPI_Recv from its
 * source, or MPI_Mrecv),
 * with sends by MPI_Send, MPI_Isend and MPI_Ssend. Checked: every word
 * of every message, its status, and per source the rounds in order (MPI's
 * non-overtaking rule), so a message lost, duplicated, reordered, torn
 * or delivered to another thread's receive fails the test.
 */
#include "testutil.h"

#include <pthread.h>

#define MAXT 16
#define MAXP 16
#define WIN 8

static int rank, size, nthreads, rounds;

static int size_of(int round)
{
    static const int sizes[] = {0, 8, 1024, 3072, 40960, 8};
    return sizes[round % 6];
}

static void fill(int *buf, int round, int src)
{
    int n = size_of(round) / (int)sizeof(int);
    for (int i = 0; i < n; i++)
        buf[i] = src * 1000003 + round * 7 + i;
}

struct expect {
    int next[MAXP]; /* next round from each source */
    int probes;     /* probes made, to take turns among the kinds */
};

static void check_msg(int t, struct expect *e, const int *buf, MPI_Status *st)
{
    int src = st->MPI_SOURCE;
    CHECK(src >= 0 && src < size, "thread %d: source %d", t, src);
    CHECK(st->MPI_TAG == t, "thread %d: tag %d", t, st->MPI_TAG);
    int round = e->next[src]++;
    int count;
    MPI_Get_count(st, MPI_BYTE, &count);
    CHECK(count == size_of(round), "thread %d: from %d round %d: %d bytes, expected %d (order)", t, src, round,
          count, size_of(round));
    for (int i = 0; i < count / (int)sizeof(int); i++)
        CHECK(buf[i] == src * 1000003 + round * 7 + i, "thread %d: from %d round %d: word %d is %d", t, src, round,
              i, buf[i]);
}

/* Sources whose message of round r has not come yet (each has that one
 * still to send, so as many receives as this find a message). */
static int missing(const struct expect *e, int r)
{
    int n = 0;
    for (int s = 0; s < size; s++)
        n += e->next[s] <= r;
    return n;
}

static void *run(void *arg)
{
    int t = (int)(long)arg;
    size_t cap = 40960;
    int *sbuf = malloc(cap);
    int *rbuf = malloc(cap * WIN);
    MPI_Request sreq[MAXP], rreq[WIN];
    MPI_Status rst[WIN];
    struct expect e;
    memset(&e, 0, sizeof e);
    for (int r = 0; r < rounds; r++) {
        fill(sbuf, r, rank);
        /* send this round to every process (the same buffer: it stays untouched until the sends finish) */
        int nsreq = 0;
        for (int d = 0; d < size; d++) {
            int dest = (rank + d) % size;
            if (r % 6 == 5)
                MPI_Issend(sbuf, size_of(r), MPI_BYTE, dest, t, MPI_COMM_WORLD, &sreq[nsreq++]);
            else if (r % 2)
                MPI_Isend(sbuf, size_of(r), MPI_BYTE, dest, t, MPI_COMM_WORLD, &sreq[nsreq++]);
            else if (size_of(r) <= 3072)
                MPI_Send(sbuf, size_of(r), MPI_BYTE, dest, t, MPI_COMM_WORLD);
            else
                MPI_Isend(sbuf, size_of(r), MPI_BYTE, dest, t, MPI_COMM_WORLD, &sreq[nsreq++]);
        }
        /* receive until this round's message from every process is in (a
         * process further on may have sent its next ones already), in one
         * of eight ways; only then wait for this round's sends (synchronous
         * and rendezvous ones need the receivers to get that far) */
        int want;
        while ((want = missing(&e, r)) > 0) {
            MPI_Status st;
            int how = (r + want) % 8;
            if (how == 7) {
                /* probe until it is here (MPI_Iprobe loop, MPI_Probe,
                 * MPI_Mprobe, MPI_Improbe loop), then receive just that
                 * one (by MPI_Recv from its source, or MPI_Mrecv) */
                int flag = 0, kind = e.probes++ % 4;
                MPI_Status pst;
                MPI_Message msg = MPI_MESSAGE_NULL;
                if (kind == 0)
                    while (!flag)
                        MPI_Iprobe(MPI_ANY_SOURCE, t, MPI_COMM_WORLD, &flag, &pst);
                else if (kind == 1)
                    MPI_Probe(MPI_ANY_SOURCE, t, MPI_COMM_WORLD, &pst);
                else if (kind == 2)
                    MPI_Mprobe(MPI_ANY_SOURCE, t, MPI_COMM_WORLD, &msg, &pst);
                else
                    while (!flag)
                        MPI_Improbe(MPI_ANY_SOURCE, t, MPI_COMM_WORLD, &flag, &msg, &pst);
                CHECK(pst.MPI_TAG == t, "thread %d: probed tag %d", t, pst.MPI_TAG);
                int pcount;
                MPI_Get_count(&pst, MPI_BYTE, &pcount);
                if (kind >= 2) {
                    MPI_Mrecv(rbuf, (int)cap, MPI_BYTE, &msg, &st);
                    CHECK(msg == MPI_MESSAGE_NULL, "thread %d: MPI_Mrecv left the message", t);
                } else {
                    MPI_Recv(rbuf, (int)cap, MPI_BYTE, pst.MPI_SOURCE, t, MPI_COMM_WORLD, &st);
                }
                CHECK(st.MPI_SOURCE == pst.MPI_SOURCE, "thread %d: probed %d, received from %d", t, pst.MPI_SOURCE,
                      st.MPI_SOURCE);
                int rcount;
                MPI_Get_count(&st, MPI_BYTE, &rcount);
                CHECK(rcount == pcount, "thread %d: probed %d bytes, received %d", t, pcount, rcount);
                check_msg(t, &e, rbuf, &st);
            } else if (how == 0) {
                MPI_Recv(rbuf, (int)cap, MPI_BYTE, MPI_ANY_SOURCE, t, MPI_COMM_WORLD, &st);
                check_msg(t, &e, rbuf, &st);
            } else if (how == 1) {
                MPI_Request q;
                MPI_Irecv(rbuf, (int)cap, MPI_BYTE, MPI_ANY_SOURCE, t, MPI_COMM_WORLD, &q);
                MPI_Wait(&q, &st);
                CHECK(q == MPI_REQUEST_NULL, "thread %d: MPI_Wait left the request", t);
                check_msg(t, &e, rbuf, &st);
            } else if (how == 2) {
                MPI_Request q;
                int flag = 0;
                MPI_Irecv(rbuf, (int)cap, MPI_BYTE, MPI_ANY_SOURCE, t, MPI_COMM_WORLD, &q);
                while (!flag)
                    MPI_Test(&q, &flag, &st);
                check_msg(t, &e, rbuf, &st);
            } else {
                int n = want < WIN ? want : WIN;
                for (int k = 0; k < n; k++)
                    MPI_Irecv(rbuf + k * (cap / sizeof(int)), (int)cap, MPI_BYTE, MPI_ANY_SOURCE, t, MPI_COMM_WORLD,
                              &rreq[k]);
                if (how == 3) {
                    MPI_Waitall(n, rreq, rst);
                } else if (how == 4 || how == 6) {
                    /* one at a time, in whatever order they complete */
                    for (int done = 0; done < n; done++) {
                        int idx = -1, flag = 0;
                        MPI_Status one;
                        if (how == 4)
                            MPI_Waitany(n, rreq, &idx, &one);
                        else
                            while (!flag)
                                MPI_Testany(n, rreq, &idx, &flag, &one);
                        CHECK(idx >= 0 && idx < n && rreq[idx] == MPI_REQUEST_NULL,
                              "thread %d: any-completion gave index %d", t, idx);
                        rst[idx] = one;
                    }
                } else {
                    int flag = 0;
                    while (!flag)
                        MPI_Testall(n, rreq, &flag, rst);
                }
                for (int k = 0; k < n; k++)
                    CHECK(rreq[k] == MPI_REQUEST_NULL, "thread %d: request %d left active", t, k);
                /* posted in order, matched in order: statuses follow the arrival order per source */
                for (int k = 0; k < n; k++)
                    check_msg(t, &e, rbuf + k * (cap / sizeof(int)), &rst[k]);
            }
        }
        MPI_Waitall(nsreq, sreq, MPI_STATUSES_IGNORE);
    }
    for (int s = 0; s < size; s++)
        CHECK(e.next[s] == rounds, "thread %d: %d rounds from %d, expected %d", t, e.next[s], s, rounds);
    free(sbuf);
    free(rbuf);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    nthreads = argc > 1 ? atoi(argv[1]) : 4;
    rounds = argc > 2 ? atoi(argv[2]) : 300;
    CHECK(nthreads >= 1 && nthreads <= MAXT && size <= MAXP, "threads %d, size %d", nthreads, size);
    pthread_t th[MAXT];
    for (int t = 0; t < nthreads; t++)
        pthread_create(&th[t], NULL, run, (void *)(long)t);
    for (int t = 0; t < nthreads; t++)
        pthread_join(th[t], NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("thread_fastpath: ok on %d ranks x %d threads, %d rounds\n", size, nthreads, rounds);
    MPI_Finalize();
    return 0;
}
