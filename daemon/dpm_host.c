/*
 * dpm_host.c: tided's part in dynamic processes and name publishing.
 * PMIx_Spawn, PMIx_Publish, PMIx_Lookup and PMIx_Unpublish from local
 * ranks arrive as upcalls; they are relayed to mpiexec, which maps and
 * launches spawned jobs and keeps the universe's names (or asks the name
 * service), and its answers complete the upcalls.
 */
#include "tided.h"
#include "channel.h"
#include "ctlframe.h"
#include "ctlmsg.h"
#include "log.h"
#include "taskq.h"

#include <stdlib.h>
#include <string.h>

#define TIDE_SERVICE_MAX 1024
#define TIDE_PORT_MAX 1024

enum req_kind { RK_SPAWN, RK_PUBLISH, RK_LOOKUP, RK_UNPUBLISH };

struct dpm_req {
    uint32_t id;
    int kind;
    pmix_spawn_cbfunc_t spawn_cb;
    pmix_op_cbfunc_t op_cb;
    pmix_lookup_cbfunc_t lookup_cb;
    void *cbdata;
    struct dpm_req *next;
};

static struct dpm_req *pending;
static uint32_t next_id = 1;

static struct dpm_req *req_new(int kind, void *cbdata)
{
    struct dpm_req *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->id = next_id++;
    r->kind = kind;
    r->cbdata = cbdata;
    r->next = pending;
    pending = r;
    return r;
}

static struct dpm_req *req_take(uint32_t id, int kind)
{
    for (struct dpm_req **pp = &pending; *pp; pp = &(*pp)->next)
        if ((*pp)->id == id && (*pp)->kind == kind) {
            struct dpm_req *r = *pp;
            *pp = r->next;
            return r;
        }
    return NULL;
}

/* mpiexec went away: answer everything still waiting */
void dpm_fail_all(void)
{
    while (pending) {
        struct dpm_req *r = pending;
        pending = r->next;
        if (r->kind == RK_SPAWN && r->spawn_cb)
            r->spawn_cb(PMIX_ERR_UNREACH, NULL, r->cbdata);
        else if (r->kind == RK_LOOKUP && r->lookup_cb)
            r->lookup_cb(PMIX_ERR_UNREACH, NULL, 0, r->cbdata);
        else if (r->op_cb)
            r->op_cb(PMIX_ERR_UNREACH, r->cbdata);
        free(r);
    }
}

/* ---- spawn ---- */

struct spawn_app {
    char *cmd, **argv, **env, *wdir, *host, *path, *soft, *recovery;
    uint32_t maxprocs;
};

struct spawn_task {
    struct tide_task base;
    pmix_proc_t parent;
    size_t napps;
    struct spawn_app *apps;
    pmix_spawn_cbfunc_t cbfunc;
    void *cbdata;
};

static char **argv_dup(char **v)
{
    size_t n = 0;
    while (v && v[n])
        n++;
    char **c = calloc(n + 1, sizeof *c);
    for (size_t i = 0; c && i < n; i++)
        c[i] = strdup(v[i]);
    return c;
}

static void argv_free(char **v)
{
    for (size_t i = 0; v && v[i]; i++)
        free(v[i]);
    free(v);
}

static void spawn_task_free(struct spawn_task *t)
{
    for (size_t a = 0; a < t->napps; a++) {
        struct spawn_app *p = &t->apps[a];
        free(p->cmd);
        argv_free(p->argv);
        argv_free(p->env);
        free(p->wdir);
        free(p->host);
        free(p->path);
        free(p->soft);
        free(p->recovery);
    }
    free(t->apps);
    free(t);
}

