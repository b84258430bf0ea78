/*
 * comm_dup.c: MPI_Comm_dup, MPI_Comm_dup_with_info, MPI_Comm_idup,
 * MPI_Comm_free, MPI_Comm_set_info / MPI_Comm_get_info, and context ids:
 * a duplicate is congruent and its messages never match the parent's;
 * 10,000 dup/free cycles leak nothing (resident memory and handles stay
 * put); 20,000 communicators alive at once; agreement when the members
 * use very different ids (rank 0 holds thousands more); several idups
 * outstanding at once, mixed with blocking dups; a message left unreceived
 * on a freed communicator does not reach later ones. Uses point-to-point
 * only.
 */
#include "testutil.h"

#include <stdint.h>
#include <unistd.h>

static int rank, size;

/* Resident memory of this process's own (not shared) pages: the heap a
 * leak would grow. Pages of the shared-memory rings count as shared; a
 * ring that traffic walks further into (under load, when the receiver
 * falls behind) grows the resident total without any leak. */
static long rss_kb(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, res = 0, shared = 0;
    if (!f)
        return 0;
    if (fscanf(f, "%ld %ld %ld", &pages, &res, &shared) != 3)
        res = shared = 0;
    fclose(f);
    return (res - shared) * (sysconf(_SC_PAGESIZE) / 1024);
}

/* A ring exchange on comm: every rank sends its rank + salt to the right
 * and checks what comes from the left. */
static void ring(MPI_Comm comm, int salt)
{
    int r, n;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &n);
    int out = r + salt, in = -1;
    CHECK_OK(MPI_Sendrecv(&out, 1, MPI_INT, (r + 1) % n, 7, &in, 1, MPI_INT, (r + n - 1) % n, 7, comm,
                          MPI_STATUS_IGNORE));
    CHECK(in == (r + n - 1) % n + salt, "ring on a communicator: got %d, expected %d", in, (r + n - 1) % n + salt);
}

static void barrier(MPI_Comm comm)
{
    ring(comm, 0);
    ring(comm, 1);
}

