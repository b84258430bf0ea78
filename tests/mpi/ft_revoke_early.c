/*
 * ft_revoke_early.c: a communicator revoked by a member as soon as its
 * MPI_Comm_dup returned there is revoked everywhere, also where the
 * revocation notice came before the dup had finished (run with 4 or more
 * ranks, --enable-recovery). Rank 0 revokes each new communicator at
 * once; every other rank then posts a receive from rank 0 and a large
 * send to it on that communicator: both must end with MPIX_ERR_REVOKED
 * (rank 0 drops what comes on it), never wait for ever. Repeated, since
 * whether the notice overtakes the end of the dup depends on timing; the
 * communicators are freed only at the end, so each round's has a context
 * id of its own (a notice that comes before its communicator is made, on
 * an id freed just before, is not told apart from a late one about the
 * freed communicator: docs/FAULTS.md).
 */
#include "testutil.h"

#include <mpi-ext.h>

#define ROUNDS 40
#define COUNT (1 << 20)

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= 4, "needs 4 ranks or more");
    int *sb = calloc(COUNT, sizeof *sb), *rb = calloc(COUNT, sizeof *rb);
    CHECK(sb && rb, "out of memory");
    MPI_Comm comms[ROUNDS];
    for (int round = 0; round < ROUNDS; round++) {
        CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &comms[round]));
        MPI_Comm comm = comms[round];
        MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
        if (rank == 0) {
            CHECK_OK(MPIX_Comm_revoke(comm));
        } else {
            MPI_Request rreq, sreq;
            int rc = MPI_Irecv(rb, COUNT, MPI_INT, 0, 1, comm, &rreq);
            if (rc == MPI_SUCCESS)
                rc = MPI_Wait(&rreq, MPI_STATUS_IGNORE);
            int cls;
            MPI_Error_class(rc, &cls);
            CHECK(cls == MPIX_ERR_REVOKED, "round %d: the receive from rank 0 ended with class %d", round, cls);
            rc = MPI_Isend(sb, COUNT, MPI_INT, 0, 1, comm, &sreq);
            if (rc == MPI_SUCCESS)
                rc = MPI_Wait(&sreq, MPI_STATUS_IGNORE);
            MPI_Error_class(rc, &cls);
            CHECK(cls == MPIX_ERR_REVOKED, "round %d: the send to rank 0 ended with class %d", round, cls);
            int flag = 0;
            CHECK_OK(MPIX_Comm_is_revoked(comm, &flag));
            CHECK(flag, "round %d: MPIX_Comm_is_revoked says 0", round);
        }
        CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    }
    for (int round = 0; round < ROUNDS; round++)
        CHECK_OK(MPI_Comm_free(&comms[round]));
    free(sb);
    free(rb);
    if (rank == 0)
        printf("ft_revoke_early: ok (%d rounds)\n", ROUNDS);
    MPI_Finalize();
    return 0;
}
