/*
 * wait.c: completion: MPI_Wait, MPI_Test, their any/all/some forms,
 * MPI_Request_get_status and MPI_Request_free. A null handle or an
 * inactive persistent request counts as complete with an empty status.
 * The multiple-completion calls report a failed request with
 * MPI_ERR_IN_STATUS and each status's MPI_ERROR, after calling the error
 * handler with the first failed request's own error (as Open MPI does:
 * a ULFM handler sees MPIX_ERR_PROC_FAILED). No other call writes a
 * status's MPI_ERROR (but for the empty status, which has MPI_SUCCESS):
 * the standard leaves it to those calls, and only when they return
 * MPI_ERR_IN_STATUS.
 */
#include "runtime/api.h"
#include "pt2pt/fastpath.h"
#include "pt2pt/lean.h"
#include "pt2pt/greq.h"
#include "pt2pt/progress.h"
#include "pt2pt/pt2pt.h"
#include "comm/comm.h"
#include "ft/ft.h"

#include <stdio.h>
#include <stdlib.h>

static struct tide_request *lookup(MPI_Request h)
{
    return h == MPI_REQUEST_NULL ? NULL : tide_request_get(h);
}

static bool inactive(const struct tide_request *r)
{
    return !r || (r->persistent && r->state == TIDE_RS_INACTIVE);
}

/* Completion of a finished request: status out, free or deactivate. */
static int finish(MPI_Request *h, struct tide_request *r, MPI_Status *status)
{
    int err;
    if (r->kind == TIDE_REQ_GREQ) {
        err = tide_greq_finish(r, status);
    } else {
        tide_request_status_out(r, status);
        err = r->error;
    }
    if (r->persistent) {
        r->state = TIDE_RS_INACTIVE;
    } else {
        tide_request_free(r);
        *h = MPI_REQUEST_NULL;
    }
    return err;
}

static struct tide_comm *err_comm(struct tide_request *r)
{
    return r && r->comm ? r->comm : NULL;
}

static int bad_request(const char *fn, int index)
{
    if (index < 0)
        return TIDE_ERR(MPI_ERR_REQUEST, "%s: invalid request (argument request)", fn);
    return TIDE_ERR(MPI_ERR_REQUEST, "%s: invalid request at index %d (argument array_of_requests)", fn,
                    index);
}

static bool one_done(void *arg)
{
    struct tide_request *r = arg;
    return r->complete || r->ft_interrupted;
}

/* A wildcard receive interrupted by a failure: the error, raised on its
 * communicator; the request stays active (ft/ft.h). */
static int interrupted(struct tide_request *r)
{
    return tide_raise_comm(r->comm, tide_ft_pending_error(r));
}

int PMPI_Wait(MPI_Request *request, MPI_Status *status)
{
    if (__builtin_expect(tide_lean_on, 1))
        return tide_lean_wait(request, status);
    return tide_wait_full(request, status);
}
TIDE_ALIAS(MPI_Wait)

int tide_wait_full(MPI_Request *request, MPI_Status *status)
{
    if (__builtin_expect(tide_fastpath_on, 0) && tide_fast_wait(request, status))
        return MPI_SUCCESS;
    TIDE_API_ENTER();
    if (!request)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Wait: request must not be NULL");
    struct tide_request *r = lookup(*request);
    if (*request != MPI_REQUEST_NULL && !r)
        return bad_request("MPI_Wait", -1);
    if (inactive(r)) {
        if (status != MPI_STATUS_IGNORE)
            tide_status_empty(status);
        return MPI_SUCCESS;
    }
    if (!r->complete)
        tide_progress_until(one_done, r);
    if (!r->complete)
        return interrupted(r);
    struct tide_comm *c = err_comm(r);
    if (c)
        tide_comm_retain(c);
    int err = finish(request, r, status);
    if (err != MPI_SUCCESS)
        tide_raise_comm(c, err);
    if (c)
        tide_comm_release(c);
    return err;
}

int PMPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    if (__builtin_expect(tide_fastpath_on, 0) && tide_fast_test(request, flag, status))
        return MPI_SUCCESS;
    TIDE_API_ENTER();
    if (!request || !flag)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Test: request and flag must not be NULL");
    struct tide_request *r = lookup(*request);
    if (*request != MPI_REQUEST_NULL && !r)
        return bad_request("MPI_Test", -1);
    if (inactive(r)) {
        *flag = 1;
        if (status != MPI_STATUS_IGNORE)
            tide_status_empty(status);
        return MPI_SUCCESS;
    }
    if (!r->complete)
        tide_progress();
    if (!r->complete) {
        *flag = 0;
        return r->ft_interrupted ? interrupted(r) : MPI_SUCCESS;
    }
    *flag = 1;
    struct tide_comm *c = err_comm(r);
    if (c)
        tide_comm_retain(c);
    int err = finish(request, r, status);
    if (err != MPI_SUCCESS)
        tide_raise_comm(c, err);
    if (c)
        tide_comm_release(c);
    return err;
}
TIDE_ALIAS(MPI_Test)

