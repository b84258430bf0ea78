/*
 * lean.h: the short path of the message calls when the library runs
 * without its lock (below MPI_THREAD_MULTIPLE, no one-sided progress
 * thread): small contiguous eager messages over a transport that writes
 * them in place (shared memory), posted receives, and the completion of
 * plain requests, each done in one pass with the arguments checked as the
 * ordinary path checks them. Each function does the whole MPI call and
 * returns its code: what the short path does not take (an error to
 * report, another case) goes to the call's ordinary path, tide_*_full
 * (without a frame of the short path's in between, as a tail call).
 */
#ifndef TIDE_LEAN_H
#define TIDE_LEAN_H

#include <stdbool.h>

#include "mpi.h"

/* Is the short path on (the runtime is up, no library lock in use, not
 * turned off with lean_path=0)? */
extern bool tide_lean_on;
/* Set tide_lean_on from the thread level and lean_path (runtime start,
 * one-sided progress thread start, runtime end). */
void tide_lean_update(bool runtime_up);

int tide_lean_send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int tide_lean_isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                    MPI_Request *request);
int tide_lean_recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                   MPI_Status *status);
int tide_lean_irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                    MPI_Request *request);
int tide_lean_sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                       void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                       MPI_Status *status);
int tide_lean_wait(MPI_Request *request, MPI_Status *status);
int tide_lean_waitall(int count, MPI_Request reqs[], MPI_Status statuses[]);

/* The calls' ordinary paths (send.c, recv.c, wait.c). */
int tide_send_full(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int tide_isend_full(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                    MPI_Request *request);
int tide_recv_full(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                   MPI_Status *status);
int tide_irecv_full(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                    MPI_Request *request);
int tide_sendrecv_full(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                       void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                       MPI_Status *status);
int tide_wait_full(MPI_Request *request, MPI_Status *status);
int tide_waitall_full(int count, MPI_Request reqs[], MPI_Status statuses[]);

#endif
