/*
 * names.c: published names (MPI_Publish_name and friends from every job
 * this mpiexec started, relayed by the daemons).
 *
 * Names live in two places. The universe's own table holds the names this
 * mpiexec's jobs published: it answers their lookups at once and keeps
 * working when no name service can be reached. The name service
 * (tide-nameserver: by default the per-user service, started on first
 * use; or the server given by --nameserver / the "nameserver" parameter;
 * "none" turns it off) shares the names with every other mpiexec, so
 * separately started jobs find each other. Each name is published there
 * with the owner "NSPACE/RANK" of the process that published it, a label:
 * what makes it ours is the credential the server returns, which the name
 * service client (common/nsclient.c) keeps in this process's memory only.
 * Only the process that published a name can unpublish it (checked here
 * against the universe's table, then proved to the server with the
 * credential), and the names of a job go when the job ends (their
 * credentials are presented, not the job's nspace).
 *
 * A lookup can wait for a name to appear (PMIX_WAIT, with an optional
 * PMIX_TIMEOUT). When the service fails, mpiexec says so once and carries
 * on with its own table.
 */
#include "mpiexec.h"
#include "channel.h"
#include "ctlmsg.h"
#include "log.h"
#include "nsclient.h"
#include "params.h"

#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_MAX_LEN 1024
#define SERVICE_WAIT_CHUNK_MS 60000u /* a waiting lookup asks the service again this often */
#define DRAIN_TIMEOUT_S 3

struct name {
    char *service, *port, *nspace;
    uint32_t rank;
    struct name *next;
};

enum op_kind { OP_PUBLISH, OP_LOOKUP, OP_UNPUBLISH };

/* per-name state of a request */
enum item_state { IT_OPEN, IT_ASKING, IT_WAITING_HERE, IT_DONE };

struct item {
    char *service;
    char *port;      /* publish: given; lookup: found */
    char *owner_ns;  /* lookup: who published it ("" if only the service knows) */
    uint32_t owner_rank;
    int state;
    int status;      /* TIDE_NAME_* */
    bool at_service; /* publish: the service holds it for us */
};

struct name_op {
    enum op_kind kind;
    struct mdaemon *d; /* NULL once the daemon is gone */
    uint32_t reqid;
    char *nspace;
    uint32_t rank;
    uint32_t n;
    struct item *items;
    int asking;          /* service requests out */
    uint32_t wait_ms;    /* lookup: 0 none, UINT32_MAX for ever */
    struct event *timer; /* lookup: end of the wait */
    bool expired;
    bool finished;       /* answered; freed when the last service answer is in */
    struct name_op *next;
};

struct ask {
    struct name_op *op;
    uint32_t idx;
};

static struct name *names;
static struct name_op *ops;

/* ---- the universe's table ---- */

static struct name *find(const char *service)
{
    for (struct name *n = names; n; n = n->next)
        if (strcmp(n->service, service) == 0)
            return n;
    return NULL;
}

static void name_free(struct name *nm)
{
    free(nm->service);
    free(nm->port);
    free(nm->nspace);
    free(nm);
}

static void remove_name(const char *service)
{
    for (struct name **pp = &names; *pp; pp = &(*pp)->next)
        if (strcmp((*pp)->service, service) == 0) {
            struct name *nm = *pp;
            *pp = nm->next;
            name_free(nm);
            return;
        }
}

/* ---- the name service ---- */

static struct tide_ns_client *ns_client;
static int ns_state; /* 0 not opened yet, 1 in use, -1 off */
static bool ns_warned;
static int ns_pending;
static void (*drained_fn)(void);
static struct event *drain_timer;
static bool drain_started;

static struct tide_ns_client *service(void)
{
    if (ns_state == 0) {
        const char *uri = tide_config_get("nameserver");
        if (uri && (strcmp(uri, "none") == 0 || strcmp(uri, "off") == 0)) {
            ns_state = -1;
        } else {
            struct tide_ns_opts o;
            memset(&o, 0, sizeof o);
            o.timeout_ms = (int)tide_config_int("nameserver_timeout_ms");
            const char *sf = tide_config_get("nameserver_secret_file");
            o.secret_file = sf && *sf ? sf : NULL;
            o.idle_exit = (int)tide_config_int("nameserver_idle_exit");
            char err[512];
            ns_client = tide_ns_open(mx.base, uri, NULL, &o, err, sizeof err);
            if (!ns_client) {
                tide_error("cannot use the name server (%s): published names stay within this mpiexec", err);
                ns_state = -1;
            } else {
                ns_state = 1;
            }
        }
    }
    return ns_state == 1 ? ns_client : NULL;
}

