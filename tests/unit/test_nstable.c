/*
 * test_nstable.c: the name server's table (nameserver/ns_table.c):
 * publish/lookup/unpublish and their errors, ownership by credential hash
 * (never by the owner string), re-publication after a reconnect, removal
 * by connection, the size limit, publication order, and a hundred
 * thousand names with removals in between.
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

/* credential hashes: any 32 bytes will do here */
static const uint8_t H1[NS_CRED_HASH_LEN] = {1}, H2[NS_CRED_HASH_LEN] = {2}, H3[NS_CRED_HASH_LEN] = {3};

static void test_basic(void **state)
{
    (void)state;
    struct ns_table *t = ns_table_new(0, 42);
    int ch;
    assert_int_equal(ns_table_publish(t, "svc", "port-a", "job1", H1, 1, &ch), TIDE_NS_OK);
    assert_int_equal(ch, 1);
    const struct ns_entry *e = ns_table_lookup(t, "svc");
    assert_non_null(e);
    assert_string_equal(e->port, "port-a");
    assert_string_equal(e->owner, "job1");
    assert_memory_equal(e->cred_hash, H1, NS_CRED_HASH_LEN);
    assert_null(ns_table_lookup(t, "other"));
    /* publishing twice by someone else is an error, whatever owner it claims */
    assert_int_equal(ns_table_publish(t, "svc", "port-a", "job1", H2, 1, &ch), TIDE_NS_DUPLICATE);
    assert_int_equal(ch, 0);
    assert_int_equal(ns_table_publish(t, "svc", "port-b", "job2", H2, 2, &ch), TIDE_NS_DUPLICATE);
    assert_string_equal(ns_table_lookup(t, "svc")->port, "port-a");
    /* unpublishing without the credential: never, the owner string counts for nothing */
    assert_int_equal(ns_table_unpublish(t, "svc", H2), TIDE_NS_NOT_OWNER);
    assert_int_equal(ns_table_unpublish(t, "svc", NULL), TIDE_NS_NOT_OWNER);
    assert_int_equal(ns_table_unpublish(t, "nope", H1), TIDE_NS_NOT_FOUND);
    assert_int_equal(ns_table_count(t), 1);
    assert_int_equal(ns_table_unpublish(t, "svc", H1), TIDE_NS_OK);
    assert_int_equal(ns_table_count(t), 0);
    assert_null(ns_table_lookup(t, "svc"));
    assert_int_equal(ns_table_unpublish(t, "svc", H1), TIDE_NS_NOT_FOUND);
    ns_table_free(t);
}

static void test_reassert(void **state)
{
    (void)state;
    struct ns_table *t = ns_table_new(0, 1);
    int ch;
    assert_int_equal(ns_table_publish(t, "s", "p", "o", H1, 5, &ch), TIDE_NS_OK);
    /* same credential and port: fine, and the name moves to the new connection */
    assert_int_equal(ns_table_publish(t, "s", "p", "o", H1, 9, &ch), TIDE_NS_OK);
    assert_int_equal(ch, 0);
    assert_true(ns_table_lookup(t, "s")->conn == 9);
    assert_int_equal(ns_table_drop_conn(t, 5), 0);
    /* another credential (same owner string) or another port: still a duplicate */
    assert_int_equal(ns_table_publish(t, "s", "p", "o", H2, 9, &ch), TIDE_NS_DUPLICATE);
    assert_int_equal(ns_table_publish(t, "s", "q", "o", H1, 9, &ch), TIDE_NS_DUPLICATE);
    /* a re-assertion of a name that is gone publishes it */
    assert_int_equal(ns_table_publish(t, "t", "p", "o", H1, 9, &ch), TIDE_NS_OK);
    assert_int_equal(ch, 1);
    ns_table_free(t);
}

static void test_conn(void **state)
{
    (void)state;
    struct ns_table *t = ns_table_new(0, 7);
    int ch;
    ns_table_publish(t, "a", "p", "job", H1, 1, &ch);
    ns_table_publish(t, "b", "p", "job/0", H1, 1, &ch);
    ns_table_publish(t, "d", "p", "jobx", H2, 2, &ch);
    ns_table_publish(t, "e", "p", "jo", H3, 3, &ch);
    ns_table_publish(t, "f", "p", "other", H3, 3, &ch);
    assert_int_equal(ns_table_drop_conn(t, 3), 2);
    assert_int_equal(ns_table_drop_conn(t, 0), 0);
    assert_int_equal(ns_table_drop_conn(t, 1), 2);
    assert_int_equal(ns_table_count(t), 1);
    assert_string_equal(ns_table_first(t)->service, "d");
    ns_table_free(t);
}

static void test_full(void **state)
{
    (void)state;
    struct ns_table *t = ns_table_new(3, 7);
    int ch;
    assert_int_equal(ns_table_publish(t, "1", "p", "o", H1, 0, &ch), TIDE_NS_OK);
    assert_int_equal(ns_table_publish(t, "2", "p", "o", H1, 0, &ch), TIDE_NS_OK);
    assert_int_equal(ns_table_publish(t, "3", "p", "o", H1, 0, &ch), TIDE_NS_OK);
    assert_int_equal(ns_table_publish(t, "4", "p", "o", H1, 0, &ch), TIDE_NS_FULL);
    assert_int_equal(ns_table_publish(t, "3", "p", "o", H2, 0, &ch), TIDE_NS_DUPLICATE);
    assert_int_equal(ns_table_unpublish(t, "2", H1), TIDE_NS_OK);
    assert_int_equal(ns_table_publish(t, "4", "p", "o", H1, 0, &ch), TIDE_NS_OK);
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
        assert_int_equal(ns_table_publish(t, s, p, i % 2 ? "odd" : "even", i % 2 ? H1 : H2,
                                          (uint64_t)(i % 10 + 1), &ch),
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
        assert_int_equal(ns_table_unpublish(t, s, i % 2 ? H2 : H1), TIDE_NS_NOT_OWNER);
        assert_int_equal(ns_table_unpublish(t, s, i % 2 ? H1 : H2), TIDE_NS_OK);
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
    size_t odd = 0;
    for (int i = 1; i < N; i += 2) {
        snprintf(s, sizeof s, "service-%d", i);
        odd += ns_table_unpublish(t, s, H1) == TIDE_NS_OK;
    }
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
        cmocka_unit_test(test_conn),
        cmocka_unit_test(test_full),
        cmocka_unit_test(test_many),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
