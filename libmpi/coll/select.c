/*
 * select.c: which algorithm a collective uses. One table of rules gives
 * the built-in choice by operation, message size, communicator size and
 * a few facts (commutative op, node layout, oversubscription); the first
 * rule that matches and whose algorithm applies wins. The runtime
 * parameter coll_tuning puts rules in front of it (syntax in
 * docs/COLLECTIVES.md):
 *
 *     op=alg[@minbytes[-maxbytes]][/minranks[-maxranks]], ...
 *
 * Every input is the same on every rank of a call, so every rank picks
 * the same algorithm.
 */
#include "runtime/api.h"
#include "coll/algo.h"
#include "params.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[TC_NKINDS] = {
    [TC_BARRIER] = "barrier",
    [TC_BCAST] = "bcast",
    [TC_GATHER] = "gather",
    [TC_GATHERV] = "gatherv",
    [TC_SCATTER] = "scatter",
    [TC_SCATTERV] = "scatterv",
    [TC_ALLGATHER] = "allgather",
    [TC_ALLGATHERV] = "allgatherv",
    [TC_ALLTOALL] = "alltoall",
    [TC_ALLTOALLV] = "alltoallv",
    [TC_ALLTOALLW] = "alltoallw",
    [TC_REDUCE] = "reduce",
    [TC_ALLREDUCE] = "allreduce",
    [TC_REDUCE_SCATTER_BLOCK] = "reduce_scatter_block",
    [TC_REDUCE_SCATTER] = "reduce_scatter",
    [TC_SCAN] = "scan",
    [TC_EXSCAN] = "exscan",
};

static const char *const alg_names[TA_NALGS] = {
    [TA_AUTO] = "auto",
    [TA_LINEAR] = "linear",
    [TA_BINOMIAL] = "binomial",
    [TA_DISSEMINATION] = "dissemination",
    [TA_TREE] = "tree",
    [TA_SCATTER_RING] = "scatter_ring",
    [TA_SCATTER_RD] = "scatter_rd",
    [TA_PIPELINE] = "pipeline",
    [TA_RING] = "ring",
    [TA_RD] = "rd",
    [TA_BRUCK] = "bruck",
    [TA_PAIRWISE] = "pairwise",
    [TA_RABENSEIFNER] = "rabenseifner",
    [TA_REDUCE_BCAST] = "reduce_bcast",
    [TA_REDUCE_SCATTERV] = "reduce_scatterv",
    [TA_HALVING] = "halving",
    [TA_HIER] = "hier",
    [TA_DIRECT] = "direct",
    [TA_SHM] = "shm",
    [TA_GET] = "get",
};

static const struct {
    const char *name;
    int alg;
} alg_aliases[] = {
    {"recursive_doubling", TA_RD},
    {"scatter_allgather", TA_SCATTER_RING},
    {"node", TA_HIER},
    {"two_level", TA_HIER},
    {"basic", TA_LINEAR},
};

const char *tide_coll_kind_name(int kind)
{
    return kind >= 0 && kind < TC_NKINDS ? kind_names[kind] : "?";
}

const char *tide_coll_alg_name(int alg)
{
    return alg >= 0 && alg < TA_NALGS ? alg_names[alg] : "?";
}

