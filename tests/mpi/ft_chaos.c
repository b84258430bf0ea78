/*
 * ft_chaos.c: random deaths over many iterations (run under mpiexec
 * --enable-recovery). Usage: ft_chaos ITERATIONS KILLS SEED.
 *
 * Each iteration every live rank adds its contribution with
 * MPI_Allreduce, exchanges with its ring neighbours, and checks both
 * against the communicator's size and ranks. KILLS times, at iterations
 * and ranks drawn from SEED (the same draw at every rank), a rank kills
 * itself in the middle of an iteration (before the exchange, or before
 * the reduction). Whoever sees an error revokes the communicator, so
 * everyone leaves the iteration; the survivors agree that they are
 * repairing, shrink, and redo the iteration. At the end the survivors
 * agree on the number of iterations done and on their sum: every one
 * must hold the same, and nothing may hang.
 */
#include "testutil.h"

#include <mpi-ext.h>
#include <signal.h>

static unsigned next_rand(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 16) & 0x7fff;
}

static int cls_of(int rc)
{
    int c = MPI_SUCCESS;
    if (rc)
        MPI_Error_class(rc, &c);
    return c;
}

/* One iteration on comm: 0, or the failing call's error class. */
static int iteration(MPI_Comm comm, int it, int die_at, long *total)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (die_at == 1)
        raise(SIGKILL);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int sendv = rank * 1000 + it, recvv = -1;
    int rc = MPI_Sendrecv(&sendv, 1, MPI_INT, right, it & 0x7fff, &recvv, 1, MPI_INT, left, it & 0x7fff, comm,
                          MPI_STATUS_IGNORE);
    if (rc)
        return cls_of(rc);
    CHECK(recvv == left * 1000 + it, "iteration %d: got %d from %d", it, recvv, left);
    if (die_at == 2)
        raise(SIGKILL);
    int one = 1, n = 0;
    rc = MPI_Allreduce(&one, &n, 1, MPI_INT, MPI_SUM, comm);
    if (rc)
        return cls_of(rc);
    CHECK(n == size, "iteration %d: sum %d, size %d", it, n, size);
    *total += n;
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    CHECK(argc == 4, "usage: ft_chaos ITERATIONS KILLS SEED");
    int iters = atoi(argv[1]), kills = atoi(argv[2]);
    unsigned seed = (unsigned)atoi(argv[3]);
    int wrank, wsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    CHECK(kills < wsize, "more kills than ranks");
    /* the plan: kill k happens at iteration at[k], by world rank who[k] */
    int *at = calloc((size_t)kills, sizeof(int)), *who = calloc((size_t)kills, sizeof(int)),
        *how = calloc((size_t)kills, sizeof(int));
    char *dead = calloc((size_t)wsize, 1);
    for (int k = 0; k < kills; k++) {
        at[k] = (int)(next_rand(&seed) % (unsigned)iters);
        int w;
        do
            w = (int)(next_rand(&seed) % (unsigned)wsize);
        while (dead[w]);
        dead[w] = 1;
        who[k] = w;
        how[k] = 1 + (int)(next_rand(&seed) % 2);
    }
    MPI_Comm comm;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    /* everyone has left MPI_Comm_dup (on MPI_COMM_WORLD, whose errors
     * are fatal) before anyone dies */
    int here = 1;
    MPIX_Comm_agree(comm, &here);
    long total = 0;
    int repairs = 0;
    for (int it = 0; it < iters;) {
        int die_at = 0;
        for (int k = 0; k < kills; k++)
            if (at[k] == it && who[k] == wrank)
                die_at = how[k];
        long before = total;
        int cls = iteration(comm, it, die_at, &total);
        if (cls != MPI_SUCCESS) {
            CHECK(cls == MPIX_ERR_PROC_FAILED || cls == MPIX_ERR_REVOKED, "iteration %d: error class %d", it, cls);
            MPIX_Comm_revoke(comm);
        }
        /* did everyone finish the iteration? (also on a revoked communicator) */
        int ok = cls == MPI_SUCCESS;
        MPIX_Comm_failure_ack(comm);
        int arc = MPIX_Comm_agree(comm, &ok);
        CHECK(arc == MPI_SUCCESS || cls_of(arc) == MPIX_ERR_PROC_FAILED, "agree: class %d", cls_of(arc));
        if (ok && arc == MPI_SUCCESS) {
            it++;
            continue;
        }
        /* repair and redo the iteration */
        total = before;
        MPI_Comm small;
        CHECK_OK(MPIX_Comm_shrink(comm, &small));
        MPI_Comm_set_errhandler(small, MPI_ERRORS_RETURN);
        MPI_Comm_free(&comm);
        comm = small;
        repairs++;
    }
    int size;
    MPI_Comm_size(comm, &size);
    long mine[2] = {total, -total}, agreed[2];
    CHECK_OK(MPI_Allreduce(mine, agreed, 2, MPI_LONG, MPI_MAX, comm));
    CHECK(agreed[0] == total && -agreed[1] == total, "survivors disagree: %ld..%ld, mine %ld", -agreed[1], agreed[0],
          total);
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0)
        printf("ft_chaos: %d iterations, %d kills, %d survivors, %d repairs, total %ld\n", iters, kills, size, repairs,
               total);
    MPI_Comm_free(&comm);
    free(at);
    free(who);
    free(how);
    free(dead);
    MPI_Finalize();
    return 0;
}
