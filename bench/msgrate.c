/*
 * msgrate.c: single-threaded message rate. The ranks form pairs: rank i
 * of the first half sends to rank i + size/2. Per window the sender posts
 * 64 nonblocking 8-byte sends (MPI_Isend), the receiver 64 MPI_Irecv,
 * both wait for all, and the receiver answers with a 0-byte
 * acknowledgement so the sender never runs more than one window ahead.
 * Plain MPI, so it builds with any implementation.
 *
 * Usage: msgrate [windows]   (an even number of ranks; default 50000
 * timed windows per pair after 200 warm-up windows)
 * Prints one line "pairs rate": the aggregate rate of all pairs in
 * millions of messages per second (total messages over the slowest
 * pair's time).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* GCC 12 takes MPICH's MPI_STATUSES_IGNORE, a null pointer of type
 * MPI_Status *, for a zero-sized array and warns on every MPI_Waitall. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif

#define WINDOW 64
#define MSG_BYTES 8
#define WARMUP_WINDOWS 200
#define DEFAULT_TIMED_WINDOWS 50000
#define DATA_TAG 1
#define ACK_TAG 2

/* run count windows between this rank and its peer */
static void run_windows(int is_sender, int peer, long count, char *buffers)
{
    MPI_Request requests[WINDOW];
    for (long window = 0; window < count; window++) {
        for (int k = 0; k < WINDOW; k++) {
            char *message = buffers + (size_t)k * MSG_BYTES;
            if (is_sender)
                MPI_Isend(message, MSG_BYTES, MPI_CHAR, peer, DATA_TAG, MPI_COMM_WORLD, &requests[k]);
            else
                MPI_Irecv(message, MSG_BYTES, MPI_CHAR, peer, DATA_TAG, MPI_COMM_WORLD, &requests[k]);
        }
        MPI_Waitall(WINDOW, requests, MPI_STATUSES_IGNORE);
        if (is_sender)
            MPI_Recv(NULL, 0, MPI_CHAR, peer, ACK_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        else
            MPI_Send(NULL, 0, MPI_CHAR, peer, ACK_TAG, MPI_COMM_WORLD);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size % 2 != 0) {
        if (rank == 0)
            fprintf(stderr, "msgrate: needs an even number of ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    long timed_windows = argc > 1 ? atol(argv[1]) : DEFAULT_TIMED_WINDOWS;
    if (timed_windows < 1)
        timed_windows = DEFAULT_TIMED_WINDOWS;
    int pairs = size / 2;
    int is_sender = rank < pairs;
    int peer = is_sender ? rank + pairs : rank - pairs;
    char buffers[WINDOW * MSG_BYTES] = {0};

    run_windows(is_sender, peer, WARMUP_WINDOWS, buffers);
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    run_windows(is_sender, peer, timed_windows, buffers);
    double elapsed = MPI_Wtime() - start, slowest;
    MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        double messages = (double)pairs * (double)timed_windows * WINDOW;
        printf("%d %.4f\n", pairs, messages / slowest / 1e6);
    }
    MPI_Finalize();
    return 0;
}
