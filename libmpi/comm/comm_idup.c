/*
 * comm_idup.c: MPI_Comm_idup, a nonblocking MPI_Comm_dup. The context
 * agreement runs as a state machine advanced by the progress engine (a
 * progress hook), so the call returns at once and the duplicate appears
 * when the request completes:
 *  - intracommunicator: rounds of the offer reduction over the parent
 *    (context.h) until an id is found;
 *  - intercommunicator: the same over the local group for the new local
 *    communicator, then rounds of: reduction over the local group, the
 *    leaders (local rank 0) swapping their groups' offers over the parent,
 *    and a broadcast of the leader's decision.
 *  - endpoints communicator (endpoints.h): the process's first endpoint
 *    runs one agreement per endpoint index with the other processes'
 *    first endpoints (reductions over those alone, tagged by the call's
 *    collective sequence number and the index), then makes the new
 *    communicator's set of contexts; each endpoint of the process, when
 *    its own request is advanced, takes its handle from it (an endpoint
 *    may call before or after the first has finished).
 * Every message of the operation carries collective sequence numbers
 * taken at the call, so collectives started after it on the parent do
 * not mix with it. The attributes are copied (their copy callbacks run)
 * at the call, the error handler, topology and hints are the parent's
 * at the call; *newcomm is written when the request completes.
 */
#include "runtime/api.h"
#include "runtime/attr.h"
#include "runtime/errhandler.h"
#include "runtime/info.h"
#include "comm/comm.h"
#include "comm/endpoints.h"
#include "comm/comm_create.h"
#include "comm/context.h"
#include "comm/exchange.h"
#include "comm/group.h"
#include "comm/topo.h"
#include "datatype/datatype.h"
#include "pt2pt/progress.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/request.h"

#include <stdlib.h>
#include <string.h>

enum {
    PH_A_START,   /* agreement A: the new communicator's id (intra) or its local communicator's */
    PH_A_RUN,
    PH_B_START,   /* agreement B (inter): the new intercommunicator's id */
    PH_B_RUN,
    PH_B_XCHG,    /* leader: swapping offers with the other leader */
    PH_B_BCAST,   /* the leader's decision to the group */
    PH_FINISH,
    PH_EP_START,  /* endpoints, the process's first: agreement of index ep_k */
    PH_EP_RUN,
    PH_EP_TAKE,   /* endpoints: this endpoint's handle, once the ids are agreed */
};

/* One MPI_Comm_idup of an endpoints communicator, as this process's
 * endpoints share it: found by the communicator's set and the call's
 * collective sequence number. */
struct ep_idup {
    struct ep_idup *next;
    struct tide_ep_set *set;    /* of the parent (a reference) */
    uint32_t seq;
    int nids;
    uint32_t *ids;
    int *leaders, nleaders, me_leader; /* the processes' first endpoints (ranks of the parent) */
    int *index;                 /* each rank's index among its process's endpoints */
    struct tide_ep_set *nset;   /* the new communicator's (a reference, until every endpoint took its handle) */
    bool done;
    int rc;
    int taken;                  /* endpoints that took their handle (or failed) */
};

static struct ep_idup *ep_idups;

#define STEP_BCAST 31 /* in a round's block of 32 steps; the reduction uses 0..30 */

struct decision {
    int32_t status;
    uint32_t id;
    uint32_t floor;
    uint32_t outcome; /* TIDE_CTX_* */
};

struct idup {
    struct idup *next;
    struct tide_request *req;  /* the user's; req->comm holds the parent */
    struct tide_comm *parent;
    struct tide_comm *lc;      /* parent, or its local communicator */
    MPI_Comm *newcomm;
    struct tide_attr_list *attrs;
    int copy_err;              /* a copy callback failed at the call: the
                                  agreement still runs (the other ranks are
                                  in it), then *newcomm is MPI_COMM_NULL */
    struct tide_topo *topo;
    int info;
    int errhandler;
    int phase;
    struct tide_ctx_reduce ra, rb;
    struct tide_ctx_offer offer, theirs;
    struct tide_ctx_agreement ag; /* A, then B */
    uint32_t id_a, id_b;
    bool have_a;
    /* B: the leaders' swap and the broadcast */
    uint32_t seq_x;            /* the parent's sequence number for the swap */
    struct decision dec;
    int bc_round;
    bool bc_got;
    struct tide_request *rq[34];
    int nrq;
    struct ep_idup *ep; /* endpoints communicator */
    int ep_k;
};

static struct idup *active;
static bool hook_installed, in_hook;

static struct tide_datatype *bytes(void)
{
    return tide_datatype_get(MPI_BYTE);
}

