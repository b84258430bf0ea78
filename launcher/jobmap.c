/*
 * jobmap.c: placement of ranks on nodes (by slot, by node, N per node),
 * ranking, and the parsers of --map-by and --rank-by.
 */
#include "jobmap.h"
#include "argv.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int parse_pos(const char *s, int *out)
{
    if (!s || !isdigit((unsigned char)*s))
        return -1;
    errno = 0;
    char *end;
    long v = strtol(s, &end, 10);
    if (errno || *end || v <= 0 || v > INT_MAX)
        return -1;
    *out = (int)v;
    return 0;
}

/* names that, between nodes, map like "slot" (the cores, sockets, ... of a
 * node are the daemon's binding) */
static bool slot_like(const char *p)
{
    static const char *const names[] = {"slot", "core", "socket", "package", "hwthread", "numa", "l3cache"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcasecmp(p, names[i]) == 0)
            return true;
    return false;
}

int jobmap_parse_map_by(const char *s, struct jobmap_mapby *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    m->oversubscribe = -1;
    if (!s || !*s) {
        snprintf(err, errlen, "--map-by: empty value");
        return -1;
    }
    char **t = tide_argv_split(s, ':');
    size_t nt = tide_argv_count(t), k = 0;
    int rc = -1;
    if (nt == 0) {
        snprintf(err, errlen, "--map-by '%s': no policy", s);
        goto out;
    }
    if (strcasecmp(t[0], "ppr") == 0) {
        if (nt < 3 || parse_pos(t[1], &m->ppr) != 0) {
            snprintf(err, errlen, "--map-by '%s': expected ppr:N:node or ppr:N:socket with N >= 1", s);
            goto out;
        }
        if (strcasecmp(t[2], "node") == 0)
            m->ppr_socket = false;
        else if (strcasecmp(t[2], "socket") == 0 || strcasecmp(t[2], "package") == 0)
            m->ppr_socket = true;
        else {
            snprintf(err, errlen, "--map-by '%s': ppr counts per node or per socket, not per '%s'", s, t[2]);
            goto out;
        }
        m->policy = JOBMAP_PPR;
        k = 3;
    } else if (strcasecmp(t[0], "node") == 0) {
        m->policy = JOBMAP_BY_NODE;
        k = 1;
    } else if (slot_like(t[0])) {
        m->policy = JOBMAP_BY_SLOT;
        k = 1;
    } else if (strncasecmp(t[0], "PE=", 3) == 0 || strcasecmp(t[0], "OVERSUBSCRIBE") == 0 ||
               strcasecmp(t[0], "NOOVERSUBSCRIBE") == 0) {
        m->policy = JOBMAP_BY_SLOT; /* ":PE=2" alone keeps the default policy */
        k = 0;
    } else {
        snprintf(err, errlen,
                 "--map-by '%s': unknown policy '%s' (slot, node, core, socket, ppr:N:node, ppr:N:socket)",
                 s, t[0]);
        goto out;
    }
    for (; k < nt; k++) {
        if (strncasecmp(t[k], "PE=", 3) == 0) {
            if (parse_pos(t[k] + 3, &m->pe) != 0) {
                snprintf(err, errlen, "--map-by '%s': PE needs a positive number, got '%s'", s, t[k] + 3);
                goto out;
            }
        } else if (strcasecmp(t[k], "OVERSUBSCRIBE") == 0) {
            m->oversubscribe = 1;
        } else if (strcasecmp(t[k], "NOOVERSUBSCRIBE") == 0) {
            m->oversubscribe = 0;
        } else {
            snprintf(err, errlen,
                     "--map-by '%s': unknown modifier '%s' (PE=n, OVERSUBSCRIBE, NOOVERSUBSCRIBE)", s, t[k]);
            goto out;
        }
    }
    rc = 0;
out:
    tide_argv_free(t);
    return rc;
}

