/*
 * comm_split_hw.c: MPI_Comm_split_type with MPI_COMM_TYPE_HW_GUIDED and
 * MPI_COMM_TYPE_HW_UNGUIDED (MPI-4.0 section 7.4.2).
 *  - HW_GUIDED "mpi_shared_memory" gives the communicators of
 *    MPI_COMM_TYPE_SHARED; "hwloc://Machine" the same for processes of
 *    one machine; a value naming no resource gives MPI_COMM_NULL, and so
 *    does a value other than the one the others gave;
 *  - with argument "bind", each process binds itself before MPI_Init to
 *    one CPU (its local rank modulo the CPUs: TIDE_LOCAL_RANK), so every
 *    thread MPI starts is bound too: "hwloc://Core" and "hwloc://PU"
 *    group exactly the ranks bound to the same CPU;
 *  - HW_UNGUIDED gives a communicator strictly smaller than the input,
 *    whose members agree on the "mpi_hw_resource_type" it stands for,
 *    or MPI_COMM_NULL (always on one rank).
 */
#define _GNU_SOURCE
#include "testutil.h"

#include <sched.h>
#include <unistd.h>

static MPI_Comm guided(MPI_Comm comm, const char *value)
{
    MPI_Info info;
    CHECK_OK(MPI_Info_create(&info));
    CHECK_OK(MPI_Info_set(info, "mpi_hw_resource_type", value));
    MPI_Comm c = MPI_COMM_NULL;
    CHECK_OK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_HW_GUIDED, 0, info, &c));
    CHECK_OK(MPI_Info_free(&info));
    return c;
}

static void hw_type_of(MPI_Comm c, char *v)
{
    MPI_Info used;
    CHECK_OK(MPI_Comm_get_info(c, &used));
    int flag = 0;
    CHECK_OK(MPI_Info_get(used, "mpi_hw_resource_type", MPI_MAX_INFO_VAL, v, &flag));
    CHECK(flag, "no mpi_hw_resource_type on the new communicator");
    CHECK_OK(MPI_Info_free(&used));
}

/* Every member of c has the same string s. */
static void same_everywhere(MPI_Comm c, const char *s)
{
    char mine[MPI_MAX_INFO_VAL + 1] = "", root[MPI_MAX_INFO_VAL + 1] = "";
    snprintf(mine, sizeof mine, "%s", s);
    memcpy(root, mine, sizeof root);
    CHECK_OK(MPI_Bcast(root, (int)sizeof root, MPI_CHAR, 0, c));
    CHECK(strcmp(root, mine) == 0, "members differ: '%s' and '%s'", root, mine);
}

