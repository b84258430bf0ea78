/*
 * alltoall.c: MPI_Alltoall, MPI_Alltoallv, MPI_Alltoallw and their
 * nonblocking forms. Algorithms: linear (every receive and send started
 * at once), pairwise exchange (n-1 rounds, in round k sending to me+k and
 * receiving from me-k), and for alltoall Bruck (ceil(log2 n) rounds over
 * a rotated packed copy: in round k every block whose index has bit k
 * set moves k ranks on; for small blocks). MPI_IN_PLACE: the data to send
 * is first packed out of the receive buffer. Intercommunicator forms are
 * in inter.c.
 */
#include "runtime/api.h"
#include "coll/algo.h"
#include "coll/coll.h"
#include "coll/coll_api.h"
#include "coll/coll_args.h"
#include "coll/direct.h"
#include "coll/shm_coll.h"
#include "coll/shm_get.h"
#include "coll/shm_region.h"
#include "coll/inter.h"
#include "coll/pcoll.h"

#include <stdlib.h>
#include <string.h>

/* One side of an all-to-all: block i is counts[i] elements of types[i]
 * at byte displacement bdispl[i] from buf. */
struct side {
    const void *buf;
    const size_t *counts;
    const MPI_Aint *bdispl;
    struct tide_datatype *const *types;
};

static void *side_ptr(const struct side *x, int i)
{
    return (void *)((uintptr_t)x->buf + (uintptr_t)x->bdispl[i]);
}

static size_t side_bytes(const struct side *x, int i)
{
    return x->counts[i] * x->types[i]->size;
}

static void exchange_linear(struct tide_sched *s, const struct tide_cv *v, const struct side *snd,
                            const struct side *rcv, int step)
{
    int n = v->n, me = v->me;
    for (int k = 1; k < n; k++) {
        int from = (me - k + n) % n;
        if (side_bytes(rcv, from))
            cv_recv(s, v, from, step, side_ptr(rcv, from), rcv->counts[from], rcv->types[from]);
    }
    for (int k = 1; k < n; k++) {
        int to = (me + k) % n;
        if (side_bytes(snd, to))
            cv_send(s, v, to, step, side_ptr(snd, to), snd->counts[to], snd->types[to]);
    }
    tide_sched_copy(s, side_ptr(snd, me), snd->counts[me], snd->types[me], side_ptr(rcv, me), rcv->counts[me],
                    rcv->types[me]);
}

static void exchange_pairwise(struct tide_sched *s, const struct tide_cv *v, const struct side *snd,
                              const struct side *rcv, int step)
{
    int n = v->n, me = v->me;
    tide_sched_copy(s, side_ptr(snd, me), snd->counts[me], snd->types[me], side_ptr(rcv, me), rcv->counts[me],
                    rcv->types[me]);
    for (int k = 1; k < n; k++, step++) {
        int to, from;
        if (is_pof2(n)) {
            to = from = me ^ k;
        } else {
            to = (me + k) % n;
            from = (me - k + n) % n;
        }
        if (side_bytes(rcv, from))
            cv_recv(s, v, from, step, side_ptr(rcv, from), rcv->counts[from], rcv->types[from]);
        if (side_bytes(snd, to))
            cv_send(s, v, to, step, side_ptr(snd, to), snd->counts[to], snd->types[to]);
        tide_sched_fence(s);
    }
}

/* Bruck on even blocks of bb bytes; sbuf blocks of scount sdt, rbuf blocks
 * of rcount rdt. */
