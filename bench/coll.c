/*
 * coll.c: latency of collective operations, in the manner of the OSU
 * collective benchmarks: for each message size, a few warm-up calls, then
 * a timed loop; the figure is the mean time per call, the largest over
 * the ranks. Sizes are the bytes each rank contributes (allgather,
 * alltoall: one block). Plain MPI, so it builds with any implementation.
 *
 * usage: coll OPS [minbytes [maxbytes]]
 *   OPS: comma-separated list of barrier,bcast,allreduce,allgather,alltoall
 *   and, beyond the default set, reduce,gather,scatter,allgatherv,alltoallv,
 *   reduce_scatter_block (root 0; v forms with even blocks)
 * Prints "op bytes microseconds" lines.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;
static char *sbuf, *rbuf;
static int *counts, *displs;

static void run(const char *op, long bytes)
{
    int n = (int)bytes;
    if (!strcmp(op, "barrier"))
        MPI_Barrier(MPI_COMM_WORLD);
    else if (!strcmp(op, "bcast"))
        MPI_Bcast(sbuf, n, MPI_CHAR, 0, MPI_COMM_WORLD);
    else if (!strcmp(op, "allreduce"))
        MPI_Allreduce(sbuf, rbuf, n / (int)sizeof(float), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    else if (!strcmp(op, "allgather"))
        MPI_Allgather(sbuf, n, MPI_CHAR, rbuf, n, MPI_CHAR, MPI_COMM_WORLD);
    else if (!strcmp(op, "alltoall"))
        MPI_Alltoall(sbuf, n, MPI_CHAR, rbuf, n, MPI_CHAR, MPI_COMM_WORLD);
    else if (!strcmp(op, "reduce"))
        MPI_Reduce(sbuf, rbuf, n / (int)sizeof(float), MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
    else if (!strcmp(op, "gather"))
        MPI_Gather(sbuf, n, MPI_CHAR, rbuf, n, MPI_CHAR, 0, MPI_COMM_WORLD);
    else if (!strcmp(op, "scatter"))
        MPI_Scatter(sbuf, n, MPI_CHAR, rbuf, n, MPI_CHAR, 0, MPI_COMM_WORLD);
    else if (!strcmp(op, "reduce_scatter_block"))
        MPI_Reduce_scatter_block(sbuf, rbuf, n / (int)sizeof(float), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    else if (!strcmp(op, "allgatherv") || !strcmp(op, "alltoallv")) {
        for (int i = 0; i < size; i++) {
            counts[i] = n;
            displs[i] = i * n;
        }
        if (op[3] == 'g')
            MPI_Allgatherv(sbuf, n, MPI_CHAR, rbuf, counts, displs, MPI_CHAR, MPI_COMM_WORLD);
        else
            MPI_Alltoallv(sbuf, counts, displs, MPI_CHAR, rbuf, counts, displs, MPI_CHAR, MPI_COMM_WORLD);
    }
}

/* iterations for a size: enough for ~target seconds, agreed by all ranks */
static int iterations(const char *op, long bytes, double target)
{
    int iters = 4;
    double t = 0;
    for (;;) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < iters; i++)
            run(op, bytes);
        t = MPI_Wtime() - t0;
        double tmax;
        MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (tmax > target / 8 || iters >= 1 << 20) {
            double per = tmax / iters;
            long want = (long)(target / (per > 1e-9 ? per : 1e-9));
            if (want < 10)
                want = 10;
            if (want > 200000)
                want = 200000;
            return (int)want;
        }
        iters *= 4;
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *ops = argc > 1 ? argv[1] : "barrier,bcast,allreduce,allgather,alltoall";
    long minb = argc > 2 ? atol(argv[2]) : 8, maxb = argc > 3 ? atol(argv[3]) : 1 << 20;
    double target = getenv("COLL_BENCH_SECONDS") ? atof(getenv("COLL_BENCH_SECONDS")) : 0.15;
    size_t bufsz = (size_t)maxb * (size_t)size + 4096;
    sbuf = malloc(bufsz);
    rbuf = malloc(bufsz);
    counts = malloc(sizeof(int) * (size_t)size);
    displs = malloc(sizeof(int) * (size_t)size);
    memset(sbuf, 1, bufsz);
    memset(rbuf, 0, bufsz);
    char list[256];
    snprintf(list, sizeof list, "%s", ops);
    for (char *op = strtok(list, ","); op; op = strtok(NULL, ",")) {
        int barrier = !strcmp(op, "barrier");
        for (long b = minb; b <= maxb; b *= 2) {
            long bytes = barrier ? 0 : b;
            int iters = iterations(op, bytes, target);
            for (int i = 0; i < iters / 10 + 1; i++)
                run(op, bytes);
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            for (int i = 0; i < iters; i++)
                run(op, bytes);
            double t = (MPI_Wtime() - t0) / iters * 1e6, tmax;
            MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
            if (rank == 0) {
                printf("%s %ld %.3f\n", op, bytes, tmax);
                fflush(stdout);
            }
            if (barrier)
                break;
        }
    }
    free(sbuf);
    free(rbuf);
    free(counts);
    free(displs);
    MPI_Finalize();
    return 0;
}
