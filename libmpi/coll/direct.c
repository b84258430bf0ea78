/*
 * direct.c: blocking collectives whose algorithm is a plain sequence of
 * point-to-point steps (barrier: direct, linear, dissemination; bcast:
 * linear, binomial) run straight over point-to-point in the caller,
 * without building a schedule. The messages (peers, tags, sizes) are the
 * ones the schedule builders of barrier.c and bcast.c produce, so a rank
 * running the direct form and one running the schedule (a nonblocking
 * call, or argument agreement switched on) still match each other.
 */
#include "runtime/api.h"
#include "coll/algo.h"
#include "coll/direct.h"
#include "pt2pt/protocol.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/request.h"
#include "runtime/proc.h"

#define DIRECT_SENDS 16

/* Sends of one collective call that could not complete at once. */
struct direct_sends {
    struct tide_request *r[DIRECT_SENDS];
    int n;
    int err;
};

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
    if (tide_send_immediate(buf, (int)count, dt, peer, tag, c, ctx))
        return;
    if (ds->n == DIRECT_SENDS)
        sends_wait(ds);
    struct tide_request *r;
    int rc = tide_isend(buf, (int)count, dt, peer, tag, c, ctx, TIDE_MODE_STANDARD, &r);
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
    int rc = tide_recv_blocking(buf, (int)count, dt, cv_rank(v, from), cv_tag(v, step), c, c->context_id + 1,
                                MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS && ds->err == MPI_SUCCESS)
        ds->err = rc;
}

static int finish(struct direct_sends *ds)
{
    sends_wait(ds);
    return ds->err;
}

bool tide_direct_barrier_ok(int alg)
{
    return alg == TA_DIRECT || alg == TA_LINEAR || alg == TA_DISSEMINATION;
}

int tide_direct_barrier(const struct tide_cv *v, int alg)
{
    struct direct_sends ds = {.n = 0, .err = MPI_SUCCESS};
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
    struct direct_sends ds = {.n = 0, .err = MPI_SUCCESS};
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
