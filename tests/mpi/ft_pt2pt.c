/*
 * ft_pt2pt.c: what a process failure does to point-to-point operations,
 * and the calls that repair a communicator (mpi-ext.h; run under
 * mpiexec --enable-recovery, at least 4 ranks). The last rank kills
 * itself after an agreement; the survivors check, in order:
 *  - a receive from it ends with MPIX_ERR_PROC_FAILED (rank 0 posts it
 *    before the death, so it is pending when the failure arrives);
 *  - a send to it, once the failure is known, ends the same way;
 *  - a nonblocking receive from MPI_ANY_SOURCE gives
 *    MPIX_ERR_PROC_FAILED_PENDING and stays pending; a blocking one gives
 *    MPIX_ERR_PROC_FAILED; after MPIX_Comm_failure_ack the pending one
 *    goes on and matches a message from a survivor;
 *  - probes from it, or from MPI_ANY_SOURCE before the acknowledgement,
 *    end the same way;
 *  - MPIX_Comm_get_failed / failure_get_acked / ack_failed name it;
 *  - a barrier on the communicator ends with MPIX_ERR_PROC_FAILED at
 *    every survivor (it can never complete);
 *  - MPIX_Comm_agree gives every survivor the AND of their flags;
 *  - MPIX_Comm_shrink gives the survivors a working communicator;
 *  - the multiple-completion calls report an interrupted receive in its
 *    status and leave it active;
 *  - MPIX_Comm_revoke of it ends a pending receive at another rank with
 *    MPIX_ERR_REVOKED, and later operations too, but agree and (nonblocking)
 *    shrink still work.
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
    CHECK(size >= 4, "needs 4 ranks");
    MPI_Comm comm;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    int victim = size - 1;

    /* rank 0's receive from the victim is pending before the death */
    int v = -1;
    MPI_Request pending = MPI_REQUEST_NULL;
    if (rank == 0)
        CHECK_OK(MPI_Irecv(&v, 1, MPI_INT, victim, 7, comm, &pending));
    /* everyone is here (an agreement, not a barrier: the victim could
     * leave a barrier and die while a slower rank is still in it) */
    int flag = 1;
    CHECK_OK(MPIX_Comm_agree(comm, &flag));
    if (rank == victim)
        raise(SIGKILL);

    if (rank == 0)
        CHECK_ERR(MPI_Wait(&pending, MPI_STATUS_IGNORE), MPIX_ERR_PROC_FAILED);
    /* a blocking receive from it, at every survivor */
    CHECK_ERR(MPI_Recv(&v, 1, MPI_INT, victim, 8, comm, MPI_STATUS_IGNORE), MPIX_ERR_PROC_FAILED);
    /* the failure is known here now: a send to it fails */
    CHECK_ERR(MPI_Send(&rank, 1, MPI_INT, victim, 9, comm), MPIX_ERR_PROC_FAILED);

    /* wildcard receives: pending error until acknowledged */
    MPI_Request any;
    int got = -1;
    CHECK_OK(MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 10, comm, &any));
    CHECK_ERR(MPI_Wait(&any, MPI_STATUS_IGNORE), MPIX_ERR_PROC_FAILED_PENDING);
    CHECK(any != MPI_REQUEST_NULL, "the interrupted request must stay active");
    flag = 1;
    CHECK_ERR(MPI_Test(&any, &flag, MPI_STATUS_IGNORE), MPIX_ERR_PROC_FAILED_PENDING);
    CHECK(!flag, "an interrupted receive is not complete");
    CHECK_ERR(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 11, comm, MPI_STATUS_IGNORE), MPIX_ERR_PROC_FAILED);
    /* probes that can never match */
    MPI_Message msg;
    CHECK_ERR(MPI_Probe(victim, 30, comm, MPI_STATUS_IGNORE), MPIX_ERR_PROC_FAILED);
    CHECK_ERR(MPI_Mprobe(victim, 30, comm, &msg, MPI_STATUS_IGNORE), MPIX_ERR_PROC_FAILED);
    CHECK_ERR(MPI_Iprobe(MPI_ANY_SOURCE, 30, comm, &flag, MPI_STATUS_IGNORE), MPIX_ERR_PROC_FAILED);
    /* the multiple-completion calls: the interrupted one in its status,
     * still active; the other completes */
    MPI_Request two[2];
    int w = -1;
    MPI_Status sts[2];
    CHECK_OK(MPI_Irecv(&w, 1, MPI_INT, MPI_ANY_SOURCE, 20, comm, &two[0]));
    CHECK_OK(MPI_Isend(&rank, 1, MPI_INT, rank, 21, comm, &two[1]));
    int self_v = -1;
    CHECK_OK(MPI_Recv(&self_v, 1, MPI_INT, rank, 21, comm, MPI_STATUS_IGNORE));
    CHECK_ERR(MPI_Waitall(2, two, sts), MPI_ERR_IN_STATUS);
    int ec;
    MPI_Error_class(sts[0].MPI_ERROR, &ec);
    CHECK(ec == MPIX_ERR_PROC_FAILED_PENDING && sts[1].MPI_ERROR == MPI_SUCCESS, "waitall statuses %d %d", ec,
          sts[1].MPI_ERROR);
    CHECK(two[0] != MPI_REQUEST_NULL && two[1] == MPI_REQUEST_NULL, "waitall: which requests stay active");
    int idx = -1;
    CHECK_ERR(MPI_Waitany(2, two, &idx, MPI_STATUS_IGNORE), MPIX_ERR_PROC_FAILED_PENDING);
    CHECK(idx == 0 && two[0] != MPI_REQUEST_NULL, "waitany index %d", idx);
    CHECK_OK(MPI_Cancel(&two[0]));
    CHECK_OK(MPI_Wait(&two[0], &sts[0]));
    int cancelled = 0;
    MPI_Test_cancelled(&sts[0], &cancelled);
    CHECK(cancelled, "the interrupted receive is cancelled");

    MPI_Group failed, acked;
    int n;
    CHECK_OK(MPIX_Comm_failure_get_acked(comm, &acked));
    MPI_Group_size(acked, &n);
    CHECK(n == 0, "nothing acknowledged yet, got %d", n);
    CHECK_OK(MPIX_Comm_failure_ack(comm));
    CHECK_OK(MPIX_Comm_failure_get_acked(comm, &acked));
    CHECK_OK(MPIX_Comm_get_failed(comm, &failed));
    MPI_Group_size(failed, &n);
    CHECK(n == 1, "one failed process, got %d", n);
    MPI_Group world_group;
    MPI_Comm_group(comm, &world_group);
    int zero = 0, wr;
    MPI_Group_translate_ranks(failed, 1, &zero, world_group, &wr);
    CHECK(wr == victim, "the failed process is rank %d, got %d", victim, wr);
    int cmp;
    MPI_Group_compare(failed, acked, &cmp);
    CHECK(cmp == MPI_IDENT, "acked and failed groups differ");
    int nacked = -1;
    CHECK_OK(MPIX_Comm_ack_failed(comm, 5, &nacked));
    CHECK(nacked == 1, "num_acked %d", nacked);
    MPI_Group_free(&failed);
    MPI_Group_free(&acked);
    MPI_Group_free(&world_group);

    /* agreement: the AND of the survivors' flags, acknowledged: success;
     * also, every survivor has posted its wildcard receive by now */
    flag = rank == 1 ? 0x6 : 0x7;
    CHECK_OK(MPIX_Comm_agree(comm, &flag));
    CHECK(flag == 0x6, "agreed flag %#x", flag);

    /* acknowledged: the wildcard receive goes on and gets rank 1's message */
    if (rank == 1)
        CHECK_OK(MPI_Send(&rank, 1, MPI_INT, 0, 10, comm));
    if (rank == 0) {
        MPI_Status st;
        CHECK_OK(MPI_Wait(&any, &st));
        CHECK(got == 1 && st.MPI_SOURCE == 1, "got %d from %d", got, st.MPI_SOURCE);
    } else {
        CHECK_OK(MPI_Cancel(&any));
        CHECK_OK(MPI_Wait(&any, MPI_STATUS_IGNORE));
    }

    /* collectives cannot complete: every survivor hears of it */
    CHECK_ERR(MPI_Barrier(comm), MPIX_ERR_PROC_FAILED);
    int sum = 0, one = 1;
    CHECK_ERR(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, comm), MPIX_ERR_PROC_FAILED);

    MPI_Request ar;
    flag = 1;
    CHECK_OK(MPIX_Comm_iagree(comm, &flag, &ar));
    CHECK_OK(MPI_Wait(&ar, MPI_STATUS_IGNORE));
    CHECK(flag == 1, "iagree flag %d", flag);

    /* shrink: the survivors, in order, and they work */
    MPI_Comm small;
    CHECK_OK(MPIX_Comm_shrink(comm, &small));
    int srank, ssize;
    MPI_Comm_rank(small, &srank);
    MPI_Comm_size(small, &ssize);
    CHECK(ssize == size - 1 && srank == rank, "shrunk to rank %d of %d", srank, ssize);
    MPI_Comm_set_errhandler(small, MPI_ERRORS_RETURN);
    CHECK_OK(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, small));
    CHECK(sum == (size - 1) * (size - 2) / 2, "sum %d", sum);
    /* everyone is done with it (an agreement, which a revocation does not
     * touch: a barrier could be revoked under a slow rank's feet) */
    flag = 1;
    CHECK_OK(MPIX_Comm_agree(small, &flag));

    /* revoke: rank 1 revokes while rank 0 waits for a message that never comes */
    int is = -1;
    if (rank == 1) {
        CHECK_OK(MPIX_Comm_revoke(small));
    } else if (rank == 0) {
        CHECK_ERR(MPI_Recv(&v, 1, MPI_INT, 2, 12, small, MPI_STATUS_IGNORE), MPIX_ERR_REVOKED);
    } else {
        /* the others see it come by themselves */
        while (MPIX_Comm_is_revoked(small, &is) == MPI_SUCCESS && !is) {
            int f;
            MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_SELF, &f, MPI_STATUS_IGNORE);
        }
    }
    CHECK_OK(MPIX_Comm_is_revoked(small, &is));
    CHECK(is, "revoked");
    CHECK_ERR(MPI_Send(&rank, 1, MPI_INT, (srank + 1) % ssize, 13, small), MPIX_ERR_REVOKED);
    CHECK_ERR(MPI_Barrier(small), MPIX_ERR_REVOKED);
    CHECK_ERR(MPI_Probe(MPI_ANY_SOURCE, 31, small, MPI_STATUS_IGNORE), MPIX_ERR_REVOKED);
    /* repair still works on a revoked communicator */
    flag = 1;
    CHECK_OK(MPIX_Comm_agree(small, &flag));
    CHECK(flag == 1, "flag after revoke %d", flag);
    MPI_Comm again;
    MPI_Request sr;
    CHECK_OK(MPIX_Comm_ishrink(small, &again, &sr));
    CHECK_OK(MPI_Wait(&sr, MPI_STATUS_IGNORE));
    MPI_Comm_size(again, &n);
    CHECK(n == size - 1, "shrink of a revoked communicator: %d", n);
    CHECK_OK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, again));
    CHECK(sum == size - 1, "sum %d", sum);
    char s[MPI_MAX_ERROR_STRING];
    MPI_Error_string(MPIX_ERR_REVOKED, s, &n);
    CHECK(strstr(s, "REVOKED") != NULL, "error string %s", s);

    MPI_Comm_free(&again);
    MPI_Comm_free(&small);
    MPI_Comm_free(&comm);
    if (rank == 0)
        printf("ft_pt2pt: ok (%d survivors)\n", size - 1);
    MPI_Finalize();
    return 0;
}
