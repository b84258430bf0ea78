/*
 * scan.c: MPI_Scan, MPI_Exscan and their nonblocking forms (intra-
 * communicators only). Algorithms: recursive doubling (in step k each
 * rank exchanges with me ^ 2^k the reduction of its aligned group of 2^k
 * ranks, and folds the lower group's into its prefix: ceil(log2 n) steps,
 * operands always in rank order) and linear (a chain: each rank waits for
 * the prefix of the ranks below, adds its own, passes it on; one pass over
 * the data, for long vectors).
 */
#include "runtime/api.h"
#include "coll/algo.h"
#include "coll/coll.h"
#include "coll/coll_api.h"
#include "coll/coll_args.h"
#include "coll/pcoll.h"
#include "op/op.h"

static void scan_rd(struct tide_sched *s, const struct tide_cv *v, const void *in, void *rbuf, size_t count,
                    struct tide_datatype *dt, struct tide_op *op, bool ex, int step)
{
    int n = v->n, me = v->me;
    /* part: the reduction of my whole aligned group so far */
    void *part = tide_sched_tmp(s, count, dt), *tmp = tide_sched_tmp(s, count, dt);
    if (!part || !tmp)
        return;
    tide_sched_copy(s, in, count, dt, part, count, dt);
    if (!ex && in != rbuf)
        tide_sched_copy(s, in, count, dt, rbuf, count, dt);
    tide_sched_fence(s);
    bool have = !ex; /* rbuf holds something (exscan: nothing until a lower group arrives) */
    for (int mask = 1; mask < n; mask <<= 1, step++) {
        int peer = me ^ mask;
        if (peer >= n)
            continue;
        cv_recv(s, v, peer, step, tmp, count, dt);
        cv_send(s, v, peer, step, part, count, dt);
        tide_sched_fence(s);
        if (peer < me) {
            if (have) {
                tide_sched_reduce(s, tmp, rbuf, count, dt, op); /* rbuf = lower op rbuf */
            } else {
                tide_sched_copy(s, tmp, count, dt, rbuf, count, dt);
                have = true;
            }
            tide_sched_reduce(s, tmp, part, count, dt, op); /* part = lower op part */
        } else {
            tide_sched_reduce(s, part, tmp, count, dt, op); /* tmp = part op higher */
            void *t = part;
            part = tmp;
            tmp = t;
        }
    }
}

static void scan_linear(struct tide_sched *s, const struct tide_cv *v, const void *in, void *rbuf, size_t count,
                        struct tide_datatype *dt, struct tide_op *op, bool ex, int step)
{
    int n = v->n, me = v->me;
    if (!ex) {
        if (in != rbuf)
            tide_sched_copy(s, in, count, dt, rbuf, count, dt);
        if (me > 0) {
            void *tmp = tide_sched_tmp(s, count, dt);
            if (!tmp)
                return;
            cv_recv(s, v, me - 1, step, tmp, count, dt);
            tide_sched_fence(s);
            tide_sched_reduce(s, tmp, rbuf, count, dt, op);
        }
        if (me < n - 1)
            cv_send(s, v, me + 1, step, rbuf, count, dt);
        return;
    }
    if (me == 0) {
        cv_send(s, v, 1, step, in, count, dt);
        return;
    }
    void *out = NULL;
    if (me < n - 1) {
        out = tide_sched_tmp(s, count, dt);
        if (!out)
            return;
        tide_sched_copy(s, in, count, dt, out, count, dt);
    }
    tide_sched_fence(s);
    cv_recv(s, v, me - 1, step, rbuf, count, dt);
    tide_sched_fence(s);
    if (out) {
        tide_sched_reduce(s, rbuf, out, count, dt, op); /* out = prefix op mine */
        cv_send(s, v, me + 1, step, out, count, dt);
    }
}

static void build(struct tide_sched *s, struct tide_comm *c, const void *sbuf, void *rbuf, MPI_Count count,
                  struct tide_datatype *dt, struct tide_op *op, bool ex)
{
    struct tide_coll_sel sel = {.kind = ex ? TC_EXSCAN : TC_SCAN, .bytes = (size_t)count * dt->size,
                                .commute = op->commute, .even = true};
    tide_coll_sel_comm(&sel, c);
    struct tide_cv v;
    tide_cv_comm(&v, c);
    if (count == 0)
        return;
    const void *in = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    if (v.n == 1) {
        if (!ex && in != rbuf)
            tide_sched_copy(s, in, (size_t)count, dt, rbuf, (size_t)count, dt);
        return;
    }
    if (tide_coll_select(&sel) == TA_LINEAR)
        scan_linear(s, &v, in, rbuf, (size_t)count, dt, op, ex, 0);
    else
        scan_rd(s, &v, in, rbuf, (size_t)count, dt, op, ex, 0);
}

