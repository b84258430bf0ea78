/*
 * msgrate_threads.c: multithreaded message rate between two processes.
 * T threads per process; thread i of process 0 sends windows of 64
 * 8-byte messages (MPI_Isend) to thread i of process 1, which posts 64
 * MPI_Irecv, and after each window answers with a 0-byte
 * acknowledgement so the sender never runs more than one window ahead.
 * Plain MPI with MPI_THREAD_MULTIPLE, so it builds with any
 * implementation (link with -pthread).
 *
 * Usage: msgrate_threads comm|tag|ep T   (2 processes, or 1; T in 1..8)
 *   comm  each thread pair has its own communicator (MPI_Comm_dup)
 *   tag   all pairs share MPI_COMM_WORLD, pair i uses tag i
 *   ep    MPI Endpoints: MPIX_Comm_create_endpoints(MPI_COMM_WORLD, T)
 *         gives each thread its own rank; thread i of process 0 (rank i)
 *         exchanges with thread i of process 1 (rank T + i). Where the
 *         implementation has no endpoints, prints "T nan".
 * With 1 process, the pairs are in that process: threads 0..T-1 send to
 * threads T..2T-1 (in ep mode, endpoint ranks i and T + i), so the
 * implementation's own locking, not the transport, limits the rate.
 * Prints one line "T rate": the aggregate rate of all pairs in millions
 * of messages per second. The timed part runs MSGRATE_WINDOWS windows
 * (default 40000, shared out among the threads) or stops after
 * MSGRATE_MAX_SECONDS (default 1), whichever comes first.
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Open MPI 4.1 has an mpi-ext.h without endpoints, Tide's defines
 * MPIX_ENDPOINTS, MPICH has none. MSGRATE_WITHOUT_ENDPOINTS lets the
 * program be built where the header declares the call but the library
 * does not have it yet. */
#if defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#endif
#if defined(MPIX_ENDPOINTS) && !defined(MSGRATE_WITHOUT_ENDPOINTS)
#define HAVE_ENDPOINTS 1
#else
#define HAVE_ENDPOINTS 0
#endif

/* GCC 12 takes MPICH's MPI_STATUSES_IGNORE, a null pointer of type
 * MPI_Status *, for a zero-sized array and warns on every MPI_Waitall. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif

#define WINDOW 64
#define MAX_THREADS 8
#define WARMUP_WINDOWS 100
#define DEFAULT_TIMED_WINDOWS 40000
#define DEFAULT_MAX_SECONDS 1.0
#define DATA_TAG_COMM 1
#define MSG_BYTES 8
/* acknowledgements go on tag + this (in one process the sender's rank
 * is also the receiver's) */
#define ACK_TAG_OFFSET 100

enum mode { MODE_COMM, MODE_TAG, MODE_EP };

struct pair_thread {
    pthread_t thread;
    int index;          /* i: pairs with thread i of the other process */
    MPI_Comm comm;      /* communicator this thread uses */
    int peer;           /* rank of the partner thread in comm */
    int tag;            /* tag of data and acknowledgements */
    int is_sender;      /* 1 on process 0 */
    int timed_windows;  /* at most this many timed windows */
    int windows_done;   /* timed windows actually run */
};

static enum mode run_mode;
static int world_rank;
static int threads_per_process;
static int local_threads; /* threads in this process: T, or 2T with 1 process */
#if HAVE_ENDPOINTS
static MPI_Comm endpoint_handles[2 * MAX_THREADS];
#endif
/* The main thread and every pair thread meet here: after warm-up
 * (main then synchronises the processes and starts the clock), at the
 * start of the timed part, and at its end. */
static pthread_barrier_t warm_barrier, start_barrier, done_barrier;
/* MPI_Wtime() after which senders stop at the end of the window. */
static double timed_deadline;

/* Runs windows until the sender says it has sent the last one: after
 * max_windows windows or, if deadline is not 0, the first window started
 * after MPI_Wtime() reached deadline (so that a slow implementation does
 * not take minutes). The sender marks the last window in the payload of
 * its last message. Returns the number of windows run. */
