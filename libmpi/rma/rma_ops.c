/*
 * rma_ops.c: the one-sided operations (MPI_Put, MPI_Get, MPI_Accumulate,
 * MPI_Get_accumulate, MPI_Fetch_and_op, MPI_Compare_and_swap and the
 * request-based MPI_Rput, MPI_Rget, MPI_Raccumulate,
 * MPI_Rget_accumulate): their argument checks (window, rank, types and
 * counts, the target range, the op, the epoch) and the hand-over to the
 * protocol (rma_origin.c).
 */
#include "runtime/api.h"
#include "rma/win.h"

#include "datatype/datatype.h"
#include "op/op.h"
#include "op/op_kernels.h"
#include "pt2pt/pt2pt.h"
#include "comm/comm_fault.h"

#include <stdint.h>
#include <string.h>

struct side {
    const void *buf;
    MPI_Count count;
    MPI_Datatype type;
    const char *what; /* "origin", "result", "target" */
};

/* The arguments of an operation, every field set one by one (a
 * zeroing initializer of the whole structure costs more than the
 * stores on the path of every operation). */
static inline void args_set(struct tide_rma_args *a, int kind, const void *origin, MPI_Count ocount, void *result,
                            MPI_Count rcount, const void *compare, int target, MPI_Aint disp, MPI_Count tcount)
{
    a->kind = kind;
    a->origin = origin;
    a->ocount = ocount;
    a->odt = NULL;
    a->result = result;
    a->rcount = rcount;
    a->rdt = NULL;
    a->compare = compare;
    a->target = target;
    a->disp = disp;
    a->tcount = tcount;
    a->tdt = NULL;
    a->op = NULL;
}

static int check_side(struct tide_win *w, const struct side *s, struct tide_datatype **out, const char *fn)
{
    if (s->count < 0)
        return TIDE_ERR_WIN(w, MPI_ERR_COUNT, "%s: %s_count %lld is negative", fn, s->what, (long long)s->count);
    struct tide_datatype *dt = tide_datatype_get(s->type);
    if (!dt)
        return TIDE_ERR_WIN(w, MPI_ERR_TYPE, "%s: invalid datatype (argument %s_datatype)", fn, s->what);
    if (!dt->committed)
        return TIDE_ERR_WIN(w, MPI_ERR_TYPE, "%s: the %s_datatype is not committed", fn, s->what);
    *out = dt;
    return MPI_SUCCESS;
}