static void alltoall_bruck(struct tide_sched *s, const struct tide_cv *v, const void *sbuf, size_t scount,
                           struct tide_datatype *sdt, void *rbuf, size_t rcount, struct tide_datatype *rdt, int step)
{
    int n = v->n, me = v->me;
    struct tide_datatype *byte = tide_coll_byte();
    size_t bb = rcount * rdt->size;
    int half = (n + 1) / 2;
    char *t = tide_sched_alloc(s, (size_t)n * bb);
    char *out = tide_sched_alloc(s, (size_t)half * bb);
    char *in = tide_sched_alloc(s, (size_t)half * bb);
    if (!t || !out || !in)
        return;
    /* t[j] = the block for rank (me + j) % n */
    int head = n - me;
    tide_sched_copy(s, elem_at(sbuf, sdt, (size_t)me * scount), (size_t)head * scount, sdt, t, (size_t)head * bb,
                    byte);
    if (me > 0)
        tide_sched_copy(s, sbuf, (size_t)me * scount, sdt, t + (size_t)head * bb, (size_t)me * bb, byte);
    for (int k = 1; k < n; k <<= 1, step++) {
        int cnt = 0;
        for (int j = 1; j < n; j++)
            if (j & k) {
                tide_sched_copy(s, t + (size_t)j * bb, bb, byte, out + (size_t)cnt * bb, bb, byte);
                cnt++;
            }
        cv_recv(s, v, (me - k + n) % n, step, in, (size_t)cnt * bb, byte);
        cv_send(s, v, (me + k) % n, step, out, (size_t)cnt * bb, byte);
        tide_sched_fence(s);
        cnt = 0;
        for (int j = 1; j < n; j++)
            if (j & k) {
                tide_sched_copy(s, in + (size_t)cnt * bb, bb, byte, t + (size_t)j * bb, bb, byte);
                cnt++;
            }
    }
    /* t[j] now came from rank (me - j) % n */
    for (int j = 0; j < n; j++)
        tide_sched_copy(s, t + (size_t)j * bb, bb, byte, elem_at(rbuf, rdt, (size_t)((me - j + n) % n) * rcount),
                        rcount, rdt);
}

/* Describe even blocks as a side (arrays in schedule memory). */
static bool even_side(struct tide_sched *s, struct side *x, const void *buf, size_t count, struct tide_datatype *dt,
                      int n)
{
    size_t *counts = tide_sched_alloc(s, (size_t)n * sizeof *counts);
    MPI_Aint *d = tide_sched_alloc(s, (size_t)n * sizeof *d);
    struct tide_datatype **types = tide_sched_alloc(s, (size_t)n * sizeof *types);
    if (!counts || !d || !types)
        return false;
    for (int i = 0; i < n; i++) {
        counts[i] = count;
        d[i] = (MPI_Aint)((size_t)i * count) * dt->extent;
        types[i] = dt;
    }
    x->buf = buf;
    x->counts = counts;
    x->bdispl = d;
    x->types = types;
    return true;
}

/* MPI_IN_PLACE: pack every block of the receive side into a temporary and
 * send from there. */
static bool in_place_side(struct tide_sched *s, struct side *snd, const struct side *rcv, int n)
{
    size_t total = 0;
    for (int i = 0; i < n; i++)
        total += side_bytes(rcv, i);
    char *t = tide_sched_alloc(s, total);
    size_t *counts = tide_sched_alloc(s, (size_t)n * sizeof *counts);
    MPI_Aint *d = tide_sched_alloc(s, (size_t)n * sizeof *d);
    struct tide_datatype **types = tide_sched_alloc(s, (size_t)n * sizeof *types);
    if (!t || !counts || !d || !types)
        return false;
    struct tide_datatype *byte = tide_coll_byte();
    size_t off = 0;
    for (int i = 0; i < n; i++) {
        size_t b = side_bytes(rcv, i);
        tide_sched_copy(s, side_ptr(rcv, i), rcv->counts[i], rcv->types[i], t + off, b, byte);
        counts[i] = b;
        d[i] = (MPI_Aint)off;
        types[i] = byte;
        off += b;
    }
    tide_sched_fence(s);
    snd->buf = t;
    snd->counts = counts;
    snd->bdispl = d;
    snd->types = types;
    return true;
}

/* ---- MPI functions ---- */

enum form { F_EVEN, F_V, F_W };

