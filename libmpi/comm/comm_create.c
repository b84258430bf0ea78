/*
 * comm_create.c: making and freeing communicators (MPI-2.2 section 6.4
 * and MPI-3's additions): MPI_Comm_dup, MPI_Comm_dup_with_info,
 * MPI_Comm_create, MPI_Comm_create_group, MPI_Comm_split,
 * MPI_Comm_split_type, MPI_Comm_free, and the internal constructors of
 * comm_create.h. The intercommunicator forms of dup, create and split are
 * in intercomm.c; MPI_Comm_idup in comm_idup.c.
 *
 * Every constructor agrees on one context id over the parent (context.c).
 * Communicators made by one call at the same time over disjoint groups
 * (split, MPI-3 create) share that id: no process is in two of them.
 */
#include "runtime/api.h"
#include "runtime/attr.h"
#include "runtime/errhandler.h"
#include "runtime/info.h"
#include "runtime/proc.h"
#include "comm/comm.h"
#include "comm/comm_create.h"
#include "comm/context.h"
#include "comm/endpoints.h"
#include "comm/exchange.h"
#include "comm/group.h"
#include "comm/hw_resource.h"
#include "comm/intercomm.h"
#include "comm/topo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- internal constructors ---- */

struct tide_comm *tide_comm_derive(struct tide_comm *parent, struct tide_group *local, struct tide_group *remote,
                                   uint32_t ctx, struct tide_comm *local_comm)
{
    struct tide_comm *c = tide_comm_create(local, remote, ctx, MPI_COMM_NULL);
    if (!c) {
        if (local_comm)
            tide_comm_release(local_comm);
        tide_context_release(ctx);
        return NULL;
    }
    c->local_comm = local_comm;
    if (c->handle == MPI_COMM_NULL) {
        tide_comm_release(c);
        return NULL;
    }
    if (parent) {
        tide_errhandler_retain(parent->errhandler);
        c->errhandler = parent->errhandler;
    }
    return c;
}

MPI_Comm tide_comm_handle_of(struct tide_comm *c)
{
    return c ? c->handle : MPI_COMM_NULL;
}

int tide_comm_make(struct tide_comm *parent, struct tide_group *group, struct tide_comm **out)
{
    uint32_t id;
    *out = NULL;
    int rc = tide_context_agree(parent, group != NULL, &id);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!group)
        return MPI_SUCCESS;
    *out = tide_comm_derive(parent, group, NULL, id, NULL);
    return *out ? MPI_SUCCESS : tide_err(MPI_ERR_NO_MEM, "out of memory for a new communicator");
}

int tide_comm_make_split(struct tide_comm *parent, struct tide_group *group, int color, int key,
                         struct tide_comm **out)
{
    if (parent->ep) {
        *out = NULL;
        return tide_ep_split(parent, group ? color : MPI_UNDEFINED, key, out);
    }
    return tide_comm_make(parent, group, out);
}

int tide_comm_dup_plain(struct tide_comm *c, bool member, struct tide_comm **out)
{
    return tide_comm_make(c, member ? c->group : NULL, out);
}

/* ---- process lists ---- */

struct wbuf {
    unsigned char *p;
    size_t len, cap;
};

static int wput(struct wbuf *w, const void *data, size_t n)
{
    if (w->len + n > w->cap) {
        size_t cap = w->cap ? w->cap : 256;
        while (cap < w->len + n)
            cap *= 2;
        unsigned char *p = realloc(w->p, cap);
        if (!p)
            return -1;
        w->p = p;
        w->cap = cap;
    }
    memcpy(w->p + w->len, data, n);
    w->len += n;
    return 0;
}

static int wput32(struct wbuf *w, uint32_t v)
{
    return wput(w, &v, sizeof v);
}

