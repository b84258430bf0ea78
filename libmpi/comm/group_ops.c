/*
 * group_ops.c: the group algebra of MPI-2.2 section 6.3: size, rank,
 * translate_ranks, compare, union, intersection, difference, incl, excl,
 * range_incl, range_excl, free, and MPI_Comm_group / MPI_Comm_remote_group.
 *
 * A group is an ordered list of process pointers (one entry per process,
 * so pointer equality is process identity, across jobs too). Membership
 * questions on large groups go through a small open-addressing table
 * from process pointer to rank, so every operation is linear in the
 * group sizes.
 */
#include "runtime/api.h"
#include "runtime/proc.h"
#include "comm/comm.h"
#include "comm/group.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Also used by MPI_Comm_compare (comm_inquiry.c); belongs in comm/group.h. */

/* ---- process pointer -> rank ---- */

struct rankmap {
    const struct tide_group *g;
    size_t mask;                   /* 0: no table, scan g */
    const struct tide_proc **keys;
    int *ranks;
};

static size_t ptr_hash(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (size_t)x;
}

/* MPI_SUCCESS or MPI_ERR_NO_MEM. Small groups are scanned. */
static int rankmap_init(struct rankmap *m, const struct tide_group *g)
{
    memset(m, 0, sizeof *m);
    m->g = g;
    if (g->size <= 16)
        return MPI_SUCCESS;
    size_t cap = 32;
    while (cap < (size_t)g->size * 2)
        cap *= 2;
    m->keys = calloc(cap, sizeof *m->keys);
    m->ranks = malloc(cap * sizeof *m->ranks);
    if (!m->keys || !m->ranks) {
        free(m->keys);
        free(m->ranks);
        m->keys = NULL;
        m->ranks = NULL;
        return MPI_ERR_NO_MEM;
    }
    m->mask = cap - 1;
    for (int r = 0; r < g->size; r++) {
        size_t i = ptr_hash(g->procs[r]) & m->mask;
        while (m->keys[i])
            i = (i + 1) & m->mask;
        m->keys[i] = g->procs[r];
        m->ranks[i] = r;
    }
    return MPI_SUCCESS;
}

static int rankmap_find(const struct rankmap *m, const struct tide_proc *p)
{
    if (!m->mask)
        return tide_group_rank_of(m->g, p);
    for (size_t i = ptr_hash(p) & m->mask; m->keys[i]; i = (i + 1) & m->mask)
        if (m->keys[i] == p)
            return m->ranks[i];
    return MPI_UNDEFINED;
}

static void rankmap_free(struct rankmap *m)
{
    free(m->keys);
    free(m->ranks);
}

/* ---- helpers ---- */

static int get_group(MPI_Group h, struct tide_group **g, const char *fn, const char *arg)
{
    *g = tide_group_get(h);
    if (*g)
        return MPI_SUCCESS;
    if (h == MPI_GROUP_NULL)
        return TIDE_ERR(MPI_ERR_GROUP, "%s: MPI_GROUP_NULL is not a group (argument %s)", fn, arg);
    return TIDE_ERR(MPI_ERR_GROUP, "%s: invalid group (argument %s)", fn, arg);
}

