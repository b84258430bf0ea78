/*
 * pcoll.c: persistent collective requests (pcoll.h): what an init call
 * keeps, MPI_Start of such a request, and its freeing. The request is a
 * persistent TIDE_REQ_COLL request; its cb_data is the struct tide_pcoll.
 * The init call builds the collective once to reserve the collective
 * sequence numbers (the message tags) it takes; every start builds it
 * again with those same numbers, so the ranks may start their persistent
 * collectives in any order (MPI-4.0 6.13 orders only the init calls),
 * and successive starts of one request match in order.
 */
#include "runtime/api.h"
#include "coll/pcoll.h"
#include "coll/coll_args.h"
#include "coll/sched.h"
#include "comm/comm.h"
#include "datatype/datatype.h"
#include "op/op.h"
#include "pt2pt/request.h"
#include "runtime/info.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct tide_pcoll {
    struct tide_comm *comm;
    const char *fn;
    tide_pcoll_build_fn *build;
    void *args;
    void **mem;                  /* copies made by tide_pcoll_keep */
    int nmem, capmem;
    void **dts;                  /* datatypes held */
    int ndts, capdts;
    void **ops;                  /* operations held */
    int nops, capops;
    int error;                   /* first failure while keeping arguments */
    /* the collective sequence numbers (message tags) every start uses, on
     * the communicator and on an intercommunicator's local one: reserved
     * by the init call, so that starts need no order across the ranks */
    uint32_t seq, nseq, lseq, nlseq;
    uint32_t call; /* the init call's number (coll_notice.h) */
};

static void fail_nomem(struct tide_pcoll *p)
{
    if (p->error == MPI_SUCCESS)
        p->error = tide_err(MPI_ERR_NO_MEM, "%s: out of memory for the request's arguments", p->fn);
}

/* Room for one more pointer in *arr (n used of *cap). */
static bool grow(struct tide_pcoll *p, void ***arr, int n, int *cap)
{
    if (n < *cap)
        return true;
    int ncap = *cap ? *cap * 2 : 8;
    void **a = realloc(*arr, (size_t)ncap * sizeof *a);
    if (!a) {
        fail_nomem(p);
        return false;
    }
    *arr = a;
    *cap = ncap;
    return true;
}

struct tide_pcoll *tide_pcoll_new(struct tide_comm *c, const char *fn, tide_pcoll_build_fn *build)
{
    struct tide_pcoll *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->comm = c;
    tide_comm_retain(c);
    p->fn = fn;
    p->build = build;
    p->error = MPI_SUCCESS;
    return p;
}

void *tide_pcoll_keep(struct tide_pcoll *p, const void *src, size_t bytes)
{
    if (!src)
        return NULL;
    if (!grow(p, &p->mem, p->nmem, &p->capmem))
        return NULL;
    void *copy = malloc(bytes ? bytes : 1);
    if (!copy) {
        fail_nomem(p);
        return NULL;
    }
    memcpy(copy, src, bytes);
    p->mem[p->nmem++] = copy;
    return copy;
}

void tide_pcoll_hold_dt(struct tide_pcoll *p, struct tide_datatype *dt)
{
    if (!dt || dt->predefined || !grow(p, &p->dts, p->ndts, &p->capdts))
        return;
    tide_datatype_retain(dt);
    p->dts[p->ndts++] = dt;
}

void tide_pcoll_hold_op(struct tide_pcoll *p, struct tide_op *op)
{
    if (!op || op->predefined || !grow(p, &p->ops, p->nops, &p->capops))
        return;
    tide_op_retain(op);
    p->ops[p->nops++] = op;
}

void tide_pcoll_discard(struct tide_pcoll *p)
{
    for (int i = 0; i < p->nmem; i++)
        free(p->mem[i]);
    free(p->mem);
    for (int i = 0; i < p->ndts; i++)
        tide_datatype_release((struct tide_datatype *)p->dts[i]);
    free(p->dts);
    for (int i = 0; i < p->nops; i++)
        tide_op_release((struct tide_op *)p->ops[i]);
    free(p->ops);
    tide_comm_release(p->comm);
    free(p);
}

