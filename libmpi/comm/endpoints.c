/*
 * endpoints.c: building endpoints communicators (endpoints.h):
 * MPIX_Comm_create_endpoints, and the split to which MPI_Comm_dup,
 * MPI_Comm_split, MPI_Comm_split_type and MPI_Comm_create of an
 * endpoints communicator come down.
 *
 * A build is one exchange among the parent's ranks (what each wants),
 * then a meeting of each process's endpoints of the parent: the first
 * of them agrees, with the first endpoints of the other processes, one
 * context id per endpoint index of every new communicator, and makes
 * every new handle of its process.
 */
#include "runtime/api.h"
#include "runtime/errhandler.h"
#include "runtime/info.h"
#include "runtime/lock.h"
#include "runtime/proc.h"
#include "comm/comm.h"
#include "comm/comm_create.h"
#include "comm/context.h"
#include "comm/endpoints.h"
#include "comm/exchange.h"
#include "comm/group.h"
#include "pt2pt/progress.h"
#include "mpi-ext.h"

#include <stdlib.h>
#include <string.h>

/* What each rank of the parent wants (exchanged). */
struct ep_want {
    int32_t color, key, count, serial;
};

/* What an endpoint brings to its process's meeting. */
struct ep_arrival {
    struct tide_comm *h;    /* its handle of the parent */
    struct tide_comm **out; /* where its new handles go */
    int count;
};

/* The build, as every endpoint of this process sees it. */
struct ep_build {
    struct tide_comm *parent;
    const struct ep_want *all; /* one per rank of the parent */
    uint32_t seq;
};

struct ep_member {
    int32_t key;
    int r, j; /* rank in the parent, handle index there */
};

static int serial_next = 1;

int tide_ep_serials(int n)
{
    int s = serial_next;
    serial_next += n > 0 ? n : 0;
    return s;
}

int tide_ep_refuse(struct tide_comm *c, const char *fn)
{
    if (!c || !c->ep)
        return 0;
    return TIDE_ERR_COMM(c, MPI_ERR_COMM, "%s: not supported on an endpoints communicator (argument comm; "
                                          "see docs/ENDPOINTS.md)", fn);
}

void tide_ep_set_release(struct tide_ep_set *s)
{
    if (!s || --s->refcount > 0)
        return;
    free(s->ctx_of_rank);
    free(s->meet[0].recs);
    free(s->meet[1].recs);
    free(s);
}

struct tide_ep_set *tide_ep_set_new(int size, int nlocal)
{
    struct tide_ep_set *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->size = size;
    s->nlocal = nlocal;
    s->ctx_of_rank = malloc((size_t)(size ? size : 1) * sizeof *s->ctx_of_rank);
    s->meet[0].recs = calloc((size_t)nlocal, sizeof(void *));
    s->meet[1].recs = calloc((size_t)nlocal, sizeof(void *));
    s->meet[1].seq = 1;
    if (!s->ctx_of_rank || !s->meet[0].recs || !s->meet[1].recs) {
        s->refcount = 1;
        tide_ep_set_release(s);
        return NULL;
    }
    return s;
}

struct tide_ep_set *tide_ep_set_make(int size, int nlocal, const uint32_t *ids, int nids, const int *index)
{
    for (int k = nlocal; k < nids; k++)
        tide_context_release(ids[k]);
    struct tide_ep_set *set = tide_ep_set_new(size, nlocal);
    if (!set) {
        for (int k = 0; k < nlocal && k < nids; k++)
            tide_context_release(ids[k]);
        return NULL;
    }
    for (int r = 0; r < size; r++)
        set->ctx_of_rank[r] = ids[index[r]];
    return set;
}

void tide_ep_set_join(struct tide_ep_set *set, struct tide_comm *nc, int local)
{
    set->refcount++;
    nc->ep = set;
    nc->ep_ctx = set->ctx_of_rank;
    nc->ep_local = local;
}

void tide_ep_set_made(struct tide_ep_set *set)
{
    if (set->refcount == 0) { /* no handle joined it */
        set->refcount = 1;
        tide_ep_set_release(set);
    }
}

/* ---- the meeting of a process's endpoints ---- */

struct meet_wait {
    struct tide_ep_meeting *m;
    int nlocal;
};

static bool all_arrived(void *arg)
{
    struct meet_wait *w = arg;
    return w->m->arrived == w->nlocal;
}

static bool meeting_done(void *arg)
{
    struct meet_wait *w = arg;
    return w->m->done;
}