/* ---- any ---- */

struct anyset {
    int count;
    MPI_Request *reqs;
    int found;
};

/* Check a request array; rp (NULL or count slots) receives the requests. */
static int check_array(const char *fn, int count, MPI_Request reqs[], struct tide_request **rp)
{
    if (count < 0)
        return TIDE_ERR(MPI_ERR_COUNT, "%s: negative count %d", fn, count);
    if (count > 0 && !reqs)
        return TIDE_ERR(MPI_ERR_ARG, "%s: array_of_requests must not be NULL", fn);
    for (int i = 0; i < count; i++) {
        struct tide_request *r = lookup(reqs[i]);
        if (!r && reqs[i] != MPI_REQUEST_NULL)
            return bad_request(fn, i);
        if (rp)
            rp[i] = r;
    }
    return MPI_SUCCESS;
}

/* index of a completed active request, -1 none pending-but-active, -2 all inactive */
static int scan_any(int count, MPI_Request reqs[])
{
    int active = 0;
    for (int i = 0; i < count; i++) {
        struct tide_request *r = lookup(reqs[i]);
        if (inactive(r))
            continue;
        active++;
        if (r->complete || r->ft_interrupted)
            return i;
    }
    return active ? -1 : -2;
}

static bool any_done(void *arg)
{
    struct anyset *s = arg;
    s->found = scan_any(s->count, s->reqs);
    return s->found != -1;
}

static int complete_any(const char *fn, int count, MPI_Request reqs[], int i, int *index, MPI_Status *status)
{
    (void)fn;
    (void)count;
    if (i == -2) {
        *index = MPI_UNDEFINED;
        if (status != MPI_STATUS_IGNORE)
            tide_status_empty(status);
        return MPI_SUCCESS;
    }
    struct tide_request *r = lookup(reqs[i]);
    *index = i;
    if (!r->complete)
        return interrupted(r); /* stays active */
    struct tide_comm *c = err_comm(r);
    if (c)
        tide_comm_retain(c);
    int err = finish(&reqs[i], r, status);
    if (err != MPI_SUCCESS)
        tide_raise_comm(c, err);
    if (c)
        tide_comm_release(c);
    return err;
}

int PMPI_Waitany(int count, MPI_Request reqs[], int *index, MPI_Status *status)
{
    if (__builtin_expect(tide_fastpath_on, 0) && tide_fast_waitany(count, reqs, index, status))
        return MPI_SUCCESS;
    TIDE_API_ENTER();
    int rc = check_array("MPI_Waitany", count, reqs, NULL);
    if (rc)
        return rc;
    if (!index)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Waitany: index must not be NULL");
    struct anyset s = {count, reqs, -1};
    tide_progress_until(any_done, &s);
    return complete_any("MPI_Waitany", count, reqs, s.found, index, status);
}
TIDE_ALIAS(MPI_Waitany)

int PMPI_Testany(int count, MPI_Request reqs[], int *index, int *flag, MPI_Status *status)
{
    if (__builtin_expect(tide_fastpath_on, 0) && tide_fast_testany(count, reqs, index, flag, status))
        return MPI_SUCCESS;
    TIDE_API_ENTER();
    int rc = check_array("MPI_Testany", count, reqs, NULL);
    if (rc)
        return rc;
    if (!index || !flag)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Testany: index and flag must not be NULL");
    int i = scan_any(count, reqs);
    if (i == -1) {
        tide_progress();
        i = scan_any(count, reqs);
    }
    if (i == -1) {
        *flag = 0;
        *index = MPI_UNDEFINED;
        return MPI_SUCCESS;
    }
    *flag = 1;
    return complete_any("MPI_Testany", count, reqs, i, index, status);
}
TIDE_ALIAS(MPI_Testany)

/* ---- all ---- */

static bool all_complete(int count, MPI_Request reqs[])
{
    for (int i = 0; i < count; i++) {
        struct tide_request *r = lookup(reqs[i]);
        if (!inactive(r) && !r->complete && !r->ft_interrupted)
            return false;
    }
    return true;
}

struct allset {
    int count;
    MPI_Request *reqs;
};

/* A request of a multiple-completion call finished with error err, into
 * statuses[n] (n statuses written so far): once one has failed the call
 * returns MPI_ERR_IN_STATUS, and then every status it wrote carries its
 * request's error (the earlier ones all succeeded). */
