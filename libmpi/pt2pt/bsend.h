/*
 * bsend.h: buffered-mode sends through the buffer the user attached.
 */
#ifndef TIDE_BSEND_H
#define TIDE_BSEND_H

#include <stddef.h>

struct tide_comm;
struct tide_datatype;
struct tide_request;

/* Copy the message into the attached buffer and send it from there. *out
 * is an already-complete request for the caller, through which the send
 * can still be cancelled. */
int tide_bsend_start(const void *buf, int count, struct tide_datatype *dt, int dest, int tag,
                     struct tide_comm *comm, struct tide_request **out, const char *fn);
/* The same for a persistent buffered-mode request r being started (the
 * caller completes r). */
int tide_bsend_restart(struct tide_request *r, const char *fn);
/* MPI_Cancel of a buffered-mode request: cancels the send of its copy if
 * the receiver has not matched it yet. */
int tide_bsend_cancel(struct tide_request *u);
/* Buffered messages not yet delivered. */
size_t tide_bsend_pending(void);

#endif
