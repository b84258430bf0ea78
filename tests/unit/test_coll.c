/*
 * test_coll.c: unit tests of libmpi/coll that need no other process:
 * the coll_tuning syntax and the selection table (every operation gets an
 * algorithm it has, for every size and rank count, and one that can take
 * a non-commutative op when the op is not commutative), the choice a
 * communicator remembers (and forgets when the rules or what is known of
 * the communicator change), the local typed
 * copy between layouts (and its truncation error), the argument checks on
 * count and displacement arrays (negative counts, overlapping blocks,
 * spans beyond any buffer), and the schedule engine on MPI_COMM_SELF
 * (copies, reductions, calls, stopping early, running out of inline
 * entries).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <cmocka.h>

#include "params.h"
#include "runtime/api.h"
#include "runtime/errhandler.h"
#include "runtime/proc.h"
#include "comm/comm.h"
#include "datatype/datatype.h"
#include "op/op.h"
#include "coll/algo.h"
#include "coll/coll_args.h"
#include "coll/sched.h"
#include "pt2pt/request.h"

static int setup(void **state)
{
    (void)state;
    tide_errhandler_init();
    tide_datatype_init();
    snprintf(tide.nspace, sizeof tide.nspace, "unit-coll");
    tide.rank = 0;
    tide.size = 1;
    tide.me = tide_proc_get(tide.nspace, 0);
    if (tide_comm_init_predefined() != 0)
        return -1;
    tide.initialized = 1;
    /* overlapping receive blocks are looked for under coll_check */
    tide_config_set("coll_check", "1", TIDE_SRC_CMDLINE);
    return 0;
}

static int sel(int kind, int n, size_t bytes, bool commute)
{
    struct tide_coll_sel s = {.kind = kind, .n = n, .bytes = bytes, .commute = commute, .even = true};
    return tide_coll_select(&s);
}

static void test_tuning_syntax(void **state)
{
    (void)state;
    char err[256] = "";
    assert_int_equal(tide_coll_tuning_set("allreduce=ring", err, sizeof err), 0);
    assert_int_equal(sel(TC_ALLREDUCE, 8, 100, true), TA_RING);
    assert_int_equal(sel(TC_ALLREDUCE, 8, 1 << 20, true), TA_RING);
    /* ring needs a commutative op: the table decides instead */
    assert_int_not_equal(sel(TC_ALLREDUCE, 8, 100, false), TA_RING);

    /* size ranges; the entry with the largest minimum that matches wins */
    assert_int_equal(tide_coll_tuning_set(" allreduce = rd , allreduce=ring@64k; bcast=pipeline@1k-2k", err,
                                          sizeof err),
                     -1); /* spaces around '=' are not part of the syntax */
    assert_int_equal(tide_coll_tuning_set("allreduce=rd,allreduce=ring@64k;bcast=pipeline@1k-2k", err, sizeof err), 0);
    assert_int_equal(sel(TC_ALLREDUCE, 8, 1000, true), TA_RD);
    assert_int_equal(sel(TC_ALLREDUCE, 8, 65536, true), TA_RING);
    assert_int_equal(sel(TC_BCAST, 8, 1024, true), TA_PIPELINE);
    assert_int_equal(sel(TC_BCAST, 8, 2048, true), TA_PIPELINE);
    assert_int_not_equal(sel(TC_BCAST, 8, 2049, true), TA_PIPELINE);

    /* rank ranges, aliases, auto */
    assert_int_equal(tide_coll_tuning_set("alltoall=bruck/4-8,allgather=recursive_doubling,allreduce=ring,"
                                          "allreduce=auto@1m",
                                          err, sizeof err),
                     0);
    assert_int_equal(sel(TC_ALLTOALL, 4, 8, true), TA_BRUCK);
    assert_int_equal(sel(TC_ALLTOALL, 8, 8, true), TA_BRUCK);
    assert_int_not_equal(sel(TC_ALLTOALL, 9, 100000, true), TA_BRUCK);
    assert_int_equal(sel(TC_ALLGATHER, 5, 100, true), TA_RD);
    assert_int_equal(sel(TC_ALLREDUCE, 8, 1000, true), TA_RING);
    int dflt = sel(TC_ALLREDUCE, 8, 4 << 20, true);
    tide_coll_tuning_set("", err, sizeof err);
    assert_int_equal(sel(TC_ALLREDUCE, 8, 4 << 20, true), dflt);

    /* errors: the message names the entry; good entries stay */
    static const char *bad[] = {"allreduce=fastest", "allfoo=ring", "allreduce", "allreduce=ring@",
                                "allreduce=ring@12q", "bcast=ring", "scan=ring/x", "allreduce=ring junk"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[128];
        snprintf(text, sizeof text, "barrier=linear,%s", bad[i]);
        err[0] = 0;
        assert_int_equal(tide_coll_tuning_set(text, err, sizeof err), -1);
        assert_non_null(strstr(err, "coll_tuning"));
        assert_int_equal(sel(TC_BARRIER, 4, 0, true), TA_LINEAR);
    }
    tide_coll_tuning_set("", err, sizeof err);
    /* hier only with a two-level layout */
    assert_int_equal(tide_coll_tuning_set("allreduce=hier", err, sizeof err), 0);
    assert_int_not_equal(sel(TC_ALLREDUCE, 8, 64, true), TA_HIER);
    struct tide_coll_sel h = {.kind = TC_ALLREDUCE, .n = 8, .bytes = 64, .commute = true, .hier = true};
    assert_int_equal(tide_coll_select(&h), TA_HIER);
    tide_coll_tuning_set("", err, sizeof err);
    /* a communicator's own rules come before the process's */
    struct tide_coll_rules *r = tide_coll_rules_parse("allreduce=reduce_bcast", err, sizeof err);
    tide_coll_tuning_set("allreduce=ring", err, sizeof err);
    struct tide_coll_sel o = {.kind = TC_ALLREDUCE, .n = 8, .bytes = 64, .commute = true, .over = r};
    assert_int_equal(tide_coll_select(&o), TA_REDUCE_BCAST);
    o.over = NULL;
    assert_int_equal(tide_coll_select(&o), TA_RING);
    tide_coll_rules_free(r);
    tide_coll_tuning_set("", err, sizeof err);
}

