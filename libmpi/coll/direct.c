/*
 * direct.c: blocking collectives whose algorithm is a plain sequence of
 * point-to-point steps (barrier: direct, linear, dissemination; bcast:
 * linear, binomial) run straight over point-to-point in the caller,
 * without building a schedule. The messages (peers, tags, sizes) are the
 * ones the schedule builders of barrier.c and bcast.c produce, so a rank
 * running the direct form and one running the schedule (a nonblocking
 * call, or argument agreement switched on) still match each other.
 * Allreduce by recursive doubling has a direct form too, for short
 * vectors of a plain layout (its scratch vector lives on the stack), and
 * so do allgather (ring, direct) and alltoall (linear) with even blocks.
 */
#include "runtime/api.h"
#include "coll/algo.h"
#include "coll/coll_args.h"
#include "coll/direct.h"
#include "op/op.h"
#include "pt2pt/protocol.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/request.h"
#include "runtime/proc.h"

#include <stdlib.h>
#include <string.h>

#define DIRECT_SENDS 16
#define DIRECT_REDUCE_MAX 2048

/* Sends of one collective call that could not complete at once. */
struct direct_sends {
    struct tide_request *r[DIRECT_SENDS];
    int n;
    int err;
};

/* An empty set (only the count and the error: the request slots are
 * written before they are read, and clearing them costs a short call
 * more than its sends). */
static void sends_init(struct direct_sends *ds)
{
    ds->n = 0;
    ds->err = MPI_SUCCESS;
}

/* Keep the first error. */
static void note(struct direct_sends *ds, int rc)
{
    if (rc != MPI_SUCCESS && ds->err == MPI_SUCCESS)
        ds->err = rc;
}

static void sends_wait(struct direct_sends *ds)
{
    for (int i = 0; i < ds->n; i++) {
        int e = tide_wait_free(ds->r[i], MPI_STATUS_IGNORE);
        if (e != MPI_SUCCESS && ds->err == MPI_SUCCESS)
            ds->err = e;
    }
    ds->n = 0;
}

static void dsend(struct direct_sends *ds, const struct tide_cv *v, int to, int step, const void *buf,
                  size_t count, struct tide_datatype *dt)
{
    struct tide_comm *c = v->comm;
    int peer = cv_rank(v, to), tag = cv_tag(v, step);
    uint32_t ctx = c->context_id + 1;
    if (tide_send_immediate(buf, (MPI_Count)count, dt, peer, tag, c, ctx))
        return;
    if (ds->n == DIRECT_SENDS)
        sends_wait(ds);
    struct tide_request *r;
    int rc = tide_isend(buf, (MPI_Count)count, dt, peer, tag, c, ctx, TIDE_MODE_STANDARD, &r);
    if (rc != MPI_SUCCESS) {
        if (ds->err == MPI_SUCCESS)
            ds->err = rc;
        return;
    }
    ds->r[ds->n++] = r;
}

static void drecv(struct direct_sends *ds, const struct tide_cv *v, int from, int step, void *buf, size_t count,
                  struct tide_datatype *dt)
{
    struct tide_comm *c = v->comm;
    int rc = tide_recv_blocking(buf, (MPI_Count)count, dt, cv_rank(v, from), cv_tag(v, step), c, c->context_id + 1,
                                MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS && ds->err == MPI_SUCCESS)
        ds->err = rc;
}

/* The receives of an exchange with every other rank, posted before its
 * sends, when its blocks may go by rendezvous (larger than PREPOST_MIN)
 * and always from DIRECT_SENDS + 2 ranks: a rank with more sends in
 * flight than DIRECT_SENDS waits for the first ones to complete, and a
 * rendezvous send completes only once its receive is posted, so if every
 * rank waited like that before posting its receives, none would finish.
 * Shorter blocks are received one by one with blocking receives, which
 * need no requests. */
#define PREPOST_MIN 16384
#define PREPOST_STACK 32