int jobmap_parse_rank_by(const char *s, enum jobmap_rank *r, char *err, size_t errlen)
{
    if (s && strcasecmp(s, "node") == 0)
        *r = JOBMAP_RANK_BY_NODE;
    else if (s && slot_like(s))
        *r = JOBMAP_RANK_BY_SLOT;
    else {
        snprintf(err, errlen, "--rank-by '%s': expected slot, node, core or socket", s ? s : "");
        return -1;
    }
    return 0;
}

static int cpr_of(const struct jobmap_spec *spec)
{
    return spec->cpus_per_rank > 1 ? spec->cpus_per_rank : 1;
}

/* ranks node n holds without oversubscription */
static int cap_of(const struct jobmap_spec *spec, const int *slots, int n)
{
    return slots[n] / cpr_of(spec);
}

int jobmap_default_nprocs(const struct jobmap_spec *spec, int nnodes, const int *slots, const int *used)
{
    if (spec->policy == JOBMAP_PPR) {
        long t = (long)spec->ppr * nnodes;
        return t > INT_MAX ? INT_MAX : (int)t;
    }
    long t = 0;
    for (int n = 0; n < nnodes; n++) {
        int c = cap_of(spec, slots, n);
        if (c > used[n])
            t += c - used[n];
    }
    if (t < 1)
        t = 1;
    return t > INT_MAX ? INT_MAX : (int)t;
}

static void too_many(const struct jobmap_spec *spec, int nprocs, long free_ranks, char *err, size_t errlen)
{
    if (cpr_of(spec) > 1)
        snprintf(err, errlen,
                 "%d processes of %d cpus each need %ld slots but only room for %ld such processes is free "
                 "(allow it with --oversubscribe)",
                 nprocs, cpr_of(spec), (long)nprocs * cpr_of(spec), free_ranks);
    else
        snprintf(err, errlen,
                 "%d processes requested but only %ld slots are free "
                 "(allow it with --oversubscribe)",
                 nprocs, free_ranks);
}

/* The most ranks node n may ever hold (its max_slots), or -1 if no limit. */
static int max_of(const struct jobmap_spec *spec, int n)
{
    if (!spec->max_slots || spec->max_slots[n] <= 0)
        return -1;
    return spec->max_slots[n] / cpr_of(spec);
}

/* After the free slots: least-loaded node first (load relative to
 * slots), never past a node's max_slots. -1 (with err) if they are all
 * full. */
static int place_oversubscribed(const struct jobmap_spec *spec, int nprocs, int r, int nnodes, const int *slots,
                                int *used, int *rank_node, char *err, size_t errlen)
{
    while (r < nprocs) {
        int best = -1;
        for (int n = 0; n < nnodes; n++) {
            if (max_of(spec, n) >= 0 && used[n] >= max_of(spec, n))
                continue;
            if (best < 0 || (long)used[n] * (slots[best] > 0 ? slots[best] : 1) <
                                (long)used[best] * (slots[n] > 0 ? slots[n] : 1))
                best = n;
        }
        if (best < 0) {
            snprintf(err, errlen,
                     "%d processes requested but the max_slots of the hosts allow only %d (even with "
                     "--oversubscribe)",
                     nprocs, r);
            for (int k = 0; k < r; k++)
                used[rank_node[k]]--;
            return -1;
        }
        rank_node[r++] = best;
        used[best]++;
    }
    return 0;
}

static int rank_order(enum jobmap_rank how, int nprocs, int nnodes, int *rank_node)
{
    if (how == JOBMAP_RANK_AS_MAPPED || nprocs == 0)
        return 0;
    int *cnt = calloc((size_t)nnodes, sizeof(int));
    if (!cnt)
        return -1;
    for (int r = 0; r < nprocs; r++)
        cnt[rank_node[r]]++;
    int r = 0;
    if (how == JOBMAP_RANK_BY_SLOT) {
        for (int n = 0; n < nnodes; n++)
            for (int k = 0; k < cnt[n]; k++)
                rank_node[r++] = n;
    } else {
        while (r < nprocs)
            for (int n = 0; n < nnodes && r < nprocs; n++)
                if (cnt[n] > 0) {
                    rank_node[r++] = n;
                    cnt[n]--;
                }
    }
    free(cnt);
    return 0;
}

