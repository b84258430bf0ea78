/*
 * events.c: PMIx events across nodes. An event a rank raises for more
 * than its own node reaches libpmix's notify_event upcall; the daemon
 * sends it to mpiexec (EVENT), which passes it to every daemon along the
 * tree; each daemon but the one it came from hands it to its PMIx server
 * for its own ranks. What a daemon injects carries a marker, so when
 * libpmix passes it back up through notify_event (it does, for events
 * the host raises) it is not sent out again: no loops, each rank gets an
 * event once.
 * mpiexec also raises events of its own (recovery mode, a rank failed:
 * ctlmsg.h, launcher/recovery.c) with an origin no daemon has, so every
 * daemon delivers them; their PMIx info is made here.
 */
#include "tided.h"
#include "ctlframe.h"
#include "ctlmsg.h"
#include "log.h"
#include "taskq.h"

#include <stdlib.h>
#include <string.h>

#include <pmix.h>

#define EVENT_MARK "tide.evfwd"
/* the largest packed info array an event may carry */
#define EVENT_INFO_MAX (256 * 1024)

static bool marked(const pmix_info_t info[], size_t ninfo)
{
    for (size_t i = 0; i < ninfo; i++)
        if (PMIX_CHECK_KEY(&info[i], EVENT_MARK))
            return true;
    return false;
}

struct event_task {
    struct tide_task base;
    pmix_status_t code;
    pmix_proc_t source;
    pmix_data_range_t range;
    char *info; /* packed: size_t n, then n pmix_info_t */
    size_t len;
};

static void event_out_run(struct tide_task *t)
{
    struct event_task *e = (struct event_task *)t;
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_EVENT);
    tide_wire_put_u32(&w, (uint32_t)tided.node);
    tide_wire_put_i32(&w, e->code);
    tide_wire_put_str(&w, e->source.nspace);
    tide_wire_put_u32(&w, e->source.rank);
    tide_wire_put_u32(&w, (uint32_t)e->range);
    tide_wire_put_bytes(&w, e->info, e->len);
    hub_send(&w);
    TIDE_DEBUG(2, "event %d from %s:%u sent to the other nodes", e->code, e->source.nspace, e->source.rank);
    free(e->info);
    free(e);
}

/* libpmix's upcall, on its own thread: copy, then send from the main loop. */
pmix_status_t events_notify_upcall(pmix_status_t code, const pmix_proc_t *source, pmix_data_range_t range,
                                   pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void)cbfunc;
    (void)cbdata;
    /* ours, coming back; or meant for this node only */
    if (marked(info, ninfo) || range == PMIX_RANGE_LOCAL || range == PMIX_RANGE_PROC_LOCAL)
        return PMIX_OPERATION_SUCCEEDED;
    struct event_task *e = calloc(1, sizeof *e);
    if (!e)
        return PMIX_ERR_NOMEM;
    e->code = code;
    if (source)
        e->source = *source;
    e->range = range;
    pmix_data_buffer_t buf;
    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    if (PMIx_Data_pack(NULL, &buf, &ninfo, 1, PMIX_SIZE) != PMIX_SUCCESS ||
        (ninfo && PMIx_Data_pack(NULL, &buf, info, (int32_t)ninfo, PMIX_INFO) != PMIX_SUCCESS)) {
        PMIX_DATA_BUFFER_DESTRUCT(&buf);
        free(e);
        return PMIX_ERR_PACK_FAILURE;
    }
    PMIX_DATA_BUFFER_UNLOAD(&buf, e->info, e->len);
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
    if (e->len > EVENT_INFO_MAX) {
        free(e->info);
        free(e);
        return PMIX_ERR_BAD_PARAM;
    }
    e->base.run = event_out_run;
    tide_taskq_push(&e->base);
    return PMIX_OPERATION_SUCCEEDED;
}

struct injected {
    pmix_info_t *info;
    size_t ninfo;
};

static void injected_done(pmix_status_t status, void *cbdata)
{
    (void)status;
    struct injected *inj = cbdata;
    PMIX_INFO_FREE(inj->info, inj->ninfo);
    free(inj);
}

_Static_assert(TIDE_EVENT_PROC_FAILED == PMIX_ERR_PROC_TERM_WO_SYNC, "ctlmsg.h's event code");
_Static_assert(TIDE_EVENT_RANGE_GLOBAL == PMIX_RANGE_GLOBAL, "ctlmsg.h's event range");

