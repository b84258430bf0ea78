/*
 * fence.c: PMIx fences and direct-modex requests that span daemons.
 * Fences gather up the tree of daemons: each daemon waits for its own
 * ranks' part (if it hosts participants) and for each child whose subtree
 * does, and sends one message up with the nodes it covers; mpiexec waits
 * until every participating node is covered and sends the concatenated
 * data back down the same paths (each server's blob is a sequence of
 * packed byte objects, so concatenation is what the PMIx server expects
 * back). A direct-modex request for a proc on another node goes through
 * mpiexec to that node's daemon, which asks its PMIx server and sends
 * the data back the same way.
 */
#include "tided.h"
#include "channel.h"
#include "ctlframe.h"
#include "ctlmsg.h"
#include "log.h"
#include "taskq.h"

#include <stdlib.h>
#include <string.h>

/* One fence as this daemon sees it: what it waits for from its own
 * ranks and from each child of the tree, what it gathered, and (once sent
 * up) the release it waits for. */
struct fence_req {
    char *sig;
    pmix_proc_t *procs; /* the participants, sorted */
    size_t nprocs;
    bool collect;
    bool local_expected, local_in;
    int nkids;
    bool *kid_expected, *kid_in; /* per child of ours (relay.c order) */
    uint8_t *data;               /* what we gathered so far */
    size_t len, cap;
    uint32_t *covered;           /* the nodes whose contributions it holds */
    size_t ncovered, capcov;
    bool sent;
    int status;
    pmix_modex_cbfunc_t cbfunc; /* our ranks' fence, if local_in */
    void *cbdata;
    char *result;
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
    free(f->procs);
    free(f->kid_expected);
    free(f->kid_in);
    free(f->data);
    free(f->covered);
    free(f->result);
    free(f);
}

static void fence_append(struct fence_req *f, const void *data, size_t n, const uint32_t *nodes, size_t nn)
{
    if (f->len + n > f->cap) {
        size_t cap = (f->len + n) * 2;
        uint8_t *d = realloc(f->data, cap);
        if (!d) {
            f->status = -1;
            return;
        }
        f->data = d;
        f->cap = cap;
    }
    if (n)
        memcpy(f->data + f->len, data, n);
    f->len += n;
    if (f->ncovered + nn > f->capcov) {
        size_t cap = (f->ncovered + nn) * 2;
        uint32_t *c = realloc(f->covered, cap * sizeof *c);
        if (!c) {
            f->status = -1;
            return;
        }
        f->covered = c;
        f->capcov = cap;
    }
    memcpy(f->covered + f->ncovered, nodes, nn * sizeof *nodes);
    f->ncovered += nn;
}

/* Which of this daemon and its children have participants below them:
 * from the job table (every daemon knows every job of its mpiexec). A
 * rank reported failed (recovery mode) and a lost child's subtree take no
 * part. -1 if a participant is not known here. */
static int fence_plan_into(const struct fence_req *f, bool *local, bool *kids)
{
    for (size_t i = 0; i < f->nprocs; i++) {
        struct djob *job = djob_find(f->procs[i].nspace);
        if (!job)
            return -1;
        int lo = 0, hi = job->desc.nprocs;
        if (f->procs[i].rank != PMIX_RANK_WILDCARD) {
            if (f->procs[i].rank >= (pmix_rank_t)job->desc.nprocs)
                return -1;
            lo = (int)f->procs[i].rank;
            hi = lo + 1;
        }
        for (int r = lo; r < hi; r++) {
            if (job->failed && job->failed[r])
                continue;
            int node = job->desc.rank_node[r];
            if (node == tided.node) {
                *local = true;
                continue;
            }
            int k = relay_kid_toward(node);
            if (k >= 0 && k < f->nkids && !relay_kid_lost(k))
                kids[k] = true;
        }
    }
    return 0;
}

static int fence_plan(struct fence_req *f)
{
    int nkids = relay_nkids();
    f->kid_expected = calloc((size_t)(nkids ? nkids : 1), sizeof(bool));
    f->kid_in = calloc((size_t)(nkids ? nkids : 1), sizeof(bool));
    if (!f->kid_expected || !f->kid_in)
        return -1;
    f->nkids = nkids;
    return fence_plan_into(f, &f->local_expected, f->kid_expected);
}

/* Are all the participants' jobs in recovery mode? (a lost part then
 * does not fail the fence: it goes on with the survivors, as libpmix's
 * own does on one node) */