static bool ns_failure(const struct tide_ns_result *r)
{
    if (r->status < TIDE_NS_TIMEOUT && r->status != TIDE_NS_INTERNAL && r->status != TIDE_NS_FULL &&
        r->status != TIDE_NS_AUTH && r->status != TIDE_NS_VERSION)
        return false;
    if (!ns_warned) {
        ns_warned = true;
        tide_error("the name service failed (%s): names are shared within this mpiexec only until it is back",
                  r->message);
    }
    return true;
}

static int status_from_ns(int st)
{
    switch (st) {
    case TIDE_NS_OK: return TIDE_NAME_OK;
    case TIDE_NS_NOT_FOUND: return TIDE_NAME_NOT_FOUND;
    case TIDE_NS_DUPLICATE: return TIDE_NAME_DUPLICATE;
    case TIDE_NS_NOT_OWNER: return TIDE_NAME_NOT_OWNER;
    case TIDE_NS_TOO_LONG:
    case TIDE_NS_BAD_REQUEST: return TIDE_NAME_BAD;
    default: return TIDE_NAME_UNREACHABLE;
    }
}

static void ns_done(void)
{
    if (--ns_pending == 0 && drained_fn) {
        void (*fn)(void) = drained_fn;
        drained_fn = NULL;
        fn();
    }
}

/* a request whose answer does not matter (clean-up) */
static void ignore_cb(const struct tide_ns_result *r, void *arg)
{
    (void)arg;
    (void)ns_failure(r);
    ns_done();
}

static void owner_of(const char *nspace, uint32_t rank, char *out, size_t len)
{
    snprintf(out, len, "%s/%u", nspace, rank);
}

/* ---- replies ---- */

static void reply_status(struct mdaemon *d, uint32_t reqid, int status)
{
    if (!daemon_up(d))
        return;
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_NAME_RESULT);
    tide_wire_put_u32(&w, reqid);
    tide_wire_put_i32(&w, status);
    tide_wire_put_u32(&w, 0);
    daemon_send(d, &w);
}

static void reply_found(struct name_op *op)
{
    if (!daemon_up(op->d))
        return;
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_NAME_RESULT);
    tide_wire_put_u32(&w, op->reqid);
    tide_wire_put_i32(&w, TIDE_NAME_OK);
    tide_wire_put_u32(&w, op->n);
    for (uint32_t i = 0; i < op->n; i++) {
        tide_wire_put_str(&w, op->items[i].service);
        tide_wire_put_str(&w, op->items[i].port);
        tide_wire_put_str(&w, op->items[i].owner_ns ? op->items[i].owner_ns : "");
        tide_wire_put_u32(&w, op->items[i].owner_rank);
    }
    daemon_send(op->d, &w);
}

/* ---- requests ---- */

static struct name_op *op_new(enum op_kind kind, struct mdaemon *d, uint32_t reqid, char *nspace,
                              uint32_t rank, uint32_t n)
{
    struct name_op *op = calloc(1, sizeof *op);
    if (!op)
        return NULL;
    op->items = calloc(n ? n : 1, sizeof *op->items);
    if (!op->items) {
        free(op);
        return NULL;
    }
    op->kind = kind;
    op->d = d;
    op->reqid = reqid;
    op->nspace = nspace;
    op->rank = rank;
    op->n = n;
    op->next = ops;
    ops = op;
    return op;
}

static void op_free(struct name_op *op)
{
    for (struct name_op **pp = &ops; *pp; pp = &(*pp)->next)
        if (*pp == op) {
            *pp = op->next;
            break;
        }
    for (uint32_t i = 0; i < op->n; i++) {
        free(op->items[i].service);
        free(op->items[i].port);
        free(op->items[i].owner_ns);
    }
    if (op->timer)
        event_free(op->timer);
    free(op->items);
    free(op->nspace);
    free(op);
}