struct scan_args {
    const void *sbuf;
    void *rbuf;
    MPI_Count count;
    struct tide_datatype *dt;
    struct tide_op *o;
    MPI_Op op;
    bool ex;
};

static void agree_build(struct tide_sched *s, struct tide_comm *c, const char *fn, void *args)
{
    const struct scan_args *a = args;
    if (tide_coll_checking()) {
        struct tide_coll_agree ag = {.root = 0, .bytes = (long long)a->count * (long long)a->dt->size, .op = a->op};
        tide_coll_agree_add(s, c, &ag, fn);
    }
    build(s, c, a->sbuf, a->rbuf, a->count, a->dt, a->o, a->ex);
}

static int start(const char *fn, const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                 MPI_Comm comm, bool ex, MPI_Request *request, enum tide_coll_mode mode)
{
    bool nonblocking = mode != TIDE_COLL_BLOCKING;
    struct tide_comm *c;
    int rc = tide_coll_check_comm(comm, fn, &c);
    if (rc)
        return tide_coll_raise(c, rc);
    tide_coll_enter(c, mode != TIDE_COLL_NONBLOCKING);
    tide_coll_count_call(c);
    struct tide_datatype *dt = NULL;
    struct tide_op *o = NULL;
    if (!(rc = tide_coll_check_intra(c, fn)) &&
        !(rc = tide_coll_no_in_place(rbuf, fn, "recvbuf", "the in-place form names sendbuf")) &&
        !(rc = tide_coll_check_type(datatype, count, fn, "datatype", &dt)) &&
        !(rc = tide_coll_check_op(op, dt, fn, &o)) &&
        !(sbuf != MPI_IN_PLACE && (rc = tide_coll_check_buf(sbuf, count, dt, fn, "sendbuf"))) &&
        !(rc = tide_coll_check_buf(rbuf, count, dt, fn, "recvbuf")))
        rc = tide_coll_no_alias(sbuf, TIDE_COLL_BLOCK(count, dt), rbuf, TIDE_COLL_BLOCK(count, dt), fn);
    if (!rc && nonblocking)
        rc = tide_coll_check_request(request, fn);
    rc = tide_coll_checked(c, rc, fn);
    if (rc) {
        return tide_raise_comm(c, tide_coll_mode_error(c, mode, rc, 0, fn));
    }
    struct scan_args a = {sbuf, rbuf, count, dt, o, op, ex};
    if (mode == TIDE_COLL_PERSISTENT) {
        struct tide_pcoll *p = tide_pcoll_new(c, fn, agree_build);
        if (!p)
            return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
        tide_pcoll_hold_dt(p, dt);
        tide_pcoll_hold_op(p, o);
        rc = tide_pcoll_commit(p, tide_pcoll_keep(p, &a, sizeof a), request);
        return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
    }
    struct tide_sched *s = tide_sched_new(c);
    if (!s)
        return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    agree_build(s, c, fn, &a);
    rc = nonblocking ? tide_sched_start(s, request) : tide_sched_run(s);
    return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
}

int tide_scan_api(const char *fn, const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm, bool ex, MPI_Request *request, enum tide_coll_mode mode)
{
    return start(fn, sbuf, rbuf, count, datatype, op, comm, ex, request, mode);
}

int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    TIDE_API_ENTER();
    return start("MPI_Scan", sendbuf, recvbuf, count, datatype, op, comm, false, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Scan)

int PMPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
               MPI_Request *request)
{
    TIDE_API_ENTER();
    return start("MPI_Iscan", sendbuf, recvbuf, count, datatype, op, comm, false, request, TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Iscan)

int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    TIDE_API_ENTER();
    return start("MPI_Exscan", sendbuf, recvbuf, count, datatype, op, comm, true, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Exscan)

int PMPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                 MPI_Request *request)
{
    TIDE_API_ENTER();
    return start("MPI_Iexscan", sendbuf, recvbuf, count, datatype, op, comm, true, request, TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Iexscan)

int PMPI_Scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                  MPI_Info info, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Scan_init";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    return start(fn, sendbuf, recvbuf, count, datatype, op, comm, false, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Scan_init)

int PMPI_Exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                    MPI_Info info, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Exscan_init";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    return start(fn, sendbuf, recvbuf, count, datatype, op, comm, true, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Exscan_init)