/* Outstanding requests all done? Frees them; *err gets the first error. */
static bool all_done(struct idup *d, int *err)
{
    for (int i = 0; i < d->nrq; i++)
        if (d->rq[i] && !d->rq[i]->complete)
            return false;
    for (int i = 0; i < d->nrq; i++) {
        if (!d->rq[i])
            continue;
        int e = tide_wait_free(d->rq[i], MPI_STATUS_IGNORE);
        if (e != MPI_SUCCESS && *err == MPI_SUCCESS)
            *err = e;
        d->rq[i] = NULL;
    }
    d->nrq = 0;
    return true;
}

static int bcast_tag(struct idup *d)
{
    return tide_coll_tag(d->rb.seq, (d->bc_round * 32 + STEP_BCAST) & 0x3ff);
}

/* Post the decision's sends to this member's children of a binomial tree
 * rooted at local rank 0. */
static int bcast_children(struct idup *d)
{
    int n = d->lc->size, vr = d->lc->rank;
    int low = vr ? (vr & -vr) : 1 << 30;
    for (int m = 1; m < low && vr + m < n; m <<= 1) {
        int rc = tide_isend(&d->dec, (int)sizeof d->dec, bytes(), vr + m, bcast_tag(d), d->lc, d->lc->context_id + 1,
                            TIDE_MODE_STANDARD, &d->rq[d->nrq]);
        if (rc != MPI_SUCCESS)
            return rc;
        d->nrq++;
    }
    return MPI_SUCCESS;
}

/* The new communicator(s), from the agreed ids. */
static int finish(struct idup *d)
{
    struct tide_comm *p = d->parent, *nc;
    if (d->ep) {
        uint32_t id = d->ep->ids[p->ep_local];
        struct tide_group *g = tide_group_new_ep(p->size, p->group->procs, p->group->ep, p->rank);
        nc = g ? tide_comm_derive(p, g, NULL, id, NULL) : NULL;
        if (!g)
            tide_context_release(id);
        tide_group_release(g);
        if (nc)
            tide_ep_set_join(d->ep->nset, nc, p->ep_local);
    } else if (p->is_inter) {
        struct tide_comm *nlc = tide_comm_derive(p, p->group, NULL, d->id_a, NULL);
        if (!nlc) {
            tide_context_release(d->id_b);
            return tide_err(MPI_ERR_NO_MEM, "MPI_Comm_idup: out of memory");
        }
        nc = tide_comm_derive(p, p->group, p->remote_group, d->id_b, nlc);
    } else {
        nc = tide_comm_derive(p, p->group, NULL, d->id_a, NULL);
    }
    if (!nc)
        return tide_err(MPI_ERR_NO_MEM, "MPI_Comm_idup: out of memory");
    if (d->copy_err) {
        tide_comm_release(nc); /* its context ids go with it */
        return d->copy_err;
    }
    /* what the parent had at the call */
    tide_errhandler_release(nc->errhandler);
    nc->errhandler = d->errhandler;
    d->errhandler = MPI_ERRHANDLER_NULL;
    nc->topo = d->topo;
    d->topo = NULL;
    nc->info = d->info;
    d->info = MPI_INFO_NULL;
    nc->attrs = d->attrs;
    d->attrs = NULL;
    *d->newcomm = nc->handle;
    return MPI_SUCCESS;
}

/* Endpoints: start the agreement of index d->ep_k among the processes'
 * first endpoints. */
static void ep_agreement_begin(struct idup *d)
{
    struct ep_idup *e = d->ep;
    tide_ctx_reduce_init_sub(&d->ra, d->parent, e->nleaders, e->me_leader, e->leaders, tide_ep_tag(e->seq, d->ep_k));
    tide_ctx_agreement_begin(&d->ag, tide_ctx_reduce_key(&d->ra), true);
    d->phase = PH_EP_START;
}

/* Endpoints: this process's record of the call with sequence number seq
 * on c, made by the first of its endpoints to call. */