int tide_procs_encode(int n, struct tide_proc *const *procs, void **buf, size_t *len)
{
    /* namespaces in order of first appearance; a job's processes share one */
    const char **ns = malloc((size_t)(n > 0 ? n : 1) * sizeof *ns);
    uint32_t *idx = malloc((size_t)(n > 0 ? n : 1) * sizeof *idx);
    struct wbuf w = {0};
    int nns = 0, rc = MPI_SUCCESS;
    if (!ns || !idx) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    for (int i = 0; i < n; i++) {
        int k = nns - 1; /* most lists are one job: check the last first */
        while (k >= 0 && strcmp(ns[k], procs[i]->nspace) != 0)
            k--;
        if (k < 0) {
            k = nns;
            ns[nns++] = procs[i]->nspace;
        }
        idx[i] = (uint32_t)k;
    }
    int bad = wput32(&w, (uint32_t)nns);
    for (int k = 0; k < nns; k++) {
        uint32_t l = (uint32_t)strlen(ns[k]);
        bad |= wput32(&w, l);
        bad |= wput(&w, ns[k], l);
    }
    bad |= wput32(&w, (uint32_t)n);
    for (int i = 0; i < n; i++) {
        bad |= wput32(&w, idx[i]);
        bad |= wput32(&w, procs[i]->rank);
    }
    if (bad)
        rc = MPI_ERR_NO_MEM;
out:
    free(ns);
    free(idx);
    if (rc != MPI_SUCCESS) {
        free(w.p);
        return rc;
    }
    *buf = w.p;
    *len = w.len;
    return MPI_SUCCESS;
}

static int rget32(const unsigned char *b, size_t len, size_t *pos, uint32_t *v)
{
    if (*pos > len || len - *pos < sizeof *v)
        return -1;
    memcpy(v, b + *pos, sizeof *v);
    *pos += sizeof *v;
    return 0;
}

int tide_procs_decode(const void *buf, size_t len, int *n_out, struct tide_proc ***procs_out)
{
    const unsigned char *b = buf;
    size_t pos = 0;
    uint32_t nns, n;
    if (rget32(b, len, &pos, &nns) || nns > len)
        return MPI_ERR_INTERN;
    char **ns = calloc(nns ? nns : 1, sizeof *ns);
    struct tide_proc **procs = NULL;
    int rc = MPI_SUCCESS;
    if (!ns)
        return MPI_ERR_NO_MEM;
    for (uint32_t k = 0; k < nns; k++) {
        uint32_t l;
        if (rget32(b, len, &pos, &l) || l > len - pos) {
            rc = MPI_ERR_INTERN;
            goto out;
        }
        if (!(ns[k] = malloc(l + 1))) {
            rc = MPI_ERR_NO_MEM;
            goto out;
        }
        memcpy(ns[k], b + pos, l);
        ns[k][l] = '\0';
        pos += l;
    }
    if (rget32(b, len, &pos, &n) || n > (len - pos) / 8 || n > (1u << 30)) {
        rc = MPI_ERR_INTERN;
        goto out;
    }
    procs = malloc((n ? n : 1) * sizeof *procs);
    if (!procs) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = 0, r = 0;
        if (rget32(b, len, &pos, &k) || rget32(b, len, &pos, &r) || k >= nns) {
            rc = MPI_ERR_INTERN;
            goto out;
        }
        if (!(procs[i] = tide_proc_get(ns[k], r))) {
            rc = MPI_ERR_NO_MEM;
            goto out;
        }
    }
    *n_out = (int)n;
    *procs_out = procs;
    procs = NULL;
out:
    for (uint32_t k = 0; k < nns; k++)
        free(ns[k]);
    free(ns);
    free(procs);
    return rc;
}

/* ---- shared helpers ---- */

static int ptr_cmp(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t) * (struct tide_proc *const *)a, y = (uintptr_t) * (struct tide_proc *const *)b;
    return x < y ? -1 : x > y;
}

/* Index in g of the first process of sub that g lacks, or -1. */
static int first_not_in(const struct tide_group *sub, const struct tide_group *g)
{
    if (sub->size <= 8 || g->size <= 8) {
        for (int i = 0; i < sub->size; i++)
            if (tide_group_rank_of(g, sub->procs[i]) == MPI_UNDEFINED)
                return i;
        return -1;
    }
    struct tide_proc **sorted = malloc((size_t)g->size * sizeof *sorted);
    if (!sorted) { /* slow but right */
        for (int i = 0; i < sub->size; i++)
            if (tide_group_rank_of(g, sub->procs[i]) == MPI_UNDEFINED)
                return i;
        return -1;
    }
    memcpy(sorted, g->procs, (size_t)g->size * sizeof *sorted);
    qsort(sorted, (size_t)g->size, sizeof *sorted, ptr_cmp);
    int res = -1;
    for (int i = 0; i < sub->size && res < 0; i++)
        if (!bsearch(&sub->procs[i], sorted, (size_t)g->size, sizeof *sorted, ptr_cmp))
            res = i;
    free(sorted);
    return res;
}

