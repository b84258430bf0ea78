/*
 * fence.c: PMIx fences and direct-modex requests that span daemons. A
 * fence's contribution goes to mpiexec, which waits for every daemon
 * hosting a participant and sends each the concatenated data (each
 * server's blob is a sequence of packed byte objects, so concatenation is
 * what the PMIx server expects back). A direct-modex request for a proc on
 * another node goes through mpiexec to that node's daemon, which asks its
 * PMIx server and sends the data back the same way.
 */
#include "tided.h"
#include "channel.h"
#include "ctlframe.h"
#include "ctlmsg.h"
#include "log.h"
#include "taskq.h"

#include <stdlib.h>
#include <string.h>

struct fence_req {
    char *sig;
    char *data; /* our contribution, allocated by PMIx, ours to free */
    char *result;
    pmix_modex_cbfunc_t cbfunc;
    void *cbdata;
    struct fence_req *next;
};

static struct fence_req *fences;

static int proc_cmp(const void *a, const void *b)
{
    const pmix_proc_t *x = a, *y = b;
    int c = strcmp(x->nspace, y->nspace);
    if (c)
        return c;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* A canonical name for the participant set, the same on every daemon. */
static char *fence_signature(pmix_proc_t *procs, size_t n)
{
    qsort(procs, n, sizeof *procs, proc_cmp);
    size_t cap = 64, len = 0;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    s[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        char item[PMIX_MAX_NSLEN + 32];
        int k;
        if (procs[i].rank == PMIX_RANK_WILDCARD)
            k = snprintf(item, sizeof item, "%s%s:*", i ? "," : "", procs[i].nspace);
        else
            k = snprintf(item, sizeof item, "%s%s:%u", i ? "," : "", procs[i].nspace, procs[i].rank);
        if (len + (size_t)k + 1 > cap) {
            cap = (len + (size_t)k + 1) * 2;
            char *ns = realloc(s, cap);
            if (!ns) {
                free(s);
                return NULL;
            }
            s = ns;
        }
        memcpy(s + len, item, (size_t)k + 1);
        len += (size_t)k;
    }
    return s;
}

static void fence_req_free(struct fence_req *f)
{
    free(f->sig);
    free(f->data);
    free(f->result);
    free(f);
}

static void fence_release_fn(void *cbdata)
{
    /* PMIx calls this (on its thread) when done with the result */
    fence_req_free(cbdata);
}

void fence_submit(const pmix_proc_t *procs_in, size_t nprocs, bool collect, char *data, size_t ndata,
                  pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    pmix_proc_t *procs = malloc((nprocs ? nprocs : 1) * sizeof *procs);
    struct fence_req *f = calloc(1, sizeof *f);
    if (!procs || !f || !tided.hub) {
        free(procs);
        free(f);
        free(data);
        if (cbfunc)
            cbfunc(PMIX_ERR_UNREACH, NULL, 0, cbdata, NULL, NULL);
        return;
    }
    memcpy(procs, procs_in, nprocs * sizeof *procs);
    f->sig = fence_signature(procs, nprocs);
    f->data = data;
    f->cbfunc = cbfunc;
    f->cbdata = cbdata;
    struct fence_req **tail = &fences;
    while (*tail)
        tail = &(*tail)->next;
    *tail = f;
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_FENCE);
    tide_wire_put_str(&w, f->sig);
    tide_wire_put_u32(&w, (uint32_t)nprocs);
    for (size_t i = 0; i < nprocs; i++) {
        tide_wire_put_str(&w, procs[i].nspace);
        tide_wire_put_u32(&w, procs[i].rank);
    }
    tide_wire_put_u8(&w, collect);
    tide_wire_put_bytes(&w, data, ndata);
    hub_send(&w);
    TIDE_DEBUG(3, "fence %s: contributed %zu bytes", f->sig, ndata);
    free(procs);
}

void fence_release(const struct tide_ctl_msg *m)
{
    const char *sig = m->text;
    int status = m->status;
    size_t n = m->len;
    const void *data = m->data;
    struct fence_req **pp = &fences;
    while (*pp && strcmp((*pp)->sig, sig) != 0)
        pp = &(*pp)->next;
    struct fence_req *f = *pp;
    if (!f) {
        tide_error("fence release for unknown fence %s", sig);
        return;
    }
    *pp = f->next;
    f->result = malloc(n ? n : 1);
    if (f->result && n)
        memcpy(f->result, data, n);
    TIDE_DEBUG(3, "fence %s released (%zu bytes)", f->sig, n);
    f->cbfunc(status == 0 ? PMIX_SUCCESS : PMIX_ERROR, f->result, f->result ? n : 0, f->cbdata,
              fence_release_fn, f);
}