/* A communicator's remembered choice lasts while the size, the rules
 * and what is known of the communicator stay the same. */
static void test_memo(void **state)
{
    (void)state;
    char err[256];
    tide_coll_tuning_set("", err, sizeof err);
    struct tide_coll_state st = {.layout = 1};
    struct tide_comm c = {.size = 4, .info = MPI_INFO_NULL, .coll = &st};
    struct tide_coll_memo *m = &st.bcast_memo;
    assert_int_equal(tide_coll_memo_find(&c, m, 100), 0);
    tide_coll_memo_keep(&c, m, 100, TA_LINEAR);
    assert_int_equal(tide_coll_memo_find(&c, m, 100), TA_LINEAR);
    assert_int_equal(tide_coll_memo_find(&c, m, 200), 0);
    /* something known of the communicator changed (a region refused) */
    st.version++;
    assert_int_equal(tide_coll_memo_find(&c, m, 100), 0);
    tide_coll_memo_keep(&c, m, 100, TA_BINOMIAL);
    assert_int_equal(tide_coll_memo_find(&c, m, 100), TA_BINOMIAL);
    /* the process's rules changed */
    assert_int_equal(tide_coll_tuning_set("bcast=linear", err, sizeof err), 0);
    assert_int_equal(tide_coll_memo_find(&c, m, 100), 0);
    tide_coll_memo_keep(&c, m, 100, TA_LINEAR);
    assert_int_equal(tide_coll_memo_find(&c, m, 100), TA_LINEAR);
    /* hints are read afresh on every call */
    c.info = MPI_INFO_NULL + 1;
    assert_int_equal(tide_coll_memo_find(&c, m, 100), 0);
    c.info = MPI_INFO_NULL;
    /* nothing is kept before the layout is known */
    struct tide_coll_state fresh = {.layout = 0};
    c.coll = &fresh;
    tide_coll_memo_keep(&c, &fresh.bcast_memo, 100, TA_LINEAR);
    assert_int_equal(tide_coll_memo_find(&c, &fresh.bcast_memo, 100), 0);
    tide_coll_tuning_set("", err, sizeof err);
}

/* Algorithms that put operands out of rank order. */
static bool reorders(int kind, int alg)
{
    return (kind == TC_ALLREDUCE && (alg == TA_RING || alg == TA_HIER)) ||
           (kind == TC_REDUCE && (alg == TA_RING || alg == TA_HIER)) ||
           ((kind == TC_REDUCE_SCATTER || kind == TC_REDUCE_SCATTER_BLOCK) && (alg == TA_RING || alg == TA_PAIRWISE));
}