int tide_group_check_subset(const struct tide_group *sub, const struct tide_group *g, const char *fn,
                            const char *what)
{
    int i = first_not_in(sub, g);
    if (i < 0)
        return MPI_SUCCESS;
    return tide_err(MPI_ERR_GROUP,
                    "%s: process %d of the group (%s:%u) is not in %s (argument group; it must be a subset)", fn,
                    i, sub->procs[i]->nspace, sub->procs[i]->rank, what);
}

struct keyed {
    int key, rank;
};

static int keyed_cmp(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

struct tide_group *tide_group_by_color(const struct tide_group *g, const int *ck, int stride, int color)
{
    int n = g->size, k = 0;
    struct keyed *v = malloc((size_t)(n ? n : 1) * sizeof *v);
    struct tide_proc **procs = malloc((size_t)(n ? n : 1) * sizeof *procs);
    struct tide_group *ng = NULL;
    if (v && procs) {
        for (int r = 0; r < n; r++)
            if (ck[r * stride] == color) {
                v[k].key = ck[r * stride + 1];
                v[k].rank = r;
                k++;
            }
        qsort(v, (size_t)k, sizeof *v, keyed_cmp);
        for (int i = 0; i < k; i++)
            procs[i] = g->procs[v[i].rank];
        ng = k ? tide_group_new(k, procs) : NULL;
    }
    free(v);
    free(procs);
    return ng;
}

static struct tide_comm *get_comm(MPI_Comm h, const char *fn, int *rc)
{
    struct tide_comm *c = tide_comm_get(h);
    if (!c)
        *rc = TIDE_ERR(MPI_ERR_COMM, "%s: invalid communicator%s (argument comm)", fn,
                       h == MPI_COMM_NULL ? " MPI_COMM_NULL" : "");
    return c;
}

/* ---- dup ---- */

/* Duplicate c with the given hints (NULL: none); attributes copied, the
 * topology kept. An error code (not raised) or MPI_SUCCESS. */
static int dup_common(struct tide_comm *c, const struct tide_info *hints, struct tide_comm **out)
{
    struct tide_comm *nc;
    int rc = c->is_inter ? tide_intercomm_dup(c, &nc) : c->ep ? tide_ep_split(c, 0, 0, &nc) : tide_comm_make(c, c->group, &nc);
    if (rc != MPI_SUCCESS)
        return rc;
    if (c->topo) {
        tide_topo_retain(c->topo);
        nc->topo = c->topo;
    }
    if (tide_comm_hints_take(&nc->info, hints) != MPI_SUCCESS) {
        tide_comm_release(nc);
        return tide_err(MPI_ERR_NO_MEM, "out of memory for the new communicator's hints");
    }
    rc = tide_attr_copy_all(TIDE_ATTR_COMM, c->handle, c->attrs, &nc->attrs);
    if (rc != MPI_SUCCESS) {
        /* a copy callback failed: the attributes copied so far go away */
        tide_attr_delete_all(TIDE_ATTR_COMM, nc->handle, &nc->attrs);
        tide_comm_release(nc);
        return rc;
    }
    *out = nc;
    return MPI_SUCCESS;
}

int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Comm_dup";
    int rc;
    struct tide_comm *c = get_comm(comm, fn, &rc), *nc;
    if (!c)
        return rc;
    if (!newcomm)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: newcomm must not be NULL", fn);
    rc = dup_common(c, tide_info_get(c->info), &nc);
    if (rc != MPI_SUCCESS) {
        *newcomm = MPI_COMM_NULL; /* e.g. an attribute copy callback failed */
        return tide_raise_comm(c, rc);
    }
    *newcomm = nc->handle;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Comm_dup)

int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Comm_dup_with_info";
    int rc;
    struct tide_comm *c = get_comm(comm, fn, &rc), *nc;
    if (!c)
        return rc;
    struct tide_info *hints = tide_info_get(info);
    if (info != MPI_INFO_NULL && !hints)
        return TIDE_ERR_COMM(c, MPI_ERR_INFO, "%s: invalid info object (argument info)", fn);
    if (!newcomm)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: newcomm must not be NULL", fn);
    rc = dup_common(c, hints, &nc);
    if (rc != MPI_SUCCESS) {
        *newcomm = MPI_COMM_NULL;
        return tide_raise_comm(c, rc);
    }
    *newcomm = nc->handle;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Comm_dup_with_info)

