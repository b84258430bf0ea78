/*
 * coll_args.c: the argument checks of the collective MPI functions
 * (coll_args.h), and the agreement check of coll_check: before the
 * collective itself, the ranks combine their root, message size, op and
 * error class (a recursive-doubling allreduce of maxima), and if they
 * disagree every rank stops with the same error class instead of
 * waiting for messages that will never come.
 *
 * Every collective takes exactly one sequence number on its communicator
 * (and, on an intercommunicator, one on the local group's communicator),
 * whether or not it has anything to send; a rank that fails its checks
 * takes the same numbers, so the ranks stay in step: under coll_check
 * after the agreement, otherwise when it sends its error notices
 * (coll_notice.c).
 */
#include "runtime/api.h"
#include "coll/algo.h"
#include "coll/coll_args.h"
#include "coll/coll_notice.h"
#include "op/op.h"
#include "params.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int tide_coll_raise(struct tide_comm *c, int code)
{
    return c ? tide_raise_comm(c, code) : tide_raise(code);
}

void tide_coll_enter(struct tide_comm *c, bool blocking)
{
    if (blocking && c)
        tide_coll_state(c, true);
}

int tide_coll_check_comm(MPI_Comm comm, const char *fn, struct tide_comm **c)
{
    *c = tide_comm_get(comm);
    if (!*c)
        return tide_err(MPI_ERR_COMM, "%s: %s (argument comm)", fn,
                        comm == MPI_COMM_NULL ? "MPI_COMM_NULL is not a communicator" : "invalid communicator");
    return MPI_SUCCESS;
}

int tide_coll_check_intra(struct tide_comm *c, const char *fn)
{
    if (c->is_inter)
        return tide_err(MPI_ERR_COMM, "%s: not defined on an intercommunicator (argument comm)", fn);
    return MPI_SUCCESS;
}

int tide_coll_check_request(MPI_Request *request, const char *fn)
{
    if (!request)
        return tide_err(MPI_ERR_ARG, "%s: request must not be NULL", fn);
    return MPI_SUCCESS;
}

int tide_coll_check_type(MPI_Datatype h, MPI_Count count, const char *fn, const char *argname, struct tide_datatype **dt)
{
    *dt = tide_datatype_get(h);
    return tide_datatype_check(*dt, h, count, fn, argname);
}

int tide_coll_check_buf(const void *buf, MPI_Count count, struct tide_datatype *dt, const char *fn, const char *argname)
{
    /* NULL is MPI_BOTTOM: fine with a derived type of absolute addresses */
    if (!buf && count > 0 && dt->size > 0 && dt->predefined)
        return tide_err(MPI_ERR_BUFFER, "%s: NULL buffer for %lld elements of %s (argument %s)", fn, count,
                        dt->name, argname);
    return MPI_SUCCESS;
}

int tide_coll_no_in_place(const void *buf, const char *fn, const char *argname, const char *why)
{
    if (buf == MPI_IN_PLACE)
        return tide_err(MPI_ERR_BUFFER, "%s: MPI_IN_PLACE is not allowed here (argument %s: %s)", fn, argname,
                        why);
    return MPI_SUCCESS;
}

/* The byte span [lo, hi) of block i of one side; false if it holds no data. */
static bool block_span(const struct tide_coll_blocks *b, int i, long long *lo, long long *hi)
{
    long long cnt = b->counts ? b->counts[i] : b->count;
    const struct tide_datatype *t = b->dts ? b->dts[i] : b->dt;
    if (cnt <= 0 || !t || t->size == 0)
        return false;
    long long base = 0;
    if (b->displs)
        base = b->dts ? (long long)b->displs[i] : (long long)b->displs[i] * (long long)b->dt->extent;
    long long reach = (cnt - 1) * (long long)t->extent;
    *lo = base + t->true_lb + (reach < 0 ? reach : 0);
    *hi = base + t->true_ub + (reach > 0 ? reach : 0);
    return true;
}

struct side_span {
    long long lo, hi;
    bool recv;
};