int main(int argc, char **argv)
{
    int bind = argc > 1 && strcmp(argv[1], "bind") == 0;
    cpu_set_t allowed;
    CHECK(sched_getaffinity(0, sizeof allowed, &allowed) == 0, "sched_getaffinity");
    int ncpu = CPU_COUNT(&allowed), cpus[CPU_SETSIZE], k = 0;
    for (int i = 0; i < CPU_SETSIZE; i++)
        if (CPU_ISSET(i, &allowed))
            cpus[k++] = i;
    const char *lr = getenv("TIDE_LOCAL_RANK");
    int mycpu = cpus[(lr ? atoi(lr) : 0) % ncpu];
    if (bind) {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(mycpu, &one);
        CHECK(sched_setaffinity(0, sizeof one, &one) == 0, "sched_setaffinity to CPU %d", mycpu);
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    MPI_Comm shared, c;
    CHECK_OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shared));
    int result;
    char v[MPI_MAX_INFO_VAL + 1];

    c = guided(MPI_COMM_WORLD, "mpi_shared_memory");
    CHECK(c != MPI_COMM_NULL, "HW_GUIDED mpi_shared_memory gave MPI_COMM_NULL");
    CHECK_OK(MPI_Comm_compare(c, shared, &result));
    CHECK(result == MPI_CONGRUENT, "HW_GUIDED mpi_shared_memory is not MPI_COMM_TYPE_SHARED's (%d)", result);
    hw_type_of(c, v);
    CHECK(strcmp(v, "mpi_shared_memory") == 0, "mpi_hw_resource_type '%s'", v);
    CHECK_OK(MPI_Comm_free(&c));

    c = guided(MPI_COMM_WORLD, "hwloc://Machine");
    CHECK(c != MPI_COMM_NULL, "HW_GUIDED hwloc://Machine gave MPI_COMM_NULL");
    CHECK_OK(MPI_Comm_compare(c, shared, &result));
    CHECK(result == MPI_CONGRUENT, "hwloc://Machine is not the node (%d)", result);
    CHECK_OK(MPI_Comm_free(&c));

    c = guided(MPI_COMM_WORLD, "hwloc://NoSuchThing");
    CHECK(c == MPI_COMM_NULL, "a resource type that does not exist gave a communicator");
    c = guided(MPI_COMM_WORLD, "tide_bogus");
    CHECK(c == MPI_COMM_NULL, "a value that names no resource gave a communicator");
    /* rank 0 asks another value than the others: they get nothing, it
     * gets the ranks that asked what it asked (itself) */
    if (size > 1) {
        c = guided(MPI_COMM_WORLD, rank == 0 ? "hwloc://Machine" : "mpi_shared_memory");
        if (rank == 0) {
            int n = 0;
            CHECK(c != MPI_COMM_NULL, "rank 0 got MPI_COMM_NULL");
            CHECK_OK(MPI_Comm_size(c, &n));
            CHECK(n == 1, "rank 0's communicator has %d ranks", n);
            CHECK_OK(MPI_Comm_free(&c));
        } else {
            CHECK(c == MPI_COMM_NULL, "a rank whose value differs from the others got a communicator");
        }
    }

    /* unbound (the whole machine allowed) on one rank: nothing smaller */
    if (size == 1 && !bind) {
        CHECK_OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_UNGUIDED, 0, MPI_INFO_NULL, &c));
        CHECK(c == MPI_COMM_NULL, "HW_UNGUIDED on one rank gave a communicator");
    }

    int lrank, lsize;
    CHECK_OK(MPI_Comm_rank(shared, &lrank));
    CHECK_OK(MPI_Comm_size(shared, &lsize));
    for (int t = 0; t < 2 && bind; t++) {
        c = guided(shared, t ? "hwloc://PU" : "hwloc://Core");
        CHECK(c != MPI_COMM_NULL, "bound to CPU %d, %s gave MPI_COMM_NULL", mycpu, t ? "PU" : "Core");
        int n = 0, want = 0;
        CHECK_OK(MPI_Comm_size(c, &n));
        for (int r = 0; r < lsize; r++)
            want += r % ncpu == lrank % ncpu;
        CHECK(n == want, "bound to CPU %d: %d ranks share it, expected %d", mycpu, n, want);
        char cpu[32];
        snprintf(cpu, sizeof cpu, "%d", mycpu);
        same_everywhere(c, cpu);
        CHECK_OK(MPI_Comm_free(&c));
    }
    CHECK_OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_UNGUIDED, rank, MPI_INFO_NULL, &c));
    if (size == 1)
        CHECK(c == MPI_COMM_NULL, "HW_UNGUIDED on one rank gave a communicator");
    if (c != MPI_COMM_NULL) {
        int n = 0;
        CHECK_OK(MPI_Comm_size(c, &n));
        CHECK(n < size, "HW_UNGUIDED gave %d ranks of %d: not strictly smaller", n, size);
        hw_type_of(c, v);
        CHECK(strcmp(v, "mpi_shared_memory") == 0 || strncmp(v, "hwloc://", 8) == 0, "mpi_hw_resource_type '%s'", v);
        same_everywhere(c, v);
        /* the members share that resource: asked for it, they get the same */
        MPI_Comm again = guided(c, v);
        CHECK(again != MPI_COMM_NULL, "HW_GUIDED %s over HW_UNGUIDED's communicator gave nothing", v);
        CHECK_OK(MPI_Comm_compare(again, c, &result));
        CHECK(result == MPI_CONGRUENT, "HW_GUIDED %s splits HW_UNGUIDED's communicator further", v);
        CHECK_OK(MPI_Comm_free(&again));
        if (rank == 0)
            printf("comm_split_hw: unguided: %s, %d of %d ranks\n", v, n, size);
        CHECK_OK(MPI_Comm_free(&c));
    } else if (rank == 0) {
        printf("comm_split_hw: unguided: MPI_COMM_NULL\n");
    }
    CHECK_OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_UNGUIDED + 40, 0, MPI_INFO_NULL, &c) == MPI_SUCCESS
                 ? MPI_ERR_OTHER
                 : MPI_SUCCESS);
    CHECK_OK(MPI_Comm_free(&shared));
    if (rank == 0)
        printf("comm_split_hw: ok on %d ranks%s\n", size, bind ? " (bound)" : "");
    MPI_Finalize();
    return 0;
}