/* Checks shared by every operation; fills a->tdt and the epoch check. */
static int check_target(struct tide_win *w, struct tide_rma_args *a, MPI_Datatype ttype, bool passive_only,
                        const char *fn)
{
    int r = a->target;
    if (r != MPI_PROC_NULL && (r < 0 || r >= w->size))
        return TIDE_ERR_WIN(w, MPI_ERR_RANK, "%s: invalid target_rank %d (the window has %d ranks)", fn, r, w->size);
    struct side t = {NULL, a->tcount, ttype, "target"};
    int rc = check_side(w, &t, &a->tdt, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (r == MPI_PROC_NULL)
        return MPI_SUCCESS;
    int epoch = tide_rma_epoch_of(w, r);
    if (epoch == TIDE_RMA_EPOCH_NONE)
        return TIDE_ERR_WIN(w, MPI_ERR_RMA_SYNC,
                            "%s: no epoch is open to rank %d (call MPI_Win_fence, MPI_Win_start or MPI_Win_lock first)",
                            fn, r);
    if (passive_only && epoch != TIDE_RMA_EPOCH_PASSIVE)
        return TIDE_ERR_WIN(w, MPI_ERR_RMA_SYNC,
                            "%s: request-based operations are only allowed in a passive-target (lock) epoch", fn);
    if (w->flavor == MPI_WIN_FLAVOR_DYNAMIC || a->tcount == 0)
        return MPI_SUCCESS; /* the target checks attached memory */
    if (a->disp < 0)
        return TIDE_ERR_WIN(w, MPI_ERR_DISP, "%s: target_disp %lld is negative", fn, (long long)a->disp);
    /* the bytes the target type touches must lie inside rank r's window */
    __int128 start = (__int128)a->disp * w->disp_units[r];
    __int128 lo = start + a->tdt->true_lb;
    __int128 hi = start + (__int128)(a->tcount - 1) * a->tdt->extent + a->tdt->true_ub;
    if (a->tdt->size > 0 && (lo < 0 || hi > w->sizes[r]))
        return TIDE_ERR_WIN(w, MPI_ERR_RMA_RANGE,
                            "%s: the access [%lld, %lld) is outside the window of rank %d (%lld bytes)", fn,
                            (long long)lo, (long long)hi, r, (long long)w->sizes[r]);
    return MPI_SUCCESS;
}

/* origin and target (or result and target) carry the same amount of data */
static int check_match(struct tide_win *w, MPI_Count n1, struct tide_datatype *d1, MPI_Count n2,
                       struct tide_datatype *d2, const char *what, const char *fn)
{
    if ((size_t)n1 * d1->size != (size_t)n2 * d2->size)
        return TIDE_ERR_WIN(w, MPI_ERR_TYPE, "%s: the %s buffer holds %zu bytes of data but the target %zu (the type signatures must match)",
                            fn, what, (size_t)n1 * d1->size, (size_t)n2 * d2->size);
    return MPI_SUCCESS;
}

static int check_op(struct tide_win *w, struct tide_rma_args *a, MPI_Op op, const char *fn)
{
    a->op = tide_op_get(op);
    if (!a->op)
        return TIDE_ERR_WIN(w, MPI_ERR_OP, "%s: invalid operation (argument op)", fn);
    if (!a->op->predefined)
        return TIDE_ERR_WIN(w, MPI_ERR_OP, "%s: one-sided accumulate takes only predefined operations, not %s", fn,
                            tide_op_name(a->op));
    int rc = tide_op_check(a->op, a->tdt, fn);
    if (rc != MPI_SUCCESS)
        return tide_raise_win(w, rc);
    int base;
    size_t n;
    if (a->tdt->size > 0 && !tide_datatype_base(a->tdt, &base, &n))
        return TIDE_ERR_WIN(w, MPI_ERR_TYPE, "%s: the target_datatype must be made of one predefined type", fn);
    return MPI_SUCCESS;
}

static int issue(struct tide_win *w, struct tide_rma_args *a, MPI_Request *req, const char *fn)
{
    int rc = w->check ? tide_rma_check_access(w, a, fn) : MPI_SUCCESS;
    if (rc == MPI_SUCCESS)
        rc = tide_rma_issue(w, a, req, fn);
    return rc == MPI_SUCCESS ? MPI_SUCCESS : tide_raise_win(w, rc);
}

/* The common case done at once, on a window in shared memory: whole
 * elements of one contiguous type, the same at both sides, in a lock,
 * lock_all or fence epoch, inside the target's window. The target
 * address (NULL: take the checked path, which also reports every
 * error) and the type in *dtp. */
static inline unsigned char *direct_target(struct tide_win *w, int count, MPI_Datatype otype, int r, MPI_Aint disp,
                                           int tcount, MPI_Datatype ttype, struct tide_datatype **dtp)
{
    if (otype != ttype || count != tcount || count <= 0 || r < 0 || r >= w->size || disp < 0 ||
        !(w->lock_all || w->peers[r].held || (w->fence_active && !w->start_group)) || w->check ||
        __builtin_expect(tide_comm_faults != 0, 0))
        return NULL;
    struct tide_datatype *dt = tide_datatype_get(otype);
    if (!dt || !dt->committed || !dt->contig || dt->true_lb != 0 || dt->extent != (MPI_Aint)dt->size)
        return NULL;
    size_t bytes = (size_t)count * dt->size;
    size_t off = (size_t)disp * (size_t)w->disp_units[r];
    if (disp > (MPI_Aint)(SIZE_MAX / 4) || off + bytes > (size_t)w->sizes[r] || off + bytes < off)
        return NULL;
    *dtp = dt;
    return w->peer_base[r] + off;
}

/* A put or get of that case: a copy. */
static inline bool direct_now(struct tide_win *w, int kind, const void *origin, int count, MPI_Datatype otype,
                              int r, MPI_Aint disp, int tcount, MPI_Datatype ttype)
{
    struct tide_datatype *dt;
    unsigned char *t = direct_target(w, count, otype, r, disp, tcount, ttype, &dt);
    if (!t)
        return false;
    size_t bytes = (size_t)count * dt->size;
    if (kind == TIDE_RMA_PUT)
        memcpy(t, origin, bytes);
    else
        memcpy((void *)origin, t, bytes);
    return true;
}

static int put_get(int kind, const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                   MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
                   MPI_Request *request, const char *fn)
{
    WIN_OR_FAIL(fn, win, w);
    if (w->direct && !request &&
        direct_now(w, kind, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                   target_datatype))
        return MPI_SUCCESS;
    if (request == NULL && fn[4] == 'R')
        return TIDE_ERR_WIN(w, MPI_ERR_ARG, "%s: request must not be NULL", fn);
    struct tide_rma_args a;
    args_set(&a, kind, origin_addr, origin_count, NULL, 0, NULL, target_rank, target_disp, target_count);
    struct side o = {origin_addr, origin_count, origin_datatype, "origin"};
    int rc = check_side(w, &o, &a.odt, fn);
    if (rc == MPI_SUCCESS)
        rc = check_target(w, &a, target_datatype, request != NULL, fn);
    if (rc == MPI_SUCCESS)
        rc = check_match(w, a.ocount, a.odt, a.tcount, a.tdt, "origin", fn);
    if (rc != MPI_SUCCESS)
        return rc;
    return issue(w, &a, request, fn);
}

int PMPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    TIDE_API_ENTER();
    return put_get(TIDE_RMA_PUT, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                   target_datatype, win, NULL, "MPI_Put");
}
TIDE_ALIAS(MPI_Put)

int PMPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
             int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    TIDE_API_ENTER();
    return put_get(TIDE_RMA_GET, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                   target_datatype, win, NULL, "MPI_Get");
}
TIDE_ALIAS(MPI_Get)

int PMPI_Rput(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
              MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
    TIDE_API_ENTER();
    return put_get(TIDE_RMA_PUT, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                   target_datatype, win, request, "MPI_Rput");
}
TIDE_ALIAS(MPI_Rput)

int PMPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
              int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
    TIDE_API_ENTER();
    return put_get(TIDE_RMA_GET, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                   target_datatype, win, request, "MPI_Rget");
}
TIDE_ALIAS(MPI_Rget)

/* An accumulate or get-accumulate of that case with a predefined type
 * and op: applied here (rma_direct.c), without the general checks and
 * the request. 1 done, 0 take the checked path. */
static inline int direct_acc(struct tide_win *w, int kind, const void *origin, int count, MPI_Datatype otype,
                             void *result, int rcount, MPI_Datatype rtype, int r, MPI_Aint disp, int tcount,
                             MPI_Datatype ttype, MPI_Op op)
{
    struct tide_datatype *dt;
    if (!w->direct || (kind == TIDE_RMA_GACC && (rtype != ttype || rcount != tcount || !result)))
        return 0;
    if (op == MPI_NO_OP)
        otype = ttype, count = tcount, origin = NULL;
    else if (!origin)
        return 0;
    unsigned char *t = direct_target(w, count, otype, r, disp, tcount, ttype, &dt);
    if (!t || !dt->predefined || TIDE_HANDLE_KIND(op) != TIDE_KIND_OP)
        return 0;
    return tide_rma_direct_acc_now(w, r, t, origin, kind == TIDE_RMA_GACC ? result : NULL, (size_t)count, dt->base,
                                   TIDE_OPI(op));
}

static int accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                      MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                      MPI_Request *request, const char *fn)
{
    WIN_OR_FAIL(fn, win, w);
    if (!request && direct_acc(w, TIDE_RMA_ACC, origin_addr, origin_count, origin_datatype, NULL, 0, 0, target_rank,
                               target_disp, target_count, target_datatype, op))
        return MPI_SUCCESS;
    if (request == NULL && fn[4] == 'R')
        return TIDE_ERR_WIN(w, MPI_ERR_ARG, "%s: request must not be NULL", fn);
    struct tide_rma_args a;
    args_set(&a, TIDE_RMA_ACC, origin_addr, origin_count, NULL, 0, NULL, target_rank, target_disp, target_count);
    struct side o = {origin_addr, origin_count, origin_datatype, "origin"};
    int rc = check_side(w, &o, &a.odt, fn);
    if (rc == MPI_SUCCESS)
        rc = check_target(w, &a, target_datatype, request != NULL, fn);
    if (rc == MPI_SUCCESS)
        rc = check_op(w, &a, op, fn);
    if (rc == MPI_SUCCESS)
        rc = check_match(w, a.ocount, a.odt, a.tcount, a.tdt, "origin", fn);
    if (rc != MPI_SUCCESS)
        return rc;
    return issue(w, &a, request, fn);
}

int PMPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                    MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    TIDE_API_ENTER();
    return accumulate(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                      target_datatype, op, win, NULL, "MPI_Accumulate");
}
TIDE_ALIAS(MPI_Accumulate)

int PMPI_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                     MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                     MPI_Request *request)
{
    TIDE_API_ENTER();
    return accumulate(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                      target_datatype, op, win, request, "MPI_Raccumulate");
}
TIDE_ALIAS(MPI_Raccumulate)

