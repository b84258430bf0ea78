/*
 * greq.h: generalized requests (MPI_Grequest_start), completed by the
 * user's code and finished through the user's query and free functions.
 */
#ifndef TIDE_GREQ_H
#define TIDE_GREQ_H

#include "mpi.h"

struct tide_request;

/* Fill the status through query_fn, then call free_fn. Returns the error
 * query_fn returned (or free_fn's). */
int tide_greq_finish(struct tide_request *r, MPI_Status *status);
/* Only the status (MPI_Request_get_status). */
void tide_greq_status(struct tide_request *r, MPI_Status *status);

#endif