/* Which algorithms each operation has. */
#define A(x) (1u << (x))
static const unsigned kind_algs[TC_NKINDS] = {
    [TC_BARRIER] = A(TA_DISSEMINATION) | A(TA_TREE) | A(TA_LINEAR) | A(TA_DIRECT) | A(TA_HIER) | A(TA_SHM),
    [TC_BCAST] = A(TA_LINEAR) | A(TA_BINOMIAL) | A(TA_PIPELINE) | A(TA_SCATTER_RING) | A(TA_SCATTER_RD) |
                 A(TA_HIER) | A(TA_GET) | A(TA_SHM),
    [TC_GATHER] = A(TA_LINEAR) | A(TA_BINOMIAL),
    [TC_GATHERV] = A(TA_LINEAR),
    [TC_SCATTER] = A(TA_LINEAR) | A(TA_BINOMIAL),
    [TC_SCATTERV] = A(TA_LINEAR),
    [TC_ALLGATHER] = A(TA_RING) | A(TA_RD) | A(TA_BRUCK) | A(TA_LINEAR) | A(TA_DIRECT) | A(TA_HIER) | A(TA_SHM) |
                     A(TA_GET),
    [TC_ALLGATHERV] = A(TA_RING) | A(TA_RD) | A(TA_DIRECT) | A(TA_SHM),
    [TC_ALLTOALL] = A(TA_LINEAR) | A(TA_PAIRWISE) | A(TA_BRUCK) | A(TA_SHM) | A(TA_GET),
    [TC_ALLTOALLV] = A(TA_LINEAR) | A(TA_PAIRWISE) | A(TA_GET),
    [TC_ALLTOALLW] = A(TA_LINEAR) | A(TA_PAIRWISE) | A(TA_GET),
    [TC_REDUCE] = A(TA_LINEAR) | A(TA_BINOMIAL) | A(TA_RING) | A(TA_HIER),
    [TC_ALLREDUCE] = A(TA_RD) | A(TA_RABENSEIFNER) | A(TA_RING) | A(TA_REDUCE_BCAST) | A(TA_LINEAR) | A(TA_DIRECT) |
                     A(TA_HIER) | A(TA_SHM),
    [TC_REDUCE_SCATTER_BLOCK] = A(TA_RING) | A(TA_PAIRWISE) | A(TA_RD) | A(TA_REDUCE_SCATTERV) | A(TA_SHM),
    [TC_REDUCE_SCATTER] = A(TA_RING) | A(TA_PAIRWISE) | A(TA_RD) | A(TA_REDUCE_SCATTERV) | A(TA_SHM),
    [TC_SCAN] = A(TA_RD) | A(TA_LINEAR),
    [TC_EXSCAN] = A(TA_RD) | A(TA_LINEAR),
};
/* Algorithms that need a commutative operation (they combine out of
 * rank order). */
static const unsigned commute_only[TC_NKINDS] = {
    [TC_REDUCE] = A(TA_RING) | A(TA_HIER),
    [TC_ALLREDUCE] = A(TA_RING) | A(TA_HIER),
    [TC_REDUCE_SCATTER_BLOCK] = A(TA_RING) | A(TA_PAIRWISE),
    [TC_REDUCE_SCATTER] = A(TA_RING) | A(TA_PAIRWISE),
};
#undef A

bool tide_coll_alg_valid(int kind, int alg)
{
    return kind >= 0 && kind < TC_NKINDS && alg > 0 && alg < TA_NALGS && (kind_algs[kind] & (1u << alg));
}

/* Can this call use alg? */
static bool applies(const struct tide_coll_sel *sel, int alg)
{
    if (!tide_coll_alg_valid(sel->kind, alg))
        return false;
    if (!sel->commute && (commute_only[sel->kind] & (1u << alg)))
        return false;
    if (alg == TA_HIER && !sel->hier)
        return false;
    if (alg == TA_SHM && !sel->shm)
        return false;
    if (alg == TA_GET && !sel->get)
        return false;
    return true;
}

/* ---- the table ---- */

enum {
    R_HIER = 1,      /* only with a two-level layout */
    R_OVER = 2,      /* only when oversubscribed */
    R_NOOVER = 4,    /* only when not oversubscribed */
    R_POF2 = 8,      /* only for a power-of-two size */
    R_NONCOMM = 16,  /* only for a non-commutative op */
    R_UPTO_16K = 32, /* and at most 16 KiB */
};

struct rule {
    int kind;
    int alg;
    size_t min_bytes, max_bytes; /* inclusive range */
    int min_n, max_n;
    unsigned flags;
};

#define ANYB 0, SIZE_MAX
#define ANYN 0, INT_MAX
#define KB *1024
#define UPTO(x) 0, (size_t)(x)
#define FROM(x) (size_t)(x), SIZE_MAX

