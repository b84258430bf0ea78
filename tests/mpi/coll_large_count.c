/*
 * coll_large_count.c: the MPI-4.0 large-count collectives. With small
 * counts every _c collective, blocking and nonblocking, leaves the same
 * result as its int twin on the same input (v-forms with MPI_Count counts
 * and MPI_Aint displacements, neighbourhood forms on a ring); so does every
 * persistent _init_c collective, started twice on changing input, against
 * its int _init twin. Then, unless TIDE_TEST_NO_BIG is set, displacements
 * beyond 2^31 elements and bytes, which no int can hold, on buffers mapped
 * sparsely (only the pages written take memory): MPI_Alltoallv_c,
 * MPI_Gatherv_c, MPI_Scatterv_c and MPI_Allgatherv_c (and
 * MPI_Allgatherv_init_c, started twice) place and take each block at its
 * displacement, and MPI_Alltoallw_c (and MPI_Alltoallw_init_c) at its byte
 * displacement.
 */
#include <limits.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "testutil.h"

#define K 5 /* elements per block */

static int rank, size;

/* Run an int collective and its _c twin (same arguments but for the
 * count types) into two receive buffers and compare them. */
#define SAME(what, rb1, rb2, n)                                                                    \
    CHECK(memcmp(rb1, rb2, (n) * sizeof(int)) == 0, "%s: the _c form left a different result", what)

static void set(int *b, int n, int seed)
{
    for (int i = 0; i < n; i++)
        b[i] = seed * 1000 + i;
}

/* How the collectives of one pass are called. */
enum form { BLOCKING, NONBLOCKING, PERSISTENT };