static void test_basic(void)
{
    MPI_Comm d;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    CHECK(d != MPI_COMM_NULL && d != MPI_COMM_WORLD, "dup gave %d", (int)d);
    int r, n, res, flag;
    MPI_Comm_rank(d, &r);
    MPI_Comm_size(d, &n);
    CHECK(r == rank && n == size, "dup: rank %d size %d", r, n);
    CHECK_OK(MPI_Comm_compare(MPI_COMM_WORLD, d, &res));
    CHECK(res == MPI_CONGRUENT, "compare(world, dup) = %d", res);
    CHECK_OK(MPI_Comm_compare(d, d, &res));
    CHECK(res == MPI_IDENT, "compare(dup, dup) = %d", res);
    CHECK_OK(MPI_Comm_test_inter(d, &flag));
    CHECK(!flag, "a dup of WORLD is an intercommunicator");
    /* the name is not copied */
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    CHECK_OK(MPI_Comm_get_name(d, name, &len));
    CHECK(len == 0, "dup has name '%s'", name);
    /* the error handler is */
    MPI_Errhandler eh;
    CHECK_OK(MPI_Comm_get_errhandler(d, &eh));
    CHECK(eh == MPI_ERRORS_RETURN, "dup's error handler %d", (int)eh);
    MPI_Errhandler_free(&eh);
    /* same tag, same ranks: a message on the dup does not match on WORLD */
    if (size > 1) {
        if (rank == 0) {
            int a = 111, b = 222;
            CHECK_OK(MPI_Send(&a, 1, MPI_INT, 1, 5, d));
            CHECK_OK(MPI_Send(&b, 1, MPI_INT, 1, 5, MPI_COMM_WORLD));
        } else if (rank == 1) {
            int x = 0, y = 0;
            MPI_Status st;
            CHECK_OK(MPI_Recv(&y, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
            CHECK_OK(MPI_Recv(&x, 1, MPI_INT, 0, 5, d, &st));
            CHECK(x == 111 && y == 222, "dup isolation: world got %d, dup got %d", y, x);
            CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == 5, "status %d %d", st.MPI_SOURCE, st.MPI_TAG);
        }
    }
    /* dup of a dup, and of SELF */
    MPI_Comm dd, ds;
    CHECK_OK(MPI_Comm_dup(d, &dd));
    CHECK_OK(MPI_Comm_dup(MPI_COMM_SELF, &ds));
    MPI_Comm_size(ds, &n);
    CHECK(n == 1, "dup of SELF has %d ranks", n);
    CHECK_OK(MPI_Comm_compare(dd, MPI_COMM_WORLD, &res));
    CHECK(res == MPI_CONGRUENT, "compare(dup of dup, world) = %d", res);
    ring(dd, 3);
    int v = 9, w = 0;
    CHECK_OK(MPI_Sendrecv(&v, 1, MPI_INT, 0, 0, &w, 1, MPI_INT, 0, 0, ds, MPI_STATUS_IGNORE));
    CHECK(w == 9, "self dup message %d", w);
    CHECK_OK(MPI_Comm_free(&dd));
    CHECK_OK(MPI_Comm_free(&ds));
    CHECK_OK(MPI_Comm_free(&d));
    CHECK(d == MPI_COMM_NULL, "free did not set MPI_COMM_NULL");
    /* bad input */
    CHECK_ERR(MPI_Comm_dup(MPI_COMM_NULL, &d), MPI_ERR_COMM);
    CHECK_ERR(MPI_Comm_dup(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    MPI_Comm w2 = MPI_COMM_WORLD, nul = MPI_COMM_NULL;
    CHECK_ERR(MPI_Comm_free(&w2), MPI_ERR_COMM);
    CHECK_ERR(MPI_Comm_free(&nul), MPI_ERR_COMM);
    MPI_Comm s2 = MPI_COMM_SELF;
    int rc = MPI_Comm_free(&s2);
    char s[MPI_MAX_ERROR_STRING];
    MPI_Error_string(rc, s, &len);
    CHECK(strstr(s, "MPI_Comm_free") && strstr(s, "MPI_COMM_SELF"), "message '%s'", s);
    /* a freed handle is invalid */
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    MPI_Comm old = d;
    CHECK_OK(MPI_Comm_free(&d));
    CHECK_ERR(MPI_Comm_size(old, &n), MPI_ERR_COMM);
}

/* Freeing with a receive still pending: it completes normally. */
static void test_free_pending(void)
{
    if (size < 2)
        return;
    MPI_Comm d;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    int x = 0, v = 42;
    MPI_Request rq;
    if (rank == 1) {
        CHECK_OK(MPI_Irecv(&x, 1, MPI_INT, 0, 3, d, &rq));
        CHECK_OK(MPI_Comm_free(&d));
        int tell = 1;
        CHECK_OK(MPI_Send(&tell, 1, MPI_INT, 0, 99, MPI_COMM_WORLD));
        CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        CHECK(x == 42, "receive pending at free got %d", x);
    } else if (rank == 0) {
        int tell;
        CHECK_OK(MPI_Recv(&tell, 1, MPI_INT, 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_OK(MPI_Send(&v, 1, MPI_INT, 1, 3, d));
        CHECK_OK(MPI_Comm_free(&d));
    } else {
        CHECK_OK(MPI_Comm_free(&d));
    }
    barrier(MPI_COMM_WORLD);
}

/* A message nobody received on a freed communicator never reaches a later
 * one (its context id is not given out again). */
static void test_stale(void)
{
    if (size < 2)
        return;
    MPI_Comm d;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    if (rank == 0) {
        int v = 5;
        CHECK_OK(MPI_Send(&v, 1, MPI_INT, 1, 17, d));
    }
    ring(d, 0); /* after it, in order: it has arrived */
    CHECK_OK(MPI_Comm_free(&d));
    for (int i = 0; i < 20; i++) {
        MPI_Comm e;
        CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &e));
        ring(e, i);
        int flag = 1;
        MPI_Status st;
        CHECK_OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, e, &flag, &st));
        CHECK(!flag, "a message of a freed communicator (tag %d) reached a new one", st.MPI_TAG);
        CHECK_OK(MPI_Comm_free(&e));
    }
}

/* Every rank streams 2 MiB to every other in 16 KiB messages, so every
 * page of every shared-memory ring between them has been touched (rings
 * are larger when ranks outnumber cores). */
static void touch_rings(void)
{
    enum { CHUNK = 16384, NMSG = 128 };
    char *buf = calloc(1, CHUNK);
    CHECK(buf, "out of memory");
    for (int k = 1; k < size; k++) {
        int to = (rank + k) % size, from = (rank - k + size) % size;
        for (int m = 0; m < NMSG; m++)
            CHECK_OK(MPI_Sendrecv_replace(buf, CHUNK, MPI_BYTE, to, 77, from, 77, MPI_COMM_WORLD,
                                          MPI_STATUS_IGNORE));
    }
    free(buf);
}

static void test_cycles(void)
{
    MPI_Comm d;
    touch_rings();
    for (int i = 0; i < 3000; i++) { /* warm up the pools */
        CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &d));
        if (i % 500 == 0)
            ring(d, i);
        CHECK_OK(MPI_Comm_free(&d));
    }
    long before = rss_kb();
    double t0 = MPI_Wtime();
    int maxh = 0, minh = 0x7fffffff;
    for (int i = 0; i < 10000; i++) {
        CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &d));
        int h = (int)(d & ((1 << 25) - 1));
        if (h > maxh)
            maxh = h;
        if (h < minh)
            minh = h;
        if (i % 1000 == 999)
            ring(d, i);
        CHECK_OK(MPI_Comm_free(&d));
    }
    double t = MPI_Wtime() - t0;
    long after = rss_kb();
