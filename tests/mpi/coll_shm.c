/*
 * coll_shm.c: blocking barrier, bcast, allreduce, allgather(v), alltoall and
 * reduce_scatter(_block) through the shared region of a one-node communicator (algorithm "shm", forced
 * with the hint tide_coll_tuning on a duplicate of MPI_COMM_WORLD, and
 * chosen by the table on MPI_COMM_WORLD itself). Checked against values
 * computed locally:
 *  - thousands of calls in a row, the operations interleaved, sizes
 *    changing, so the two alternating buffers of the region are reused
 *    while slower ranks may still be reading the last round;
 *  - MPI_IN_PLACE, derived datatypes on the send and receive sides, count
 *    0, uneven blocks (some empty) with gaps between them;
 *  - a non-commutative user operation (2x2 matrix product mod a prime):
 *    the result reveals the order of application;
 *  - nonblocking collectives and a rendezvous send in flight across the
 *    blocking calls;
 *  - point-to-point traffic before a call has arrived when it returns:
 *    buffered sends by rendezvous, received by the last rank before a
 *    barrier, have given their buffer space back when the sender leaves
 *    the barrier (the next round of them fits exactly);
 *  - bcasts longer than a round of the region (they go in pieces), of
 *    plain ints and of every other int (a vector), the root rewriting
 *    its buffer as soon as it returns;
 *  - communicators made and freed in a loop, and split ones;
 *  - a rank that arrives late enough for the others to fall asleep: they
 *    must be woken when it arrives, not when their sleep times out (the
 *    median over several rounds of the others' wait, set against the
 *    late rank's delay).
 * Usage: coll_shm [quick]
 */
#include "testutil.h"

#include <stdint.h>
#include <time.h>

static int rank, size;

static int val(int r, int i, int round)
{
    return r * 1000003 + i * 31 + round * 7;
}

/* block of rank q in the uneven operations: q % 3 == 1 sends nothing */
static int ublock(int q, int k)
{
    return q % 3 == 1 ? 0 : k + q % 4;
}

/* one call of operation op (0..5) of k elements in round `round`, checked */
static void one_call(MPI_Comm c, int op, int k, int round, int in_place)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    size_t room = (size_t)(k + 4) * (size_t)n * 2 + 1;
    int *s = malloc(sizeof(int) * room);
    int *r = malloc(sizeof(int) * room);
    int *cnt = malloc(sizeof(int) * (size_t)n), *dsp = malloc(sizeof(int) * (size_t)n);
    int total = 0;
    for (int q = 0; q < n; q++) {
        cnt[q] = ublock(q, k);
        dsp[q] = total + q; /* an int's gap before each block but the first */
        total += cnt[q];
    }
    switch (op) {
    case 0:
        CHECK_OK(MPI_Barrier(c));
        break;
    case 1: /* allreduce, sum and max */
        for (int i = 0; i < k; i++)
            s[i] = r[i] = val(me, i, round);
        CHECK_OK(MPI_Allreduce(in_place ? MPI_IN_PLACE : s, r, k, MPI_INT, round % 2 ? MPI_MAX : MPI_SUM, c));
        for (int i = 0; i < k; i++) {
            long long w = round % 2 ? val(n - 1, i, round) : 0;
            if (round % 2 == 0)
                for (int q = 0; q < n; q++)
                    w += val(q, i, round);
            CHECK(r[i] == (int)w, "allreduce round %d k %d: element %d is %d, not %d", round, k, i, r[i], (int)w);
        }
        break;
    case 2: /* allgather */
        for (int i = 0; i < k; i++) {
            s[i] = val(me, i, round);
            r[me * k + i] = s[i];
        }
        CHECK_OK(MPI_Allgather(in_place ? MPI_IN_PLACE : s, k, MPI_INT, r, k, MPI_INT, c));
        for (int q = 0; q < n; q++)
            for (int i = 0; i < k; i++)
                CHECK(r[q * k + i] == val(q, i, round), "allgather round %d k %d: block %d element %d", round, k, q,
                      i);
        break;
    case 3: /* alltoall: block j of rank q holds val(q, j * k + i) */
        for (int j = 0; j < n; j++)
            for (int i = 0; i < k; i++)
                s[j * k + i] = r[j * k + i] = val(me, j * k + i, round);
        CHECK_OK(MPI_Alltoall(in_place ? MPI_IN_PLACE : s, k, MPI_INT, r, k, MPI_INT, c));
        for (int q = 0; q < n; q++)
            for (int i = 0; i < k; i++)
                CHECK(r[q * k + i] == val(q, me * k + i, round), "alltoall round %d k %d: block %d element %d",
                      round, k, q, i);
        break;
    case 4: /* allgatherv, uneven blocks with gaps */
        for (size_t i = 0; i < room; i++)
            r[i] = -5;
        for (int i = 0; i < cnt[me]; i++)
            s[i] = r[dsp[me] + i] = val(me, i, round);
        CHECK_OK(MPI_Allgatherv(in_place ? MPI_IN_PLACE : s, cnt[me], MPI_INT, r, cnt, dsp, MPI_INT, c));
        for (int q = 0; q < n; q++) {
            for (int i = 0; i < cnt[q]; i++)
                CHECK(r[dsp[q] + i] == val(q, i, round), "allgatherv round %d k %d: block %d element %d", round, k,
                      q, i);
            if (q > 0)
                CHECK(r[dsp[q] - 1] == -5, "allgatherv round %d: the gap before block %d was written", round, q);
        }
        break;
    case 5: /* reduce_scatter, uneven blocks, sum */
        for (int i = 0; i < total; i++)
            s[i] = r[i] = val(me, i, round);
        CHECK_OK(MPI_Reduce_scatter(in_place ? MPI_IN_PLACE : s, r, cnt, MPI_INT, MPI_SUM, c));
        {
            int off = 0;
            for (int q = 0; q < me; q++)
                off += cnt[q];
            for (int i = 0; i < cnt[me]; i++) {
                long long w = 0;
                for (int q = 0; q < n; q++)
                    w += val(q, off + i, round);
                CHECK(r[i] == (int)w, "reduce_scatter round %d k %d: element %d is %d, not %d", round, k, i, r[i],
                      (int)w);
            }
        }
        break;
    case 6: { /* bcast from a moving root; the root rewrites its buffer at once */
        int root = round % n;
        for (int i = 0; i < k; i++)
            s[i] = me == root ? val(root, i, round) : -1;
        CHECK_OK(MPI_Bcast(s, k, MPI_INT, root, c));
        if (me == root)
            for (int i = 0; i < k; i++)
                s[i] = -2;
        for (int i = 0; i < k && me != root; i++)
            CHECK(s[i] == val(root, i, round), "bcast round %d k %d root %d: element %d is %d", round, k, root, i,
                  s[i]);
        break;
    }
    }
    free(s);
    free(r);
    free(cnt);
    free(dsp);
}