static bool valid(const char *s)
{
    return s && *s && strlen(s) < NAME_MAX_LEN;
}

/* A request's op once its header (read by the caller) holds up; else
 * the request is answered as malformed (ns freed) and NULL returned. */
static struct name_op *begin_op(struct mdaemon *d, struct tide_rbuf *r, enum op_kind kind, uint32_t reqid,
                                char *ns, uint32_t rank, uint32_t n)
{
    struct name_op *op = NULL;
    if (ns && tide_wire_ok(r) && n > 0 && n <= 1024)
        op = op_new(kind, d, reqid, ns, rank, n);
    if (!op) {
        free(ns);
        reply_status(d, reqid, TIDE_NAME_BAD);
    }
    return op;
}

/* begin_op, then the request's n service names (the rest of it). */
static struct name_op *services_op(struct mdaemon *d, struct tide_rbuf *r, enum op_kind kind, uint32_t reqid,
                                   char *ns, uint32_t rank, uint32_t n)
{
    struct name_op *op = begin_op(d, r, kind, reqid, ns, rank, n);
    if (!op)
        return NULL;
    bool ok = true;
    for (uint32_t i = 0; i < n; i++) {
        op->items[i].service = tide_wire_get_str(r);
        ok = ok && valid(op->items[i].service);
    }
    if (!ok || !tide_wire_done(r)) {
        reply_status(d, reqid, TIDE_NAME_BAD);
        op_free(op);
        return NULL;
    }
    return op;
}

static struct ask *ask_new(struct name_op *op, uint32_t idx)
{
    struct ask *a = malloc(sizeof *a);
    if (a) {
        a->op = op;
        a->idx = idx;
        op->asking++;
        ns_pending++;
    }
    return a;
}

/* ---- publish ---- */

static void publish_finish(struct name_op *op)
{
    int status = TIDE_NAME_OK;
    for (uint32_t i = 0; i < op->n; i++)
        if (op->items[i].status != TIDE_NAME_OK && status == TIDE_NAME_OK)
            status = op->items[i].status;
    /* published here meanwhile (while the service could not say) */
    for (uint32_t i = 0; i < op->n && status == TIDE_NAME_OK; i++)
        if (find(op->items[i].service))
            status = TIDE_NAME_DUPLICATE;
    struct tide_ns_client *c = service();
    char owner[TIDE_NS_MAX_OWNER + 1];
    owner_of(op->nspace, op->rank, owner, sizeof owner);
    for (uint32_t i = 0; i < op->n; i++) {
        struct item *it = &op->items[i];
        if (status != TIDE_NAME_OK) {
            /* all or nothing: take back what the service took */
            if (it->at_service && c && tide_ns_unpublish(c, it->service, owner, ignore_cb, NULL) == 0)
                ns_pending++;
            continue;
        }
        struct name *nm = calloc(1, sizeof *nm);
        if (!nm)
            continue;
        nm->service = it->service;
        nm->port = it->port;
        nm->nspace = strdup(op->nspace);
        nm->rank = op->rank;
        it->service = it->port = NULL;
        nm->next = names;
        names = nm;
        TIDE_DEBUG(1, "name '%s' published by %s:%u", nm->service, op->nspace, op->rank);
    }
    reply_status(op->d, op->reqid, status);
    op_free(op);
    if (status == TIDE_NAME_OK)
        names_wake_waiters();
}

static void publish_cb(const struct tide_ns_result *r, void *arg)
{
    struct ask *a = arg;
    struct name_op *op = a->op;
    struct item *it = &op->items[a->idx];
    free(a);
    if (!ns_failure(r)) {
        it->status = status_from_ns(r->status);
        it->at_service = r->status == TIDE_NS_OK;
    } /* else: kept here only, as if there were no service */
    it->state = IT_DONE;
    if (--op->asking == 0)
        publish_finish(op);
    ns_done();
}