static void spawn_run(struct tide_task *task)
{
    struct spawn_task *t = (struct spawn_task *)task;
    struct dpm_req *r = tided.hub ? req_new(RK_SPAWN, t->cbdata) : NULL;
    if (!r) {
        t->cbfunc(PMIX_ERR_UNREACH, NULL, t->cbdata);
        spawn_task_free(t);
        return;
    }
    r->spawn_cb = t->cbfunc;
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_SPAWN);
    tide_wire_put_u32(&w, r->id);
    tide_wire_put_str(&w, t->parent.nspace);
    tide_wire_put_u32(&w, t->parent.rank);
    tide_wire_put_u32(&w, (uint32_t)t->napps);
    for (size_t a = 0; a < t->napps; a++) {
        struct spawn_app *p = &t->apps[a];
        tide_wire_put_str(&w, p->cmd);
        tide_wire_put_strv(&w, p->argv);
        tide_wire_put_strv(&w, p->env);
        tide_wire_put_str(&w, p->wdir);
        tide_wire_put_u32(&w, p->maxprocs);
        tide_wire_put_str(&w, p->host);
        tide_wire_put_str(&w, p->path);
        tide_wire_put_str(&w, p->soft);
        tide_wire_put_str(&w, p->recovery);
    }
    hub_send(&w);
    TIDE_DEBUG(1, "spawn request %u from %s:%u (%zu app contexts) sent to mpiexec", r->id, t->parent.nspace,
               t->parent.rank, t->napps);
    spawn_task_free(t);
}

static char *info_string(const pmix_info_t *info, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (PMIX_CHECK_KEY(&info[i], key) && info[i].value.type == PMIX_STRING && info[i].value.data.string)
            return strdup(info[i].value.data.string);
    return NULL;
}

static pmix_status_t up_spawn(const pmix_proc_t *proc, const pmix_info_t job_info[], size_t ninfo,
                              const pmix_app_t apps[], size_t napps, pmix_spawn_cbfunc_t cbfunc, void *cbdata)
{
    (void)job_info;
    (void)ninfo;
    if (napps == 0)
        return PMIX_ERR_BAD_PARAM;
    struct spawn_task *t = calloc(1, sizeof *t);
    if (!t)
        return PMIX_ERR_NOMEM;
    t->apps = calloc(napps, sizeof *t->apps);
    if (!t->apps) {
        free(t);
        return PMIX_ERR_NOMEM;
    }
    t->parent = *proc;
    t->napps = napps;
    for (size_t a = 0; a < napps; a++) {
        struct spawn_app *p = &t->apps[a];
        p->cmd = apps[a].cmd ? strdup(apps[a].cmd) : strdup("");
        p->argv = argv_dup(apps[a].argv);
        p->env = argv_dup(apps[a].env);
        p->wdir = apps[a].cwd ? strdup(apps[a].cwd) : info_string(apps[a].info, apps[a].ninfo, PMIX_WDIR);
        p->maxprocs = apps[a].maxprocs > 0 ? (uint32_t)apps[a].maxprocs : 1;
        p->host = info_string(apps[a].info, apps[a].ninfo, PMIX_HOST);
        p->path = info_string(apps[a].info, apps[a].ninfo, "tide.path");
        p->soft = info_string(apps[a].info, apps[a].ninfo, "tide.soft");
        p->recovery = info_string(apps[a].info, apps[a].ninfo, "tide.recovery");
    }
    t->cbfunc = cbfunc;
    t->cbdata = cbdata;
    t->base.run = spawn_run;
    tide_taskq_push(&t->base);
    return PMIX_SUCCESS;
}

void dpm_spawn_result(const struct tide_ctl_msg *m)
{
    struct dpm_req *r = req_take(m->id, RK_SPAWN);
    if (!r)
        return;
    if (m->status == 0 && m->text) {
        char nspace[PMIX_MAX_NSLEN + 1];
        snprintf(nspace, sizeof nspace, "%s", m->text);
        r->spawn_cb(PMIX_SUCCESS, nspace, r->cbdata);
    } else {
        if (m->text)
            TIDE_DEBUG(1, "spawn %u failed: %s", m->id, m->text);
        r->spawn_cb(PMIX_ERR_JOB_FAILED_TO_LAUNCH, NULL, r->cbdata);
    }
    free(r);
}