static bool fence_recovers(const struct fence_req *f)
{
    for (size_t i = 0; i < f->nprocs; i++) {
        struct djob *job = djob_find(f->procs[i].nspace);
        if (!job || !(job->desc.flags & TIDE_JOB_RECOVERY))
            return false;
    }
    return f->nprocs > 0;
}

/* The oldest fence of this participant set that has not had the part
 * we are adding (local: our ranks'; else child kid's); made if none. */
static struct fence_req *fence_for(pmix_proc_t *procs, size_t nprocs, bool collect, int kid)
{
    char *sig = fence_signature(procs, nprocs);
    if (!sig)
        return NULL;
    struct fence_req **pp = &fences;
    for (; *pp; pp = &(*pp)->next) {
        struct fence_req *f = *pp;
        if (f->sent || strcmp(f->sig, sig) != 0)
            continue;
        if (kid < 0 ? !f->local_in : (kid < f->nkids && !f->kid_in[kid])) {
            free(sig);
            return f;
        }
    }
    struct fence_req *f = calloc(1, sizeof *f);
    if (!f) {
        free(sig);
        return NULL;
    }
    f->sig = sig;
    f->collect = collect;
    f->procs = malloc((nprocs ? nprocs : 1) * sizeof *procs);
    if (f->procs)
        memcpy(f->procs, procs, nprocs * sizeof *procs);
    f->nprocs = nprocs;
    if (!f->procs || fence_plan(f) != 0)
        f->status = -1;
    *pp = f;
    return f;
}

/* Send what was gathered to our parent once every expected part is in. */
static void fence_maybe_send(struct fence_req *f)
{
    if (f->sent || (f->local_expected && !f->local_in))
        return;
    for (int k = 0; k < f->nkids; k++)
        if (f->kid_expected[k] && !f->kid_in[k])
            return;
    f->sent = true;
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_FENCE);
    tide_wire_put_str(&w, f->sig);
    tide_wire_put_u32(&w, (uint32_t)f->nprocs);
    for (size_t i = 0; i < f->nprocs; i++) {
        tide_wire_put_str(&w, f->procs[i].nspace);
        tide_wire_put_u32(&w, f->procs[i].rank);
    }
    tide_wire_put_u8(&w, f->collect);
    tide_wire_put_bytes(&w, f->data, f->len);
    /* a fence that failed here says so by covering nothing of ours:
     * mpiexec then never sees it complete and releases it in error */
    tide_wire_put_u32(&w, f->status == 0 ? (uint32_t)f->ncovered : 1u);
    if (f->status == 0)
        for (size_t i = 0; i < f->ncovered; i++)
            tide_wire_put_u32(&w, f->covered[i]);
    else
        tide_wire_put_u32(&w, 0xffffffffu);
    hub_send(&w);
    TIDE_DEBUG(3, "fence %s: sent up %zu bytes of %zu nodes", f->sig, f->len, f->ncovered);
}

void fence_submit(const pmix_proc_t *procs_in, size_t nprocs, bool collect, char *data, size_t ndata,
                  pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    pmix_proc_t *procs = malloc((nprocs ? nprocs : 1) * sizeof *procs);
    struct fence_req *f = NULL;
    if (procs && tided.hub) {
        memcpy(procs, procs_in, nprocs * sizeof *procs);
        f = fence_for(procs, nprocs, collect, -1);
    }
    free(procs);
    if (!f || f->status != 0) {
        free(data);
        if (cbfunc)
            cbfunc(PMIX_ERR_UNREACH, NULL, 0, cbdata, NULL, NULL);
        if (f && f->status != 0) {
            /* our ranks have their answer; the others' parts still go up */
            f->local_expected = false;
            fence_maybe_send(f);
        }
        return;
    }
    f->local_in = true;
    f->local_expected = true;
    f->cbfunc = cbfunc;
    f->cbdata = cbdata;
    uint32_t me = (uint32_t)tided.node;
    fence_append(f, data, ndata, &me, 1);
    free(data);
    TIDE_DEBUG(3, "fence %s: our ranks contributed %zu bytes", f->sig, ndata);
    fence_maybe_send(f);
}