struct aaargs {
    const void *sbuf;
    MPI_Count scount;
    const MPI_Count *scounts;
    const MPI_Aint *sdispls;
    struct tide_datatype *sdt;
    struct tide_datatype **sdts; /* F_W */
    void *rbuf;
    MPI_Count rcount;
    const MPI_Count *rcounts;
    const MPI_Aint *rdispls;
    struct tide_datatype *rdt;
    struct tide_datatype **rdts;
    /* the int form's arrays (widened into the ones above) */
    const int *iscounts, *isdispls, *ircounts, *irdispls;
    struct tide_coll_wide wide;
};

/* the sides of a v/w call */
static bool vw_side(struct tide_sched *s, struct side *x, const void *buf, const MPI_Count *counts, const MPI_Aint *displs,
                    struct tide_datatype *dt, struct tide_datatype **dts, int n)
{
    size_t *c = tide_sched_alloc(s, (size_t)n * sizeof *c);
    MPI_Aint *d = tide_sched_alloc(s, (size_t)n * sizeof *d);
    struct tide_datatype **types = tide_sched_alloc(s, (size_t)n * sizeof *types);
    if (!c || !d || !types)
        return false;
    for (int i = 0; i < n; i++) {
        c[i] = (size_t)counts[i];
        types[i] = dts ? dts[i] : dt;
        d[i] = dts ? (MPI_Aint)displs[i] : (MPI_Aint)displs[i] * dt->extent;
    }
    x->buf = buf;
    x->counts = c;
    x->bdispl = d;
    x->types = types;
    return true;
}

/* shm: a blocking call (even blocks), which the shared region may carry */
static int alltoall_alg(struct tide_comm *c, enum form f, size_t bytes, bool shm)
{
    struct tide_coll_sel sel = {.kind = f == F_EVEN ? TC_ALLTOALL : f == F_V ? TC_ALLTOALLV : TC_ALLTOALLW,
                                .bytes = bytes, .commute = true, .even = f == F_EVEN};
    tide_coll_sel_comm(&sel, c);
    sel.shm = shm && bytes <= tide_region_slot_bytes(c->size) / (size_t)c->size &&
              tide_shm_coll_fits(c, bytes * (size_t)c->size);
    sel.get = shm && f == F_EVEN && tide_coll_region_readable_possible(c);
    return tide_coll_select(&sel);
}

/* A blocking alltoall (even blocks) without a schedule, if its algorithm
 * allows: MPI_SUCCESS or an error, or -1 when the caller must build one. */
static int alltoall_direct_run(struct tide_comm *c, const struct aaargs *a)
{
    if (!tide_direct_allowed(c))
        return -1;
    size_t block = (size_t)a->rcount * a->rdt->size;
    int alg = alltoall_alg(c, F_EVEN, block, true);
    if (alg == TA_SHM) {
        int rc = tide_shm_alltoall(c, a->sbuf, (size_t)a->scount, a->sdt, a->rbuf, (size_t)a->rcount, a->rdt);
        if (rc >= 0)
            return rc;
        alg = alltoall_alg(c, F_EVEN, block, false); /* no region after all */
    }
    if (alg == TA_GET) {
        int rc = tide_get_alltoall(c, a->sbuf, (size_t)a->scount, a->sdt, a->rbuf, (size_t)a->rcount, a->rdt);
        if (rc >= 0)
            return rc;
        alg = alltoall_alg(c, F_EVEN, block, false); /* no reading after all */
    }
    if (!tide_direct_alltoall_ok(alg, a->sbuf))
        return -1;
    struct tide_cv v;
    tide_cv_comm(&v, c);
    return tide_direct_alltoall(&v, a->sbuf, (size_t)a->scount, a->sdt, a->rbuf, (size_t)a->rcount, a->rdt);
}