/* The built-in choices, measured on shared memory (one node, 2 to 8
 * ranks, oversubscribed beyond 2 on the 2-core machine the benchmarks
 * ran on: "over" rows) and otherwise following the usual trade-offs
 * (latency-bound trees and doublings for short messages, bandwidth-bound
 * rings and reduce-scatter/allgather pairs for long ones). When ranks
 * outnumber cores, algorithms with fewer rounds of waiting win even at
 * the price of more messages: stars (linear) and direct exchanges. On
 * one node, short calls go through the shared region (shm: one wait,
 * no messages) first. */
static const struct rule defaults[] = {
    /* barrier */
    {TC_BARRIER, TA_SHM, ANYB, ANYN, 0},
    {TC_BARRIER, TA_HIER, ANYB, ANYN, R_HIER},
    {TC_BARRIER, TA_DIRECT, ANYB, 0, 4, 0},
    {TC_BARRIER, TA_LINEAR, ANYB, 5, 32, R_OVER},
    {TC_BARRIER, TA_DISSEMINATION, ANYB, ANYN, 0},
    /* bcast */
    {TC_BCAST, TA_HIER, ANYB, ANYN, R_HIER},
    {TC_BCAST, TA_LINEAR, ANYB, 0, 2, 0},
    {TC_BCAST, TA_SHM, 16 KB + 1, SIZE_MAX, 5, INT_MAX, R_OVER},
    {TC_BCAST, TA_SHM, FROM(128 KB), 4, INT_MAX, R_OVER},
    {TC_BCAST, TA_SHM, FROM(256 KB), 3, INT_MAX, R_OVER},
    {TC_BCAST, TA_BINOMIAL, FROM(8 KB), 6, INT_MAX, R_OVER | R_UPTO_16K},
    {TC_BCAST, TA_BINOMIAL, FROM(256 KB), 6, INT_MAX, R_OVER},
    {TC_BCAST, TA_BINOMIAL, FROM(512 KB), 3, INT_MAX, R_OVER},
    {TC_BCAST, TA_LINEAR, ANYB, 3, 16, R_OVER},
    {TC_BCAST, TA_BINOMIAL, UPTO(64 KB), ANYN, 0},
    {TC_BCAST, TA_SCATTER_RD, FROM(512 KB), 8, INT_MAX, R_POF2},
    {TC_BCAST, TA_SCATTER_RING, FROM(512 KB), 8, INT_MAX, 0},
    {TC_BCAST, TA_BINOMIAL, ANYB, ANYN, 0},
    /* gather / scatter (bytes: one block) */
    {TC_GATHER, TA_LINEAR, FROM(32 KB), 0, 16, 0},
    {TC_GATHER, TA_LINEAR, UPTO(256), 6, 16, R_OVER},
    {TC_GATHER, TA_BINOMIAL, ANYB, 3, INT_MAX, 0},
    {TC_GATHER, TA_LINEAR, ANYB, ANYN, 0},
    {TC_SCATTER, TA_LINEAR, ANYB, 0, 8, 0},
    {TC_SCATTER, TA_BINOMIAL, UPTO(64 KB), ANYN, 0},
    {TC_SCATTER, TA_LINEAR, ANYB, ANYN, 0},
    {TC_GATHERV, TA_LINEAR, ANYB, ANYN, 0},
    {TC_SCATTERV, TA_LINEAR, ANYB, ANYN, 0},
    /* allgather (bytes: the whole result) */
    {TC_ALLGATHER, TA_SHM, UPTO(2 KB), 0, 2, 0},
    {TC_ALLGATHER, TA_SHM, UPTO(16 KB), 3, INT_MAX, 0},
    {TC_ALLGATHER, TA_HIER, ANYB, ANYN, R_HIER},
    {TC_ALLGATHER, TA_RING, ANYB, 0, 2, 0},
    {TC_ALLGATHER, TA_GET, 256 KB, 4096 KB, 3, 16, R_OVER},
    {TC_ALLGATHER, TA_LINEAR, UPTO(128 KB), 6, 16, R_OVER},
    {TC_ALLGATHER, TA_DIRECT, ANYB, 3, 16, R_OVER},
    {TC_ALLGATHER, TA_RD, UPTO(64 KB), ANYN, R_POF2},
    {TC_ALLGATHER, TA_BRUCK, UPTO(64 KB), ANYN, 0},
    {TC_ALLGATHER, TA_RD, ANYB, ANYN, R_POF2 | R_OVER},
    {TC_ALLGATHER, TA_RING, ANYB, ANYN, 0},
    {TC_ALLGATHERV, TA_SHM, UPTO(2 KB), 0, 2, 0},
    {TC_ALLGATHERV, TA_SHM, UPTO(16 KB), 3, INT_MAX, 0},
    {TC_ALLGATHERV, TA_RD, UPTO(64 KB), 3, INT_MAX, 0},
    {TC_ALLGATHERV, TA_DIRECT, ANYB, 3, 16, R_OVER},
    {TC_ALLGATHERV, TA_RING, ANYB, ANYN, 0},
    /* alltoall (bytes: one block) */
    {TC_ALLTOALL, TA_SHM, 128, 2 KB, 0, 2, 0},
    {TC_ALLTOALL, TA_SHM, ANYB, 3, INT_MAX, 0},
    {TC_ALLTOALL, TA_GET, FROM(16 KB), ANYN, 0},
    {TC_ALLTOALL, TA_GET, FROM(8 KB), 6, INT_MAX, R_OVER},
    {TC_ALLTOALL, TA_LINEAR, ANYB, 0, 2, 0},
    {TC_ALLTOALL, TA_LINEAR, ANYB, 3, 32, R_OVER},
    {TC_ALLTOALL, TA_BRUCK, UPTO(256), 8, INT_MAX, 0},
    {TC_ALLTOALL, TA_LINEAR, UPTO(32 KB), ANYN, 0},
    {TC_ALLTOALL, TA_PAIRWISE, ANYB, ANYN, 0},
    {TC_ALLTOALLV, TA_GET, ANYB, 3, INT_MAX, 0},
    {TC_ALLTOALLV, TA_LINEAR, ANYB, ANYN, 0},
    {TC_ALLTOALLW, TA_GET, ANYB, 3, INT_MAX, 0},
    {TC_ALLTOALLW, TA_LINEAR, ANYB, ANYN, 0},
    /* reduce */
    {TC_REDUCE, TA_HIER, ANYB, ANYN, R_HIER},
    {TC_REDUCE, TA_BINOMIAL, ANYB, ANYN, 0},
    /* allreduce */
    {TC_ALLREDUCE, TA_SHM, 64, 1 KB, 0, 2, 0},
    {TC_ALLREDUCE, TA_SHM, UPTO(2 KB), 3, INT_MAX, 0},
    {TC_ALLREDUCE, TA_HIER, ANYB, ANYN, R_HIER},
    {TC_ALLREDUCE, TA_LINEAR, UPTO(16 KB), 6, 16, R_OVER},
    {TC_ALLREDUCE, TA_RD, UPTO(16 KB), ANYN, 0},
    {TC_ALLREDUCE, TA_DIRECT, ANYB, 0, 2, 0},
    {TC_ALLREDUCE, TA_RABENSEIFNER, ANYB, 6, 16, R_OVER},
    {TC_ALLREDUCE, TA_DIRECT, UPTO(128 KB), 3, 16, 0},
    {TC_ALLREDUCE, TA_RABENSEIFNER, ANYB, ANYN, R_POF2},
    {TC_ALLREDUCE, TA_RING, FROM(512 KB), ANYN, 0},
    {TC_ALLREDUCE, TA_RABENSEIFNER, ANYB, ANYN, 0},
    /* reduce_scatter (bytes: the whole input) */
    {TC_REDUCE_SCATTER_BLOCK, TA_SHM, UPTO(8 KB), 0, 2, 0},
    {TC_REDUCE_SCATTER_BLOCK, TA_SHM, ANYB, 3, INT_MAX, 0},
    {TC_REDUCE_SCATTER_BLOCK, TA_RD, UPTO(4 KB), ANYN, 0},
    {TC_REDUCE_SCATTER_BLOCK, TA_PAIRWISE, ANYB, 3, 16, R_OVER},
    {TC_REDUCE_SCATTER_BLOCK, TA_RING, ANYB, ANYN, 0},
    {TC_REDUCE_SCATTER_BLOCK, TA_REDUCE_SCATTERV, ANYB, ANYN, 0},
    {TC_REDUCE_SCATTER, TA_SHM, UPTO(8 KB), 0, 2, 0},
    {TC_REDUCE_SCATTER, TA_SHM, ANYB, 3, INT_MAX, 0},
    {TC_REDUCE_SCATTER, TA_RD, UPTO(4 KB), ANYN, 0},
    {TC_REDUCE_SCATTER, TA_PAIRWISE, ANYB, 3, 16, R_OVER},
    {TC_REDUCE_SCATTER, TA_RING, ANYB, ANYN, 0},
    {TC_REDUCE_SCATTER, TA_REDUCE_SCATTERV, ANYB, ANYN, 0},
    /* scan */
    {TC_SCAN, TA_LINEAR, FROM(1024 KB), ANYN, 0},
    {TC_SCAN, TA_RD, ANYB, ANYN, 0},
    {TC_EXSCAN, TA_LINEAR, FROM(1024 KB), ANYN, 0},
    {TC_EXSCAN, TA_RD, ANYB, ANYN, 0},
};