/* The user handle of a new group of the n processes (MPI_GROUP_EMPTY for none). */
static int new_group(int n, struct tide_proc *const *procs, MPI_Group *out, const char *fn)
{
    if (n == 0) {
        *out = MPI_GROUP_EMPTY;
        return MPI_SUCCESS;
    }
    struct tide_group *g = tide_group_new(n, procs);
    if (!g)
        return TIDE_ERR(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    MPI_Group h = tide_group_handle(g);
    if (h == MPI_GROUP_NULL) {
        tide_group_release(g);
        return TIDE_ERR(MPI_ERR_NO_MEM, "%s: no handle left for a new group", fn);
    }
    *out = h;
    return MPI_SUCCESS;
}

static struct tide_proc **proc_array(int n)
{
    return malloc((size_t)(n > 0 ? n : 1) * sizeof(struct tide_proc *));
}

/* A new group of members idx[0..n) of src (endpoints keep what they are;
 * the new group's rank is that of src's own member, if picked). */
static int new_group_pick(const struct tide_group *src, int n, const int *idx, MPI_Group *out, const char *fn)
{
    if (n == 0) {
        *out = MPI_GROUP_EMPTY;
        return MPI_SUCCESS;
    }
    struct tide_proc **procs = proc_array(n);
    int *ep = src->ep ? malloc((size_t)n * sizeof *ep) : NULL;
    if (!procs || (src->ep && !ep)) {
        free(procs);
        free(ep);
        return TIDE_ERR(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    }
    int rank = MPI_UNDEFINED;
    for (int i = 0; i < n; i++) {
        procs[i] = src->procs[idx[i]];
        if (ep)
            ep[i] = src->ep[idx[i]];
        if (idx[i] == src->rank)
            rank = i;
    }
    int rc;
    if (!ep) {
        rc = new_group(n, procs, out, fn);
    } else {
        struct tide_group *g = tide_group_new_ep(n, procs, ep, rank);
        rc = g ? MPI_SUCCESS : TIDE_ERR(MPI_ERR_NO_MEM, "%s: out of memory", fn);
        if (g && (*out = tide_group_handle(g)) == MPI_GROUP_NULL) {
            tide_group_release(g);
            rc = TIDE_ERR(MPI_ERR_NO_MEM, "%s: no handle left for a new group", fn);
        }
    }
    free(procs);
    free(ep);
    return rc;
}

/* Member i of a in b (same process, or same endpoint), or MPI_UNDEFINED;
 * for groups of endpoints, where a rank-table by process cannot tell
 * them apart. */
static int find_member(const struct tide_group *a, int i, const struct tide_group *b)
{
    for (int j = 0; j < b->size; j++)
        if (tide_group_same(a, i, b, j))
            return j;
    return MPI_UNDEFINED;
}

int tide_group_compare(const struct tide_group *a, const struct tide_group *b)
{
    if (a == b)
        return MPI_IDENT;
    if (a->size != b->size)
        return MPI_UNEQUAL;
    int i = 0;
    if (a->ep || b->ep) {
        while (i < a->size && tide_group_same(a, i, b, i))
            i++;
        if (i == a->size)
            return MPI_IDENT;
        for (; i < a->size; i++)
            if (find_member(a, i, b) == MPI_UNDEFINED)
                return MPI_UNEQUAL;
        return MPI_SIMILAR;
    }
    while (i < a->size && a->procs[i] == b->procs[i])
        i++;
    if (i == a->size)
        return MPI_IDENT;
    struct rankmap m;
    if (rankmap_init(&m, b) != MPI_SUCCESS) {
        /* no memory for the table: quadratic scan */
        for (; i < a->size; i++)
            if (tide_group_rank_of(b, a->procs[i]) == MPI_UNDEFINED)
                return MPI_UNEQUAL;
        return MPI_SIMILAR;
    }
    int res = MPI_SIMILAR;
    for (; i < a->size; i++)
        if (rankmap_find(&m, a->procs[i]) == MPI_UNDEFINED) {
            res = MPI_UNEQUAL;
            break;
        }
    rankmap_free(&m);
    return res;
}

/* ---- accessors ---- */

int PMPI_Group_size(MPI_Group group, int *size)
{
    TIDE_API_ENTER();
    struct tide_group *g;
    int rc = get_group(group, &g, "MPI_Group_size", "group");
    if (rc != MPI_SUCCESS)
        return rc;
    if (!size)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Group_size: size must not be NULL");
    *size = g->size;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Group_size)

int PMPI_Group_rank(MPI_Group group, int *rank)
{
    TIDE_API_ENTER();
    struct tide_group *g;
    int rc = get_group(group, &g, "MPI_Group_rank", "group");
    if (rc != MPI_SUCCESS)
        return rc;
    if (!rank)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Group_rank: rank must not be NULL");
    *rank = g->rank;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Group_rank)

int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
                               int ranks2[])
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Group_translate_ranks";
    struct tide_group *g1, *g2;
    int rc = get_group(group1, &g1, fn, "group1");
    if (rc != MPI_SUCCESS)
        return rc;
    if ((rc = get_group(group2, &g2, fn, "group2")) != MPI_SUCCESS)
        return rc;
    if (n < 0)
        return TIDE_ERR(MPI_ERR_ARG, "%s: negative n %d (argument n)", fn, n);
    if (n > 0 && (!ranks1 || !ranks2))
        return TIDE_ERR(MPI_ERR_ARG, "%s: ranks1 and ranks2 must not be NULL", fn);
    for (int i = 0; i < n; i++)
        if (ranks1[i] != MPI_PROC_NULL && (ranks1[i] < 0 || ranks1[i] >= g1->size))
            return TIDE_ERR(MPI_ERR_RANK, "%s: invalid rank %d in ranks1[%d] (group1 has %d processes)",
                            fn, ranks1[i], i, g1->size);
    if (g1 == g2) {
        memmove(ranks2, ranks1, (size_t)n * sizeof *ranks2);
        return MPI_SUCCESS;
    }
    if (g1->ep || g2->ep) {
        /* endpoints: the same endpoint; an endpoint in a group of
         * processes: its process */
        for (int i = 0; i < n; i++) {
            if (ranks1[i] == MPI_PROC_NULL) {
                ranks2[i] = MPI_PROC_NULL;
                continue;
            }
            ranks2[i] = find_member(g1, ranks1[i], g2);
            if (ranks2[i] == MPI_UNDEFINED && !g2->ep)
                ranks2[i] = tide_group_rank_of(g2, g1->procs[ranks1[i]]);
        }
        return MPI_SUCCESS;
    }
    struct rankmap m;
    if (n > 4 && rankmap_init(&m, g2) == MPI_SUCCESS) {
        for (int i = 0; i < n; i++)
            ranks2[i] = ranks1[i] == MPI_PROC_NULL ? MPI_PROC_NULL : rankmap_find(&m, g1->procs[ranks1[i]]);
        rankmap_free(&m);
    } else {
        for (int i = 0; i < n; i++)
            ranks2[i] = ranks1[i] == MPI_PROC_NULL ? MPI_PROC_NULL
                                                   : tide_group_rank_of(g2, g1->procs[ranks1[i]]);
    }
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Group_translate_ranks)

