/*
 * ns_table.c: the table of published names (see ns_table.h). Chained hash
 * buckets, doubled when the load passes one, plus a doubly linked list in
 * publication order. Removing by connection walks the list: that is rare
 * (a client of the per-user service went away).
 */
#include "ns_table.h"
#include "nsproto.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

struct ns_table {
    struct ns_entry **buckets;
    size_t nbuckets, count, max;
    uint64_t seed;
    struct ns_entry *head, *tail;
};

static uint64_t hash_str(uint64_t seed, const char *s)
{
    /* FNV-1a, keyed by the seed and finished with a 64-bit mixer */
    uint64_t h = 0xcbf29ce484222325ull ^ seed;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        h ^= *p;
        h *= 0x100000001b3ull;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
}

struct ns_table *ns_table_new(size_t max_entries, uint64_t seed)
{
    struct ns_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->nbuckets = 64;
    t->buckets = calloc(t->nbuckets, sizeof *t->buckets);
    if (!t->buckets) {
        free(t);
        return NULL;
    }
    t->max = max_entries;
    t->seed = seed;
    return t;
}

static void entry_free(struct ns_entry *e)
{
    free(e->service);
    free(e->port);
    free(e->owner);
    free(e);
}

void ns_table_free(struct ns_table *t)
{
    if (!t)
        return;
    for (struct ns_entry *e = t->head, *next; e; e = next) {
        next = e->next;
        entry_free(e);
    }
    free(t->buckets);
    free(t);
}

static struct ns_entry *find(const struct ns_table *t, const char *service, uint64_t h)
{
    for (struct ns_entry *e = t->buckets[h & (t->nbuckets - 1)]; e; e = e->bucket_next)
        if (e->hash == h && strcmp(e->service, service) == 0)
            return e;
    return NULL;
}

static void grow(struct ns_table *t)
{
    size_t n = t->nbuckets * 2;
    struct ns_entry **b = calloc(n, sizeof *b);
    if (!b)
        return; /* keep the longer chains: still correct */
    for (struct ns_entry *e = t->head; e; e = e->next) {
        size_t i = e->hash & (n - 1);
        e->bucket_next = b[i];
        b[i] = e;
    }
    free(t->buckets);
    t->buckets = b;
    t->nbuckets = n;
}

static int same_cred(const struct ns_entry *e, const uint8_t *cred_hash)
{
    return cred_hash && CRYPTO_memcmp(e->cred_hash, cred_hash, NS_CRED_HASH_LEN) == 0;
}

int ns_table_publish(struct ns_table *t, const char *service, const char *port, const char *owner,
                     const uint8_t cred_hash[NS_CRED_HASH_LEN], uint64_t conn, int *changed)
{
    *changed = 0;
    uint64_t h = hash_str(t->seed, service);
    struct ns_entry *e = find(t, service, h);
    if (e) {
        if (same_cred(e, cred_hash) && strcmp(e->port, port) == 0) {
            e->conn = conn;
            return TIDE_NS_OK;
        }
        return TIDE_NS_DUPLICATE;
    }
    if (t->max && t->count >= t->max)
        return TIDE_NS_FULL;
    e = calloc(1, sizeof *e);
    if (!e)
        return TIDE_NS_NOMEM;
    e->service = strdup(service);
    e->port = strdup(port);
    e->owner = strdup(owner);
    if (!e->service || !e->port || !e->owner) {
        entry_free(e);
        return TIDE_NS_NOMEM;
    }
    memcpy(e->cred_hash, cred_hash, NS_CRED_HASH_LEN);
    e->conn = conn;
    e->hash = h;
    size_t i = h & (t->nbuckets - 1);
    e->bucket_next = t->buckets[i];
    t->buckets[i] = e;
    e->prev = t->tail;
    if (t->tail)
        t->tail->next = e;
    else
        t->head = e;
    t->tail = e;
    t->count++;
    *changed = 1;
    if (t->count > t->nbuckets)
        grow(t);
    return TIDE_NS_OK;
}

const struct ns_entry *ns_table_lookup(const struct ns_table *t, const char *service)
{
    return find(t, service, hash_str(t->seed, service));
}

static void unlink_entry(struct ns_table *t, struct ns_entry *e)
{
    struct ns_entry **pp = &t->buckets[e->hash & (t->nbuckets - 1)];
    while (*pp && *pp != e)
        pp = &(*pp)->bucket_next;
    if (*pp)
        *pp = e->bucket_next;
    if (e->prev)
        e->prev->next = e->next;
    else
        t->head = e->next;
    if (e->next)
        e->next->prev = e->prev;
    else
        t->tail = e->prev;
    t->count--;
    entry_free(e);
}

int ns_table_unpublish(struct ns_table *t, const char *service, const uint8_t *cred_hash)
{
    struct ns_entry *e = find(t, service, hash_str(t->seed, service));
    if (!e)
        return TIDE_NS_NOT_FOUND;
    if (!same_cred(e, cred_hash))
        return TIDE_NS_NOT_OWNER;
    unlink_entry(t, e);
    return TIDE_NS_OK;
}

size_t ns_table_drop_conn(struct ns_table *t, uint64_t conn)
{
    size_t n = 0;
    if (conn == 0)
        return 0;
    for (struct ns_entry *e = t->head, *next; e; e = next) {
        next = e->next;
        if (e->conn == conn) {
            unlink_entry(t, e);
            n++;
        }
    }
    return n;
}

size_t ns_table_count(const struct ns_table *t) { return t->count; }

const struct ns_entry *ns_table_first(const struct ns_table *t) { return t->head; }
