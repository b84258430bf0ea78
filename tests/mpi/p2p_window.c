/*
 * p2p_window.c: windows of nonblocking sends, as bandwidth benchmarks
 * post them: 64 messages at once from just above any eager limit to
 * 1 MiB, against receives posted before (they arrive together and may be
 * read in one go), posted after the messages are there (unexpected), and
 * mixed with receives through a vector datatype and receives too short
 * for their message (MPI_ERR_TRUNCATE in that status only). Both
 * directions at once as well. Every byte and status is checked.
 *
 * Ranks pair up (0-1, 2-3, ...); an odd last rank only joins barriers.
 * Run at 2 ranks and at 4 (more ranks than cores here: the receive of
 * small pieces reads through a buffer instead of being streamed).
 * Prints "p2p_window: ok" on success.
 */
#include "testutil.h"

#include <stdint.h>

#define WINDOW 64

static int rank, size, peer;

static const int sizes[] = {4097, 8192, 16384 + 7, 65536, 131072, 131073, 300000, 1 << 20};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

/* the byte at offset i of message k of round r from rank s */
static unsigned char pat(int s, int r, int k, long i)
{
    return (unsigned char)(s * 131 + r * 31 + k * 7 + i * 13 + (i >> 9));
}

static void fill(unsigned char *b, long n, int s, int r, int k)
{
    for (long i = 0; i < n; i++)
        b[i] = pat(s, r, k, i);
}

static void check(const unsigned char *b, long n, int s, int r, int k, const char *what)
{
    for (long i = 0; i < n; i++)
        CHECK(b[i] == pat(s, r, k, i), "%s: round %d message %d byte %ld: %d, expected %d", what, r, k, i, b[i],
              pat(s, r, k, i));
}

/* the size of message k in round r */
static long msize(int r, int k)
{
    return sizes[(r + k) % NSIZES];
}

/* One round: the sender posts a window, the receiver receives it with
 * receives posted first (late = 0) or after the messages have all been
 * sent (late = 1: the sender says so with a zero-byte message after its
 * window, sent in order behind it). Every 5th receive of an even size
 * goes through a type of 2-byte blocks with 2-byte gaps; every 7th is 16 bytes
 * short and must report MPI_ERR_TRUNCATE. */