void fence_fail_all(void)
{
    while (fences) {
        struct fence_req *f = fences;
        fences = f->next;
        f->cbfunc(PMIX_ERR_UNREACH, NULL, 0, f->cbdata, NULL, NULL);
        fence_req_free(f);
    }
}

/* ---- direct modex ---- */

struct dmodex_req {
    uint32_t id;
    pmix_modex_cbfunc_t cbfunc;
    void *cbdata;
    char *result;
    struct dmodex_req *next;
};

static struct dmodex_req *dmodex_pending;
static uint32_t dmodex_next_id = 1;

void dmodex_submit(const pmix_proc_t *proc, pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    struct dmodex_req *d = calloc(1, sizeof *d);
    if (!d || !tided.hub) {
        free(d);
        cbfunc(PMIX_ERR_NOT_FOUND, NULL, 0, cbdata, NULL, NULL);
        return;
    }
    d->id = dmodex_next_id++;
    d->cbfunc = cbfunc;
    d->cbdata = cbdata;
    d->next = dmodex_pending;
    dmodex_pending = d;
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_DMODEX_REQ);
    tide_wire_put_u32(&w, d->id);
    tide_wire_put_u32(&w, (uint32_t)tided.node);
    tide_wire_put_str(&w, proc->nspace);
    tide_wire_put_u32(&w, proc->rank);
    hub_send(&w);
    TIDE_DEBUG(3, "direct modex %u for %s:%u sent", d->id, proc->nspace, proc->rank);
}

static void dmodex_release_fn(void *cbdata)
{
    struct dmodex_req *d = cbdata;
    free(d->result);
    free(d);
}

void dmodex_answer(const struct tide_ctl_msg *m)
{
    uint32_t id = m->id; /* m->node: us */
    int status = m->status;
    size_t n = m->len;
    const void *data = m->data;
    struct dmodex_req **pp = &dmodex_pending;
    while (*pp && (*pp)->id != id)
        pp = &(*pp)->next;
    struct dmodex_req *d = *pp;
    if (!d)
        return;
    *pp = d->next;
    if (status != 0) {
        d->cbfunc(PMIX_ERR_NOT_FOUND, NULL, 0, d->cbdata, NULL, NULL);
        free(d);
        return;
    }
    d->result = malloc(n ? n : 1);
    if (d->result && n)
        memcpy(d->result, data, n);
    d->cbfunc(PMIX_SUCCESS, d->result, n, d->cbdata, dmodex_release_fn, d);
}

/* Serving a request from another daemon: ask our PMIx server. Its answer
 * arrives on PMIx's thread and is sent from the main loop. */
struct serve_ctx {
    struct tide_task base;
    uint32_t id, from_node;
    int status;
    char *data;
    size_t ndata;
};

static void serve_reply_run(struct tide_task *t)
{
    struct serve_ctx *c = (struct serve_ctx *)t;
    if (tided.hub) {
        struct tide_wbuf w;
        tide_wire_begin(&w, TIDE_CTL_DMODEX_RESP);
        tide_wire_put_u32(&w, c->id);
        tide_wire_put_u32(&w, c->from_node);
        tide_wire_put_i32(&w, c->status);
        tide_wire_put_bytes(&w, c->data, c->ndata);
        hub_send(&w);
    }
    free(c->data);
    free(c);
}

static void serve_cb(pmix_status_t status, char *data, size_t ndata, void *cbdata)
{
    struct serve_ctx *c = cbdata;
    c->status = status == PMIX_SUCCESS ? 0 : -1;
    if (status == PMIX_SUCCESS && ndata) {
        c->data = malloc(ndata);
        if (c->data)
            memcpy(c->data, data, ndata);
        c->ndata = c->data ? ndata : 0;
    }
    c->base.run = serve_reply_run;
    tide_taskq_push(&c->base);
}

void dmodex_serve(const struct tide_ctl_msg *m)
{
    const char *ns = m->text;
    if (strlen(ns) > PMIX_MAX_NSLEN)
        return;
    struct serve_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return;
    c->id = m->id;
    c->from_node = m->node;
    pmix_proc_t proc;
    PMIX_PROC_LOAD(&proc, ns, m->rank);
    pmix_status_t rc = PMIx_server_dmodex_request(&proc, serve_cb, c);
    if (rc != PMIX_SUCCESS) {
        c->status = -1;
        serve_reply_run(&c->base);
    }
}
