/*
 * rma_direct.c: one-sided operations on windows whose memory every
 * process maps (MPI_Win_allocate_shared, and MPI_Win_allocate when all
 * the processes are on one node): the origin reads and writes the
 * target's memory itself, so an operation is complete when the call
 * returns and needs nothing from the target (passive target progresses
 * without it). Accumulates, get-accumulates and compare-and-swap of
 * 4- and 8-byte integers with MPI_SUM, MPI_BAND, MPI_BOR, MPI_BXOR,
 * MPI_REPLACE or MPI_NO_OP, and compare-and-swap of such integers, are
 * CPU atomics per element (MPI's atomicity is per element; every such
 * operation takes this path, so none of them meets the lock below on the
 * same element). The others take a per-target spin lock in the segment's
 * control lines, so they are atomic with respect to each other;
 * MPI_Win_lock is a reader/writer lock word in the same line. PSCW
 * notices are bits after the lines: a target posting sets its bit in each
 * origin's POST words, an origin completing sets its bit in each
 * target's COMPLETE words, and each side waits on its own words.
 */
#include "runtime/api.h"
#include "rma/win.h"

#include "comm/group.h"
#include "datatype/datatype.h"
#include "op/op.h"
#include "op/op_kernels.h"
#include "pt2pt/progress.h"

#include <sched.h>
#include <stdint.h>
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

/* Is dt (every element of it, contiguous) 4- or 8-byte integers? Their
 * size in *esize. */
static bool int_elements(const struct tide_datatype *dt, size_t *esize)
{
    static const MPI_Datatype ints[] = {MPI_INT, MPI_UNSIGNED, MPI_LONG, MPI_UNSIGNED_LONG, MPI_LONG_LONG,
                                        MPI_UNSIGNED_LONG_LONG, MPI_INT32_T, MPI_UINT32_T, MPI_INT64_T,
                                        MPI_UINT64_T, MPI_AINT, MPI_OFFSET, MPI_COUNT, MPI_INTEGER, MPI_INTEGER4,
                                        MPI_INTEGER8};
    /* per basic type: 0 not known yet, else its integer size or -1 */
    static int8_t known[TIDE_BUILTIN_TYPE_COUNT];
    int base;
    size_t n;
    if (!dt->contig || dt->size == 0 || !tide_datatype_base(dt, &base, &n) || base <= 0 ||
        base >= TIDE_BUILTIN_TYPE_COUNT)
        return false;
    if (!known[base]) {
        const struct tide_datatype *b = tide_datatype_builtin(base);
        known[base] = -1;
        for (size_t i = 0; b && (b->size == 4 || b->size == 8) && i < sizeof ints / sizeof ints[0]; i++)
            if (b->handle == ints[i])
                known[base] = (int8_t)b->size;
    }
    if (known[base] < 0)
        return false;
    *esize = (size_t)known[base];
    return true;
}

static uint64_t fetch_op(void *t, size_t e, int op, uint64_t v)
{
    if (e == 4) {
        uint32_t *p = t, x = (uint32_t)v;
        switch (op) {
        case TIDE_OPI(MPI_SUM): return __atomic_fetch_add(p, x, __ATOMIC_SEQ_CST);
        case TIDE_OPI(MPI_BAND): return __atomic_fetch_and(p, x, __ATOMIC_SEQ_CST);
        case TIDE_OPI(MPI_BOR): return __atomic_fetch_or(p, x, __ATOMIC_SEQ_CST);
        case TIDE_OPI(MPI_BXOR): return __atomic_fetch_xor(p, x, __ATOMIC_SEQ_CST);
        case TIDE_OPI(MPI_REPLACE): return __atomic_exchange_n(p, x, __ATOMIC_SEQ_CST);
        default: return __atomic_load_n(p, __ATOMIC_SEQ_CST); /* MPI_NO_OP */
        }
    }
    uint64_t *p = t;
    switch (op) {
    case TIDE_OPI(MPI_SUM): return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
    case TIDE_OPI(MPI_BAND): return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST);
    case TIDE_OPI(MPI_BOR): return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST);
    case TIDE_OPI(MPI_BXOR): return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST);
    case TIDE_OPI(MPI_REPLACE): return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);
    default: return __atomic_load_n(p, __ATOMIC_SEQ_CST);
    }
}

static uint64_t load_elem(const void *s, size_t e)
{
    if (e == 4) {
        uint32_t v;
        memcpy(&v, s, 4);
        return v;
    }
    uint64_t v;
    memcpy(&v, s, 8);
    return v;
}

static void store_elem(void *d, size_t e, uint64_t v)
{
    if (e == 4) {
        uint32_t x = (uint32_t)v;
        memcpy(d, &x, 4);
    } else {
        memcpy(d, &v, 8);
    }
}

