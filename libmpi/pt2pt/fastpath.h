/*
 * fastpath.h: MPI_THREAD_MULTIPLE's message fast path (fastpath.c),
 * tried by the MPI calls named before they take the library lock
 * exclusively. Each returns true when it did the whole call (a call that
 * returns a code gives it in *rc), false when it did nothing and the
 * ordinary path must.
 */
#ifndef TIDE_FASTPATH_H
#define TIDE_FASTPATH_H

#include <stdbool.h>

#include "mpi.h"
#include "runtime/lock.h"

bool tide_fast_send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
bool tide_fast_isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                     MPI_Request *request);
bool tide_fast_recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                    MPI_Status *status, int *rc);
bool tide_fast_irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                     MPI_Request *request);
bool tide_fast_wait(MPI_Request *request, MPI_Status *status);
bool tide_fast_test(MPI_Request *request, int *flag, MPI_Status *status);
bool tide_fast_waitall(int count, MPI_Request requests[], MPI_Status statuses[]);
bool tide_fast_testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[]);
bool tide_fast_waitany(int count, MPI_Request requests[], int *index, MPI_Status *status);
bool tide_fast_testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status);
bool tide_fast_iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status);
/* MPI_Probe; also the wait of MPI_Mprobe (which then takes the message
 * under the exclusive lock, waiting again if another thread took it) */
bool tide_fast_probe(int source, int tag, MPI_Comm comm, MPI_Status *status);

/* Is the fast path on (MPI_THREAD_MULTIPLE, not turned off)? */
extern bool tide_fastpath_on;

#endif