#ifndef __SANITIZE_ADDRESS__ /* AddressSanitizer holds freed memory back; its leak checker watches instead */
    CHECK(after - before < 256, "10000 dup/free cycles grew resident memory by %ld KB", after - before);
#endif
    CHECK(maxh - minh < 16, "handles not reused: indices %d to %d", minh, maxh);
    CHECK(t < 30, "10000 dup/free cycles took %.1f s", t);
    if (rank == 0)
        printf("10000 dup/free cycles: %.3f s, resident memory %+ld KB\n", t, after - before);
}

static void test_many_live(void)
{
    enum { N = 20000 };
    MPI_Comm *v = malloc(N * sizeof *v);
    CHECK(v != NULL, "malloc");
    double t0 = MPI_Wtime();
    for (int i = 0; i < N; i++)
        CHECK_OK(MPI_Comm_dup(i % 2 ? v[i - 1] : MPI_COMM_WORLD, &v[i]));
    double t = MPI_Wtime() - t0;
    /* talk on a few, from both ends */
    ring(v[0], 1);
    ring(v[N / 2], 2);
    ring(v[N - 1], 3);
    /* free every other one, make more: the holes are reused */
    for (int i = 0; i < N; i += 2)
        CHECK_OK(MPI_Comm_free(&v[i]));
    for (int i = 0; i < N; i += 2)
        CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &v[i]));
    ring(v[N - 2], 4);
    ring(v[N - 1], 5);
    for (int i = N - 1; i >= 0; i--)
        CHECK_OK(MPI_Comm_free(&v[i]));
    free(v);
    if (rank == 0)
        printf("%d live communicators: %.3f s to make\n", N, t);
}

/* Rank 0 uses thousands of ids the others do not: the agreement must
 * still find one free everywhere. */