static int cmp_side_span(const void *a, const void *b)
{
    const struct side_span *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static int alias_error(const char *fn)
{
    return tide_err(MPI_ERR_BUFFER,
                    "%s: sendbuf and recvbuf overlap (arguments sendbuf and recvbuf; "
                    "pass MPI_IN_PLACE as sendbuf for the in-place form)",
                    fn);
}

int tide_coll_no_alias(const void *sbuf, const struct tide_coll_blocks *snd, const void *rbuf,
                       const struct tide_coll_blocks *rcv, const char *fn)
{
    if (!sbuf || sbuf == MPI_IN_PLACE || sbuf != rbuf)
        return MPI_SUCCESS;
    int n = snd->n + rcv->n;
    struct side_span one[2], *sp = n <= 2 ? one : malloc((size_t)n * sizeof *sp);
    if (!sp)
        return alias_error(fn); /* cannot tell: the same address is suspect */
    int m = 0;
    for (int side = 0; side < 2; side++) {
        const struct tide_coll_blocks *b = side ? rcv : snd;
        for (int i = 0; i < b->n; i++)
            if (block_span(b, i, &sp[m].lo, &sp[m].hi))
                sp[m++].recv = side;
    }
    /* sweep by start: a span overlaps the other side iff it starts below
     * the furthest end the other side has reached so far */
    qsort(sp, (size_t)m, sizeof *sp, cmp_side_span);
    long long reach[2] = {LLONG_MIN, LLONG_MIN};
    bool overlap = false;
    for (int k = 0; k < m && !overlap; k++) {
        overlap = sp[k].lo < reach[!sp[k].recv];
        if (sp[k].hi > reach[sp[k].recv])
            reach[sp[k].recv] = sp[k].hi;
    }
    if (sp != one)
        free(sp);
    return overlap ? alias_error(fn) : MPI_SUCCESS;
}

int tide_coll_check_root(struct tide_comm *c, int root, const char *fn)
{
    if (!c->is_inter) {
        if (root >= 0 && root < c->size)
            return MPI_SUCCESS;
        return tide_err(MPI_ERR_ROOT, "%s: invalid root %d (argument root; the communicator has %d ranks)", fn,
                        root, c->size);
    }
    if (root == MPI_ROOT || root == MPI_PROC_NULL || (root >= 0 && root < c->remote_size))
        return MPI_SUCCESS;
    return tide_err(MPI_ERR_ROOT,
                    "%s: invalid root %d (argument root; on an intercommunicator it is MPI_ROOT, "
                    "MPI_PROC_NULL or a rank of the remote group, which has %d ranks)",
                    fn, root, c->remote_size);
}

int tide_coll_check_op(MPI_Op op, struct tide_datatype *dt, const char *fn, struct tide_op **o)
{
    *o = tide_op_get(op);
    if (!*o)
        return tide_err(MPI_ERR_OP, "%s: %s (argument op)", fn,
                        op == MPI_OP_NULL ? "MPI_OP_NULL is not an operation" : "invalid operation");
    return tide_op_check_reduce(*o, dt, fn);
}

struct span {
    long long lo, hi;
    int i;
};

static int cmp_span(const void *a, const void *b)
{
    const struct span *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo ? 1 : x->i - y->i;
}

/* No two of the n spans overlap? Else an error naming two blocks.
 * Receive blocks that overlap make a call erroneous (no location may be
 * written twice), but other implementations let it run and programs rely
 * on that, so this is looked at only under coll_check. */
static int check_overlap(struct span *sp, int n, const char *fn, const char *cname, const char *dname)
{
    if (n < 2)
        return MPI_SUCCESS;
    qsort(sp, (size_t)n, sizeof *sp, cmp_span);
    for (int k = 1; k < n; k++)
        if (sp[k].lo < sp[k - 1].hi)
            return tide_err(MPI_ERR_BUFFER,
                            "%s: blocks %d and %d overlap in the receive buffer (arguments %s and %s): "
                            "no location may be written twice",
                            fn, sp[k - 1].i < sp[k].i ? sp[k - 1].i : sp[k].i,
                            sp[k - 1].i < sp[k].i ? sp[k].i : sp[k - 1].i, cname, dname);
    return MPI_SUCCESS;
}

#define SPAN_LIMIT ((long long)(PTRDIFF_MAX / 4))

int tide_coll_check_counts(const MPI_Count *counts, const MPI_Aint *displs, int n, struct tide_datatype *dt, bool written,
                           const char *fn, const char *cname, const char *dname)
{
    if (n > 0 && !counts)
        return tide_err(MPI_ERR_ARG, "%s: %s must not be NULL", fn, cname);
    if (n > 0 && dname && !displs)
        return tide_err(MPI_ERR_ARG, "%s: %s must not be NULL", fn, dname);
    for (int i = 0; i < n; i++)
        if (counts[i] < 0)
            return tide_err(MPI_ERR_COUNT, "%s: negative count %lld at index %d (argument %s)", fn, counts[i], i,
                            cname);
    if (!dname)
        return MPI_SUCCESS;
    long long ext = dt->extent, aext = ext < 0 ? -ext : ext;
    for (int i = 0; i < n; i++) {
        long long d = displs[i] < 0 ? -(long long)displs[i] : displs[i];
        if (aext && (d > SPAN_LIMIT / aext || counts[i] > SPAN_LIMIT / aext))
            return tide_err(MPI_ERR_COUNT,
                            "%s: block %d (displacement %lld, count %lld) lies beyond any addressable buffer "
                            "(arguments %s and %s)",
                            fn, i, (long long)displs[i], counts[i], cname, dname);
    }
    if (!written || !dt->contig || dt->size == 0 || !tide_coll_checking())
        return MPI_SUCCESS;
    struct span *sp = malloc((size_t)n * sizeof *sp);
    if (!sp)
        return MPI_SUCCESS; /* the check is a courtesy */
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (counts[i] == 0)
            continue;
        sp[m].lo = (long long)displs[i] * ext;
        sp[m].hi = sp[m].lo + (long long)counts[i] * ext;
        sp[m].i = i;
        m++;
    }
    int rc = check_overlap(sp, m, fn, cname, dname);
    free(sp);
    return rc;
}

