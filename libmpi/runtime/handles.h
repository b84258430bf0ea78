/*
 * handles.h: the tables that turn MPI handles (ints, see mpi.h) into the
 * objects they name. A handle is TIDE_HANDLE(kind, index); each kind has
 * its own table of up to 2^25 entries in chunks, with freed indices
 * reused. Index 0 is the kind's null handle. Predefined objects are
 * installed at fixed indices with tide_handle_set.
 */
#ifndef TIDE_HANDLES_H
#define TIDE_HANDLES_H

#include <stddef.h>
#include "mpi.h"

#define TIDE_HANDLE_KIND(h) (((unsigned)(h) >> 26) & 0xfu)
#define TIDE_HANDLE_INDEX(h) ((unsigned)(h) & ((1u << 25) - 1))
#define TIDE_HANDLE_CHUNK_BITS 12
#define TIDE_HANDLE_CHUNK (1u << TIDE_HANDLE_CHUNK_BITS)
#define TIDE_HANDLE_KINDS 13
#define TIDE_HANDLE_MAX_INDEX ((1u << 25) - 1)

struct tide_handle_table {
    void ***chunks; /* chunks[i >> CHUNK_BITS][i & (CHUNK-1)] */
    unsigned nchunks;
    unsigned next;  /* lowest never-used index */
    unsigned *freelist;
    unsigned nfree, capfree;
    unsigned first_dynamic;
    size_t live;
};

extern struct tide_handle_table tide_handle_tables[TIDE_HANDLE_KINDS];

/* Install obj at a fixed index (predefined objects). */
int tide_handle_set(int kind, unsigned index, void *obj);
/* Reserve indices below first for predefined objects. */
void tide_handle_reserve(int kind, unsigned first);
/* Allocate a handle for obj; returns the null handle of the kind on failure. */
int tide_handle_alloc(int kind, void *obj);
void tide_handle_release(int handle);
size_t tide_handle_live(int kind);
/* Keep the indices of every kind's null and predefined handles out of allocation. */
void tide_handles_reserve_predefined(void);

/* Look up: NULL unless h is a live handle of this kind. */
static inline void *tide_handle_get(int kind, int h)
{
    if (TIDE_HANDLE_KIND(h) != (unsigned)kind)
        return NULL;
    unsigned idx = TIDE_HANDLE_INDEX(h);
    struct tide_handle_table *t = &tide_handle_tables[kind];
    unsigned c = idx >> TIDE_HANDLE_CHUNK_BITS;
    if (c >= t->nchunks || !t->chunks[c])
        return NULL;
    return t->chunks[c][idx & (TIDE_HANDLE_CHUNK - 1)];
}

/* Walks over every object of a kind: the object at index i (NULL: none),
 * for i below tide_handle_end(kind). */
static inline unsigned tide_handle_end(int kind)
{
    return tide_handle_tables[kind].next;
}
static inline void *tide_handle_slot(int kind, unsigned i)
{
    struct tide_handle_table *t = &tide_handle_tables[kind];
    unsigned c = i >> TIDE_HANDLE_CHUNK_BITS;
    if (c >= t->nchunks || !t->chunks[c])
        return NULL;
    return t->chunks[c][i & (TIDE_HANDLE_CHUNK - 1)];
}

#endif