int tide_ep_meet(struct tide_comm *h, void *rec, tide_ep_meeting_work *work, void *arg)
{
    struct tide_ep_set *s = h->ep;
    if (!s || s->nlocal == 1)
        return work(&rec, 1, arg);
    uint32_t seq = h->ep_meetings++;
    struct tide_ep_meeting *m = &s->meet[seq & 1];
    if (m->seq != seq) {
        /* its last use (seq - 2) is over: every endpoint left it before
         * any could reach this one */
        m->seq = seq;
        m->arrived = 0;
        m->done = false;
    }
    m->recs[h->ep_local] = rec;
    m->arrived++;
    struct meet_wait w = {m, s->nlocal};
    if (h->ep_local == 0) {
        tide_progress_until(all_arrived, &w);
        m->rc = work(m->recs, s->nlocal, arg);
        m->done = true;
    } else {
        tide_progress_wake(); /* the first may be asleep waiting for us */
        tide_progress_until(meeting_done, &w);
    }
    if (h->ep_local == 0)
        tide_progress_wake();
    return m->rc;
}

/* ---- meetings of some of a process's endpoints, by key ---- */

struct sub_meeting {
    struct sub_meeting *next;
    const void *scope; /* the key */
    int a, b;
    int expected, arrived, left;
    bool done;
    int rc;
    void **recs;
};

static struct sub_meeting *sub_meetings;

struct sub_wait {
    struct sub_meeting *m;
};

static bool sub_all_arrived(void *arg)
{
    struct sub_wait *w = arg;
    return w->m->arrived == w->m->expected;
}

static bool sub_done(void *arg)
{
    struct sub_wait *w = arg;
    return w->m->done;
}

int tide_ep_meet_keyed(const void *scope, int a, int b, int nlocal, int local, void *rec, tide_ep_meeting_work *work,
                       void *arg)
{
    if (nlocal == 1)
        return work(&rec, 1, arg);
    struct sub_meeting *m = sub_meetings;
    while (m && (m->done || m->scope != scope || m->a != a || m->b != b))
        m = m->next;
    if (!m) {
        m = calloc(1, sizeof *m);
        if (m)
            m->recs = calloc((size_t)nlocal, sizeof *m->recs);
        if (!m || !m->recs) {
            free(m);
            return tide_err(MPI_ERR_NO_MEM, "endpoints: out of memory");
        }
        m->scope = scope;
        m->a = a;
        m->b = b;
        m->expected = nlocal;
        m->next = sub_meetings;
        sub_meetings = m;
    }
    m->recs[local] = rec;
    m->arrived++;
    struct sub_wait w = {m};
    if (local == 0) {
        tide_progress_until(sub_all_arrived, &w);
        m->rc = work(m->recs, nlocal, arg);
        m->done = true;
        tide_progress_wake();
    } else {
        tide_progress_wake(); /* the first may be asleep waiting for us */
        tide_progress_until(sub_done, &w);
    }
    int rc = m->rc;
    if (++m->left == m->expected) {
        for (struct sub_meeting **pp = &sub_meetings; *pp; pp = &(*pp)->next)
            if (*pp == m) {
                *pp = m->next;
                break;
            }
        free(m->recs);
        free(m);
    }
    return rc;
}

/* ---- the build ---- */

static int member_cmp(const void *a, const void *b)
{
    const struct ep_member *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    if (x->r != y->r)
        return x->r < y->r ? -1 : 1;
    return (x->j > y->j) - (x->j < y->j);
}

static int int_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int tide_ep_tag(uint32_t seq, int k)
{
    return -2 - (1 << 30) - (1 << 29) - (int)(((seq & 0xffffu) << 12) | ((unsigned)k & 0xfffu));
}

/* The communicator of one color: its members in rank order, each one's
 * endpoint index in its process; this process's share of it. */