static bool rule_matches(const struct rule *r, const struct tide_coll_sel *sel)
{
    if (r->kind != sel->kind || sel->bytes < r->min_bytes || sel->bytes > r->max_bytes || sel->n < r->min_n ||
        sel->n > r->max_n)
        return false;
    if ((r->flags & R_HIER) && !sel->hier)
        return false;
    if ((r->flags & R_OVER) && !sel->oversub)
        return false;
    if ((r->flags & R_NOOVER) && sel->oversub)
        return false;
    if ((r->flags & R_POF2) && !is_pof2(sel->n))
        return false;
    if ((r->flags & R_NONCOMM) && sel->commute)
        return false;
    if ((r->flags & R_UPTO_16K) && sel->bytes > 16384)
        return false;
    return true;
}

/* ---- overrides (coll_tuning) ---- */

struct tide_coll_rules {
    struct rule *r;
    int n;
    unsigned gen; /* identifies this parse in the choice cache */
};

static struct tide_coll_rules global;
static bool loaded;
static unsigned rules_gen;

/* Recent choices (the same call is usually made again and again). */
struct cached {
    size_t bytes;
    int n;
    unsigned gen, ggen;
    uint8_t kind, flags, alg, valid;
};
#define CACHE_SLOTS 64
static struct cached cache[CACHE_SLOTS];