int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result)
{
    TIDE_API_ENTER();
    struct tide_group *g1, *g2;
    int rc = get_group(group1, &g1, "MPI_Group_compare", "group1");
    if (rc != MPI_SUCCESS)
        return rc;
    if ((rc = get_group(group2, &g2, "MPI_Group_compare", "group2")) != MPI_SUCCESS)
        return rc;
    if (!result)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Group_compare: result must not be NULL");
    *result = tide_group_compare(g1, g2);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Group_compare)

/* ---- set operations ---- */

enum setop { SET_UNION, SET_INTERSECTION, SET_DIFFERENCE };

/* The set operations on groups of endpoints, member by member. */
static int set_op_members(const struct tide_group *g1, const struct tide_group *g2, MPI_Group *newgroup,
                          enum setop op, const char *fn)
{
    int cap = g1->size + g2->size;
    struct tide_proc **procs = proc_array(cap);
    int *ep = malloc((size_t)(cap ? cap : 1) * sizeof *ep);
    if (!procs || !ep) {
        free(procs);
        free(ep);
        return TIDE_ERR(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    }
    int n = 0, rank = MPI_UNDEFINED;
    for (int i = 0; i < g1->size; i++) {
        bool in2 = find_member(g1, i, g2) != MPI_UNDEFINED;
        if (op == SET_UNION || in2 == (op == SET_INTERSECTION)) {
            if (i == g1->rank)
                rank = n;
            procs[n] = g1->procs[i];
            ep[n++] = g1->ep ? g1->ep[i] : 0;
        }
    }
    if (op == SET_UNION)
        for (int j = 0; j < g2->size; j++)
            if (find_member(g2, j, g1) == MPI_UNDEFINED) {
                if (j == g2->rank && rank == MPI_UNDEFINED)
                    rank = n;
                procs[n] = g2->procs[j];
                ep[n++] = g2->ep ? g2->ep[j] : 0;
            }
    int rc = MPI_SUCCESS;
    if (n == 0) {
        *newgroup = MPI_GROUP_EMPTY;
    } else {
        struct tide_group *g = tide_group_new_ep(n, procs, ep, rank);
        if (!g)
            rc = TIDE_ERR(MPI_ERR_NO_MEM, "%s: out of memory", fn);
        else if ((*newgroup = tide_group_handle(g)) == MPI_GROUP_NULL) {
            tide_group_release(g);
            rc = TIDE_ERR(MPI_ERR_NO_MEM, "%s: no handle left for a new group", fn);
        }
    }
    free(procs);
    free(ep);
    return rc;
}

static int set_op(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup, enum setop op, const char *fn)
{
    struct tide_group *g1, *g2;
    int rc = get_group(group1, &g1, fn, "group1");
    if (rc != MPI_SUCCESS)
        return rc;
    if ((rc = get_group(group2, &g2, fn, "group2")) != MPI_SUCCESS)
        return rc;
    if (!newgroup)
        return TIDE_ERR(MPI_ERR_ARG, "%s: newgroup must not be NULL", fn);
    if (g1->ep || g2->ep)
        return set_op_members(g1, g2, newgroup, op, fn);
    int cap = op == SET_UNION ? g1->size + g2->size : g1->size;
    struct tide_proc **out = proc_array(cap);
    struct rankmap m;
    /* union: g1's members, then those of g2 not in g1 (g2's order);
     * intersection / difference: g1's members in / not in g2 (g1's order) */
    const struct tide_group *lookup = op == SET_UNION ? g1 : g2;
    if (!out || rankmap_init(&m, lookup) != MPI_SUCCESS) {
        free(out);
        return TIDE_ERR(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    }
    int n = 0;
    if (op == SET_UNION) {
        for (int i = 0; i < g1->size; i++)
            out[n++] = g1->procs[i];
        for (int i = 0; i < g2->size; i++)
            if (rankmap_find(&m, g2->procs[i]) == MPI_UNDEFINED)
                out[n++] = g2->procs[i];
    } else {
        bool want = op == SET_INTERSECTION;
        for (int i = 0; i < g1->size; i++)
            if ((rankmap_find(&m, g1->procs[i]) != MPI_UNDEFINED) == want)
                out[n++] = g1->procs[i];
    }
    rankmap_free(&m);
    rc = new_group(n, out, newgroup, fn);
    free(out);
    return rc;
}

int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    TIDE_API_ENTER();
    return set_op(group1, group2, newgroup, SET_UNION, "MPI_Group_union");
}
TIDE_ALIAS(MPI_Group_union)

int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    TIDE_API_ENTER();
    return set_op(group1, group2, newgroup, SET_INTERSECTION, "MPI_Group_intersection");
}
TIDE_ALIAS(MPI_Group_intersection)

int PMPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    TIDE_API_ENTER();
    return set_op(group1, group2, newgroup, SET_DIFFERENCE, "MPI_Group_difference");
}
TIDE_ALIAS(MPI_Group_difference)

/* ---- incl / excl ---- */

/* Check n distinct valid ranks of g; mark them in seen (g->size bytes).
 * (n > g->size always finds a duplicate or an invalid rank.) */
static int check_ranks(const struct tide_group *g, int n, const int ranks[], unsigned char *seen,
                       const char *fn)
{
    for (int i = 0; i < n; i++) {
        int r = ranks[i];
        if (r < 0 || r >= g->size)
            return TIDE_ERR(MPI_ERR_RANK, "%s: invalid rank %d in ranks[%d] (the group has %d processes)",
                            fn, r, i, g->size);
        if (seen[r])
            return TIDE_ERR(MPI_ERR_RANK, "%s: rank %d appears more than once in ranks (ranks[%d])", fn,
                            r, i);
        seen[r] = 1;
    }
    return MPI_SUCCESS;
}

static int incl_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup, bool incl,
                     const char *fn)
{
    struct tide_group *g;
    int rc = get_group(group, &g, fn, "group");
    if (rc != MPI_SUCCESS)
        return rc;
    if (n < 0)
        return TIDE_ERR(MPI_ERR_ARG, "%s: negative n %d (argument n)", fn, n);
    if (n > 0 && !ranks)
        return TIDE_ERR(MPI_ERR_ARG, "%s: ranks must not be NULL", fn);
    if (!newgroup)
        return TIDE_ERR(MPI_ERR_ARG, "%s: newgroup must not be NULL", fn);
    unsigned char *seen = calloc((size_t)g->size + 1, 1);
    int *out = malloc(((size_t)g->size + 1) * sizeof *out);
    if (!seen || !out) {
        free(seen);
        free(out);
        return TIDE_ERR(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    }
    rc = check_ranks(g, n, ranks, seen, fn);
    if (rc == MPI_SUCCESS) {
        int k = 0;
        if (incl) {
            for (int i = 0; i < n; i++)
                out[k++] = ranks[i];
        } else {
            for (int r = 0; r < g->size; r++)
                if (!seen[r])
                    out[k++] = r;
        }
        rc = new_group_pick(g, k, out, newgroup, fn);
    }
    free(seen);
    free(out);
    return rc;
}

int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    TIDE_API_ENTER();
    return incl_excl(group, n, ranks, newgroup, true, "MPI_Group_incl");
}
TIDE_ALIAS(MPI_Group_incl)