static void build(struct tide_sched *s, struct tide_comm *c, const struct aaargs *a, enum form f)
{
    if (c->is_inter) {
        if (f == F_EVEN)
            tide_inter_alltoall(s, c, a->sbuf, a->scount, a->sdt, a->rbuf, a->rcount, a->rdt);
        else
            tide_inter_alltoallv(s, c, a->sbuf, a->scounts, a->sdispls, a->sdt, a->sdts, a->rbuf, a->rcounts,
                                 a->rdispls, a->rdt, a->rdts);
        return;
    }
    int n = c->size;
    size_t bytes = 0;
    if (f == F_EVEN) {
        bytes = (size_t)a->rcount * a->rdt->size;
    } else {
        for (int i = 0; i < n; i++)
            bytes += (size_t)a->rcounts[i] * (f == F_W ? a->rdts[i]->size : a->rdt->size);
        bytes /= (size_t)n;
    }
    int alg = alltoall_alg(c, f, bytes, false);
    struct tide_cv v;
    tide_cv_comm(&v, c);
    struct side snd, rcv;
    if (f == F_EVEN) {
        if (a->rcount * a->rdt->size == 0)
            return;
        if (alg == TA_BRUCK && n > 2) {
            const void *sb = a->sbuf;
            size_t sc = (size_t)a->scount;
            struct tide_datatype *st = a->sdt;
            if (sb == MPI_IN_PLACE) {
                size_t bb = (size_t)a->rcount * a->rdt->size;
                char *t = tide_sched_alloc(s, (size_t)n * bb);
                if (!t)
                    return;
                tide_sched_copy(s, a->rbuf, (size_t)n * (size_t)a->rcount, a->rdt, t, (size_t)n * bb,
                                tide_coll_byte());
                sb = t;
                sc = bb;
                st = tide_coll_byte();
            }
            alltoall_bruck(s, &v, sb, sc, st, a->rbuf, (size_t)a->rcount, a->rdt, 0);
            return;
        }
        if (!even_side(s, &rcv, a->rbuf, (size_t)a->rcount, a->rdt, n))
            return;
        if (a->sbuf == MPI_IN_PLACE) {
            if (!in_place_side(s, &snd, &rcv, n))
                return;
        } else if (!even_side(s, &snd, a->sbuf, (size_t)a->scount, a->sdt, n)) {
            return;
        }
    } else {
        if (!vw_side(s, &rcv, a->rbuf, a->rcounts, a->rdispls, a->rdt, a->rdts, n))
            return;
        if (a->sbuf == MPI_IN_PLACE) {
            if (!in_place_side(s, &snd, &rcv, n))
                return;
        } else if (!vw_side(s, &snd, a->sbuf, a->scounts, a->sdispls, a->sdt, a->sdts, n)) {
            return;
        }
    }
    if (alg == TA_PAIRWISE)
        exchange_pairwise(s, &v, &snd, &rcv, 0);
    else
        exchange_linear(s, &v, &snd, &rcv, 0);
}

int tide_coll_alltoall(const void *sbuf, MPI_Count scount, struct tide_datatype *sdt, void *rbuf, MPI_Count rcount,
                       struct tide_datatype *rdt, struct tide_comm *c)
{
    tide_coll_enter(c, true);
    struct aaargs a = {.sbuf = sbuf, .scount = scount, .sdt = sdt, .rbuf = rbuf, .rcount = rcount, .rdt = rdt};
    int rc = alltoall_direct_run(c, &a);
    if (rc >= 0)
        return rc;
    struct tide_sched *s = tide_sched_new(c);
    if (!s)
        return tide_err(MPI_ERR_NO_MEM, "MPI_Alltoall: out of memory");
    build(s, c, &a, F_EVEN);
    return tide_sched_run(s);
}

/* A blocking alltoallv or alltoallw that reads straight from the others'
 * buffers, if the table chooses that: MPI_SUCCESS or an error, or -1
 * when the caller must build a schedule. The choice cannot depend on the
 * sizes, which differ from rank to rank: the table is asked at 0 bytes. */
