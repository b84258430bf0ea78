/*
 * names.c: the universe's published names (MPI_Publish_name and friends
 * from every job this mpiexec started, relayed by the daemons). A name is
 * owned by the process that published it: only it can unpublish it, and
 * the names of a job go away when the job ends. Lookups can wait for a
 * name to appear (PMIX_WAIT).
 */
#include "mpiexec.h"
#include "channel.h"
#include "ctlmsg.h"
#include "log.h"

#include <stdlib.h>
#include <string.h>

#define NAME_MAX_LEN 1024

struct name {
    char *service, *port, *nspace;
    uint32_t rank;
    struct name *next;
};

struct waiter {
    struct mdaemon *d;
    uint32_t reqid;
    char **services;
    uint32_t n;
    struct waiter *next;
};

static struct name *names;
static struct waiter *waiters;

static struct name *find(const char *service)
{
    for (struct name *n = names; n; n = n->next)
        if (strcmp(n->service, service) == 0)
            return n;
    return NULL;
}

static void reply_status(struct mdaemon *d, uint32_t reqid, int status)
{
    if (!d->ch)
        return;
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_NAME_RESULT);
    tide_wire_put_u32(&w, reqid);
    tide_wire_put_i32(&w, status);
    tide_wire_put_u32(&w, 0);
    tide_channel_send(d->ch, &w);
}

static void reply_found(struct mdaemon *d, uint32_t reqid, char **services, uint32_t n)
{
    if (!d->ch)
        return;
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_NAME_RESULT);
    tide_wire_put_u32(&w, reqid);
    tide_wire_put_i32(&w, TIDE_NAME_OK);
    tide_wire_put_u32(&w, n);
    for (uint32_t i = 0; i < n; i++) {
        struct name *nm = find(services[i]);
        tide_wire_put_str(&w, nm->service);
        tide_wire_put_str(&w, nm->port);
        tide_wire_put_str(&w, nm->nspace);
        tide_wire_put_u32(&w, nm->rank);
    }
    tide_channel_send(d->ch, &w);
}

static bool all_found(char **services, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (!find(services[i]))
            return false;
    return true;
}

static void free_strs(char **v, uint32_t n)
{
    for (uint32_t i = 0; v && i < n; i++)
        free(v[i]);
    free(v);
}

static void wake_waiters(void)
{
    for (struct waiter **pp = &waiters; *pp;) {
        struct waiter *w = *pp;
        if (all_found(w->services, w->n)) {
            reply_found(w->d, w->reqid, w->services, w->n);
            *pp = w->next;
            free_strs(w->services, w->n);
            free(w);
        } else {
            pp = &w->next;
        }
    }
}

static bool valid(const char *s)
{
    return s && *s && strlen(s) < NAME_MAX_LEN;
}

void names_on_publish(struct mdaemon *d, struct tide_rbuf *r)
{
    uint32_t reqid = tide_wire_get_u32(r);
    char *ns = tide_wire_get_str(r);
    uint32_t rank = tide_wire_get_u32(r);
    uint32_t n = tide_wire_get_u32(r);
    if (!ns || !tide_wire_ok(r) || n > 1024) {
        free(ns);
        reply_status(d, reqid, TIDE_NAME_BAD);
        return;
    }
    char **svc = calloc(n + 1, sizeof *svc), **port = calloc(n + 1, sizeof *port);
    int status = TIDE_NAME_OK;
    for (uint32_t i = 0; i < n && svc && port; i++) {
        svc[i] = tide_wire_get_str(r);
        port[i] = tide_wire_get_str(r);
        if (!valid(svc[i]) || !valid(port[i]))
            status = TIDE_NAME_BAD;
        else if (find(svc[i]))
            status = TIDE_NAME_DUPLICATE;
        for (uint32_t j = 0; j < i && status == TIDE_NAME_OK; j++)
            if (strcmp(svc[j], svc[i]) == 0)
                status = TIDE_NAME_DUPLICATE;
    }
    if (!svc || !port || !tide_wire_done(r))
        status = TIDE_NAME_BAD;
    if (status == TIDE_NAME_OK) {
        for (uint32_t i = 0; i < n; i++) {
            struct name *nm = calloc(1, sizeof *nm);
            nm->service = svc[i];
            nm->port = port[i];
            nm->nspace = strdup(ns);
            nm->rank = rank;
            nm->next = names;
            names = nm;
            svc[i] = port[i] = NULL;
            TIDE_DEBUG(1, "name '%s' published by %s:%u", nm->service, ns, rank);
        }
    }
    free_strs(svc, n);
    free_strs(port, n);
    free(ns);
    reply_status(d, reqid, status);
    if (status == TIDE_NAME_OK)
        wake_waiters();
}