void fence_from_kid(int kid, const struct tide_ctl_msg *m)
{
    pmix_proc_t *procs = calloc(m->nprocs ? m->nprocs : 1, sizeof *procs);
    if (!procs)
        return;
    for (uint32_t i = 0; i < m->nprocs; i++) {
        if (strlen(m->procs[i].nspace) > PMIX_MAX_NSLEN) {
            free(procs);
            return;
        }
        PMIX_PROC_LOAD(&procs[i], m->procs[i].nspace, m->procs[i].rank);
    }
    struct fence_req *f = fence_for(procs, m->nprocs, m->collect, kid);
    free(procs);
    if (!f)
        return;
    if (kid >= f->nkids) {
        /* no plan here (a participant we do not know): the error goes up */
        struct tide_wbuf w;
        tide_wire_begin(&w, TIDE_CTL_FENCE_RELEASE);
        tide_wire_put_str(&w, m->text);
        tide_wire_put_i32(&w, -1);
        tide_wire_put_bytes(&w, NULL, 0);
        relay_send_kid(kid, &w);
        return;
    }
    f->kid_in[kid] = true;
    f->kid_expected[kid] = true;
    bool bad = false;
    for (uint32_t i = 0; i < m->ncovered; i++)
        bad |= relay_kid_toward((int)m->covered[i]) != kid;
    if (bad)
        f->status = -1;
    else
        fence_append(f, m->data, m->len, m->covered, m->ncovered);
    fence_maybe_send(f);
}

void fence_kid_lost(int kid)
{
    for (struct fence_req *f = fences; f; f = f->next)
        if (!f->sent && kid < f->nkids && f->kid_expected[kid] && !f->kid_in[kid]) {
            f->kid_expected[kid] = false;
            if (!fence_recovers(f))
                f->status = -1;
            fence_maybe_send(f);
        }
}

void fence_rank_failed(const char *nspace, int rank)
{
    struct djob *job = djob_find(nspace);
    if (!job || rank < 0 || rank >= job->desc.nprocs)
        return;
    if (!job->failed)
        job->failed = calloc((size_t)job->desc.nprocs, 1);
    if (!job->failed)
        return;
    job->failed[rank] = 1;
    /* the fences under way stop waiting for parts that can no longer come */
    for (struct fence_req *f = fences; f; f = f->next) {
        if (f->sent || f->status != 0)
            continue;
        bool local = false;
        bool *kids = calloc((size_t)(f->nkids ? f->nkids : 1), sizeof(bool));
        if (!kids || fence_plan_into(f, &local, kids) != 0) {
            free(kids);
            continue;
        }
        bool changed = false;
        if (f->local_expected && !f->local_in && !local) {
            f->local_expected = false;
            changed = true;
        }
        for (int k = 0; k < f->nkids; k++)
            if (f->kid_expected[k] && !f->kid_in[k] && !kids[k]) {
                f->kid_expected[k] = false;
                changed = true;
            }
        free(kids);
        if (changed) {
            TIDE_DEBUG(2, "fence %s goes on without the part of %s:%d (failed)", f->sig, nspace, rank);
            fence_maybe_send(f);
        }
    }
}

static void fence_release_fn(void *cbdata)
{
    /* PMIx calls this (on its thread) when done with the result */
    fence_req_free(cbdata);
}

void fence_release(const struct tide_ctl_msg *m)
{
    const char *sig = m->text;
    struct fence_req **pp = &fences;
    while (*pp && (!(*pp)->sent || strcmp((*pp)->sig, sig) != 0))
        pp = &(*pp)->next;
    struct fence_req *f = *pp;
    if (!f) {
        tide_error("fence release for unknown fence %s", sig);
        return;
    }
    *pp = f->next;
    /* down the paths the contributions came up */
    for (int k = 0; k < f->nkids; k++) {
        if (!f->kid_in[k])
            continue;
        struct tide_wbuf w;
        tide_wire_begin(&w, TIDE_CTL_FENCE_RELEASE);
        tide_wire_put_str(&w, sig);
        tide_wire_put_i32(&w, m->status);
        tide_wire_put_bytes(&w, m->data, m->len);
        relay_send_kid(k, &w);
    }
    TIDE_DEBUG(3, "fence %s released (%zu bytes)", f->sig, m->len);
    if (!f->local_in || !f->cbfunc) {
        fence_req_free(f);
        return;
    }
    size_t n = m->len;
    f->result = malloc(n ? n : 1);
    if (f->result && n)
        memcpy(f->result, m->data, n);
    f->cbfunc(m->status == 0 && f->result ? PMIX_SUCCESS : PMIX_ERROR, f->result, f->result ? n : 0, f->cbdata,
              fence_release_fn, f);
}

void fence_fail_all(void)
{
    while (fences) {
        struct fence_req *f = fences;
        fences = f->next;
        if (f->local_in && f->cbfunc)
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