static int alltoallvw_get_run(struct tide_comm *c, const struct aaargs *a, enum form f)
{
    if (!tide_direct_allowed(c) || !tide_get_alltoallv_fits(c->size))
        return -1;
    struct tide_coll_sel sel = {.kind = f == F_V ? TC_ALLTOALLV : TC_ALLTOALLW, .bytes = 0, .commute = true};
    tide_coll_sel_comm(&sel, c);
    sel.get = tide_coll_region_readable_possible(c);
    if (!sel.get || tide_coll_select(&sel) != TA_GET)
        return -1;
    struct tide_get_blocks snd = {.buf = a->sbuf, .counts = a->scounts, .displs = a->sdispls, .dt = a->sdt,
                                  .dts = f == F_W ? a->sdts : NULL};
    struct tide_get_blocks rcv = {.buf = a->rbuf, .counts = a->rcounts, .displs = a->rdispls, .dt = a->rdt,
                                  .dts = f == F_W ? a->rdts : NULL};
    return tide_get_alltoallv(c, &snd, &rcv);
}

static int check(const char *fn, struct tide_comm *c, struct aaargs *a, MPI_Datatype stype, MPI_Datatype rtype,
                 const MPI_Datatype *stypes, const MPI_Datatype *rtypes, enum form f)
{
    int rc;
    int n = c->is_inter ? c->remote_size : c->size;
    if (c->is_inter && (rc = tide_coll_no_in_place(a->sbuf, fn, "sendbuf", "not on an intercommunicator")))
        return rc;
    if ((rc = tide_coll_no_in_place(a->rbuf, fn, "recvbuf", "the in-place form names sendbuf")))
        return rc;
    if (f == F_EVEN) {
        if ((rc = tide_coll_check_type(rtype, a->rcount, fn, "recvtype", &a->rdt)) ||
            (rc = tide_coll_check_buf(a->rbuf, a->rcount, a->rdt, fn, "recvbuf")))
            return rc;
        if (a->sbuf != MPI_IN_PLACE) {
            if ((rc = tide_coll_check_type(stype, a->scount, fn, "sendtype", &a->sdt)) ||
                (rc = tide_coll_check_buf(a->sbuf, a->scount, a->sdt, fn, "sendbuf")) ||
                (!c->is_inter && (rc = tide_coll_check_fit(a->scount, a->sdt, a->rcount, a->rdt, fn))) ||
                (rc = tide_coll_no_alias(a->sbuf, TIDE_COLL_BLOCK((long long)a->scount * n, a->sdt), a->rbuf,
                                         TIDE_COLL_BLOCK((long long)a->rcount * n, a->rdt), fn)))
                return rc;
        } else {
            a->sdt = a->rdt;
        }
        return MPI_SUCCESS;
    }
    if (a->ircounts && (rc = tide_coll_widen(&a->wide, a->ircounts, a->irdispls, n, fn, &a->rcounts, &a->rdispls)))
        return rc;
    if (a->iscounts && a->sbuf != MPI_IN_PLACE &&
        (rc = tide_coll_widen(&a->wide, a->iscounts, a->isdispls, n, fn, &a->scounts, &a->sdispls)))
        return rc;
    if (f == F_V) {
        if ((rc = tide_coll_check_type(rtype, 0, fn, "recvtype", &a->rdt)) ||
            (rc = tide_coll_check_counts(a->rcounts, a->rdispls, n, a->rdt, true, fn, "recvcounts", "rdispls")))
            return rc;
        if (a->sbuf != MPI_IN_PLACE) {
            if ((rc = tide_coll_check_type(stype, 0, fn, "sendtype", &a->sdt)) ||
                (rc = tide_coll_check_counts(a->scounts, a->sdispls, n, a->sdt, false, fn, "sendcounts",
                                             "sdispls")))
                return rc;
            if ((!c->is_inter &&
                 (rc = tide_coll_check_fit(a->scounts[c->rank], a->sdt, a->rcounts[c->rank], a->rdt, fn))) ||
                (rc = tide_coll_no_alias(
                     a->sbuf, &(struct tide_coll_blocks){.n = n, .counts = a->scounts, .displs = a->sdispls, .dt = a->sdt},
                     a->rbuf, &(struct tide_coll_blocks){.n = n, .counts = a->rcounts, .displs = a->rdispls, .dt = a->rdt},
                     fn)))
                return rc;
        } else {
            a->sdt = a->rdt;
        }
        return MPI_SUCCESS;
    }
    a->rdts = malloc((size_t)(n ? n : 1) * sizeof *a->rdts);
    a->sdts = malloc((size_t)(n ? n : 1) * sizeof *a->sdts);
    if (!a->rdts || !a->sdts)
        return tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    if ((rc = tide_coll_check_countsw(a->rcounts, a->rdispls, rtypes, n, true, fn, "recvcounts", "rdispls",
                                      "recvtypes", a->rdts)))
        return rc;
    if (a->sbuf != MPI_IN_PLACE) {
        if ((rc = tide_coll_check_countsw(a->scounts, a->sdispls, stypes, n, false, fn, "sendcounts", "sdispls",
                                          "sendtypes", a->sdts)))
            return rc;
        if ((!c->is_inter &&
             (rc = tide_coll_check_fit(a->scounts[c->rank], a->sdts[c->rank], a->rcounts[c->rank],
                                       a->rdts[c->rank], fn))) ||
            (rc = tide_coll_no_alias(
                 a->sbuf, &(struct tide_coll_blocks){.n = n, .counts = a->scounts, .displs = a->sdispls, .dts = a->sdts},
                 a->rbuf, &(struct tide_coll_blocks){.n = n, .counts = a->rcounts, .displs = a->rdispls, .dts = a->rdts},
                 fn)))
            return rc;
    } else {
        memcpy(a->sdts, a->rdts, (size_t)n * sizeof *a->sdts);
    }
    a->sdt = a->rdt = tide_coll_byte();
    return MPI_SUCCESS;
}