/* ---- create ---- */

int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Comm_create";
    int rc;
    struct tide_comm *c = get_comm(comm, fn, &rc), *nc = NULL;
    if (!c)
        return rc;
    struct tide_group *g = tide_group_get(group);
    if (!g)
        return TIDE_ERR_COMM(c, MPI_ERR_GROUP, "%s: invalid group%s (argument group)", fn,
                             group == MPI_GROUP_NULL ? " MPI_GROUP_NULL" : "");
    if (!newcomm)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: newcomm must not be NULL", fn);
    rc = tide_group_check_subset(g, c->group, fn, c->is_inter ? "the local group of comm" : "comm");
    if (rc != MPI_SUCCESS)
        return tide_raise_comm(c, rc);
    if (c->is_inter)
        rc = tide_intercomm_create_sub(c, g, &nc);
    else if (c->ep)
        rc = tide_ep_create(c, g, fn, &nc);
    else
        rc = tide_comm_make(c, g->rank != MPI_UNDEFINED ? g : NULL, &nc);
    if (rc != MPI_SUCCESS)
        return tide_raise_comm(c, rc);
    *newcomm = tide_comm_handle_of(nc);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Comm_create)

int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Comm_create_group";
    int rc;
    struct tide_comm *c = get_comm(comm, fn, &rc);
    if (!c)
        return rc;
    if (c->is_inter)
        return TIDE_ERR_COMM(c, MPI_ERR_COMM, "%s: comm must be an intracommunicator (argument comm)", fn);
    struct tide_group *g = tide_group_get(group);
    if (!g)
        return TIDE_ERR_COMM(c, MPI_ERR_GROUP, "%s: invalid group%s (argument group)", fn,
                             group == MPI_GROUP_NULL ? " MPI_GROUP_NULL" : "");
    if (tag < 0)
        return TIDE_ERR_COMM(c, MPI_ERR_TAG, "%s: invalid tag %d (argument tag; tags are 0 to MPI_TAG_UB)", fn,
                             tag);
    if (!newcomm)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: newcomm must not be NULL", fn);
    rc = tide_group_check_subset(g, c->group, fn, "comm");
    if (rc != MPI_SUCCESS)
        return tide_raise_comm(c, rc);
    if (c->ep) {
        struct tide_comm *nc = NULL;
        rc = tide_ep_create_group(c, g, tag, &nc);
        if (rc != MPI_SUCCESS)
            return tide_raise_comm(c, rc);
        *newcomm = tide_comm_handle_of(nc);
        return MPI_SUCCESS;
    }
    if (g->rank == MPI_UNDEFINED) { /* not a member: nothing to take part in */
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    int *ranks = malloc((size_t)g->size * sizeof *ranks);
    if (!ranks)
        return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    for (int i = 0; i < g->size; i++)
        ranks[i] = tide_group_rank_of(c->group, g->procs[i]);
    uint32_t id;
    rc = tide_context_agree_sub(c, g->size, g->rank, ranks, tide_tag_create_group(tag), &id);
    free(ranks);
    if (rc != MPI_SUCCESS)
        return tide_raise_comm(c, rc);
    struct tide_comm *nc = tide_comm_derive(c, g, NULL, id, NULL);
    if (!nc)
        return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    *newcomm = nc->handle;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Comm_create_group)

/* ---- split ---- */

int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Comm_split";
    int rc;
    struct tide_comm *c = get_comm(comm, fn, &rc), *nc = NULL;
    if (!c)
        return rc;
    if (color < 0 && color != MPI_UNDEFINED)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: invalid color %d (argument color; it must be >= 0 or MPI_UNDEFINED)",
                             fn, color);
    if (!newcomm)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: newcomm must not be NULL", fn);
    if (c->is_inter) {
        rc = tide_intercomm_split(c, color, key, &nc);
    } else if (c->ep) {
        rc = tide_ep_split(c, color, key, &nc);
    } else {
        int mine[2] = {color, key};
        int *all = malloc((size_t)c->size * sizeof mine);
        if (!all)
            return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
        rc = tide_exchange_allgather(c, mine, sizeof mine, all);
        struct tide_group *g = NULL;
        if (rc == MPI_SUCCESS && color != MPI_UNDEFINED && !(g = tide_group_by_color(c->group, all, 2, color)))
            rc = tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
        free(all);
        /* everyone takes part in the agreement, even after a local failure */
        int rc2 = tide_comm_make(c, g, &nc);
        tide_group_release(g);
        if (rc == MPI_SUCCESS)
            rc = rc2;
    }
    if (rc != MPI_SUCCESS) {
        if (nc)
            tide_comm_release(nc);
        return tide_raise_comm(c, rc);
    }
    *newcomm = tide_comm_handle_of(nc);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Comm_split)

