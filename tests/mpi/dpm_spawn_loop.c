/*
 * dpm_spawn_loop.c: spawn one child and disconnect, many times; no file
 * descriptor, mapping or process may be left over. Usage: dpm_spawn_loop N
 */
#include "testutil.h"

#include <dirent.h>

static int count_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    int n = 0;
    while (d && readdir(d))
        n++;
    if (d)
        closedir(d);
    return n;
}

static long count_maps(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    long n = 0;
    int c;
    while (f && (c = fgetc(f)) != EOF)
        n += c == '\n';
    if (f)
        fclose(f);
    return n;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        int v;
        MPI_Recv(&v, 1, MPI_INT, 0, 0, parent, MPI_STATUS_IGNORE);
        v++;
        MPI_Send(&v, 1, MPI_INT, 0, 0, parent);
        MPI_Comm_disconnect(&parent);
        MPI_Finalize();
        return 0;
    }
    int n = argc > 1 ? atoi(argv[1]) : 100;
    int fds0 = 0;
    long maps0 = 0;
    for (int i = 0; i < n; i++) {
        MPI_Comm child;
        CHECK_OK(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_SELF, &child,
                                MPI_ERRCODES_IGNORE));
        int v = i;
        CHECK_OK(MPI_Send(&v, 1, MPI_INT, 0, 0, child));
        CHECK_OK(MPI_Recv(&v, 1, MPI_INT, 0, 0, child, MPI_STATUS_IGNORE));
        CHECK(v == i + 1, "round %d: answer %d", i, v);
        CHECK_OK(MPI_Comm_disconnect(&child));
        if (i == 4) { /* after warm-up */
            fds0 = count_fds();
            maps0 = count_maps();
        }
    }
    int fds1 = count_fds();
    long maps1 = count_maps();
    CHECK(n <= 5 || fds1 <= fds0 + 2, "file descriptors grew from %d to %d", fds0, fds1);
    CHECK(n <= 5 || maps1 <= maps0 + 8, "memory mappings grew from %ld to %ld", maps0, maps1);
    printf("%d spawn/disconnect rounds; fds %d -> %d, mappings %ld -> %ld\n", n, fds0, fds1, maps0, maps1);
    MPI_Finalize();
    return 0;
}
