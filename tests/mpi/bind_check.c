/*
 * bind_check.c: what a rank sees of its binding and of the launcher's
 * per-rank variables. Each rank prints one line:
 *   bind [child ]rank=R size=S cpus=LIST ncpus=N NAME=VALUE ...
 * with its affinity from sched_getaffinity as a cpu list ("0-1,3") and the
 * variables other launchers set (OMPI_COMM_WORLD_*, PMI_*, MPI_LOCAL*,
 * PMIX_RANK), "-" for an unset one. It checks the rank and size variables
 * against MPI_COMM_WORLD itself.
 * Usage: bind_check [spawn N]   (spawn: N children print their lines too)
 */
#define _GNU_SOURCE
#include "testutil.h"

#include <sched.h>

static const char *vars[] = {
    "OMPI_COMM_WORLD_RANK",      "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK",
    "OMPI_COMM_WORLD_LOCAL_SIZE", "OMPI_COMM_WORLD_NODE_RANK", "OMPI_UNIVERSE_SIZE",
    "PMI_RANK",                  "PMI_SIZE",             "MPI_LOCALRANKID",
    "MPI_LOCALNRANKS",           "PMIX_RANK",
};

/* The affinity as "a-b,c": ranges of consecutive cpus. */
static int cpu_list(char *buf, size_t cap)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return -1;
    size_t len = 0;
    int n = CPU_COUNT(&set);
    buf[0] = '\0';
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, &set))
            continue;
        int e = c;
        while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, &set))
            e++;
        int w = e > c ? snprintf(buf + len, cap - len, "%s%d-%d", len ? "," : "", c, e)
                      : snprintf(buf + len, cap - len, "%s%d", len ? "," : "", c);
        if (w < 0 || (size_t)w >= cap - len)
            break;
        len += (size_t)w;
        c = e;
    }
    return n;
}

static int env_int(const char *name)
{
    const char *v = getenv(name);
    return v ? atoi(v) : -1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(env_int("OMPI_COMM_WORLD_RANK") == rank, "OMPI_COMM_WORLD_RANK %d", env_int("OMPI_COMM_WORLD_RANK"));
    CHECK(env_int("OMPI_COMM_WORLD_SIZE") == size, "OMPI_COMM_WORLD_SIZE %d", env_int("OMPI_COMM_WORLD_SIZE"));
    CHECK(env_int("PMI_RANK") == rank && env_int("PMI_SIZE") == size, "PMI_RANK/PMI_SIZE");

    char line[4096], cpus[2048];
    int n = cpu_list(cpus, sizeof cpus);
    CHECK(n > 0, "sched_getaffinity");
    size_t len = (size_t)snprintf(line, sizeof line, "bind %srank=%d size=%d cpus=%s ncpus=%d",
                                  parent != MPI_COMM_NULL ? "child " : "", rank, size, cpus, n);
    for (size_t i = 0; i < sizeof vars / sizeof vars[0] && len < sizeof line; i++) {
        const char *v = getenv(vars[i]);
        len += (size_t)snprintf(line + len, sizeof line - len, " %s=%s", vars[i], v ? v : "-");
    }
    printf("%s\n", line);
    fflush(stdout);

    if (parent == MPI_COMM_NULL && argc > 2 && strcmp(argv[1], "spawn") == 0) {
        char *cargv[] = {NULL};
        MPI_Comm inter;
        CHECK_OK(MPI_Comm_spawn(argv[0], cargv, atoi(argv[2]), MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                                MPI_ERRCODES_IGNORE));
        MPI_Barrier(inter);
        MPI_Comm_disconnect(&inter);
    } else if (parent != MPI_COMM_NULL) {
        MPI_Barrier(parent);
        MPI_Comm_disconnect(&parent);
    }
    MPI_Finalize();
    return 0;
}