#define HW_ID_LEN (MPI_MAX_PROCESSOR_NAME + 48)
#define HW_LEVELS_MAX 8
#define HW_VALUE_LEN 64

/* What every member tells the others in MPI_Comm_split_type: its split
 * type and key; SHARED: its node in ids[0]; HW_GUIDED: the value asked
 * and the resource of that type holding it in ids[0] ("" if none);
 * HW_UNGUIDED: its resource at every level of tide_hw_levels. */
struct split_type_entry {
    int type, key;
    char value[HW_VALUE_LEN];
    char ids[HW_LEVELS_MAX][HW_ID_LEN];
};

/* The level HW_UNGUIDED takes for member r: the first at which r has a
 * resource shared by fewer than all n members; -1 if none. */
static int unguided_level(const struct split_type_entry *all, int n, int r)
{
    for (int l = 0; l < tide_hw_nlevels && l < HW_LEVELS_MAX; l++) {
        if (!all[r].ids[l][0])
            continue;
        int same = 0;
        for (int q = 0; q < n; q++)
            same += all[q].type == MPI_COMM_TYPE_HW_UNGUIDED && strcmp(all[q].ids[l], all[r].ids[l]) == 0;
        if (same < n)
            return l;
    }
    return -1;
}

/* The color of every member (ck[2r], MPI_UNDEFINED: none) and the
 * resource type each one's communicator stands for. */
static void split_type_colors(const struct split_type_entry *all, int n, int *ck, const char **what)
{
    const char *ref = NULL; /* HW_GUIDED: the value of the lowest rank asking it */
    for (int r = 0; r < n && !ref; r++)
        if (all[r].type == MPI_COMM_TYPE_HW_GUIDED)
            ref = all[r].value;
    for (int r = 0; r < n; r++) {
        ck[2 * r] = MPI_UNDEFINED;
        ck[2 * r + 1] = all[r].key;
        what[r] = NULL;
        int t = all[r].type, level = 0;
        if (t == MPI_COMM_TYPE_HW_GUIDED && strcmp(all[r].value, ref) != 0)
            continue;
        if (t == MPI_COMM_TYPE_HW_UNGUIDED && (level = unguided_level(all, n, r)) < 0)
            continue;
        if (t == MPI_UNDEFINED || !all[r].ids[level][0])
            continue;
        for (int q = 0; q <= r; q++)
            if (all[q].type == t && strcmp(all[q].ids[level], all[r].ids[level]) == 0 &&
                (t != MPI_COMM_TYPE_HW_GUIDED || strcmp(all[q].value, ref) == 0)) {
                ck[2 * r] = level * n + q;
                break;
            }
        what[r] = t == MPI_COMM_TYPE_HW_UNGUIDED ? tide_hw_levels[level]
                  : t == MPI_COMM_TYPE_HW_GUIDED ? all[r].value
                                                 : TIDE_HW_SHARED_MEMORY;
    }
}

