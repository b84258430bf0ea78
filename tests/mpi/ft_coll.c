/*
 * ft_coll.c: a process dies while the others are in a collective (run
 * under mpiexec --enable-recovery). Usage: ft_coll NAME VICTIM, NAME one
 * of the collectives below or "all" (each in turn, one more rank dying
 * in each: needs more ranks than collectives).
 *
 * The victim kills itself instead of entering the collective, so the
 * others are inside it (or have left it: a collective may complete at
 * ranks that did not need the victim) when the failure arrives. Each
 * survivor must return, with MPI_SUCCESS or MPIX_ERR_PROC_FAILED and
 * nothing else; then the survivors agree on whether every one of them
 * succeeded, shrink, and run the same collective on the shrunk
 * communicator, checking its result element by element.
 */
#include "testutil.h"

#include <mpi-ext.h>
#include <signal.h>
#include <stdbool.h>

#define N 4

static const char *names[] = {"barrier", "bcast", "reduce", "allreduce", "gather", "allgather", "scatter",
                              "alltoall", "scan", "exscan", "reduce_scatter_block", "ibarrier", "iallreduce",
                              "allgatherv"};
#define NNAMES ((int)(sizeof names / sizeof names[0]))

/* Run collective `name` on comm; check the result when check. */
static int run(const char *name, MPI_Comm comm, int check)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int in[N], *out = malloc(sizeof(int) * N * (size_t)size), *all = malloc(sizeof(int) * N * (size_t)size);
    int *counts = malloc(sizeof(int) * (size_t)size), *displs = malloc(sizeof(int) * (size_t)size);
    for (int i = 0; i < N; i++)
        in[i] = rank * 10 + i;
    for (int i = 0; i < N * size; i++)
        all[i] = rank * 1000 + i;
    for (int i = 0; i < size; i++) {
        counts[i] = N;
        displs[i] = N * i;
    }
    int rc = MPI_SUCCESS;
    long sr = (long)size * (size - 1) / 2; /* sum of ranks */
    MPI_Request r;
    if (!strcmp(name, "barrier")) {
        rc = MPI_Barrier(comm);
    } else if (!strcmp(name, "bcast")) {
        rc = MPI_Bcast(in, N, MPI_INT, 0, comm);
        for (int i = 0; check && !rc && i < N; i++)
            CHECK(in[i] == i, "bcast[%d] %d", i, in[i]);
    } else if (!strcmp(name, "reduce") || !strcmp(name, "allreduce") || !strcmp(name, "iallreduce")) {
        if (!strcmp(name, "reduce"))
            rc = MPI_Reduce(in, out, N, MPI_INT, MPI_SUM, 0, comm);
        else if (!strcmp(name, "allreduce"))
            rc = MPI_Allreduce(in, out, N, MPI_INT, MPI_SUM, comm);
        else if (!(rc = MPI_Iallreduce(in, out, N, MPI_INT, MPI_SUM, comm, &r)))
            rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
        for (int i = 0; check && !rc && (rank == 0 || strcmp(name, "reduce")) && i < N; i++)
            CHECK(out[i] == 10 * sr + size * i, "%s[%d] %d", name, i, out[i]);
    } else if (!strcmp(name, "gather") || !strcmp(name, "allgather") || !strcmp(name, "allgatherv")) {
        if (!strcmp(name, "gather"))
            rc = MPI_Gather(in, N, MPI_INT, out, N, MPI_INT, 0, comm);
        else if (!strcmp(name, "allgather"))
            rc = MPI_Allgather(in, N, MPI_INT, out, N, MPI_INT, comm);
        else
            rc = MPI_Allgatherv(in, N, MPI_INT, out, counts, displs, MPI_INT, comm);
        for (int i = 0; check && !rc && (rank == 0 || strcmp(name, "gather")) && i < N * size; i++)
            CHECK(out[i] == (i / N) * 10 + i % N, "%s[%d] %d", name, i, out[i]);
    } else if (!strcmp(name, "scatter")) {
        rc = MPI_Scatter(all, N, MPI_INT, out, N, MPI_INT, 0, comm);
        for (int i = 0; check && !rc && i < N; i++)
            CHECK(out[i] == rank * N + i, "scatter[%d] %d", i, out[i]);
    } else if (!strcmp(name, "alltoall")) {
        rc = MPI_Alltoall(all, N, MPI_INT, out, N, MPI_INT, comm);
        for (int i = 0; check && !rc && i < N * size; i++)
            CHECK(out[i] == (i / N) * 1000 + rank * N + i % N, "alltoall[%d] %d", i, out[i]);
    } else if (!strcmp(name, "scan") || !strcmp(name, "exscan")) {
        bool ex = !strcmp(name, "exscan");
        rc = ex ? MPI_Exscan(in, out, N, MPI_INT, MPI_SUM, comm) : MPI_Scan(in, out, N, MPI_INT, MPI_SUM, comm);
        int upto = ex ? rank - 1 : rank;
        for (int i = 0; check && !rc && (!ex || rank > 0) && i < N; i++)
            CHECK(out[i] == 10 * upto * (upto + 1) / 2 + (upto + 1) * i, "%s[%d] %d", name, i, out[i]);
    } else if (!strcmp(name, "reduce_scatter_block")) {
        rc = MPI_Reduce_scatter_block(all, out, N, MPI_INT, MPI_SUM, comm);
        for (int i = 0; check && !rc && i < N; i++)
            CHECK(out[i] == 1000 * sr + size * (rank * N + i), "reduce_scatter_block[%d] %d", i, out[i]);
    } else if (!strcmp(name, "ibarrier")) {
        if (!(rc = MPI_Ibarrier(comm, &r)))
            rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else {
        CHECK(0, "unknown collective %s", name);
    }
    free(out);
    free(all);
    free(counts);
    free(displs);
    return rc;
}