void names_on_lookup(struct mdaemon *d, struct tide_rbuf *r)
{
    uint32_t reqid = tide_wire_get_u32(r);
    char *ns = tide_wire_get_str(r);
    (void)tide_wire_get_u32(r);
    uint32_t wait = tide_wire_get_u32(r);
    uint32_t n = tide_wire_get_u32(r);
    free(ns);
    if (!tide_wire_ok(r) || n == 0 || n > 1024) {
        reply_status(d, reqid, TIDE_NAME_BAD);
        return;
    }
    char **svc = calloc(n + 1, sizeof *svc);
    for (uint32_t i = 0; i < n && svc; i++)
        svc[i] = tide_wire_get_str(r);
    bool ok = svc && tide_wire_done(r);
    for (uint32_t i = 0; ok && i < n; i++)
        ok = valid(svc[i]);
    if (!ok) {
        free_strs(svc, n);
        reply_status(d, reqid, TIDE_NAME_BAD);
        return;
    }
    TIDE_DEBUG(2, "lookup of '%s'%s: %s", svc[0], n > 1 ? " (and more)" : "",
               all_found(svc, n) ? "found" : wait ? "waiting" : "not found");
    if (all_found(svc, n)) {
        reply_found(d, reqid, svc, n);
        free_strs(svc, n);
        return;
    }
    if (!wait) {
        free_strs(svc, n);
        reply_status(d, reqid, TIDE_NAME_NOT_FOUND);
        return;
    }
    struct waiter *w = calloc(1, sizeof *w);
    w->d = d;
    w->reqid = reqid;
    w->services = svc;
    w->n = n;
    w->next = waiters;
    waiters = w;
}

void names_on_unpublish(struct mdaemon *d, struct tide_rbuf *r)
{
    uint32_t reqid = tide_wire_get_u32(r);
    char *ns = tide_wire_get_str(r);
    uint32_t rank = tide_wire_get_u32(r);
    uint32_t n = tide_wire_get_u32(r);
    if (!ns || !tide_wire_ok(r) || n > 1024) {
        free(ns);
        reply_status(d, reqid, TIDE_NAME_BAD);
        return;
    }
    int status = TIDE_NAME_OK;
    char **svc = calloc(n + 1, sizeof *svc);
    for (uint32_t i = 0; i < n && svc; i++) {
        svc[i] = tide_wire_get_str(r);
        struct name *nm = svc[i] ? find(svc[i]) : NULL;
        if (!nm)
            status = status ? status : TIDE_NAME_NOT_FOUND;
        else if (strcmp(nm->nspace, ns) != 0 || nm->rank != rank)
            status = status ? status : TIDE_NAME_NOT_OWNER;
    }
    if (!svc || !tide_wire_done(r))
        status = TIDE_NAME_BAD;
    if (status == TIDE_NAME_OK) {
        for (uint32_t i = 0; i < n; i++)
            for (struct name **pp = &names; *pp; pp = &(*pp)->next)
                if (strcmp((*pp)->service, svc[i]) == 0) {
                    struct name *nm = *pp;
                    *pp = nm->next;
                    free(nm->service);
                    free(nm->port);
                    free(nm->nspace);
                    free(nm);
                    break;
                }
    }
    free_strs(svc, n);
    free(ns);
    reply_status(d, reqid, status);
}

/* A job ended: its names go. */
void names_job_ended(const char *nspace)
{
    for (struct name **pp = &names; *pp;) {
        struct name *nm = *pp;
        if (strcmp(nm->nspace, nspace) == 0) {
            *pp = nm->next;
            free(nm->service);
            free(nm->port);
            free(nm->nspace);
            free(nm);
        } else {
            pp = &nm->next;
        }
    }
}

/* A daemon went away: its waiting lookups can no longer be answered. */
void names_daemon_lost(struct mdaemon *d)
{
    for (struct waiter **pp = &waiters; *pp;) {
        struct waiter *w = *pp;
        if (w->d == d) {
            *pp = w->next;
            free_strs(w->services, w->n);
            free(w);
        } else {
            pp = &w->next;
        }
    }
}