static void note_error(MPI_Status statuses[], int n, int err, int *failed)
{
    if (err != MPI_SUCCESS && !*failed) {
        *failed = 1;
        if (statuses != MPI_STATUSES_IGNORE)
            for (int j = 0; j < n; j++)
                statuses[j].MPI_ERROR = MPI_SUCCESS;
    }
    if (*failed && statuses != MPI_STATUSES_IGNORE)
        statuses[n].MPI_ERROR = err;
}

/* A multiple-completion call saw requests fail, the first with first_err
 * (on communicator c, retained, or NULL): as Open MPI does, the error
 * handler is called with that request's own error (so a handler sees
 * MPIX_ERR_PROC_FAILED, not MPI_ERR_IN_STATUS), and the call returns
 * MPI_ERR_IN_STATUS; each status's MPI_ERROR tells which failed. */
static int raise_in_status(const char *fn, struct tide_comm *c, int first_err, int index)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len;
    if (tide_error_message(first_err, msg, &len) != 0)
        snprintf(msg, sizeof msg, "error %d", first_err);
    tide_raise_comm(c, first_err);
    if (c)
        tide_comm_release(c);
    return tide_err(MPI_ERR_IN_STATUS, "%s: the request at index %d failed (%.300s); see the MPI_ERROR field of "
                                       "each status", fn, index, msg);
}

/* The first request a multiple-completion call saw fail: its error, its
 * index and its communicator (retained, or NULL). */
struct first_failure {
    int err;
    int index;
    struct tide_comm *comm;
};

/* Finish request r (at index i) into st, or give the error of an
 * interrupted wildcard receive, which stays active (ft/ft.h); the first
 * failure is noted in *first. */
static int finish_noting_first(MPI_Request *h, struct tide_request *r, MPI_Status *st, int i,
                               struct first_failure *first)
{
    /* the communicator of a request that may fail outlives finish() */
    struct tide_comm *rcomm = first->err == MPI_SUCCESS && (r->error != MPI_SUCCESS || !r->complete ||
                                                            r->kind == TIDE_REQ_GREQ) ? r->comm : NULL;
    if (rcomm)
        tide_comm_retain(rcomm);
    int err = r->complete ? finish(h, r, st) : tide_ft_pending_error(r);
    if (err != MPI_SUCCESS && first->err == MPI_SUCCESS) {
        first->err = err;
        first->index = i;
        first->comm = rcomm;
    } else if (rcomm) {
        tide_comm_release(rcomm);
    }
    return err;
}

/* Finish every request (rp: the requests already looked up, or NULL);
 * MPI_ERR_IN_STATUS if any failed. */
static int finish_all(const char *fn, int count, MPI_Request reqs[], struct tide_request **rp, MPI_Status statuses[])
{
    int failed = 0;
    struct first_failure first = {MPI_SUCCESS, -1, NULL};
    for (int i = 0; i < count; i++) {
        struct tide_request *r = rp ? rp[i] : lookup(reqs[i]);
        MPI_Status *st = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
        if (inactive(r)) {
            if (st != MPI_STATUS_IGNORE)
                tide_status_empty(st);
            continue;
        }
        int err = finish_noting_first(&reqs[i], r, st, i, &first);
        note_error(statuses, i, err, &failed);
    }
    if (failed)
        return raise_in_status(fn, first.comm, first.err, first.index);
    return MPI_SUCCESS;
}

/* Waitall looks each request up once, into this many local slots (more
 * requests are looked up again as they are finished). */
#define WAITALL_LOCAL 128

int PMPI_Waitall(int count, MPI_Request reqs[], MPI_Status statuses[])
{
    if (__builtin_expect(tide_lean_on, 1))
        return tide_lean_waitall(count, reqs, statuses);
    return tide_waitall_full(count, reqs, statuses);
}
TIDE_ALIAS(MPI_Waitall)

int tide_waitall_full(int count, MPI_Request reqs[], MPI_Status statuses[])
{
    if (__builtin_expect(tide_fastpath_on, 0) && tide_fast_waitall(count, reqs, statuses))
        return MPI_SUCCESS;
    TIDE_API_ENTER();
    struct tide_request *local[WAITALL_LOCAL];
    struct tide_request **rp = count <= WAITALL_LOCAL ? local : NULL;
    int rc = check_array("MPI_Waitall", count, reqs, rp);
    if (rc)
        return rc;
    /* wait for each in turn: the progress engine moves all of them */
    for (int i = 0; i < count; i++) {
        struct tide_request *r = rp ? rp[i] : lookup(reqs[i]);
        if (!inactive(r) && !r->complete)
            tide_progress_until(one_done, r);
    }
    return finish_all("MPI_Waitall", count, reqs, rp, statuses);
}