static struct ep_idup *ep_idup_of(struct tide_comm *c, uint32_t seq)
{
    for (struct ep_idup *e = ep_idups; e; e = e->next)
        if (e->set == c->ep && e->seq == seq)
            return e;
    struct ep_idup *e = calloc(1, sizeof *e);
    int n = c->size;
    if (e) {
        e->ids = malloc((size_t)n * sizeof *e->ids);
        e->leaders = malloc((size_t)n * sizeof *e->leaders);
        e->index = malloc((size_t)n * sizeof *e->index);
    }
    if (!e || !e->ids || !e->leaders || !e->index) {
        if (e) {
            free(e->ids);
            free(e->leaders);
            free(e->index);
            free(e);
        }
        return NULL;
    }
    e->set = c->ep;
    e->set->refcount++;
    e->seq = seq;
    e->me_leader = -1;
    for (int r = 0; r < n; r++) {
        e->index[r] = 0;
        for (int q = 0; q < r; q++)
            e->index[r] += c->peers[q] == c->peers[r];
        if (e->index[r] + 1 > e->nids)
            e->nids = e->index[r] + 1;
        if (e->index[r] == 0) {
            if (c->peers[r] == c->peers[c->rank])
                e->me_leader = e->nleaders;
            e->leaders[e->nleaders++] = r;
        }
    }
    e->next = ep_idups;
    ep_idups = e;
    return e;
}

/* A round of reduction d->ra for agreement d->ag (A, or an endpoint
 * index's): 0 while it runs, 1 when the id is agreed (*id), 2 when
 * another round must run, -1 on error (*rc). */
static int round_a(struct idup *d, uint32_t *id, int *rc)
{
    int t = tide_ctx_reduce_test(&d->ra);
    if (t == 0)
        return 0;
    if (t < 0) {
        *rc = d->ra.err;
        return -1;
    }
    uint32_t floor_word;
    int k = tide_ctx_agreement_outcome(&d->ag, &d->ra.acc, id, &floor_word);
    k = tide_ctx_agreement_next(&d->ag, k, *id, floor_word);
    if (k == TIDE_CTX_EXHAUSTED) {
        *rc = tide_err(MPI_ERR_INTERN, "MPI_Comm_idup: no context id is free at every member");
        return -1;
    }
    return k == TIDE_CTX_DONE ? 1 : 2;
}

/* Endpoints: index d->ep_k's id agreed; the next agreement, or once
 * every index has its id, the new communicator's set (the ids of the
 * indices this process does not use go back). */
static int ep_index_agreed(struct idup *d, uint32_t id)
{
    struct ep_idup *e = d->ep;
    e->ids[d->ep_k++] = id;
    if (d->ep_k < e->nids) {
        ep_agreement_begin(d);
        return MPI_SUCCESS;
    }
    e->nset = tide_ep_set_make(d->parent->size, e->set->nlocal, e->ids, e->nids, e->index);
    if (!e->nset) {
        d->ep_k = 0; /* all released */
        return tide_err(MPI_ERR_NO_MEM, "MPI_Comm_idup: out of memory");
    }
    e->nset->refcount++; /* until every endpoint took its handle */
    e->done = true;
    tide_progress_wake(); /* endpoints asleep waiting for it */
    d->phase = PH_EP_TAKE;
    return MPI_SUCCESS;
}