void names_on_publish(struct mdaemon *d, struct tide_rbuf *r)
{
    uint32_t reqid = tide_wire_get_u32(r);
    char *ns = tide_wire_get_str(r);
    uint32_t rank = tide_wire_get_u32(r);
    uint32_t n = tide_wire_get_u32(r);
    struct name_op *op = begin_op(d, r, OP_PUBLISH, reqid, ns, rank, n);
    if (!op)
        return;
    int status = TIDE_NAME_OK;
    for (uint32_t i = 0; i < n; i++) {
        struct item *it = &op->items[i];
        it->service = tide_wire_get_str(r);
        it->port = tide_wire_get_str(r);
        if (!valid(it->service) || !valid(it->port))
            status = TIDE_NAME_BAD;
        else if (find(it->service))
            status = status ? status : TIDE_NAME_DUPLICATE;
        for (uint32_t j = 0; j < i && status == TIDE_NAME_OK; j++)
            if (strcmp(op->items[j].service, it->service) == 0)
                status = TIDE_NAME_DUPLICATE;
    }
    if (!tide_wire_done(r))
        status = TIDE_NAME_BAD;
    struct tide_ns_client *c = status == TIDE_NAME_OK ? service() : NULL;
    if (!c) {
        for (uint32_t i = 0; i < n; i++)
            op->items[i].status = status;
        publish_finish(op);
        return;
    }
    char owner[TIDE_NS_MAX_OWNER + 1];
    owner_of(ns, rank, owner, sizeof owner);
    /* count them all before any answer can come (answers never come
     * inside the call, but keep the count honest anyway) */
    op->asking++;
    for (uint32_t i = 0; i < n; i++) {
        struct item *it = &op->items[i];
        it->state = IT_ASKING;
        struct ask *a = ask_new(op, i);
        if (!a || tide_ns_publish(c, it->service, it->port, owner, publish_cb, a) != 0) {
            if (a) {
                op->asking--;
                ns_pending--;
                free(a);
            }
            it->state = IT_DONE; /* kept here only */
        }
    }
    if (--op->asking == 0)
        publish_finish(op);
}

/* ---- lookup ---- */

static bool lookup_settled(struct name_op *op)
{
    for (uint32_t i = 0; i < op->n; i++)
        if (op->items[i].state != IT_DONE)
            return false;
    return true;
}

static void lookup_finish(struct name_op *op)
{
    bool all = true;
    for (uint32_t i = 0; i < op->n; i++)
        if (op->items[i].state != IT_DONE || op->items[i].status != TIDE_NAME_OK)
            all = false;
    if (all)
        reply_found(op);
    else
        reply_status(op->d, op->reqid, TIDE_NAME_NOT_FOUND);
    /* service answers still to come keep the request until they are in */
    op->finished = true;
    if (op->timer)
        evtimer_del(op->timer);
    if (op->asking == 0)
        op_free(op);
}

static void lookup_check(struct name_op *op)
{
    if (!op->finished && lookup_settled(op))
        lookup_finish(op);
}

static void found_here(struct item *it, const struct name *nm)
{
    free(it->port);
    free(it->owner_ns);
    it->port = strdup(nm->port);
    it->owner_ns = strdup(nm->nspace);
    it->owner_rank = nm->rank;
    it->status = it->port && it->owner_ns ? TIDE_NAME_OK : TIDE_NAME_NOT_FOUND;
    it->state = IT_DONE;
}

static void lookup_ask(struct name_op *op, uint32_t i);

static void lookup_cb(const struct tide_ns_result *r, void *arg)
{
    struct ask *a = arg;
    struct name_op *op = a->op;
    struct item *it = &op->items[a->idx];
    uint32_t idx = a->idx;
    free(a);
    op->asking--;
    if (op->finished) {
        if (op->asking == 0)
            op_free(op);
        ns_done();
        return;
    }
    struct name *nm = find(it->service);
    if (it->state != IT_ASKING) {
        /* answered here meanwhile */
    } else if (nm) {
        found_here(it, nm);
    } else if (ns_failure(r)) {
        if (op->wait_ms && !op->expired) {
            it->state = IT_WAITING_HERE;
        } else {
            it->state = IT_DONE;
            it->status = TIDE_NAME_NOT_FOUND;
        }
    } else if (r->status == TIDE_NS_OK && r->value) {
        free(it->port);
        it->port = strdup(r->value);
        it->owner_ns = strdup("");
        it->status = it->port ? TIDE_NAME_OK : TIDE_NAME_NOT_FOUND;
        it->state = IT_DONE;
    } else if (op->wait_ms == UINT32_MAX && r->status == TIDE_NS_NOT_FOUND && op->d && !op->expired) {
        it->state = IT_OPEN;
        lookup_ask(op, idx); /* waiting for ever: ask again */
    } else {
        it->state = IT_DONE;
        it->status = TIDE_NAME_NOT_FOUND;
    }
    ns_done();
    lookup_check(op);
}

