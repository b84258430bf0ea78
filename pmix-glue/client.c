/*
 * client.c: PMIx client calls made by libmpi.
 */
#include "client.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmix.h>

static pmix_proc_t me;
static tide_pmix_failure_fn failure_fn;

int tide_pmix_available(void)
{
    return getenv("PMIX_NAMESPACE") != NULL && getenv("PMIX_RANK") != NULL;
}

static pmix_status_t get_value(const char *nspace, uint32_t rank, const char *key, int timeout,
                               pmix_value_t **val)
{
    pmix_proc_t p;
    PMIX_PROC_LOAD(&p, nspace, rank == TIDE_PMIX_WILDCARD ? PMIX_RANK_WILDCARD : rank);
    pmix_info_t info[1];
    int to = timeout;
    PMIX_INFO_LOAD(&info[0], PMIX_TIMEOUT, &to, PMIX_INT);
    pmix_status_t rc = PMIx_Get(&p, key, info, 1, val);
    PMIX_INFO_DESTRUCT(&info[0]);
    return rc;
}

int tide_pmix_get_u32(const char *nspace, uint32_t rank, const char *key, uint32_t *value, int timeout)
{
    pmix_value_t *v = NULL;
    if (get_value(nspace, rank, key, timeout, &v) != PMIX_SUCCESS || !v)
        return -1;
    int rc = 0;
    switch (v->type) {
    case PMIX_UINT32: *value = v->data.uint32; break;
    case PMIX_UINT16: *value = v->data.uint16; break;
    case PMIX_PROC_RANK: *value = v->data.rank; break;
    case PMIX_INT: *value = (uint32_t)v->data.integer; break;
    case PMIX_UINT64: *value = (uint32_t)v->data.uint64; break;
    case PMIX_SIZE: *value = (uint32_t)v->data.size; break;
    default: rc = -1; break;
    }
    PMIX_VALUE_RELEASE(v);
    return rc;
}

int tide_pmix_get_string(const char *nspace, uint32_t rank, const char *key, char *out, size_t outlen,
                         int timeout)
{
    pmix_value_t *v = NULL;
    if (get_value(nspace, rank, key, timeout, &v) != PMIX_SUCCESS || !v)
        return -1;
    int rc = -1;
    if (v->type == PMIX_STRING && v->data.string) {
        snprintf(out, outlen, "%s", v->data.string);
        rc = 0;
    }
    PMIX_VALUE_RELEASE(v);
    return rc;
}

static uint32_t *parse_peers(const char *s, uint32_t expect)
{
    uint32_t *peers = calloc(expect ? expect : 1, sizeof *peers);
    if (!peers)
        return NULL;
    uint32_t n = 0;
    const char *p = s;
    while (*p && n < expect) {
        peers[n++] = (uint32_t)strtoul(p, (char **)&p, 10);
        if (*p == ',')
            p++;
        else
            break;
    }
    return peers;
}

/* A value the server may not have at all: looked up in what the client
 * already holds, without asking the server (no wait). */
static int get_optional_string(const char *key, char *out, size_t outlen)
{
    pmix_proc_t wild;
    PMIX_PROC_LOAD(&wild, me.nspace, PMIX_RANK_WILDCARD);
    pmix_info_t opt;
    bool t = true;
    PMIX_INFO_LOAD(&opt, PMIX_OPTIONAL, &t, PMIX_BOOL);
    pmix_value_t *v = NULL;
    int rc = -1;
    if (PMIx_Get(&wild, key, &opt, 1, &v) == PMIX_SUCCESS && v && v->type == PMIX_STRING && v->data.string) {
        snprintf(out, outlen, "%s", v->data.string);
        rc = 0;
    }
    if (v)
        PMIX_VALUE_RELEASE(v);
    PMIX_INFO_DESTRUCT(&opt);
    return rc;
}

const char *tide_pmix_version(void)
{
    /* "OpenPMIx 4.2.2 (...)": the number alone */
    static char v[32];
    const char *s = PMIx_Get_version();
    const char *d = s ? strpbrk(s, "0123456789") : NULL;
    size_t n = d ? strspn(d, "0123456789.") : 0;
    snprintf(v, sizeof v, "%.*s", (int)(n ? n : 1), n ? d : "?");
    return v;
}

