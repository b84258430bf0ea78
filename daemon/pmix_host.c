/*
 * pmix_host.c: tided's PMIx server module. Every upcall arrives on PMIx's
 * progress thread: it copies what it needs into a task and returns, and the
 * task runs on the main loop (pmix-glue/taskq.h).
 */
#include "tided.h"
#include "log.h"
#include "taskq.h"
#include "params.h"
#include "pmix_gate.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- connected / finalized: bookkeeping only ---- */

struct mark_task {
    struct tide_task base;
    pmix_proc_t proc;
    int what; /* 1 connected, 2 finalized */
};

static void mark_run(struct tide_task *t)
{
    struct mark_task *m = (struct mark_task *)t;
    struct dproc *p = dproc_find(m->proc.nspace, (int)m->proc.rank);
    if (p) {
        if (m->what == 1)
            p->connected = true;
        else
            p->finalized = true;
        TIDE_DEBUG(3, "rank %d of %s %s", p->rank, p->job->desc.nspace,
                   m->what == 1 ? "connected to PMIx" : "finalized");
    }
    free(m);
}

static void push_mark(const pmix_proc_t *proc, int what)
{
    struct mark_task *m = calloc(1, sizeof *m);
    if (!m)
        return;
    m->base.run = mark_run;
    m->proc = *proc;
    m->what = what;
    tide_taskq_push(&m->base);
}

static pmix_status_t up_client_connected(const pmix_proc_t *proc, void *server_object,
                                         pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void)server_object;
    (void)cbfunc;
    (void)cbdata;
    pmix_gate_note_connected();
    push_mark(proc, 1);
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t up_client_finalized(const pmix_proc_t *proc, void *server_object,
                                         pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void)server_object;
    (void)cbfunc;
    (void)cbdata;
    push_mark(proc, 2);
    return PMIX_OPERATION_SUCCEEDED;
}

/* ---- abort ---- */

struct abort_task {
    struct tide_task base;
    pmix_proc_t proc;
    int status;
    char *msg;
    pmix_op_cbfunc_t cbfunc;
    void *cbdata;
};

static void abort_run(struct tide_task *t)
{
    struct abort_task *a = (struct abort_task *)t;
    struct dproc *p = dproc_find(a->proc.nspace, (int)a->proc.rank);
    if (p)
        hub_send_abort(p, a->status, a->msg);
    if (a->cbfunc)
        a->cbfunc(PMIX_SUCCESS, a->cbdata);
    free(a->msg);
    free(a);
}

static pmix_status_t up_abort(const pmix_proc_t *proc, void *server_object, int status,
                              const char msg[], pmix_proc_t procs[], size_t nprocs,
                              pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void)server_object;
    (void)procs;
    (void)nprocs;
    struct abort_task *a = calloc(1, sizeof *a);
    if (!a)
        return PMIX_ERR_NOMEM;
    a->base.run = abort_run;
    a->proc = *proc;
    a->status = status;
    a->msg = msg ? strdup(msg) : NULL;
    a->cbfunc = cbfunc;
    a->cbdata = cbdata;
    tide_taskq_push(&a->base);
    return PMIX_SUCCESS;
}

/* ---- fence ---- */

struct fence_task {
    struct tide_task base;
    pmix_proc_t *procs;
    size_t nprocs;
    bool collect;
    char *data;
    size_t ndata;
    pmix_modex_cbfunc_t cbfunc;
    void *cbdata;
};

static void fence_run(struct tide_task *t)
{
    struct fence_task *f = (struct fence_task *)t;
    fence_submit(f->procs, f->nprocs, f->collect, f->data, f->ndata, f->cbfunc, f->cbdata);
    free(f->procs);
    free(f);
}