static void lookup_ask(struct name_op *op, uint32_t i)
{
    struct item *it = &op->items[i];
    struct tide_ns_client *c = service();
    uint32_t wait = op->wait_ms > SERVICE_WAIT_CHUNK_MS ? SERVICE_WAIT_CHUNK_MS : op->wait_ms;
    struct ask *a = c ? ask_new(op, i) : NULL;
    if (a) {
        it->state = IT_ASKING;
        if (tide_ns_lookup(c, it->service, wait, lookup_cb, a) == 0)
            return;
        op->asking--;
        ns_pending--;
        free(a);
    }
    if (op->wait_ms) {
        it->state = IT_WAITING_HERE;
    } else {
        it->state = IT_DONE;
        it->status = TIDE_NAME_NOT_FOUND;
    }
}

static void lookup_timeout_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct name_op *op = arg;
    op->expired = true;
    for (uint32_t i = 0; i < op->n; i++)
        if (op->items[i].state != IT_DONE) {
            op->items[i].state = IT_DONE;
            op->items[i].status = TIDE_NAME_NOT_FOUND;
        }
    lookup_check(op);
}

void names_on_lookup(struct mdaemon *d, struct tide_rbuf *r)
{
    uint32_t reqid = tide_wire_get_u32(r);
    char *ns = tide_wire_get_str(r);
    uint32_t rank = tide_wire_get_u32(r);
    uint32_t wait_ms = tide_wire_get_u32(r);
    uint32_t n = tide_wire_get_u32(r);
    struct name_op *op = services_op(d, r, OP_LOOKUP, reqid, ns, rank, n);
    if (!op)
        return;
    op->wait_ms = wait_ms;
    op->asking++;
    for (uint32_t i = 0; i < n; i++) {
        struct name *nm = find(op->items[i].service);
        if (nm)
            found_here(&op->items[i], nm);
        else
            lookup_ask(op, i);
    }
    op->asking--;
    TIDE_DEBUG(2, "lookup of '%s'%s%s", op->items[0].service, n > 1 ? " (and more)" : "",
               wait_ms ? " (waiting)" : "");
    if (wait_ms && wait_ms != UINT32_MAX && !lookup_settled(op)) {
        op->timer = evtimer_new(mx.base, lookup_timeout_cb, op);
        struct timeval tv = {wait_ms / 1000, (wait_ms % 1000) * 1000};
        if (op->timer)
            evtimer_add(op->timer, &tv);
    }
    lookup_check(op);
}

void names_wake_waiters(void)
{
    for (struct name_op *op = ops, *next; op; op = next) {
        next = op->next;
        if (op->kind != OP_LOOKUP || op->finished)
            continue;
        bool changed = false;
        for (uint32_t i = 0; i < op->n; i++) {
            struct item *it = &op->items[i];
            struct name *nm = it->state != IT_DONE ? find(it->service) : NULL;
            if (nm) {
                found_here(it, nm); /* a service answer still out is ignored */
                changed = true;
            }
        }
        if (changed)
            lookup_check(op);
    }
}

/* ---- unpublish ---- */

static void unpublish_finish(struct name_op *op)
{
    int status = TIDE_NAME_OK;
    for (uint32_t i = 0; i < op->n; i++)
        if (op->items[i].status != TIDE_NAME_OK && status == TIDE_NAME_OK)
            status = op->items[i].status;
    reply_status(op->d, op->reqid, status);
    op_free(op);
}