int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    TIDE_API_ENTER();
    return incl_excl(group, n, ranks, newgroup, false, "MPI_Group_excl");
}
TIDE_ALIAS(MPI_Group_excl)

/* ---- range_incl / range_excl ---- */

/* Expand the triplets (first, last, stride) into ranks (in order), each
 * valid and named once; *count gets how many. */
static int expand_ranges(const struct tide_group *g, int n, int ranges[][3], int *out, int *count,
                         unsigned char *seen, const char *fn)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        if (stride == 0)
            return TIDE_ERR(MPI_ERR_ARG, "%s: stride 0 in ranges[%d] (argument ranges)", fn, i);
        if (first < 0 || first >= g->size)
            return TIDE_ERR(MPI_ERR_RANK, "%s: invalid first rank %d in ranges[%d] (the group has %d processes)",
                            fn, first, i, g->size);
        if (last < 0 || last >= g->size)
            return TIDE_ERR(MPI_ERR_RANK, "%s: invalid last rank %d in ranges[%d] (the group has %d processes)",
                            fn, last, i, g->size);
        if ((stride > 0 && first > last) || (stride < 0 && first < last))
            return TIDE_ERR(MPI_ERR_ARG,
                            "%s: ranges[%d] = (%d, %d, %d) runs against its stride (argument ranges)", fn,
                            i, first, last, stride);
        long long steps = ((long long)last - first) / stride;
        for (long long s = 0; s <= steps; s++) {
            int r = (int)(first + s * stride);
            if (seen[r])
                return TIDE_ERR(MPI_ERR_RANK, "%s: rank %d is named more than once (ranges[%d])", fn, r, i);
            seen[r] = 1;
            out[k++] = r; /* k <= g->size: every rank at most once */
        }
    }
    *count = k;
    return MPI_SUCCESS;
}