static pmix_status_t up_fence_nb(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                                 size_t ninfo, char *data, size_t ndata, pmix_modex_cbfunc_t cbfunc,
                                 void *cbdata)
{
    struct fence_task *f = calloc(1, sizeof *f);
    if (!f)
        return PMIX_ERR_NOMEM;
    f->procs = malloc((nprocs ? nprocs : 1) * sizeof(pmix_proc_t));
    if (!f->procs) {
        free(f);
        return PMIX_ERR_NOMEM;
    }
    memcpy(f->procs, procs, nprocs * sizeof(pmix_proc_t));
    f->nprocs = nprocs;
    for (size_t i = 0; i < ninfo; i++)
        if (PMIX_CHECK_KEY(&info[i], PMIX_COLLECT_DATA))
            f->collect = PMIX_INFO_TRUE(&info[i]);
    f->data = data; /* ours now: freed when the fence is released */
    f->ndata = ndata;
    f->cbfunc = cbfunc;
    f->cbdata = cbdata;
    f->base.run = fence_run;
    tide_taskq_push(&f->base);
    return PMIX_SUCCESS;
}

/* ---- direct modex ---- */

struct dmodex_task {
    struct tide_task base;
    pmix_proc_t proc;
    pmix_modex_cbfunc_t cbfunc;
    void *cbdata;
};

static void dmodex_run(struct tide_task *t)
{
    struct dmodex_task *d = (struct dmodex_task *)t;
    dmodex_submit(&d->proc, d->cbfunc, d->cbdata);
    free(d);
}

static pmix_status_t up_direct_modex(const pmix_proc_t *proc, const pmix_info_t info[], size_t ninfo,
                                     pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    (void)info;
    (void)ninfo;
    struct dmodex_task *d = calloc(1, sizeof *d);
    if (!d)
        return PMIX_ERR_NOMEM;
    d->proc = *proc;
    d->cbfunc = cbfunc;
    d->cbdata = cbdata;
    d->base.run = dmodex_run;
    tide_taskq_push(&d->base);
    return PMIX_SUCCESS;
}

/* ---- disconnect ----
 * libmpi disconnects from the namespaces of an intercommunicator it has
 * disconnected (after its own barrier over both groups), so that libpmix
 * drops their job data; nothing is left to synchronise across daemons. */
static pmix_status_t up_disconnect(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                                   size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void)procs;
    (void)nprocs;
    (void)info;
    (void)ninfo;
    (void)cbfunc;
    (void)cbdata;
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_server_module_t tided_module = {
    .client_connected = up_client_connected,
    .client_finalized = up_client_finalized,
    .abort = up_abort,
    .fence_nb = up_fence_nb,
    .direct_modex = up_direct_modex,
    .disconnect = up_disconnect,
    .notify_event = events_notify_upcall,
};

int pmix_host_init(char *err, size_t errlen)
{
    pmix_info_t info[4];
    char nspace[64];
    pmix_rank_t rank = (pmix_rank_t)tided.node;
    snprintf(nspace, sizeof nspace, "tided-%d-%d", tided.node, (int)getpid());
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_TMPDIR, tided.pmix_dir, PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_SYSTEM_TMPDIR, tided.pmix_dir, PMIX_STRING);
    PMIX_INFO_LOAD(&info[2], PMIX_SERVER_NSPACE, nspace, PMIX_STRING);
    PMIX_INFO_LOAD(&info[3], PMIX_SERVER_RANK, &rank, PMIX_PROC_RANK);
    dpm_host_register(&tided_module);
    /* the ranks store job data in the hash component only (launch.c): the
     * shared-memory stores would only cost the daemon a lock segment per
     * namespace that libpmix never gives back */
    setenv("PMIX_MCA_gds", "hash", 0);
    /* libpmix's listen() inside PMIx_server_init is taken over by the gate */
    double auth_timeout = strtod(tide_config_get("auth_timeout"), NULL);
    pmix_gate_arm(auth_timeout > 0 ? (int)(auth_timeout * 1000) : 3000, (int)tide_config_int("auth_max_pending"));
    pmix_status_t rc = PMIx_server_init(&tided_module, info, 4);
    for (int i = 0; i < 4; i++)
        PMIX_INFO_DESTRUCT(&info[i]);
    if (rc != PMIX_SUCCESS) {
        snprintf(err, errlen, "PMIx_server_init: %s", PMIx_Error_string(rc));
        return -1;
    }
    TIDE_DEBUG(2, "PMIx server up (%s)", PMIx_Get_version());
    return 0;
}

void pmix_host_fini(void)
{
    PMIx_server_finalize();
    pmix_gate_stop();
}