static void test_table_covers_everything(void **state)
{
    (void)state;
    char err[64];
    tide_coll_tuning_set("", err, sizeof err);
    for (int kind = 0; kind < TC_NKINDS; kind++)
        for (int n = 1; n <= 70; n++)
            for (size_t bytes = 0; bytes <= ((size_t)1 << 26); bytes = bytes ? bytes * 3 : 1)
                for (int flags = 0; flags < 8; flags++) {
                    struct tide_coll_sel s = {.kind = kind, .n = n, .bytes = bytes, .commute = flags & 1,
                                              .hier = flags & 2, .oversub = flags & 4, .even = true};
                    int alg = tide_coll_select(&s);
                    if (!tide_coll_alg_valid(kind, alg))
                        fail_msg("%s: %s chosen for %d ranks, %zu bytes", tide_coll_kind_name(kind),
                                 tide_coll_alg_name(alg), n, bytes);
                    if (!s.commute && reorders(kind, alg))
                        fail_msg("%s: %s chosen for a non-commutative op", tide_coll_kind_name(kind),
                                 tide_coll_alg_name(alg));
                    if (!s.hier && alg == TA_HIER)
                        fail_msg("%s: hier without a two-level layout", tide_coll_kind_name(kind));
                }
}

static void test_local_copy(void **state)
{
    (void)state;
    MPI_Datatype vec, res;
    assert_int_equal(MPI_Type_vector(3, 1, 2, MPI_INT, &vec), MPI_SUCCESS);
    assert_int_equal(MPI_Type_commit(&vec), MPI_SUCCESS);
    assert_int_equal(MPI_Type_create_resized(MPI_INT, -4, 12, &res), MPI_SUCCESS);
    assert_int_equal(MPI_Type_commit(&res), MPI_SUCCESS);
    struct tide_datatype *v = tide_datatype_get(vec), *i = tide_datatype_get(MPI_INT), *r = tide_datatype_get(res);
    int a[12], b[12];
    for (int k = 0; k < 12; k++) {
        a[k] = k;
        b[k] = -1;
    }
    /* 2 vectors (6 ints, holes between) -> 6 contiguous ints */
    assert_int_equal(tide_coll_copy(a, 2, v, b, 6, i), MPI_SUCCESS);
    int want1[6] = {0, 2, 4, 5, 7, 9};
    for (int k = 0; k < 6; k++)
        assert_int_equal(b[k], want1[k]);
    assert_int_equal(b[6], -1);
    /* contiguous -> a resized type with a negative lower bound */
    for (int k = 0; k < 12; k++)
        b[k] = -1;
    assert_int_equal(tide_coll_copy(a, 3, i, b + 1, 3, r), MPI_SUCCESS);
    assert_int_equal(b[1], 0);
    assert_int_equal(b[4], 1);
    assert_int_equal(b[7], 2);
    assert_int_equal(b[0], -1);
    /* vector -> vector */
    for (int k = 0; k < 12; k++)
        b[k] = -1;
    assert_int_equal(tide_coll_copy(a, 1, v, b, 1, v), MPI_SUCCESS);
    assert_int_equal(b[0], 0);
    assert_int_equal(b[1], -1);
    assert_int_equal(b[4], 4);
    /* too much data: truncated, and said so */
    int rc = tide_coll_copy(a, 8, i, b, 2, i);
    assert_int_equal(tide_error_class_of(rc), MPI_ERR_TRUNCATE);
    assert_int_equal(b[1], 1);
    assert_int_equal(b[2], 2); /* from the vector copy: not written again */
    MPI_Type_free(&vec);
    MPI_Type_free(&res);
}