static int range_incl_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup, bool incl,
                           const char *fn)
{
    struct tide_group *g;
    int rc = get_group(group, &g, fn, "group");
    if (rc != MPI_SUCCESS)
        return rc;
    if (n < 0)
        return TIDE_ERR(MPI_ERR_ARG, "%s: negative n %d (argument n)", fn, n);
    if (n > 0 && !ranges)
        return TIDE_ERR(MPI_ERR_ARG, "%s: ranges must not be NULL", fn);
    if (!newgroup)
        return TIDE_ERR(MPI_ERR_ARG, "%s: newgroup must not be NULL", fn);
    unsigned char *seen = calloc((size_t)g->size + 1, 1);
    int *list = malloc(((size_t)g->size + 1) * sizeof *list);
    int *out = malloc(((size_t)g->size + 1) * sizeof *out);
    if (!seen || !list || !out) {
        free(seen);
        free(list);
        free(out);
        return TIDE_ERR(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    }
    int count = 0;
    rc = expand_ranges(g, n, ranges, list, &count, seen, fn);
    if (rc == MPI_SUCCESS) {
        int k = 0;
        if (incl) {
            for (int i = 0; i < count; i++)
                out[k++] = list[i];
        } else {
            for (int r = 0; r < g->size; r++)
                if (!seen[r])
                    out[k++] = r;
        }
        rc = new_group_pick(g, k, out, newgroup, fn);
    }
    free(seen);
    free(list);
    free(out);
    return rc;
}

int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    TIDE_API_ENTER();
    return range_incl_excl(group, n, ranges, newgroup, true, "MPI_Group_range_incl");
}
TIDE_ALIAS(MPI_Group_range_incl)

int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    TIDE_API_ENTER();
    return range_incl_excl(group, n, ranges, newgroup, false, "MPI_Group_range_excl");
}
TIDE_ALIAS(MPI_Group_range_excl)

/* ---- destructor ---- */

int PMPI_Group_free(MPI_Group *group)
{
    TIDE_API_ENTER();
    if (!group)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Group_free: group must not be NULL");
    struct tide_group *g;
    int rc = get_group(*group, &g, "MPI_Group_free", "group");
    if (rc != MPI_SUCCESS)
        return rc;
    /* MPI_GROUP_EMPTY comes back from constructors like any group and is
     * freed like one; the object itself is never released */
    if (g != &tide_group_empty)
        tide_group_release(g);
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Group_free)

/* ---- groups of communicators ---- */

static int comm_group_handle(struct tide_comm *c, struct tide_group *g, MPI_Group *group, const char *fn)
{
    tide_group_retain(g);
    MPI_Group h = tide_group_handle(g);
    if (h == MPI_GROUP_NULL) {
        tide_group_release(g);
        return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: no handle left for a new group", fn);
    }
    *group = h;
    return MPI_SUCCESS;
}

int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
    TIDE_API_ENTER();
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "MPI_Comm_group: invalid communicator (argument comm)");
    if (!group)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "MPI_Comm_group: group must not be NULL");
    return comm_group_handle(c, c->group, group, "MPI_Comm_group");
}
TIDE_ALIAS(MPI_Comm_group)

int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
    TIDE_API_ENTER();
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "MPI_Comm_remote_group: invalid communicator (argument comm)");
    if (!c->is_inter || !c->remote_group)
        return TIDE_ERR_COMM(c, MPI_ERR_COMM,
                             "MPI_Comm_remote_group: %s is an intracommunicator; only intercommunicators "
                             "have a remote group (argument comm)",
                             c->name[0] ? c->name : "the communicator");
    if (!group)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "MPI_Comm_remote_group: group must not be NULL");
    return comm_group_handle(c, c->remote_group, group, "MPI_Comm_remote_group");
}
TIDE_ALIAS(MPI_Comm_remote_group)
