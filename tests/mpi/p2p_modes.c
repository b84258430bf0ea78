/*
 * p2p_modes.c: every send mode (standard, synchronous, ready, buffered;
 * blocking and nonblocking) against pre-posted and late receives, at
 * sizes from 0 bytes to 8 MiB, between every pair of ranks and to self;
 * data and status (source, tag, count) checked.
 */
#include "testutil.h"

#include <stdint.h>

static const int sizes[] = {0, 1, 7, 64, 1000, 4096, 4097, 65536, 65537, 300000, 1 << 20, 8 << 20};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

static void fill(unsigned char *b, int n, int seed)
{
    for (int i = 0; i < n; i++)
        b[i] = (unsigned char)(seed * 31 + i * 7 + (i >> 8));
}

static void check(const unsigned char *b, int n, int seed, const char *what)
{
    for (int i = 0; i < n; i++)
        if (b[i] != (unsigned char)(seed * 31 + i * 7 + (i >> 8)))
            CHECK(0, "%s: byte %d of %d is %d", what, i, n, b[i]);
}

static void send_mode(int mode, const void *buf, int n, int dest, int tag, int blocking)
{
    MPI_Request r;
    switch (mode) {
    case 0:
        if (blocking)
            CHECK_OK(MPI_Send(buf, n, MPI_BYTE, dest, tag, MPI_COMM_WORLD));
        else
            CHECK_OK(MPI_Isend(buf, n, MPI_BYTE, dest, tag, MPI_COMM_WORLD, &r));
        break;
    case 1:
        if (blocking)
            CHECK_OK(MPI_Ssend(buf, n, MPI_BYTE, dest, tag, MPI_COMM_WORLD));
        else
            CHECK_OK(MPI_Issend(buf, n, MPI_BYTE, dest, tag, MPI_COMM_WORLD, &r));
        break;
    case 2:
        if (blocking)
            CHECK_OK(MPI_Rsend(buf, n, MPI_BYTE, dest, tag, MPI_COMM_WORLD));
        else
            CHECK_OK(MPI_Irsend(buf, n, MPI_BYTE, dest, tag, MPI_COMM_WORLD, &r));
        break;
    default:
        if (blocking)
            CHECK_OK(MPI_Bsend(buf, n, MPI_BYTE, dest, tag, MPI_COMM_WORLD));
        else
            CHECK_OK(MPI_Ibsend(buf, n, MPI_BYTE, dest, tag, MPI_COMM_WORLD, &r));
        break;
    }
    if (!blocking)
        CHECK_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int maxn = sizes[NSIZES - 1];
    unsigned char *sb = malloc((size_t)maxn), *rb = malloc((size_t)maxn + 16);
    int bsize = 3 * (maxn + MPI_BSEND_OVERHEAD) + 4096;
    void *battach = malloc((size_t)bsize);
    CHECK_OK(MPI_Buffer_attach(battach, bsize));
    int seed = 0;
    /* every ordered pair (including self) talks in turn */
    for (int src = 0; src < size; src++)
        for (int dst = 0; dst < size; dst++)
            for (int mode = 0; mode < 4; mode++)
                for (int blocking = 0; blocking < 2; blocking++)
                    for (int s = 0; s < NSIZES; s++) {
                        int n = sizes[s];
                        seed++;
                        int tag = (mode * 2 + blocking) * 100 + s;
                        /* ready mode needs the receive posted first; the others
                         * run against a late receive (posted after the send) half
                         * of the time */
                        int preposted = mode == 2 || (seed & 1);
                        if (src == dst) {
                            if (rank != src)
                                continue;
                            if (mode == 1 && blocking)
                                continue; /* a blocking synchronous send to self cannot complete */
                            MPI_Request rr;
                            MPI_Status st;
                            fill(sb, n, seed);
                            if (preposted || !blocking || mode == 2) {
                                CHECK_OK(MPI_Irecv(rb, n + 16, MPI_BYTE, rank, tag, MPI_COMM_WORLD, &rr));
                                send_mode(mode, sb, n, rank, tag, blocking);
                            } else {
                                if (mode == 0 && n > (1 << 20))
                                    continue; /* unbuffered large standard send to self blocks */
                                send_mode(mode, sb, n, rank, tag, blocking);
                                CHECK_OK(MPI_Irecv(rb, n + 16, MPI_BYTE, rank, tag, MPI_COMM_WORLD, &rr));
                            }
                            CHECK_OK(MPI_Wait(&rr, &st));
                            int count;
                            MPI_Get_count(&st, MPI_BYTE, &count);
                            CHECK(count == n && st.MPI_SOURCE == rank && st.MPI_TAG == tag,
                                  "self: count %d source %d tag %d", count, st.MPI_SOURCE, st.MPI_TAG);
                            check(rb, n, seed, "self");
                            continue;
                        }
                        if (rank == dst) {
                            MPI_Request rr;
                            MPI_Status st;
                            if (preposted) {
                                CHECK_OK(MPI_Irecv(rb, n + 16, MPI_BYTE, src, tag, MPI_COMM_WORLD, &rr));
                                /* tell the sender the receive is posted */
                                CHECK_OK(MPI_Send(NULL, 0, MPI_BYTE, src, 9999, MPI_COMM_WORLD));
                                CHECK_OK(MPI_Wait(&rr, &st));
                            } else {
                                CHECK_OK(MPI_Recv(rb, n + 16, MPI_BYTE, src, tag, MPI_COMM_WORLD, &st));
                            }
                            int count;
                            MPI_Get_count(&st, MPI_BYTE, &count);
                            CHECK(count == n && st.MPI_SOURCE == src && st.MPI_TAG == tag,
                                  "mode %d size %d: count %d source %d tag %d", mode, n, count,
                                  st.MPI_SOURCE, st.MPI_TAG);
                            check(rb, n, seed, "received");
                        } else if (rank == src) {
                            fill(sb, n, seed);
                            if (preposted)
                                CHECK_OK(MPI_Recv(NULL, 0, MPI_BYTE, dst, 9999, MPI_COMM_WORLD,
                                                  MPI_STATUS_IGNORE));
                            send_mode(mode, sb, n, dst, tag, blocking);
                        }
                    }
    void *det;
    int detsize;
    CHECK_OK(MPI_Buffer_detach(&det, &detsize));
    CHECK(det == battach && detsize == bsize, "detach returned %p/%d", det, detsize);
    free(battach);
    free(sb);
    free(rb);
    MPI_Finalize();
    return 0;
}
