/*
 * rma_atomics.c: atomic one-sided operations (MPI-3.1 11.3.4, 11.3.5,
 * 11.7.1): MPI_Fetch_and_op with MPI_SUM (a shared counter: every fetched
 * value is unique), MPI_NO_OP and MPI_REPLACE (a swap chain);
 * MPI_Compare_and_swap as a mutex guarding a non-atomic get/put; a linked
 * list built by concurrent appends (swap of the tail, then a put of the
 * link); MPI_Get_accumulate; MPI_Accumulate with every predefined
 * operation on int and double (and MAXLOC/MINLOC on MPI_2INT); several
 * MPI_SHORT_INT pairs (a hole between their parts) at once by
 * MPI_Get_accumulate with MPI_NO_OP and MPI_Accumulate with MPI_REPLACE; the
 * request-based MPI_Rput / MPI_Rget / MPI_Raccumulate / MPI_Rget_accumulate
 * completed with MPI_Wait inside a lock_all epoch; MPI_SUM on the same
 * elements at once from contiguous and strided target layouts and from
 * MPI_Fetch_and_op (every update counted). With the argument "allocate"
 * every window comes from MPI_Win_allocate (memory the processes of a
 * node share, where operations are done by the origin), else from
 * MPI_Win_create (operations as messages).
 */
#include "testutil.h"

enum { FAO, REPL, MUTEX, CS, TAIL, HEAD, GACC, GARR, RACC = GARR + 4, RGACC, RPUT, NODES };

static int rank, size;
static int allocate_mode;

/* A window over the bytes at *buf, which hold its initial contents:
 * MPI_Win_create over them, or in allocate mode MPI_Win_allocate'd memory
 * given a copy of them (*buf then points at it). */
static void make_window(void *buf_inout, MPI_Aint bytes, int disp_unit, MPI_Win *win)
{
    void **buf = buf_inout;
    if (!allocate_mode) {
        CHECK_OK(MPI_Win_create(*buf, bytes, disp_unit, MPI_INFO_NULL, MPI_COMM_WORLD, win));
        return;
    }
    void *mem;
    CHECK_OK(MPI_Win_allocate(bytes, disp_unit, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, win));
    memcpy(mem, *buf, (size_t)bytes);
    *buf = mem;
    MPI_Barrier(MPI_COMM_WORLD);
}

/* all values from every rank must be exactly 0..size*k-1 */
static void check_permutation(const int *mine, int k, const char *what)
{
    int *all = rank == 0 ? malloc(sizeof(int) * k * size) : NULL;
    MPI_Gather(mine, k, MPI_INT, all, k, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        char *seen = calloc(k * size, 1);
        for (int i = 0; i < k * size; i++) {
            CHECK(all[i] >= 0 && all[i] < k * size, "%s: value %d out of range", what, all[i]);
            CHECK(!seen[all[i]], "%s: value %d fetched twice", what, all[i]);
            seen[all[i]] = 1;
        }
        free(seen);
        free(all);
    }
}