static void twins(enum form form)
{
    int nb = form == NONBLOCKING;
    int P = size, N = K * P, M = 2 * K * (P > 2 ? P : 2); /* ints in each buffer */
    int *sb = malloc(M * sizeof(int)), *r1 = malloc(M * sizeof(int)), *r2 = malloc(M * sizeof(int));
    int icnt[64], idsp[64];
    MPI_Count ccnt[64];
    MPI_Aint cdsp[64];
    MPI_Request rq = MPI_REQUEST_NULL;
    /* v-layout: block i has i % 3 + 1 elements at displacement 2 * K * i (gaps between) */
    for (int i = 0; i < P; i++) {
        icnt[i] = i % 3 + 1;
        idsp[i] = 2 * K * i;
        ccnt[i] = icnt[i];
        cdsp[i] = idsp[i];
    }
    int mine = rank % 3 + 1;
    set(sb, M, rank + 1);
#define CLEAR() (memset(r1, 0xff, M * sizeof(int)), memset(r2, 0xff, M * sizeof(int)))
    const char *tag = form == PERSISTENT ? "persistent" : nb ? "nonblocking" : "blocking";
    char what[64];
#define NAME(s) (snprintf(what, sizeof what, "%s %s", tag, s), what)

    MPI_Request rq1, rq2;
    if (form == PERSISTENT) {
        CHECK_OK(MPI_Bcast_init(r1, K, MPI_INT, 1 % P, MPI_COMM_WORLD, MPI_INFO_NULL, &rq1));
        CHECK_OK(MPI_Bcast_init_c(r2, K, MPI_INT, 1 % P, MPI_COMM_WORLD, MPI_INFO_NULL, &rq2));
        for (int round = 0; round < 2; round++) {
            set(sb, M, rank + 1 + 7 * round);
            CLEAR();
            memcpy(r1, sb, K * sizeof(int));
            memcpy(r2, sb, K * sizeof(int));
            CHECK_OK(MPI_Start(&rq1));
            CHECK_OK(MPI_Wait(&rq1, MPI_STATUS_IGNORE));
            CHECK_OK(MPI_Start(&rq2));
            CHECK_OK(MPI_Wait(&rq2, MPI_STATUS_IGNORE));
            SAME(NAME("bcast"), r1, r2, K);
            CHECK(r2[0] == (1 % P + 1 + 7 * round) * 1000, "persistent bcast_c: start %d left %d", round, r2[0]);
        }
        CHECK_OK(MPI_Request_free(&rq1));
        CHECK_OK(MPI_Request_free(&rq2));
    } else {
        CLEAR();
        memcpy(r1, sb, K * sizeof(int));
        memcpy(r2, sb, K * sizeof(int));
        if (nb) {
            CHECK_OK(MPI_Ibcast(r1, K, MPI_INT, 1 % P, MPI_COMM_WORLD, &rq));
            CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
            CHECK_OK(MPI_Ibcast_c(r2, K, MPI_INT, 1 % P, MPI_COMM_WORLD, &rq));
            CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        } else {
            CHECK_OK(MPI_Bcast(r1, K, MPI_INT, 1 % P, MPI_COMM_WORLD));
            CHECK_OK(MPI_Bcast_c(r2, K, MPI_INT, 1 % P, MPI_COMM_WORLD));
        }
        SAME(NAME("bcast"), r1, r2, K);
    }

/* an int collective and its _c twin into r1 and r2: the same n results */
#define PAIR(name, intargs, cargs, n)                                                              \
    do {                                                                                           \
        CLEAR();                                                                                   \
        CHECK_OK(MPI_##name intargs);                                                              \
        if (nb)                                                                                    \
            CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));                                            \
        CHECK_OK(MPI_##name##_c cargs);                                                            \
        if (nb)                                                                                    \
            CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));                                            \
        SAME(NAME(#name), r1, r2, n);                                                              \
    } while (0)
/* an int _init collective and its _c twin, each started twice (the input
 * changes between the starts): the same n results every time */
#define PPAIR(name, intargs, cargs, n)                                                             \
    do {                                                                                           \
        CHECK_OK(MPI_##name intargs);                                                              \
        CHECK_OK(MPI_##name##_c cargs);                                                            \
        for (int round = 0; round < 2; round++) {                                                  \
            set(sb, M, rank + 1 + 7 * round);                                                      \
            CLEAR();                                                                               \
            CHECK_OK(MPI_Start(&rq1));                                                             \
            CHECK_OK(MPI_Wait(&rq1, MPI_STATUS_IGNORE));                                           \
            CHECK_OK(MPI_Start(&rq2));                                                             \
            CHECK_OK(MPI_Wait(&rq2, MPI_STATUS_IGNORE));                                           \
            SAME(NAME(#name), r1, r2, n);                                                          \
        }                                                                                          \
        CHECK_OK(MPI_Request_free(&rq1));                                                          \
        CHECK_OK(MPI_Request_free(&rq2));                                                          \
    } while (0)
    /* the argument lists end with comm; the I-forms take &rq after it, the
     * _init forms info and &rq1 (int) or &rq2 (_c) */
#define A(...) (__VA_ARGS__, MPI_COMM_WORLD)
#define AN(...) (__VA_ARGS__, MPI_COMM_WORLD, &rq)
#define AI(...) (__VA_ARGS__, MPI_COMM_WORLD, MPI_INFO_NULL, &rq1)
#define AC(...) (__VA_ARGS__, MPI_COMM_WORLD, MPI_INFO_NULL, &rq2)
    if (form == PERSISTENT) {
        PPAIR(Gather_init, AI(sb, K, MPI_INT, r1, K, MPI_INT, 0), AC(sb, K, MPI_INT, r2, K, MPI_INT, 0), N);
        PPAIR(Gatherv_init, AI(sb, mine, MPI_INT, r1, icnt, idsp, MPI_INT, P - 1),
              AC(sb, mine, MPI_INT, r2, ccnt, cdsp, MPI_INT, P - 1), 2 * N);
        PPAIR(Scatter_init, AI(sb, K, MPI_INT, r1, K, MPI_INT, 0), AC(sb, K, MPI_INT, r2, K, MPI_INT, 0), K);
        PPAIR(Scatterv_init, AI(sb, icnt, idsp, MPI_INT, r1, mine, MPI_INT, 0),
              AC(sb, ccnt, cdsp, MPI_INT, r2, mine, MPI_INT, 0), mine);
        PPAIR(Allgather_init, AI(sb, K, MPI_INT, r1, K, MPI_INT), AC(sb, K, MPI_INT, r2, K, MPI_INT), N);
        PPAIR(Allgatherv_init, AI(sb, mine, MPI_INT, r1, icnt, idsp, MPI_INT),
              AC(sb, mine, MPI_INT, r2, ccnt, cdsp, MPI_INT), 2 * N);
        PPAIR(Alltoall_init, AI(sb, K, MPI_INT, r1, K, MPI_INT), AC(sb, K, MPI_INT, r2, K, MPI_INT), N);
        PPAIR(Reduce_init, AI(sb, r1, N, MPI_INT, MPI_SUM, 0), AC(sb, r2, N, MPI_INT, MPI_SUM, 0), N);
        PPAIR(Allreduce_init, AI(sb, r1, N, MPI_INT, MPI_MAX), AC(sb, r2, N, MPI_INT, MPI_MAX), N);
        PPAIR(Reduce_scatter_block_init, AI(sb, r1, K, MPI_INT, MPI_SUM), AC(sb, r2, K, MPI_INT, MPI_SUM), K);
        PPAIR(Reduce_scatter_init, AI(sb, r1, icnt, MPI_INT, MPI_SUM), AC(sb, r2, ccnt, MPI_INT, MPI_SUM), mine);
        PPAIR(Scan_init, AI(sb, r1, N, MPI_INT, MPI_SUM), AC(sb, r2, N, MPI_INT, MPI_SUM), N);
        PPAIR(Exscan_init, AI(sb, r1, N, MPI_INT, MPI_SUM), AC(sb, r2, N, MPI_INT, MPI_SUM), rank ? N : 0);
    } else if (nb) {
        PAIR(Igather, AN(sb, K, MPI_INT, r1, K, MPI_INT, 0), AN(sb, K, MPI_INT, r2, K, MPI_INT, 0), N);
        PAIR(Igatherv, AN(sb, mine, MPI_INT, r1, icnt, idsp, MPI_INT, P - 1),
             AN(sb, mine, MPI_INT, r2, ccnt, cdsp, MPI_INT, P - 1), 2 * N);
        PAIR(Iscatter, AN(sb, K, MPI_INT, r1, K, MPI_INT, 0), AN(sb, K, MPI_INT, r2, K, MPI_INT, 0), K);
        PAIR(Iscatterv, AN(sb, icnt, idsp, MPI_INT, r1, mine, MPI_INT, 0),
             AN(sb, ccnt, cdsp, MPI_INT, r2, mine, MPI_INT, 0), mine);
        PAIR(Iallgather, AN(sb, K, MPI_INT, r1, K, MPI_INT), AN(sb, K, MPI_INT, r2, K, MPI_INT), N);
        PAIR(Iallgatherv, AN(sb, mine, MPI_INT, r1, icnt, idsp, MPI_INT), AN(sb, mine, MPI_INT, r2, ccnt, cdsp, MPI_INT),
             2 * N);
        PAIR(Ialltoall, AN(sb, K, MPI_INT, r1, K, MPI_INT), AN(sb, K, MPI_INT, r2, K, MPI_INT), N);
        PAIR(Ireduce, AN(sb, r1, N, MPI_INT, MPI_SUM, 0), AN(sb, r2, N, MPI_INT, MPI_SUM, 0), N);
        PAIR(Iallreduce, AN(sb, r1, N, MPI_INT, MPI_MAX), AN(sb, r2, N, MPI_INT, MPI_MAX), N);
        PAIR(Ireduce_scatter_block, AN(sb, r1, K, MPI_INT, MPI_SUM), AN(sb, r2, K, MPI_INT, MPI_SUM), K);
        PAIR(Ireduce_scatter, AN(sb, r1, icnt, MPI_INT, MPI_SUM), AN(sb, r2, ccnt, MPI_INT, MPI_SUM), mine);
        PAIR(Iscan, AN(sb, r1, N, MPI_INT, MPI_SUM), AN(sb, r2, N, MPI_INT, MPI_SUM), N);
        PAIR(Iexscan, AN(sb, r1, N, MPI_INT, MPI_SUM), AN(sb, r2, N, MPI_INT, MPI_SUM), rank ? N : 0);
    } else {
        PAIR(Gather, A(sb, K, MPI_INT, r1, K, MPI_INT, 0), A(sb, K, MPI_INT, r2, K, MPI_INT, 0), N);
        PAIR(Gatherv, A(sb, mine, MPI_INT, r1, icnt, idsp, MPI_INT, P - 1),
             A(sb, mine, MPI_INT, r2, ccnt, cdsp, MPI_INT, P - 1), 2 * N);
        PAIR(Scatter, A(sb, K, MPI_INT, r1, K, MPI_INT, 0), A(sb, K, MPI_INT, r2, K, MPI_INT, 0), K);
        PAIR(Scatterv, A(sb, icnt, idsp, MPI_INT, r1, mine, MPI_INT, 0), A(sb, ccnt, cdsp, MPI_INT, r2, mine, MPI_INT, 0),
             mine);
        PAIR(Allgather, A(sb, K, MPI_INT, r1, K, MPI_INT), A(sb, K, MPI_INT, r2, K, MPI_INT), N);
        PAIR(Allgatherv, A(sb, mine, MPI_INT, r1, icnt, idsp, MPI_INT), A(sb, mine, MPI_INT, r2, ccnt, cdsp, MPI_INT),
             2 * N);
        PAIR(Alltoall, A(sb, K, MPI_INT, r1, K, MPI_INT), A(sb, K, MPI_INT, r2, K, MPI_INT), N);
        PAIR(Reduce, A(sb, r1, N, MPI_INT, MPI_SUM, 0), A(sb, r2, N, MPI_INT, MPI_SUM, 0), N);
        PAIR(Allreduce, A(sb, r1, N, MPI_INT, MPI_MAX), A(sb, r2, N, MPI_INT, MPI_MAX), N);
        PAIR(Reduce_scatter_block, A(sb, r1, K, MPI_INT, MPI_SUM), A(sb, r2, K, MPI_INT, MPI_SUM), K);
        PAIR(Reduce_scatter, A(sb, r1, icnt, MPI_INT, MPI_SUM), A(sb, r2, ccnt, MPI_INT, MPI_SUM), mine);
        PAIR(Scan, A(sb, r1, N, MPI_INT, MPI_SUM), A(sb, r2, N, MPI_INT, MPI_SUM), N);
        PAIR(Exscan, A(sb, r1, N, MPI_INT, MPI_SUM), A(sb, r2, N, MPI_INT, MPI_SUM), rank ? N : 0);
    }
    /* alltoallv: block to rank i has (rank + i) % 3 + 1 elements */
    int sc[64], sd[64], rc[64], rd[64];
    MPI_Count csc[64], crc[64];
    MPI_Aint csd[64], crd[64], bsd[64], brd[64];
    int wsd[64], wrd[64];
    MPI_Datatype ts[64];
    for (int i = 0; i < P; i++) {
        sc[i] = (rank + i) % 3 + 1;
        sd[i] = K * i;
        rc[i] = (rank + i) % 3 + 1;
        rd[i] = 2 * K * (P - 1 - i);
        csc[i] = sc[i], crc[i] = rc[i], csd[i] = sd[i], crd[i] = rd[i];
        wsd[i] = sd[i] * (int)sizeof(int), wrd[i] = rd[i] * (int)sizeof(int);
        bsd[i] = wsd[i], brd[i] = wrd[i];
        ts[i] = MPI_INT;
    }
    if (form == PERSISTENT) {
        PPAIR(Alltoallv_init, AI(sb, sc, sd, MPI_INT, r1, rc, rd, MPI_INT),
              AC(sb, csc, csd, MPI_INT, r2, crc, crd, MPI_INT), 2 * N);
        PPAIR(Alltoallw_init, AI(sb, sc, wsd, ts, r1, rc, wrd, ts), AC(sb, csc, bsd, ts, r2, crc, brd, ts), 2 * N);
    } else if (nb) {
        PAIR(Ialltoallv, AN(sb, sc, sd, MPI_INT, r1, rc, rd, MPI_INT), AN(sb, csc, csd, MPI_INT, r2, crc, crd, MPI_INT),
             2 * N);
        PAIR(Ialltoallw, AN(sb, sc, wsd, ts, r1, rc, wrd, ts), AN(sb, csc, bsd, ts, r2, crc, brd, ts), 2 * N);
    } else {
        PAIR(Alltoallv, A(sb, sc, sd, MPI_INT, r1, rc, rd, MPI_INT), A(sb, csc, csd, MPI_INT, r2, crc, crd, MPI_INT),
             2 * N);
        PAIR(Alltoallw, A(sb, sc, wsd, ts, r1, rc, wrd, ts), A(sb, csc, bsd, ts, r2, crc, brd, ts), 2 * N);
    }
    /* neighbourhood collectives on a periodic ring: 2 neighbours */
    MPI_Comm ring;
    int dims[1] = {P}, periods[1] = {1};
    CHECK_OK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
    int nc[2] = {2, 3}, nd[2] = {0, 2 * K};
    MPI_Count cnc[2] = {2, 3};
    MPI_Aint cnd[2] = {0, 2 * K}, bnd[2] = {0, 2 * K * sizeof(int)};
    MPI_Datatype nts[2] = {MPI_INT, MPI_INT};
#define AR(...) (__VA_ARGS__, ring)
#define ARN(...) (__VA_ARGS__, ring, &rq)
#define ARI(...) (__VA_ARGS__, ring, MPI_INFO_NULL, &rq1)
#define ARC(...) (__VA_ARGS__, ring, MPI_INFO_NULL, &rq2)
    if (form == PERSISTENT) {
        PPAIR(Neighbor_allgather_init, ARI(sb, K, MPI_INT, r1, K, MPI_INT), ARC(sb, K, MPI_INT, r2, K, MPI_INT), 2 * K);
        PPAIR(Neighbor_allgatherv_init, ARI(sb, 2, MPI_INT, r1, (int[]){2, 2}, nd, MPI_INT),
              ARC(sb, 2, MPI_INT, r2, (MPI_Count[]){2, 2}, cnd, MPI_INT), 4 * K);
        PPAIR(Neighbor_alltoall_init, ARI(sb, K, MPI_INT, r1, K, MPI_INT), ARC(sb, K, MPI_INT, r2, K, MPI_INT), 2 * K);
        PPAIR(Neighbor_alltoallv_init, ARI(sb, (int[]){3, 2}, nd, MPI_INT, r1, nc, nd, MPI_INT),
              ARC(sb, (MPI_Count[]){3, 2}, cnd, MPI_INT, r2, cnc, cnd, MPI_INT), 4 * K);
        PPAIR(Neighbor_alltoallw_init, ARI(sb, (int[]){3, 2}, bnd, nts, r1, nc, bnd, nts),
              ARC(sb, (MPI_Count[]){3, 2}, bnd, nts, r2, cnc, bnd, nts), 4 * K);
    } else if (nb) {
        PAIR(Ineighbor_allgather, ARN(sb, K, MPI_INT, r1, K, MPI_INT), ARN(sb, K, MPI_INT, r2, K, MPI_INT), 2 * K);
        PAIR(Ineighbor_allgatherv, ARN(sb, 2, MPI_INT, r1, (int[]){2, 2}, nd, MPI_INT),
             ARN(sb, 2, MPI_INT, r2, (MPI_Count[]){2, 2}, cnd, MPI_INT), 4 * K);
        PAIR(Ineighbor_alltoall, ARN(sb, K, MPI_INT, r1, K, MPI_INT), ARN(sb, K, MPI_INT, r2, K, MPI_INT), 2 * K);
        PAIR(Ineighbor_alltoallv, ARN(sb, (int[]){3, 2}, nd, MPI_INT, r1, nc, nd, MPI_INT),
             ARN(sb, (MPI_Count[]){3, 2}, cnd, MPI_INT, r2, cnc, cnd, MPI_INT), 4 * K);
        PAIR(Ineighbor_alltoallw, ARN(sb, (int[]){3, 2}, bnd, nts, r1, nc, bnd, nts),
             ARN(sb, (MPI_Count[]){3, 2}, bnd, nts, r2, cnc, bnd, nts), 4 * K);
    } else {
        PAIR(Neighbor_allgather, AR(sb, K, MPI_INT, r1, K, MPI_INT), AR(sb, K, MPI_INT, r2, K, MPI_INT), 2 * K);
        PAIR(Neighbor_allgatherv, AR(sb, 2, MPI_INT, r1, (int[]){2, 2}, nd, MPI_INT),
             AR(sb, 2, MPI_INT, r2, (MPI_Count[]){2, 2}, cnd, MPI_INT), 4 * K);
        PAIR(Neighbor_alltoall, AR(sb, K, MPI_INT, r1, K, MPI_INT), AR(sb, K, MPI_INT, r2, K, MPI_INT), 2 * K);
        PAIR(Neighbor_alltoallv, AR(sb, (int[]){3, 2}, nd, MPI_INT, r1, nc, nd, MPI_INT),
             AR(sb, (MPI_Count[]){3, 2}, cnd, MPI_INT, r2, cnc, cnd, MPI_INT), 4 * K);
        PAIR(Neighbor_alltoallw, AR(sb, (int[]){3, 2}, bnd, nts, r1, nc, bnd, nts),
             AR(sb, (MPI_Count[]){3, 2}, bnd, nts, r2, cnc, bnd, nts), 4 * K);
    }
    MPI_Comm_free(&ring);
    free(sb);
    free(r1);
    free(r2);
}

static void local_and_errors(void)
{
    int in[8], a[8], b[8];
    set(in, 8, 3);
    set(a, 8, 4);
    set(b, 8, 4);
    CHECK_OK(MPI_Reduce_local(in, a, 8, MPI_INT, MPI_PROD));
    CHECK_OK(MPI_Reduce_local_c(in, b, 8, MPI_INT, MPI_PROD));
    SAME("reduce_local", a, b, 8);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK_ERR(MPI_Bcast_c(a, -1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    MPI_Count neg[64];
    MPI_Aint zero[64];
    for (int i = 0; i < size; i++)
        neg[i] = -1, zero[i] = 0;
    CHECK_ERR(MPI_Allgatherv_c(a, 0, MPI_INT, b, neg, zero, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Allgatherv_c(a, 0, MPI_INT, b, NULL, zero, MPI_INT, MPI_COMM_WORLD), MPI_ERR_ARG);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* ---- displacements beyond 2^31 ---- */

#define FAR (((MPI_Aint)1 << 31) + 4096) /* elements (of MPI_CHAR: bytes) */

static char *sparse(size_t bytes)
{
    char *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    CHECK(m != MAP_FAILED, "cannot map %zu bytes", bytes);
    return m;
}

static void far_displacements(void)
{
    int P = size;
    /* block i of the receive side at FAR + i * 8192, of the send side at FAR * 2 + i * 8192 */
    size_t span = (size_t)FAR * 2 + (size_t)P * 8192 + 4096;
    char *sb = sparse(span), *rb = sparse(span);
    MPI_Count cnt[64];
    MPI_Aint sd[64], rd[64];
    for (int i = 0; i < P; i++) {
        cnt[i] = 100 + i;
        sd[i] = FAR * 2 + (MPI_Aint)i * 8192;
        rd[i] = FAR + (MPI_Aint)i * 8192;
        for (int k = 0; k < cnt[i]; k++)
            sb[sd[i] + k] = (char)(rank * 31 + i * 7 + k);
    }
    /* alltoallv_c: rank r gets from rank i the block i sent to r (count 100 + r) */
    for (int i = 0; i < P; i++)
        cnt[i] = 100 + rank; /* what this rank receives from each is what each sends to it */
    MPI_Count scnt[64];
    for (int i = 0; i < P; i++)
        scnt[i] = 100 + i;
    CHECK_OK(MPI_Alltoallv_c(sb, scnt, sd, MPI_CHAR, rb, cnt, rd, MPI_CHAR, MPI_COMM_WORLD));
    for (int i = 0; i < P; i++)
        for (int k = 0; k < 100 + rank; k++)
            CHECK(rb[rd[i] + k] == (char)(i * 31 + rank * 7 + k), "alltoallv_c: byte %d of the block from %d", k, i);
    /* alltoallw_c: the same with byte displacements (of ints, 4-byte blocks) */
    MPI_Datatype ts[64];
    MPI_Count wcnt[64];
    for (int i = 0; i < P; i++) {
        ts[i] = MPI_INT;
        wcnt[i] = 10;
        for (int k = 0; k < 10; k++)
            ((int *)(sb + sd[i]))[k] = rank * 1000 + i * 100 + k;
    }
    CHECK_OK(MPI_Alltoallw_c(sb, wcnt, sd, ts, rb, wcnt, rd, ts, MPI_COMM_WORLD));
    for (int i = 0; i < P; i++)
        for (int k = 0; k < 10; k++)
            CHECK(((int *)(rb + rd[i]))[k] == i * 1000 + rank * 100 + k, "alltoallw_c: int %d from %d", k, i);
    /* gatherv_c to the last rank, scatterv_c from it, allgatherv_c */
    char mine[64];
    for (int k = 0; k < 64; k++)
        mine[k] = (char)(rank * 5 + k);
    for (int i = 0; i < P; i++)
        cnt[i] = 64;
    CHECK_OK(MPI_Gatherv_c(mine, 64, MPI_CHAR, rb, cnt, rd, MPI_CHAR, P - 1, MPI_COMM_WORLD));
    if (rank == P - 1)
        for (int i = 0; i < P; i++)
            CHECK(rb[rd[i]] == (char)(i * 5) && rb[rd[i] + 63] == (char)(i * 5 + 63), "gatherv_c: block of %d", i);
    char got[64];
    CHECK_OK(MPI_Scatterv_c(rb, cnt, rd, MPI_CHAR, got, 64, MPI_CHAR, P - 1, MPI_COMM_WORLD));
    CHECK(memcmp(got, mine, 64) == 0, "scatterv_c from beyond 2^31 gave back a different block");
    memset(rb + FAR, 0, (size_t)P * 8192);
    CHECK_OK(MPI_Allgatherv_c(mine, 64, MPI_CHAR, rb, cnt, rd, MPI_CHAR, MPI_COMM_WORLD));
    for (int i = 0; i < P; i++)
        CHECK(rb[rd[i]] == (char)(i * 5) && rb[rd[i] + 63] == (char)(i * 5 + 63), "allgatherv_c: block of %d", i);
    /* the int form cannot say these displacements; the large form's
     * nonblocking version can */
    MPI_Request rq;
    memset(rb + FAR, 0, (size_t)P * 8192);
    CHECK_OK(MPI_Iallgatherv_c(mine, 64, MPI_CHAR, rb, cnt, rd, MPI_CHAR, MPI_COMM_WORLD, &rq));
    CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    for (int i = 0; i < P; i++)
        CHECK(rb[rd[i] + 10] == (char)(i * 5 + 10), "iallgatherv_c: block of %d", i);
    /* and so can the persistent one, at every start (the send block changes between them) */
    CHECK_OK(MPI_Allgatherv_init_c(mine, 64, MPI_CHAR, rb, cnt, rd, MPI_CHAR, MPI_COMM_WORLD, MPI_INFO_NULL, &rq));
    for (int round = 0; round < 2; round++) {
        memset(rb + FAR, 0, (size_t)P * 8192);
        mine[0] = (char)(rank * 5 + round);
        CHECK_OK(MPI_Start(&rq));
        CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        for (int i = 0; i < P; i++)
            CHECK(rb[rd[i]] == (char)(i * 5 + round) && rb[rd[i] + 63] == (char)(i * 5 + 63),
                  "allgatherv_init_c: start %d, block of %d", round, i);
    }
    CHECK_OK(MPI_Request_free(&rq));
    CHECK_OK(MPI_Alltoallw_init_c(sb, wcnt, sd, ts, rb, wcnt, rd, ts, MPI_COMM_WORLD, MPI_INFO_NULL, &rq));
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < P; i++)
            for (int k = 0; k < 10; k++)
                ((int *)(sb + sd[i]))[k] = rank * 1000 + i * 100 + k + 50 * round;
        memset(rb + FAR, 0, (size_t)P * 8192);
        CHECK_OK(MPI_Start(&rq));
        CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        for (int i = 0; i < P; i++)
            for (int k = 0; k < 10; k++)
                CHECK(((int *)(rb + rd[i]))[k] == i * 1000 + rank * 100 + k + 50 * round,
                      "alltoallw_init_c: start %d, int %d from %d", round, k, i);
    }
    CHECK_OK(MPI_Request_free(&rq));
    munmap(sb, span);
    munmap(rb, span);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size <= 64, "at most 64 ranks");
    twins(BLOCKING);
    twins(NONBLOCKING);
    twins(PERSISTENT);
    local_and_errors();
    if (!getenv("TIDE_TEST_NO_BIG"))
        far_displacements();
    MPI_Finalize();
    if (rank == 0)
        printf("coll_large_count: ok\n");
    return 0;
}
