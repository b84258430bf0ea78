/*
 * rma.c: one-sided (RMA) communication costs between ranks 0 (origin) and
 * 1 (target) on MPI_Win_allocate windows (MPI_Win_create for the "create"
 * group), in the manner of osu_put_latency / osu_get_bw / osu_acc_latency:
 * for each measure, a probe sized so that the timed loops last about
 * RMA_BENCH_SECONDS (0.05) in all, agreed by all ranks, then 5 timed loops
 * on rank 0, of which the median counts. Plain MPI, so it builds with any
 * implementation.
 *
 * usage: rma GROUPS [minbytes [maxbytes]]
 *   GROUPS: comma-separated list of
 *   lat     put_lock, get_lock: MPI_Win_lock(exclusive) + op + unlock per op;
 *           put_flush, get_flush: op + MPI_Win_flush in a lock_all epoch (us)
 *   bw      put_bw, get_bw: 64 ops then MPI_Win_flush, lock_all epoch (MB/s)
 *   atomic  acc_rate (MPI_Accumulate MPI_SUM doubles, 8 B and 1 KiB) and
 *           fop_rate (MPI_Fetch_and_op MPI_SUM long): 64 ops then flush
 *           (Mop/s); fop_lat, cas_lat (MPI_Compare_and_swap): op + flush (us);
 *           aborts if the fetch_and_op counter misses increments
 *   sync    lock_unlock: MPI_Win_lock + unlock, no op; pscw: post/start/
 *           complete/wait, no op; fence: MPI_Win_fence, no op (us)
 *   fence   fence only (for runs with more than 2 ranks)
 *   create  put_flush_wc, get_flush_wc, put_bw_wc, get_bw_wc: as above on
 *           an MPI_Win_create window over malloc'ed memory
 * Sizes: minbytes (8), then powers of 4 from 16 up to maxbytes (1 MiB).
 * Prints "name size value" lines; for fence the size is the rank count,
 * for lock_unlock and pscw it is 0. After each group, a "#done GROUP"
 * line, so that a runner can tell where a failing run stopped.
 */
#define _POSIX_C_SOURCE 200809L /* posix_memalign, strdup */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW 64
#define FOP_DISP 2048 /* fetch_and_op counter in the window (bytes) */
#define CAS_DISP 2056 /* compare_and_swap word */

enum kind {
    PUT_LOCK, GET_LOCK, PUT_FLUSH, GET_FLUSH, PUT_BW, GET_BW,
    ACC_RATE, FOP_RATE, FOP_LAT, CAS_LAT, LOCK_UNLOCK, PSCW, FENCE
};

static int rank, nranks;
static MPI_Win win;
static char *lbuf;           /* origin buffer */
static long res[WINDOW];     /* fetch results */
static long fops;            /* fetch_and_op calls made so far */
static MPI_Group origin_grp, target_grp;
static double budget = 0.05;

