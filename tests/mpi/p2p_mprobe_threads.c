/*
 * p2p_mprobe_threads.c: matched probes under MPI_THREAD_MULTIPLE. Every
 * rank runs several threads; thread t talks with the same thread of the
 * partner rank on its own tag, so each message has exactly one thread
 * that may receive it. First a ping-pong of small messages, received
 * with MPI_Mprobe or MPI_Improbe then MPI_Mrecv, many rounds: while one
 * thread waits for its message the others deliver it, and a matched
 * message must go to its one handle exactly once (not be lost, not be
 * replaced by the next one). Then an exchange of messages of every size
 * class (small, on both sides of the transports' eager limits, 16 MiB by
 * rendezvous) received with MPI_Mprobe/MPI_Improbe and MPI_Mrecv/
 * MPI_Imrecv, every element checked; then the same with MPI_Probe/
 * MPI_Iprobe and MPI_Recv of the probed tag (safe here because each tag
 * has one receiving thread). Last, the matched probe of MPI_PROC_NULL
 * from every thread at once: MPI_MESSAGE_NO_PROC, whose receive ends at
 * once with source MPI_PROC_NULL, tag MPI_ANY_TAG and count 0.
 * Usage: p2p_mprobe_threads [ping-pong rounds] [exchange rounds]
 */
#include "testutil.h"

#include <pthread.h>
#include <stdint.h>

#define NTHREADS 4          /* threads of the exchanges */
#define NTHREADS_PINGPONG 8 /* threads of the ping-pong: more waiting threads, more handovers of the lock */
#define TAG0 100

static int rank, size, partner;

/* the sizes of the messages in bytes: small, both sides of 4, 8,
 * 16, 32 and 64 KiB (the eager limits there are or may be), and 16 MiB */
static const size_t msg_bytes[] = {8,           4096 - 64,   4096 + 64,   8192,         8192 + 64,
                                   16384 - 128, 16384 + 128, 32768 - 64,  32768 + 64,   65536 - 256,
                                   65536 + 256, 16u << 20,   1000,        262144 + 32};
#define NMSG (int)(sizeof msg_bytes / sizeof msg_bytes[0])

static uint32_t pattern(int src, int thread, int round, size_t i)
{
    return (uint32_t)(src * 0x1000193u) ^ (uint32_t)(thread << 24) ^ (uint32_t)(round << 16) ^
           (uint32_t)(i * 2654435761u);
}

static void fill(uint32_t *b, size_t n, int src, int thread, int round)
{
    for (size_t i = 0; i < n; i++)
        b[i] = pattern(src, thread, round, i);
}

static long verify(const uint32_t *b, size_t n, int src, int thread, int round, int k)
{
    long bad = 0;
    size_t first = 0;
    for (size_t i = 0; i < n; i++)
        if (b[i] != pattern(src, thread, round, i)) {
            if (!bad)
                first = i;
            bad++;
        }
    if (bad)
        fprintf(stderr,
                "[rank %d] thread %d round %d message %d (%zu bytes): %ld elements wrong, first at %zu: %08x "
                "(expected %08x)\n",
                rank, thread, round, k, n * 4, bad, first, b[first], pattern(src, thread, round, first));
    return bad;
}

struct thread_arg {
    int thread;
    int rounds;
    int mode; /* 0: matched probes; 1: probe then receive */
    long bad;
};

/* Ping-pong: the lower rank sends first; the message carries its round. */
static void *pingpong_main(void *p)
{
    struct thread_arg *a = p;
    int tag = TAG0 + a->thread;
    uint32_t buf[16];
    for (int round = 0; round < a->rounds; round++) {
        if (rank < partner) {
            fill(buf, 16, rank, a->thread, round);
            CHECK_OK(MPI_Send(buf, 16, MPI_UINT32_T, partner, tag, MPI_COMM_WORLD));
        }
        MPI_Message m = MPI_MESSAGE_NULL;
        MPI_Status st;
        if (round % 2) {
            CHECK_OK(MPI_Mprobe(partner, tag, MPI_COMM_WORLD, &m, &st));
        } else {
            int flag = 0;
            while (!flag)
                CHECK_OK(MPI_Improbe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &flag, &m, &st));
        }
        memset(buf, 0xee, sizeof buf);
        CHECK_OK(MPI_Mrecv(buf, 16, MPI_UINT32_T, &m, &st));
        CHECK(st.MPI_SOURCE == partner && st.MPI_TAG == tag, "thread %d round %d: received source %d tag %d",
              a->thread, round, st.MPI_SOURCE, st.MPI_TAG);
        long bad = verify(buf, 16, partner, a->thread, round, -1);
        CHECK(bad == 0, "thread %d, ping-pong round %d: the message of another round arrived", a->thread, round);
        if (rank > partner) {
            fill(buf, 16, rank, a->thread, round);
            CHECK_OK(MPI_Send(buf, 16, MPI_UINT32_T, partner, tag, MPI_COMM_WORLD));
        }
    }
    return NULL;
}

