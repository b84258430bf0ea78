/*
 * dt_bench.c: datatype engine benchmark, plain MPI (builds with any
 * MPI's mpicc). Measures MPI_Pack and MPI_Unpack throughput, and
 * send/receive bandwidth between two ranks, for:
 *   vec1of2   MPI_Type_vector(n, 1, 2, MPI_DOUBLE): one double every two
 *   vec64     MPI_Type_vector(n/64, 64, 128, MPI_DOUBLE): blocks of 64 doubles
 *   indexed   MPI_Type_indexed, blocks of 1..8 doubles with gaps of 1..3
 *   face_x    the x = const face of a 3-D array of doubles (one double per row)
 *   face_y    the y = const face (one row of the array per plane)
 * each at a cache-sized and a memory-sized payload. Prints one line per
 * case: "<op> <type> <bytes> <MB/s>" (median of the repetitions, MB =
 * 10^6 bytes of payload).
 *
 *   mpiexec -n 1 dt_bench pack [repetitions]
 *   mpiexec -n 2 dt_bench sendrecv [repetitions]
 * pack runs on rank 0 only (run it alone: a second rank waiting would
 * compete for the memory bandwidth); sendrecv needs 2 ranks.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bcase {
    char name[32];
    MPI_Datatype t;
    size_t span;    /* bytes of memory the type covers */
    size_t payload; /* bytes of data */
};

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void finish(struct bcase *c, const char *name)
{
    MPI_Aint lb, ext;
    int size;
    MPI_Type_commit(&c->t);
    MPI_Type_get_extent(c->t, &lb, &ext);
    MPI_Type_size(c->t, &size);
    snprintf(c->name, sizeof c->name, "%s", name);
    c->span = (size_t)ext;
    c->payload = (size_t)size;
}

static int make_cases(struct bcase *cs, int big)
{
    int n = 0;
    size_t doubles = big ? (size_t)1 << 20 : (size_t)1 << 14; /* 8 MB or 128 KB of payload */
    MPI_Type_vector((int)doubles, 1, 2, MPI_DOUBLE, &cs[n].t);
    finish(&cs[n++], "vec1of2");
    MPI_Type_vector((int)(doubles / 64), 64, 128, MPI_DOUBLE, &cs[n].t);
    finish(&cs[n++], "vec64");
    int nb = 0, cap = (int)doubles, *bl = malloc((size_t)cap * sizeof *bl), *ds = malloc((size_t)cap * sizeof *ds);
    size_t tot = 0;
    int at = 0;
    for (unsigned k = 1; tot < doubles; k++) {
        int b = 1 + (int)((k * 2654435761u) >> 29); /* 1..8 */
        if (tot + (size_t)b > doubles)
            b = (int)(doubles - tot);
        bl[nb] = b;
        ds[nb++] = at;
        at += b + 1 + (int)(k % 3);
        tot += (size_t)b;
    }
    MPI_Type_indexed(nb, bl, ds, MPI_DOUBLE, &cs[n].t);
    free(bl);
    free(ds);
    finish(&cs[n++], "indexed");
    int e = big ? 362 : 45; /* a face of e*e doubles: 1 MB / 16 KB; x face and y face */
    int sizes[3] = {e, e, e}, fx[3] = {e, e, 1}, fy[3] = {e, 1, e}, st[3] = {0, 0, 0};
    MPI_Type_create_subarray(3, sizes, fx, st, MPI_ORDER_C, MPI_DOUBLE, &cs[n].t);
    finish(&cs[n++], "face_x");
    MPI_Type_create_subarray(3, sizes, fy, st, MPI_ORDER_C, MPI_DOUBLE, &cs[n].t);
    finish(&cs[n++], "face_y");
    return n;
}

static double now(void)
{
    return MPI_Wtime();
}

/* page-aligned buffers, so every MPI sees the same alignment */
static char *xalloc(size_t n, int fill)
{
    void *p = NULL;
    if (posix_memalign(&p, 4096, n ? n : 1) != 0)
        abort();
    memset(p, fill, n);
    return p;
}

static void bench_pack(struct bcase *c, int reps)
{
    char *src = xalloc(c->span, 1), *packed = xalloc(c->payload, 0), *dst = xalloc(c->span, 0);
    int inner = (int)(64 * 1024 * 1024 / c->payload);
    if (inner < 1)
        inner = 1;
    if (inner > 2000)
        inner = 2000;
    double *t = malloc((size_t)reps * sizeof *t);
    for (int unpack = 0; unpack < 2; unpack++) {
        for (int r = -1; r < reps; r++) { /* r = -1 warms up */
            double t0 = now();
            for (int k = 0; k < inner; k++) {
                int pos = 0;
                if (unpack)
                    MPI_Unpack(packed, (int)c->payload, &pos, dst, 1, c->t, MPI_COMM_SELF);
                else
                    MPI_Pack(src, 1, c->t, packed, (int)c->payload, &pos, MPI_COMM_SELF);
            }
            double t1 = now();
            if (r >= 0)
                t[r] = (double)c->payload * inner / (t1 - t0) / 1e6;
        }
        printf("%s %s %zu %.1f\n", unpack ? "unpack" : "pack", c->name, c->payload, median(t, reps));
        fflush(stdout);
    }
    free(t);
    free(src);
    free(packed);
    free(dst);
}

/* ping-pong: rank 0 sends the type, rank 1 receives it with the same type
 * and sends it back; bandwidth = 2 * payload / round trip */
static void bench_sendrecv(struct bcase *c, int reps, int rank)
{
    char *buf = xalloc(c->span, rank + 1);
    int inner = (int)(32 * 1024 * 1024 / c->payload);
    if (inner < 2)
        inner = 2;
    if (inner > 1000)
        inner = 1000;
    double *bw = malloc((size_t)reps * sizeof *bw);
    for (int r = -1; r < reps; r++) {
        if (rank < 2) /* line the two up (without needing collectives) */
            MPI_Sendrecv(NULL, 0, MPI_BYTE, 1 - rank, 8, NULL, 0, MPI_BYTE, 1 - rank, 8, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
        double t0 = now();
        for (int k = 0; k < inner; k++) {
            if (rank == 0) {
                MPI_Send(buf, 1, c->t, 1, 7, MPI_COMM_WORLD);
                MPI_Recv(buf, 1, c->t, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 1) {
                MPI_Recv(buf, 1, c->t, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, 1, c->t, 0, 7, MPI_COMM_WORLD);
            }
        }
        double t1 = now();
        if (r >= 0)
            bw[r] = 2.0 * (double)c->payload * inner / (t1 - t0) / 1e6;
    }
    if (rank == 0) {
        printf("sendrecv %s %zu %.1f\n", c->name, c->payload, median(bw, reps));
        fflush(stdout);
    }
    free(bw);
    free(buf);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *what = argc > 1 ? argv[1] : "all";
    int reps = argc > 2 ? atoi(argv[2]) : 7;
    if (reps < 1)
        reps = 1;
    for (int big = 0; big < 2; big++) {
        struct bcase cs[8];
        int n = make_cases(cs, big);
        if (rank == 0 && (!strcmp(what, "pack") || !strcmp(what, "all")))
            for (int i = 0; i < n; i++)
                bench_pack(&cs[i], reps);
        if (size >= 2 && (!strcmp(what, "sendrecv") || !strcmp(what, "all")))
            for (int i = 0; i < n; i++)
                bench_sendrecv(&cs[i], reps, rank);
        for (int i = 0; i < n; i++)
            MPI_Type_free(&cs[i].t);
    }
    MPI_Finalize();
    return 0;
}