static void test_ops(void)
{
    const MPI_Op iops[] = {MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN, MPI_LAND, MPI_LOR,
                           MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR, MPI_REPLACE};
    const char *inames[] = {"SUM", "PROD", "MAX", "MIN", "LAND", "LOR",
                            "LXOR", "BAND", "BOR", "BXOR", "REPLACE"};
    const int iinit[] = {5, 1, -1000, 1000, 1, 0, 0, 0xffff, 0, 0, -1};
    enum { NI = 11 };
    const MPI_Op dops[] = {MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN, MPI_REPLACE};
    const double dinit[] = {0.25, 1.0, -1e9, 1e9, -1.0};
    enum { ND = 5 };
    int iarr[NI], *ibuf = iarr;
    double darr[ND], *dbuf = darr;
    int parr[4], *pairs = parr; /* MAXLOC (value, index), MINLOC */
    memcpy(ibuf, iinit, sizeof iarr);
    memcpy(dbuf, dinit, sizeof darr);
    pairs[0] = -1000, pairs[1] = -1, pairs[2] = 1000, pairs[3] = -1;
    MPI_Win iw, dw, pw;
    make_window(&ibuf, sizeof iarr, sizeof(int), &iw);
    make_window(&dbuf, sizeof darr, sizeof(double), &dw);
    make_window(&pairs, sizeof parr, 2 * sizeof(int), &pw);
    MPI_Win_fence(MPI_MODE_NOPRECEDE, iw);
    MPI_Win_fence(MPI_MODE_NOPRECEDE, dw);
    MPI_Win_fence(MPI_MODE_NOPRECEDE, pw);
    /* the value origin o sends for op j, the same to every target */
#define IVAL(j, o)                                                                 \
    ((j) == 0   ? (o) + 1                                                          \
     : (j) == 1 ? ((o) % 3 == 0 ? 2 : 1)                                           \
     : (j) == 2 || (j) == 3 ? ((o) * 7) % 11 - 5                                   \
     : (j) == 4 ? ((o) != 3)                                                       \
     : (j) == 5 ? ((o) == size - 1)                                                \
     : (j) == 6 ? 1                                                                \
     : (j) == 7 ? 0xffff & ~(1 << ((o) % 16))                                             \
     : (j) == 8 ? 1 << ((o) % 16)                                                       \
     : (j) == 9 ? ((o) * 5 + 1) & 0xff                                             \
                : 100 + (o))
#define DVAL(j, o)                                                                 \
    ((j) == 0 ? (o) + 0.5 : (j) == 1 ? ((o) % 2 ? 2.0 : 1.0) : (j) <= 3 ? (o) * 1.5 - 3 : 200.0 + (o))
    /* origin buffers stay untouched until the closing fence */
    int iv[NI], p[4] = {(rank * 7) % 5, rank, (rank * 7) % 5, rank};
    double dv[ND];
    for (int j = 0; j < NI; j++)
        iv[j] = IVAL(j, rank);
    for (int j = 0; j < ND; j++)
        dv[j] = DVAL(j, rank);
    for (int t = 0; t < size; t++) {
        for (int j = 0; j < NI; j++)
            CHECK_OK(MPI_Accumulate(&iv[j], 1, MPI_INT, t, j, 1, MPI_INT, iops[j], iw));
        for (int j = 0; j < ND; j++)
            CHECK_OK(MPI_Accumulate(&dv[j], 1, MPI_DOUBLE, t, j, 1, MPI_DOUBLE, dops[j], dw));
        CHECK_OK(MPI_Accumulate(p, 1, MPI_2INT, t, 0, 1, MPI_2INT, MPI_MAXLOC, pw));
        CHECK_OK(MPI_Accumulate(p + 2, 1, MPI_2INT, t, 1, 1, MPI_2INT, MPI_MINLOC, pw));
    }
    MPI_Win_fence(MPI_MODE_NOSUCCEED, iw);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, dw);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, pw);
    for (int j = 0; j < NI; j++) {
        int e = iinit[j];
        for (int o = 0; o < size; o++) {
            int v = IVAL(j, o);
            switch (j) {
            case 0: e += v; break;
            case 1: e *= v; break;
            case 2: e = v > e ? v : e; break;
            case 3: e = v < e ? v : e; break;
            case 4: e = e && v; break;
            case 5: e = e || v; break;
            case 6: e = !e != !v; break;
            case 7: e &= v; break;
            case 8: e |= v; break;
            case 9: e ^= v; break;
            default: break;
            }
        }
        if (j == 10)
            CHECK(ibuf[j] >= 100 && ibuf[j] < 100 + size, "int REPLACE gave %d", ibuf[j]);
        else
            CHECK(ibuf[j] == e, "int %s gave %d, expected %d", inames[j], ibuf[j], e);
    }
    for (int j = 0; j < ND; j++) {
        double e = dinit[j];
        for (int o = 0; o < size; o++) {
            double v = DVAL(j, o);
            if (j == 0) e += v;
            else if (j == 1) e *= v;
            else if (j == 2) e = v > e ? v : e;
            else if (j == 3) e = v < e ? v : e;
        }
        if (j == 4)
            CHECK(dbuf[j] >= 200.0 && dbuf[j] < 200.0 + size && dbuf[j] == (int)dbuf[j],
                  "double REPLACE gave %g", dbuf[j]);
        else
            CHECK(dbuf[j] == e, "double op %d gave %g, expected %g", j, dbuf[j], e);
    }
    /* MAXLOC / MINLOC: ties go to the lowest index */
    int mx = -1000, mxi = -1, mn = 1000, mni = -1;
    for (int o = 0; o < size; o++) {
        int v = (o * 7) % 5;
        if (v > mx || (v == mx && o < mxi)) mx = v, mxi = o;
        if (v < mn || (v == mn && o < mni)) mn = v, mni = o;
    }
    CHECK(pairs[0] == mx && pairs[1] == mxi, "MAXLOC (%d,%d), expected (%d,%d)", pairs[0], pairs[1], mx, mxi);
    CHECK(pairs[2] == mn && pairs[3] == mni, "MINLOC (%d,%d), expected (%d,%d)", pairs[2], pairs[3], mn, mni);
    MPI_Win_free(&iw);
    MPI_Win_free(&dw);
    MPI_Win_free(&pw);
}

