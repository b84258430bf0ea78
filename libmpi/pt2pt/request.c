/*
 * request.c: allocation, lookup, completion and freeing of requests.
 * Freed requests go to a pool and are reused, so the steady state of a
 * message loop allocates nothing.
 */
#include "runtime/api.h"
#include "pt2pt/request.h"
#include "comm/comm.h"

#include <stdlib.h>
#include <string.h>

static struct tide_request *pool;

void tide_status_empty(MPI_Status *s)
{
    s->MPI_SOURCE = MPI_ANY_SOURCE;
    s->MPI_TAG = MPI_ANY_TAG;
    s->MPI_ERROR = MPI_SUCCESS;
    s->tide_cancelled = 0;
    s->tide_nbytes = 0;
}

struct tide_request *tide_request_new(int kind)
{
    static uint32_t seq;
    struct tide_request *r = pool;
    if (r)
        pool = r->pool_next;
    else if (!(r = malloc(sizeof *r)))
        return NULL;
    memset(r, 0, offsetof(struct tide_request, conv));
    memset(&r->bsend_buf, 0, sizeof *r - offsetof(struct tide_request, bsend_buf));
    r->handle = tide_handle_alloc(TIDE_KIND_REQUEST, r);
    if (r->handle == MPI_REQUEST_NULL) {
        free(r);
        return NULL;
    }
    r->id = ((uint64_t)++seq << 32) | (uint32_t)r->handle;
    r->kind = (uint8_t)kind;
    r->state = TIDE_RS_POSTED;
    r->error = MPI_SUCCESS;
    tide_status_empty(&r->status);
    return r;
}

struct tide_request *tide_request_get(MPI_Request h)
{
    return tide_handle_get(TIDE_KIND_REQUEST, h);
}

struct tide_request *tide_request_by_id(uint64_t id)
{
    struct tide_request *r = tide_handle_get(TIDE_KIND_REQUEST, (int)(uint32_t)id);
    return (r && r->id == id) ? r : NULL;
}

static void request_destroy(struct tide_request *r)
{
    if (r->dt) {
        tide_datatype_release(r->dt);
        r->dt = NULL;
    }
    if (r->comm) {
        tide_comm_release(r->comm);
        r->comm = NULL;
    }
    free(r->riov);
    r->riov = NULL;
    tide_handle_release(r->handle);
    r->id = 0;
    r->pool_next = pool;
    pool = r;
}

void tide_request_complete(struct tide_request *r)
{
    r->state = TIDE_RS_DONE;
    if (r->cancel_pending)
        return; /* completes when the cancel's answer comes */
    r->complete = true;
    if (r->on_complete)
        r->on_complete(r);
    if (r->user_freed)
        request_destroy(r);
}

void tide_request_free(struct tide_request *r)
{
    if (!r->complete) {
        r->user_freed = true;
        return;
    }
    request_destroy(r);
}

void tide_request_status_out(const struct tide_request *r, MPI_Status *status)
{
    if (status == MPI_STATUS_IGNORE || !status)
        return;
    *status = r->status;
    status->MPI_ERROR = r->error;
}

void tide_requests_finalize(void)
{
    while (pool) {
        struct tide_request *r = pool;
        pool = r->pool_next;
        free(r);
    }
}
