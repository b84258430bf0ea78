/*
 * ctltree.c: positions, parents, children and routes of the daemon tree
 * (see ctltree.h).
 */
#include "ctltree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tide_ctltree_init(struct tide_ctltree *t, int radix, const int *nodes, int n)
{
    memset(t, 0, sizeof *t);
    if (radix < 1 || n < 0)
        return -1;
    t->radix = radix;
    t->n = n;
    t->member = malloc(((size_t)n + 1) * sizeof(int));
    int maxnode = 0;
    for (int i = 0; i < n; i++) {
        if (nodes[i] < 0 || nodes[i] > (1 << 24))
            goto bad;
        if (nodes[i] + 1 > maxnode)
            maxnode = nodes[i] + 1;
    }
    t->maxnode = maxnode;
    t->pos = malloc(((size_t)maxnode + 1) * sizeof(int));
    if (!t->member || !t->pos)
        goto bad;
    for (int k = 0; k < maxnode; k++)
        t->pos[k] = -1;
    for (int i = 0; i < n; i++) {
        if (t->pos[nodes[i]] >= 0)
            goto bad;
        t->pos[nodes[i]] = i;
        t->member[i] = nodes[i];
    }
    return 0;
bad:
    tide_ctltree_free(t);
    return -1;
}

void tide_ctltree_free(struct tide_ctltree *t)
{
    free(t->member);
    free(t->pos);
    memset(t, 0, sizeof *t);
}

static int pos_of(const struct tide_ctltree *t, int node)
{
    return node >= 0 && node < t->maxnode ? t->pos[node] : -1;
}

bool tide_ctltree_member(const struct tide_ctltree *t, int node)
{
    return pos_of(t, node) >= 0;
}

static int parent_pos(const struct tide_ctltree *t, int p)
{
    return p / t->radix - 1;
}

int tide_ctltree_parent(const struct tide_ctltree *t, int node)
{
    int p = pos_of(t, node);
    if (p < 0)
        return -1;
    int pp = parent_pos(t, p);
    return pp < 0 ? -1 : t->member[pp];
}

bool tide_ctltree_in_subtree(const struct tide_ctltree *t, int root, int node)
{
    int r = pos_of(t, root), p = pos_of(t, node);
    if (r < 0 || p < 0)
        return false;
    while (p > r)
        p = parent_pos(t, p);
    return p == r;
}

int tide_ctltree_next_hop(const struct tide_ctltree *t, int from, int node)
{
    int f = from < 0 ? -1 : pos_of(t, from), p = pos_of(t, node);
    if (p < 0 || (from >= 0 && f < 0))
        return -1;
    while (p >= 0 && parent_pos(t, p) != f) {
        if (p <= f)
            return -1;
        p = parent_pos(t, p);
    }
    return p >= 0 ? t->member[p] : -1;
}

int tide_ctltree_children(const struct tide_ctltree *t, int from, int *out, int max)
{
    int f = from < 0 ? -1 : pos_of(t, from);
    if (from >= 0 && f < 0)
        return 0;
    int k = 0;
    for (int c = t->radix * (f + 1); c < t->radix * (f + 1) + t->radix && c < t->n; c++)
        if (c > f && parent_pos(t, c) == f && k < max)
            out[k++] = t->member[c];
    return k;
}

char *tide_ctltree_format(const struct tide_ctltree *t)
{
    size_t cap = 32 + (size_t)t->n * 12;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    size_t len = (size_t)snprintf(s, cap, "%d:", t->radix);
    for (int i = 0; i < t->n; i++)
        len += (size_t)snprintf(s + len, cap - len, "%s%d", i ? "," : "", t->member[i]);
    return s;
}

int tide_ctltree_parse(struct tide_ctltree *t, const char *text)
{
    char *end;
    long radix = strtol(text, &end, 10);
    if (*end != ':' || radix < 1 || radix > 4096)
        return -1;
    const char *p = end + 1;
    int n = 0, cap = 16;
    int *nodes = malloc((size_t)cap * sizeof(int));
    while (nodes && *p) {
        long v = strtol(p, &end, 10);
        if (end == p || v < 0 || v > (1 << 24) || (*end && *end != ',')) {
            free(nodes);
            return -1;
        }
        if (n == cap) {
            int *more = realloc(nodes, (size_t)(cap *= 2) * sizeof(int));
            if (!more) {
                free(nodes);
                return -1;
            }
            nodes = more;
        }
        nodes[n++] = (int)v;
        p = *end ? end + 1 : end;
    }
    if (!nodes)
        return -1;
    int rc = tide_ctltree_init(t, (int)radix, nodes, n);
    free(nodes);
    return rc;
}