static void test_uneven(void)
{
    enum { N = 3000 };
    MPI_Comm *mine = malloc(N * sizeof *mine);
    int n = rank == 0 ? N : (rank == 1 ? N / 3 : 0);
    for (int i = 0; i < n; i++)
        CHECK_OK(MPI_Comm_dup(MPI_COMM_SELF, &mine[i]));
    MPI_Comm d[3];
    for (int k = 0; k < 3; k++) {
        CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &d[k]));
        ring(d[k], 10 + k);
    }
    /* the held communicators still work and do not mix with the new ones */
    for (int i = 0; i < n; i += 997) {
        int a = i, b = -1;
        CHECK_OK(MPI_Sendrecv(&a, 1, MPI_INT, 0, 1, &b, 1, MPI_INT, 0, 1, mine[i], MPI_STATUS_IGNORE));
        CHECK(a == b, "self dup %d", i);
    }
    for (int i = 0; i < n; i++)
        CHECK_OK(MPI_Comm_free(&mine[i]));
    for (int k = 0; k < 3; k++) {
        ring(d[k], 20 + k);
        CHECK_OK(MPI_Comm_free(&d[k]));
    }
    free(mine);
}

static void test_info(void)
{
    /* MPI-4.0 7.4.4: hints the implementation does not know are ignored,
     * and MPI_Comm_get_info returns the hints in use: the standard's
     * assertions are known, "tide_unknown_*" keys are not */
    MPI_Info info, got;
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_tag", "false");
    MPI_Info_set(info, "tide_unknown_a", "1");
    MPI_Info_set(info, "mpi_assert_exact_length", "false");
    MPI_Comm d, dd, ddi;
    CHECK_OK(MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &d));
    MPI_Info_free(&info);
    ring(d, 5);
    int nkeys, flag;
    char val[64];
    CHECK_OK(MPI_Comm_get_info(d, &got));
    MPI_Info_get_nkeys(got, &nkeys);
    MPI_Info_get(got, "mpi_assert_exact_length", sizeof val - 1, val, &flag);
    CHECK(nkeys == 2 && flag && strcmp(val, "false") == 0, "hints: %d keys, exact_length=%s", nkeys,
          flag ? val : "(none)");
    MPI_Info_get(got, "tide_unknown_a", sizeof val - 1, val, &flag);
    CHECK(!flag, "an unknown hint was kept by dup_with_info");
    MPI_Info_free(&got);
    /* dup passes hints on; dup_with_info replaces them */
    CHECK_OK(MPI_Comm_dup(d, &dd));
    CHECK_OK(MPI_Comm_get_info(dd, &got));
    MPI_Info_get_nkeys(got, &nkeys);
    CHECK(nkeys == 2, "dup kept %d hints", nkeys);
    MPI_Info_free(&got);
    MPI_Info other;
    MPI_Info_create(&other);
    MPI_Info_set(other, "mpi_assert_allow_overtaking", "false");
    CHECK_OK(MPI_Comm_dup_with_info(d, other, &ddi));
    CHECK_OK(MPI_Comm_get_info(ddi, &got));
    MPI_Info_get_nkeys(got, &nkeys);
    MPI_Info_get(got, "mpi_assert_allow_overtaking", sizeof val - 1, val, &flag);
    CHECK(nkeys == 1 && flag, "dup_with_info: %d hints", nkeys);
    MPI_Info_free(&got);
    /* set_info sets what it names, keeps the rest, ignores what it does
     * not know */
    MPI_Info_set(other, "mpi_assert_no_any_tag", "true");
    MPI_Info_set(other, "tide_unknown_b", "x");
    CHECK_OK(MPI_Comm_set_info(d, other));
    CHECK_OK(MPI_Comm_get_info(d, &got));
    MPI_Info_get_nkeys(got, &nkeys);
    MPI_Info_get(got, "mpi_assert_no_any_tag", sizeof val - 1, val, &flag);
    CHECK(nkeys == 3 && flag && strcmp(val, "true") == 0, "after set_info: %d hints, no_any_tag=%s", nkeys, val);
    MPI_Info_get(got, "tide_unknown_b", sizeof val - 1, val, &flag);
    CHECK(!flag, "an unknown hint was kept by set_info");
    MPI_Info_free(&got);
    /* only unknown keys: still none */
    MPI_Info unk;
    MPI_Info_create(&unk);
    MPI_Info_set(unk, "tide_unknown_c", "1");
    CHECK_OK(MPI_Comm_set_info(MPI_COMM_WORLD, unk));
    MPI_Info_free(&unk);
    /* no hints: an empty info */
    CHECK_OK(MPI_Comm_get_info(MPI_COMM_WORLD, &got));
    MPI_Info_get_nkeys(got, &nkeys);
    CHECK(nkeys == 0, "WORLD has %d hints", nkeys);
    MPI_Info_free(&got);
    CHECK_ERR(MPI_Comm_set_info(d, MPI_INFO_NULL), MPI_ERR_INFO);
    CHECK_ERR(MPI_Comm_get_info(d, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Comm_dup_with_info(MPI_COMM_WORLD, (MPI_Info)12345, &dd), MPI_ERR_INFO);
    MPI_Info_free(&other);
    MPI_Comm_free(&d);
    MPI_Comm_free(&dd);
    MPI_Comm_free(&ddi);
}

