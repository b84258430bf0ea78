/*
 * probe.c: MPI_Probe and MPI_Iprobe (look at the first matching message
 * without receiving it) and the matched probe of MPI-3: MPI_Mprobe and
 * MPI_Improbe take the message out of the matching queue, so that only
 * MPI_Mrecv/MPI_Imrecv on the returned handle can receive it (which makes
 * probe-then-receive safe with several threads).
 */
#include "runtime/api.h"
#include "pt2pt/fastpath.h"
#include "pt2pt/match.h"
#include "ft/ft.h"
#include "comm/comm_fault.h"
#include "pt2pt/progress.h"
#include "pt2pt/protocol.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/pt2pt_api.h"
#include "comm/comm.h"
#include "datatype/datatype.h"

#include <stdlib.h>

struct tide_message {
    int handle;
    struct tide_unexpected *u;
    struct tide_comm *comm;
};

static void status_of(const struct tide_unexpected *u, MPI_Status *status)
{
    if (status == MPI_STATUS_IGNORE || !status)
        return;
    status->MPI_SOURCE = u->src;
    status->MPI_TAG = u->tag;
    status->tide_cancelled = 0;
    status->tide_nbytes = (MPI_Count)u->len;
}

static void status_proc_null(MPI_Status *status)
{
    if (status == MPI_STATUS_IGNORE || !status)
        return;
    status->MPI_SOURCE = MPI_PROC_NULL;
    status->MPI_TAG = MPI_ANY_TAG;
    status->tide_cancelled = 0;
    status->tide_nbytes = 0;
}

static int check_probe(const char *fn, int source, int tag, MPI_Comm comm, struct tide_comm **cp)
{
    struct tide_comm *c = tide_comm_get(comm);
    *cp = c;
    if (!c)
        return tide_err(MPI_ERR_COMM, "%s: invalid communicator (argument comm)", fn);
    int rc;
    if ((rc = tide_check_recv_rank(c, source, fn, "source")) || (rc = tide_check_recv_tag(tag, fn)))
        return rc;
    return MPI_SUCCESS;
}

static struct tide_unexpected *find(struct tide_comm *c, int source, int tag, bool take)
{
    struct tide_matchq *q = tide_matchq_find(c->context_id);
    return q ? tide_match_find_unexpected(q, source, tag, take) : NULL;
}

struct probe_wait {
    struct tide_comm *c;
    int source, tag;
    struct tide_unexpected *u;
    bool failed; /* it can never match (ft/ft.h) */
};

/* The waiting loop's question: it only looks (the loop may ask again
 * after the answer was yes). MPI_Mprobe takes the message after the wait,
 * with the lock still held since the look, so no other thread can have
 * matched it in between. */
static bool probe_found(void *arg)
{
    struct probe_wait *w = arg;
    w->u = find(w->c, w->source, w->tag, false);
    if (!w->u && __builtin_expect(tide_comm_faults != 0, 0))
        w->failed = tide_ft_probe_fails(w->c, w->source);
    return w->u != NULL || w->failed;
}

/* A probe that found nothing: the error if it never can (ft/ft.h). */
static int probe_fault(struct tide_comm *c, int source, const char *fn)
{
    if (__builtin_expect(tide_comm_faults == 0, 1) || !tide_ft_probe_fails(c, source))
        return MPI_SUCCESS;
    return tide_raise_comm(c, tide_ft_probe_error(c, source, fn));
}

int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    if (__builtin_expect(tide_fastpath_on, 0) && tide_fast_iprobe(source, tag, comm, flag, status))
        return MPI_SUCCESS;
    TIDE_API_ENTER();
    struct tide_comm *c;
    int rc = check_probe("MPI_Iprobe", source, tag, comm, &c);
    if (rc)
        return tide_raise_comm(c, rc);
    if (!flag)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "MPI_Iprobe: flag must not be NULL");
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        status_proc_null(status);
        return MPI_SUCCESS;
    }
    struct tide_unexpected *u = find(c, source, tag, false);
    if (!u) {
        tide_progress();
        u = find(c, source, tag, false);
    }
    *flag = u != NULL;
    if (u)
        status_of(u, status);
    return u ? MPI_SUCCESS : probe_fault(c, source, "MPI_Iprobe");
}
TIDE_ALIAS(MPI_Iprobe)

int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    if (__builtin_expect(tide_fastpath_on, 0) && tide_fast_probe(source, tag, comm, status))
        return MPI_SUCCESS;
    TIDE_API_ENTER();
    struct tide_comm *c;
    int rc = check_probe("MPI_Probe", source, tag, comm, &c);
    if (rc)
        return tide_raise_comm(c, rc);
    if (source == MPI_PROC_NULL) {
        status_proc_null(status);
        return MPI_SUCCESS;
    }
    struct probe_wait w = {c, source, tag, NULL, false};
    tide_progress_until(probe_found, &w);
    if (!w.u)
        return probe_fault(c, source, "MPI_Probe");
    status_of(w.u, status);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Probe)

static int make_message(struct tide_comm *c, struct tide_unexpected *u, MPI_Message *message)
{
    struct tide_message *m = malloc(sizeof *m);
    if (!m)
        return tide_err(MPI_ERR_NO_MEM, "matched probe: out of memory");
    m->u = u;
    m->comm = c;
    tide_comm_retain(c);
    m->handle = tide_handle_alloc(TIDE_KIND_MESSAGE, m);
    *message = m->handle;
    return MPI_SUCCESS;
}