int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Comm_split_type";
    int rc;
    struct tide_comm *c = get_comm(comm, fn, &rc), *nc = NULL;
    if (!c)
        return rc;
    if (c->is_inter)
        return TIDE_ERR_COMM(c, MPI_ERR_COMM, "%s: comm must be an intracommunicator (argument comm)", fn);
    if (split_type != MPI_COMM_TYPE_SHARED && split_type != MPI_COMM_TYPE_HW_GUIDED &&
        split_type != MPI_COMM_TYPE_HW_UNGUIDED && split_type != MPI_UNDEFINED)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG,
                             "%s: unknown split type %d (argument split_type; MPI_COMM_TYPE_SHARED, "
                             "MPI_COMM_TYPE_HW_GUIDED, MPI_COMM_TYPE_HW_UNGUIDED or MPI_UNDEFINED)",
                             fn, split_type);
    struct tide_info *hints = tide_info_get(info);
    if (info != MPI_INFO_NULL && !hints)
        return TIDE_ERR_COMM(c, MPI_ERR_INFO, "%s: invalid info object (argument info)", fn);
    if (!newcomm)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: newcomm must not be NULL", fn);
    /* every member's resources: the locality flags of the process table
     * need not be known for every member */
    struct split_type_entry *mine = calloc(1, sizeof *mine);
    struct split_type_entry *all = malloc((size_t)c->size * sizeof *all);
    int *ck = malloc((size_t)c->size * 2 * sizeof *ck);
    const char **what = malloc((size_t)c->size * sizeof *what);
    if (!mine || !all || !ck || !what) {
        free(mine);
        free(all);
        free(ck);
        free(what);
        return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    }
    mine->type = split_type;
    mine->key = key;
    if (split_type == MPI_COMM_TYPE_SHARED) {
        tide_hw_resource_id(TIDE_HW_SHARED_MEMORY, mine->ids[0], HW_ID_LEN);
    } else if (split_type == MPI_COMM_TYPE_HW_GUIDED) {
        /* no value, or one that names no resource: this process gets
         * MPI_COMM_NULL (its ids stay empty) */
        const char *v = tide_info_lookup(hints, "mpi_hw_resource_type");
        if (v && strlen(v) < HW_VALUE_LEN) {
            snprintf(mine->value, HW_VALUE_LEN, "%s", v);
            tide_hw_resource_id(v, mine->ids[0], HW_ID_LEN);
        }
    } else if (split_type == MPI_COMM_TYPE_HW_UNGUIDED) {
        for (int l = 0; l < tide_hw_nlevels && l < HW_LEVELS_MAX; l++)
            tide_hw_resource_id(tide_hw_levels[l], mine->ids[l], HW_ID_LEN);
    }
    rc = tide_exchange_allgather(c, mine, sizeof *mine, all);
    struct tide_group *g = NULL;
    const char *type_used = NULL;
    if (rc == MPI_SUCCESS) {
        split_type_colors(all, c->size, ck, what);
        int color = ck[2 * c->rank];
        if (color != MPI_UNDEFINED && !(g = tide_group_by_color(c->group, ck, 2, color)))
            rc = tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
        type_used = what[c->rank];
    }
    int rc2 = c->ep ? tide_ep_split(c, rc == MPI_SUCCESS ? ck[2 * c->rank] : MPI_UNDEFINED, key, &nc)
                    : tide_comm_make(c, g, &nc);
    tide_group_release(g);
    if (rc == MPI_SUCCESS)
        rc = rc2;
    /* the hardware types say on the new communicator what it stands for */
    if (rc == MPI_SUCCESS && nc && type_used && split_type != MPI_COMM_TYPE_SHARED) {
        if (tide_info_dup_internal(NULL, &nc->info) != MPI_SUCCESS ||
            tide_info_set_internal(tide_info_get(nc->info), "mpi_hw_resource_type", type_used) != MPI_SUCCESS)
            rc = tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    }
    free(mine);
    free(all);
    free(ck);
    free(what);
    if (rc != MPI_SUCCESS) {
        if (nc)
            tide_comm_release(nc);
        return tide_raise_comm(c, rc);
    }
    *newcomm = tide_comm_handle_of(nc);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Comm_split_type)

/* ---- free ---- */

int PMPI_Comm_free(MPI_Comm *comm)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Comm_free";
    if (!comm)
        return TIDE_ERR(MPI_ERR_ARG, "%s: comm must not be NULL", fn);
    int rc;
    struct tide_comm *c = get_comm(*comm, fn, &rc);
    if (!c)
        return rc;
    if (c == tide_comm_world || c == tide_comm_self)
        return TIDE_ERR_COMM(c, MPI_ERR_COMM, "%s: %s cannot be freed (argument comm)", fn,
                             c == tide_comm_world ? "MPI_COMM_WORLD" : "MPI_COMM_SELF");
    /* the delete callbacks run now; the object goes when nothing uses it */
    rc = tide_attr_delete_all(TIDE_ATTR_COMM, c->handle, &c->attrs);
    if (rc != MPI_SUCCESS)
        return tide_raise_comm(c, rc);
    c->freed = true;
    *comm = MPI_COMM_NULL;
    tide_comm_release(c);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Comm_free)