static int get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr,
                          int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                          int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                          MPI_Request *request, const char *fn)
{
    WIN_OR_FAIL(fn, win, w);
    if (!request && direct_acc(w, TIDE_RMA_GACC, origin_addr, origin_count, origin_datatype, result_addr,
                               result_count, result_datatype, target_rank, target_disp, target_count,
                               target_datatype, op))
        return MPI_SUCCESS;
    if (request == NULL && fn[4] == 'R')
        return TIDE_ERR_WIN(w, MPI_ERR_ARG, "%s: request must not be NULL", fn);
    struct tide_rma_args a;
    args_set(&a, TIDE_RMA_GACC, origin_addr, origin_count, result_addr, result_count, NULL, target_rank, target_disp,
             target_count);
    bool no_op = op == MPI_NO_OP;
    struct side o = {origin_addr, origin_count, origin_datatype, "origin"};
    struct side r = {result_addr, result_count, result_datatype, "result"};
    int rc = MPI_SUCCESS;
    if (no_op) {
        /* the origin buffer is ignored with MPI_NO_OP */
        a.ocount = 0;
        a.odt = tide_datatype_get(MPI_BYTE);
        if (tide_datatype_get(origin_datatype))
            rc = check_side(w, &o, &a.odt, fn);
        a.ocount = 0;
    } else {
        rc = check_side(w, &o, &a.odt, fn);
    }
    if (rc == MPI_SUCCESS)
        rc = check_side(w, &r, &a.rdt, fn);
    if (rc == MPI_SUCCESS)
        rc = check_target(w, &a, target_datatype, request != NULL, fn);
    if (rc == MPI_SUCCESS)
        rc = check_op(w, &a, op, fn);
    if (rc == MPI_SUCCESS && !no_op)
        rc = check_match(w, a.ocount, a.odt, a.tcount, a.tdt, "origin", fn);
    if (rc == MPI_SUCCESS)
        rc = check_match(w, a.rcount, a.rdt, a.tcount, a.tdt, "result", fn);
    if (rc != MPI_SUCCESS)
        return rc;
    return issue(w, &a, request, fn);
}

int PMPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr,
                        int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                        int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    TIDE_API_ENTER();
    return get_accumulate(origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype,
                          target_rank, target_disp, target_count, target_datatype, op, win, NULL,
                          "MPI_Get_accumulate");
}
TIDE_ALIAS(MPI_Get_accumulate)

int PMPI_Rget_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr,
                         int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                         int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request)
{
    TIDE_API_ENTER();
    return get_accumulate(origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype,
                          target_rank, target_disp, target_count, target_datatype, op, win, request,
                          "MPI_Rget_accumulate");
}
TIDE_ALIAS(MPI_Rget_accumulate)

int PMPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype, int target_rank,
                      MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Fetch_and_op";
    WIN_OR_FAIL(fn, win, w);
    if (result_addr &&
        direct_acc(w, TIDE_RMA_GACC, origin_addr, 1, datatype, result_addr, 1, datatype, target_rank, target_disp, 1,
                   datatype, op))
        return MPI_SUCCESS;
    struct tide_datatype *dt = tide_datatype_get(datatype);
    if (!dt || !dt->predefined)
        return TIDE_ERR_WIN(w, MPI_ERR_TYPE, "%s: the datatype must be a predefined type (argument datatype)", fn);
    return get_accumulate(origin_addr, 1, datatype, result_addr, 1, datatype, target_rank, target_disp, 1, datatype,
                          op, win, NULL, fn);
}
TIDE_ALIAS(MPI_Fetch_and_op)

int PMPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr, MPI_Datatype datatype,
                          int target_rank, MPI_Aint target_disp, MPI_Win win)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Compare_and_swap";
    WIN_OR_FAIL(fn, win, w);
    if (w->direct && origin_addr && compare_addr && result_addr) {
        struct tide_datatype *cdt;
        unsigned char *t = direct_target(w, 1, datatype, target_rank, target_disp, 1, datatype, &cdt);
        if (t && cdt->predefined &&
            tide_rma_direct_cas_now(w, target_rank, t, origin_addr, compare_addr, result_addr, cdt->base))
            return MPI_SUCCESS;
    }
    struct tide_datatype *dt = tide_datatype_get(datatype);
    if (!dt || !dt->predefined)
        return TIDE_ERR_WIN(w, MPI_ERR_TYPE, "%s: the datatype must be a predefined type (argument datatype)", fn);
    /* integer, logical, byte and multi-language types: those the bitwise
     * or logical ops take */
    bool logical = datatype == MPI_C_BOOL || datatype == MPI_LOGICAL || datatype == MPI_CXX_BOOL;
    if (!logical && tide_op_check(tide_op_get(MPI_BAND), dt, fn) != MPI_SUCCESS)
        return TIDE_ERR_WIN(w, MPI_ERR_TYPE, "%s: the datatype must be an integer, logical or byte type", fn);
    if (!origin_addr || !compare_addr || !result_addr)
        return TIDE_ERR_WIN(w, MPI_ERR_BUFFER, "%s: origin_addr, compare_addr and result_addr must not be NULL", fn);
    struct tide_rma_args a;
    args_set(&a, TIDE_RMA_CAS, origin_addr, 1, result_addr, 1, compare_addr, target_rank, target_disp, 1);
    a.odt = a.rdt = dt;
    int rc = check_target(w, &a, datatype, false, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    return issue(w, &a, NULL, fn);
}
TIDE_ALIAS(MPI_Compare_and_swap)