static void rounds(MPI_Comm c, int count)
{
    static const int ks[] = {1, 0, 3, 17, 64, 5, 200, 2, 6000};
    for (int round = 0; round < count; round++)
        one_call(c, round % 7, ks[(round / 7) % 9], round, (round / 63) % 2);
}

/* ---- bcasts of many pieces ---- */

static void long_bcasts(MPI_Comm c)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    static const int ks[] = {2047, 16385, 65537, 262147};
    MPI_Datatype every_other;
    MPI_Type_vector(1, 1, 2, MPI_INT, &every_other);
    MPI_Datatype stride2;
    MPI_Type_create_resized(every_other, 0, (MPI_Aint)(2 * sizeof(int)), &stride2);
    MPI_Type_commit(&stride2);
    MPI_Type_free(&every_other);
    int *b = malloc(sizeof(int) * 2 * 262147);
    for (int t = 0; t < 8; t++) {
        int k = ks[t % 4], vec = t >= 4, root = (t * 5) % n;
        int step = vec ? 2 : 1;
        for (int i = 0; i < k * step; i++)
            b[i] = me == root && i % step == 0 ? val(root, i, t) : -1;
        CHECK_OK(MPI_Bcast(b, k, vec ? stride2 : MPI_INT, root, c));
        if (me == root) {
            for (int i = 0; i < k * step; i++)
                b[i] = -2;
            continue;
        }
        for (int i = 0; i < k * step; i++) {
            int want = i % step == 0 ? val(root, i, t) : -1;
            if (b[i] != want) {
                CHECK(0, "bcast of %d %s from %d: element %d is %d, not %d", k, vec ? "strided ints" : "ints",
                      root, i, b[i], want);
                break;
            }
        }
    }
    free(b);
    MPI_Type_free(&stride2);
}

/* ---- derived datatypes ---- */