/* ---- names ---- */

struct name_task {
    struct tide_task base;
    int kind;
    pmix_proc_t proc;
    char **keys;
    char **values;
    uint32_t wait_ms; /* lookup: 0 no waiting, UINT32_MAX for ever */
    pmix_op_cbfunc_t op_cb;
    pmix_lookup_cbfunc_t lookup_cb;
    void *cbdata;
};

static void name_task_free(struct name_task *t)
{
    argv_free(t->keys);
    argv_free(t->values);
    free(t);
}

static void name_run(struct tide_task *task)
{
    struct name_task *t = (struct name_task *)task;
    struct dpm_req *r = tided.hub ? req_new(t->kind, t->cbdata) : NULL;
    if (!r) {
        if (t->kind == RK_LOOKUP)
            t->lookup_cb(PMIX_ERR_UNREACH, NULL, 0, t->cbdata);
        else if (t->op_cb)
            t->op_cb(PMIX_ERR_UNREACH, t->cbdata);
        name_task_free(t);
        return;
    }
    r->op_cb = t->op_cb;
    r->lookup_cb = t->lookup_cb;
    size_t n = 0;
    while (t->keys && t->keys[n])
        n++;
    struct tide_wbuf w;
    uint16_t type = t->kind == RK_PUBLISH ? TIDE_CTL_PUBLISH
                    : t->kind == RK_LOOKUP ? TIDE_CTL_LOOKUP
                                           : TIDE_CTL_UNPUBLISH;
    tide_wire_begin(&w, type);
    tide_wire_put_u32(&w, r->id);
    tide_wire_put_str(&w, t->proc.nspace);
    tide_wire_put_u32(&w, t->proc.rank);
    if (t->kind == RK_LOOKUP)
        tide_wire_put_u32(&w, t->wait_ms);
    tide_wire_put_u32(&w, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        tide_wire_put_str(&w, t->keys[i]);
        if (t->kind == RK_PUBLISH)
            tide_wire_put_str(&w, t->values[i]);
    }
    hub_send(&w);
    name_task_free(t);
}

static bool directive(const char *key)
{
    return strncmp(key, "pmix.", 5) == 0;
}

static pmix_status_t up_publish(const pmix_proc_t *proc, const pmix_info_t info[], size_t ninfo,
                                pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    struct name_task *t = calloc(1, sizeof *t);
    if (!t)
        return PMIX_ERR_NOMEM;
    size_t n = 0;
    for (size_t i = 0; i < ninfo; i++)
        if (!directive(info[i].key))
            n++;
    t->keys = calloc(n + 1, sizeof(char *));
    t->values = calloc(n + 1, sizeof(char *));
    size_t k = 0;
    for (size_t i = 0; i < ninfo && t->keys && t->values; i++) {
        if (directive(info[i].key))
            continue;
        if (info[i].value.type != PMIX_STRING || !info[i].value.data.string) {
            name_task_free(t);
            return PMIX_ERR_BAD_PARAM;
        }
        t->keys[k] = strdup(info[i].key);
        t->values[k] = strdup(info[i].value.data.string);
        k++;
    }
    t->kind = RK_PUBLISH;
    t->proc = *proc;
    t->op_cb = cbfunc;
    t->cbdata = cbdata;
    t->base.run = name_run;
    tide_taskq_push(&t->base);
    return PMIX_SUCCESS;
}

static struct name_task *keys_task(int kind, const pmix_proc_t *proc, char **keys)
{
    struct name_task *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->kind = kind;
    t->proc = *proc;
    t->keys = argv_dup(keys);
    return t;
}