static int run_windows(struct pair_thread *pt, int max_windows, double deadline)
{
    char send_buffer[MSG_BYTES * WINDOW];
    char recv_buffer[MSG_BYTES * WINDOW];
    char *last_window_flag = &send_buffer[MSG_BYTES * (WINDOW - 1)];
    const char *received_last_window_flag = &recv_buffer[MSG_BYTES * (WINDOW - 1)];
    MPI_Request requests[WINDOW];
    memset(send_buffer, 1, sizeof send_buffer);
    int windows = 0, last = 0;
    while (!last) {
        if (pt->is_sender) {
            last = windows + 1 >= max_windows || (deadline != 0 && MPI_Wtime() >= deadline);
            *last_window_flag = (char)last;
            for (int m = 0; m < WINDOW; m++)
                MPI_Isend(send_buffer + m * MSG_BYTES, MSG_BYTES, MPI_CHAR, pt->peer, pt->tag,
                          pt->comm, &requests[m]);
            MPI_Waitall(WINDOW, requests, MPI_STATUSES_IGNORE);
            MPI_Recv(NULL, 0, MPI_CHAR, pt->peer, pt->tag + ACK_TAG_OFFSET, pt->comm, MPI_STATUS_IGNORE);
        } else {
            for (int m = 0; m < WINDOW; m++)
                MPI_Irecv(recv_buffer + m * MSG_BYTES, MSG_BYTES, MPI_CHAR, pt->peer, pt->tag,
                          pt->comm, &requests[m]);
            MPI_Waitall(WINDOW, requests, MPI_STATUSES_IGNORE);
            last = *received_last_window_flag != 0;
            MPI_Send(NULL, 0, MPI_CHAR, pt->peer, pt->tag + ACK_TAG_OFFSET, pt->comm);
        }
        windows++;
    }
    return windows;
}

