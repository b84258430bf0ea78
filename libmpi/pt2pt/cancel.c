/*
 * cancel.c: MPI_Cancel and MPI_Test_cancelled. A receive is cancelled if
 * it has not been matched; a send if the receiver has not matched it yet
 * (the receiver is asked to drop it from its unexpected queue). Either way
 * the request must still be completed with MPI_Wait/MPI_Test.
 */
#include "runtime/api.h"
#include "pt2pt/protocol.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/request.h"

int PMPI_Cancel(MPI_Request *request)
{
    TIDE_API_ENTER();
    if (!request)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Cancel: request must not be NULL");
    struct tide_request *r = tide_request_get(*request);
    if (!r)
        return TIDE_ERR(MPI_ERR_REQUEST, "MPI_Cancel: invalid request (argument request)");
    if (r->kind == TIDE_REQ_GREQ) {
        int rc = r->greq_cancel(r->greq_state, r->complete);
        return rc == MPI_SUCCESS ? MPI_SUCCESS : tide_raise(rc);
    }
    if (r->persistent && r->state == TIDE_RS_INACTIVE)
        return TIDE_ERR(MPI_ERR_REQUEST, "MPI_Cancel: the persistent request is not active");
    if (r->kind == TIDE_REQ_SENDRECV) {
        int rc = tide_sendrecv_cancel(r);
        return rc == MPI_SUCCESS ? MPI_SUCCESS : tide_raise_comm(r->comm, rc);
    }
    if (r->kind != TIDE_REQ_SEND && r->kind != TIDE_REQ_RECV)
        return MPI_SUCCESS; /* collectives cannot be cancelled: no effect */
    return tide_request_cancel(r);
}
TIDE_ALIAS(MPI_Cancel)

int PMPI_Test_cancelled(const MPI_Status *status, int *flag)
{
    TIDE_API_ENTER();
    if (!status || status == MPI_STATUS_IGNORE || !flag)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Test_cancelled: status and flag must be valid");
    *flag = status->tide_cancelled != 0;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Test_cancelled)
