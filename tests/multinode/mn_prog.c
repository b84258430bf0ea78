/*
 * mn_prog.c: the MPI program of the multi-host tests (tests/multinode).
 * Every rank knows its "host" by its network namespace (the inode of
 * /proc/self/ns/net), which is how the tests tell where a rank ran.
 * Usage: mn_prog hello             every rank prints its namespace; rank 0
 *                                  prints how many distinct ones the job has
 *        mn_prog ring              messages of 0 B to 4 MiB around the ring
 *        mn_prog coll              allreduce, bcast (small, large), alltoall
 *        mn_prog spawn HOST NETNS  rank 0 spawns 2 children with info
 *                                  host=HOST; they must run in NETNS
 *                                  (a "net:[inode]" string)
 *        mn_prog abort RANK CODE   rank RANK calls MPI_Abort, others block
 *        mn_prog hang              after a barrier rank 0 prints
 *                                  "mn_hang: ready", then every rank blocks
 *        mn_prog quiet             no message between ranks (only the
 *                                  runtime's start and end)
 *        mn_prog marker TEXT       rank 0 sends TEXT to every rank, which
 *                                  sends it back (a payload to look for
 *                                  in a capture of the network)
 */
#include "testutil.h"

#include <unistd.h>

#define NETNS_LEN 64

static void my_netns(char *buf)
{
    ssize_t n = readlink("/proc/self/ns/net", buf, NETNS_LEN - 1);
    CHECK(n > 0, "cannot read /proc/self/ns/net");
    buf[n] = '\0';
}

static void block_forever(void)
{
    int v;
    MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static int hello(int rank, int size)
{
    char ns[NETNS_LEN] = "", host[256] = "";
    my_netns(ns);
    gethostname(host, sizeof host - 1);
    printf("mn_prog: rank %d of %d netns %s host %s\n", rank, size, ns, host);
    fflush(stdout);
    char *all = rank == 0 ? calloc((size_t)size, NETNS_LEN) : NULL;
    CHECK_OK(MPI_Gather(ns, NETNS_LEN, MPI_CHAR, all, NETNS_LEN, MPI_CHAR, 0, MPI_COMM_WORLD));
    if (rank == 0) {
        int distinct = 0;
        for (int i = 0; i < size; i++) {
            int seen = 0;
            for (int j = 0; j < i && !seen; j++)
                seen = strcmp(all + (size_t)i * NETNS_LEN, all + (size_t)j * NETNS_LEN) == 0;
            distinct += !seen;
        }
        printf("mn_prog: hello from %d ranks on %d namespaces\n", size, distinct);
        free(all);
    }
    return 0;
}

static int ring(int rank, int size)
{
    static const int sizes[] = {0, 1, 7, 1024, 65536, 262144, 1 << 22};
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    unsigned char *sb = malloc(1 << 22), *rb = malloc(1 << 22);
    CHECK(sb && rb, "out of memory");
    for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int n = sizes[k];
        for (int rep = 0; rep < 3; rep++) {
            for (int i = 0; i < n; i++)
                sb[i] = (unsigned char)(rank * 31 + i * 7 + rep);
            memset(rb, 0xee, (size_t)n);
            MPI_Status st;
            CHECK_OK(MPI_Sendrecv(sb, n, MPI_BYTE, next, k, rb, n, MPI_BYTE, prev, k, MPI_COMM_WORLD, &st));
            int got;
            MPI_Get_count(&st, MPI_BYTE, &got);
            CHECK(got == n, "size %d: received %d bytes", n, got);
            for (int i = 0; i < n; i++)
                CHECK(rb[i] == (unsigned char)(prev * 31 + i * 7 + rep), "size %d: byte %d differs", n, i);
        }
    }
    free(sb);
    free(rb);
    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0)
        printf("mn_prog: ring ok on %d ranks\n", size);
    return 0;
}