int tide_coll_check_countsw(const MPI_Count *counts, const MPI_Aint *displs, const MPI_Datatype *types, int n, bool written,
                            const char *fn, const char *cname, const char *dname, const char *tname,
                            struct tide_datatype **dts)
{
    if (n > 0 && (!counts || !displs || !types))
        return tide_err(MPI_ERR_ARG, "%s: %s, %s and %s must not be NULL", fn, cname, dname, tname);
    bool all_contig = true;
    for (int i = 0; i < n; i++) {
        if (counts[i] < 0)
            return tide_err(MPI_ERR_COUNT, "%s: negative count %lld at index %d (argument %s)", fn, counts[i], i,
                            cname);
        dts[i] = tide_datatype_get(types[i]);
        if (counts[i] == 0 && !dts[i]) {
            dts[i] = tide_coll_byte(); /* an unused block's type is not looked at */
            continue;
        }
        int rc = tide_datatype_check(dts[i], types[i], counts[i], fn, tname);
        if (rc)
            return rc;
        if (!dts[i]->contig)
            all_contig = false;
        long long aext = dts[i]->extent < 0 ? -(long long)dts[i]->extent : dts[i]->extent;
        if (aext && counts[i] > SPAN_LIMIT / aext)
            return tide_err(MPI_ERR_COUNT, "%s: block %d (count %lld) is larger than any addressable buffer "
                                           "(argument %s)", fn, i, counts[i], cname);
    }
    if (!written || !all_contig || !tide_coll_checking())
        return MPI_SUCCESS;
    struct span *sp = malloc((size_t)n * sizeof *sp);
    if (!sp)
        return MPI_SUCCESS;
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (counts[i] == 0 || dts[i]->size == 0)
            continue;
        sp[m].lo = (long long)displs[i] + dts[i]->true_lb;
        sp[m].hi = sp[m].lo + (long long)counts[i] * dts[i]->extent;
        sp[m].i = i;
        m++;
    }
    int rc = check_overlap(sp, m, fn, cname, dname);
    free(sp);
    return rc;
}

