/*
 * ft.c: costs of fault tolerance (User-Level Failure Mitigation), for
 * bench/run-ft.sh. Builds with any MPI; the ULFM parts need the MPIX_
 * calls (Tide's mpi-ext.h, MPICH's mpi.h) and print nothing without them.
 * Usage: ft MODE [ARG]
 *   overhead   ping-pong latency of 8 B between ranks 0 and 1, and
 *              MPI_Allreduce of one double over every rank (microseconds)
 *   agree      MPIX_Comm_agree and MPIX_Comm_shrink latency, no failure
 *   detect N   N rounds: one rank dies while the others wait in
 *              MPI_Barrier; the time from its death (its clock read just
 *              before it kills itself, sent first) to the last survivor's
 *              error return (one node: the clocks are the same clock);
 *              then the survivors shrink and go on
 * Output lines: "name value".
 */
#include <mpi.h>
#if defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#endif
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void overhead(void)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char buf[8] = {0};
    const int iters = 20000, reps = 5;
    double lat[5], red[5];
    for (int r = 0; r < reps; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < iters && size > 1; i++) {
            if (rank == 0) {
                MPI_Send(buf, 8, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                MPI_Recv(buf, 8, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 1) {
                MPI_Recv(buf, 8, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, 8, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
            }
        }
        lat[r] = (MPI_Wtime() - t0) * 1e6 / iters / 2;
        MPI_Barrier(MPI_COMM_WORLD);
        double x = rank, y;
        t0 = MPI_Wtime();
        for (int i = 0; i < iters / 4; i++)
            MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        red[r] = (MPI_Wtime() - t0) * 1e6 / (iters / 4);
    }
    if (rank == 0) {
        printf("pingpong_8B_us %.3f\n", median(lat, reps));
        printf("allreduce_8B_us %.3f\n", median(red, reps));
    }
}

#ifdef MPIX_ERR_PROC_FAILED
static void agree(void)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    const int reps = 7, n_agree = 200, n_shrink = 50;
    double a[7], s[7];
    for (int r = 0; r < reps; r++) {
        int flag = 1;
        MPI_Barrier(comm);
        double t0 = MPI_Wtime();
        for (int i = 0; i < n_agree; i++)
            MPIX_Comm_agree(comm, &flag);
        a[r] = (MPI_Wtime() - t0) * 1e6 / n_agree;
        MPI_Barrier(comm);
        t0 = MPI_Wtime();
        for (int i = 0; i < n_shrink; i++) {
            MPI_Comm c;
            MPIX_Comm_shrink(comm, &c);
            MPI_Comm_free(&c);
        }
        s[r] = (MPI_Wtime() - t0) * 1e6 / n_shrink;
    }
    if (rank == 0) {
        printf("agree_us %.2f\n", median(a, reps));
        printf("shrink_us %.2f\n", median(s, reps));
    }
    MPI_Comm_free(&comm);
}

static void detect(int rounds)
{
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    double *lat = calloc((size_t)rounds, sizeof *lat);
    int done = 0;
    for (int round = 0; round < rounds; round++) {
        int rank, size;
        MPI_Comm_rank(comm, &rank);
        MPI_Comm_size(comm, &size);
        if (size < 2)
            break;
        int victim = size - 1;
        double t_death = 0;
        MPI_Request rq = MPI_REQUEST_NULL;
        if (rank != victim)
            MPI_Irecv(&t_death, 1, MPI_DOUBLE, victim, 99, comm, &rq);
        int here = 1;
        MPIX_Comm_agree(comm, &here); /* everyone has posted its receive */
        if (rank == victim) {
            double t = now_us();
            for (int r = 0; r < size - 1; r++)
                MPI_Send(&t, 1, MPI_DOUBLE, r, 99, comm);
            raise(SIGKILL);
        }
        MPI_Barrier(comm); /* cannot complete: returns the failure */
        double t_err = now_us();
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        double d = t_err - t_death, worst;
        MPIX_Comm_failure_ack(comm);
        MPI_Comm small;
        MPIX_Comm_shrink(comm, &small);
        MPI_Comm_set_errhandler(small, MPI_ERRORS_RETURN);
        MPI_Allreduce(&d, &worst, 1, MPI_DOUBLE, MPI_MAX, small);
        MPI_Comm_free(&comm);
        comm = small;
        lat[done++] = worst;
    }
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0 && done)
        printf("detect_us %.1f\n", median(lat, done));
    free(lat);
    MPI_Comm_free(&comm);
}
#endif

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const char *mode = argc > 1 ? argv[1] : "overhead";
    if (!strcmp(mode, "overhead"))
        overhead();
#ifdef MPIX_ERR_PROC_FAILED
    else if (!strcmp(mode, "agree"))
        agree();
    else if (!strcmp(mode, "detect"))
        detect(argc > 2 ? atoi(argv[2]) : 4);
#endif
    MPI_Finalize();
    return 0;
}