static int coll(int rank, int size)
{
    long v = rank + 1, sum = 0;
    CHECK_OK(MPI_Allreduce(&v, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
    CHECK(sum == (long)size * (size + 1) / 2, "allreduce: %ld", sum);
    double dv[1000], dr[1000];
    for (int i = 0; i < 1000; i++)
        dv[i] = rank * 1000 + i;
    CHECK_OK(MPI_Allreduce(dv, dr, 1000, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
    for (int i = 0; i < 1000; i++)
        CHECK(dr[i] == (size - 1) * 1000 + i, "allreduce max [%d] = %g", i, dr[i]);
    for (int root = 0; root < size; root += size - 1 > 0 ? size - 1 : 1) {
        int n = 1 << 20;
        int *b = malloc((size_t)n * sizeof *b);
        for (int i = 0; i < n; i++)
            b[i] = rank == root ? i ^ root : -1;
        CHECK_OK(MPI_Bcast(b, n, MPI_INT, root, MPI_COMM_WORLD));
        for (int i = 0; i < n; i++)
            CHECK(b[i] == (i ^ root), "bcast from %d: [%d] = %d", root, i, b[i]);
        int small = rank == root ? 42 + root : 0;
        CHECK_OK(MPI_Bcast(&small, 1, MPI_INT, root, MPI_COMM_WORLD));
        CHECK(small == 42 + root, "small bcast from %d: %d", root, small);
        free(b);
        if (size == 1)
            break;
    }
    for (int per = 1; per <= 4096; per *= 64) {
        int *s = malloc((size_t)per * size * sizeof *s), *r = malloc((size_t)per * size * sizeof *r);
        for (int d = 0; d < size; d++)
            for (int i = 0; i < per; i++)
                s[d * per + i] = rank * 100000 + d * 1000 + i % 1000;
        CHECK_OK(MPI_Alltoall(s, per, MPI_INT, r, per, MPI_INT, MPI_COMM_WORLD));
        for (int f = 0; f < size; f++)
            for (int i = 0; i < per; i++)
                CHECK(r[f * per + i] == f * 100000 + rank * 1000 + i % 1000, "alltoall %d from %d [%d]", per, f, i);
        free(s);
        free(r);
    }
    if (rank == 0)
        printf("mn_prog: collectives ok on %d ranks\n", size);
    return 0;
}

static int spawn(int rank, const char *host, const char *expect, char **argv0)
{
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "host", host);
    char *args[] = {"child", NULL};
    MPI_Comm inter;
    int errs[2];
    CHECK_OK(MPI_Comm_spawn(argv0[0], args, 2, info, 0, MPI_COMM_WORLD, &inter, errs));
    MPI_Info_free(&info);
    if (rank == 0) {
        for (int c = 0; c < 2; c++) {
            char ns[NETNS_LEN];
            CHECK_OK(MPI_Recv(ns, NETNS_LEN, MPI_CHAR, c, 5, inter, MPI_STATUS_IGNORE));
            CHECK(strcmp(ns, expect) == 0, "child %d runs in %s, not in %s (host %s)", c, ns, expect, host);
        }
        printf("mn_prog: 2 children on host %s\n", host);
    }
    CHECK_OK(MPI_Comm_disconnect(&inter));
    return 0;
}

static int child(void)
{
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    CHECK(parent != MPI_COMM_NULL, "no parent");
    char ns[NETNS_LEN] = "";
    my_netns(ns);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK_OK(MPI_Send(ns, NETNS_LEN, MPI_CHAR, 0, 5, parent));
    CHECK_OK(MPI_Comm_disconnect(&parent));
    return 0;
}

static int marker(int rank, int size, const char *text)
{
    int len = (int)strlen(text) + 1;
    char *back = malloc((size_t)len);
    CHECK(back != NULL, "out of memory");
    if (rank == 0) {
        for (int r = 1; r < size; r++) {
            CHECK_OK(MPI_Send(text, len, MPI_CHAR, r, 7, MPI_COMM_WORLD));
            CHECK_OK(MPI_Recv(back, len, MPI_CHAR, r, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(strcmp(back, text) == 0, "rank %d sent back something else", r);
        }
        printf("mn_prog: marker ok on %d ranks\n", size);
    } else {
        CHECK_OK(MPI_Recv(back, len, MPI_CHAR, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(strcmp(back, text) == 0, "rank 0 sent something else");
        CHECK_OK(MPI_Send(back, len, MPI_CHAR, 0, 8, MPI_COMM_WORLD));
    }
    free(back);
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, rc = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(argc >= 2, "usage: mn_prog MODE ...");
    const char *mode = argv[1];
    if (strcmp(mode, "hello") == 0) {
        rc = hello(rank, size);
    } else if (strcmp(mode, "ring") == 0) {
        rc = ring(rank, size);
    } else if (strcmp(mode, "coll") == 0) {
        rc = coll(rank, size);
    } else if (strcmp(mode, "spawn") == 0) {
        CHECK(argc >= 4, "usage: mn_prog spawn HOST NETNS");
        rc = spawn(rank, argv[2], argv[3], argv);
    } else if (strcmp(mode, "child") == 0) {
        rc = child();
    } else if (strcmp(mode, "abort") == 0) {
        CHECK(argc >= 4, "usage: mn_prog abort RANK CODE");
        CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
        if (rank == atoi(argv[2]))
            MPI_Abort(MPI_COMM_WORLD, atoi(argv[3]));
        block_forever();
    } else if (strcmp(mode, "quiet") == 0) {
        printf("mn_prog: quiet rank %d of %d\n", rank, size);
    } else if (strcmp(mode, "marker") == 0) {
        CHECK(argc >= 3, "usage: mn_prog marker TEXT");
        rc = marker(rank, size, argv[2]);
    } else if (strcmp(mode, "hang") == 0) {
        CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
        if (rank == 0) {
            printf("mn_hang: ready\n");
            fflush(stdout);
        }
        block_forever();
    } else {
        CHECK(0, "unknown mode %s", mode);
    }
    MPI_Finalize();
    return rc;
}
