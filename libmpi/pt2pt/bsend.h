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
 * is an already-complete request for the caller. */
int tide_bsend_start(const void *buf, int count, struct tide_datatype *dt, int dest, int tag,
                     struct tide_comm *comm, struct tide_request **out, const char *fn);
/* Buffered messages not yet delivered. */
size_t tide_bsend_pending(void);

#endif
