/*
 * coll_regions.c: the shared-memory regions of collectives are capped per
 * process (coll_shm_regions, argv[1]): NCOMM communicators each run a
 * barrier and an allreduce (checked); this process then maps at most the
 * cap of regions (counted in /proc/self/maps), and at least one when the
 * cap allows; once they are freed, new communicators get regions again.
 */
#include "testutil.h"

#include <string.h>

#define NCOMM 40

static int mapped_regions(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[1024];
    int n = 0;
    while (f && fgets(line, sizeof line, f))
        n += strstr(line, "/coll-") != NULL;
    if (f)
        fclose(f);
    return n;
}

static void round_of(MPI_Comm *comms, int rank, int size, int cap, const char *when)
{
    for (int i = 0; i < NCOMM; i++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &comms[i]);
        MPI_Barrier(comms[i]);
        int x = rank + i, sum = 0;
        MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, comms[i]);
        CHECK(sum == size * (size - 1) / 2 + size * i, "%s: allreduce on communicator %d gave %d", when, i, sum);
    }
    int n = mapped_regions();
    CHECK(n <= cap, "%s: %d regions mapped, the cap is %d", when, n, cap);
    CHECK(cap == 0 || size < 2 || n >= 1, "%s: no region mapped", when);
    for (int i = 0; i < NCOMM; i++)
        MPI_Comm_free(&comms[i]);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, cap = argc > 1 ? atoi(argv[1]) : 64;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm comms[NCOMM];
    round_of(comms, rank, size, cap, "first round");
    round_of(comms, rank, size, cap, "second round");
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("coll_regions: ok on %d ranks (cap %d)\n", size, cap);
    MPI_Finalize();
    return 0;
}
