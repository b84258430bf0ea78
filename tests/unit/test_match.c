/*
 * test_match.c: the matching queues: the first posted receive that fits
 * an arriving message wins (wildcards included), unexpected messages are
 * found in arrival order, MPI_ANY_TAG never matches internal (negative)
 * tags, cancelled receives leave the queue, and per-context queues are
 * independent. Unexpected messages wait in buckets by source: sources
 * sharing a bucket stay apart, a receive from any source still takes the
 * oldest, and a walk over the queue sees every message once (also while
 * removing them).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "mpi.h"
#include "pt2pt/match.h"
#include "pt2pt/request.h"

static struct tide_request *recv_req(int src, int tag)
{
    struct tide_request *r = tide_request_new(TIDE_REQ_RECV);
    assert_non_null(r);
    r->peer = src;
    r->tag = tag;
    return r;
}

static void test_posted_order(void **state)
{
    (void)state;
    struct tide_matchq *q = tide_matchq_get(100);
    assert_non_null(q);
    struct tide_request *a = recv_req(MPI_ANY_SOURCE, 5), *b = recv_req(2, MPI_ANY_TAG), *c = recv_req(2, 5),
                        *d = recv_req(MPI_ANY_SOURCE, MPI_ANY_TAG);
    tide_match_post(q, a);
    tide_match_post(q, b);
    tide_match_post(q, c);
    tide_match_post(q, d);
    /* a message (2, 5) matches a first, then b, then c */
    assert_ptr_equal(tide_match_take_posted(q, 2, 5), a);
    assert_ptr_equal(tide_match_take_posted(q, 2, 5), b);
    assert_ptr_equal(tide_match_take_posted(q, 2, 5), c);
    /* (7, 1) fits only d */
    assert_ptr_equal(tide_match_take_posted(q, 7, 1), d);
    assert_null(tide_match_take_posted(q, 7, 1));
    assert_int_equal(q->nposted, 0);
    /* internal negative tags never match MPI_ANY_TAG */
    struct tide_request *e = recv_req(MPI_ANY_SOURCE, MPI_ANY_TAG);
    tide_match_post(q, e);
    assert_null(tide_match_take_posted(q, 1, -5));
    assert_true(tide_match_unpost(q, e));
    assert_false(tide_match_unpost(q, e));
    for (struct tide_request *r[] = {a, b, c, d, e}, **p = r; p < r + 5; p++) {
        (*p)->complete = true;
        tide_request_free(*p);
    }
}

static struct tide_unexpected *msg(int src, int tag, uint64_t sreq)
{
    struct tide_unexpected *u = tide_unexpected_new(8);
    assert_non_null(u);
    u->src = src;
    u->tag = tag;
    u->sreq = sreq;
    return u;
}

static void test_unexpected_order(void **state)
{
    (void)state;
    struct tide_matchq *q = tide_matchq_get(102);
    struct tide_proc *from = (struct tide_proc *)(uintptr_t)0x1000;
    struct tide_unexpected *m[6] = {msg(1, 1, 11), msg(2, 1, 12), msg(1, 2, 13), msg(3, 7, 14), msg(1, 1, 15),
                                    msg(2, -3, 16)};
    for (int i = 0; i < 6; i++) {
        m[i]->from = from;
        tide_match_add_unexpected(q, m[i]);
    }
    /* probing does not take */
    assert_ptr_equal(tide_match_find_unexpected(q, MPI_ANY_SOURCE, MPI_ANY_TAG, false), m[0]);
    assert_ptr_equal(tide_match_find_unexpected(q, 1, 2, false), m[2]);
    /* taking follows arrival order per (source, tag) */
    assert_ptr_equal(tide_match_find_unexpected(q, 1, 1, true), m[0]);
    assert_ptr_equal(tide_match_find_unexpected(q, 1, MPI_ANY_TAG, true), m[2]);
    assert_ptr_equal(tide_match_find_unexpected(q, 1, MPI_ANY_TAG, true), m[4]);
    assert_ptr_equal(tide_match_find_unexpected(q, MPI_ANY_SOURCE, 7, true), m[3]);
    /* an internal tag is not found by MPI_ANY_TAG */
    assert_ptr_equal(tide_match_find_unexpected(q, MPI_ANY_SOURCE, MPI_ANY_TAG, true), m[1]);
    assert_null(tide_match_find_unexpected(q, MPI_ANY_SOURCE, MPI_ANY_TAG, true));
    /* cancel takes by sender id */
    assert_null(tide_match_take_by_sender(q, from, 99));
    assert_ptr_equal(tide_match_take_by_sender(q, from, 16), m[5]);
    assert_int_equal(q->nunexpected, 0);
    for (int i = 0; i < 6; i++)
        tide_unexpected_free(m[i]);
}