/* One round: victim (a rank of *comm) dies instead of entering name;
 * *comm becomes the shrunk communicator. */
static void round_of(const char *name, int victim, MPI_Comm *comm)
{
    int rank;
    MPI_Comm_rank(*comm, &rank);
    /* everyone is here (an agreement: a barrier could fail at a rank
     * still in it when the victim, having left it, dies) */
    int here = 1;
    CHECK_OK(MPIX_Comm_agree(*comm, &here));
    if (rank == victim)
        raise(SIGKILL);
    int rc = run(name, *comm, 0);
    int cls = MPI_SUCCESS;
    if (rc)
        MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_SUCCESS || cls == MPIX_ERR_PROC_FAILED, "%s returned class %d", name, cls);
    /* did every survivor succeed? An agreement names the failures some
     * survivor had not acknowledged (a rank may have left the collective
     * before it heard of the death): the same error at every one; then
     * all know, acknowledge, and agree again */
    CHECK_OK(MPIX_Comm_failure_ack(*comm));
    int all_ok = rc == MPI_SUCCESS;
    int arc = MPIX_Comm_agree(*comm, &all_ok);
    int acls = MPI_SUCCESS;
    if (arc)
        MPI_Error_class(arc, &acls);
    if (acls == MPIX_ERR_PROC_FAILED) {
        CHECK_OK(MPIX_Comm_failure_ack(*comm));
        all_ok = rc == MPI_SUCCESS;
        arc = MPIX_Comm_agree(*comm, &all_ok);
    }
    CHECK_OK(arc);
    MPI_Comm small;
    CHECK_OK(MPIX_Comm_shrink(*comm, &small));
    MPI_Comm_set_errhandler(small, MPI_ERRORS_RETURN);
    MPI_Comm_free(comm);
    *comm = small;
    CHECK_OK(run(name, *comm, 1));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    CHECK(argc == 3, "usage: ft_coll NAME|all VICTIM");
    MPI_Comm comm;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    int victim = atoi(argv[2]);
    int rounds = 0;
    for (int k = 0; k < NNAMES; k++) {
        if (strcmp(argv[1], "all") && strcmp(argv[1], names[k]))
            continue;
        int size;
        MPI_Comm_size(comm, &size);
        round_of(names[k], victim % size, &comm);
        rounds++;
    }
    CHECK(rounds > 0, "no collective named %s", argv[1]);
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (rank == 0)
        printf("ft_coll: %s ok, %d rounds, %d survivors\n", argv[1], rounds, size);
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