static void derived(MPI_Comm c)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    /* every other int of 2k: a vector on the send side, plain ints received */
    enum { K = 5 };
    MPI_Datatype vec, vec_res;
    MPI_Type_vector(K, 1, 2, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint)(2 * K * sizeof(int)), &vec_res);
    MPI_Type_commit(&vec_res);
    int *s = malloc(sizeof(int) * 2 * K * (size_t)n), *r = malloc(sizeof(int) * K * (size_t)n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < 2 * K; i++)
            s[j * 2 * K + i] = i % 2 ? -1 : val(me, j * K + i / 2, 99);
    CHECK_OK(MPI_Alltoall(s, 1, vec_res, r, K, MPI_INT, c));
    for (int q = 0; q < n; q++)
        for (int i = 0; i < K; i++)
            CHECK(r[q * K + i] == val(q, me * K + i, 99), "alltoall of a vector: block %d element %d", q, i);
    /* allgather: plain ints sent, a vector received (gaps untouched) */
    int *g = malloc(sizeof(int) * 2 * K * (size_t)n);
    for (int i = 0; i < 2 * K * n; i++)
        g[i] = -7;
    int mine[K];
    for (int i = 0; i < K; i++)
        mine[i] = val(me, i, 98);
    CHECK_OK(MPI_Allgather(mine, K, MPI_INT, g, 1, vec_res, c));
    for (int q = 0; q < n; q++)
        for (int i = 0; i < 2 * K; i++)
            CHECK(g[q * 2 * K + i] == (i % 2 ? -7 : val(q, i / 2, 98)), "allgather into a vector: block %d slot %d",
                  q, i);
    MPI_Type_free(&vec);
    MPI_Type_free(&vec_res);
    free(s);
    free(r);
    free(g);
}

/* ---- a non-commutative operation: 2x2 matrices mod P, multiplied ---- */

#define P 1000003ll
static void matmul(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    long long *a = in, *b = inout;
    for (int k = 0; k < *len; k++, a += 4, b += 4) {
        long long c0 = (a[0] * b[0] + a[1] * b[2]) % P, c1 = (a[0] * b[1] + a[1] * b[3]) % P;
        long long c2 = (a[2] * b[0] + a[3] * b[2]) % P, c3 = (a[2] * b[1] + a[3] * b[3]) % P;
        b[0] = c0, b[1] = c1, b[2] = c2, b[3] = c3;
    }
}

static void noncommutative(MPI_Comm c)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    MPI_Datatype mat;
    MPI_Type_contiguous(4, MPI_LONG_LONG, &mat);
    MPI_Type_commit(&mat);
    MPI_Op op;
    MPI_Op_create(matmul, 0, &op);
    enum { K = 3 };
    long long m[4 * K], r[4 * K];
    for (int k = 0; k < K; k++) {
        m[4 * k] = me + 1 + k, m[4 * k + 1] = 2 * me + 3, m[4 * k + 2] = k, m[4 * k + 3] = me * me + 1;
    }
    CHECK_OK(MPI_Allreduce(m, r, K, mat, op, c));
    for (int k = 0; k < K; k++) {
        /* M0 M1 ... M(n-1), left to right */
        long long w[4] = {1, 0, 0, 1};
        for (int q = 0; q < n; q++) {
            long long x[4] = {q + 1 + k, 2 * q + 3, k, (long long)q * q + 1};
            int one = 1;
            matmul(w, x, &one, NULL);
            memcpy(w, x, sizeof w);
        }
        CHECK(!memcmp(w, r + 4 * k, sizeof w), "non-commutative allreduce: matrix %d out of order", k);
    }
    /* reduce_scatter_block: rank q gets the product of everyone's q-th
     * matrix */
    long long *all = malloc(sizeof(long long) * 4 * (size_t)n), rb[4];
    for (int q = 0; q < n; q++) {
        long long *x = all + 4 * q;
        x[0] = me + 2, x[1] = q + me, x[2] = 1, x[3] = 3 * me + q;
    }
    CHECK_OK(MPI_Reduce_scatter_block(all, rb, 1, mat, op, c));
    long long w[4] = {1, 0, 0, 1};
    for (int p = 0; p < n; p++) {
        long long x[4] = {p + 2, me + p, 1, 3 * p + me};
        int one = 1;
        matmul(w, x, &one, NULL);
        memcpy(w, x, sizeof w);
    }
    CHECK(!memcmp(w, rb, sizeof w), "non-commutative reduce_scatter_block: product out of order");
    free(all);
    MPI_Op_free(&op);
    MPI_Type_free(&mat);
}

/* ---- other traffic in flight ---- */

