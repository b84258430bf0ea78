/*
 * p2p_large_count.c: the MPI-4.0 large-count point-to-point functions,
 * between two ranks. With small counts every
 * _c function delivers what its int twin does (data and status) in every
 * mode, blocking, nonblocking, persistent, matched and combined, and
 * MPI_Buffer_attach_c/detach_c hand the buffer back. Then, unless
 * TIDE_TEST_NO_BIG is set, a real large count: MPI_Send_c/MPI_Recv_c of
 * 2^31 + 5 MPI_CHAR (about 2 GiB on each side), whose status says
 * 2^31 + 5 to MPI_Get_count_c and MPI_Get_elements_c and MPI_UNDEFINED
 * to the int forms, and whose data arrives whole (every 4 KiB page and
 * the last bytes checked).
 */
#include <limits.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "testutil.h"

#define N 1000

static int rank;

static void fill(int *b, int n, int seed)
{
    for (int i = 0; i < n; i++)
        b[i] = seed * 1000003 + i;
}

static void expect(const int *b, int n, int seed, const MPI_Status *st, int tag, const char *what)
{
    for (int i = 0; i < n; i++)
        CHECK(b[i] == seed * 1000003 + i, "%s: element %d is %d", what, i, b[i]);
    if (!st)
        return;
    MPI_Count c;
    int ci;
    CHECK_OK(MPI_Get_count_c(st, MPI_INT, &c));
    CHECK_OK(MPI_Get_count(st, MPI_INT, &ci));
    CHECK(c == n && ci == n, "%s: count %lld / %d, expected %d", what, c, ci, n);
    CHECK(st->MPI_SOURCE == 1 - rank && st->MPI_TAG == tag, "%s: source %d tag %d", what, st->MPI_SOURCE,
          st->MPI_TAG);
}

/* Rank 0 sends with the _c forms and the int forms in turn; rank 1
 * receives each with the other form. */