int tide_pmix_init(struct tide_pmix_self *self, char *err, size_t errlen)
{
    memset(self, 0, sizeof *self);
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        snprintf(err, errlen, "PMIx_Init: %s", PMIx_Error_string(rc));
        return -1;
    }
    snprintf(self->nspace, sizeof self->nspace, "%s", me.nspace);
    self->rank = me.rank;
    const int to = 10;
    if (tide_pmix_get_u32(me.nspace, TIDE_PMIX_WILDCARD, PMIX_JOB_SIZE, &self->job_size, to) != 0) {
        snprintf(err, errlen, "PMIx_Get(PMIX_JOB_SIZE) failed");
        return -1;
    }
    if (tide_pmix_get_u32(me.nspace, TIDE_PMIX_WILDCARD, PMIX_UNIV_SIZE, &self->universe_size, to) != 0)
        self->universe_size = self->job_size;
    if (tide_pmix_get_u32(me.nspace, me.rank, PMIX_APPNUM, &self->appnum, to) != 0)
        self->appnum = 0;
    if (tide_pmix_get_u32(me.nspace, me.rank, PMIX_LOCAL_RANK, &self->local_rank, to) != 0)
        self->local_rank = 0;
    if (tide_pmix_get_u32(me.nspace, me.rank, PMIX_NODEID, &self->node_id, to) != 0)
        self->node_id = 0;
    if (tide_pmix_get_u32(me.nspace, TIDE_PMIX_WILDCARD, PMIX_LOCAL_SIZE, &self->local_size, to) != 0)
        self->local_size = 1;
    char peers[65536];
    if (tide_pmix_get_string(me.nspace, TIDE_PMIX_WILDCARD, PMIX_LOCAL_PEERS, peers, sizeof peers, to) == 0)
        self->local_peers = parse_peers(peers, self->local_size);
    if (!self->local_peers) {
        self->local_size = 1;
        self->local_peers = calloc(1, sizeof(uint32_t));
        if (self->local_peers)
            self->local_peers[0] = me.rank;
    }
    if (tide_pmix_get_string(me.nspace, me.rank, PMIX_HOSTNAME, self->hostname, sizeof self->hostname,
                             to) != 0)
        self->hostname[0] = '\0';
    if (get_optional_string(PMIX_NSDIR, self->nsdir, sizeof self->nsdir) != 0)
        self->nsdir[0] = '\0';
    pmix_value_t *v = NULL;
    pmix_info_t opt;
    bool t = true;
    PMIX_INFO_LOAD(&opt, PMIX_OPTIONAL, &t, PMIX_BOOL);
    pmix_proc_t wild;
    PMIX_PROC_LOAD(&wild, me.nspace, PMIX_RANK_WILDCARD);
    if (PMIx_Get(&wild, PMIX_PARENT_ID, &opt, 1, &v) == PMIX_SUCCESS && v && v->type == PMIX_PROC) {
        self->spawned = 1;
        snprintf(self->parent_nspace, sizeof self->parent_nspace, "%s", v->data.proc->nspace);
        self->parent_rank = v->data.proc->rank;
    }
    if (v)
        PMIX_VALUE_RELEASE(v);
    PMIX_INFO_DESTRUCT(&opt);
    return 0;
}

int tide_pmix_finalize(void)
{
    return PMIx_Finalize(NULL, 0) == PMIX_SUCCESS ? 0 : -1;
}

int tide_pmix_put(const char *key, const void *data, size_t len)
{
    pmix_value_t v;
    pmix_byte_object_t bo;
    bo.bytes = (char *)data;
    bo.size = len;
    v.type = PMIX_BYTE_OBJECT;
    v.data.bo = bo;
    return PMIx_Put(PMIX_GLOBAL, key, &v) == PMIX_SUCCESS ? 0 : -1;
}

int tide_pmix_commit(void)
{
    return PMIx_Commit() == PMIX_SUCCESS ? 0 : -1;
}

int tide_pmix_fence(int collect)
{
    pmix_proc_t all;
    PMIX_PROC_LOAD(&all, me.nspace, PMIX_RANK_WILDCARD);
    pmix_info_t info;
    bool c = collect != 0;
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &c, PMIX_BOOL);
    pmix_status_t rc = PMIx_Fence(&all, 1, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    return rc == PMIX_SUCCESS ? 0 : -1;
}

struct fence_nb {
    void (*done)(int ok, void *arg);
    void *arg;
    pmix_info_t info;
};

static void fence_nb_done(pmix_status_t status, void *cbdata)
{
    struct fence_nb *f = cbdata;
    void (*done)(int, void *) = f->done;
    void *arg = f->arg;
    PMIX_INFO_DESTRUCT(&f->info);
    free(f);
    done(status == PMIX_SUCCESS, arg);
}

int tide_pmix_fence_nb(int collect, void (*done)(int ok, void *arg), void *arg)
{
    struct fence_nb *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    f->done = done;
    f->arg = arg;
    pmix_proc_t all;
    PMIX_PROC_LOAD(&all, me.nspace, PMIX_RANK_WILDCARD);
    bool c = collect != 0;
    PMIX_INFO_LOAD(&f->info, PMIX_COLLECT_DATA, &c, PMIX_BOOL);
    if (PMIx_Fence_nb(&all, 1, &f->info, 1, fence_nb_done, f) != PMIX_SUCCESS) {
        PMIX_INFO_DESTRUCT(&f->info);
        free(f);
        return -1;
    }
    return 0;
}

