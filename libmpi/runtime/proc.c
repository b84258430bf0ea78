/*
 * proc.c: the table of known processes, hashed by (namespace, rank).
 */
#include "runtime/proc.h"

#include <stdlib.h>
#include <string.h>

#define PROC_BUCKETS 4096

static struct tide_proc *buckets[PROC_BUCKETS];

static uint32_t proc_hash(const char *nspace, uint32_t rank)
{
    uint32_t h = 2166136261u;
    for (const char *c = nspace; *c; c++)
        h = (h ^ (uint8_t)*c) * 16777619u;
    h ^= rank * 2654435761u;
    return h;
}

struct tide_proc *tide_proc_find(const char *nspace, uint32_t rank)
{
    uint32_t h = proc_hash(nspace, rank);
    for (struct tide_proc *p = buckets[h % PROC_BUCKETS]; p; p = p->hash_next)
        if (p->hash == h && p->rank == rank && strcmp(p->nspace, nspace) == 0)
            return p;
    return NULL;
}

struct tide_proc *tide_proc_get(const char *nspace, uint32_t rank)
{
    struct tide_proc *p = tide_proc_find(nspace, rank);
    if (p)
        return p;
    p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->nspace = strdup(nspace);
    if (!p->nspace) {
        free(p);
        return NULL;
    }
    p->rank = rank;
    p->hash = proc_hash(nspace, rank);
    p->hash_next = buckets[p->hash % PROC_BUCKETS];
    buckets[p->hash % PROC_BUCKETS] = p;
    return p;
}

int tide_proc_cmp(const struct tide_proc *a, const struct tide_proc *b)
{
    int c = strcmp(a->nspace, b->nspace);
    if (c)
        return c;
    return (a->rank > b->rank) - (a->rank < b->rank);
}

void tide_proc_table_forget_transports(void)
{
    for (int i = 0; i < PROC_BUCKETS; i++)
        for (struct tide_proc *p = buckets[i]; p; p = p->hash_next) {
            p->tx = NULL;
            p->tx_state = NULL;
            p->tcp_state = NULL;
            free(p->card);
            p->card = NULL;
            p->card_len = 0;
            p->no_get = p->get_ok = false;
            p->msg_max = 0;
        }
}

void tide_proc_table_free(void)
{
    for (int i = 0; i < PROC_BUCKETS; i++) {
        struct tide_proc *p = buckets[i];
        while (p) {
            struct tide_proc *n = p->hash_next;
            free(p->nspace);
            free(p->card);
            free(p);
            p = n;
        }
        buckets[i] = NULL;
    }
}
