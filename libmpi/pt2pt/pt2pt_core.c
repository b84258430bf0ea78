/*
 * pt2pt_core.c: the internal point-to-point services (pt2pt.h): starting
 * and waiting for sends and receives, argument checks, and bringing the
 * layer up and down.
 */
#include "runtime/api.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/match.h"
#include "pt2pt/progress.h"
#include "pt2pt/protocol.h"
#include "comm/comm.h"
#include "ft/ft.h"
#include "datatype/datatype.h"
#include "transport/transport.h"

#include <stdlib.h>
#include <string.h>

static bool req_done(void *arg)
{
    struct tide_request *r = arg;
    return r->complete || r->ft_interrupted;
}

void tide_wait_request(struct tide_request *r)
{
    if (!r->complete)
        tide_progress_until(req_done, r);
    /* a blocking wildcard receive that a failure interrupted ends */
    if (__builtin_expect(!r->complete, 0))
        tide_ft_end_interrupted(r);
}

int tide_isend(const void *buf, MPI_Count count, struct tide_datatype *dt, int dest, int tag,
               struct tide_comm *comm, uint32_t ctx, int mode, struct tide_request **out)
{
    struct tide_request *r = tide_request_new(TIDE_REQ_SEND);
    if (!r)
        return tide_err(MPI_ERR_NO_MEM, "send: out of memory for a request");
    bool sealed = (mode & TIDE_SEND_SEALED) != 0;
    mode &= ~TIDE_SEND_SEALED;
    ctx = tide_comm_send_ctx(comm, dest, ctx);
    if (!sealed && (mode == TIDE_MODE_STANDARD || mode == TIDE_MODE_READY) && dest != MPI_PROC_NULL &&
        tide_isend_eager_now(r, buf, count, dt, dest, tag, comm, ctx, mode)) {
        *out = r;
        return MPI_SUCCESS;
    }
    tide_request_fill(r, buf, count, dt, dest, tag, comm, ctx);
    r->mode = (uint8_t)mode;
    r->sealed = sealed;
    int rc = tide_send_start(r);
    if (rc != MPI_SUCCESS) {
        r->complete = true;
        tide_request_free(r);
        r = NULL;
    }
    *out = r;
    return rc;
}

int tide_irecv(void *buf, MPI_Count count, struct tide_datatype *dt, int source, int tag,
               struct tide_comm *comm, uint32_t ctx, struct tide_request **out)
{
    struct tide_request *r = tide_request_new(TIDE_REQ_RECV);
    if (!r)
        return tide_err(MPI_ERR_NO_MEM, "receive: out of memory for a request");
    tide_request_fill(r, buf, count, dt, source, tag, comm, ctx);
    int rc = tide_recv_start(r);
    if (rc != MPI_SUCCESS) {
        r->complete = true;
        tide_request_free(r);
        r = NULL;
    }
    *out = r;
    return rc;
}

static void detached_sent(struct tide_request *r)
{
    free(r->cb_data);
    r->cb_data = NULL;
}

void tide_send_detached(const void *buf, size_t len, int dest, int tag, struct tide_comm *comm, uint32_t ctx)
{
    void *copy = malloc(len ? len : 1);
    if (!copy)
        return;
    memcpy(copy, buf, len);
    struct tide_request *r;
    if (tide_isend(copy, (MPI_Count)len, tide_datatype_get(MPI_BYTE), dest, tag, comm, ctx, TIDE_MODE_STANDARD, &r) !=
        MPI_SUCCESS) {
        free(copy);
        return;
    }
    if (r->complete) {
        free(copy);
    } else {
        r->cb_data = copy;
        r->on_complete = detached_sent;
    }
    tide_request_free(r);
}

int tide_wait_free(struct tide_request *r, MPI_Status *status)
{
    tide_wait_request(r);
    tide_request_status_out(r, status);
    int err = r->error;
    tide_request_free(r);
    return err;
}

int tide_waitall_free(int n, struct tide_request **reqs)
{
    int err = MPI_SUCCESS;
    for (int i = 0; i < n; i++) {
        if (!reqs[i])
            continue;
        int e = tide_wait_free(reqs[i], MPI_STATUS_IGNORE);
        if (e != MPI_SUCCESS && err == MPI_SUCCESS)
            err = e;
        reqs[i] = NULL;
    }
    return err;
}