/* Receive the message of one round on this thread's tag into rb. */
static void receive(struct thread_arg *a, int round, int k, uint32_t *rb, size_t n)
{
    int tag = TAG0 + a->thread;
    MPI_Status st;
    int count = -1;
    if (a->mode == 1) {
        if ((round + k) % 2 == 0) {
            CHECK_OK(MPI_Probe(partner, tag, MPI_COMM_WORLD, &st));
        } else {
            int flag = 0;
            while (!flag)
                CHECK_OK(MPI_Iprobe(partner, tag, MPI_COMM_WORLD, &flag, &st));
        }
        MPI_Get_count(&st, MPI_UINT32_T, &count);
        CHECK(st.MPI_SOURCE == partner && st.MPI_TAG == tag && count == (int)n,
              "thread %d: probe found source %d tag %d count %d, expected %d %d %zu", a->thread, st.MPI_SOURCE,
              st.MPI_TAG, count, partner, tag, n);
        CHECK_OK(MPI_Recv(rb, count, MPI_UINT32_T, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st));
    } else {
        MPI_Message m = MPI_MESSAGE_NULL;
        /* the source as MPI_ANY_SOURCE now and then: the tag alone decides */
        int src = (round + k) % 3 == 0 ? MPI_ANY_SOURCE : partner;
        if ((round + k) % 2 == 0) {
            CHECK_OK(MPI_Mprobe(src, tag, MPI_COMM_WORLD, &m, &st));
        } else {
            int flag = 0;
            while (!flag)
                CHECK_OK(MPI_Improbe(src, tag, MPI_COMM_WORLD, &flag, &m, &st));
        }
        CHECK(m != MPI_MESSAGE_NULL && m != MPI_MESSAGE_NO_PROC, "thread %d: no message handle", a->thread);
        MPI_Get_count(&st, MPI_UINT32_T, &count);
        CHECK(st.MPI_SOURCE == partner && st.MPI_TAG == tag && count == (int)n,
              "thread %d: matched probe found source %d tag %d count %d, expected %d %d %zu", a->thread,
              st.MPI_SOURCE, st.MPI_TAG, count, partner, tag, n);
        if ((round + k / 2) % 2 == 0) {
            CHECK_OK(MPI_Mrecv(rb, count, MPI_UINT32_T, &m, &st));
        } else {
            MPI_Request r;
            CHECK_OK(MPI_Imrecv(rb, count, MPI_UINT32_T, &m, &r));
            CHECK_OK(MPI_Wait(&r, &st));
        }
        CHECK(m == MPI_MESSAGE_NULL, "thread %d: the message handle was not set to MPI_MESSAGE_NULL", a->thread);
    }
    MPI_Get_count(&st, MPI_UINT32_T, &count);
    CHECK(st.MPI_SOURCE == partner && st.MPI_TAG == tag && count == (int)n,
          "thread %d: received source %d tag %d count %d, expected %d %d %zu", a->thread, st.MPI_SOURCE, st.MPI_TAG,
          count, partner, tag, n);
}

static void *thread_main(void *p)
{
    struct thread_arg *a = p;
    int tag = TAG0 + a->thread;
    size_t most = 0;
    for (int k = 0; k < NMSG; k++)
        if (msg_bytes[k] > most)
            most = msg_bytes[k];
    uint32_t *sb = malloc(most), *rb = malloc(most);
    CHECK(sb && rb, "out of memory");
    for (int round = 0; round < a->rounds; round++)
        for (int k = 0; k < NMSG; k++) {
            /* the thread order of sizes differs so that large and small
             * messages of different threads are in flight together */
            int kk = (k + a->thread * 3) % NMSG;
            size_t n = msg_bytes[kk] / 4;
            fill(sb, n, rank, a->thread, round);
            memset(rb, 0xee, n * 4);
            MPI_Request sr;
            if (rank < partner) {
                CHECK_OK(MPI_Isend(sb, (int)n, MPI_UINT32_T, partner, tag, MPI_COMM_WORLD, &sr));
                receive(a, round, kk, rb, n);
                CHECK_OK(MPI_Wait(&sr, MPI_STATUS_IGNORE));
            } else {
                /* a blocking send first on this side: the partner's probe
                 * may find the message still arriving */
                if (n * 4 < (1u << 20)) {
                    CHECK_OK(MPI_Send(sb, (int)n, MPI_UINT32_T, partner, tag, MPI_COMM_WORLD));
                    receive(a, round, kk, rb, n);
                } else {
                    CHECK_OK(MPI_Isend(sb, (int)n, MPI_UINT32_T, partner, tag, MPI_COMM_WORLD, &sr));
                    receive(a, round, kk, rb, n);
                    CHECK_OK(MPI_Wait(&sr, MPI_STATUS_IGNORE));
                }
            }
            a->bad += verify(rb, n, partner, a->thread, round, kk);
        }
    free(sb);
    free(rb);
    return NULL;
}