static int build_color(struct ep_build *b, void **recs, int nrecs, int color, const int *leaders, int nleaders,
                       int me_leader, int *nagreed)
{
    struct tide_comm *c = b->parent;
    int n = c->size, total = 0;
    for (int r = 0; r < n; r++)
        if (b->all[r].color == color && b->all[r].count > 0)
            total += b->all[r].count;
    struct ep_member *mem = malloc((size_t)total * sizeof *mem);
    int *local_idx = malloc((size_t)total * sizeof *local_idx);
    struct tide_proc **procs = malloc((size_t)total * sizeof *procs);
    int *serials = malloc((size_t)total * sizeof *serials);
    uint32_t *ids = NULL;
    struct tide_ep_set *set = NULL;
    int rc = MPI_SUCCESS;
    if (!mem || !local_idx || !procs || !serials) {
        rc = tide_err(MPI_ERR_NO_MEM, "endpoints: out of memory");
        goto out;
    }
    int k = 0;
    for (int r = 0; r < n; r++)
        if (b->all[r].color == color)
            for (int j = 0; j < b->all[r].count; j++)
                mem[k++] = (struct ep_member){b->all[r].key, r, j};
    qsort(mem, (size_t)total, sizeof *mem, member_cmp);
    int nids = 0, mine = 0;
    for (int m = 0; m < total; m++) {
        procs[m] = c->peers[mem[m].r];
        serials[m] = b->all[mem[m].r].serial + mem[m].j;
        local_idx[m] = 0;
        for (int q = 0; q < m; q++)
            local_idx[m] += procs[q] == procs[m];
        if (local_idx[m] + 1 > nids)
            nids = local_idx[m] + 1;
        mine += procs[m] == tide.me;
    }
    /* one id per endpoint index, agreed among the processes' first
     * endpoints of the parent; those not used here are given back */
    ids = malloc((size_t)nids * sizeof *ids);
    if (!ids) {
        rc = tide_err(MPI_ERR_NO_MEM, "endpoints: out of memory");
        goto out;
    }
    struct tide_comm *lead = ((struct ep_arrival *)recs[0])->h;
    for (int i = 0; i < nids; i++) {
        rc = tide_context_agree_sub(lead, nleaders, me_leader, leaders, tide_ep_tag(b->seq, (*nagreed)++), &ids[i]);
        if (rc != MPI_SUCCESS) {
            while (i-- > 0)
                tide_context_release(ids[i]);
            goto out;
        }
    }
    if (!mine) {
        for (int i = 0; i < nids; i++)
            tide_context_release(ids[i]);
        goto out;
    }
    set = tide_ep_set_make(total, mine, ids, nids, local_idx);
    if (!set) {
        rc = tide_err(MPI_ERR_NO_MEM, "endpoints: out of memory");
        goto out;
    }
    for (int m = 0; m < total; m++) {
        if (procs[m] != tide.me)
            continue;
        struct ep_arrival *a = NULL;
        for (int i = 0; i < nrecs; i++)
            if (((struct ep_arrival *)recs[i])->h->rank == mem[m].r)
                a = recs[i];
        struct tide_group *g = tide_group_new_ep(total, procs, serials, m);
        struct tide_comm *nc = g ? tide_comm_derive(a->h, g, NULL, ids[local_idx[m]], NULL) : NULL;
        tide_group_release(g);
        if (!nc) {
            rc = tide_err(MPI_ERR_NO_MEM, "endpoints: out of memory for a new communicator");
            if (!g)
                tide_context_release(ids[local_idx[m]]);
            continue;
        }
        tide_ep_set_join(set, nc, local_idx[m]);
        a->out[mem[m].j] = nc;
    }
    tide_ep_set_made(set);
out:
    free(mem);
    free(local_idx);
    free(procs);
    free(serials);
    free(ids);
    return rc;
}

static int build_work(void **recs, int nrecs, void *arg)
{
    struct ep_build *b = arg;
    struct tide_comm *c = b->parent;
    int n = c->size;
    int *leaders = malloc((size_t)n * sizeof *leaders);
    int *colors = malloc((size_t)n * sizeof *colors);
    if (!leaders || !colors) {
        free(leaders);
        free(colors);
        return tide_err(MPI_ERR_NO_MEM, "endpoints: out of memory");
    }
    /* each process's first rank in the parent speaks for it */
    int nleaders = 0, me_leader = -1;
    for (int r = 0; r < n; r++) {
        int first = 1;
        for (int q = 0; q < r && first; q++)
            first = c->peers[q] != c->peers[r];
        if (!first)
            continue;
        if (c->peers[r] == tide.me)
            me_leader = nleaders;
        leaders[nleaders++] = r;
    }
    int ncolors = 0;
    for (int r = 0; r < n; r++)
        if (b->all[r].color != MPI_UNDEFINED && b->all[r].count > 0)
            colors[ncolors++] = b->all[r].color;
    qsort(colors, (size_t)ncolors, sizeof *colors, int_cmp);
    int rc = MPI_SUCCESS, nagreed = 0;
    for (int i = 0; i < ncolors && rc == MPI_SUCCESS; i++)
        if (i == 0 || colors[i] != colors[i - 1])
            rc = build_color(b, recs, nrecs, colors[i], leaders, nleaders, me_leader, &nagreed);
    free(leaders);
    free(colors);
    return rc;
}