static void unpublish_cb(const struct tide_ns_result *r, void *arg)
{
    struct ask *a = arg;
    struct name_op *op = a->op;
    struct item *it = &op->items[a->idx];
    free(a);
    it->status = ns_failure(r) ? TIDE_NAME_NOT_FOUND : status_from_ns(r->status);
    it->state = IT_DONE;
    if (--op->asking == 0)
        unpublish_finish(op);
    ns_done();
}

void names_on_unpublish(struct mdaemon *d, struct tide_rbuf *r)
{
    uint32_t reqid = tide_wire_get_u32(r);
    char *ns = tide_wire_get_str(r);
    uint32_t rank = tide_wire_get_u32(r);
    uint32_t n = tide_wire_get_u32(r);
    struct name_op *op = services_op(d, r, OP_UNPUBLISH, reqid, ns, rank, n);
    if (!op)
        return;
    /* the names known here must all be ours before any goes */
    for (uint32_t i = 0; i < n; i++) {
        struct name *nm = find(op->items[i].service);
        if (nm && (strcmp(nm->nspace, ns) != 0 || nm->rank != rank)) {
            reply_status(d, reqid, TIDE_NAME_NOT_OWNER);
            op_free(op);
            return;
        }
    }
    struct tide_ns_client *c = service();
    char owner[TIDE_NS_MAX_OWNER + 1];
    owner_of(ns, rank, owner, sizeof owner);
    op->asking++;
    for (uint32_t i = 0; i < n; i++) {
        struct item *it = &op->items[i];
        if (find(it->service)) {
            remove_name(it->service);
            it->status = TIDE_NAME_OK;
            it->state = IT_DONE;
            if (c && tide_ns_unpublish(c, it->service, owner, ignore_cb, NULL) == 0)
                ns_pending++;
            continue;
        }
        /* not published through this mpiexec: perhaps the service has it */
        struct ask *a = c ? ask_new(op, i) : NULL;
        if (a && tide_ns_unpublish(c, it->service, owner, unpublish_cb, a) == 0)
            continue;
        if (a) {
            op->asking--;
            ns_pending--;
            free(a);
        }
        it->status = TIDE_NAME_NOT_FOUND;
        it->state = IT_DONE;
    }
    if (--op->asking == 0)
        unpublish_finish(op);
}

/* ---- the end of jobs, daemons and mpiexec ---- */

void names_job_ended(const char *nspace)
{
    bool had = false;
    for (struct name **pp = &names; *pp;) {
        struct name *nm = *pp;
        if (strcmp(nm->nspace, nspace) == 0) {
            *pp = nm->next;
            name_free(nm);
            had = true;
        } else {
            pp = &nm->next;
        }
    }
    /* lookups the job's processes were waiting on: nobody to answer */
    for (struct name_op *op = ops, *next; op; op = next) {
        next = op->next;
        if (op->kind == OP_LOOKUP && !op->finished && strcmp(op->nspace, nspace) == 0) {
            op->d = NULL;
            lookup_timeout_cb(-1, 0, op);
        }
    }
    /* the service has the names that were published through us */
    if (had && ns_state == 1 && tide_ns_unpublish_owner(ns_client, nspace, ignore_cb, NULL) == 0)
        ns_pending++;
}

void names_daemon_lost(struct mdaemon *d)
{
    for (struct name_op *op = ops, *next; op; op = next) {
        next = op->next;
        if (op->d != d)
            continue;
        op->d = NULL;
        /* nobody to answer: a waiting lookup ends now */
        if (op->kind == OP_LOOKUP && !op->finished)
            lookup_timeout_cb(-1, 0, op);
    }
}

static void drain_timeout_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    (void)arg;
    void (*fn)(void) = drained_fn;
    drained_fn = NULL;
    if (fn)
        fn();
}

bool names_drain_then(void (*fn)(void))
{
    if (ns_pending <= 0 || drain_started)
        return false;
    drain_started = true;
    drained_fn = fn;
    drain_timer = evtimer_new(mx.base, drain_timeout_cb, NULL);
    struct timeval tv = {DRAIN_TIMEOUT_S, 0};
    if (drain_timer)
        evtimer_add(drain_timer, &tv);
    return true;
}
