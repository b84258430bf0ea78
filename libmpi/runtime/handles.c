/*
 * handles.c: handle tables (see handles.h).
 */
#include "runtime/handles.h"

#include <stdlib.h>
#include <string.h>

struct tide_handle_table tide_handle_tables[TIDE_HANDLE_KINDS];

static int ensure_chunk(struct tide_handle_table *t, unsigned idx)
{
    unsigned c = idx >> TIDE_HANDLE_CHUNK_BITS;
    if (c >= t->nchunks) {
        unsigned n = t->nchunks ? t->nchunks : 4;
        while (n <= c)
            n *= 2;
        void ***nc = realloc(t->chunks, n * sizeof *nc);
        if (!nc)
            return -1;
        memset(nc + t->nchunks, 0, (n - t->nchunks) * sizeof *nc);
        t->chunks = nc;
        t->nchunks = n;
    }
    if (!t->chunks[c]) {
        t->chunks[c] = calloc(TIDE_HANDLE_CHUNK, sizeof(void *));
        if (!t->chunks[c])
            return -1;
    }
    return 0;
}

void tide_handle_reserve(int kind, unsigned first)
{
    struct tide_handle_table *t = &tide_handle_tables[kind];
    if (t->next < first)
        t->next = first;
    t->first_dynamic = first;
}

int tide_handle_set(int kind, unsigned index, void *obj)
{
    struct tide_handle_table *t = &tide_handle_tables[kind];
    if (ensure_chunk(t, index) != 0)
        return -1;
    void **slot = &t->chunks[index >> TIDE_HANDLE_CHUNK_BITS][index & (TIDE_HANDLE_CHUNK - 1)];
    if (!*slot && obj)
        t->live++;
    else if (*slot && !obj)
        t->live--;
    *slot = obj;
    if (index >= t->next)
        t->next = index + 1;
    return 0;
}

int tide_handle_alloc(int kind, void *obj)
{
    struct tide_handle_table *t = &tide_handle_tables[kind];
    unsigned idx;
    if (t->nfree > 0) {
        idx = t->freelist[--t->nfree];
    } else {
        if (t->next == 0)
            t->next = 1;
        if (t->next > TIDE_HANDLE_MAX_INDEX)
            return TIDE_HANDLE(kind, 0);
        idx = t->next++;
    }
    if (ensure_chunk(t, idx) != 0)
        return TIDE_HANDLE(kind, 0);
    t->chunks[idx >> TIDE_HANDLE_CHUNK_BITS][idx & (TIDE_HANDLE_CHUNK - 1)] = obj;
    t->live++;
    return TIDE_HANDLE(kind, idx);
}

void tide_handle_release(int handle)
{
    unsigned kind = TIDE_HANDLE_KIND(handle), idx = TIDE_HANDLE_INDEX(handle);
    if (kind >= TIDE_HANDLE_KINDS || idx == 0)
        return;
    struct tide_handle_table *t = &tide_handle_tables[kind];
    unsigned c = idx >> TIDE_HANDLE_CHUNK_BITS;
    if (c >= t->nchunks || !t->chunks[c] || !t->chunks[c][idx & (TIDE_HANDLE_CHUNK - 1)])
        return;
    t->chunks[c][idx & (TIDE_HANDLE_CHUNK - 1)] = NULL;
    t->live--;
    if (idx < t->first_dynamic)
        return;
    if (t->nfree == t->capfree) {
        unsigned cap = t->capfree ? t->capfree * 2 : 256;
        unsigned *nf = realloc(t->freelist, cap * sizeof *nf);
        if (!nf)
            return; /* the index is simply not reused */
        t->freelist = nf;
        t->capfree = cap;
    }
    t->freelist[t->nfree++] = idx;
}

size_t tide_handle_live(int kind)
{
    return tide_handle_tables[kind].live;
}

void tide_handles_reserve_predefined(void)
{
    /* index 0 is each kind's null handle; then the predefined objects */
    tide_handle_reserve(TIDE_KIND_COMM, 3);
    tide_handle_reserve(TIDE_KIND_GROUP, 2);
    tide_handle_reserve(TIDE_KIND_DATATYPE, 1);
    tide_handle_reserve(TIDE_KIND_OP, TIDE_BUILTIN_OP_COUNT);
    tide_handle_reserve(TIDE_KIND_ERRHANDLER, 3);
    tide_handle_reserve(TIDE_KIND_REQUEST, 1);
    tide_handle_reserve(TIDE_KIND_INFO, 2);
    tide_handle_reserve(TIDE_KIND_WIN, 1);
    tide_handle_reserve(TIDE_KIND_FILE, 1);
    tide_handle_reserve(TIDE_KIND_MESSAGE, 2);
    tide_handle_reserve(TIDE_KIND_KEYVAL, TIDE_BUILTIN_KEYVAL_COUNT);
}
