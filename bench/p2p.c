/*
 * p2p.c: point-to-point latency, bandwidth and bidirectional bandwidth
 * between ranks 0 and 1, in the manner of osu_latency / osu_bw /
 * osu_bibw: ping-pong half round trip; a window of 64 nonblocking sends
 * then an acknowledgement; both directions at once. Plain MPI, so it
 * builds with any implementation. Usage:
 *   p2p lat|bw|bibw [maxbytes] [sizes=LIST]
 * Without sizes= the sizes are 0 and the powers of 2 up to maxbytes
 * (default 4 MiB). sizes=pow23 takes the powers of 2 and the powers of 3
 * from 1 up to maxbytes, in increasing order (1,2,3,4,8,9,16,27,...);
 * sizes=a,b,c takes exactly those sizes.
 * Prints "size value" lines (microseconds or MB/s).
 */
#define _POSIX_C_SOURCE 200809L /* posix_memalign under -std=c11 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW 64
#define MAX_SIZES 256

static int compare_longs(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* Fill sizes from "pow23" or a comma-separated list; returns the count,
 * or -1 if the list does not parse. */
static int parse_sizes(const char *list, long maxn, long *sizes)
{
    int count = 0;
    if (strcmp(list, "pow23") == 0) {
        for (long p = 1; p <= maxn && count < MAX_SIZES; p *= 2)
            sizes[count++] = p;
        for (long p = 3; p <= maxn && count < MAX_SIZES; p *= 3)
            sizes[count++] = p;
        qsort(sizes, (size_t)count, sizeof sizes[0], compare_longs);
        return count;
    }
    const char *cursor = list;
    while (*cursor && count < MAX_SIZES) {
        char *end;
        long n = strtol(cursor, &end, 10);
        if (end == cursor || n < 0 || (*end != ',' && *end != '\0'))
            return -1;
        sizes[count++] = n;
        cursor = *end == ',' ? end + 1 : end;
    }
    return count;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *mode = argc > 1 ? argv[1] : "lat";
    long maxn = 4 << 20;
    const char *size_list = NULL;
    for (int a = 2; a < argc; a++) {
        if (strncmp(argv[a], "sizes=", 6) == 0)
            size_list = argv[a] + 6;
        else
            maxn = atol(argv[a]);
    }
    long sizes[MAX_SIZES];
    int nsizes = 0;
    if (size_list) {
        nsizes = parse_sizes(size_list, maxn, sizes);
        if (nsizes < 0) {
            if (rank == 0)
                fprintf(stderr, "p2p: bad size list '%s'\n", size_list);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        maxn = 0;
        for (int k = 0; k < nsizes; k++)
            if (sizes[k] > maxn)
                maxn = sizes[k];
    } else {
        for (long n = 0; n <= maxn && nsizes < MAX_SIZES; n = n ? n * 2 : 1)
            sizes[nsizes++] = n;
    }
    char *sbuf, *rbuf;
    if (posix_memalign((void **)&sbuf, 4096, (size_t)maxn * WINDOW / 16 + (size_t)maxn + 4096) ||
        posix_memalign((void **)&rbuf, 4096, (size_t)maxn * WINDOW / 16 + (size_t)maxn + 4096))
        return 1;
    memset(sbuf, 1, (size_t)maxn);
    memset(rbuf, 0, (size_t)maxn);
    MPI_Request req[2 * WINDOW];
    MPI_Status st[2 * WINDOW];
    int peer = 1 - rank;
    for (int size_index = 0; size_index < nsizes; size_index++) {
        long n = sizes[size_index];
        int iters = n <= 8192 ? 20000 : n <= 262144 ? 2000 : 200;
        int skip = iters / 10;
        if (strcmp(mode, "lat") == 0) {
            double t0 = 0;
            for (int i = 0; i < iters + skip; i++) {
                if (i == skip)
                    t0 = MPI_Wtime();
                if (rank == 0) {
                    MPI_Send(sbuf, (int)n, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
                    MPI_Recv(rbuf, (int)n, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                } else if (rank == 1) {
                    MPI_Recv(rbuf, (int)n, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    MPI_Send(sbuf, (int)n, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
                }
            }
            double t = (MPI_Wtime() - t0) * 1e6 / iters / 2;
            if (rank == 0)
                printf("%ld %.3f\n", n, t);
        } else {
            int bi = strcmp(mode, "bibw") == 0;
            iters /= 10;
            if (iters < 20)
                iters = 20;
            skip = 2;
            double t0 = 0;
            for (int i = 0; i < iters + skip; i++) {
                if (i == skip)
                    t0 = MPI_Wtime();
                if (rank <= 1) {
                    int k = 0;
                    if (rank == 0 || bi)
                        for (int w = 0; w < WINDOW; w++)
                            MPI_Isend(sbuf, (int)n, MPI_CHAR, peer, 2, MPI_COMM_WORLD, &req[k++]);
                    if (rank == 1 || bi)
                        for (int w = 0; w < WINDOW; w++)
                            MPI_Irecv(rbuf, (int)n, MPI_CHAR, peer, 2, MPI_COMM_WORLD, &req[k++]);
                    MPI_Waitall(k, req, st);
                    if (rank == 1)
                        MPI_Send(sbuf, 0, MPI_CHAR, 0, 3, MPI_COMM_WORLD);
                    else
                        MPI_Recv(rbuf, 0, MPI_CHAR, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                }
            }
            double t = MPI_Wtime() - t0;
            double mb = (double)n * WINDOW * iters * (bi ? 2 : 1) / t / 1e6;
            if (rank == 0)
                printf("%ld %.1f\n", n, mb);
        }
    }
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