int tide_ep_build(struct tide_comm *c, int color, int key, int count, int serial, struct tide_comm **out)
{
    if (color == MPI_UNDEFINED)
        count = 0;
    for (int j = 0; j < count; j++)
        out[j] = NULL;
    struct ep_want mine = {color, key, count, serial};
    struct ep_want *all = malloc((size_t)c->size * sizeof *all);
    if (!all)
        return tide_err(MPI_ERR_NO_MEM, "endpoints: out of memory");
    uint32_t seq = c->coll_seq++;
    int rc = tide_exchange_allgather(c, &mine, sizeof mine, all);
    if (rc != MPI_SUCCESS) {
        free(all);
        return rc;
    }
    struct ep_build b = {c, all, seq};
    struct ep_arrival a = {c, out, count};
    rc = tide_ep_meet(c, &a, build_work, &b);
    free(all);
    if (rc != MPI_SUCCESS) {
        for (int j = 0; j < count; j++)
            if (out[j]) {
                tide_comm_release(out[j]);
                out[j] = NULL;
            }
        return rc;
    }
    for (int j = 0; j < count; j++)
        if (!out[j])
            return tide_err(MPI_ERR_INTERN, "endpoints: a handle was not made");
    return MPI_SUCCESS;
}

static int serial_of(const struct tide_comm *c)
{
    return c->group->ep ? c->group->ep[c->rank] : 0;
}

int tide_ep_split(struct tide_comm *c, int color, int key, struct tide_comm **out)
{
    struct tide_comm *nc[1] = {NULL};
    int rc = tide_ep_build(c, color, key, color == MPI_UNDEFINED ? 0 : 1, serial_of(c), nc);
    *out = nc[0];
    return rc;
}

int tide_ep_create(struct tide_comm *c, const struct tide_group *g, const char *fn, struct tide_comm **out)
{
    /* this endpoint's place in g: its rank there is its key */
    int at = MPI_UNDEFINED;
    if (g->size > 0 && !g->ep)
        return tide_err(MPI_ERR_GROUP,
                        "%s: the group names processes, not endpoints (argument group; make it from "
                        "MPI_Comm_group of the endpoints communicator)",
                        fn);
    for (int i = 0; i < g->size && at == MPI_UNDEFINED; i++)
        if (tide_group_same(g, i, c->group, c->rank))
            at = i;
    return tide_ep_split(c, at == MPI_UNDEFINED ? MPI_UNDEFINED : 0, at, out);
}

/* ---- the interface ---- */

int PMPIX_Comm_create_endpoints(MPI_Comm parent_comm, int my_num_ep, MPI_Info info, MPI_Comm out_comm_hdls[])
{
    TIDE_API_ENTER();
    static const char fn[] = "MPIX_Comm_create_endpoints";
    struct tide_comm *c = tide_comm_get(parent_comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "%s: invalid communicator%s (argument parent_comm)", fn,
                        parent_comm == MPI_COMM_NULL ? " MPI_COMM_NULL" : "");
    if (c->is_inter)
        return TIDE_ERR_COMM(c, MPI_ERR_COMM, "%s: parent_comm must be an intracommunicator (argument parent_comm)",
                             fn);
    if (my_num_ep < 0)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: invalid number of endpoints %d (argument my_num_ep; it must be >= 0)",
                             fn, my_num_ep);
    if (my_num_ep > 0 && !out_comm_hdls)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: out_comm_hdls must not be NULL", fn);
    struct tide_info *hints = tide_info_get(info);
    if (info != MPI_INFO_NULL && !hints)
        return TIDE_ERR_COMM(c, MPI_ERR_INFO, "%s: invalid info object (argument info)", fn);
    if (my_num_ep > 1 && !tide_thread_multiple)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG,
                             "%s: %d endpoints in one process need MPI_THREAD_MULTIPLE (argument my_num_ep; "
                             "initialize with MPI_Init_thread)",
                             fn, my_num_ep);
    struct tide_comm **hs = calloc((size_t)(my_num_ep ? my_num_ep : 1), sizeof *hs);
    if (!hs)
        return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    int rc = tide_ep_build(c, 0, 0, my_num_ep, tide_ep_serials(my_num_ep), hs);
    for (int i = 0; i < my_num_ep && rc == MPI_SUCCESS; i++)
        if (tide_comm_hints_take(&hs[i]->info, hints) != MPI_SUCCESS)
            rc = tide_err(MPI_ERR_NO_MEM, "%s: out of memory for the hints", fn);
    if (rc != MPI_SUCCESS) {
        for (int i = 0; i < my_num_ep; i++)
            if (hs[i])
                tide_comm_release(hs[i]);
        free(hs);
        return tide_raise_comm(c, rc);
    }
    for (int i = 0; i < my_num_ep; i++)
        out_comm_hdls[i] = hs[i]->handle;
    free(hs);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPIX_Comm_create_endpoints)
