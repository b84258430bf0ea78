/*
 * rt_env.c: the environment chapter as a rank sees it: size and rank of
 * MPI_COMM_WORLD and MPI_COMM_SELF, the predefined attributes, versions,
 * the processor name, clocks, thread queries, Initialized/Finalized.
 * Usage: rt_env EXPECTED_SIZE [EXPECTED_APPNUM]
 */
#include "testutil.h"

#include <unistd.h>

int main(int argc, char **argv)
{
    int flag = 1;
    MPI_Initialized(&flag);
    CHECK(!flag, "MPI_Initialized before MPI_Init says %d", flag);
    int provided = -1;
    CHECK_OK(MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided));
    CHECK(provided == MPI_THREAD_SERIALIZED, "provided %d", provided);
    MPI_Initialized(&flag);
    CHECK(flag, "MPI_Initialized after MPI_Init says 0");
    int q;
    MPI_Query_thread(&q);
    CHECK(q == provided, "MPI_Query_thread %d", q);
    MPI_Is_thread_main(&flag);
    CHECK(flag, "MPI_Is_thread_main is false on the main thread");

    int expect = argc > 1 ? atoi(argv[1]) : 1;
    int size, rank;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK(size == expect, "world size %d, expected %d", size, expect);
    CHECK(rank >= 0 && rank < size, "rank %d", rank);
    MPI_Comm_size(MPI_COMM_SELF, &size);
    MPI_Comm_rank(MPI_COMM_SELF, &rank);
    CHECK(size == 1 && rank == 0, "self size %d rank %d", size, rank);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    int *val;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &val, &flag);
    CHECK(flag && *val >= 32767, "MPI_TAG_UB flag %d", flag);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_HOST, &val, &flag);
    CHECK(flag && (*val == MPI_PROC_NULL || (*val >= 0 && *val < expect)), "MPI_HOST");
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_IO, &val, &flag);
    CHECK(flag && (*val == MPI_ANY_SOURCE || *val == MPI_PROC_NULL || *val >= 0), "MPI_IO");
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &val, &flag);
    CHECK(flag && (*val == 0 || *val == 1), "MPI_WTIME_IS_GLOBAL");
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &val, &flag);
    CHECK(flag && *val >= expect, "MPI_UNIVERSE_SIZE %d", flag ? *val : -1);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &val, &flag);
    CHECK(flag, "MPI_APPNUM missing");
    if (argc > 2)
        CHECK(*val == atoi(argv[2]), "MPI_APPNUM %d, expected %s", *val, argv[2]);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &val, &flag);
    CHECK(flag && *val >= MPI_ERR_LASTCODE, "MPI_LASTUSEDCODE");
    MPI_Comm_get_attr(MPI_COMM_SELF, MPI_TAG_UB, &val, &flag);
    CHECK(!flag, "MPI_TAG_UB found on MPI_COMM_SELF");

    int v, sv;
    MPI_Get_version(&v, &sv);
    CHECK(v == MPI_VERSION && sv == MPI_SUBVERSION, "version %d.%d", v, sv);
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Get_library_version(lib, &len);
    CHECK(len > 0 && len < MPI_MAX_LIBRARY_VERSION_STRING && strstr(lib, "Tide"), "library %s", lib);
    /* what it was built with and what it can use */
    CHECK(strstr(lib, "transports ") && strstr(lib, "PMIx ") && strstr(lib, "built with "), "library %s", lib);
    char name[MPI_MAX_PROCESSOR_NAME], host[256];
    MPI_Get_processor_name(name, &len);
    gethostname(host, sizeof host);
    CHECK(len == (int)strlen(name) && len > 0, "processor name '%s'", name);
    double t0 = MPI_Wtime(), tick = MPI_Wtick();
    CHECK(tick > 0 && tick < 0.01, "tick %g", tick);
    double t1 = MPI_Wtime();
    CHECK(t1 >= t0, "clock went back");
    printf("rank %d of %d on %s\n", rank, expect, name);
    fflush(stdout);
    CHECK_OK(MPI_Finalize());
    MPI_Finalized(&flag);
    CHECK(flag, "MPI_Finalized after MPI_Finalize says 0");
    return 0;
}
