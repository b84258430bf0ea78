/*
 * dpm_sizes.c: messages of every size between a parent job and the
 * children it spawns, both ways, with the data checked. The two jobs may
 * run with different shared-memory settings (children that outnumber the
 * cores use longer eager messages and larger rings than a parent that
 * does not), so each side must send what the other's rings can hold:
 * sizes just below, at and above every eager limit and ring capacity.
 * Usage: dpm_sizes N (the parent spawns N children)
 */
#include "testutil.h"

#include <stdint.h>

static const int sizes[] = {0,     1,     100,   4000,   4096,   8192,   16376,  16384,  32767,  32768,
                            32769, 65400, 65528, 65536,  65537,  98304,  131064, 131072, 131073, 262144,
                            524288, 1048576};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

static unsigned char byte_at(int size, int from, int i)
{
    return (unsigned char)((uint32_t)i * 2654435761u ^ (uint32_t)size * 40503u ^ (uint32_t)from * 977u);
}

static void fill(unsigned char *b, int size, int from)
{
    for (int i = 0; i < size; i++)
        b[i] = byte_at(size, from, i);
}

static void verify(const unsigned char *b, int size, int from, const char *what)
{
    for (int i = 0; i < size; i++)
        CHECK(b[i] == byte_at(size, from, i), "%s: %d bytes from %d: byte %d is %u, not %u", what, size, from, i,
              b[i], byte_at(size, from, i));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent, inter;
    MPI_Comm_get_parent(&parent);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    unsigned char *buf = malloc(1 << 20), *out = malloc(1 << 20);
    CHECK(buf && out, "out of memory");
    if (parent == MPI_COMM_NULL) {
        int n = argc > 1 ? atoi(argv[1]) : 4;
        char *cargv[] = {"child", NULL};
        CHECK_OK(MPI_Comm_spawn(argv[0], cargv, n, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE));
        for (int k = 0; k < NSIZES; k++) {
            int s = sizes[k];
            /* to every child at once, then every child's answer */
            fill(out, s, 1000 + rank);
            MPI_Request req[64];
            for (int c = 0; c < n && c < 64; c++)
                CHECK_OK(MPI_Isend(out, s, MPI_BYTE, c, k, inter, &req[c]));
            for (int c = 0; c < n; c++) {
                MPI_Status st;
                CHECK_OK(MPI_Recv(buf, s, MPI_BYTE, MPI_ANY_SOURCE, k, inter, &st));
                int got;
                MPI_Get_count(&st, MPI_BYTE, &got);
                CHECK(got == s, "size %d: %d bytes arrived", s, got);
                verify(buf, s, st.MPI_SOURCE, "parent");
            }
            CHECK_OK(MPI_Waitall(n < 64 ? n : 64, req, MPI_STATUSES_IGNORE));
        }
        CHECK_OK(MPI_Comm_disconnect(&inter));
        if (rank == 0)
            printf("dpm_sizes: %d sizes to and from %d children\n", NSIZES, n);
    } else {
        CHECK(argc > 1 && strcmp(argv[1], "child") == 0, "child argv");
        int psize;
        MPI_Comm_remote_size(parent, &psize);
        for (int k = 0; k < NSIZES; k++) {
            int s = sizes[k];
            fill(out, s, rank);
            for (int p = 0; p < psize; p++) {
                MPI_Status st;
                CHECK_OK(MPI_Recv(buf, s, MPI_BYTE, p, k, parent, &st));
                verify(buf, s, 1000 + p, "child");
                CHECK_OK(MPI_Send(out, s, MPI_BYTE, p, k, parent));
            }
        }
        CHECK_OK(MPI_Comm_disconnect(&parent));
    }
    free(buf);
    free(out);
    MPI_Finalize();
    return 0;
}