static int find_name(const char *const *names, int n, const char *s, size_t len)
{
    for (int i = 0; i < n; i++)
        if (names[i] && strlen(names[i]) == len && strncmp(names[i], s, len) == 0)
            return i;
    return -1;
}

static int find_alg(const char *s, size_t len)
{
    int a = find_name(alg_names, TA_NALGS, s, len);
    if (a >= 0)
        return a;
    for (size_t i = 0; i < sizeof alg_aliases / sizeof alg_aliases[0]; i++)
        if (strlen(alg_aliases[i].name) == len && strncmp(alg_aliases[i].name, s, len) == 0)
            return alg_aliases[i].alg;
    return -1;
}

static bool parse_num(const char **p, long long *out)
{
    char buf[32];
    size_t k = 0;
    while (**p && (isalnum((unsigned char)**p)) && k < sizeof buf - 1)
        buf[k++] = *(*p)++;
    buf[k] = 0;
    if (!k)
        return false;
    long long v = tide_parse_size(buf);
    if (v < 0)
        return false;
    *out = v;
    return true;
}

static int cmp_rules(const void *a, const void *b)
{
    const struct rule *x = a, *y = b;
    if (x->kind != y->kind)
        return x->kind - y->kind;
    if (x->min_bytes != y->min_bytes)
        return x->min_bytes > y->min_bytes ? -1 : 1;
    if (x->min_n != y->min_n)
        return y->min_n - x->min_n;
    return (x < y) ? -1 : 1;
}

