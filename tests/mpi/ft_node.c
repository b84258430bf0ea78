/*
 * ft_node.c: a node's daemon dies, taking its ranks with it (run under
 * mpiexec --enable-recovery with several simulated nodes). The last rank
 * kills its node daemon (its parent process); every rank of that node
 * ends with it. The survivors, on the other nodes, see their collective
 * fail, acknowledge, agree, shrink, and check that the shrunk
 * communicator holds exactly the ranks of the nodes that live.
 */
#include "testutil.h"

#include <mpi-ext.h>
#include <signal.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char host[MPI_MAX_PROCESSOR_NAME] = "";
    int len;
    MPI_Get_processor_name(host, &len);
    char *hosts = calloc((size_t)size, MPI_MAX_PROCESSOR_NAME);
    MPI_Allgather(host, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, hosts, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, MPI_COMM_WORLD);
    const char *lost = hosts + (size_t)(size - 1) * MPI_MAX_PROCESSOR_NAME;
    int expect = 0, mine_lost = !strcmp(host, lost);
    for (int r = 0; r < size; r++)
        expect += strcmp(hosts + (size_t)r * MPI_MAX_PROCESSOR_NAME, lost) != 0;
    CHECK(expect > 0 && expect < size, "needs several nodes (%d of %d ranks off the last rank's node)", expect, size);
    MPI_Comm comm;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    int here = 1;
    CHECK_OK(MPIX_Comm_agree(comm, &here));
    if (rank == size - 1)
        kill(getppid(), SIGKILL); /* the node daemon */
    if (mine_lost) {
        /* this node's ranks end with their daemon */
        for (;;)
            pause();
    }
    CHECK_ERR(MPI_Barrier(comm), MPIX_ERR_PROC_FAILED);
    CHECK_OK(MPIX_Comm_failure_ack(comm));
    int flag = 1, rc = MPIX_Comm_agree(comm, &flag);
    if (rc != MPI_SUCCESS) { /* a failure learnt meanwhile: acknowledge it too */
        CHECK_OK(MPIX_Comm_failure_ack(comm));
        CHECK_OK(MPIX_Comm_agree(comm, &flag));
    }
    MPI_Comm small;
    CHECK_OK(MPIX_Comm_shrink(comm, &small));
    int ssize, one = 1, sum = 0;
    MPI_Comm_size(small, &ssize);
    CHECK(ssize == expect, "shrunk to %d, %d ranks live off the lost node", ssize, expect);
    CHECK_OK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, small));
    CHECK(sum == expect, "sum %d", sum);
    int srank;
    MPI_Comm_rank(small, &srank);
    if (srank == 0)
        printf("ft_node: node %s lost, %d of %d ranks go on\n", lost, ssize, size);
    MPI_Comm_free(&small);
    MPI_Comm_free(&comm);
    free(hosts);
    MPI_Finalize();
    return 0;
}