static void *no_proc_main(void *p)
{
    struct thread_arg *a = p;
    for (int i = 0; i < 100; i++) {
        MPI_Message m = MPI_MESSAGE_NULL;
        MPI_Status st;
        int flag = 0, count = -1;
        int buf = 12345;
        if (i % 2) {
            CHECK_OK(MPI_Mprobe(MPI_PROC_NULL, TAG0, MPI_COMM_WORLD, &m, &st));
        } else {
            CHECK_OK(MPI_Improbe(MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &m, &st));
            CHECK(flag, "thread %d: MPI_Improbe of MPI_PROC_NULL: flag not set", a->thread);
        }
        CHECK(m == MPI_MESSAGE_NO_PROC, "thread %d: matched probe of MPI_PROC_NULL gave %d, not MPI_MESSAGE_NO_PROC",
              a->thread, (int)m);
        st.MPI_SOURCE = st.MPI_TAG = -77;
        if (i % 4 < 2) {
            CHECK_OK(MPI_Mrecv(&buf, 1, MPI_INT, &m, &st));
        } else {
            MPI_Request r;
            CHECK_OK(MPI_Imrecv(&buf, 1, MPI_INT, &m, &r));
            CHECK_OK(MPI_Wait(&r, &st));
        }
        MPI_Get_count(&st, MPI_INT, &count);
        CHECK(m == MPI_MESSAGE_NULL && st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && count == 0 &&
                  buf == 12345,
              "thread %d: receive of MPI_MESSAGE_NO_PROC: message %d source %d tag %d count %d buffer %d", a->thread,
              (int)m, st.MPI_SOURCE, st.MPI_TAG, count, buf);
    }
    return NULL;
}

static long run_threads(void *(*fn)(void *), int nthreads, int rounds, int mode)
{
    pthread_t th[NTHREADS_PINGPONG];
    struct thread_arg args[NTHREADS_PINGPONG];
    for (int t = 0; t < nthreads; t++) {
        args[t] = (struct thread_arg){.thread = t, .rounds = rounds, .mode = mode, .bad = 0};
        CHECK(pthread_create(&th[t], NULL, fn, &args[t]) == 0, "pthread_create");
    }
    long bad = 0;
    for (int t = 0; t < nthreads; t++) {
        pthread_join(th[t], NULL);
        bad += args[t].bad;
    }
    return bad;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (provided < MPI_THREAD_MULTIPLE) {
        if (rank == 0)
            printf("p2p_mprobe_threads: skipped (MPI_THREAD_MULTIPLE not provided)\n");
        MPI_Finalize();
        return 0;
    }
    CHECK(size % 2 == 0, "needs an even number of ranks");
    partner = rank ^ 1;
    int pingpongs = argc > 1 ? atoi(argv[1]) : 1500;
    int rounds = argc > 2 ? atoi(argv[2]) : 1;

    run_threads(pingpong_main, NTHREADS_PINGPONG, pingpongs, 0);
    long bad = run_threads(thread_main, NTHREADS, rounds, 0);
    CHECK(bad == 0, "matched probes: %ld elements wrong", bad);
    MPI_Barrier(MPI_COMM_WORLD);
    bad = run_threads(thread_main, NTHREADS, rounds, 1);
    CHECK(bad == 0, "probe and receive: %ld elements wrong", bad);
    run_threads(no_proc_main, NTHREADS_PINGPONG, 1, 0);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("p2p_mprobe_threads: ok on %d ranks, %d ping-pongs on %d threads, %d exchanges on %d threads\n", size,
               pingpongs, NTHREADS_PINGPONG, rounds, NTHREADS);
    MPI_Finalize();
    return 0;
}