struct direct_recvs {
    struct tide_request *stack[PREPOST_STACK];
    struct tide_request **r;
    int n;
    bool posted;
};

static bool prepost_wanted(int n, size_t block_bytes)
{
    return block_bytes > PREPOST_MIN || n - 1 > DIRECT_SENDS;
}

/* Start receiving every block but ours (block i of rbuf from rank i):
 * posted now when prepost_wanted, else left to recvs_end. */
static int recvs_begin(struct direct_recvs *dr, struct direct_sends *ds, const struct tide_cv *v, void *rbuf,
                       size_t rcount, struct tide_datatype *rdt)
{
    int n = v->n, me = v->me;
    struct tide_comm *c = v->comm;
    dr->n = 0;
    dr->posted = prepost_wanted(n, rcount * rdt->size);
    if (!dr->posted)
        return MPI_SUCCESS;
    dr->r = n - 1 <= PREPOST_STACK ? dr->stack : malloc((size_t)(n - 1) * sizeof *dr->r);
    if (!dr->r)
        return tide_err(MPI_ERR_NO_MEM, "collective: out of memory for %d receives", n - 1);
    for (int k = 1; k < n; k++) {
        int from = (me - k + n) % n;
        int rc = tide_irecv(elem_at(rbuf, rdt, (size_t)from * rcount), (MPI_Count)rcount, rdt, cv_rank(v, from),
                            cv_tag(v, 0), c, c->context_id + 1, &dr->r[dr->n]);
        if (rc == MPI_SUCCESS)
            dr->n++;
        else
            note(ds, rc);
    }
    return MPI_SUCCESS;
}

/* Finish what recvs_begin started. */
static void recvs_end(struct direct_recvs *dr, struct direct_sends *ds, const struct tide_cv *v, void *rbuf,
                      size_t rcount, struct tide_datatype *rdt)
{
    if (dr->posted) {
        note(ds, tide_waitall_free(dr->n, dr->r));
        if (dr->r != dr->stack)
            free(dr->r);
        return;
    }
    for (int k = 1; k < v->n; k++) {
        int from = (v->me - k + v->n) % v->n;
        drecv(ds, v, from, 0, elem_at(rbuf, rdt, (size_t)from * rcount), rcount, rdt);
    }
}

static int finish(struct direct_sends *ds)
{
    sends_wait(ds);
    return ds->err;
}

bool tide_direct_allowed(const struct tide_comm *c)
{
    /* intercommunicators have their own forms; argument agreement runs
     * as part of a schedule */
    return !c->is_inter && !tide_coll_checking();
}

bool tide_direct_barrier_ok(int alg)
{
    return alg == TA_DIRECT || alg == TA_LINEAR || alg == TA_DISSEMINATION;
}

int tide_direct_barrier(const struct tide_cv *v, int alg)
{
    struct direct_sends ds;
    sends_init(&ds);
    int n = v->n, me = v->me;
    if (n < 2)
        return MPI_SUCCESS;
    switch (alg) {
    case TA_DIRECT:
        for (int k = 1; k < n; k++)
            dsend(&ds, v, (me + k) % n, 0, NULL, 0, tide_coll_byte());
        for (int k = 1; k < n; k++)
            drecv(&ds, v, (me - k + n) % n, 0, NULL, 0, tide_coll_byte());
        break;
    case TA_LINEAR:
        if (me == 0) {
            for (int i = 1; i < n; i++)
                drecv(&ds, v, i, 0, NULL, 0, tide_coll_byte());
            for (int i = 1; i < n; i++)
                dsend(&ds, v, i, 1, NULL, 0, tide_coll_byte());
        } else {
            dsend(&ds, v, 0, 0, NULL, 0, tide_coll_byte());
            drecv(&ds, v, 0, 1, NULL, 0, tide_coll_byte());
        }
        break;
    default: /* dissemination */
        for (int k = 1, step = 0; k < n; k <<= 1, step++) {
            dsend(&ds, v, (me + k) % n, step, NULL, 0, tide_coll_byte());
            drecv(&ds, v, (me - k + n) % n, step, NULL, 0, tide_coll_byte());
        }
        break;
    }
    return finish(&ds);
}