static void agree_build(struct tide_sched *s, struct tide_comm *c, const char *fn, const struct aaargs *a,
                        enum form f)
{
    if (tide_coll_checking()) {
        struct tide_coll_agree ag = {.root = 0, .bytes = f != F_EVEN || c->is_inter
                                                     ? -1
                                                     : (long long)a->rcount * (long long)a->rdt->size};
        tide_coll_agree_add(s, c, &ag, fn);
    }
    build(s, c, a, f);
}

/* what a persistent alltoall keeps */
struct alltoall_kept {
    struct aaargs a;
    enum form f;
};

static void kept_build(struct tide_sched *s, struct tide_comm *c, const char *fn, void *args)
{
    const struct alltoall_kept *k = args;
    agree_build(s, c, fn, &k->a, k->f);
}

/* An _init call: the request keeps the checked arguments (copies of the
 * wide arrays; the caller still frees a->sdts and a->rdts). */
static int keep(const char *fn, struct tide_comm *c, const struct aaargs *a, enum form f, MPI_Request *request)
{
    struct tide_pcoll *p = tide_pcoll_new(c, fn, kept_build);
    if (!p)
        return tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    struct alltoall_kept k = {*a, f};
    size_t n = (size_t)(c->is_inter ? c->remote_size : c->size);
    k.a.scounts = k.a.rcounts = NULL;
    k.a.sdispls = k.a.rdispls = NULL;
    k.a.iscounts = k.a.isdispls = k.a.ircounts = k.a.irdispls = NULL;
    k.a.wide = (struct tide_coll_wide){{NULL}, 0};
    k.a.sdts = k.a.rdts = NULL;
    if (f != F_EVEN) {
        k.a.rcounts = tide_pcoll_keep(p, a->rcounts, n * sizeof *a->rcounts);
        k.a.rdispls = tide_pcoll_keep(p, a->rdispls, n * sizeof *a->rdispls);
        if (a->sbuf != MPI_IN_PLACE) {
            k.a.scounts = tide_pcoll_keep(p, a->scounts, n * sizeof *a->scounts);
            k.a.sdispls = tide_pcoll_keep(p, a->sdispls, n * sizeof *a->sdispls);
        }
    }
    if (f == F_W) {
        k.a.sdts = tide_pcoll_keep(p, a->sdts, n * sizeof *a->sdts);
        k.a.rdts = tide_pcoll_keep(p, a->rdts, n * sizeof *a->rdts);
        for (size_t i = 0; i < n; i++) {
            tide_pcoll_hold_dt(p, a->sdts[i]);
            tide_pcoll_hold_dt(p, a->rdts[i]);
        }
    }
    tide_pcoll_hold_dt(p, a->sdt);
    tide_pcoll_hold_dt(p, a->rdt);
    return tide_pcoll_commit(p, tide_pcoll_keep(p, &k, sizeof k), request);
}