/* The info of an event mpiexec raised itself (recovery mode: a rank
 * failed): i32 exit code in, the PMIx info the clients get out. */
static pmix_info_t *runtime_event_info(const struct tide_ctl_msg *m, size_t *n)
{
    struct tide_rbuf r;
    tide_wire_reader(&r, m->data, m->len);
    int32_t exit_code = tide_wire_get_i32(&r);
    if (!tide_wire_done(&r) || m->status != TIDE_EVENT_PROC_FAILED)
        return NULL;
    pmix_info_t *info;
    PMIX_INFO_CREATE(info, 3);
    if (!info)
        return NULL;
    pmix_proc_t failed;
    PMIX_PROC_LOAD(&failed, m->text, m->rank);
    int code = exit_code;
    bool yes = true;
    PMIX_INFO_LOAD(&info[0], PMIX_EVENT_AFFECTED_PROC, &failed, PMIX_PROC);
    PMIX_INFO_LOAD(&info[1], PMIX_EXIT_CODE, &code, PMIX_INT);
    PMIX_INFO_LOAD(&info[2], EVENT_MARK, &yes, PMIX_BOOL);
    *n = 3;
    return info;
}

static void notify(const struct tide_ctl_msg *m, struct injected *inj);

void events_deliver(const struct tide_ctl_msg *m)
{
    if (m->node == (uint32_t)tided.node)
        return; /* our own ranks had it from our server already */
    if (strlen(m->text) > PMIX_MAX_NSLEN || m->len > EVENT_INFO_MAX)
        return;
    if (m->node == TIDE_EVENT_FROM_RUNTIME) {
        struct injected *inj = calloc(1, sizeof *inj);
        if (inj)
            inj->info = runtime_event_info(m, &inj->ninfo);
        if (!inj || !inj->info) {
            free(inj);
            tide_error("dropping a malformed failure event from mpiexec");
            return;
        }
        notify(m, inj);
        /* our fences stop waiting for it */
        fence_rank_failed(m->text, (int)m->rank);
        return;
    }
    pmix_data_buffer_t buf;
    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    char *copy = malloc(m->len ? m->len : 1);
    if (!copy)
        return;
    memcpy(copy, m->data, m->len);
    PMIX_DATA_BUFFER_LOAD(&buf, copy, m->len);
    size_t n = 0;
    int32_t cnt = 1;
    pmix_info_t *packed = NULL;
    bool ok = PMIx_Data_unpack(NULL, &buf, &n, &cnt, PMIX_SIZE) == PMIX_SUCCESS && n < 4096;
    if (ok && n) {
        PMIX_INFO_CREATE(packed, n);
        cnt = (int32_t)n;
        ok = packed && PMIx_Data_unpack(NULL, &buf, packed, &cnt, PMIX_INFO) == PMIX_SUCCESS && cnt == (int32_t)n;
    }
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
    struct injected *inj = ok ? calloc(1, sizeof *inj) : NULL;
    if (!inj) {
        if (packed)
            PMIX_INFO_FREE(packed, n);
        tide_error("dropping a malformed event from node %u", m->node);
        return;
    }
    /* the same info, and our marker */
    inj->ninfo = n + 1;
    PMIX_INFO_CREATE(inj->info, inj->ninfo);
    for (size_t i = 0; i < n; i++)
        PMIX_INFO_XFER(&inj->info[i], &packed[i]);
    bool yes = true;
    PMIX_INFO_LOAD(&inj->info[n], EVENT_MARK, &yes, PMIX_BOOL);
    if (packed)
        PMIX_INFO_FREE(packed, n);
    notify(m, inj);
}

/* Hand the event to our PMIx server, for our own ranks (inj is freed). */
static void notify(const struct tide_ctl_msg *m, struct injected *inj)
{
    pmix_proc_t source;
    PMIX_PROC_LOAD(&source, m->text, m->rank);
    pmix_status_t rc = PMIx_Notify_event(m->status, &source, (pmix_data_range_t)m->count, inj->info, inj->ninfo,
                                         injected_done, inj);
    if (rc == PMIX_OPERATION_SUCCEEDED) {
        injected_done(rc, inj);
    } else if (rc != PMIX_SUCCESS) {
        TIDE_DEBUG(1, "event %d from %s:%u not delivered here: %s", m->status, m->text, m->rank,
                   PMIx_Error_string(rc));
        injected_done(rc, inj);
    } else {
        TIDE_DEBUG(2, "event %d from %s:%u delivered to our ranks", m->status, m->text, m->rank);
    }
}