static int parse(const char *text, struct tide_coll_rules *out, char *err, size_t errlen)
{
    out->r = NULL;
    out->n = 0;
    out->gen = ++rules_gen;
    if (!text || !*text)
        return 0;
    size_t cap = 1;
    for (const char *q = text; *q; q++)
        if (*q == ',' || *q == ';')
            cap++;
    struct rule *rules = calloc(cap, sizeof *rules);
    if (!rules) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int n = 0, rc = 0;
    const char *p = text;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == ',' || *p == ';')
            p++;
        if (!*p)
            break;
        const char *start = p;
        const char *k0 = p;
        while (*p && (isalnum((unsigned char)*p) || *p == '_'))
            p++;
        size_t klen = (size_t)(p - k0);
        int kind = find_name(kind_names, TC_NKINDS, k0, klen);
        struct rule r = {.kind = kind, .min_bytes = 0, .max_bytes = SIZE_MAX, .min_n = 0, .max_n = INT_MAX};
        const char *why = NULL;
        if (kind < 0) {
            why = "unknown operation";
        } else if (*p++ != '=') {
            why = "expected '=' after the operation";
        } else {
            const char *a0 = p;
            while (*p && (isalnum((unsigned char)*p) || *p == '_'))
                p++;
            r.alg = find_alg(a0, (size_t)(p - a0));
            if (r.alg < 0)
                why = "unknown algorithm";
            else if (r.alg != TA_AUTO && !tide_coll_alg_valid(kind, r.alg))
                why = "the operation has no such algorithm";
            long long v;
            if (!why && *p == '@') {
                p++;
                if (!parse_num(&p, &v))
                    why = "bad minimum size";
                else
                    r.min_bytes = (size_t)v;
                if (!why && *p == '-') {
                    p++;
                    if (!parse_num(&p, &v))
                        why = "bad maximum size";
                    else
                        r.max_bytes = (size_t)v;
                }
            }
            if (!why && *p == '/') {
                p++;
                if (!parse_num(&p, &v) || v > INT_MAX)
                    why = "bad minimum number of ranks";
                else
                    r.min_n = (int)v;
                if (!why && *p == '-') {
                    p++;
                    if (!parse_num(&p, &v) || v > INT_MAX)
                        why = "bad maximum number of ranks";
                    else
                        r.max_n = (int)v;
                }
            }
            while (*p == ' ' || *p == '\t')
                p++;
            if (!why && *p && *p != ',' && *p != ';')
                why = "unexpected text after the entry";
        }
        if (why) {
            const char *end = start;
            while (*end && *end != ',' && *end != ';')
                end++;
            if (rc == 0)
                snprintf(err, errlen, "coll_tuning: %s in '%.*s'", why, (int)(end - start), start);
            rc = -1;
            p = end;
            continue;
        }
        rules[n++] = r;
    }
    qsort(rules, (size_t)n, sizeof *rules, cmp_rules);
    out->r = rules;
    out->n = n;
    return rc;
}

int tide_coll_tuning_set(const char *text, char *err, size_t errlen)
{
    free(global.r);
    loaded = true;
    return parse(text, &global, err, errlen);
}

