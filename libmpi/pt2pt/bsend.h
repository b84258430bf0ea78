/*
 * bsend.h: buffered-mode sends through the buffer the user attached.
 */
#ifndef TIDE_BSEND_H
#define TIDE_BSEND_H

#include <stddef.h>

#include "mpi.h"

struct tide_comm;
struct tide_datatype;
struct tide_request;

/* Copy the message into the attached buffer and send it from there. *out
 * is an already-complete request for the caller, through which the send
 * can still be cancelled. */
int tide_bsend_start(const void *buf, MPI_Count count, struct tide_datatype *dt, int dest, int tag,
                     struct tide_comm *comm, struct tide_request **out, const char *fn);
/* The same for a persistent buffered-mode request r being started (the
 * caller completes r). */
int tide_bsend_restart(struct tide_request *r, const char *fn);
/* MPI_Cancel of a buffered-mode request: cancels the send of its copy if
 * the receiver has not matched it yet. */
int tide_bsend_cancel(struct tide_request *u);
/* MPI_Buffer_attach/detach of both forms (fn names the caller; errors
 * are raised). */
int tide_buffer_attach(const char *fn, void *buffer, MPI_Count size);
int tide_buffer_detach(const char *fn, void *buffer_addr, MPI_Count *size);
/* Buffered messages not yet delivered. */
size_t tide_bsend_pending(void);

#endif