static int run_api(const char *fn, struct aaargs *a, MPI_Datatype stype, MPI_Datatype rtype,
                   const MPI_Datatype *stypes, const MPI_Datatype *rtypes, MPI_Comm comm, enum form f,
                   MPI_Request *request, enum tide_coll_mode mode)
{
    bool nonblocking = mode != TIDE_COLL_BLOCKING;
    struct tide_comm *c;
    int rc = tide_coll_check_comm(comm, fn, &c);
    if (rc)
        return tide_coll_raise(c, rc);
    tide_coll_enter(c, mode != TIDE_COLL_NONBLOCKING);
    tide_coll_count_call(c);
    rc = check(fn, c, a, stype, rtype, stypes, rtypes, f);
    if (!rc && nonblocking)
        rc = tide_coll_check_request(request, fn);
    rc = tide_coll_checked(c, rc, fn);
    if (rc) {
        free(a->sdts);
        free(a->rdts);
        return tide_raise_comm(c, tide_coll_mode_error(c, mode, rc, 0, fn));
    }
    if (mode == TIDE_COLL_PERSISTENT) {
        rc = keep(fn, c, a, f, request);
        free(a->sdts);
        free(a->rdts);
        return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
    }
    if (!nonblocking && (rc = f == F_EVEN ? alltoall_direct_run(c, a) : alltoallvw_get_run(c, a, f)) >= 0) {
        free(a->sdts);
        free(a->rdts);
        return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
    }
    struct tide_sched *s = tide_sched_new(c);
    if (!s) {
        free(a->sdts);
        free(a->rdts);
        return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    }
    agree_build(s, c, fn, a, f);
    free(a->sdts);
    free(a->rdts);
    rc = nonblocking ? tide_sched_start(s, request) : tide_sched_run(s);
    return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
}

static int start(const char *fn, struct aaargs *a, MPI_Datatype stype, MPI_Datatype rtype,
                 const MPI_Datatype *stypes, const MPI_Datatype *rtypes, MPI_Comm comm, enum form f,
                 MPI_Request *request, enum tide_coll_mode mode)
{
    int rc = run_api(fn, a, stype, rtype, stypes, rtypes, comm, f, request, mode);
    tide_coll_wide_free(&a->wide);
    return rc;
}

int tide_alltoall_api(const char *fn, const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
                      MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *request,
                      enum tide_coll_mode mode)
{
    struct aaargs a = {.sbuf = sbuf, .scount = scount, .rbuf = rbuf, .rcount = rcount};
    return start(fn, &a, stype, rtype, NULL, NULL, comm, F_EVEN, request, mode);
}