static pmix_status_t up_lookup(const pmix_proc_t *proc, char **keys, const pmix_info_t info[], size_t ninfo,
                               pmix_lookup_cbfunc_t cbfunc, void *cbdata)
{
    struct name_task *t = keys_task(RK_LOOKUP, proc, keys);
    if (!t)
        return PMIX_ERR_NOMEM;
    /* PMIX_WAIT: wait until the names are published; PMIX_TIMEOUT (seconds)
     * bounds that wait */
    bool wait = false;
    int timeout_s = 0;
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_WAIT))
            wait = true;
        else if (PMIX_CHECK_KEY(&info[i], PMIX_TIMEOUT) && info[i].value.type == PMIX_INT)
            timeout_s = info[i].value.data.integer;
    }
    if (wait)
        t->wait_ms = timeout_s > 0 && timeout_s < 4000000 ? (uint32_t)timeout_s * 1000u : UINT32_MAX;
    t->lookup_cb = cbfunc;
    t->cbdata = cbdata;
    t->base.run = name_run;
    tide_taskq_push(&t->base);
    return PMIX_SUCCESS;
}

static pmix_status_t up_unpublish(const pmix_proc_t *proc, char **keys, const pmix_info_t info[],
                                  size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void)info;
    (void)ninfo;
    struct name_task *t = keys_task(RK_UNPUBLISH, proc, keys);
    if (!t)
        return PMIX_ERR_NOMEM;
    t->op_cb = cbfunc;
    t->cbdata = cbdata;
    t->base.run = name_run;
    tide_taskq_push(&t->base);
    return PMIX_SUCCESS;
}

static pmix_status_t name_status_to_pmix(int st)
{
    switch (st) {
    case TIDE_NAME_OK: return PMIX_SUCCESS;
    case TIDE_NAME_NOT_FOUND: return PMIX_ERR_NOT_FOUND;
    case TIDE_NAME_DUPLICATE: return PMIX_ERR_DUPLICATE_KEY;
    case TIDE_NAME_NOT_OWNER: return PMIX_ERR_NO_PERMISSIONS;
    case TIDE_NAME_BAD: return PMIX_ERR_BAD_PARAM;
    default: return PMIX_ERR_UNREACH;
    }
}

struct lookup_result {
    pmix_pdata_t *data;
    size_t n;
};

void dpm_name_result(struct tide_rbuf *rb)
{
    uint32_t id = tide_wire_get_u32(rb);
    int status = tide_wire_get_i32(rb);
    uint32_t n = tide_wire_get_u32(rb);
    if (!tide_wire_ok(rb) || n > 4096)
        return;
    struct dpm_req *r = NULL;
    for (struct dpm_req *p = pending; p; p = p->next)
        if (p->id == id)
            r = p;
    if (!r)
        return;
    r = req_take(id, r->kind);
    if (r->kind != RK_LOOKUP) {
        if (r->op_cb)
            r->op_cb(name_status_to_pmix(status), r->cbdata);
        free(r);
        return;
    }
    pmix_pdata_t *pd = NULL;
    if (n > 0)
        PMIX_PDATA_CREATE(pd, n);
    for (uint32_t i = 0; i < n; i++) {
        char *svc = tide_wire_get_str(rb);
        char *port = tide_wire_get_str(rb);
        char *ns = tide_wire_get_str(rb);
        uint32_t rank = tide_wire_get_u32(rb);
        if (svc && port && ns && pd) {
            PMIX_PROC_LOAD(&pd[i].proc, ns, rank);
            PMIX_LOAD_KEY(pd[i].key, svc);
            PMIX_VALUE_LOAD(&pd[i].value, port, PMIX_STRING);
        }
        free(svc);
        free(port);
        free(ns);
    }
    if (!tide_wire_done(rb))
        status = TIDE_NAME_BAD;
    /* PMIx copies what it needs during the callback */
    r->lookup_cb(name_status_to_pmix(status), status == TIDE_NAME_OK ? pd : NULL,
                 status == TIDE_NAME_OK ? n : 0, r->cbdata);
    if (pd)
        PMIX_PDATA_FREE(pd, n);
    free(r);
}

void dpm_host_register(pmix_server_module_t *m)
{
    m->spawn = up_spawn;
    m->publish = up_publish;
    m->lookup = up_lookup;
    m->unpublish = up_unpublish;
}
