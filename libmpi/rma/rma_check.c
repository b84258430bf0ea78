/*
 * rma_check.c: conflicting accesses (runtime parameter rma_check=1).
 *
 * The origin keeps, for the epoch under way, the bytes of each target
 * that its operations touch, and refuses with MPI_ERR_RMA_CONFLICT an
 * operation that conflicts with an earlier one of the same epoch: a put
 * overlapping anything, a get overlapping a put or an accumulate, an
 * accumulate overlapping a put or a get (accumulates of the same epoch
 * may overlap each other: they are atomic per element). The standard
 * makes such accesses erroneous; without the check their outcome is
 * undefined. What completes an operation at its target ends its part of
 * the epoch: a fence, MPI_Win_complete, an unlock, a flush. Target types
 * with holes are not checked (their bytes interleave legally), and at
 * most TIDE_RMA_CHECK_MAX accesses of an epoch are kept.
 */
#include "runtime/api.h"
#include "rma/win.h"

#include "datatype/datatype.h"
#include "params.h"

#include <stdlib.h>

#define TIDE_RMA_CHECK_MAX 1024

enum { ACCESS_READ, ACCESS_WRITE, ACCESS_ATOMIC };

struct tide_rma_access {
    int target;
    int how;
    int64_t lo, hi;
    const char *fn;
};

void tide_rma_check_init(struct tide_win *w)
{
    w->check = tide_config_int("rma_check") != 0;
}

static int how_of(int kind)
{
    return kind == TIDE_RMA_PUT ? ACCESS_WRITE : kind == TIDE_RMA_GET ? ACCESS_READ : ACCESS_ATOMIC;
}

static bool conflict(int a, int b)
{
    if (a == ACCESS_ATOMIC && b == ACCESS_ATOMIC)
        return false;
    return a == ACCESS_WRITE || b == ACCESS_WRITE || a != b;
}

int tide_rma_check_access(struct tide_win *w, const struct tide_rma_args *a, const char *fn)
{
    if (a->target == MPI_PROC_NULL || a->tcount == 0 || !a->tdt->contig || a->tdt->size == 0 ||
        w->flavor == MPI_WIN_FLAVOR_DYNAMIC)
        return MPI_SUCCESS;
    int64_t lo = (int64_t)a->disp * w->disp_units[a->target] + a->tdt->true_lb;
    int64_t hi = lo + (int64_t)a->tcount * (int64_t)a->tdt->size;
    int how = how_of(a->kind);
    for (int i = 0; i < w->naccesses; i++) {
        const struct tide_rma_access *x = &w->accesses[i];
        if (x->target == a->target && x->lo < hi && lo < x->hi && conflict(x->how, how))
            return tide_err(MPI_ERR_RMA_CONFLICT,
                            "%s: bytes [%lld, %lld) of rank %d's window were accessed by %s in this epoch, which "
                            "conflicts with this access (complete it first: flush, unlock, fence or complete)",
                            fn, (long long)(lo > x->lo ? lo : x->lo), (long long)(hi < x->hi ? hi : x->hi),
                            a->target, x->fn);
    }
    if (w->naccesses == TIDE_RMA_CHECK_MAX)
        return MPI_SUCCESS;
    if (w->naccesses == w->cap_accesses) {
        int cap = w->cap_accesses ? 2 * w->cap_accesses : 16;
        struct tide_rma_access *n = realloc(w->accesses, (size_t)cap * sizeof *n);
        if (!n)
            return MPI_SUCCESS; /* not kept: not checked */
        w->accesses = n;
        w->cap_accesses = cap;
    }
    w->accesses[w->naccesses++] = (struct tide_rma_access){a->target, how, lo, hi, fn};
    return MPI_SUCCESS;
}

void tide_rma_check_forget(struct tide_win *w, int target)
{
    if (target < 0) {
        w->naccesses = 0;
        return;
    }
    int k = 0;
    for (int i = 0; i < w->naccesses; i++)
        if (w->accesses[i].target != target)
            w->accesses[k++] = w->accesses[i];
    w->naccesses = k;
}