/* The atomic path (see the top); false: take the locked one. */
static bool atomic_op(struct tide_win *w, const struct tide_rma_args *a, unsigned char *t)
{
    size_t e, eo, er;
    if (!int_elements(a->tdt, &e) || ((uintptr_t)(t + a->tdt->true_lb) & (e - 1)) != 0)
        return false;
    size_t n = (size_t)a->tcount * a->tdt->size / e;
    unsigned char *tgt = t + a->tdt->true_lb;
    if (a->kind == TIDE_RMA_CAS) {
        if (!int_elements(a->odt, &eo) || eo != e)
            return false;
        uint64_t want = load_elem((const unsigned char *)a->compare + a->odt->true_lb, e);
        uint64_t put = load_elem((const unsigned char *)a->origin + a->odt->true_lb, e);
        uint64_t old = want;
        if (e == 4) {
            uint32_t w4 = (uint32_t)want;
            __atomic_compare_exchange_n((uint32_t *)tgt, &w4, (uint32_t)put, false, __ATOMIC_SEQ_CST,
                                        __ATOMIC_SEQ_CST);
            old = w4;
        } else {
            __atomic_compare_exchange_n((uint64_t *)tgt, &old, put, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
        }
        store_elem((unsigned char *)a->result + a->rdt->true_lb, e, old);
        return true;
    }
    int op = a->op->index;
    if (op != TIDE_OPI(MPI_SUM) && op != TIDE_OPI(MPI_BAND) && op != TIDE_OPI(MPI_BOR) &&
        op != TIDE_OPI(MPI_BXOR) && op != TIDE_OPI(MPI_REPLACE) && op != TIDE_OPI(MPI_NO_OP))
        return false;
    bool fetch = a->kind == TIDE_RMA_GACC;
    bool reads_origin = op != TIDE_OPI(MPI_NO_OP);
    if (reads_origin && (!int_elements(a->odt, &eo) || eo != e || (size_t)a->ocount * a->odt->size != n * e))
        return false;
    if (fetch && (!int_elements(a->rdt, &er) || er != e || (size_t)a->rcount * a->rdt->size != n * e))
        return false;
    (void)w;
    const unsigned char *src = reads_origin ? (const unsigned char *)a->origin + a->odt->true_lb : NULL;
    unsigned char *res = fetch ? (unsigned char *)a->result + a->rdt->true_lb : NULL;
    for (size_t i = 0; i < n; i++) {
        uint64_t v = src ? load_elem(src + i * e, e) : 0;
        uint64_t old = fetch_op(tgt + i * e, e, op, v);
        if (res)
            store_elem(res + i * e, e, old);
    }
    return true;
}

int tide_rma_direct_issue(struct tide_win *w, const struct tide_rma_args *a)
{
    int r = a->target;
    void *t = w->peer_base[r] + (MPI_Aint)a->disp * w->disp_units[r];
    int rc = MPI_SUCCESS;
    if ((a->kind == TIDE_RMA_ACC || a->kind == TIDE_RMA_GACC || a->kind == TIDE_RMA_CAS) && atomic_op(w, a, t))
        return MPI_SUCCESS;
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

/* ---- PSCW ---- */

static uint64_t *posts_of(struct tide_win *w, int r)
{
    return &w->ctl[(size_t)w->size * TIDE_RMA_CTL_WORDS + (size_t)r * 2 * TIDE_RMA_PSCW_WORDS(w->size)];
}

static uint64_t *completes_of(struct tide_win *w, int r)
{
    return posts_of(w, r) + TIDE_RMA_PSCW_WORDS(w->size);
}

static void notify(uint64_t *words, int me)
{
    __atomic_fetch_or(&words[me / 64], (uint64_t)1 << (me % 64), __ATOMIC_SEQ_CST);
}

/* Are the bits of ranks[0..n) all set in words (or their process
 * gone)? Then they are cleared (take). */
static bool all_noticed(struct tide_win *w, uint64_t *words, const int *ranks, int n, bool take)
{
    for (int i = 0; i < n; i++)
        if (!(__atomic_load_n(&words[ranks[i] / 64], __ATOMIC_ACQUIRE) & ((uint64_t)1 << (ranks[i] % 64))) &&
            !tide_rma_peer_gone(w, ranks[i]))
            return false;
    for (int i = 0; take && i < n; i++)
        __atomic_fetch_and(&words[ranks[i] / 64], ~((uint64_t)1 << (ranks[i] % 64)), __ATOMIC_ACQ_REL);
    return true;
}

void tide_rma_direct_post(struct tide_win *w)
{
    for (int i = 0; i < w->post_group->size; i++)
        notify(posts_of(w, w->post_ranks[i]), w->rank);
}

void tide_rma_direct_start(struct tide_win *w)
{
    uint64_t *mine = posts_of(w, w->rank);
    for (int spins = 0; !all_noticed(w, mine, w->start_ranks, w->start_group->size, true); spins++)
        pause_for_peer(spins);
}

void tide_rma_direct_complete(struct tide_win *w)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    for (int i = 0; i < w->start_group->size; i++)
        notify(completes_of(w, w->start_ranks[i]), w->rank);
}

bool tide_rma_direct_completed(struct tide_win *w, bool wait)
{
    uint64_t *mine = completes_of(w, w->rank);
    for (int spins = 0;; spins++) {
        if (all_noticed(w, mine, w->post_ranks, w->post_group->size, true)) {
            __atomic_thread_fence(__ATOMIC_SEQ_CST);
            return true;
        }
        if (!wait)
            return false;
        pause_for_peer(spins);
    }
}
