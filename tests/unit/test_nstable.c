/*
 * test_nstable.c: the name server's table (nameserver/ns_table.c):
 * publish/lookup/unpublish and their errors, re-publication after a
 * reconnect, removal by owner (with "owner/..." children) and by
 * connection, the size limit, publication order, and a hundred thousand
 * names with removals in between.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nsproto.h"
#include "ns_table.h"

static void test_basic(void **state)
{
    (void)state;
    struct ns_table *t = ns_table_new(0, 42);
    int ch;
    assert_int_equal(ns_table_publish(t, "svc", "port-a", "job1", 1, 0, &ch), TIDE_NS_OK);
    assert_int_equal(ch, 1);
    const struct ns_entry *e = ns_table_lookup(t, "svc");
    assert_non_null(e);
    assert_string_equal(e->port, "port-a");
    assert_string_equal(e->owner, "job1");
    assert_null(ns_table_lookup(t, "other"));
    /* publishing twice is an error, by the same owner or another */
    assert_int_equal(ns_table_publish(t, "svc", "port-a", "job1", 1, 0, &ch), TIDE_NS_DUPLICATE);
    assert_int_equal(ch, 0);
    assert_int_equal(ns_table_publish(t, "svc", "port-b", "job2", 2, 0, &ch), TIDE_NS_DUPLICATE);
    assert_string_equal(ns_table_lookup(t, "svc")->port, "port-a");
    /* unpublishing what you did not publish */
    assert_int_equal(ns_table_unpublish(t, "svc", "job2"), TIDE_NS_NOT_OWNER);
    assert_int_equal(ns_table_unpublish(t, "svc", "job"), TIDE_NS_NOT_OWNER);
    assert_int_equal(ns_table_unpublish(t, "nope", "job1"), TIDE_NS_NOT_FOUND);
    assert_int_equal(ns_table_count(t), 1);
    assert_int_equal(ns_table_unpublish(t, "svc", "job1"), TIDE_NS_OK);
    assert_int_equal(ns_table_count(t), 0);
    assert_null(ns_table_lookup(t, "svc"));
    assert_int_equal(ns_table_unpublish(t, "svc", "job1"), TIDE_NS_NOT_FOUND);
    ns_table_free(t);
}

static void test_reassert(void **state)
{
    (void)state;
    struct ns_table *t = ns_table_new(0, 1);
    int ch;
    assert_int_equal(ns_table_publish(t, "s", "p", "o", 5, 0, &ch), TIDE_NS_OK);
    /* same owner and port: fine, and the name moves to the new connection */
    assert_int_equal(ns_table_publish(t, "s", "p", "o", 9, TIDE_NS_PUB_REASSERT, &ch), TIDE_NS_OK);
    assert_int_equal(ch, 0);
    assert_true(ns_table_lookup(t, "s")->conn == 9);
    assert_int_equal(ns_table_drop_conn(t, 5), 0);
    /* another owner or another port: still a duplicate */
    assert_int_equal(ns_table_publish(t, "s", "p", "x", 9, TIDE_NS_PUB_REASSERT, &ch), TIDE_NS_DUPLICATE);
    assert_int_equal(ns_table_publish(t, "s", "q", "o", 9, TIDE_NS_PUB_REASSERT, &ch), TIDE_NS_DUPLICATE);
    /* a re-assertion of a name that is gone publishes it */
    assert_int_equal(ns_table_publish(t, "t", "p", "o", 9, TIDE_NS_PUB_REASSERT, &ch), TIDE_NS_OK);
    assert_int_equal(ch, 1);
    ns_table_free(t);
}

