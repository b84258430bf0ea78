/*
 * mpi-ext.h: Tide's extensions to the MPI interface.
 *
 * User-Level Failure Mitigation (ULFM): with mpiexec --enable-recovery a
 * process's death does not end the job; operations that involve a
 * failed process return MPIX_ERR_PROC_FAILED, and these calls let the
 * survivors go on (docs/FAULTS.md). The names and semantics are those
 * of the ULFM proposal as Open MPI 5 ships them, so codes written for it
 * build unchanged.
 *
 * MPI Endpoints: MPIX_Comm_create_endpoints gives a process several
 * ranks of one communicator, one per thread (docs/ENDPOINTS.md).
 */
#ifndef TIDE_MPI_EXT_H
#define TIDE_MPI_EXT_H

#include <mpi.h>

#if defined(__cplusplus)
extern "C" {
#endif

/* The extensions this header provides (tests in application codes). */
#define TIDE_HAVE_MPI_EXT_FTMPI 1
#define OMPI_HAVE_MPI_EXT_FTMPI 1
/* The predefined attribute of MPI_COMM_WORLD saying whether failures are
 * tolerated, as in Open MPI 5: MPI_Comm_get_attr(MPI_COMM_WORLD, MPIX_FT,
 * &val, &flag) sets flag, and *val is 1 in recovery mode (mpiexec
 * --enable-recovery), 0 otherwise. Nonzero in #if (without a cast), so a
 * test written for the old macro, #if MPIX_FT, still holds. */
#define MPIX_FT ((TIDE_KIND_KEYVAL << 26) | 13)
#define TIDE_HAVE_MPI_EXT_ENDPOINTS 1
#define MPIX_ENDPOINTS 1

/* Error classes (also returned by MPI_Error_class, named by
 * MPI_Error_string). */
#define MPIX_ERR_PROC_FAILED 59
#define MPIX_ERR_PROC_FAILED_PENDING 61
#define MPIX_ERR_REVOKED 62
/* The names of the fault-tolerance chapter proposed for MPI 5 */
#ifndef MPI_ERR_PROC_FAILED
#define MPI_ERR_PROC_FAILED MPIX_ERR_PROC_FAILED
#define MPI_ERR_PROC_FAILED_PENDING MPIX_ERR_PROC_FAILED_PENDING
#define MPI_ERR_REVOKED MPIX_ERR_REVOKED
#endif

#pragma GCC visibility push(default)

/* Revoke: every pending and later operation on comm, at every process of
 * it, ends with MPIX_ERR_REVOKED (but for these calls). Local; the
 * others learn of it by themselves. */
int MPIX_Comm_revoke(MPI_Comm comm);
int MPIX_Comm_is_revoked(MPI_Comm comm, int *flag);
/* A new communicator of the survivors of comm (collective over them). */
int MPIX_Comm_shrink(MPI_Comm comm, MPI_Comm *newcomm);
int MPIX_Comm_ishrink(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request);
/* Fault-tolerant agreement: *flag becomes the bitwise AND of the flags of
 * every surviving process, the same at all of them, even when processes
 * fail during the call and on a revoked communicator. */
int MPIX_Comm_agree(MPI_Comm comm, int *flag);
int MPIX_Comm_iagree(MPI_Comm comm, int *flag, MPI_Request *request);
/* Acknowledge the failures notified so far (wildcard receives go on). */
int MPIX_Comm_failure_ack(MPI_Comm comm);
int MPIX_Comm_failure_get_acked(MPI_Comm comm, MPI_Group *failedgrp);
/* The newer forms: the group of failed processes in the order they were
 * noticed, and acknowledging its first num_to_ack. */
int MPIX_Comm_get_failed(MPI_Comm comm, MPI_Group *failedgrp);
int MPIX_Comm_ack_failed(MPI_Comm comm, int num_to_ack, int *num_acked);

int PMPIX_Comm_revoke(MPI_Comm comm);
int PMPIX_Comm_is_revoked(MPI_Comm comm, int *flag);
int PMPIX_Comm_shrink(MPI_Comm comm, MPI_Comm *newcomm);
int PMPIX_Comm_ishrink(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request);
int PMPIX_Comm_agree(MPI_Comm comm, int *flag);
int PMPIX_Comm_iagree(MPI_Comm comm, int *flag, MPI_Request *request);
int PMPIX_Comm_failure_ack(MPI_Comm comm);
int PMPIX_Comm_failure_get_acked(MPI_Comm comm, MPI_Group *failedgrp);
int PMPIX_Comm_get_failed(MPI_Comm comm, MPI_Group *failedgrp);
int PMPIX_Comm_ack_failed(MPI_Comm comm, int num_to_ack, int *num_acked);

/* MPI Endpoints (docs/ENDPOINTS.md): collective over parent_comm, an
 * intracommunicator. Makes one communicator whose size is the sum of
 * every process's my_num_ep and gives this process my_num_ep handles of
 * it: handle i is rank (sum of my_num_ep of the lower parent ranks) + i.
 * Each handle behaves as a separate process, to be used by one thread at
 * a time; collectives are called once per handle. my_num_ep > 1 needs
 * MPI_THREAD_MULTIPLE. */
int MPIX_Comm_create_endpoints(MPI_Comm parent_comm, int my_num_ep, MPI_Info info, MPI_Comm out_comm_hdls[]);
int PMPIX_Comm_create_endpoints(MPI_Comm parent_comm, int my_num_ep, MPI_Info info, MPI_Comm out_comm_hdls[]);

#pragma GCC visibility pop

#if defined(__cplusplus)
}
#endif

#endif