int jobmap_place(const struct jobmap_spec *spec, int nprocs, int nnodes, const int *slots, int *used,
                 int *rank_node, char *err, size_t errlen)
{
    if (nnodes <= 0) {
        snprintf(err, errlen, "no nodes to run on");
        return -1;
    }
    long total_free = 0;
    for (int n = 0; n < nnodes; n++) {
        int c = cap_of(spec, slots, n);
        if (c > used[n])
            total_free += c - used[n];
    }
    int r = 0;
    if (spec->policy == JOBMAP_PPR) {
        int ppr = spec->ppr > 0 ? spec->ppr : 1;
        if ((long)ppr * nnodes < nprocs) {
            snprintf(err, errlen,
                     "%d processes requested but %d per node on %d node%s place at most %ld "
                     "(more nodes, or fewer processes)",
                     nprocs, ppr, nnodes, nnodes == 1 ? "" : "s", (long)ppr * nnodes);
            return -1;
        }
        if (!spec->oversubscribe)
            for (int n = 0, left = nprocs; n < nnodes && left > 0; n++) {
                int k = left < ppr ? left : ppr;
                int free_n = cap_of(spec, slots, n) - used[n];
                if (k > free_n) {
                    snprintf(err, errlen,
                             "%d processes per node but node %d has %d free slot%s "
                             "(allow it with --oversubscribe)",
                             ppr, n, free_n > 0 ? free_n : 0, free_n == 1 ? "" : "s");
                    return -1;
                }
                left -= k;
            }
        for (int n = 0, left = nprocs; n < nnodes && left > 0; n++) {
            int k = left < ppr ? left : ppr;
            if (max_of(spec, n) >= 0 && used[n] + k > max_of(spec, n)) {
                snprintf(err, errlen, "%d processes per node but node %d allows %d more (its max_slots)", ppr,
                         n, max_of(spec, n) - used[n] > 0 ? max_of(spec, n) - used[n] : 0);
                return -1;
            }
            left -= k;
        }
        for (int n = 0; n < nnodes && r < nprocs; n++)
            for (int k = 0; k < ppr && r < nprocs; k++) {
                rank_node[r++] = n;
                used[n]++;
            }
        return rank_order(spec->rank_by, nprocs, nnodes, rank_node);
    }
    if (nprocs > total_free && !spec->oversubscribe) {
        too_many(spec, nprocs, total_free, err, errlen);
        return -1;
    }
    if (spec->policy == JOBMAP_BY_NODE) {
        bool any = true;
        while (r < nprocs && any) {
            any = false;
            for (int n = 0; n < nnodes && r < nprocs; n++)
                if (used[n] < cap_of(spec, slots, n)) {
                    rank_node[r++] = n;
                    used[n]++;
                    any = true;
                }
        }
    } else {
        for (int n = 0; n < nnodes && r < nprocs; n++)
            while (used[n] < cap_of(spec, slots, n) && r < nprocs) {
                rank_node[r++] = n;
                used[n]++;
            }
    }
    if (place_oversubscribed(spec, nprocs, r, nnodes, slots, used, rank_node, err, errlen) != 0)
        return -1;
    return rank_order(spec->rank_by, nprocs, nnodes, rank_node);
}

int jobmap_by_slot(int nprocs, int nnodes, const int *slots, int *used, bool oversubscribe,
                   int *rank_node, char *err, size_t errlen)
{
    struct jobmap_spec spec = {.policy = JOBMAP_BY_SLOT, .cpus_per_rank = 1, .oversubscribe = oversubscribe};
    return jobmap_place(&spec, nprocs, nnodes, slots, used, rank_node, err, errlen);
}