int tide_alltoallv_api(const char *fn, const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls,
                       MPI_Datatype stype, const MPI_Datatype *stypes, void *rbuf, const MPI_Count *rcounts,
                       const MPI_Aint *rdispls, MPI_Datatype rtype, const MPI_Datatype *rtypes, MPI_Comm comm,
                       bool wform, MPI_Request *request, enum tide_coll_mode mode)
{
    struct aaargs a = {.sbuf = sbuf, .scounts = scounts, .sdispls = sdispls, .rbuf = rbuf, .rcounts = rcounts,
                       .rdispls = rdispls};
    return start(fn, &a, stype, rtype, stypes, rtypes, comm, wform ? F_W : F_V, request, mode);
}

int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm)
{
    TIDE_API_ENTER();
    struct aaargs a = {.sbuf = sendbuf, .scount = sendcount, .rbuf = recvbuf, .rcount = recvcount};
    return start("MPI_Alltoall", &a, sendtype, recvtype, NULL, NULL, comm, F_EVEN, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Alltoall)

int PMPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    struct aaargs a = {.sbuf = sendbuf, .scount = sendcount, .rbuf = recvbuf, .rcount = recvcount};
    return start("MPI_Ialltoall", &a, sendtype, recvtype, NULL, NULL, comm, F_EVEN, request, TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Ialltoall)

int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                   void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    TIDE_API_ENTER();
    struct aaargs a = {.sbuf = sendbuf, .iscounts = sendcounts, .isdispls = sdispls, .rbuf = recvbuf,
                       .ircounts = recvcounts, .irdispls = rdispls};
    return start("MPI_Alltoallv", &a, sendtype, recvtype, NULL, NULL, comm, F_V, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Alltoallv)

int PMPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                    void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                    MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    struct aaargs a = {.sbuf = sendbuf, .iscounts = sendcounts, .isdispls = sdispls, .rbuf = recvbuf,
                       .ircounts = recvcounts, .irdispls = rdispls};
    return start("MPI_Ialltoallv", &a, sendtype, recvtype, NULL, NULL, comm, F_V, request, TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Ialltoallv)

int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                   void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                   MPI_Comm comm)
{
    TIDE_API_ENTER();
    struct aaargs a = {.sbuf = sendbuf, .iscounts = sendcounts, .isdispls = sdispls, .rbuf = recvbuf,
                       .ircounts = recvcounts, .irdispls = rdispls};
    return start("MPI_Alltoallw", &a, MPI_DATATYPE_NULL, MPI_DATATYPE_NULL, sendtypes, recvtypes, comm, F_W, NULL,
                 TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Alltoallw)

int PMPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[],
                    const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    struct aaargs a = {.sbuf = sendbuf, .iscounts = sendcounts, .isdispls = sdispls, .rbuf = recvbuf,
                       .ircounts = recvcounts, .irdispls = rdispls};
    return start("MPI_Ialltoallw", &a, MPI_DATATYPE_NULL, MPI_DATATYPE_NULL, sendtypes, recvtypes, comm, F_W,
                 request, TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Ialltoallw)

int PMPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Alltoall_init";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    struct aaargs a = {.sbuf = sendbuf, .scount = sendcount, .rbuf = recvbuf, .rcount = recvcount};
    return start(fn, &a, sendtype, recvtype, NULL, NULL, comm, F_EVEN, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Alltoall_init)

int PMPI_Alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                        void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Alltoallv_init";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    struct aaargs a = {.sbuf = sendbuf, .iscounts = sendcounts, .isdispls = sdispls, .rbuf = recvbuf,
                       .ircounts = recvcounts, .irdispls = rdispls};
    return start(fn, &a, sendtype, recvtype, NULL, NULL, comm, F_V, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Alltoallv_init)

int PMPI_Alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[],
                        const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Alltoallw_init";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    struct aaargs a = {.sbuf = sendbuf, .iscounts = sendcounts, .isdispls = sdispls, .rbuf = recvbuf,
                       .ircounts = recvcounts, .irdispls = rdispls};
    return start(fn, &a, MPI_DATATYPE_NULL, MPI_DATATYPE_NULL, sendtypes, recvtypes, comm, F_W, request,
                 TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Alltoallw_init)
