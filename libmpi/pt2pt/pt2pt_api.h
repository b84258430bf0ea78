/*
 * pt2pt_api.h: the bodies of the point-to-point MPI functions, with
 * MPI_Count counts, shared by the int forms (send.c, recv.c, sendrecv.c,
 * isendrecv.c, persistent.c, probe.c) and the MPI-4.0 large-count forms
 * (pt2pt_large.c). Each checks its arguments, raises errors on the
 * communicator (fn names the MPI function) and returns the code.
 */
#ifndef TIDE_PT2PT_API_H
#define TIDE_PT2PT_API_H

#include "mpi.h"

/* Blocking and nonblocking sends of the given mode (enum tide_send_mode). */
int tide_send_api(const char *fn, const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, int mode);
int tide_isend_api(const char *fn, const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, int mode, MPI_Request *request);
int tide_recv_api(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                  MPI_Comm comm, MPI_Status *status);
int tide_irecv_api(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                   MPI_Comm comm, MPI_Request *request);
int tide_sendrecv_api(const char *fn, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                      int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source,
                      int recvtag, MPI_Comm comm, MPI_Status *status);
int tide_sendrecv_replace_api(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                              int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status);
int tide_isendrecv_api(const char *fn, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                       int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source,
                       int recvtag, MPI_Comm comm, MPI_Request *request);
int tide_isendrecv_replace_api(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                               int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Request *request);
/* Persistent send (kind TIDE_REQ_SEND, with its mode) or receive
 * (TIDE_REQ_RECV) requests. */
int tide_pt2pt_init_api(const char *fn, int kind, int mode, const void *buf, MPI_Count count,
                        MPI_Datatype datatype, int peer, int tag, MPI_Comm comm, MPI_Request *request);
int tide_mrecv_api(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                   MPI_Status *status);
int tide_imrecv_api(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                    MPI_Request *request);

#endif