int tide_pmix_get(const char *nspace, uint32_t rank, const char *key, void **data, size_t *len,
                  int timeout)
{
    pmix_value_t *v = NULL;
    if (get_value(nspace, rank, key, timeout, &v) != PMIX_SUCCESS || !v)
        return -1;
    int rc = -1;
    if (v->type == PMIX_BYTE_OBJECT) {
        *data = malloc(v->data.bo.size ? v->data.bo.size : 1);
        if (*data) {
            memcpy(*data, v->data.bo.bytes, v->data.bo.size);
            *len = v->data.bo.size;
            rc = 0;
        }
    }
    PMIX_VALUE_RELEASE(v);
    return rc;
}

struct get_many {
    pthread_mutex_t lock;
    pthread_cond_t cv;
    int pending;
};

struct get_one {
    struct get_many *all;
    void **data;
    size_t *len;
};

static void got_one(pmix_status_t status, pmix_value_t *kv, void *cbdata)
{
    struct get_one *g = cbdata;
    if (status == PMIX_SUCCESS && kv && kv->type == PMIX_BYTE_OBJECT) {
        void *d = malloc(kv->data.bo.size ? kv->data.bo.size : 1);
        if (d) {
            memcpy(d, kv->data.bo.bytes, kv->data.bo.size);
            *g->len = kv->data.bo.size;
        }
        *g->data = d;
    }
    pthread_mutex_lock(&g->all->lock);
    if (--g->all->pending == 0)
        pthread_cond_signal(&g->all->cv);
    pthread_mutex_unlock(&g->all->lock);
}

void tide_pmix_get_many(const char *const *nspaces, const uint32_t *ranks, const char *const *keys, int n,
                        void **data, size_t *lens, int timeout)
{
    struct get_many all = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
    struct get_one *one = calloc((size_t)(n > 0 ? n : 1), sizeof *one);
    pmix_info_t info[1];
    int to = timeout;
    PMIX_INFO_LOAD(&info[0], PMIX_TIMEOUT, &to, PMIX_INT);
    for (int i = 0; i < n; i++) {
        data[i] = NULL;
        lens[i] = 0;
        if (!one) {
            if (tide_pmix_get(nspaces[i], ranks[i], keys[i], &data[i], &lens[i], timeout) != 0)
                data[i] = NULL;
            continue;
        }
        one[i] = (struct get_one){&all, &data[i], &lens[i]};
        pmix_proc_t p;
        PMIX_PROC_LOAD(&p, nspaces[i], ranks[i]);
        pthread_mutex_lock(&all.lock);
        all.pending++;
        pthread_mutex_unlock(&all.lock);
        if (PMIx_Get_nb(&p, keys[i], info, 1, got_one, &one[i]) != PMIX_SUCCESS) {
            pthread_mutex_lock(&all.lock);
            all.pending--;
            pthread_mutex_unlock(&all.lock);
        }
    }
    pthread_mutex_lock(&all.lock);
    while (all.pending > 0)
        pthread_cond_wait(&all.cv, &all.lock);
    pthread_mutex_unlock(&all.lock);
    PMIX_INFO_DESTRUCT(&info[0]);
    free(one);
}

void tide_pmix_abort(int code, const char *msg)
{
    PMIx_Abort(code, msg, NULL, 0);
}

static void failure_event(size_t evhdlr_registration_id, pmix_status_t status,
                          const pmix_proc_t *source, pmix_info_t info[], size_t ninfo,
                          pmix_info_t results[], size_t nresults,
                          pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void)evhdlr_registration_id;
    (void)status;
    (void)source;
    (void)results;
    (void)nresults;
    const pmix_proc_t *affected = NULL;
    int code = 0;
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_AFFECTED_PROC) && info[i].value.type == PMIX_PROC)
            affected = info[i].value.data.proc;
        else if (PMIX_CHECK_KEY(&info[i], PMIX_EXIT_CODE) && info[i].value.type == PMIX_INT)
            code = info[i].value.data.integer;
    }
    if (affected && failure_fn)
        failure_fn(affected->nspace, affected->rank, code);
    if (cbfunc)
        cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

int tide_pmix_on_failure(tide_pmix_failure_fn fn)
{
    failure_fn = fn;
    /* the runtime's word for a failed process (recovery mode:
     * docs/FAULTS.md), and the standard codes a PMIx server may raise */
    pmix_status_t codes[] = {PMIX_ERR_PROC_TERM_WO_SYNC, PMIX_ERR_PROC_ABORTED};
    PMIx_Register_event_handler(codes, 2, NULL, 0, failure_event, NULL, NULL);
    return 0;
}