/* MPI_SHORT_INT, a pair with a hole between its parts: several at once
 * read by MPI_Get_accumulate with MPI_NO_OP and written by MPI_Accumulate
 * with MPI_REPLACE, every part of every element checked (the b parts
 * above 65535, so that a half-copied int shows) */
static void test_short_int_pairs(void)
{
    enum { NP = 10 };
    struct si {
        short a;
        int b;
    } init[NP], *mem = init, res[NP], put[NP];
    for (int k = 0; k < NP; k++)
        init[k] = (struct si){(short)(100 + k), 1000000 + rank * 1000 + k};
    MPI_Win w;
    make_window(&mem, sizeof init, sizeof(struct si), &w);
    int t = (rank + 1) % size, from = (rank + size - 1) % size;
    memset(res, 0x55, sizeof res);
    CHECK_OK(MPI_Win_fence(0, w));
    CHECK_OK(MPI_Get_accumulate(NULL, 0, MPI_DATATYPE_NULL, res, NP, MPI_SHORT_INT, t, 0, NP, MPI_SHORT_INT,
                                MPI_NO_OP, w));
    CHECK_OK(MPI_Win_fence(0, w));
    for (int k = 0; k < NP; k++)
        CHECK(res[k].a == 100 + k && res[k].b == 1000000 + t * 1000 + k,
              "MPI_SHORT_INT get-accumulate: element %d is (%d, %d), expected (%d, %d)", k, res[k].a, res[k].b,
              100 + k, 1000000 + t * 1000 + k);
    for (int k = 0; k < NP; k++)
        put[k] = (struct si){(short)(200 + k), 2000000 + rank * 1000 + k};
    CHECK_OK(MPI_Accumulate(put, NP, MPI_SHORT_INT, t, 0, NP, MPI_SHORT_INT, MPI_REPLACE, w));
    CHECK_OK(MPI_Win_fence(0, w));
    for (int k = 0; k < NP; k++)
        CHECK(mem[k].a == 200 + k && mem[k].b == 2000000 + from * 1000 + k,
              "MPI_SHORT_INT replace: element %d is (%d, %d), expected (%d, %d)", k, mem[k].a, mem[k].b, 200 + k,
              2000000 + from * 1000 + k);
    CHECK_OK(MPI_Win_free(&w));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    allocate_mode = argc > 1 && strcmp(argv[1], "allocate") == 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int K = size > 8 ? 10 : 25;   /* fetch-and-ops per rank */
    int KM = size > 8 ? 3 : 6;    /* mutex acquisitions per rank */
    int KL = 4;                   /* list nodes per rank */
    enum { MIX = 8 };             /* elements summed into from three layouts */
    int n = NODES + 2 * KL + 2 * MIX;
    int *buf = calloc(n, sizeof(int)), *mem = buf;
    for (int i = 0; i < KL; i++)
        buf[NODES + 2 * i] = rank * 1000 + i; /* value; link 0 = none */
    MPI_Win win;
    make_window(&buf, n * sizeof(int), sizeof(int), &win);
    int one = 1;
    int *got = malloc(sizeof(int) * K);

    CHECK_OK(MPI_Win_lock_all(0, win));
    /* fetch-and-add on a counter at rank 0 */
    for (int i = 0; i < K; i++) {
        CHECK_OK(MPI_Fetch_and_op(&one, &got[i], MPI_INT, 0, FAO, MPI_SUM, win));
        CHECK_OK(MPI_Win_flush(0, win));
    }
    CHECK_OK(MPI_Win_unlock_all(win));
    check_permutation(got, K, "MPI_Fetch_and_op SUM");
    MPI_Barrier(MPI_COMM_WORLD);

    CHECK_OK(MPI_Win_lock_all(0, win));
    int cur = -1;
    CHECK_OK(MPI_Fetch_and_op(NULL, &cur, MPI_INT, 0, FAO, MPI_NO_OP, win));
    CHECK_OK(MPI_Win_flush(0, win));
    CHECK(cur == K * size, "MPI_NO_OP read %d, expected %d", cur, K * size);
    /* a swap chain: the old values and the final one are 0..size */
    int mine = rank + 1, old = -1;
    CHECK_OK(MPI_Fetch_and_op(&mine, &old, MPI_INT, 0, REPL, MPI_REPLACE, win));
    CHECK_OK(MPI_Win_unlock_all(win));
    int *olds = rank == 0 ? malloc(sizeof(int) * size) : NULL;
    MPI_Gather(&old, 1, MPI_INT, olds, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        CHECK_OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        char *seen = calloc(size + 1, 1);
        seen[buf[REPL]] = 1;
        for (int i = 0; i < size; i++) {
            CHECK(olds[i] >= 0 && olds[i] <= size && !seen[olds[i]], "swap chain: old value %d", olds[i]);
            seen[olds[i]] = 1;
        }
        free(seen);
        free(olds);
        CHECK_OK(MPI_Win_unlock(0, win));
    }

    /* a mutex made of compare-and-swap at rank 0 guards a counter updated
     * by a plain get and put */
    CHECK_OK(MPI_Win_lock_all(0, win));
    for (int i = 0; i < KM; i++) {
        int zero = 0, me = rank + 1, res = -1;
        do {
            CHECK_OK(MPI_Compare_and_swap(&me, &zero, &res, MPI_INT, 0, MUTEX, win));
            CHECK_OK(MPI_Win_flush(0, win));
            CHECK(res >= 0 && res <= size && res != me, "mutex holds %d", res);
        } while (res != 0);
        int c = -1;
        CHECK_OK(MPI_Get(&c, 1, MPI_INT, 0, CS, 1, MPI_INT, win));
        CHECK_OK(MPI_Win_flush(0, win));
        c++;
        CHECK_OK(MPI_Put(&c, 1, MPI_INT, 0, CS, 1, MPI_INT, win));
        CHECK_OK(MPI_Win_flush(0, win));
        /* release: only the holder writes 0; check it still held it */
        CHECK_OK(MPI_Compare_and_swap(&zero, &me, &res, MPI_INT, 0, MUTEX, win));
        CHECK_OK(MPI_Win_flush(0, win));
        CHECK(res == me, "released a mutex held by %d", res);
    }
    CHECK_OK(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        CHECK_OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        CHECK(buf[CS] == KM * size && buf[MUTEX] == 0, "mutex counter %d, mutex %d", buf[CS], buf[MUTEX]);
        CHECK_OK(MPI_Win_unlock(0, win));
    }

    /* linked list: node g = rank*KL+i+1 (0 is none); rank 0 holds the
     * tail and the head; appending swaps the tail, then links the old
     * tail (or the head) to the new node */
    CHECK_OK(MPI_Win_lock_all(0, win));
    for (int i = 0; i < KL; i++) {
        int g = rank * KL + i + 1, prev = -1;
        CHECK_OK(MPI_Fetch_and_op(&g, &prev, MPI_INT, 0, TAIL, MPI_REPLACE, win));
        CHECK_OK(MPI_Win_flush(0, win));
        if (prev == 0) {
            CHECK_OK(MPI_Put(&g, 1, MPI_INT, 0, HEAD, 1, MPI_INT, win));
            CHECK_OK(MPI_Win_flush(0, win));
        } else {
            int owner = (prev - 1) / KL, idx = (prev - 1) % KL;
            CHECK_OK(MPI_Put(&g, 1, MPI_INT, owner, NODES + 2 * idx + 1, 1, MPI_INT, win));
            CHECK_OK(MPI_Win_flush(owner, win));
        }
    }
    CHECK_OK(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        CHECK_OK(MPI_Win_lock_all(0, win));
        int g = -1, count = 0;
        int *last = malloc(sizeof(int) * size);
        for (int r = 0; r < size; r++)
            last[r] = -1;
        CHECK_OK(MPI_Get(&g, 1, MPI_INT, 0, HEAD, 1, MPI_INT, win));
        CHECK_OK(MPI_Win_flush(0, win));
        while (g != 0) {
            CHECK(g > 0 && g <= KL * size && count < KL * size, "list: bad node %d after %d", g, count);
            int owner = (g - 1) / KL, idx = (g - 1) % KL, node[2];
            CHECK_OK(MPI_Get(node, 2, MPI_INT, owner, NODES + 2 * idx, 2, MPI_INT, win));
            CHECK_OK(MPI_Win_flush(owner, win));
            CHECK(node[0] == owner * 1000 + idx, "list: node %d holds %d", g, node[0]);
            CHECK(idx == last[owner] + 1, "list: rank %d's node %d after its node %d", owner, idx, last[owner]);
            last[owner] = idx;
            count++;
            g = node[1];
        }
        CHECK(count == KL * size, "list has %d nodes, expected %d", count, KL * size);
        free(last);
        CHECK_OK(MPI_Win_unlock_all(win));
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* MPI_Get_accumulate: fetch-and-add at the last rank, an atomic read
     * of four elements with MPI_NO_OP, an atomic swap of them */
    int T = size - 1;
    CHECK_OK(MPI_Win_lock_all(0, win));
    for (int i = 0; i < K; i++) {
        CHECK_OK(MPI_Get_accumulate(&one, 1, MPI_INT, &got[i], 1, MPI_INT, T, GACC, 1, MPI_INT, MPI_SUM, win));
        CHECK_OK(MPI_Win_flush(T, win));
    }
    CHECK_OK(MPI_Win_unlock_all(win));
    check_permutation(got, K, "MPI_Get_accumulate SUM");
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_OK(MPI_Win_lock_all(0, win));
    int arr[4] = {rank, rank, rank, rank}, res4[4] = {-1, -1, -1, -1};
    CHECK_OK(MPI_Get_accumulate(NULL, 0, MPI_INT, res4, 4, MPI_INT, T, GACC, 4, MPI_INT, MPI_NO_OP, win));
    CHECK_OK(MPI_Win_flush(T, win));
    /* the other ranks may already be swapping the last three */
    CHECK(res4[0] == K * size && res4[1] >= 0 && res4[1] < size, "MPI_NO_OP get_accumulate %d %d",
          res4[0], res4[1]);
    CHECK_OK(MPI_Get_accumulate(arr, 4, MPI_INT, res4, 4, MPI_INT, T, GARR, 4, MPI_INT, MPI_REPLACE, win));
    CHECK_OK(MPI_Win_flush(T, win));
    /* atomic per element only: each old element is some rank's (or the
     * initial 0) */
    for (int j = 0; j < 4; j++)
        CHECK(res4[j] >= 0 && res4[j] < size, "swap of element %d gave %d", j, res4[j]);
    CHECK_OK(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);

    /* request-based operations inside a lock_all epoch */
    CHECK_OK(MPI_Win_lock_all(0, win));
    MPI_Request rq;
    int right = (rank + 1) % size, pv = 500 + rank, back = -1, racc_old = -1;
    CHECK_OK(MPI_Rput(&pv, 1, MPI_INT, right, RPUT, 1, MPI_INT, win, &rq));
    CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE)); /* local completion: pv reusable */
    pv = -1;
    CHECK_OK(MPI_Win_flush(right, win));
    CHECK_OK(MPI_Rget(&back, 1, MPI_INT, right, RPUT, 1, MPI_INT, win, &rq));
    CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE)); /* the data has arrived */
    CHECK(back == 500 + rank, "MPI_Rget after MPI_Rput: %d", back);
    CHECK_OK(MPI_Raccumulate(&one, 1, MPI_INT, 0, RACC, 1, MPI_INT, MPI_SUM, win, &rq));
    CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Rget_accumulate(&one, 1, MPI_INT, &racc_old, 1, MPI_INT, 0, RGACC, 1, MPI_INT,
                                 MPI_SUM, win, &rq));
    MPI_Status st;
    CHECK_OK(MPI_Wait(&rq, &st));
    CHECK_OK(MPI_Win_unlock_all(win));
    check_permutation(&racc_old, 1, "MPI_Rget_accumulate SUM");
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        CHECK_OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        CHECK(buf[RACC] == size && buf[RGACC] == size, "raccumulate %d, rget_accumulate %d", buf[RACC], buf[RGACC]);
        CHECK_OK(MPI_Win_unlock(0, win));
    }
    /* MPI_SUM into the same elements at once: contiguous runs, a strided
     * target type and single-element fetch-and-ops; accumulates to one
     * element are atomic with respect to each other whatever the layout
     * (11.7.1), so none may be lost */
    int mixbase = NODES + 2 * KL, KX = size > 8 ? 20 : 60;
    MPI_Datatype every_other;
    MPI_Type_vector(MIX, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    int ones[2 * MIX], fetched;
    for (int i = 0; i < 2 * MIX; i++)
        ones[i] = 1;
    CHECK_OK(MPI_Win_lock_all(0, win));
    for (int it = 0; it < KX; it++) {
        switch ((rank + it) % 3) {
        case 0: /* every element of the region */
            CHECK_OK(MPI_Accumulate(ones, 2 * MIX, MPI_INT, 0, mixbase, 2 * MIX, MPI_INT, MPI_SUM, win));
            break;
        case 1: /* the even elements, as a vector at the target */
            CHECK_OK(MPI_Accumulate(ones, MIX, MPI_INT, 0, mixbase, 1, every_other, MPI_SUM, win));
            CHECK_OK(MPI_Accumulate(ones, MIX, MPI_INT, 0, mixbase + 1, 1, every_other, MPI_SUM, win));
            break;
        default: /* one at a time */
            for (int i = 0; i < 2 * MIX; i++)
                CHECK_OK(MPI_Fetch_and_op(&ones[i], &fetched, MPI_INT, 0, mixbase + i, MPI_SUM, win));
            break;
        }
    }
    CHECK_OK(MPI_Win_unlock_all(win));
    MPI_Type_free(&every_other);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        CHECK_OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        for (int i = 0; i < 2 * MIX; i++)
            CHECK(buf[mixbase + i] == KX * size, "element %d summed to %d, expected %d (an update was lost)", i,
                  buf[mixbase + i], KX * size);
        CHECK_OK(MPI_Win_unlock(0, win));
    }

    CHECK_OK(MPI_Win_free(&win));
    free(mem);
    free(got);

    test_ops();
    test_short_int_pairs();

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("rma_atomics: ok\n");
    MPI_Finalize();
    return 0;
}
