/*
 * dpm.c: dynamic-process timings, plain MPI so it builds with any
 * implementation. Usage:
 *   dpm spawn N REPS       time MPI_Comm_spawn of N children up to the first
 *                          message from them (median of REPS, ms)
 *   dpm names REPS         time MPI_Publish_name + MPI_Lookup_name (median, ms)
 *   dpm server FILE REPS   accept REPS connections on a port written to FILE
 *   dpm client FILE REPS   time MPI_Comm_connect to that port up to the first
 *                          message back (median, ms)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        int rank, one = 1;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        if (rank == 0)
            MPI_Send(&one, 1, MPI_INT, 0, 0, parent);
        MPI_Comm_disconnect(&parent);
        MPI_Finalize();
        return 0;
    }
    const char *mode = argc > 1 ? argv[1] : "spawn";
    double t[1000];
    if (strcmp(mode, "spawn") == 0) {
        int n = argc > 2 ? atoi(argv[2]) : 1, reps = argc > 3 ? atoi(argv[3]) : 10;
        for (int i = 0; i < reps && i < 1000; i++) {
            MPI_Comm child;
            int v;
            double t0 = MPI_Wtime();
            MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, n, MPI_INFO_NULL, 0, MPI_COMM_SELF, &child, MPI_ERRCODES_IGNORE);
            MPI_Recv(&v, 1, MPI_INT, 0, 0, child, MPI_STATUS_IGNORE);
            t[i] = (MPI_Wtime() - t0) * 1e3;
            MPI_Comm_disconnect(&child);
        }
        printf("spawn %d: %.2f ms\n", n, median(t, reps));
    } else if (strcmp(mode, "names") == 0) {
        int reps = argc > 2 ? atoi(argv[2]) : 100;
        char port[MPI_MAX_PORT_NAME];
        for (int i = 0; i < reps && i < 1000; i++) {
            char svc[64];
            snprintf(svc, sizeof svc, "bench-svc-%d", i);
            double t0 = MPI_Wtime();
            MPI_Publish_name(svc, MPI_INFO_NULL, "bench-port");
            MPI_Lookup_name(svc, MPI_INFO_NULL, port);
            t[i] = (MPI_Wtime() - t0) * 1e3;
            MPI_Unpublish_name(svc, MPI_INFO_NULL, "bench-port");
        }
        printf("publish+lookup: %.3f ms\n", median(t, reps));
    } else if (strcmp(mode, "server") == 0) {
        int reps = argc > 3 ? atoi(argv[3]) : 10;
        char port[MPI_MAX_PORT_NAME];
        MPI_Open_port(MPI_INFO_NULL, port);
        char tmp[4096];
        snprintf(tmp, sizeof tmp, "%s.tmp", argv[2]);
        FILE *f = fopen(tmp, "w");
        fprintf(f, "%s\n", port);
        fclose(f);
        rename(tmp, argv[2]);
        for (int i = 0; i < reps; i++) {
            MPI_Comm c;
            int one = 1;
            MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &c);
            MPI_Send(&one, 1, MPI_INT, 0, 0, c);
            MPI_Comm_disconnect(&c);
        }
        MPI_Close_port(port);
    } else {
        int reps = argc > 3 ? atoi(argv[3]) : 10;
        char port[MPI_MAX_PORT_NAME];
        FILE *f = fopen(argv[2], "r");
        if (!f || !fgets(port, sizeof port, f))
            return 1;
        fclose(f);
        port[strcspn(port, "\n")] = '\0';
        for (int i = 0; i < reps && i < 1000; i++) {
            MPI_Comm c;
            int v;
            double t0 = MPI_Wtime();
            MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &c);
            MPI_Recv(&v, 1, MPI_INT, 0, 0, c, MPI_STATUS_IGNORE);
            t[i] = (MPI_Wtime() - t0) * 1e3;
            MPI_Comm_disconnect(&c);
        }
        printf("connect/accept: %.2f ms\n", median(t, reps));
    }
    MPI_Finalize();
    return 0;
}