static void test_owner_and_conn(void **state)
{
    (void)state;
    struct ns_table *t = ns_table_new(0, 7);
    int ch;
    ns_table_publish(t, "a", "p", "job", 1, 0, &ch);
    ns_table_publish(t, "b", "p", "job/0", 1, 0, &ch);
    ns_table_publish(t, "c", "p", "job/3", 2, 0, &ch);
    ns_table_publish(t, "d", "p", "jobx", 2, 0, &ch);
    ns_table_publish(t, "e", "p", "jo", 3, 0, &ch);
    ns_table_publish(t, "f", "p", "other", 3, 0, &ch);
    assert_int_equal(ns_table_unpublish_owner(t, "job/0"), 1);
    assert_int_equal(ns_table_unpublish_owner(t, "job"), 2); /* a and c, not jobx */
    assert_non_null(ns_table_lookup(t, "d"));
    assert_non_null(ns_table_lookup(t, "e"));
    assert_int_equal(ns_table_unpublish_owner(t, "job"), 0);
    assert_int_equal(ns_table_drop_conn(t, 3), 2);
    assert_int_equal(ns_table_drop_conn(t, 0), 0);
    assert_int_equal(ns_table_count(t), 1);
    assert_string_equal(ns_table_first(t)->service, "d");
    ns_table_free(t);
}

static void test_full(void **state)
{
    (void)state;
    struct ns_table *t = ns_table_new(3, 7);
    int ch;
    assert_int_equal(ns_table_publish(t, "1", "p", "o", 0, 0, &ch), TIDE_NS_OK);
    assert_int_equal(ns_table_publish(t, "2", "p", "o", 0, 0, &ch), TIDE_NS_OK);
    assert_int_equal(ns_table_publish(t, "3", "p", "o", 0, 0, &ch), TIDE_NS_OK);
    assert_int_equal(ns_table_publish(t, "4", "p", "o", 0, 0, &ch), TIDE_NS_FULL);
    assert_int_equal(ns_table_publish(t, "3", "p", "o", 0, 0, &ch), TIDE_NS_DUPLICATE);
    assert_int_equal(ns_table_unpublish(t, "2", "o"), TIDE_NS_OK);
    assert_int_equal(ns_table_publish(t, "4", "p", "o", 0, 0, &ch), TIDE_NS_OK);
    /* publication order, with the removal */
    const char *want[] = {"1", "3", "4"};
    int i = 0;
    for (const struct ns_entry *e = ns_table_first(t); e; e = e->next)
        assert_string_equal(e->service, want[i++]);
    assert_int_equal(i, 3);
    ns_table_free(t);
}

static void test_many(void **state)
{
    (void)state;
    enum { N = 100000 };
    struct ns_table *t = ns_table_new(0, 99);
    char s[64], p[64];
    int ch;
    for (int i = 0; i < N; i++) {
        snprintf(s, sizeof s, "service-%d", i);
        snprintf(p, sizeof p, "port-%d", i);
        assert_int_equal(ns_table_publish(t, s, p, i % 2 ? "odd" : "even", (uint64_t)(i % 10 + 1), 0, &ch),
                         TIDE_NS_OK);
    }
    assert_int_equal(ns_table_count(t), N);
    for (int i = 0; i < N; i += 7) {
        snprintf(s, sizeof s, "service-%d", i);
        snprintf(p, sizeof p, "port-%d", i);
        const struct ns_entry *e = ns_table_lookup(t, s);
        assert_non_null(e);
        assert_string_equal(e->port, p);
    }
    for (int i = 0; i < N; i += 3) {
        snprintf(s, sizeof s, "service-%d", i);
        assert_int_equal(ns_table_unpublish(t, s, i % 2 ? "odd" : "even"), TIDE_NS_OK);
    }
    size_t left = (size_t)N - (N + 2) / 3;
    assert_int_equal(ns_table_count(t), left);
    for (int i = 0; i < N; i++) {
        snprintf(s, sizeof s, "service-%d", i);
        if (i % 3 == 0)
            assert_null(ns_table_lookup(t, s));
        else
            assert_non_null(ns_table_lookup(t, s));
    }
    size_t odd = ns_table_unpublish_owner(t, "odd");
    assert_int_equal(ns_table_count(t), left - odd);
    for (const struct ns_entry *e = ns_table_first(t); e; e = e->next)
        assert_string_equal(e->owner, "even");
    ns_table_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basic),
        cmocka_unit_test(test_reassert),
        cmocka_unit_test(test_owner_and_conn),
        cmocka_unit_test(test_full),
        cmocka_unit_test(test_many),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