int PMPI_Testall(int count, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
    if (__builtin_expect(tide_fastpath_on, 0) && tide_fast_testall(count, reqs, flag, statuses))
        return MPI_SUCCESS;
    TIDE_API_ENTER();
    int rc = check_array("MPI_Testall", count, reqs, NULL);
    if (rc)
        return rc;
    if (!flag)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Testall: flag must not be NULL");
    if (!all_complete(count, reqs))
        tide_progress();
    if (!all_complete(count, reqs)) {
        *flag = 0;
        return MPI_SUCCESS;
    }
    *flag = 1;
    return finish_all("MPI_Testall", count, reqs, NULL, statuses);
}
TIDE_ALIAS(MPI_Testall)

/* ---- some ---- */

static int finish_some(const char *fn, int count, MPI_Request reqs[], int *outcount, int indices[],
                       MPI_Status statuses[])
{
    int n = 0, active = 0, failed = 0;
    struct first_failure first = {MPI_SUCCESS, -1, NULL};
    for (int i = 0; i < count; i++) {
        struct tide_request *r = lookup(reqs[i]);
        if (inactive(r))
            continue;
        active++;
        if (!r->complete && !r->ft_interrupted)
            continue;
        MPI_Status *st = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[n];
        int err = finish_noting_first(&reqs[i], r, st, i, &first);
        note_error(statuses, n, err, &failed);
        indices[n++] = i;
    }
    *outcount = active ? n : MPI_UNDEFINED;
    if (failed)
        return raise_in_status(fn, first.comm, first.err, first.index);
    return MPI_SUCCESS;
}

static bool some_done(void *arg)
{
    struct allset *s = arg;
    return scan_any(s->count, s->reqs) != -1;
}

int PMPI_Waitsome(int incount, MPI_Request reqs[], int *outcount, int indices[], MPI_Status statuses[])
{
    TIDE_API_ENTER();
    int rc = check_array("MPI_Waitsome", incount, reqs, NULL);
    if (rc)
        return rc;
    if (!outcount || (incount > 0 && !indices))
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Waitsome: outcount and array_of_indices must not be NULL");
    struct allset s = {incount, reqs};
    tide_progress_until(some_done, &s);
    return finish_some("MPI_Waitsome", incount, reqs, outcount, indices, statuses);
}
TIDE_ALIAS(MPI_Waitsome)

int PMPI_Testsome(int incount, MPI_Request reqs[], int *outcount, int indices[], MPI_Status statuses[])
{
    TIDE_API_ENTER();
    int rc = check_array("MPI_Testsome", incount, reqs, NULL);
    if (rc)
        return rc;
    if (!outcount || (incount > 0 && !indices))
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Testsome: outcount and array_of_indices must not be NULL");
    tide_progress();
    return finish_some("MPI_Testsome", incount, reqs, outcount, indices, statuses);
}
TIDE_ALIAS(MPI_Testsome)

int PMPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
    TIDE_API_ENTER();
    if (!flag)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Request_get_status: flag must not be NULL");
    struct tide_request *r = lookup(request);
    if (request != MPI_REQUEST_NULL && !r)
        return bad_request("MPI_Request_get_status", -1);
    if (inactive(r)) {
        *flag = 1;
        if (status != MPI_STATUS_IGNORE)
            tide_status_empty(status);
        return MPI_SUCCESS;
    }
    if (!r->complete)
        tide_progress();
    *flag = r->complete;
    if (r->complete) {
        if (r->kind == TIDE_REQ_GREQ)
            tide_greq_status(r, status);
        else
            tide_request_status_out(r, status);
    }
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Request_get_status)

int PMPI_Request_free(MPI_Request *request)
{
    TIDE_API_ENTER();
    if (!request)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Request_free: request must not be NULL");
    struct tide_request *r = lookup(*request);
    if (!r)
        return bad_request("MPI_Request_free", -1);
    if (r->kind == TIDE_REQ_COLL && r->persistent && r->state != TIDE_RS_INACTIVE)
        return TIDE_ERR_COMM(r->comm, MPI_ERR_REQUEST,
                             "MPI_Request_free: the persistent collective request is active (complete it with "
                             "MPI_Wait or MPI_Test first)");
    if (r->kind == TIDE_REQ_GREQ && r->complete) {
        tide_greq_finish(r, MPI_STATUS_IGNORE);
        tide_request_free(r);
    } else if (r->persistent && r->state == TIDE_RS_INACTIVE) {
        r->complete = true;
        tide_request_free(r);
    } else {
        if (r->kind == TIDE_REQ_GREQ)
            r->greq_freed = true;
        tide_request_free(r);
    }
    *request = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Request_free)