bool tide_direct_bcast_ok(int alg)
{
    return alg == TA_LINEAR || alg == TA_BINOMIAL;
}

int tide_direct_bcast(const struct tide_cv *v, void *buf, size_t count, struct tide_datatype *dt, int root,
                      int alg)
{
    struct direct_sends ds;
    sends_init(&ds);
    int n = v->n;
    if (alg == TA_LINEAR) {
        if (v->me == root) {
            for (int i = 1; i < n; i++)
                dsend(&ds, v, (root + i) % n, 0, buf, count, dt);
        } else {
            drecv(&ds, v, root, 0, buf, count, dt);
        }
        return finish(&ds);
    }
    int vr = (v->me - root + n) % n, mask = 1;
    while (mask < n) {
        if (vr & mask) {
            /* on an error the subtree still gets what arrived (as in the schedule) */
            drecv(&ds, v, (vr - mask + root) % n, 0, buf, count, dt);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vr + mask < n)
            dsend(&ds, v, (vr + mask + root) % n, 0, buf, count, dt);
    return finish(&ds);
}

bool tide_direct_allreduce_ok(int alg, size_t count, const struct tide_datatype *dt)
{
    return alg == TA_RD && dt->contig && dt->true_lb == 0 && dt->extent == (MPI_Aint)dt->size &&
           count * dt->size <= DIRECT_REDUCE_MAX;
}

/* Recursive doubling as allreduce.c builds it (the same fold for n not a
 * power of two, the same steps, the lower ranks' data always on the
 * left), with every send complete before its buffer is combined into. */
int tide_direct_allreduce(const struct tide_cv *v, const void *sbuf, void *rbuf, size_t count,
                          struct tide_datatype *dt, struct tide_op *op)
{
    struct direct_sends ds;
    sends_init(&ds);
    size_t bytes = count * dt->size;
    if (count == 0)
        return MPI_SUCCESS;
    if (sbuf != MPI_IN_PLACE && sbuf != rbuf)
        memmove(rbuf, sbuf, bytes);
    int n = v->n, me = v->me;
    if (n == 1)
        return MPI_SUCCESS;
    _Alignas(64) unsigned char tmp[DIRECT_REDUCE_MAX];
    void *a = rbuf, *b = tmp;
    int pof2 = pof2_floor(n), rem = n - pof2, newrank;
    if (me < 2 * rem) {
        if (me % 2 == 0) {
            dsend(&ds, v, me + 1, 0, a, count, dt);
            newrank = -1;
        } else {
            drecv(&ds, v, me - 1, 0, b, count, dt);
            tide_op_apply(op, b, a, count, dt); /* a = (me - 1) op me */
            newrank = me / 2;
        }
    } else {
        newrank = me - rem;
    }
    if (newrank >= 0) {
        int k = 1;
        for (int mask = 1; mask < pof2; mask <<= 1, k++) {
            int np = newrank ^ mask, peer = np < rem ? 2 * np + 1 : np + rem;
            dsend(&ds, v, peer, k, a, count, dt);
            drecv(&ds, v, peer, k, b, count, dt);
            sends_wait(&ds);
            if (np < newrank) {
                tide_op_apply(op, b, a, count, dt); /* a = peer op a */
            } else {
                tide_op_apply(op, a, b, count, dt); /* b = a op peer */
                void *t = a;
                a = b;
                b = t;
            }
        }
        if (a != rbuf)
            memcpy(rbuf, a, bytes);
    }
    if (me < 2 * rem) {
        sends_wait(&ds);
        if (me % 2)
            dsend(&ds, v, me - 1, 40, rbuf, count, dt);
        else
            drecv(&ds, v, me + 1, 40, rbuf, count, dt);
    }
    return finish(&ds);
}

bool tide_direct_allgather_ok(int alg)
{
    return alg == TA_RING || alg == TA_DIRECT;
}

/* allgather.c's ring and direct forms with even blocks */
int tide_direct_allgather(const struct tide_cv *v, const void *sbuf, size_t scount, struct tide_datatype *sdt,
                          void *rbuf, size_t rcount, struct tide_datatype *rdt, int alg)
{
    struct direct_sends ds;
    sends_init(&ds);
    int n = v->n, me = v->me;
    void *mine = elem_at(rbuf, rdt, (size_t)me * rcount);
    if (sbuf == MPI_IN_PLACE) {
        sbuf = mine;
        scount = rcount;
        sdt = rdt;
    }
    bool copy = sbuf != mine && scount > 0 && sdt->size > 0;
    if (rcount * rdt->size == 0 || n == 1)
        return n == 1 && copy ? tide_coll_copy(sbuf, scount, sdt, rbuf, rcount, rdt) : MPI_SUCCESS;
    bool send_own = scount * sdt->size > 0;
    if (alg == TA_DIRECT) {
        struct direct_recvs dr;
        int rc = recvs_begin(&dr, &ds, v, rbuf, rcount, rdt);
        if (rc != MPI_SUCCESS)
            return rc;
        for (int k = 1; k < n; k++)
            if (send_own)
                dsend(&ds, v, (me + k) % n, 0, sbuf, scount, sdt);
        if (copy)
            note(&ds, tide_coll_copy(sbuf, scount, sdt, mine, rcount, rdt));
        recvs_end(&dr, &ds, v, rbuf, rcount, rdt);
        return finish(&ds);
    }
    int left = (me - 1 + n) % n, right = (me + 1) % n;
    for (int k = 0; k < n - 1; k++) {
        if (k == 0) {
            if (send_own)
                dsend(&ds, v, right, k, sbuf, scount, sdt);
            if (copy)
                note(&ds, tide_coll_copy(sbuf, scount, sdt, mine, rcount, rdt));
        } else {
            dsend(&ds, v, right, k, elem_at(rbuf, rdt, (size_t)((me - k + n) % n) * rcount), rcount, rdt);
        }
        int blk = (me - k - 1 + n) % n;
        drecv(&ds, v, left, k, elem_at(rbuf, rdt, (size_t)blk * rcount), rcount, rdt);
    }
    return finish(&ds);
}

bool tide_direct_alltoall_ok(int alg, const void *sbuf)
{
    return alg == TA_LINEAR && sbuf != MPI_IN_PLACE;
}

/* alltoall.c's linear form with even blocks (not in place) */
int tide_direct_alltoall(const struct tide_cv *v, const void *sbuf, size_t scount, struct tide_datatype *sdt,
                         void *rbuf, size_t rcount, struct tide_datatype *rdt)
{
    struct direct_sends ds;
    sends_init(&ds);
    int n = v->n, me = v->me;
    if (rcount * rdt->size == 0)
        return MPI_SUCCESS;
    bool sending = scount * sdt->size > 0;
    struct direct_recvs dr;
    int rc = recvs_begin(&dr, &ds, v, rbuf, rcount, rdt);
    if (rc != MPI_SUCCESS)
        return rc;
    for (int k = 1; k < n; k++) {
        int to = (me + k) % n;
        if (sending)
            dsend(&ds, v, to, 0, elem_at(sbuf, sdt, (size_t)to * scount), scount, sdt);
    }
    if (scount > 0 && sdt->size > 0)
        note(&ds, tide_coll_copy(elem_at(sbuf, sdt, (size_t)me * scount), scount, sdt,
                                 elem_at(rbuf, rdt, (size_t)me * rcount), rcount, rdt));
    recvs_end(&dr, &ds, v, rbuf, rcount, rdt);
    return finish(&ds);
}