/* Advance; true when the operation is over (d->req->error says how). */
static bool advance(struct idup *d)
{
    int rc = MPI_SUCCESS, t;
    for (;;) {
        switch (d->phase) {
        case PH_A_START:
        case PH_EP_START:
            tide_ctx_agreement_offer(&d->ag, &d->offer);
            tide_ctx_reduce_start(&d->ra, &d->offer);
            d->phase = d->phase == PH_A_START ? PH_A_RUN : PH_EP_RUN;
            break;
        case PH_A_RUN:
        case PH_EP_RUN: {
            bool ep = d->phase == PH_EP_RUN;
            uint32_t id;
            if ((t = round_a(d, &id, &rc)) <= 0) {
                if (t == 0)
                    return false;
                goto fail;
            }
            if (t == 2) {
                d->phase = ep ? PH_EP_START : PH_A_START;
                break;
            }
            if (ep) {
                if ((rc = ep_index_agreed(d, id)) != MPI_SUCCESS)
                    goto fail;
                break;
            }
            d->id_a = id;
            d->have_a = true;
            if (d->parent->is_inter) /* keyed by the parent, the same in both groups */
                tide_ctx_agreement_begin(&d->ag, tide_ctx_key(d->parent->context_id + 1, d->seq_x), true);
            d->phase = d->parent->is_inter ? PH_B_START : PH_FINISH;
            break;
        }
        case PH_B_START:
            tide_ctx_agreement_offer(&d->ag, &d->offer);
            tide_ctx_reduce_start(&d->rb, &d->offer);
            d->bc_got = false;
            d->phase = PH_B_RUN;
            break;
        case PH_B_RUN:
            if ((t = tide_ctx_reduce_test(&d->rb)) == 0)
                return false;
            if (t < 0) {
                rc = d->rb.err;
                goto fail;
            }
            d->bc_round = d->rb.round - 1;
            if (d->lc->rank == 0) {
                uint32_t ctx = d->parent->context_id + 1;
                int tag = tide_coll_tag(d->seq_x, 0);
                if ((rc = tide_irecv(&d->theirs, (int)sizeof d->theirs, bytes(), 0, tag, d->parent, ctx, &d->rq[0])) !=
                    MPI_SUCCESS)
                    goto fail;
                d->nrq = 1;
                if ((rc = tide_isend(&d->rb.acc, (int)sizeof d->rb.acc, bytes(), 0, tag, d->parent, ctx,
                                     TIDE_MODE_STANDARD, &d->rq[1])) != MPI_SUCCESS)
                    goto fail;
                d->nrq = 2;
                d->phase = PH_B_XCHG;
            } else {
                /* the decision comes down the tree from the parent node */
                int vr = d->lc->rank;
                if ((rc = tide_irecv(&d->dec, (int)sizeof d->dec, bytes(), vr - (vr & -vr), bcast_tag(d), d->lc,
                                     d->lc->context_id + 1, &d->rq[0])) != MPI_SUCCESS)
                    goto fail;
                d->nrq = 1;
                d->phase = PH_B_BCAST;
            }
            break;
        case PH_B_XCHG:
            if (!all_done(d, &rc))
                return false;
            memset(&d->dec, 0, sizeof d->dec);
            if (rc != MPI_SUCCESS) {
                d->dec.status = tide_error_class_of(rc);
            } else {
                tide_context_combine(&d->theirs, &d->rb.acc);
                d->dec.outcome = (uint32_t)tide_ctx_agreement_outcome(&d->ag, &d->theirs, &d->dec.id, &d->dec.floor);
                if (d->dec.outcome == TIDE_CTX_EXHAUSTED)
                    d->dec.status = MPI_ERR_INTERN;
            }
            rc = MPI_SUCCESS;
            d->bc_got = true;
            if ((rc = bcast_children(d)) != MPI_SUCCESS)
                goto fail;
            d->phase = PH_B_BCAST;
            break;
        case PH_B_BCAST:
            if (!all_done(d, &rc))
                return false;
            if (rc != MPI_SUCCESS)
                goto fail;
            if (!d->bc_got) {
                d->bc_got = true;
                if ((rc = bcast_children(d)) != MPI_SUCCESS)
                    goto fail;
                break;
            }
            if (d->dec.status != 0) {
                rc = tide_err(d->dec.status, "MPI_Comm_idup: the groups' leaders could not agree on a context id");
                goto fail;
            }
            if (tide_ctx_agreement_next(&d->ag, (int)d->dec.outcome, d->dec.id, d->dec.floor) != TIDE_CTX_DONE) {
                d->phase = PH_B_START;
                break;
            }
            d->id_b = d->dec.id;
            d->phase = PH_FINISH;
            break;
        case PH_EP_TAKE:
            if (!d->ep->done)
                return false;
            if (d->ep->rc != MPI_SUCCESS) {
                rc = d->ep->rc;
                goto fail;
            }
            d->phase = PH_FINISH;
            break;
        case PH_FINISH:
            rc = finish(d);
            if (rc != MPI_SUCCESS) {
                d->have_a = false; /* released with the failed communicator */
                goto fail;
            }
            return true;
        default:
            return true;
        }
    }
fail:
    /* what is still out must end before its buffers (in d) go */
    for (int i = 0; i < d->nrq; i++)
        if (d->rq[i]) {
            tide_wait_free(d->rq[i], MPI_STATUS_IGNORE);
            d->rq[i] = NULL;
        }
    d->nrq = 0;
    tide_ctx_agreement_end(&d->ag);
    if (d->have_a && d->phase != PH_FINISH)
        tide_context_release(d->id_a);
    if (d->ep && !d->ep->done) {
        /* the first endpoint failed: the ids agreed so far go back, the
         * other endpoints fail with the same error */
        for (int k = 0; k < d->ep_k; k++)
            tide_context_release(d->ep->ids[k]);
        d->ep->rc = rc;
        d->ep->done = true;
        tide_progress_wake();
    }
    d->req->error = rc;
    *d->newcomm = MPI_COMM_NULL;
    return true;
}

static void ep_idup_leave(struct ep_idup *e)
{
    if (++e->taken < e->set->nlocal)
        return;
    for (struct ep_idup **pp = &ep_idups; *pp; pp = &(*pp)->next)
        if (*pp == e) {
            *pp = e->next;
            break;
        }
    if (e->nset)
        tide_ep_set_release(e->nset);
    tide_ep_set_release(e->set);
    free(e->ids);
    free(e->leaders);
    free(e->index);
    free(e);
}