static void pcoll_destroy(struct tide_request *r)
{
    struct tide_pcoll *p = r->cb_data;
    r->cb_data = NULL;
    if (p)
        tide_pcoll_discard(p);
}

/* Build one instance of p's collective into s with the sequence numbers
 * reserved at init; false if it took a different number of them. */
static bool build_reserved(struct tide_pcoll *p, struct tide_sched *s)
{
    struct tide_comm *c = p->comm, *l = c->local_comm;
    uint32_t saved = c->coll_seq, lsaved = l ? l->coll_seq : 0;
    c->coll_seq = p->seq;
    if (l)
        l->coll_seq = p->lseq;
    p->build(s, c, p->fn, p->args);
    bool same = c->coll_seq - p->seq == p->nseq && (!l || l->coll_seq - p->lseq == p->nlseq);
    c->coll_seq = saved;
    if (l)
        l->coll_seq = lsaved;
    return same;
}

int tide_pcoll_commit(struct tide_pcoll *p, void *args, MPI_Request *request)
{
    const char *fn = p->fn;
    struct tide_sched *s = p->error == MPI_SUCCESS ? tide_sched_new(p->comm) : NULL;
    if (!s) {
        int e = p->error != MPI_SUCCESS ? p->error : tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
        tide_pcoll_discard(p);
        return e;
    }
    /* reserve the sequence numbers: build once and keep what it took (the
     * init calls are ordered like every collective on the communicator) */
    struct tide_comm *c = p->comm, *l = c->local_comm;
    p->args = args;
    p->call = c->coll_calls - 1;
    p->seq = c->coll_seq;
    p->lseq = l ? l->coll_seq : 0;
    p->build(s, c, fn, args);
    p->nseq = c->coll_seq - p->seq;
    p->nlseq = l ? l->coll_seq - p->lseq : 0;
    int e = tide_sched_error(s);
    tide_sched_free(s);
    struct tide_request *r = e == MPI_SUCCESS ? tide_request_new(TIDE_REQ_COLL) : NULL;
    if (!r) {
        tide_pcoll_discard(p);
        return e != MPI_SUCCESS ? e : tide_err(MPI_ERR_NO_MEM, "%s: out of memory for a request", fn);
    }
    r->persistent = true;
    r->state = TIDE_RS_INACTIVE;
    r->comm = c;
    tide_comm_retain(c);
    r->peer = MPI_PROC_NULL;
    r->cb_data = p;
    r->on_destroy = pcoll_destroy;
    *request = r->handle;
    return MPI_SUCCESS;
}

int tide_pcoll_start(struct tide_request *r)
{
    struct tide_pcoll *p = r->cb_data;
    struct tide_sched *s = tide_sched_new(p->comm);
    if (!s)
        return tide_err(MPI_ERR_NO_MEM, "MPI_Start: out of memory for the collective of %s", p->fn);
    tide_sched_set_call(s, p->call);
    if (!build_reserved(p, s)) {
        tide_sched_free(s);
        return tide_err(MPI_ERR_INTERN, "MPI_Start: the collective of %s no longer takes the message tags its "
                        "init call reserved", p->fn);
    }
    return tide_sched_start_on(s, r);
}

int tide_pcoll_check_info(MPI_Info info, const char *fn)
{
    if (info != MPI_INFO_NULL && !tide_info_get(info))
        return tide_err(MPI_ERR_INFO, "%s: invalid info object (argument info)", fn);
    return MPI_SUCCESS;
}

int tide_pcoll_info(MPI_Comm comm, MPI_Info info, const char *fn)
{
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return MPI_SUCCESS;
    int rc = tide_pcoll_check_info(info, fn);
    if (rc == MPI_SUCCESS)
        return MPI_SUCCESS;
    /* the call is refused: counted, and the others told (coll_notice.h) */
    tide_coll_count_call(c);
    return tide_raise_comm(c, tide_coll_mode_error(c, TIDE_COLL_PERSISTENT, rc, 0, fn));
}