/* ---- dynamic processes ---- */

int tide_pmix_spawn(const struct tide_spawn_app *a, int napps, char *nspace, size_t len)
{
    pmix_app_t *apps;
    PMIX_APP_CREATE(apps, (size_t)napps);
    for (int i = 0; i < napps; i++) {
        apps[i].cmd = strdup(a[i].cmd);
        size_t n = 0;
        while (a[i].argv && a[i].argv[n])
            n++;
        apps[i].argv = calloc(n + 1, sizeof(char *));
        for (size_t k = 0; k < n; k++)
            apps[i].argv[k] = strdup(a[i].argv[k]);
        n = 0;
        while (a[i].env && a[i].env[n])
            n++;
        apps[i].env = calloc(n + 1, sizeof(char *));
        for (size_t k = 0; k < n; k++)
            apps[i].env[k] = strdup(a[i].env[k]);
        if (a[i].wdir)
            apps[i].cwd = strdup(a[i].wdir);
        apps[i].maxprocs = a[i].maxprocs;
        size_t ninfo = (a[i].host != NULL) + (a[i].path != NULL) + (a[i].soft != NULL) + (a[i].recovery != NULL);
        if (ninfo) {
            PMIX_INFO_CREATE(apps[i].info, ninfo);
            apps[i].ninfo = ninfo;
            size_t k = 0;
            if (a[i].host)
                PMIX_INFO_LOAD(&apps[i].info[k++], PMIX_HOST, a[i].host, PMIX_STRING);
            if (a[i].path)
                PMIX_INFO_LOAD(&apps[i].info[k++], "tide.path", a[i].path, PMIX_STRING);
            if (a[i].soft)
                PMIX_INFO_LOAD(&apps[i].info[k++], "tide.soft", a[i].soft, PMIX_STRING);
            if (a[i].recovery)
                PMIX_INFO_LOAD(&apps[i].info[k++], "tide.recovery", a[i].recovery, PMIX_STRING);
        }
    }
    pmix_nspace_t ns;
    pmix_status_t rc = PMIx_Spawn(NULL, 0, apps, (size_t)napps, ns);
    PMIX_APP_FREE(apps, (size_t)napps);
    if (rc == PMIX_ERR_NOT_SUPPORTED)
        return TIDE_PMIX_SPAWN_UNSUPPORTED;
    if (rc != PMIX_SUCCESS)
        return -1;
    snprintf(nspace, len, "%s", ns);
    return 0;
}

static int name_status(pmix_status_t rc)
{
    switch (rc) {
    case PMIX_SUCCESS: return TIDE_PMIX_NAME_OK;
    case PMIX_ERR_NOT_FOUND: return TIDE_PMIX_NAME_NOT_FOUND;
    case PMIX_ERR_DUPLICATE_KEY: return TIDE_PMIX_NAME_DUPLICATE;
    case PMIX_ERR_NO_PERMISSIONS: return TIDE_PMIX_NAME_NOT_OWNER;
    default: return TIDE_PMIX_NAME_ERROR;
    }
}

int tide_pmix_publish(const char *service, const char *port)
{
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, service, port, PMIX_STRING);
    pmix_status_t rc = PMIx_Publish(&info, 1);
    PMIX_INFO_DESTRUCT(&info);
    return name_status(rc);
}

int tide_pmix_lookup(const char *service, char *port, size_t len, int wait_s)
{
    pmix_pdata_t pd;
    PMIX_PDATA_CONSTRUCT(&pd);
    PMIX_LOAD_KEY(pd.key, service);
    pmix_info_t info[2];
    size_t ninfo = 0;
    if (wait_s != 0) {
        int all = 0;
        PMIX_INFO_LOAD(&info[ninfo], PMIX_WAIT, &all, PMIX_INT);
        ninfo++;
        if (wait_s > 0) {
            PMIX_INFO_LOAD(&info[ninfo], PMIX_TIMEOUT, &wait_s, PMIX_INT);
            ninfo++;
        }
    }
    pmix_status_t rc = PMIx_Lookup(&pd, 1, ninfo ? info : NULL, ninfo);
    for (size_t i = 0; i < ninfo; i++)
        PMIX_INFO_DESTRUCT(&info[i]);
    int st = name_status(rc);
    if (st == TIDE_PMIX_NAME_OK) {
        if (pd.value.type == PMIX_STRING && pd.value.data.string)
            snprintf(port, len, "%s", pd.value.data.string);
        else
            st = TIDE_PMIX_NAME_NOT_FOUND;
    }
    PMIX_PDATA_DESTRUCT(&pd);
    return st;
}

int tide_pmix_unpublish(const char *service)
{
    char *keys[2] = {(char *)service, NULL};
    return name_status(PMIx_Unpublish(keys, NULL, 0));
}
