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
#include "runtime/lock.h"

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

/* Wait a moment for another rank: keep this process's progress going
 * (others may wait on it) and give the core away, and the library lock
 * with it (the rank waited for may be another thread of this process: an
 * endpoint, or a thread under MPI_THREAD_MULTIPLE). */
static void pause_for_peer(int spins)
{
    if (spins % 64 == 63) {
        tide_progress();
        tide_lock_yield_begin();
        sched_yield();
        tide_lock_yield_end();
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

/* ---- accumulates ---- */

/* How an op updates the elements of a predefined type here: ATOMIC, one
 * CPU atomic per element (4- and 8-byte types with MPI_REPLACE and
 * MPI_NO_OP; integers with MPI_SUM and the bitwise ops); LOCKED, under
 * the target's accumulate lock; INVALID, a pair the standard does not
 * allow (the checked path reports it). The class depends on the op and
 * the type alone, and an element's alignment on its address alone, so
 * every access to one element takes the same way. */
enum { UPD_UNKNOWN = 0, UPD_ATOMIC, UPD_LOCKED, UPD_INVALID };
#define UPD_OPS 15 /* predefined op indices 1..14 */

struct upd {
    int8_t cls;
    uint8_t size;           /* bytes of one element */
    int16_t tyi;            /* the type's builtin index */
    tide_op_kernel_fn *k;   /* LOCKED: the loop (NULL for MPI_REPLACE, MPI_NO_OP) */
};

static struct upd upd_table[UPD_OPS][TIDE_BUILTIN_TYPE_COUNT];

static const struct upd *upd_of(int opi, int tyi)
{
    static const struct upd invalid = {.cls = UPD_INVALID};
    if (opi <= 0 || opi >= UPD_OPS || tyi <= 0 || tyi >= TIDE_BUILTIN_TYPE_COUNT)
        return &invalid;
    struct upd *u = &upd_table[opi][tyi];
    if (u->cls != UPD_UNKNOWN)
        return u;
    const struct tide_datatype *b = tide_datatype_builtin(tyi);
    const struct tide_op_ctype *ct = tide_op_ctype(tyi);
    bool any = opi == TIDE_OPI(MPI_REPLACE) || opi == TIDE_OPI(MPI_NO_OP);
    u->k = any ? NULL : tide_op_kernel(opi, tyi);
    u->tyi = (int16_t)tyi;
    u->size = b && b->size <= 255 ? (uint8_t)b->size : 0;
    bool word = b && (b->size == 4 || b->size == 8) && ct && ct->isize == 0 && ct->size == b->size;
    bool integer = tide_op_kernel(TIDE_OPI(MPI_BAND), tyi) != NULL;
    bool native = any || (integer && (opi == TIDE_OPI(MPI_SUM) || opi == TIDE_OPI(MPI_BAND) ||
                                      opi == TIDE_OPI(MPI_BOR) || opi == TIDE_OPI(MPI_BXOR)));
    if (!u->size || (!any && !u->k))
        u->cls = UPD_INVALID;
    else
        u->cls = word && native ? UPD_ATOMIC : UPD_LOCKED;
    return u;
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

static bool aligned_to(const void *p, size_t a)
{
    return (uintptr_t)p % a == 0;
}

/* n elements at t (contiguous) op= the n at src (NULL for MPI_NO_OP);
 * their old values to old when not NULL. The accumulate lock is taken
 * here unless held (the caller holds it for a LOCKED operation). */
static void update_run(struct tide_win *w, int r, const struct upd *u, int opi, unsigned char *t,
                       const unsigned char *src, unsigned char *old, size_t n, bool held)
{
    size_t e = u->size, bytes = n * e;
    if (u->cls == UPD_ATOMIC && aligned_to(t, e)) {
        for (size_t i = 0; i < n; i++) {
            uint64_t prev = fetch_op(t + i * e, e, opi, src ? load_elem(src + i * e, e) : 0);
            if (old)
                store_elem(old + i * e, e, prev);
        }
        return;
    }
    if (!held)
        acc_lock(w, r);
    if (old)
        memcpy(old, t, bytes);
    if (opi == TIDE_OPI(MPI_REPLACE))
        memmove(t, src, bytes);
    else if (opi != TIDE_OPI(MPI_NO_OP) && u->k && aligned_to(t, e) && aligned_to(src, e))
        u->k(src, t, n);
    else if (opi != TIDE_OPI(MPI_NO_OP))
        tide_op_apply(tide_op_get(TIDE_HANDLE(TIDE_KIND_OP, opi)), src, t, n, tide_datatype_builtin(u->tyi));
    if (!held)
        acc_unlock(w, r);
}

struct acc_walk {
    struct tide_win *w;
    int r;
    const struct upd *u;
    int opi;
    const unsigned char *stream; /* the origin's data, packed (NULL: MPI_NO_OP) */
    unsigned char *old;          /* the target's old data, packed (fetching) */
    size_t pos;
    bool held;
    bool bytewise; /* pieces do not start at elements: copy bytes (MPI_REPLACE, MPI_NO_OP) */
};

static int acc_piece(void *addr, size_t len, void *arg)
{
    struct acc_walk *a = arg;
    if (a->bytewise) {
        if (a->old)
            memcpy(a->old + a->pos, addr, len);
        if (a->stream)
            memmove(addr, a->stream + a->pos, len);
        a->pos += len;
        return 0;
    }
    update_run(a->w, a->r, a->u, a->opi, addr, a->stream ? a->stream + a->pos : NULL, a->old ? a->old + a->pos : NULL,
               len / a->u->size, a->held);
    a->pos += len;
    return 0;
}

/* An accumulate or get-accumulate: the target (tcount of tdt at t) op=
 * the origin's data, the old contents to the result buffer. */
static int accumulate(struct tide_win *w, unsigned char *t, const struct tide_rma_args *a)
{
    size_t total = (size_t)a->tcount * a->tdt->size;
    if (total == 0)
        return MPI_SUCCESS;
    int opi = a->op->index;
    const struct upd *u = upd_of(opi, a->tdt->base);
    if (u->cls == UPD_INVALID)
        return tide_err(MPI_ERR_TYPE, "the target datatype of an accumulate must be made of one predefined type");
    /* a pair type with a hole inside (MPI_SHORT_INT): the pieces of
     * target memory run from one element's second part into the next
     * one's first, so a byte copy (all MPI_REPLACE and MPI_NO_OP do)
     * rather than whole elements */
    const struct tide_datatype *bt = tide_datatype_builtin(a->tdt->base);
    bool holed = bt && (MPI_Aint)bt->size != bt->true_ub - bt->true_lb;
    bool bytewise = holed && (opi == TIDE_OPI(MPI_REPLACE) || opi == TIDE_OPI(MPI_NO_OP));
    bool fetch = a->kind == TIDE_RMA_GACC;
    unsigned char small[2][512], *stream = NULL, *old = NULL;
    bool noop = opi == TIDE_OPI(MPI_NO_OP);
    int rc = MPI_SUCCESS;
    if (!noop) {
        if (a->odt->contig) {
            stream = (unsigned char *)a->origin + a->odt->true_lb;
        } else {
            stream = total > sizeof small[0] ? malloc(total) : small[0];
            if (!stream)
                return tide_err(MPI_ERR_NO_MEM, "out of memory for an accumulate of %zu bytes", total);
            struct tide_convertor cv;
            tide_conv_init(&cv, a->odt, (size_t)a->ocount, a->origin);
            tide_conv_pack(&cv, stream, total);
        }
    }
    if (fetch) {
        old = a->rdt->contig ? (unsigned char *)a->result + a->rdt->true_lb
                             : total > sizeof small[1] ? malloc(total) : small[1];
        if (!old)
            rc = tide_err(MPI_ERR_NO_MEM, "out of memory for a get-accumulate of %zu bytes", total);
    }
    if (rc == MPI_SUCCESS) {
        struct acc_walk walk = {.w = w, .r = a->target, .u = u, .opi = opi, .stream = stream, .old = old,
                                .held = u->cls == UPD_LOCKED || bytewise, .bytewise = bytewise};
        if (walk.held)
            acc_lock(w, a->target);
        if (a->tdt->contig)
            acc_piece(t + a->tdt->true_lb, total, &walk);
        else
            tide_datatype_foreach(a->tdt, (size_t)a->tcount, t, acc_piece, &walk);
        if (walk.held)
            acc_unlock(w, a->target);
        if (fetch && !a->rdt->contig) {
            struct tide_convertor cv;
            tide_conv_init(&cv, a->rdt, (size_t)a->rcount, a->result);
            tide_conv_unpack(&cv, old, total);
        }
    }
    if (stream && stream != small[0] && stream != (unsigned char *)a->origin + a->odt->true_lb)
        free(stream);
    if (old && old != small[1] && old != (unsigned char *)a->result + a->rdt->true_lb)
        free(old);
    return rc;
}

int tide_rma_direct_acc_now(struct tide_win *w, int r, unsigned char *t, const void *origin, void *result, size_t n,
                            int tyi, int opi)
{
    const struct upd *u = upd_of(opi, tyi);
    if (u->cls == UPD_INVALID || (origin && !aligned_to(origin, u->size)) || (result && !aligned_to(result, u->size)))
        return 0;
    update_run(w, r, u, opi, t, opi == TIDE_OPI(MPI_NO_OP) ? NULL : origin, result, n, false);
    return 1;
}

/* compare-and-swap of one element of e bytes at tgt: a CPU atomic for
 * 4- and 8-byte types (whose accumulates are atomics too), else under
 * the lock */
static void compare_and_swap(struct tide_win *w, int r, unsigned char *tgt, size_t e, int tyi, const void *origin,
                             const void *compare, void *result)
{
    const struct upd *u = upd_of(TIDE_OPI(MPI_REPLACE), tyi);
    if (u->cls == UPD_ATOMIC && u->size == e && aligned_to(tgt, e)) {
        uint64_t want = load_elem(compare, e), put = load_elem(origin, e), old = want;
        if (e == 4) {
            uint32_t w4 = (uint32_t)want;
            __atomic_compare_exchange_n((uint32_t *)tgt, &w4, (uint32_t)put, false, __ATOMIC_SEQ_CST,
                                        __ATOMIC_SEQ_CST);
            old = w4;
        } else {
            __atomic_compare_exchange_n((uint64_t *)tgt, &old, put, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
        }
        store_elem(result, e, old);
        return;
    }
    acc_lock(w, r);
    memcpy(result, tgt, e);
    if (memcmp(result, compare, e) == 0)
        memcpy(tgt, origin, e);
    acc_unlock(w, r);
}

int tide_rma_direct_cas_now(struct tide_win *w, int r, unsigned char *t, const void *origin, const void *compare,
                            void *result, int tyi)
{
    const struct upd *u = upd_of(TIDE_OPI(MPI_BAND), tyi); /* integer and byte types */
    if (u->cls == UPD_INVALID)
        return 0;
    compare_and_swap(w, r, t, u->size, tyi, origin, compare, result);
    return 1;
}

int tide_rma_direct_issue(struct tide_win *w, const struct tide_rma_args *a)
{
    int r = a->target;
    unsigned char *t = w->peer_base[r] + (MPI_Aint)a->disp * w->disp_units[r];
    switch (a->kind) {
    case TIDE_RMA_PUT:
        copy_typed(t, a->tcount, a->tdt, a->origin, a->ocount, a->odt);
        return MPI_SUCCESS;
    case TIDE_RMA_GET:
        copy_typed((void *)a->origin, a->ocount, a->odt, t, a->tcount, a->tdt);
        return MPI_SUCCESS;
    case TIDE_RMA_ACC:
    case TIDE_RMA_GACC:
        return accumulate(w, t, a);
    case TIDE_RMA_CAS:
        compare_and_swap(w, r, t + a->tdt->true_lb, a->odt->size, a->odt->base, a->origin, a->compare, a->result);
        return MPI_SUCCESS;
    default:
        return MPI_SUCCESS;
    }
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
