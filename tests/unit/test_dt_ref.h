/*
 * test_dt_ref.h: a reference model of datatypes for the engine's unit tests.
 *
 * The type map of a type is computed independently of the engine: by
 * decoding it with MPI_Type_get_envelope/get_contents recursively and
 * expanding each combiner literally (subarray and darray by enumerating
 * the global indices each process owns). Reference pack/unpack then copy
 * one basic element at a time along that list.
 */
#ifndef TIDE_TEST_DT_REF_H
#define TIDE_TEST_DT_REF_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"

struct ref_ent {
    MPI_Aint d;     /* displacement */
    size_t len;     /* bytes of the basic element */
    MPI_Datatype t; /* its type */
};

struct ref_map {
    struct ref_ent *e;
    size_t n, cap;
};

static void ref_add(struct ref_map *m, MPI_Aint d, size_t len, MPI_Datatype t)
{
    if (m->n == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 64;
        m->e = realloc(m->e, m->cap * sizeof *m->e);
    }
    m->e[m->n++] = (struct ref_ent){d, len, t};
}

static MPI_Aint ref_extent(MPI_Datatype t)
{
    MPI_Aint lb, ext;
    PMPI_Type_get_extent(t, &lb, &ext);
    return ext;
}

struct ref_pair {
    MPI_Datatype t, a, b;
    size_t off;
};

static void ref_flatten(MPI_Datatype t, MPI_Aint d, struct ref_map *m);

static void ref_named(MPI_Datatype t, MPI_Aint d, struct ref_map *m)
{
    struct fi { float a; int b; };
    struct di { double a; int b; };
    struct li { long a; int b; };
    struct si { short a; int b; };
    struct ldi { long double a; int b; };
    const struct ref_pair pairs[] = {
        {MPI_FLOAT_INT, MPI_FLOAT, MPI_INT, offsetof(struct fi, b)},
        {MPI_DOUBLE_INT, MPI_DOUBLE, MPI_INT, offsetof(struct di, b)},
        {MPI_LONG_INT, MPI_LONG, MPI_INT, offsetof(struct li, b)},
        {MPI_SHORT_INT, MPI_SHORT, MPI_INT, offsetof(struct si, b)},
        {MPI_LONG_DOUBLE_INT, MPI_LONG_DOUBLE, MPI_INT, offsetof(struct ldi, b)},
        {MPI_2INT, MPI_INT, MPI_INT, sizeof(int)},
        {MPI_2INTEGER, MPI_INTEGER, MPI_INTEGER, 4},
        {MPI_2REAL, MPI_REAL, MPI_REAL, 4},
        {MPI_2DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, 8},
        {MPI_2COMPLEX, MPI_COMPLEX, MPI_COMPLEX, 8},
        {MPI_2DOUBLE_COMPLEX, MPI_DOUBLE_COMPLEX, MPI_DOUBLE_COMPLEX, 16},
    };
    if (t == MPI_LB || t == MPI_UB)
        return;
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        if (pairs[i].t == t) {
            ref_named(pairs[i].a, d, m);
            ref_named(pairs[i].b, d + (MPI_Aint)pairs[i].off, m);
            return;
        }
    int size;
    PMPI_Type_size(t, &size);
    ref_add(m, d, (size_t)size, t);
}

static void ref_free_types(MPI_Datatype *types, int n)
{
    for (int i = 0; i < n; i++) {
        int ni, na, nd, comb;
        PMPI_Type_get_envelope(types[i], &ni, &na, &nd, &comb);
        if (comb != MPI_COMBINER_NAMED)
            PMPI_Type_free(&types[i]);
    }
}

/* owned indices of one darray dimension, in increasing order */
static int ref_owned(int g, int distrib, int darg, int p, int c, int *out)
{
    int n = 0;
    for (int i = 0; i < g; i++) {
        int owner;
        if (distrib == MPI_DISTRIBUTE_NONE) {
            owner = 0;
        } else if (distrib == MPI_DISTRIBUTE_BLOCK) {
            int blk = darg == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : darg;
            owner = i / blk;
        } else {
            int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
            owner = (i / b) % p;
        }
        if (owner == c)
            out[n++] = i;
    }
    return n;
}

/* iterate the cartesian product lists[0..nd) in C order (last fastest) or
 * Fortran order (first fastest); linear index with multipliers mult */
static void ref_product(int nd, int *const *lists, const int *lens, const MPI_Aint *mult, int order,
                        MPI_Datatype old, MPI_Aint d, MPI_Aint ext, struct ref_map *m)
{
    int idx[16] = {0};
    for (int i = 0; i < nd; i++)
        if (lens[i] == 0)
            return;
    for (;;) {
        MPI_Aint lin = 0;
        for (int i = 0; i < nd; i++)
            lin += lists[i][idx[i]] * mult[i];
        ref_flatten(old, d + lin * ext, m);
        int k;
        if (order == MPI_ORDER_C) {
            for (k = nd - 1; k >= 0; k--) {
                if (++idx[k] < lens[k])
                    break;
                idx[k] = 0;
            }
            if (k < 0)
                return;
        } else {
            for (k = 0; k < nd; k++) {
                if (++idx[k] < lens[k])
                    break;
                idx[k] = 0;
            }
            if (k == nd)
                return;
        }
    }
}