static void *widen_mem(struct tide_coll_wide *w, size_t bytes)
{
    if (w->used == (int)(sizeof w->mem / sizeof w->mem[0]))
        return NULL;
    void *m = malloc(bytes ? bytes : 1);
    if (m)
        w->mem[w->used++] = m;
    return m;
}

int tide_coll_widen_counts(struct tide_coll_wide *w, const int *in, int n, const char *fn, const MPI_Count **out)
{
    *out = NULL;
    if (!in)
        return MPI_SUCCESS;
    MPI_Count *c = widen_mem(w, (size_t)n * sizeof *c);
    if (!c)
        return tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    for (int i = 0; i < n; i++)
        c[i] = in[i];
    *out = c;
    return MPI_SUCCESS;
}

int tide_coll_widen_displs(struct tide_coll_wide *w, const int *in, int n, const char *fn, const MPI_Aint **out)
{
    *out = NULL;
    if (!in)
        return MPI_SUCCESS;
    MPI_Aint *d = widen_mem(w, (size_t)n * sizeof *d);
    if (!d)
        return tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    for (int i = 0; i < n; i++)
        d[i] = in[i];
    *out = d;
    return MPI_SUCCESS;
}

int tide_coll_widen(struct tide_coll_wide *w, const int *icounts, const int *idispls, int n, const char *fn,
                    const MPI_Count **counts, const MPI_Aint **displs)
{
    int rc = tide_coll_widen_counts(w, icounts, n, fn, counts);
    if (rc == MPI_SUCCESS && displs)
        rc = tide_coll_widen_displs(w, idispls, n, fn, displs);
    return rc;
}

void tide_coll_wide_free(struct tide_coll_wide *w)
{
    for (int i = 0; i < w->used; i++)
        free(w->mem[i]);
    w->used = 0;
}

int tide_coll_sum_counts(const MPI_Count *counts, int n, const char *fn, const char *cname, MPI_Count *sum)
{
    long long t = 0;
    for (int i = 0; i < n; i++)
        if (__builtin_add_overflow(t, counts[i], &t))
            return tide_err(MPI_ERR_COUNT, "%s: the counts add up to more than a count holds (argument %s)", fn,
                            cname);
    *sum = t;
    return MPI_SUCCESS;
}

int tide_coll_check_fit(MPI_Count scount, struct tide_datatype *sdt, MPI_Count rcount, struct tide_datatype *rdt,
                        const char *fn)
{
    size_t s = (size_t)scount * sdt->size, r = (size_t)rcount * rdt->size;
    if (s > r)
        return tide_err(MPI_ERR_TRUNCATE,
                        "%s: each block sent is %zu bytes but each block received only %zu (arguments sendcount, "
                        "sendtype, recvcount, recvtype)",
                        fn, s, r);
    /* a shorter block fits, but the standard wants the same amount sent
     * as received: under coll_check that is an error too */
    if (s < r && tide_coll_checking())
        return tide_err(MPI_ERR_TRUNCATE,
                        "%s: each block sent is %zu bytes but each block received %zu; they must be equal "
                        "(arguments sendcount, sendtype, recvcount, recvtype)",
                        fn, s, r);
    return MPI_SUCCESS;
}

/* ---- agreement ---- */

bool tide_coll_checking(void)
{
    static int on = -1;
    if (on < 0) {
        const char *v = tide_config_get("coll_check");
        on = v && *v && strcmp(v, "0") != 0;
    }
    return on;
}

#define AGREE_N 7

struct agree_state {
    long long in[AGREE_N], out[AGREE_N];
    const char *fn;
    bool inter;
};