struct tide_coll_rules *tide_coll_rules_parse(const char *text, char *err, size_t errlen)
{
    struct tide_coll_rules *r = malloc(sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    parse(text, r, err, errlen);
    return r;
}

void tide_coll_rules_free(struct tide_coll_rules *r)
{
    if (r) {
        free(r->r);
        free(r);
    }
}

static void load(void)
{
    char err[256];
    const char *t = tide_config_get("coll_tuning");
    if (tide_coll_tuning_set(t, err, sizeof err) != 0 && tide.rank == 0)
        fprintf(stderr, "tide: %s (entry ignored)\n", err);
}

/* The first applicable override: an algorithm, TA_AUTO (use the
 * defaults) or -1 (no rule matched). */
static int try_rules(const struct tide_coll_rules *rs, const struct tide_coll_sel *sel)
{
    for (int i = 0; i < rs->n; i++) {
        const struct rule *r = &rs->r[i];
        if (r->kind != sel->kind || sel->bytes < r->min_bytes || sel->bytes > r->max_bytes || sel->n < r->min_n ||
            sel->n > r->max_n)
            continue;
        if (r->alg == TA_AUTO)
            return TA_AUTO;
        if (applies(sel, r->alg))
            return r->alg;
    }
    return -1;
}

static int choose(const struct tide_coll_sel *sel)
{
    int a = sel->over ? try_rules(sel->over, sel) : -1;
    if (a < 0)
        a = try_rules(&global, sel);
    if (a > 0)
        return a;
    for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++)
        if (rule_matches(&defaults[i], sel) && applies(sel, defaults[i].alg))
            return defaults[i].alg;
    /* every operation's last rule is unconditional; keep the compiler sure */
    return TA_LINEAR;
}

/* ---- the per-communicator memo ---- */

static bool memo_allowed(const struct tide_comm *c)
{
    return c->info == MPI_INFO_NULL && c->coll && c->coll->layout != 0 && loaded;
}

int tide_coll_memo_find(const struct tide_comm *c, const struct tide_coll_memo *m, size_t bytes)
{
    if (m->alg == 0 || m->bytes != bytes || !memo_allowed(c) || m->version != c->coll->version ||
        m->rules_gen != global.gen)
        return 0;
    return m->alg;
}

void tide_coll_memo_keep(const struct tide_comm *c, struct tide_coll_memo *m, size_t bytes, int alg)
{
    if (!memo_allowed(c))
        return;
    *m = (struct tide_coll_memo){.bytes = bytes, .version = c->coll->version, .rules_gen = global.gen, .alg = alg};
}

int tide_coll_select(const struct tide_coll_sel *sel)
{
    if (!loaded)
        load();
    unsigned flags = (sel->commute ? 1u : 0) | (sel->hier ? 2u : 0) | (sel->oversub ? 4u : 0) | (sel->even ? 8u : 0) |
                     (sel->shm ? 16u : 0) | (sel->get ? 32u : 0);
    unsigned gen = sel->over ? sel->over->gen : 0;
    size_t h = (sel->bytes * 31u + (size_t)sel->n * 7u + (size_t)sel->kind * 131u + flags + gen) % CACHE_SLOTS;
    struct cached *cc = &cache[h];
    if (cc->valid && cc->bytes == sel->bytes && cc->n == sel->n && cc->kind == sel->kind && cc->flags == flags &&
        cc->gen == gen && cc->ggen == global.gen)
        return cc->alg;
    int a = choose(sel);
    *cc = (struct cached){.bytes = sel->bytes, .n = sel->n, .gen = gen, .ggen = global.gen,
                          .kind = (uint8_t)sel->kind, .flags = (uint8_t)flags, .alg = (uint8_t)a, .valid = 1};
    /* verbose 3: say what was chosen (once per operation and algorithm) */
    if (tide.tuning.verbose >= 3) {
        static unsigned char said[TC_NKINDS][TA_NALGS];
        if (!said[sel->kind][a]) {
            said[sel->kind][a] = 1;
            fprintf(stderr, "tide[%u]: %s on %d ranks, %zu bytes%s%s: %s\n", tide.rank, kind_names[sel->kind],
                    sel->n, sel->bytes, sel->hier ? ", several nodes" : "", sel->oversub ? ", oversubscribed" : "",
                    alg_names[a]);
        }
    }
    return a;
}
