/*
 * greq.c: generalized requests (MPI_Grequest_start, MPI_Grequest_complete)
 * and MPI_Status_set_cancelled.
 */
#include "runtime/api.h"
#include "pt2pt/greq.h"
#include "pt2pt/request.h"

int PMPI_Grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                        MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request)
{
    TIDE_API_ENTER();
    if (!request || !query_fn || !free_fn || !cancel_fn)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Grequest_start: the functions and request must not be NULL");
    struct tide_request *r = tide_request_new(TIDE_REQ_GREQ);
    if (!r)
        return TIDE_ERR(MPI_ERR_NO_MEM, "MPI_Grequest_start: out of memory");
    r->greq_query = query_fn;
    r->greq_free = free_fn;
    r->greq_cancel = cancel_fn;
    r->greq_state = extra_state;
    *request = r->handle;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Grequest_start)

int PMPI_Grequest_complete(MPI_Request request)
{
    TIDE_API_ENTER();
    struct tide_request *r = tide_request_get(request);
    if (!r || r->kind != TIDE_REQ_GREQ)
        return TIDE_ERR(MPI_ERR_REQUEST, "MPI_Grequest_complete: not a generalized request (argument request)");
    if (r->complete)
        return TIDE_ERR(MPI_ERR_REQUEST, "MPI_Grequest_complete: the request is already complete");
    if (r->greq_freed) /* freed by the user already: free_fn runs now */
        r->greq_free(r->greq_state);
    tide_request_complete(r);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Grequest_complete)

void tide_greq_status(struct tide_request *r, MPI_Status *status)
{
    MPI_Status st;
    tide_status_empty(&st);
    r->greq_query(r->greq_state, &st);
    if (status != MPI_STATUS_IGNORE && status) {
        int error = status->MPI_ERROR;
        *status = st;
        status->MPI_ERROR = error;
    }
}

int tide_greq_finish(struct tide_request *r, MPI_Status *status)
{
    MPI_Status st;
    tide_status_empty(&st);
    int err = r->greq_query(r->greq_state, &st);
    if (status != MPI_STATUS_IGNORE && status) {
        int error = status->MPI_ERROR;
        *status = st;
        status->MPI_ERROR = error;
    }
    int ferr = r->greq_free(r->greq_state);
    return err != MPI_SUCCESS ? err : ferr;
}

int PMPI_Status_set_cancelled(MPI_Status *status, int flag)
{
    TIDE_API_ENTER();
    if (!status || status == MPI_STATUS_IGNORE)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Status_set_cancelled: invalid status (argument status)");
    status->tide_cancelled = flag != 0;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Status_set_cancelled)