int tide_send_blocking(const void *buf, MPI_Count count, struct tide_datatype *dt, int dest, int tag,
                       struct tide_comm *comm, uint32_t ctx)
{
    if (dest == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (tide_send_immediate(buf, count, dt, dest, tag, comm, ctx))
        return MPI_SUCCESS;
    struct tide_request *r;
    int rc = tide_isend(buf, count, dt, dest, tag, comm, ctx, TIDE_MODE_STANDARD, &r);
    return rc != MPI_SUCCESS ? rc : tide_wait_free(r, MPI_STATUS_IGNORE);
}

int tide_send_blocking_sealed(const void *buf, MPI_Count count, struct tide_datatype *dt, int dest, int tag,
                              struct tide_comm *comm, uint32_t ctx)
{
    if (dest == MPI_PROC_NULL)
        return MPI_SUCCESS;
    struct tide_request *r;
    int rc = tide_isend(buf, count, dt, dest, tag, comm, ctx, TIDE_MODE_STANDARD | TIDE_SEND_SEALED, &r);
    return rc != MPI_SUCCESS ? rc : tide_wait_free(r, MPI_STATUS_IGNORE);
}

int tide_recv_blocking(void *buf, MPI_Count count, struct tide_datatype *dt, int source, int tag,
                       struct tide_comm *comm, uint32_t ctx, MPI_Status *status)
{
    int rc = tide_recv_immediate(buf, count, dt, source, tag, ctx, status);
    if (rc >= 0)
        return rc;
    struct tide_request *r;
    rc = tide_irecv(buf, count, dt, source, tag, comm, ctx, &r);
    return rc != MPI_SUCCESS ? rc : tide_wait_free(r, status);
}

/* ---- checks ---- */

int tide_check_send_rank(struct tide_comm *c, int rank, const char *fn, const char *arg)
{
    int n = c->is_inter ? c->remote_size : c->size;
    if (rank == MPI_PROC_NULL || (rank >= 0 && rank < n))
        return MPI_SUCCESS;
    return tide_err(MPI_ERR_RANK, "%s: invalid rank %d (argument %s; the %s group has %d ranks)", fn, rank,
                    arg, c->is_inter ? "remote" : "communicator's", n);
}

struct tide_datatype *tide_pt2pt_null_peer_type(struct tide_datatype *dt, MPI_Datatype h, MPI_Count count,
                                                int rank)
{
    if (!dt && h == MPI_DATATYPE_NULL && count == 0 && rank == MPI_PROC_NULL)
        return tide_datatype_get(MPI_BYTE);
    return dt;
}

int tide_check_recv_rank(struct tide_comm *c, int rank, const char *fn, const char *arg)
{
    if (rank == MPI_ANY_SOURCE)
        return MPI_SUCCESS;
    return tide_check_send_rank(c, rank, fn, arg);
}

int tide_check_send_tag(int tag, const char *fn)
{
    if (tag >= 0)
        return MPI_SUCCESS;
    return tide_err(MPI_ERR_TAG, "%s: invalid tag %d (argument tag; tags are 0 to MPI_TAG_UB)", fn, tag);
}

int tide_check_recv_tag(int tag, const char *fn)
{
    if (tag >= 0 || tag == MPI_ANY_TAG)
        return MPI_SUCCESS;
    return tide_err(MPI_ERR_TAG, "%s: invalid tag %d (argument tag; tags are MPI_ANY_TAG or 0 to MPI_TAG_UB)",
                    fn, tag);
}

int tide_check_buffer(const void *buf, MPI_Count count, struct tide_datatype *dt, const char *fn)
{
    if (!buf && count > 0 && dt->predefined && dt->size > 0)
        return tide_err(MPI_ERR_BUFFER, "%s: NULL buffer for %lld elements of %s (argument buf)", fn, count,
                        dt->name);
    return MPI_SUCCESS;
}

/* ---- start and stop ---- */

int tide_pt2pt_init(char *err, size_t errlen)
{
    if (tide_transports_init(err, errlen) != 0)
        return -1;
    tide_protocol_init();
    tide_progress_init();
    return 0;
}

static bool nothing_pending(void *arg)
{
    (void)arg;
    return !tide_protocol_has_pending() && !tide_transports_output_pending();
}

void tide_pt2pt_quiesce(void)
{
    tide_progress_until(nothing_pending, NULL);
}

void tide_pt2pt_finalize(void)
{
    tide_transports_finalize();
    tide_protocol_finalize();
    tide_progress_finalize();
    tide_matchq_finalize();
    tide_requests_finalize();
}