static void small_counts(void)
{
    int *buf = malloc(N * sizeof(int)), *rb = malloc(N * sizeof(int));
    MPI_Status st;
    MPI_Request r;
    int peer = 1 - rank;
    /* blocking modes: send with _c, receive with int, then the reverse */
    for (int mode = 0; mode < 4; mode++) {
        int tag = 10 + mode;
        if (rank == 0) {
            fill(buf, N, mode);
            if (mode == 3) { /* ready mode: the receive is posted first */
                CHECK_OK(MPI_Recv(NULL, 0, MPI_INT, peer, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
                CHECK_OK(MPI_Rsend_c(buf, N, MPI_INT, peer, tag, MPI_COMM_WORLD));
            } else if (mode == 0) {
                CHECK_OK(MPI_Send_c(buf, N, MPI_INT, peer, tag, MPI_COMM_WORLD));
            } else if (mode == 1) {
                CHECK_OK(MPI_Ssend_c(buf, N, MPI_INT, peer, tag, MPI_COMM_WORLD));
            } else {
                MPI_Count need = N * sizeof(int) + MPI_BSEND_OVERHEAD, got;
                void *bb = malloc((size_t)need), *back;
                CHECK_OK(MPI_Buffer_attach_c(bb, need));
                CHECK_OK(MPI_Bsend_c(buf, N, MPI_INT, peer, tag, MPI_COMM_WORLD));
                CHECK_OK(MPI_Buffer_detach_c(&back, &got));
                CHECK(back == bb && got == need, "buffer_detach_c gave %p %lld", back, got);
                free(bb);
            }
            CHECK_OK(MPI_Recv_c(rb, N, MPI_INT, peer, tag, MPI_COMM_WORLD, &st));
            expect(rb, N, mode + 100, &st, tag, "int send, _c recv");
        } else {
            if (mode == 3) {
                CHECK_OK(MPI_Irecv(rb, N, MPI_INT, peer, tag, MPI_COMM_WORLD, &r));
                CHECK_OK(MPI_Send(NULL, 0, MPI_INT, peer, 99, MPI_COMM_WORLD));
                CHECK_OK(MPI_Wait(&r, &st));
            } else {
                CHECK_OK(MPI_Recv(rb, N, MPI_INT, peer, tag, MPI_COMM_WORLD, &st));
            }
            expect(rb, N, mode, &st, tag, "_c send, int recv");
            fill(buf, N, mode + 100);
            CHECK_OK(MPI_Send(buf, N, MPI_INT, peer, tag, MPI_COMM_WORLD));
        }
    }
    /* nonblocking modes and receive, both ways */
    for (int mode = 0; mode < 4; mode++) {
        int tag = 20 + mode;
        fill(buf, N, rank * 10 + mode);
        MPI_Request rr, sr;
        CHECK_OK(MPI_Irecv_c(rb, N, MPI_INT, peer, tag, MPI_COMM_WORLD, &rr));
        CHECK_OK(MPI_Barrier(MPI_COMM_WORLD)); /* both receives posted: ready mode is correct */
        void *bb = NULL, *back;
        MPI_Count got;
        switch (mode) {
        case 0: CHECK_OK(MPI_Isend_c(buf, N, MPI_INT, peer, tag, MPI_COMM_WORLD, &sr)); break;
        case 1: CHECK_OK(MPI_Issend_c(buf, N, MPI_INT, peer, tag, MPI_COMM_WORLD, &sr)); break;
        case 2: CHECK_OK(MPI_Irsend_c(buf, N, MPI_INT, peer, tag, MPI_COMM_WORLD, &sr)); break;
        default:
            bb = malloc(N * sizeof(int) + MPI_BSEND_OVERHEAD);
            CHECK_OK(MPI_Buffer_attach_c(bb, N * sizeof(int) + MPI_BSEND_OVERHEAD));
            CHECK_OK(MPI_Ibsend_c(buf, N, MPI_INT, peer, tag, MPI_COMM_WORLD, &sr));
        }
        CHECK_OK(MPI_Wait(&sr, MPI_STATUS_IGNORE));
        CHECK_OK(MPI_Wait(&rr, &st));
        expect(rb, N, peer * 10 + mode, &st, tag, "nonblocking _c");
        if (bb) {
            CHECK_OK(MPI_Buffer_detach_c(&back, &got));
            free(bb);
        }
    }
    /* persistent requests of every kind, started twice */
    for (int mode = 0; mode < 4; mode++) {
        int tag = 30 + mode;
        MPI_Request pr, ps;
        void *bb = NULL, *back;
        CHECK_OK(MPI_Recv_init_c(rb, N, MPI_INT, peer, tag, MPI_COMM_WORLD, &pr));
        switch (mode) {
        case 0: CHECK_OK(MPI_Send_init_c(buf, N, MPI_INT, peer, tag, MPI_COMM_WORLD, &ps)); break;
        case 1: CHECK_OK(MPI_Ssend_init_c(buf, N, MPI_INT, peer, tag, MPI_COMM_WORLD, &ps)); break;
        case 2: CHECK_OK(MPI_Rsend_init_c(buf, N, MPI_INT, peer, tag, MPI_COMM_WORLD, &ps)); break;
        default:
            bb = malloc(N * sizeof(int) + MPI_BSEND_OVERHEAD);
            CHECK_OK(MPI_Buffer_attach(bb, N * sizeof(int) + MPI_BSEND_OVERHEAD));
            CHECK_OK(MPI_Bsend_init_c(buf, N, MPI_INT, peer, tag, MPI_COMM_WORLD, &ps));
        }
        for (int round = 0; round < 2; round++) {
            fill(buf, N, rank * 100 + mode * 10 + round);
            CHECK_OK(MPI_Start(&pr));
            CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
            CHECK_OK(MPI_Start(&ps));
            CHECK_OK(MPI_Wait(&ps, MPI_STATUS_IGNORE));
            CHECK_OK(MPI_Wait(&pr, &st));
            expect(rb, N, peer * 100 + mode * 10 + round, &st, tag, "persistent _c");
        }
        MPI_Request_free(&pr);
        MPI_Request_free(&ps);
        if (bb) {
            int isz;
            CHECK_OK(MPI_Buffer_detach(&back, &isz));
            free(bb);
        }
    }
    /* matched receives */
    fill(buf, N, rank + 40);
    CHECK_OK(MPI_Send_c(buf, N, MPI_INT, peer, 40, MPI_COMM_WORLD));
    CHECK_OK(MPI_Send_c(buf, N, MPI_INT, peer, 41, MPI_COMM_WORLD));
    MPI_Message m;
    CHECK_OK(MPI_Mprobe(peer, 40, MPI_COMM_WORLD, &m, &st));
    CHECK_OK(MPI_Mrecv_c(rb, N, MPI_INT, &m, &st));
    expect(rb, N, peer + 40, &st, 40, "mrecv_c");
    CHECK_OK(MPI_Mprobe(peer, 41, MPI_COMM_WORLD, &m, &st));
    CHECK_OK(MPI_Imrecv_c(rb, N, MPI_INT, &m, &r));
    CHECK_OK(MPI_Wait(&r, &st));
    expect(rb, N, peer + 40, &st, 41, "imrecv_c");
    /* sendrecv and sendrecv_replace */
    fill(buf, N, rank + 50);
    CHECK_OK(MPI_Sendrecv_c(buf, N, MPI_INT, peer, 50, rb, N, MPI_INT, peer, 50, MPI_COMM_WORLD, &st));
    expect(rb, N, peer + 50, &st, 50, "sendrecv_c");
    fill(rb, N, rank + 60);
    CHECK_OK(MPI_Sendrecv_replace_c(rb, N, MPI_INT, peer, 60, peer, 60, MPI_COMM_WORLD, &st));
    expect(rb, N, peer + 60, &st, 60, "sendrecv_replace_c");
    /* isendrecv and isendrecv_replace */
    fill(buf, N, rank + 62);
    CHECK_OK(MPI_Isendrecv_c(buf, N, MPI_INT, peer, 62, rb, N, MPI_INT, peer, 62, MPI_COMM_WORLD, &r));
    CHECK_OK(MPI_Wait(&r, &st));
    expect(rb, N, peer + 62, &st, 62, "isendrecv_c");
    fill(rb, N, rank + 64);
    CHECK_OK(MPI_Isendrecv_replace_c(rb, N, MPI_INT, peer, 64, peer, 64, MPI_COMM_WORLD, &r));
    CHECK_OK(MPI_Wait(&r, &st));
    expect(rb, N, peer + 64, &st, 64, "isendrecv_replace_c");
    /* a short message into a larger receive: the status counts what came */
    if (rank == 0) {
        CHECK_OK(MPI_Send_c(buf, 7, MPI_INT, peer, 70, MPI_COMM_WORLD));
    } else {
        CHECK_OK(MPI_Recv_c(rb, N, MPI_INT, peer, 70, MPI_COMM_WORLD, &st));
        MPI_Count c;
        CHECK_OK(MPI_Get_count_c(&st, MPI_INT, &c));
        CHECK(c == 7, "short message: count %lld", c);
        CHECK_OK(MPI_Get_elements_c(&st, MPI_SHORT, &c));
        CHECK(c == 14, "short message: %lld shorts", c);
    }
    /* errors name the same classes as the int forms */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK_ERR(MPI_Send_c(buf, -1, MPI_INT, peer, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Recv_c(rb, 1, MPI_INT, 5, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK);
    CHECK_ERR(MPI_Buffer_attach_c(buf, -2), MPI_ERR_ARG);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    free(buf);
    free(rb);
}

#define BIGN (((MPI_Count)1 << 31) + 5)

static unsigned char pat(size_t i)
{
    return (unsigned char)(i * 131 + (i >> 12));
}

static void big_count(void)
{
    /* huge pages where the kernel gives them: 2 GiB of 4 KiB pages costs
     * half a million page faults on each side */
    char *b = mmap(NULL, (size_t)BIGN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(b != MAP_FAILED, "cannot map %lld bytes", BIGN);
    madvise(b, (size_t)BIGN, MADV_HUGEPAGE);
    double t0 = MPI_Wtime();
    if (rank == 0) {
        /* one byte per 4 KiB carries the pattern (the rest stays zero) */
        for (size_t i = 0; i < (size_t)BIGN; i += 4096)
            b[i] = (char)pat(i);
        for (size_t i = (size_t)BIGN - 64; i < (size_t)BIGN; i++)
            b[i] = (char)pat(i);
        CHECK_OK(MPI_Send_c(b, BIGN, MPI_CHAR, 1, 1, MPI_COMM_WORLD));
    } else {
        MPI_Status st;
        CHECK_OK(MPI_Recv_c(b, BIGN, MPI_CHAR, 0, 1, MPI_COMM_WORLD, &st));
        for (size_t i = 0; i < (size_t)BIGN; i += 4096)
            CHECK((unsigned char)b[i] == pat(i), "byte %zu of the large message is %d", i, (unsigned char)b[i]);
        for (size_t i = (size_t)BIGN - 64; i < (size_t)BIGN; i++)
            CHECK((unsigned char)b[i] == pat(i), "byte %zu of the large message is %d", i, (unsigned char)b[i]);
        MPI_Count c;
        int ci;
        CHECK_OK(MPI_Get_count_c(&st, MPI_CHAR, &c));
        CHECK(c == BIGN, "MPI_Get_count_c: %lld, expected %lld", c, BIGN);
        CHECK_OK(MPI_Get_elements_c(&st, MPI_CHAR, &c));
        CHECK(c == BIGN, "MPI_Get_elements_c: %lld", c);
        CHECK_OK(MPI_Get_count(&st, MPI_CHAR, &ci));
        CHECK(ci == MPI_UNDEFINED, "MPI_Get_count of %lld chars: %d, expected MPI_UNDEFINED", BIGN, ci);
        CHECK_OK(MPI_Get_elements(&st, MPI_CHAR, &ci));
        CHECK(ci == MPI_UNDEFINED, "MPI_Get_elements of %lld chars: %d", BIGN, ci);
        /* 2^31 + 5 bytes are not a whole number of ints */
        CHECK_OK(MPI_Get_count_c(&st, MPI_INT, &c));
        CHECK(c == MPI_UNDEFINED, "MPI_Get_count_c in ints: %lld", c);
        printf("p2p_large_count: %lld bytes in %.2f s\n", BIGN, MPI_Wtime() - t0);
    }
    munmap(b, (size_t)BIGN);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size == 2, "runs on 2 ranks");
    small_counts();
    if (!getenv("TIDE_TEST_NO_BIG"))
        big_count();
    MPI_Finalize();
    if (rank == 0)
        printf("p2p_large_count: ok\n");
    return 0;
}