static void test_count_checks(void **state)
{
    (void)state;
    struct tide_datatype *i = tide_datatype_get(MPI_INT);
    MPI_Count c[4] = {2, 2, 2, 2};
    MPI_Aint d[4] = {0, 2, 4, 6};
    assert_int_equal(tide_coll_check_counts(c, d, 4, i, true, "F", "recvcounts", "displs"), MPI_SUCCESS);
    d[3] = 5; /* overlaps block 2 */
    int rc = tide_coll_check_counts(c, d, 4, i, true, "MPI_Gatherv", "recvcounts", "displs");
    assert_int_equal(tide_error_class_of(rc), MPI_ERR_BUFFER);
    /* reading a location twice is fine (scatterv) */
    assert_int_equal(tide_coll_check_counts(c, d, 4, i, false, "F", "sendcounts", "displs"), MPI_SUCCESS);
    /* an empty block overlaps nothing */
    c[3] = 0;
    assert_int_equal(tide_coll_check_counts(c, d, 4, i, true, "F", "recvcounts", "displs"), MPI_SUCCESS);
    c[1] = -1;
    rc = tide_coll_check_counts(c, d, 4, i, true, "F", "recvcounts", "displs");
    assert_int_equal(tide_error_class_of(rc), MPI_ERR_COUNT);
    rc = tide_coll_check_counts(NULL, d, 4, i, true, "F", "recvcounts", "displs");
    assert_int_equal(tide_error_class_of(rc), MPI_ERR_ARG);
    /* counts add up beyond an int (large-count forms), not beyond a count */
    MPI_Count big[2] = {INT_MAX, INT_MAX}, sum;
    assert_int_equal(tide_coll_sum_counts(big, 2, "F", "recvcounts", &sum), MPI_SUCCESS);
    assert_true(sum == 2 * (MPI_Count)INT_MAX);
    big[0] = big[1] = LLONG_MAX / 2 + 1;
    rc = tide_coll_sum_counts(big, 2, "F", "recvcounts", &sum);
    assert_int_equal(tide_error_class_of(rc), MPI_ERR_COUNT);
    MPI_Datatype huge;
    MPI_Type_create_resized(MPI_INT, 0, (MPI_Aint)1 << 42, &huge);
    MPI_Type_commit(&huge);
    MPI_Count c2[2] = {1, 1};
    MPI_Aint d2[2] = {0, INT_MAX};
    rc = tide_coll_check_counts(c2, d2, 2, tide_datatype_get(huge), true, "F", "recvcounts", "displs");
    assert_int_equal(tide_error_class_of(rc), MPI_ERR_COUNT);
    MPI_Type_free(&huge);
    /* the send side must fit the receive side */
    rc = tide_coll_check_fit(3, tide_datatype_get(MPI_DOUBLE), 5, i, "F");
    assert_int_equal(tide_error_class_of(rc), MPI_ERR_TRUNCATE);
    assert_int_equal(tide_coll_check_fit(2, tide_datatype_get(MPI_DOUBLE), 4, i, "F"), MPI_SUCCESS);
}

static int calls;

static void count_call(struct tide_sched *s, void *arg)
{
    (void)s;
    calls += *(int *)arg;
}

static void stop_call(struct tide_sched *s, void *arg)
{
    (void)arg;
    tide_sched_stop(s, tide_err(MPI_ERR_OTHER, "stopped"));
}

static void test_sched_local(void **state)
{
    (void)state;
    struct tide_comm *c = tide_comm_self;
    struct tide_datatype *i = tide_datatype_get(MPI_INT);
    struct tide_op *sum = tide_op_get(MPI_SUM);
    int a[4] = {1, 2, 3, 4}, b[4] = {10, 20, 30, 40}, out[4] = {0};
    struct tide_sched *s = tide_sched_new(c);
    assert_non_null(s);
    tide_sched_copy(s, a, 4, i, out, 4, i);
    tide_sched_fence(s);
    tide_sched_reduce(s, b, out, 4, i, sum);
    int one = 1;
    for (int k = 0; k < 200; k++) /* far more entries than fit inline */
        tide_sched_call(s, count_call, &one);
    void *t = tide_sched_tmp(s, 1000, i);
    assert_non_null(t);
    memset(t, 0, 4000);
    calls = 0;
    assert_int_equal(tide_sched_run(s), MPI_SUCCESS);
    assert_int_equal(calls, 200);
    for (int k = 0; k < 4; k++)
        assert_int_equal(out[k], a[k] + b[k]);
    /* stopping early: what follows does not run, the error is reported */
    s = tide_sched_new(c);
    calls = 0;
    tide_sched_call(s, count_call, &one);
    tide_sched_call(s, stop_call, NULL);
    tide_sched_call(s, count_call, &one);
    int rc = tide_sched_run(s);
    assert_int_equal(tide_error_class_of(rc), MPI_ERR_OTHER);
    assert_int_equal(calls, 1);
    /* a nonblocking one with nothing to wait for completes at once */
    s = tide_sched_new(c);
    tide_sched_copy(s, b, 4, i, out, 4, i);
    MPI_Request rq;
    assert_int_equal(tide_sched_start(s, &rq), MPI_SUCCESS);
    assert_int_equal(tide_sched_active(), 0);
    struct tide_request *r = tide_request_get(rq);
    assert_non_null(r);
    assert_true(r->complete);
    tide_request_free(r);
    assert_int_equal(out[3], 40);
    /* an error found while building is returned, nothing runs */
    s = tide_sched_new(c);
    calls = 0;
    tide_sched_call(s, count_call, &one);
    tide_sched_fail(s, tide_err(MPI_ERR_NO_MEM, "x"));
    assert_int_equal(tide_error_class_of(tide_sched_run(s)), MPI_ERR_NO_MEM);
    assert_int_equal(calls, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tuning_syntax),
        cmocka_unit_test(test_memo),
        cmocka_unit_test(test_table_covers_everything),
        cmocka_unit_test(test_local_copy),
        cmocka_unit_test(test_count_checks),
        cmocka_unit_test(test_sched_local),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