/* WINDOW-op batches or single ops of kind k, n bytes, iters times */
static void run(enum kind k, long n, long iters)
{
    int cnt = (int)n;
    int dcnt = (int)(n / (long)sizeof(double));
    long one = 1, cmp = 0;
    for (long i = 0; i < iters; i++) {
        switch (k) {
        case PUT_LOCK:
            if (rank == 0) {
                MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
                MPI_Put(lbuf, cnt, MPI_BYTE, 1, 0, cnt, MPI_BYTE, win);
                MPI_Win_unlock(1, win);
            }
            break;
        case GET_LOCK:
            if (rank == 0) {
                MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
                MPI_Get(lbuf, cnt, MPI_BYTE, 1, 0, cnt, MPI_BYTE, win);
                MPI_Win_unlock(1, win);
            }
            break;
        case PUT_FLUSH:
            if (rank == 0) {
                MPI_Put(lbuf, cnt, MPI_BYTE, 1, 0, cnt, MPI_BYTE, win);
                MPI_Win_flush(1, win);
            }
            break;
        case GET_FLUSH:
            if (rank == 0) {
                MPI_Get(lbuf, cnt, MPI_BYTE, 1, 0, cnt, MPI_BYTE, win);
                MPI_Win_flush(1, win);
            }
            break;
        case PUT_BW:
        case GET_BW:
            if (rank == 0) {
                for (int w = 0; w < WINDOW; w++) {
                    if (k == PUT_BW)
                        MPI_Put(lbuf, cnt, MPI_BYTE, 1, 0, cnt, MPI_BYTE, win);
                    else
                        MPI_Get(lbuf, cnt, MPI_BYTE, 1, 0, cnt, MPI_BYTE, win);
                }
                MPI_Win_flush(1, win);
            }
            break;
        case ACC_RATE:
            if (rank == 0) {
                for (int w = 0; w < WINDOW; w++)
                    MPI_Accumulate(lbuf, dcnt, MPI_DOUBLE, 1, 0, dcnt, MPI_DOUBLE, MPI_SUM, win);
                MPI_Win_flush(1, win);
            }
            break;
        case FOP_RATE:
            if (rank == 0) {
                fops += WINDOW;
                for (int w = 0; w < WINDOW; w++)
                    MPI_Fetch_and_op(&one, &res[w], MPI_LONG, 1, FOP_DISP, MPI_SUM, win);
                MPI_Win_flush(1, win);
            }
            break;
        case FOP_LAT:
            if (rank == 0) {
                fops++;
                MPI_Fetch_and_op(&one, &res[0], MPI_LONG, 1, FOP_DISP, MPI_SUM, win);
                MPI_Win_flush(1, win);
            }
            break;
        case CAS_LAT:
            if (rank == 0) {
                MPI_Compare_and_swap(&one, &cmp, &res[0], MPI_LONG, 1, CAS_DISP, win);
                MPI_Win_flush(1, win);
            }
            break;
        case LOCK_UNLOCK:
            if (rank == 0) {
                MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
                MPI_Win_unlock(1, win);
            }
            break;
        case PSCW:
            if (rank == 0) {
                MPI_Win_start(target_grp, 0, win);
                MPI_Win_complete(win);
            } else if (rank == 1) {
                MPI_Win_post(origin_grp, 0, win);
                MPI_Win_wait(win);
            }
            break;
        case FENCE:
            MPI_Win_fence(0, win);
            break;
        }
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* seconds per call of run(k, n, 1), as timed on rank 0: the median of
 * CHUNKS timed loops lasting budget in all (the median rather than the
 * mean, so a rank descheduled for a while on a busy machine spoils one
 * chunk, not the figure) */
#define CHUNKS 5
static double measure(enum kind k, long n)
{
    long iters = 1;
    double t;
    for (;;) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        run(k, n, iters);
        t = MPI_Wtime() - t0;
        MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        if (t > budget / 8 || iters >= 1 << 22)
            break;
        iters *= 4;
    }
    double per = t / iters;
    if (t > budget / 2)
        return per; /* slow: the probe is the measurement */
    long want = (long)(budget / CHUNKS / (per > 1e-9 ? per : 1e-9));
    if (want < 2)
        want = 2;
    if (want > 1 << 20)
        want = 1 << 20;
    double chunk[CHUNKS];
    MPI_Barrier(MPI_COMM_WORLD);
    for (int c = 0; c < CHUNKS; c++) {
        double t0 = MPI_Wtime();
        run(k, n, want);
        chunk[c] = (MPI_Wtime() - t0) / want;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    qsort(chunk, CHUNKS, sizeof chunk[0], cmp_double);
    return chunk[CHUNKS / 2];
}

static void out(const char *name, const char *suffix, long n, double v)
{
    if (rank == 0) {
        printf("%s%s %ld %.3f\n", name, suffix, n, v);
        fflush(stdout);
    }
}

static long next_size(long n, long minb)
{
    if (n == minb && n < 16)
        return 16;
    return n * 4;
}

static void group_lat(const char *sfx, int with_lock, long minb, long maxb)
{
    for (long n = minb; with_lock && n <= maxb; n = next_size(n, minb))
        out("put_lock", sfx, n, measure(PUT_LOCK, n) * 1e6);
    for (long n = minb; with_lock && n <= maxb; n = next_size(n, minb))
        out("get_lock", sfx, n, measure(GET_LOCK, n) * 1e6);
    MPI_Win_lock_all(0, win);
    for (long n = minb; n <= maxb; n = next_size(n, minb))
        out("put_flush", sfx, n, measure(PUT_FLUSH, n) * 1e6);
    for (long n = minb; n <= maxb; n = next_size(n, minb))
        out("get_flush", sfx, n, measure(GET_FLUSH, n) * 1e6);
    MPI_Win_unlock_all(win);
}

static void group_bw(const char *sfx, long minb, long maxb)
{
    MPI_Win_lock_all(0, win);
    for (long n = minb; n <= maxb; n = next_size(n, minb))
        out("put_bw", sfx, n, (double)n * WINDOW / measure(PUT_BW, n) / 1e6);
    for (long n = minb; n <= maxb; n = next_size(n, minb))
        out("get_bw", sfx, n, (double)n * WINDOW / measure(GET_BW, n) / 1e6);
    MPI_Win_unlock_all(win);
}

static void group_atomic(void)
{
    MPI_Win_lock_all(0, win);
    out("acc_rate", "", 8, WINDOW / measure(ACC_RATE, 8) / 1e6);
    out("acc_rate", "", 1024, WINDOW / measure(ACC_RATE, 1024) / 1e6);
    out("fop_rate", "", 8, WINDOW / measure(FOP_RATE, 8) / 1e6);
    out("fop_lat", "", 8, measure(FOP_LAT, 8) * 1e6);
    if (rank == 0) { /* every increment must have landed */
        long now = -1;
        MPI_Fetch_and_op(NULL, &now, MPI_LONG, 1, FOP_DISP, MPI_NO_OP, win);
        MPI_Win_flush(1, win);
        if (now != fops) {
            fprintf(stderr, "rma: fetch_and_op counter is %ld, expected %ld\n", now, fops);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    out("cas_lat", "", 8, measure(CAS_LAT, 8) * 1e6);
    MPI_Win_unlock_all(win);
}

static void group_sync(int all)
{
    if (all) {
        out("lock_unlock", "", 0, measure(LOCK_UNLOCK, 0) * 1e6);
        out("pscw", "", 0, measure(PSCW, 0) * 1e6);
    }
    MPI_Win_fence(0, win);
    out("fence", "", nranks, measure(FENCE, 0) * 1e6);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    const char *groups = argc > 1 ? argv[1] : "lat,bw,atomic,sync";
    long minb = argc > 2 ? atol(argv[2]) : 8;
    long maxb = argc > 3 ? atol(argv[3]) : 1 << 20;
    const char *s = getenv("RMA_BENCH_SECONDS");
    if (s && atof(s) > 0)
        budget = atof(s);
    if (minb < 8)
        minb = 8;
    if (maxb < minb)
        maxb = minb;
    size_t wsize = (size_t)maxb + 4096;
    if (posix_memalign((void **)&lbuf, 4096, wsize))
        MPI_Abort(MPI_COMM_WORLD, 1);
    memset(lbuf, 0, wsize);

    MPI_Group world;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int r0 = 0, r1 = 1;
    MPI_Group_incl(world, 1, &r0, &origin_grp);
    MPI_Group_incl(world, nranks > 1 ? 1 : 0, &r1, &target_grp);

    char *list = strdup(groups);
    for (char *g = strtok(list, ","); g; g = strtok(NULL, ",")) {
        int create = !strcmp(g, "create");
        char *mem = NULL;
        if (create) {
            if (posix_memalign((void **)&mem, 4096, wsize))
                MPI_Abort(MPI_COMM_WORLD, 1);
            memset(mem, 0, wsize);
            MPI_Win_create(mem, (MPI_Aint)wsize, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
        } else {
            MPI_Win_allocate((MPI_Aint)wsize, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
            memset(mem, 0, wsize);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (!strcmp(g, "lat"))
            group_lat("", 1, minb, maxb);
        else if (!strcmp(g, "bw"))
            group_bw("", minb, maxb);
        else if (!strcmp(g, "atomic"))
            group_atomic();
        else if (!strcmp(g, "sync"))
            group_sync(1);
        else if (!strcmp(g, "fence"))
            group_sync(0);
        else if (create) {
            group_lat("_wc", 0, minb, maxb);
            group_bw("_wc", minb, maxb);
        } else if (rank == 0)
            fprintf(stderr, "rma: unknown group %s\n", g);
        MPI_Win_free(&win);
        if (rank == 0) {
            printf("#done %s\n", g);
            fflush(stdout);
        }
        if (create)
            free(mem);
    }
    free(list);
    MPI_Group_free(&origin_grp);
    MPI_Group_free(&target_grp);
    MPI_Group_free(&world);
    free(lbuf);
    MPI_Finalize();
    return 0;
}