static void test_idup(void)
{
    /* one, with point-to-point traffic on the parent while it runs */
    MPI_Comm d;
    MPI_Request rq;
    CHECK_OK(MPI_Comm_idup(MPI_COMM_WORLD, &d, &rq));
    ring(MPI_COMM_WORLD, 50);
    MPI_Status st;
    CHECK_OK(MPI_Wait(&rq, &st));
    CHECK(rq == MPI_REQUEST_NULL, "request not freed");
    int res;
    CHECK_OK(MPI_Comm_compare(d, MPI_COMM_WORLD, &res));
    CHECK(res == MPI_CONGRUENT, "idup compare %d", res);
    ring(d, 51);
    /* several at once, of different parents, finished with MPI_Test */
    MPI_Comm e[4];
    MPI_Request r4[4];
    CHECK_OK(MPI_Comm_idup(MPI_COMM_WORLD, &e[0], &r4[0]));
    CHECK_OK(MPI_Comm_idup(d, &e[1], &r4[1]));
    CHECK_OK(MPI_Comm_idup(MPI_COMM_SELF, &e[2], &r4[2]));
    CHECK_OK(MPI_Comm_idup(MPI_COMM_WORLD, &e[3], &r4[3]));
    /* a blocking dup while they run */
    MPI_Comm b;
    CHECK_OK(MPI_Comm_dup(d, &b));
    int done = 0;
    while (!done)
        CHECK_OK(MPI_Testall(4, r4, &done, MPI_STATUSES_IGNORE));
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++)
            CHECK(e[i] != e[j], "idups %d and %d are the same handle", i, j);
    ring(e[0], 60);
    ring(e[1], 61);
    ring(e[3], 63);
    ring(b, 64);
    int n;
    MPI_Comm_size(e[2], &n);
    CHECK(n == 1, "idup of SELF has %d ranks", n);
    for (int i = 0; i < 4; i++)
        MPI_Comm_free(&e[i]);
    MPI_Comm_free(&b);
    MPI_Comm_free(&d);
    CHECK_ERR(MPI_Comm_idup(MPI_COMM_NULL, &d, &rq), MPI_ERR_COMM);
    CHECK_ERR(MPI_Comm_idup(MPI_COMM_WORLD, &d, NULL), MPI_ERR_ARG);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    /* an argument such as "1245" runs only those parts */
    const char *only = argc > 1 ? argv[1] : "12345678";
    if (strchr(only, '1'))
        test_basic();
    if (strchr(only, '2'))
        test_free_pending();
    if (strchr(only, '3'))
        test_info();
    if (strchr(only, '4'))
        test_idup();
    if (strchr(only, '5'))
        test_uneven();
    if (strchr(only, '6'))
        test_cycles();
    if (strchr(only, '7'))
        test_many_live();
    if (strchr(only, '8'))
        test_stale();
    barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("comm_dup: ok on %d ranks\n", size);
    MPI_Finalize();
    return 0;
}
