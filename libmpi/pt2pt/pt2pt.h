/*
 * pt2pt.h: point-to-point services for the rest of libmpi (collectives,
 * dynamic processes, one-sided): nonblocking sends and receives on any
 * context of a communicator without touching error handlers, waiting,
 * and the argument checks the MPI functions share.
 */
#ifndef TIDE_PT2PT_H
#define TIDE_PT2PT_H

#include <stdint.h>

#include "mpi.h"
#include "comm/comm.h"
#include "pt2pt/request.h"

struct tide_datatype;

/* A request's operation: its arguments, and the references it holds. */
static inline void tide_request_fill(struct tide_request *r, const void *buf, MPI_Count count,
                                     struct tide_datatype *dt, int peer, int tag, struct tide_comm *comm,
                                     uint32_t ctx)
{
    r->buf = (void *)buf;
    r->count = count;
    r->dt = dt;
    r->dtype = dt->handle;
    tide_datatype_retain(dt);
    r->peer = peer;
    r->tag = tag;
    r->comm = comm;
    tide_comm_retain(comm);
    r->ctx = ctx;
}

/* Start an internal send/receive; *out gets the request (freed by
 * tide_wait_free). Return MPI_SUCCESS or an error code. A send's mode
 * (enum tide_send_mode) may carry TIDE_SEND_SEALED: the message holds a
 * secret (a key, a port's token) and is sealed on its way between hosts
 * even when `encrypt` is 0 (TIDE_MSGF_SEALED; transport/tcp.c). */
#define TIDE_SEND_SEALED 0x100
int tide_isend(const void *buf, MPI_Count count, struct tide_datatype *dt, int dest, int tag,
               struct tide_comm *comm, uint32_t ctx, int mode, struct tide_request **out);
int tide_irecv(void *buf, MPI_Count count, struct tide_datatype *dt, int source, int tag,
               struct tide_comm *comm, uint32_t ctx, struct tide_request **out);
/* Send a copy of len bytes to dest on ctx of comm that goes out by
 * itself: nobody waits for it (notices, agreement messages). Nothing is
 * sent when out of memory. */
void tide_send_detached(const void *buf, size_t len, int dest, int tag, struct tide_comm *comm, uint32_t ctx);
/* Wait for r, copy its status, free it; returns its error code. */
int tide_wait_free(struct tide_request *r, MPI_Status *status);
/* Wait for every request (NULL entries skipped), free them; first error. */
int tide_waitall_free(int n, struct tide_request **reqs);
/* Blocking internal send/receive. */
int tide_send_blocking(const void *buf, MPI_Count count, struct tide_datatype *dt, int dest, int tag,
                       struct tide_comm *comm, uint32_t ctx);
/* The same for a message that holds a secret (TIDE_SEND_SEALED). */
int tide_send_blocking_sealed(const void *buf, MPI_Count count, struct tide_datatype *dt, int dest, int tag,
                              struct tide_comm *comm, uint32_t ctx);
int tide_recv_blocking(void *buf, MPI_Count count, struct tide_datatype *dt, int source, int tag,
                       struct tide_comm *comm, uint32_t ctx, MPI_Status *status);
void tide_wait_request(struct tide_request *r);

/* Argument checks shared by the MPI functions (return an error code or
 * MPI_SUCCESS; the message names fn and the argument). */
/* The arguments of a send (recv false) or receive are all valid: a
 * committed datatype, count >= 0, a rank of the (remote) group or a
 * wildcard the direction allows, a tag the direction allows, a buffer
 * where elements are to move. The checks below say what is wrong when
 * this is false; this one only spares the message path their calls. */
static inline bool tide_pt2pt_args_ok(const struct tide_comm *c, const void *buf, MPI_Count count,
                                      const struct tide_datatype *dt, int rank, int tag, bool recv)
{
    int n = c->is_inter ? c->remote_size : c->size;
    return dt && dt->committed && count >= 0 &&
           ((rank >= 0 && rank < n) || rank == MPI_PROC_NULL || (recv && rank == MPI_ANY_SOURCE)) &&
           (tag >= 0 || (recv && tag == MPI_ANY_TAG)) && (buf || count == 0 || !dt->predefined || dt->size == 0);
}

/* An empty message to or from MPI_PROC_NULL may name MPI_DATATYPE_NULL
 * (MPICH accepts it, and programs pass it when nothing moves): such a
 * call goes ahead as if it named MPI_BYTE. Returns dt otherwise. */
struct tide_datatype *tide_pt2pt_null_peer_type(struct tide_datatype *dt, MPI_Datatype h, MPI_Count count,
                                                int rank);

int tide_check_send_rank(struct tide_comm *c, int rank, const char *fn, const char *arg);
int tide_check_recv_rank(struct tide_comm *c, int rank, const char *fn, const char *arg);
int tide_check_send_tag(int tag, const char *fn);
int tide_check_recv_tag(int tag, const char *fn);
int tide_check_buffer(const void *buf, MPI_Count count, struct tide_datatype *dt, const char *fn);

/* MPI_Cancel of an MPI_Isendrecv request: cancels both its parts. */
int tide_sendrecv_cancel(struct tide_request *r);

int tide_pt2pt_init(char *err, size_t errlen);
void tide_pt2pt_quiesce(void);
void tide_pt2pt_finalize(void);

#endif