int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status)
{
    /* nothing there: answered without the exclusive lock; a message is
     * taken under it */
    if (__builtin_expect(tide_fastpath_on, 0) && message && tide_fast_iprobe(source, tag, comm, flag, NULL) &&
        !*flag) {
        *message = MPI_MESSAGE_NULL;
        return MPI_SUCCESS;
    }
    TIDE_API_ENTER();
    struct tide_comm *c;
    int rc = check_probe("MPI_Improbe", source, tag, comm, &c);
    if (rc)
        return tide_raise_comm(c, rc);
    if (!flag || !message)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "MPI_Improbe: flag and message must not be NULL");
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        *message = MPI_MESSAGE_NO_PROC;
        status_proc_null(status);
        return MPI_SUCCESS;
    }
    struct tide_unexpected *u = find(c, source, tag, true);
    if (!u) {
        tide_progress();
        u = find(c, source, tag, true);
    }
    *flag = u != NULL;
    if (!u) {
        *message = MPI_MESSAGE_NULL; /* (undefined by the standard; as other implementations leave it) */
        return probe_fault(c, source, "MPI_Improbe");
    }
    status_of(u, status);
    rc = make_message(c, u, message);
    return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Improbe)

int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    /* wait without the exclusive lock until a match is there */
    if (__builtin_expect(tide_fastpath_on, 0) && message)
        tide_fast_probe(source, tag, comm, NULL);
    TIDE_API_ENTER();
    struct tide_comm *c;
    int rc = check_probe("MPI_Mprobe", source, tag, comm, &c);
    if (rc)
        return tide_raise_comm(c, rc);
    if (!message)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "MPI_Mprobe: message must not be NULL");
    if (source == MPI_PROC_NULL) {
        *message = MPI_MESSAGE_NO_PROC;
        status_proc_null(status);
        return MPI_SUCCESS;
    }
    struct probe_wait w = {c, source, tag, NULL, false};
    tide_progress_until(probe_found, &w);
    if (!w.u)
        return probe_fault(c, source, "MPI_Mprobe");
    tide_match_remove(tide_matchq_find(c->context_id), w.u);
    status_of(w.u, status);
    rc = make_message(c, w.u, message);
    return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Mprobe)

/* Start receiving a matched message; the message handle becomes null. */
static int mrecv_start(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                       struct tide_request **out)
{
    if (!message)
        return tide_err(MPI_ERR_ARG, "%s: message must not be NULL", fn);
    struct tide_datatype *dt = tide_datatype_get(datatype);
    int rc = tide_datatype_check(dt, datatype, count, fn, "datatype");
    if (rc)
        return rc;
    struct tide_request *r = tide_request_new(TIDE_REQ_RECV);
    if (!r)
        return tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    r->buf = buf;
    r->count = count;
    r->dt = dt;
    r->dtype = datatype;
    tide_datatype_retain(dt);
    if (*message == MPI_MESSAGE_NO_PROC) {
        r->peer = MPI_PROC_NULL;
        tide_recv_start(r);
        *out = r;
        *message = MPI_MESSAGE_NULL;
        return MPI_SUCCESS;
    }
    struct tide_message *m = tide_handle_get(TIDE_KIND_MESSAGE, *message);
    if (!m) {
        r->complete = true;
        tide_request_free(r);
        return tide_err(MPI_ERR_REQUEST, "%s: invalid message handle (argument message)", fn);
    }
    r->comm = m->comm; /* takes over the message's reference */
    r->ctx = m->comm->context_id;
    r->peer = m->u->src;
    r->tag = m->u->tag;
    r->bytes = (size_t)count * dt->size;
    tide_conv_init(&r->conv, dt, (size_t)count, buf);
    tide_recv_unexpected(r, m->u);
    tide_handle_release(m->handle);
    free(m);
    *message = MPI_MESSAGE_NULL;
    *out = r;
    return MPI_SUCCESS;
}

int tide_mrecv_api(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                   MPI_Status *status)
{
    struct tide_request *r;
    int rc = mrecv_start(fn, buf, count, datatype, message, &r);
    if (rc)
        return tide_raise(rc);
    struct tide_comm *c = r->comm;
    if (c)
        tide_comm_retain(c);
    rc = tide_wait_free(r, status);
    if (rc)
        tide_raise_comm(c, rc);
    if (c)
        tide_comm_release(c);
    return rc;
}

int PMPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status)
{
    TIDE_API_ENTER();
    return tide_mrecv_api("MPI_Mrecv", buf, count, datatype, message, status);
}
TIDE_ALIAS(MPI_Mrecv)

int tide_imrecv_api(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                    MPI_Request *request)
{
    if (!request)
        return TIDE_ERR(MPI_ERR_ARG, "%s: request must not be NULL", fn);
    struct tide_request *r;
    int rc = mrecv_start(fn, buf, count, datatype, message, &r);
    if (rc)
        return tide_raise(rc);
    *request = r->handle;
    return MPI_SUCCESS;
}

int PMPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_imrecv_api("MPI_Imrecv", buf, count, datatype, message, request);
}
TIDE_ALIAS(MPI_Imrecv)
