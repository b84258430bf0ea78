/*
 * coll_repro.c: reproducibility of floating-point reductions. The values
 * span many orders of magnitude, so any change in the order of the
 * additions changes the bits of the result. For every allreduce algorithm
 * (forced through the hint tide_coll_tuning) and for reduce,
 * reduce_scatter_block and scan, at several counts: repeated calls give
 * bit-identical results, the nonblocking form gives the same bits as the
 * blocking one (reduce_scatter_block and scan too), and (allreduce)
 * every rank holds the same bits (checked over point-to-point). Rank 0 prints one hash per case; the test suite
 * runs the program twice and compares the output, so the results are
 * also the same from run to run.
 */
#include "testutil.h"

#include <math.h>
#include <stdint.h>

static int rank, size;

static uint64_t fnv(const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

static double value(int r, int i)
{
    /* magnitudes from 1e-12 to 1e12 and both signs */
    double m = pow(10.0, (double)(((r * 7 + i * 13) % 25) - 12));
    return ((r + i) % 3 == 0 ? -m : m) * (1.0 + (double)((r * 31 + i) % 97) / 97.0);
}

static void same_everywhere(uint64_t h, const char *what)
{
    if (rank == 0) {
        for (int r = 1; r < size; r++) {
            uint64_t o;
            CHECK_OK(MPI_Recv(&o, 1, MPI_UINT64_T, r, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(o == h, "%s: rank %d holds other bits than rank 0", what, r);
        }
    } else {
        CHECK_OK(MPI_Send(&h, 1, MPI_UINT64_T, 0, 9, MPI_COMM_WORLD));
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    static const int counts[] = {1, 37, 1000, 100003};
    static const char *algs[] = {"auto", "rd", "rabenseifner", "ring", "reduce_bcast", "linear", "direct", "hier", "shm"};
    int maxc = counts[3];
    double *s = malloc((size_t)maxc * size * sizeof *s), *r = malloc((size_t)maxc * size * sizeof *r);
    for (int i = 0; i < maxc * size; i++)
        s[i] = value(rank, i);
    MPI_Comm c;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    for (int a = 0; a < 9; a++) {
        char hint[64];
        snprintf(hint, sizeof hint, "allreduce=%s,reduce=%s", algs[a], a == 3 || a == 5 || a == 7 ? algs[a] : "auto");
        tu_set_coll_hint(c, hint);
        for (int ci = 0; ci < 4; ci++) {
            int n = counts[ci];
            CHECK_OK(MPI_Allreduce(s, r, n, MPI_DOUBLE, MPI_SUM, c));
            uint64_t h = fnv(r, (size_t)n * sizeof *r);
            for (int rep = 0; rep < 2; rep++) {
                CHECK_OK(MPI_Allreduce(s, r, n, MPI_DOUBLE, MPI_SUM, c));
                CHECK(fnv(r, (size_t)n * sizeof *r) == h, "allreduce %s count %d: a repeat gave other bits",
                      algs[a], n);
            }
            MPI_Request rq;
            CHECK_OK(MPI_Iallreduce(s, r, n, MPI_DOUBLE, MPI_SUM, c, &rq));
            CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
            CHECK(fnv(r, (size_t)n * sizeof *r) == h, "iallreduce %s count %d: other bits than allreduce",
                  algs[a], n);
            same_everywhere(h, "allreduce");
            /* reduce to two roots */
            for (int root = 0; root < size; root += size - 1 > 0 ? size - 1 : 1) {
                CHECK_OK(MPI_Reduce(s, r, n, MPI_DOUBLE, MPI_SUM, root, c));
                uint64_t hr = rank == root ? fnv(r, (size_t)n * sizeof *r) : 0;
                CHECK_OK(MPI_Reduce(s, r, n, MPI_DOUBLE, MPI_SUM, root, c));
                if (rank == root)
                    CHECK(fnv(r, (size_t)n * sizeof *r) == hr, "reduce: a repeat gave other bits");
                CHECK_OK(MPI_Ireduce(s, r, n, MPI_DOUBLE, MPI_SUM, root, c, &rq));
                CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
                if (rank == root)
                    CHECK(fnv(r, (size_t)n * sizeof *r) == hr, "ireduce: other bits than reduce");
                if (rank == root && root == 0)
                    printf("reduce %s %d %016llx\n", algs[a], n, (unsigned long long)hr);
                if (size == 1)
                    break;
            }
            if (rank == 0)
                printf("allreduce %s %d %016llx\n", algs[a], n, (unsigned long long)h);
        }
    }
    /* reduce_scatter_block and scan, default algorithms */
    for (int ci = 0; ci < 3; ci++) {
        int n = counts[ci];
        CHECK_OK(MPI_Reduce_scatter_block(s, r, n, MPI_DOUBLE, MPI_SUM, c));
        uint64_t h = fnv(r, (size_t)n * sizeof *r);
        CHECK_OK(MPI_Reduce_scatter_block(s, r, n, MPI_DOUBLE, MPI_SUM, c));
        CHECK(fnv(r, (size_t)n * sizeof *r) == h, "reduce_scatter_block: a repeat gave other bits");
        MPI_Request rq;
        CHECK_OK(MPI_Ireduce_scatter_block(s, r, n, MPI_DOUBLE, MPI_SUM, c, &rq));
        CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        CHECK(fnv(r, (size_t)n * sizeof *r) == h, "ireduce_scatter_block count %d: other bits than the blocking form",
              n);
        CHECK_OK(MPI_Scan(s, r, n, MPI_DOUBLE, MPI_SUM, c));
        uint64_t hs = fnv(r, (size_t)n * sizeof *r);
        CHECK_OK(MPI_Iscan(s, r, n, MPI_DOUBLE, MPI_SUM, c, &rq));
        CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        CHECK(fnv(r, (size_t)n * sizeof *r) == hs, "iscan: other bits than scan");
        uint64_t both[2] = {h, hs};
        if (rank == 0) {
            printf("reduce_scatter_block+scan rank 0 %d %016llx %016llx\n", n, (unsigned long long)both[0],
                   (unsigned long long)both[1]);
            for (int q = 1; q < size; q++) {
                CHECK_OK(MPI_Recv(both, 2, MPI_UINT64_T, q, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
                printf("reduce_scatter_block+scan rank %d %d %016llx %016llx\n", q, n, (unsigned long long)both[0],
                       (unsigned long long)both[1]);
            }
        } else {
            CHECK_OK(MPI_Send(both, 2, MPI_UINT64_T, 0, 10, MPI_COMM_WORLD));
        }
    }
    MPI_Comm_free(&c);
    free(s);
    free(r);
    MPI_Finalize();
    return 0;
}