static void one_way(int r, int late, int sending)
{
    unsigned char *buf[WINDOW];
    MPI_Request rq[WINDOW];
    MPI_Status st[WINDOW];
    MPI_Datatype two, vec2; /* 2 bytes, then a 2-byte gap */
    CHECK_OK(MPI_Type_contiguous(2, MPI_BYTE, &two));
    CHECK_OK(MPI_Type_create_resized(two, 0, 4, &vec2));
    CHECK_OK(MPI_Type_commit(&vec2));
    CHECK_OK(MPI_Type_free(&two));
    if (sending) {
        for (int k = 0; k < WINDOW; k++) {
            buf[k] = malloc((size_t)msize(r, k));
            fill(buf[k], msize(r, k), rank, r, k);
            CHECK_OK(MPI_Isend(buf[k], (int)msize(r, k), MPI_BYTE, peer, k, MPI_COMM_WORLD, &rq[k]));
        }
        if (late)
            CHECK_OK(MPI_Send(NULL, 0, MPI_BYTE, peer, WINDOW, MPI_COMM_WORLD));
        CHECK_OK(MPI_Waitall(WINDOW, rq, MPI_STATUSES_IGNORE));
        for (int k = 0; k < WINDOW; k++)
            free(buf[k]);
    } else {
        if (late) { /* everything sent: the messages wait unexpected */
            CHECK_OK(MPI_Recv(NULL, 0, MPI_BYTE, peer, WINDOW, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        }
        for (int k = 0; k < WINDOW; k++) {
            long n = msize(r, k);
            if (k % 5 == 4 && n % 2 == 0) {
                buf[k] = calloc(1, (size_t)(2 * n));
                CHECK_OK(MPI_Irecv(buf[k], (int)(n / 2), vec2, peer, k, MPI_COMM_WORLD, &rq[k]));
            } else {
                long cap = k % 7 == 6 ? n - 16 : n;
                buf[k] = calloc(1, (size_t)n);
                CHECK_OK(MPI_Irecv(buf[k], (int)cap, MPI_BYTE, peer, k, MPI_COMM_WORLD, &rq[k]));
            }
        }
        int rc = MPI_Waitall(WINDOW, rq, st);
        int cls = MPI_SUCCESS;
        if (rc != MPI_SUCCESS)
            MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_IN_STATUS, "MPI_Waitall returned class %d, expected MPI_ERR_IN_STATUS", cls);
        for (int k = 0; k < WINDOW; k++) {
            long n = msize(r, k);
            int count = -1, ecls = MPI_SUCCESS;
            MPI_Error_class(st[k].MPI_ERROR, &ecls);
            CHECK(st[k].MPI_SOURCE == peer && st[k].MPI_TAG == k, "message %d: source %d tag %d", k,
                  st[k].MPI_SOURCE, st[k].MPI_TAG);
            if (k % 5 == 4 && n % 2 == 0) {
                CHECK(ecls == MPI_SUCCESS, "message %d (vector): error class %d", k, ecls);
                CHECK_OK(MPI_Get_count(&st[k], vec2, &count));
                CHECK(count == n / 2, "message %d (vector): count %d, expected %ld", k, count, n / 2);
                /* unpack the 2-byte blocks; the gaps stay zero */
                unsigned char *packed = malloc((size_t)n);
                for (long i = 0; i < n; i += 2) {
                    packed[i] = buf[k][2 * i];
                    packed[i + 1] = buf[k][2 * i + 1];
                    CHECK(buf[k][2 * i + 2] == 0 && buf[k][2 * i + 3] == 0, "message %d: gap at %ld written", k,
                          2 * i + 2);
                }
                check(packed, n, peer, r, k, "vector receive");
                free(packed);
            } else if (k % 7 == 6) {
                CHECK(ecls == MPI_ERR_TRUNCATE, "message %d (short receive): error class %d", k, ecls);
                check(buf[k], n - 16, peer, r, k, "truncated receive");
                for (long i = n - 16; i < n; i++)
                    CHECK(buf[k][i] == 0, "message %d: byte %ld beyond the receive written", k, i);
            } else {
                CHECK(ecls == MPI_SUCCESS, "message %d: error class %d", k, ecls);
                CHECK_OK(MPI_Get_count(&st[k], MPI_BYTE, &count));
                CHECK(count == n, "message %d: count %d, expected %ld", k, count, n);
                check(buf[k], n, peer, r, k, "receive");
            }
            free(buf[k]);
        }
    }
    MPI_Type_free(&vec2);
}

/* Both directions at once: a window each way, receives posted first. */
static void both_ways(int r)
{
    unsigned char *sb[WINDOW], *rb[WINDOW];
    MPI_Request rq[2 * WINDOW];
    for (int k = 0; k < WINDOW; k++) {
        long n = msize(r, k);
        rb[k] = calloc(1, (size_t)n);
        CHECK_OK(MPI_Irecv(rb[k], (int)n, MPI_BYTE, peer, k, MPI_COMM_WORLD, &rq[WINDOW + k]));
    }
    for (int k = 0; k < WINDOW; k++) {
        long n = msize(r, k);
        sb[k] = malloc((size_t)n);
        fill(sb[k], n, rank, r, k);
        CHECK_OK(MPI_Isend(sb[k], (int)n, MPI_BYTE, peer, k, MPI_COMM_WORLD, &rq[k]));
    }
    CHECK_OK(MPI_Waitall(2 * WINDOW, rq, MPI_STATUSES_IGNORE));
    for (int k = 0; k < WINDOW; k++) {
        check(rb[k], msize(r, k), peer, r, k, "both ways");
        free(sb[k]);
        free(rb[k]);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    peer = rank ^ 1;
    int paired = peer < size;
    for (int r = 0; r < 6; r++) {
        if (paired) {
            one_way(r, r % 2, rank % 2 == 0);
            one_way(r + 100, r % 2, rank % 2 == 1);
            both_ways(r);
        }
        CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    }
    if (rank == 0)
        printf("p2p_window: ok\n");
    MPI_Finalize();
    return 0;
}
