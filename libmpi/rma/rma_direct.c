/*
 * rma_direct.c: one-sided operations on windows whose memory every
 * process maps (MPI_Win_allocate_shared, and MPI_Win_allocate when all
 * the processes are on one node): the origin reads and writes the
 * target's memory itself, so an operation is complete when the call
 * returns and needs nothing from the target (passive target progresses
 * without it). Accumulates, get-accumulates and compare-and-swap take a
 * per-target spin lock in the segment's control lines, so they are
 * atomic with respect to each other; MPI_Win_lock is a reader/writer
 * lock word in the same line.
 */
#include "runtime/api.h"
#include "rma/win.h"

#include "datatype/datatype.h"
#include "op/op.h"
#include "op/op_kernels.h"
#include "pt2pt/progress.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

#define LOCK_EXCL ((uint64_t)1 << 62)

static uint64_t *lock_word(struct tide_win *w, int r)
{
    return &w->ctl[(size_t)r * TIDE_RMA_CTL_WORDS];
}

static uint64_t *acc_word(struct tide_win *w, int r)
{
    return &w->ctl[(size_t)r * TIDE_RMA_CTL_WORDS + 1];
}

/* Wait a moment for another process: keep this one's progress going
 * (others may wait on it) and give the core away. */
static void pause_for_peer(int spins)
{
    if (spins % 64 == 63) {
        tide_progress();
        sched_yield();
    } else {
        __builtin_ia32_pause();
    }
}

static void acc_lock(struct tide_win *w, int r)
{
    uint64_t *l = acc_word(w, r);
    for (int spins = 0; __atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE) != 0; spins++)
        while (__atomic_load_n(l, __ATOMIC_RELAXED) != 0)
            pause_for_peer(spins++);
}

static void acc_unlock(struct tide_win *w, int r)
{
    __atomic_store_n(acc_word(w, r), 0, __ATOMIC_RELEASE);
}

void tide_rma_direct_lock(struct tide_win *w, int r, int type)
{
    uint64_t *l = lock_word(w, r);
    for (int spins = 0;; spins++) {
        uint64_t v = __atomic_load_n(l, __ATOMIC_RELAXED);
        if (type == MPI_LOCK_EXCLUSIVE) {
            if (v == 0 && __atomic_compare_exchange_n(l, &v, LOCK_EXCL, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
                return;
        } else if (!(v & LOCK_EXCL) &&
                   __atomic_compare_exchange_n(l, &v, v + 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
            return;
        }
        pause_for_peer(spins);
    }
}

void tide_rma_direct_unlock(struct tide_win *w, int r, int type)
{
    uint64_t *l = lock_word(w, r);
    if (type == MPI_LOCK_EXCLUSIVE)
        __atomic_store_n(l, 0, __ATOMIC_RELEASE);
    else
        __atomic_fetch_sub(l, 1, __ATOMIC_RELEASE);
}

/* Copy count elements of dt at src into count2 elements of dt2 at dst
 * (same amount of data), through a bounce buffer when either is not
 * contiguous. */
static void copy_typed(void *dst, MPI_Count count2, struct tide_datatype *dt2, const void *src, MPI_Count count,
                       struct tide_datatype *dt)
{
    size_t total = (size_t)count * dt->size;
    if (total == 0)
        return;
    if (dt->contig && dt2->contig) {
        memmove((char *)dst + dt2->true_lb, (const char *)src + dt->true_lb, total);
        return;
    }
    unsigned char tmp[4096];
    struct tide_convertor in, out;
    tide_conv_init(&in, dt, (size_t)count, src);
    tide_conv_init(&out, dt2, (size_t)count2, dst);
    for (size_t done = 0; done < total;) {
        size_t n = tide_conv_pack(&in, tmp, sizeof tmp);
        if (n == 0)
            break;
        tide_conv_unpack(&out, tmp, n);
        done += n;
    }
}

struct acc_walk {
    const unsigned char *stream;
    size_t pos;
    struct tide_op *op;
    struct tide_datatype *base;
};

static int acc_piece(void *addr, size_t len, void *arg)
{
    struct acc_walk *a = arg;
    tide_op_apply(a->op, a->stream + a->pos, addr, len / a->base->size, a->base);
    a->pos += len;
    return 0;
}

/* target (count of dt at t) op= the packed origin data */
static int accumulate(void *t, const struct tide_rma_args *a)
{
    size_t total = (size_t)a->tcount * a->tdt->size;
    if (total == 0 || a->op->index == TIDE_OPI(MPI_NO_OP))
        return MPI_SUCCESS;
    if (a->op->index == TIDE_OPI(MPI_REPLACE)) {
        copy_typed(t, a->tcount, a->tdt, a->origin, a->ocount, a->odt);
        return MPI_SUCCESS;
    }
    int base;
    size_t nb;
    if (!tide_datatype_base(a->tdt, &base, &nb))
        return tide_err(MPI_ERR_TYPE, "the target datatype of an accumulate must be made of one predefined type");
    unsigned char small[512], *stream = small;
    if (a->odt->contig) {
        stream = (unsigned char *)a->origin + a->odt->true_lb;
    } else {
        if (total > sizeof small && !(stream = malloc(total)))
            return tide_err(MPI_ERR_NO_MEM, "out of memory for an accumulate of %zu bytes", total);
        struct tide_convertor cv;
        tide_conv_init(&cv, a->odt, (size_t)a->ocount, a->origin);
        tide_conv_pack(&cv, stream, total);
    }
    struct acc_walk walk = {.stream = stream, .op = a->op, .base = tide_datatype_builtin(base)};
    if (a->tdt->contig)
        acc_piece((char *)t + a->tdt->true_lb, total, &walk);
    else
        tide_datatype_foreach(a->tdt, (size_t)a->tcount, t, acc_piece, &walk);
    if (stream != small && stream != (unsigned char *)a->origin + a->odt->true_lb)
        free(stream);
    return MPI_SUCCESS;
}

int tide_rma_direct_issue(struct tide_win *w, const struct tide_rma_args *a)
{
    int r = a->target;
    void *t = w->peer_base[r] + (MPI_Aint)a->disp * w->disp_units[r];
    int rc = MPI_SUCCESS;
    switch (a->kind) {
    case TIDE_RMA_PUT:
        copy_typed(t, a->tcount, a->tdt, a->origin, a->ocount, a->odt);
        break;
    case TIDE_RMA_GET:
        copy_typed((void *)a->origin, a->ocount, a->odt, t, a->tcount, a->tdt);
        break;
    case TIDE_RMA_ACC:
        acc_lock(w, r);
        rc = accumulate(t, a);
        acc_unlock(w, r);
        break;
    case TIDE_RMA_GACC:
        acc_lock(w, r);
        copy_typed(a->result, a->rcount, a->rdt, t, a->tcount, a->tdt);
        rc = accumulate(t, a);
        acc_unlock(w, r);
        break;
    case TIDE_RMA_CAS: {
        size_t e = a->odt->size;
        acc_lock(w, r);
        memcpy(a->result, t, e);
        if (memcmp(a->result, a->compare, e) == 0)
            memcpy(t, a->origin, e);
        acc_unlock(w, r);
        break;
    }
    default:
        break;
    }
    return rc;
}