static void idup_free(struct idup *d)
{
    if (d->ep)
        ep_idup_leave(d->ep);
    if (d->attrs)
        tide_attr_delete_all(TIDE_ATTR_COMM, MPI_COMM_NULL, &d->attrs);
    tide_topo_release(d->topo);
    tide_info_free_internal(&d->info);
    if (d->errhandler != MPI_ERRHANDLER_NULL)
        tide_errhandler_release(d->errhandler);
    free(d);
}

static int idup_progress(void)
{
    if (in_hook || !active)
        return 0;
    in_hook = true;
    int n = 0;
    struct idup **pp = &active;
    while (*pp) {
        struct idup *d = *pp;
        if (!advance(d)) {
            pp = &d->next;
            continue;
        }
        *pp = d->next;
        struct tide_request *r = d->req;
        idup_free(d);
        tide_request_complete(r);
        n++;
    }
    in_hook = false;
    return n;
}

/* Start the duplicate of c with the given hints (NULL: none); errors are
 * raised on c. */
static int idup_start(struct tide_comm *c, const struct tide_info *hints, MPI_Comm *newcomm, MPI_Request *request,
                      const char *fn)
{
    if (c->ep && c->is_inter)
        return tide_ep_refuse(c, fn);
    struct idup *d = calloc(1, sizeof *d);
    struct tide_request *r = d ? tide_request_new(TIDE_REQ_OTHER) : NULL;
    if (!r) {
        free(d);
        return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    }
    d->info = MPI_INFO_NULL;
    d->errhandler = MPI_ERRHANDLER_NULL;
    int rc = MPI_SUCCESS;
    if (tide_comm_hints_take(&d->info, hints) != MPI_SUCCESS)
        rc = tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    if (rc == MPI_SUCCESS)
        d->copy_err = tide_attr_copy_all(TIDE_ATTR_COMM, c->handle, c->attrs, &d->attrs);
    if (rc == MPI_SUCCESS && c->ep && !(d->ep = ep_idup_of(c, c->coll_seq++)))
        rc = tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    if (rc != MPI_SUCCESS) {
        r->complete = true;
        tide_request_free(r);
        idup_free(d);
        return tide_raise_comm(c, rc);
    }
    d->req = r;
    r->comm = c;
    tide_comm_retain(c);
    d->parent = c;
    d->lc = c->is_inter ? c->local_comm : c;
    d->newcomm = newcomm;
    tide_errhandler_retain(c->errhandler);
    d->errhandler = c->errhandler;
    if (c->topo) {
        tide_topo_retain(c->topo);
        d->topo = c->topo;
    }
    /* the sequence numbers of every message of the operation */
    if (d->ep) {
        if (c->ep_local == 0)
            ep_agreement_begin(d);
        else
            d->phase = PH_EP_TAKE;
    } else {
        tide_ctx_reduce_init(&d->ra, d->lc);
        if (c->is_inter) {
            tide_ctx_reduce_init(&d->rb, d->lc);
            d->seq_x = c->coll_seq++;
        }
        tide_ctx_agreement_begin(&d->ag, tide_ctx_reduce_key(&d->ra), true);
        d->phase = PH_A_START;
    }
    if (!hook_installed) {
        tide_progress_register(idup_progress);
        hook_installed = true;
    }
    d->next = active;
    active = d;
    *request = r->handle;
    idup_progress(); /* start it */
    return MPI_SUCCESS;
}

int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Comm_idup";
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "%s: invalid communicator%s (argument comm)", fn,
                        comm == MPI_COMM_NULL ? " MPI_COMM_NULL" : "");
    if (!newcomm || !request)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: newcomm and request must not be NULL", fn);
    return idup_start(c, tide_info_get(c->info), newcomm, request, fn);
}
TIDE_ALIAS(MPI_Comm_idup)

int PMPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Comm_idup_with_info";
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "%s: invalid communicator%s (argument comm)", fn,
                        comm == MPI_COMM_NULL ? " MPI_COMM_NULL" : "");
    /* MPI_INFO_NULL: no hints, as for MPI_Comm_dup_with_info */
    struct tide_info *hints = tide_info_get(info);
    if (info != MPI_INFO_NULL && !hints)
        return TIDE_ERR_COMM(c, MPI_ERR_INFO, "%s: invalid info object (argument info)", fn);
    if (!newcomm || !request)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: newcomm and request must not be NULL", fn);
    /* the hints are copied now: the caller may free info at once */
    return idup_start(c, hints, newcomm, request, fn);
}
TIDE_ALIAS(MPI_Comm_idup_with_info)
