/*
 * ns_table.h: the name server's table of published names: a hash table
 * from service name to (port, owner label, SHA-256 of the name's
 * credential, publishing connection), kept also in publication order so it
 * can be saved and listed deterministically. Ownership is the credential:
 * the owner label only names the publisher in logs.
 * Pure data structure: no I/O, no libevent.
 */
#ifndef TIDE_NS_TABLE_H
#define TIDE_NS_TABLE_H

#include <stddef.h>
#include <stdint.h>

#define NS_CRED_HASH_LEN 32

struct ns_entry {
    char *service, *port, *owner;
    uint8_t cred_hash[NS_CRED_HASH_LEN]; /* SHA-256 of the credential */
    uint64_t conn; /* the connection that published it or re-asserted it (0: none) */
    /* private */
    uint64_t hash;
    struct ns_entry *bucket_next;
    struct ns_entry *prev, *next; /* publication order */
};

struct ns_table;

/* max_entries: PUBLISH beyond it answers TIDE_NS_FULL (0: no limit).
 * seed keys the hash so clients cannot choose colliding names. */
struct ns_table *ns_table_new(size_t max_entries, uint64_t seed);
void ns_table_free(struct ns_table *t);

/* Returns TIDE_NS_OK, TIDE_NS_DUPLICATE, TIDE_NS_FULL or TIDE_NS_NOMEM.
 * A name already held with the same credential hash and the same port is
 * OK (the same publisher again: its connection becomes conn) and *changed
 * is 0; otherwise *changed is 1 when the table changed. The strings are
 * copied. Limits are the caller's to check. */
int ns_table_publish(struct ns_table *t, const char *service, const char *port, const char *owner,
                     const uint8_t cred_hash[NS_CRED_HASH_LEN], uint64_t conn, int *changed);
const struct ns_entry *ns_table_lookup(const struct ns_table *t, const char *service);
/* TIDE_NS_OK, TIDE_NS_NOT_FOUND or TIDE_NS_NOT_OWNER (the credential hash
 * must match; NULL: no credential, never the owner). */
int ns_table_unpublish(struct ns_table *t, const char *service,
                       const uint8_t *cred_hash /* NS_CRED_HASH_LEN or NULL */);
/* Remove every name whose connection is conn; returns how many. */
size_t ns_table_drop_conn(struct ns_table *t, uint64_t conn);
size_t ns_table_count(const struct ns_table *t);
/* Iterate in publication order: for (e = ns_table_first(t); e; e = e->next). */
const struct ns_entry *ns_table_first(const struct ns_table *t);

#endif
