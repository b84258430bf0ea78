/*
 * thread_multiple.c: MPI_THREAD_MULTIPLE, every kind of call from several
 * threads of each process at once (argv[1] threads, default 4):
 *  - per-thread communicators: collectives (allreduce, bcast, alltoall,
 *    nonblocking ibarrier/iallreduce) checked exactly, running concurrently
 *    on distinct communicators;
 *  - one shared communicator: each thread receives with MPI_ANY_SOURCE on
 *    its own tag while all threads send, matched probes (mprobe/mrecv)
 *    taking each message exactly once, non-overtaking per (sender, tag);
 *  - communicator creation (dup, split) by every thread at once;
 *  - one-sided: threads of the origin put, accumulate and fetch_and_op
 *    into one window under lock_all concurrently; the sums are checked;
 *  - a blocking MPI_Recv in one thread never stops another thread's
 *    MPI_Send: thread 0 of rank 0 waits for a message that rank 1 sends
 *    only after it received one from thread 1 of rank 0.
 */
#include "testutil.h"

#include <pthread.h>

#define ROUNDS 40
#define MAXT 16

static int rank, size, nthreads;
static MPI_Comm own[MAXT], shared;
static MPI_Win win;
static long *winmem;

static void collectives(int t)
{
    MPI_Comm c = own[t];
    for (int i = 0; i < ROUNDS; i++) {
        long x = rank + 1000L * t + i, sum = 0;
        MPI_Allreduce(&x, &sum, 1, MPI_LONG, MPI_SUM, c);
        long want = (long)size * (size - 1) / 2 + (long)size * (1000L * t + i);
        CHECK(sum == want, "thread %d round %d: allreduce %ld, expected %ld", t, i, sum, want);
        int b = rank == i % size ? t * 7 + i : -1;
        MPI_Bcast(&b, 1, MPI_INT, i % size, c);
        CHECK(b == t * 7 + i, "thread %d: bcast %d", t, b);
        int sendv[64], recvv[64];
        for (int k = 0; k < size; k++)
            sendv[k] = rank * 100 + k + t;
        MPI_Alltoall(sendv, 1, MPI_INT, recvv, 1, MPI_INT, c);
        for (int k = 0; k < size; k++)
            CHECK(recvv[k] == k * 100 + rank + t, "thread %d: alltoall from %d: %d", t, k, recvv[k]);
        MPI_Request r[2];
        long y = 1, ys = 0;
        MPI_Ibarrier(c, &r[0]);
        MPI_Iallreduce(&y, &ys, 1, MPI_LONG, MPI_SUM, c, &r[1]);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        CHECK(ys == size, "thread %d: iallreduce %ld", t, ys);
    }
}

/* every thread sends ROUNDS numbered messages to every rank's thread with
 * the same tag on the shared communicator; each receives with
 * MPI_ANY_SOURCE, alternately by recv and by mprobe+mrecv */
static void wildcard(int t)
{
    MPI_Request *sr = malloc((size_t)size * ROUNDS * sizeof *sr);
    int *vals = malloc((size_t)size * ROUNDS * sizeof *vals);
    for (int d = 0; d < size; d++)
        for (int i = 0; i < ROUNDS; i++) {
            vals[d * ROUNDS + i] = i;
            MPI_Isend(&vals[d * ROUNDS + i], 1, MPI_INT, d, t, shared, &sr[d * ROUNDS + i]);
        }
    int next[64] = {0};
    for (int k = 0; k < size * ROUNDS; k++) {
        int v = -1;
        MPI_Status st;
        if (k % 2) {
            MPI_Message m;
            MPI_Mprobe(MPI_ANY_SOURCE, t, shared, &m, &st);
            MPI_Mrecv(&v, 1, MPI_INT, &m, &st);
        } else {
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, t, shared, &st);
        }
        CHECK(st.MPI_TAG == t, "thread %d: tag %d", t, st.MPI_TAG);
        CHECK(v == next[st.MPI_SOURCE], "thread %d: from %d message %d, expected %d (order)", t, st.MPI_SOURCE, v,
              next[st.MPI_SOURCE]);
        next[st.MPI_SOURCE]++;
    }
    MPI_Waitall(size * ROUNDS, sr, MPI_STATUSES_IGNORE);
    free(sr);
    free(vals);
}