static void ref_flatten(MPI_Datatype t, MPI_Aint d, struct ref_map *m)
{
    int ni, na, nd, comb;
    PMPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
    if (comb == MPI_COMBINER_NAMED) {
        ref_named(t, d, m);
        return;
    }
    int *I = malloc((size_t)(ni + 1) * sizeof *I);
    MPI_Aint *A = malloc((size_t)(na + 1) * sizeof *A);
    MPI_Datatype *T = malloc((size_t)(nd + 1) * sizeof *T);
    PMPI_Type_get_contents(t, ni, na, nd, I, A, T);
    MPI_Aint ext = nd ? ref_extent(T[0]) : 0;
    switch (comb) {
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED:
        ref_flatten(T[0], d, m);
        break;
    case MPI_COMBINER_CONTIGUOUS:
        for (int i = 0; i < I[0]; i++)
            ref_flatten(T[0], d + i * ext, m);
        break;
    case MPI_COMBINER_VECTOR:
        for (int i = 0; i < I[0]; i++)
            for (int j = 0; j < I[1]; j++)
                ref_flatten(T[0], d + ((MPI_Aint)i * I[2] + j) * ext, m);
        break;
    case MPI_COMBINER_HVECTOR:
        for (int i = 0; i < I[0]; i++)
            for (int j = 0; j < I[1]; j++)
                ref_flatten(T[0], d + i * A[0] + j * ext, m);
        break;
    case MPI_COMBINER_INDEXED:
        for (int i = 0; i < I[0]; i++)
            for (int j = 0; j < I[1 + i]; j++)
                ref_flatten(T[0], d + ((MPI_Aint)I[1 + I[0] + i] + j) * ext, m);
        break;
    case MPI_COMBINER_HINDEXED:
        for (int i = 0; i < I[0]; i++)
            for (int j = 0; j < I[1 + i]; j++)
                ref_flatten(T[0], d + A[i] + j * ext, m);
        break;
    case MPI_COMBINER_INDEXED_BLOCK:
        for (int i = 0; i < I[0]; i++)
            for (int j = 0; j < I[1]; j++)
                ref_flatten(T[0], d + ((MPI_Aint)I[2 + i] + j) * ext, m);
        break;
    case MPI_COMBINER_HINDEXED_BLOCK:
        for (int i = 0; i < I[0]; i++)
            for (int j = 0; j < I[1]; j++)
                ref_flatten(T[0], d + A[i] + j * ext, m);
        break;
    case MPI_COMBINER_STRUCT:
        for (int i = 0; i < I[0]; i++) {
            MPI_Aint e = ref_extent(T[i]);
            for (int j = 0; j < I[1 + i]; j++)
                ref_flatten(T[i], d + A[i] + j * e, m);
        }
        break;
    case MPI_COMBINER_SUBARRAY: {
        int n = I[0], order = I[3 * n + 1];
        const int *sizes = I + 1, *sub = I + 1 + n, *start = I + 1 + 2 * n;
        int *lists[16] = {0}, lens[16] = {0};
        MPI_Aint mult[16] = {0};
        for (int i = 0; i < n; i++) {
            lists[i] = malloc((size_t)sub[i] * sizeof(int));
            for (int k = 0; k < sub[i]; k++)
                lists[i][k] = start[i] + k;
            lens[i] = sub[i];
        }
        MPI_Aint mm = 1;
        for (int k = 0; k < n; k++) {
            int i = order == MPI_ORDER_C ? n - 1 - k : k;
            mult[i] = mm;
            mm *= sizes[i];
        }
        ref_product(n, lists, lens, mult, order, T[0], d, ext, m);
        for (int i = 0; i < n; i++)
            free(lists[i]);
        break;
    }
    case MPI_COMBINER_DARRAY: {
        int size = I[0], rank = I[1], n = I[2], order = I[4 * n + 3];
        const int *g = I + 3, *dist = I + 3 + n, *darg = I + 3 + 2 * n, *ps = I + 3 + 3 * n;
        int coords[16] = {0}, r = rank, *lists[16] = {0}, lens[16] = {0};
        MPI_Aint mult[16] = {0};
        (void)size;
        for (int i = n - 1; i >= 0; i--) {
            coords[i] = r % ps[i];
            r /= ps[i];
        }
        for (int i = 0; i < n; i++) {
            lists[i] = malloc((size_t)g[i] * sizeof(int));
            lens[i] = ref_owned(g[i], dist[i], darg[i], ps[i], coords[i], lists[i]);
        }
        MPI_Aint mm = 1;
        for (int k = 0; k < n; k++) {
            int i = order == MPI_ORDER_C ? n - 1 - k : k;
            mult[i] = mm;
            mm *= g[i];
        }
        ref_product(n, lists, lens, mult, order, T[0], d, ext, m);
        for (int i = 0; i < n; i++)
            free(lists[i]);
        break;
    }
    default:
        break;
    }
    ref_free_types(T, nd);
    free(I);
    free(A);
    free(T);
}

static struct ref_map ref_map_of(MPI_Datatype t)
{
    struct ref_map m = {0};
    ref_flatten(t, 0, &m);
    return m;
}

#endif