static void agree_verdict(struct tide_sched *s, void *arg)
{
    struct agree_state *a = arg;
    long long *m = a->out;
    long long rmax = m[0], rmin = -m[1], bmax = m[2], bmin = -m[3], omax = m[4], omin = -m[5], err = m[6];
    if (err > 0) {
        tide_sched_stop(s, tide_err((int)err, "%s: the arguments of another rank are wrong (error class %lld, "
                                              "%s): nobody goes on",
                                    a->fn, err, tide_error_class_string((int)err)));
        return;
    }
    if (a->inter) {
        if (rmax >= 0 && rmin != rmax)
            tide_sched_stop(s, tide_err(MPI_ERR_ROOT, "%s: the ranks of a group give different roots (%lld to %lld)",
                                        a->fn, rmin, rmax));
        return;
    }
    if (rmin != rmax)
        tide_sched_stop(s, tide_err(MPI_ERR_ROOT, "%s: the ranks give different roots (from %lld to %lld)", a->fn,
                                    rmin, rmax));
    else if (omin != omax)
        tide_sched_stop(s, tide_err(MPI_ERR_OP, "%s: the ranks give different operations", a->fn));
    else if (bmin != bmax)
        tide_sched_stop(s, tide_err(MPI_ERR_TRUNCATE,
                                    "%s: the ranks give different amounts of data (from %lld to %lld bytes)", a->fn,
                                    bmin, bmax));
}

void tide_coll_agree_add(struct tide_sched *s, struct tide_comm *c, const struct tide_coll_agree *ag,
                         const char *fn)
{
    struct tide_comm *over = c->is_inter ? c->local_comm : c;
    if (!over) {
        tide_sched_fail(s, tide_err(MPI_ERR_INTERN, "%s: intercommunicator without a local communicator", fn));
        return;
    }
    struct agree_state *a = tide_sched_alloc(s, sizeof *a);
    if (!a)
        return;
    long long root = ag->root, bytes = ag->bytes < 0 ? 0 : ag->bytes, op = ag->op;
    long long v[AGREE_N] = {root, -root, bytes, -bytes, op, -op, ag->err};
    memcpy(a->in, v, sizeof v);
    a->fn = fn;
    a->inter = c->is_inter;
    struct tide_cv cv;
    tide_cv_comm(&cv, over);
    tide_allreduce_build(s, &cv, a->in, a->out, AGREE_N, tide_datatype_get(MPI_LONG_LONG), tide_op_get(MPI_MAX),
                         TA_RD, 0);
    tide_sched_fence(s);
    tide_sched_call(s, agree_verdict, a);
}

int tide_coll_agree_fail(struct tide_comm *c, int code, int root, const char *fn)
{
    struct tide_sched *s = tide_sched_new(c);
    if (!s)
        return code;
    int cls = tide_error_class_of(code);
    struct tide_coll_agree a = {.root = root, .bytes = -1, .op = 0, .err = cls > 0 ? cls : MPI_ERR_OTHER};
    tide_coll_agree_add(s, c, &a, fn);
    tide_sched_run(s);
    /* take the sequence numbers the collective itself would have taken */
    c->coll_seq++;
    if (c->is_inter && c->local_comm)
        c->local_comm->coll_seq++;
    return code;
}

int tide_coll_local_error(struct tide_comm *c, int code, int root, const char *fn)
{
    if (!c)
        return code;
    if (tide_coll_checking() && !c->coll_doom)
        return tide_coll_agree_fail(c, code, root, fn);
    /* Without the agreement the call takes its sequence numbers like every
     * other rank's, and the others learn of the refusal from its error
     * notices (coll_notice.h): nobody waits for it. */
    return tide_coll_notice_send(c, code, fn);
}

int tide_coll_mode_error(struct tide_comm *c, enum tide_coll_mode mode, int code, int root, const char *fn)
{
    /* an _init call takes part in no agreement: notices, also under
     * coll_check */
    if (c && mode == TIDE_COLL_PERSISTENT)
        return tide_coll_notice_send(c, code, fn);
    return tide_coll_local_error(c, code, root, fn);
}
