/*
 * spawnreq.c: decoding of spawn requests and of "soft" info values (see
 * spawnreq.h). Pure functions: no global state, no I/O.
 */
#include "spawnreq.h"
#include "argv.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int spawn_request_decode(struct tide_rbuf *r, struct spawn_request *req, char *err, size_t errlen)
{
    memset(req, 0, sizeof *req);
    req->reqid = tide_wire_get_u32(r);
    req->parent_nspace = tide_wire_get_str(r);
    req->parent_rank = tide_wire_get_u32(r);
    uint32_t napps = tide_wire_get_u32(r);
    if (!req->parent_nspace || !tide_wire_ok(r) || napps == 0 || napps > TIDE_SPAWN_MAX_APPS) {
        snprintf(err, errlen, "malformed spawn request");
        return -1;
    }
    req->specs = calloc(napps, sizeof *req->specs);
    req->hosts = calloc(napps, sizeof *req->hosts);
    req->softs = calloc(napps, sizeof *req->softs);
    req->recoveries = calloc(napps, sizeof *req->recoveries);
    if (!req->specs || !req->hosts || !req->softs || !req->recoveries) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    req->napps = napps;
    for (uint32_t a = 0; a < napps; a++) {
        struct job_app_spec *s = &req->specs[a];
        s->exe = tide_wire_get_str(r);
        s->argv = tide_wire_get_strv(r);
        s->env = tide_wire_get_strv(r);
        s->wdir = tide_wire_get_str(r);
        s->np = (int)tide_wire_get_u32(r);
        req->hosts[a] = tide_wire_get_str(r);
        s->path = tide_wire_get_str(r);
        req->softs[a] = tide_wire_get_str(r);
        req->recoveries[a] = tide_wire_get_str(r);
        if (!tide_wire_ok(r) || !s->exe || !s->argv || !s->env || s->np <= 0 ||
            s->np > TIDE_JOB_MAX_PROCS) {
            snprintf(err, errlen, "malformed spawn request");
            return -1;
        }
        req->total += s->np;
    }
    if (!tide_wire_done(r)) {
        snprintf(err, errlen, "malformed spawn request");
        return -1;
    }
    return 0;
}

void spawn_request_free(struct spawn_request *req)
{
    for (uint32_t a = 0; a < req->napps; a++) {
        if (req->specs) {
            free((char *)req->specs[a].exe);
            tide_argv_free(req->specs[a].argv);
            tide_argv_free(req->specs[a].env);
            free((char *)req->specs[a].wdir);
            free((char *)req->specs[a].path);
        }
        if (req->hosts)
            free(req->hosts[a]);
        if (req->softs)
            free(req->softs[a]);
        if (req->recoveries)
            free(req->recoveries[a]);
    }
    free(req->specs);
    free(req->hosts);
    free(req->softs);
    free(req->recoveries);
    free(req->parent_nspace);
    memset(req, 0, sizeof *req);
}

/* a non-negative decimal number without sign, at most INT_MAX; advances *p */
static int soft_number(const char **p, int *out)
{
    const char *s = *p;
    while (*s == ' ' || *s == '\t')
        s++;
    if (!isdigit((unsigned char)*s))
        return -1;
    long v = 0;
    while (isdigit((unsigned char)*s)) {
        v = v * 10 + (*s - '0');
        if (v > INT_MAX)
            return -1;
        s++;
    }
    while (*s == ' ' || *s == '\t')
        s++;
    *out = (int)v;
    *p = s;
    return 0;
}

int spawn_soft_choose(const char *spec, int limit)
{
    int best = -1;
    const char *p = spec;
    for (;;) {
        int a, b, c = 1;
        if (soft_number(&p, &a) != 0)
            return -1;
        b = a;
        if (*p == ':') {
            p++;
            if (soft_number(&p, &b) != 0)
                return -1;
            if (*p == ':') {
                p++;
                if (soft_number(&p, &c) != 0 || c == 0)
                    return -1;
            }
        }
        if (*p != ',' && *p != '\0')
            return -1;
        /* the largest a + k*c that is at most min(b, limit) */
        int top = b < limit ? b : limit;
        if (top >= a) {
            int v = a + (top - a) / c * c;
            if (v > best)
                best = v;
        }
        if (*p == '\0')
            break;
        p++;
    }
    return best;
}

int spawn_recovery_choose(const struct spawn_request *req, char *err, size_t errlen)
{
    int choice = -1;
    for (uint32_t a = 0; a < req->napps; a++) {
        const char *v = req->recoveries ? req->recoveries[a] : NULL;
        if (!v)
            continue;
        int on;
        if (strcasecmp(v, "true") == 0 || strcmp(v, "1") == 0)
            on = 1;
        else if (strcasecmp(v, "false") == 0 || strcmp(v, "0") == 0)
            on = 0;
        else {
            snprintf(err, errlen, "spawn: invalid 'enable_recovery' value '%s' (true or false)", v);
            return -2;
        }
        if (choice >= 0 && on != choice) {
            snprintf(err, errlen, "spawn: the commands' 'enable_recovery' values disagree (one job, one mode)");
            return -2;
        }
        choice = on;
    }
    return choice;
}