static void in_flight(MPI_Comm c)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    enum { BIG = 1 << 20 };
    char *big = malloc(BIG);
    MPI_Request rq[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    int sum = 0;
    CHECK_OK(MPI_Iallreduce(&me, &sum, 1, MPI_INT, MPI_SUM, c, &rq[0]));
    /* a rendezvous send from rank 0 to the last rank, received after the
     * blocking calls */
    if (me == 0 && n > 1) {
        memset(big, 5, BIG);
        CHECK_OK(MPI_Isend(big, BIG, MPI_CHAR, n - 1, 4, c, &rq[1]));
    }
    rounds(c, 40);
    if (me == n - 1 && n > 1) {
        CHECK_OK(MPI_Recv(big, BIG, MPI_CHAR, 0, 4, c, MPI_STATUS_IGNORE));
        CHECK(big[0] == 5 && big[BIG - 1] == 5, "rendezvous message across the blocking calls");
    }
    CHECK_OK(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    CHECK(sum == n * (n - 1) / 2, "iallreduce across the blocking calls: %d", sum);
    free(big);
}

/* ---- buffered sends whose space comes back by the next barrier ---- */

static void bsend_rounds(MPI_Comm c)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    if (n < 2)
        return;
    enum { K = 4, LEN = 256 * 1024 };
    int size = K * (LEN + MPI_BSEND_OVERHEAD);
    char *space = malloc((size_t)size), *msg = malloc(LEN);
    CHECK_OK(MPI_Buffer_attach(space, size));
    for (int round = 0; round < 30; round++) {
        if (me == 0) {
            for (int k = 0; k < K; k++) {
                memset(msg, round + k, LEN);
                CHECK_OK(MPI_Bsend(msg, LEN, MPI_CHAR, n - 1, k, c));
            }
        } else if (me == n - 1) {
            for (int k = 0; k < K; k++) {
                CHECK_OK(MPI_Recv(msg, LEN, MPI_CHAR, 0, k, c, MPI_STATUS_IGNORE));
                CHECK(msg[0] == (char)(round + k) && msg[LEN - 1] == (char)(round + k), "bsend round %d message %d",
                      round, k);
            }
        }
        CHECK_OK(MPI_Barrier(c));
    }
    void *b;
    int bs;
    CHECK_OK(MPI_Buffer_detach(&b, &bs));
    free(space);
    free(msg);
}

/* ---- a late rank ---- */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void late_rank(MPI_Comm c)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    if (n < 2)
        return;
    enum { ROUNDS = 7 };
    const double delay = 0.010;
    double waits[ROUNDS];
    for (int k = 0; k < ROUNDS; k++) {
        CHECK_OK(MPI_Barrier(c));
        double t0 = now();
        if (me == 0) {
            struct timespec d = {0, (long)(delay * 1e9)};
            nanosleep(&d, NULL);
        }
        if (k % 2)
            CHECK_OK(MPI_Barrier(c));
        else
            one_call(c, 1 + k % 3, 3, k, 0);
        waits[k] = now() - t0;
    }
    qsort(waits, ROUNDS, sizeof waits[0], cmp_double);
    /* asleep and never woken, a rank would wait for its sleep to time out
     * (50 ms) */
    if (me != 0)
        CHECK(waits[ROUNDS / 2] < delay + 0.030, "a rank waited %.1f ms for one that came %.1f ms late",
              waits[ROUNDS / 2] * 1e3, delay * 1e3);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int quick = argc > 1 && !strcmp(argv[1], "quick");
    MPI_Comm forced;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &forced));
    tu_set_coll_hint(forced, "barrier=shm,bcast=shm,allreduce=shm,allgather=shm,allgatherv=shm,alltoall=shm,reduce_scatter=shm,reduce_scatter_block=shm");
    MPI_Comm comms[2] = {forced, MPI_COMM_WORLD};
    for (int ci = 0; ci < 2; ci++) {
        MPI_Comm c = comms[ci];
        rounds(c, quick ? 400 : 4000);
        long_bcasts(c);
        derived(c);
        noncommutative(c);
        in_flight(c);
        bsend_rounds(c);
        late_rank(c);
    }
    /* communicators made and freed, each used once */
    for (int i = 0; i < (quick ? 20 : 100); i++) {
        MPI_Comm d;
        CHECK_OK(MPI_Comm_dup(forced, &d));
        one_call(d, 1 + i % 3, 4, i, 0);
        CHECK_OK(MPI_Comm_free(&d));
    }
    /* split: two halves (and a rank alone when the size is odd) */
    MPI_Comm half;
    CHECK_OK(MPI_Comm_split(forced, rank % 2, -rank, &half));
    tu_set_coll_hint(half, "barrier=shm,bcast=shm,allreduce=shm,allgather=shm,allgatherv=shm,alltoall=shm,reduce_scatter=shm,reduce_scatter_block=shm");
    rounds(half, 200);
    noncommutative(half);
    CHECK_OK(MPI_Comm_free(&half));
    CHECK_OK(MPI_Comm_free(&forced));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("coll_shm: ok\n");
    MPI_Finalize();
    return 0;
}