static void *pair_thread_main(void *arg)
{
    struct pair_thread *pt = arg;
#if HAVE_ENDPOINTS
    if (run_mode == MODE_EP) {
        int ep_rank;
        pt->comm = endpoint_handles[pt->index];
        MPI_Comm_rank(pt->comm, &ep_rank);
        pt->is_sender = ep_rank < threads_per_process;
        pt->peer = pt->is_sender ? ep_rank + threads_per_process : ep_rank - threads_per_process;
        if (ep_rank != world_rank * local_threads + pt->index) {
            fprintf(stderr, "msgrate_threads: endpoint handle %d has rank %d, expected %d\n",
                    pt->index, ep_rank, world_rank * local_threads + pt->index);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
#endif
    run_windows(pt, WARMUP_WINDOWS, 0);
    pthread_barrier_wait(&warm_barrier);
    pthread_barrier_wait(&start_barrier);
    pt->windows_done = run_windows(pt, pt->timed_windows, timed_deadline);
    pthread_barrier_wait(&done_barrier);
#if HAVE_ENDPOINTS
    if (run_mode == MODE_EP)
        MPI_Comm_free(&endpoint_handles[pt->index]);
#endif
    return NULL;
}

static void usage_and_exit(void)
{
    if (world_rank == 0)
        fprintf(stderr, "usage: msgrate_threads comm|tag|ep T   (2 processes or 1, T in 1..%d)\n",
                MAX_THREADS);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

int main(int argc, char **argv)
{
    int provided, world_size;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    if (argc != 3)
        usage_and_exit();
    if (strcmp(argv[1], "comm") == 0)
        run_mode = MODE_COMM;
    else if (strcmp(argv[1], "tag") == 0)
        run_mode = MODE_TAG;
    else if (strcmp(argv[1], "ep") == 0)
        run_mode = MODE_EP;
    else
        usage_and_exit();
    threads_per_process = atoi(argv[2]);
    if (threads_per_process < 1 || threads_per_process > MAX_THREADS)
        usage_and_exit();
    if (world_size != 2 && world_size != 1) {
        if (world_rank == 0)
            fprintf(stderr, "msgrate_threads: needs 2 processes or 1, got %d\n", world_size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (provided < MPI_THREAD_MULTIPLE) {
        if (world_rank == 0)
            fprintf(stderr, "msgrate_threads: MPI_THREAD_MULTIPLE not provided (got %d)\n",
                    provided);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
#if !HAVE_ENDPOINTS
    if (run_mode == MODE_EP) {
        if (world_rank == 0) {
            printf("%d nan\n", threads_per_process);
            fprintf(stderr, "msgrate_threads: this MPI has no MPIX_Comm_create_endpoints\n");
        }
        MPI_Finalize();
        return 0;
    }
#endif

    int total_windows = DEFAULT_TIMED_WINDOWS;
    const char *windows_env = getenv("MSGRATE_WINDOWS");
    if (windows_env && atoi(windows_env) > 0)
        total_windows = atoi(windows_env);
    int windows_per_thread = (total_windows + threads_per_process - 1) / threads_per_process;
    double max_seconds = DEFAULT_MAX_SECONDS;
    const char *seconds_env = getenv("MSGRATE_MAX_SECONDS");
    if (seconds_env && atof(seconds_env) > 0)
        max_seconds = atof(seconds_env);

    local_threads = world_size == 1 ? 2 * threads_per_process : threads_per_process;
    struct pair_thread pairs[2 * MAX_THREADS];
    for (int i = 0; i < local_threads; i++) {
        struct pair_thread *pt = &pairs[i];
        int pair = i % threads_per_process;
        pt->index = i;
        pt->is_sender = world_size == 1 ? i < threads_per_process : world_rank == 0;
        pt->peer = world_size == 1 ? 0 : 1 - world_rank;
        pt->timed_windows = windows_per_thread;
        if (run_mode == MODE_COMM) {
            /* the two ends of a pair in one process share its communicator */
            if (i == pair)
                MPI_Comm_dup(MPI_COMM_WORLD, &pt->comm);
            else
                pt->comm = pairs[pair].comm;
            pt->tag = DATA_TAG_COMM;
        } else {
            pt->comm = MPI_COMM_WORLD;
            pt->tag = pair;
        }
    }
#if HAVE_ENDPOINTS
    if (run_mode == MODE_EP) {
        MPIX_Comm_create_endpoints(MPI_COMM_WORLD, local_threads, MPI_INFO_NULL, endpoint_handles);
        for (int i = 0; i < local_threads; i++)
            pairs[i].tag = DATA_TAG_COMM;
    }
#endif

    pthread_barrier_init(&warm_barrier, NULL, (unsigned)local_threads + 1);
    pthread_barrier_init(&start_barrier, NULL, (unsigned)local_threads + 1);
    pthread_barrier_init(&done_barrier, NULL, (unsigned)local_threads + 1);
    for (int i = 0; i < local_threads; i++) {
        if (pthread_create(&pairs[i].thread, NULL, pair_thread_main, &pairs[i]) != 0) {
            fprintf(stderr, "msgrate_threads: pthread_create failed\n");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    pthread_barrier_wait(&warm_barrier);
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    timed_deadline = start + max_seconds;
    pthread_barrier_wait(&start_barrier);
    pthread_barrier_wait(&done_barrier);
    double elapsed = MPI_Wtime() - start;
    for (int i = 0; i < local_threads; i++)
        pthread_join(pairs[i].thread, NULL);
    if (run_mode == MODE_COMM)
        for (int i = 0; i < threads_per_process; i++)
            MPI_Comm_free(&pairs[i].comm);

    /* The sender finishes its last window only after the receiver's
     * acknowledgement, so process 0's time covers every message. */
    if (world_rank == 0) {
        double messages = 0;
        for (int i = 0; i < threads_per_process; i++)
            messages += (double)pairs[i].windows_done * WINDOW;
        printf("%d %.4f\n", threads_per_process, messages / elapsed / 1e6);
        fflush(stdout);
    }
    pthread_barrier_destroy(&warm_barrier);
    pthread_barrier_destroy(&start_barrier);
    pthread_barrier_destroy(&done_barrier);
    MPI_Finalize();
    return 0;
}