static void test_buckets(void **state)
{
    (void)state;
    struct tide_matchq *q = tide_matchq_get(104);
    int a = 1, b = 1 + TIDE_UQ_BUCKETS, c = 2; /* a and b share a bucket */
    enum { N = 9 };
    struct tide_unexpected *m[N] = {msg(b, 4, 1), msg(a, 4, 2), msg(c, 4, 3), msg(a, 5, 4), msg(b, 4, 5),
                                    msg(c, 5, 6), msg(a, 4, 7), msg(b, 5, 8), msg(c, 4, 9)};
    for (int i = 0; i < N; i++)
        tide_match_add_unexpected(q, m[i]);
    /* a walk sees each message once */
    int seen[N] = {0}, count = 0;
    for (struct tide_unexpected *u = tide_match_uq_first(q); u; u = tide_match_uq_next(q, u)) {
        assert_true(u->sreq >= 1 && u->sreq <= N);
        seen[u->sreq - 1]++;
        count++;
    }
    assert_int_equal(count, N);
    for (int i = 0; i < N; i++)
        assert_int_equal(seen[i], 1);
    /* a named source finds its own messages, in order, past the other
     * source of its bucket */
    assert_ptr_equal(tide_match_find_unexpected(q, a, 4, true), m[1]);
    assert_ptr_equal(tide_match_find_unexpected(q, a, 4, true), m[6]);
    assert_null(tide_match_find_unexpected(q, a, 4, false));
    assert_ptr_equal(tide_match_find_unexpected(q, b, MPI_ANY_TAG, true), m[0]);
    /* any source: the oldest left of all buckets */
    assert_ptr_equal(tide_match_find_unexpected(q, MPI_ANY_SOURCE, 4, true), m[2]);
    assert_ptr_equal(tide_match_find_unexpected(q, MPI_ANY_SOURCE, MPI_ANY_TAG, true), m[3]);
    /* removing while walking */
    count = 0;
    for (struct tide_unexpected *u = tide_match_uq_first(q), *next; u; u = next) {
        next = tide_match_uq_next(q, u);
        tide_match_remove(q, u);
        count++;
    }
    assert_int_equal(count, 4);
    assert_int_equal(q->nunexpected, 0);
    assert_null(tide_match_uq_first(q));
    for (int i = 0; i < N; i++)
        tide_unexpected_free(m[i]);
}

static void test_contexts_independent(void **state)
{
    (void)state;
    struct tide_matchq *q1 = tide_matchq_get(200), *q2 = tide_matchq_get(202);
    assert_ptr_not_equal(q1, q2);
    assert_ptr_equal(tide_matchq_get(200), q1);
    assert_ptr_equal(tide_matchq_find(202), q2);
    assert_null(tide_matchq_find(204));
    struct tide_unexpected *u = msg(0, 0, 1);
    tide_match_add_unexpected(q1, u);
    assert_null(tide_match_find_unexpected(q2, 0, 0, false));
    /* a queue with a waiting message survives a drop */
    tide_matchq_drop(200);
    assert_ptr_equal(tide_matchq_find(200), q1);
    assert_ptr_equal(tide_match_find_unexpected(q1, 0, 0, true), u);
    tide_unexpected_free(u);
    tide_matchq_drop(200);
    assert_null(tide_matchq_find(200));
}

static void test_many(void **state)
{
    (void)state;
    struct tide_matchq *q = tide_matchq_get(300);
    enum { N = 20000 };
    for (int i = 0; i < N; i++)
        tide_match_add_unexpected(q, msg(i % 16, i % 3, (uint64_t)i + 1));
    int next[16] = {0};
    for (int i = 0; i < N; i++) {
        struct tide_unexpected *u = tide_match_find_unexpected(q, MPI_ANY_SOURCE, MPI_ANY_TAG, true);
        assert_non_null(u);
        assert_int_equal(u->sreq, (uint64_t)i + 1);
        next[u->src]++;
        tide_unexpected_free(u);
    }
    assert_int_equal(q->nunexpected, 0);
    tide_matchq_finalize();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_posted_order),
        cmocka_unit_test(test_unexpected_order),
        cmocka_unit_test(test_buckets),
        cmocka_unit_test(test_contexts_independent),
        cmocka_unit_test(test_many),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