static void creation(int t)
{
    for (int i = 0; i < 8; i++) {
        MPI_Comm d, s;
        MPI_Comm_dup(own[t], &d);
        MPI_Comm_split(d, rank % 2, -rank, &s);
        int n, one = 1, sum = 0;
        MPI_Comm_size(s, &n);
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, s);
        CHECK(sum == n, "thread %d: split sum %d size %d", t, sum, n);
        MPI_Comm_free(&s);
        MPI_Comm_free(&d);
    }
}

static void onesided(int t)
{
    int target = (rank + 1) % size;
    long one = 1, old;
    for (int i = 0; i < ROUNDS; i++) {
        MPI_Accumulate(&one, 1, MPI_LONG, target, 0, 1, MPI_LONG, MPI_SUM, win);
        MPI_Fetch_and_op(&one, &old, MPI_LONG, target, 1, MPI_SUM, win);
        long mine = rank * 1000 + t;
        MPI_Put(&mine, 1, MPI_LONG, target, 2 + t, 1, MPI_LONG, win);
        MPI_Win_flush(target, win);
    }
}

static void *run(void *arg)
{
    int t = (int)(long)arg;
    collectives(t);
    wildcard(t);
    creation(t);
    onesided(t);
    return NULL;
}

/* a blocked receive in one thread, a send in another */
static void *sender(void *arg)
{
    (void)arg;
    int v = 1;
    MPI_Send(&v, 1, MPI_INT, 1, 999, MPI_COMM_WORLD);
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
    if (nthreads > MAXT)
        nthreads = MAXT;
    CHECK(size <= 64, "at most 64 ranks");
    for (int t = 0; t < nthreads; t++)
        MPI_Comm_dup(MPI_COMM_WORLD, &own[t]);
    MPI_Comm_dup(MPI_COMM_WORLD, &shared);
    MPI_Win_allocate((MPI_Aint)(2 + MAXT) * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &winmem, &win);
    for (int i = 0; i < 2 + MAXT; i++)
        winmem[i] = 0;
    MPI_Win_fence(0, win);
    MPI_Win_lock_all(0, win);
    pthread_t th[MAXT];
    for (long t = 0; t < nthreads; t++)
        pthread_create(&th[t], NULL, run, (void *)t);
    for (int t = 0; t < nthreads; t++)
        pthread_join(th[t], NULL);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
    long want = (long)nthreads * ROUNDS;
    CHECK(winmem[0] == want && winmem[1] == want, "window sums %ld %ld, expected %ld", winmem[0], winmem[1], want);
    int left = (rank + size - 1) % size;
    for (int t = 0; t < nthreads; t++)
        CHECK(winmem[2 + t] == left * 1000 + t, "window slot %d: %ld", t, winmem[2 + t]);
    MPI_Win_unlock(rank, win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (size >= 2 && rank == 0) {
        /* thread 0 (main) blocks in MPI_Recv of what rank 1 sends only
         * after the other thread's MPI_Send reached it */
        pthread_t s;
        pthread_create(&s, NULL, sender, NULL);
        int v = 0;
        MPI_Recv(&v, 1, MPI_INT, 1, 998, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        pthread_join(s, NULL);
        CHECK(v == 2, "reply %d", v);
    } else if (rank == 1) {
        int v = 0;
        MPI_Recv(&v, 1, MPI_INT, 0, 999, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        v = 2;
        MPI_Send(&v, 1, MPI_INT, 0, 998, MPI_COMM_WORLD);
    }
    MPI_Win_free(&win);
    for (int t = 0; t < nthreads; t++)
        MPI_Comm_free(&own[t]);
    MPI_Comm_free(&shared);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("thread_multiple: ok on %d ranks x %d threads\n", size, nthreads);
    MPI_Finalize();
    return 0;
}
