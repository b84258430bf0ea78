/*
 * ep_testutil.h: what the endpoints tests (ep_*.c) share: starting MPI
 * with MPI_THREAD_MULTIPLE, how many endpoints each process asks for
 * under a test's rule, running a thread per endpoint, and the check of
 * an endpoint's rank and size.
 */
#ifndef TIDE_EP_TESTUTIL_H
#define TIDE_EP_TESTUTIL_H

#include "testutil.h"

#include <mpi-ext.h>
#include <pthread.h>

/* MPI_Init_thread with MPI_THREAD_MULTIPLE (which must be provided), and
 * this process's rank and size in MPI_COMM_WORLD. */
static inline void ep_init(int *argc, char ***argv, int *wrank, int *wsize)
{
    int provided;
    MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    MPI_Comm_rank(MPI_COMM_WORLD, wrank);
    MPI_Comm_size(MPI_COMM_WORLD, wsize);
}

/* Endpoints process r asks for: the number T, "uneven" (1 + r % 3) or
 * "zero" (2 on even ranks, none on odd ones). */
static inline int ep_count_for(const char *rule, int r)
{
    if (strcmp(rule, "uneven") == 0)
        return 1 + r % 3;
    if (strcmp(rule, "zero") == 0)
        return r % 2 ? 0 : 2;
    return atoi(rule);
}

/* Under rule, this process's endpoint count, the rank of its first
 * endpoint (*first) and the endpoints of all processes (*total). */
static inline int ep_layout(const char *rule, int wrank, int wsize, int *first, int *total)
{
    *total = 0;
    *first = 0;
    for (int r = 0; r < wsize; r++) {
        if (r == wrank)
            *first = *total;
        *total += ep_count_for(rule, r);
    }
    return ep_count_for(rule, wrank);
}

/* What ep_run_threads gives the thread of each endpoint. */
struct ep_thread_arg {
    MPI_Comm comm;  /* its handle of the endpoints communicator */
    int rank, size; /* its expected rank there, and the size */
};

#define EP_MAX_THREADS 16

/* Make the endpoints communicator over MPI_COMM_WORLD that rule asks for
 * (ep_layout), run fn in one thread per endpoint of this process, each
 * with its struct ep_thread_arg, join them and meet at a barrier of
 * MPI_COMM_WORLD; world rank 0 then prints "name: ok (...)". */
static inline void ep_run_threads(const char *name, const char *rule, int wrank, int wsize, void *(*fn)(void *))
{
    int total, first;
    int mine = ep_layout(rule, wrank, wsize, &first, &total);
    CHECK(mine >= 0 && mine <= EP_MAX_THREADS, "bad endpoint count %d", mine);
    MPI_Comm hs[EP_MAX_THREADS];
    CHECK_OK(MPIX_Comm_create_endpoints(MPI_COMM_WORLD, mine, MPI_INFO_NULL, hs));
    pthread_t th[EP_MAX_THREADS];
    struct ep_thread_arg args[EP_MAX_THREADS];
    for (int i = 0; i < mine; i++) {
        args[i] = (struct ep_thread_arg){hs[i], first + i, total};
        CHECK(pthread_create(&th[i], NULL, fn, &args[i]) == 0, "pthread_create");
    }
    for (int i = 0; i < mine; i++)
        pthread_join(th[i], NULL);
    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    if (wrank == 0)
        printf("%s: ok (%d processes, %d endpoints, rule %s)\n", name, wsize, total, rule);
}

/* c's rank and size (into *me and *n) are the expected ones. */
static inline void ep_expect(MPI_Comm c, int expect_rank, int expect_size, int *me, int *n)
{
    *me = -1;
    *n = -1;
    CHECK_OK(MPI_Comm_rank(c, me));
    CHECK_OK(MPI_Comm_size(c, n));
    CHECK(*me == expect_rank && *n == expect_size, "rank %d size %d, expected %d %d", *me, *n, expect_rank,
          expect_size);
}

#endif
