/*
 * test_join_kex.c: the key agreement of MPI_Comm_join
 * (libmpi/dpm/join_kex.c): both ends get the same pair of LINK keys
 * (each one's "mine" is the other's "theirs"), different for every join;
 * a name changed on the way gives different keys; our own public key sent
 * back, and a public key of small order, are refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include <cmocka.h>

#include "dpm/join_kex.h"

struct end {
    struct tide_join_kex *k;
    uint8_t pub[TIDE_JOIN_PUB_LEN];
};

static void make(struct end *e)
{
    e->k = tide_join_kex_new(e->pub);
    assert_non_null(e->k);
}

static void test_both_ends_agree(void **state)
{
    (void)state;
    struct end a, b;
    make(&a);
    make(&b);
    uint8_t am[TIDE_KEY_LEN], at[TIDE_KEY_LEN], bm[TIDE_KEY_LEN], bt[TIDE_KEY_LEN];
    assert_int_equal(tide_join_kex_keys(a.k, a.pub, "tide.h.1.0", 3, b.pub, "tide.h.2.0", 0, am, at), 0);
    assert_int_equal(tide_join_kex_keys(b.k, b.pub, "tide.h.2.0", 0, a.pub, "tide.h.1.0", 3, bm, bt), 0);
    assert_memory_equal(am, bt, TIDE_KEY_LEN);
    assert_memory_equal(at, bm, TIDE_KEY_LEN);
    assert_memory_not_equal(am, at, TIDE_KEY_LEN);
    /* neither key is a public key (nothing of them crossed) */
    assert_memory_not_equal(am, a.pub, TIDE_KEY_LEN);
    assert_memory_not_equal(am, b.pub, TIDE_KEY_LEN);
    /* another join of the same two: other keys */
    struct end c;
    make(&c);
    uint8_t cm[TIDE_KEY_LEN], ct[TIDE_KEY_LEN];
    assert_int_equal(tide_join_kex_keys(c.k, c.pub, "tide.h.1.0", 3, b.pub, "tide.h.2.0", 0, cm, ct), 0);
    assert_memory_not_equal(cm, am, TIDE_KEY_LEN);
    tide_join_kex_free(a.k);
    tide_join_kex_free(b.k);
    tide_join_kex_free(c.k);
}

static void test_names_bound(void **state)
{
    (void)state;
    struct end a, b;
    make(&a);
    make(&b);
    uint8_t am[TIDE_KEY_LEN], at[TIDE_KEY_LEN], bm[TIDE_KEY_LEN], bt[TIDE_KEY_LEN];
    assert_int_equal(tide_join_kex_keys(a.k, a.pub, "tide.h.1.0", 0, b.pub, "tide.h.2.0", 0, am, at), 0);
    /* b was told another rank for a */
    assert_int_equal(tide_join_kex_keys(b.k, b.pub, "tide.h.2.0", 0, a.pub, "tide.h.1.0", 1, bm, bt), 0);
    assert_memory_not_equal(am, bt, TIDE_KEY_LEN);
    assert_memory_not_equal(at, bm, TIDE_KEY_LEN);
    tide_join_kex_free(a.k);
    tide_join_kex_free(b.k);
}

static void test_refused(void **state)
{
    (void)state;
    struct end a;
    make(&a);
    uint8_t m[TIDE_KEY_LEN], t[TIDE_KEY_LEN];
    /* reflected */
    assert_int_equal(tide_join_kex_keys(a.k, a.pub, "tide.h.1.0", 0, a.pub, "tide.h.1.0", 0, m, t), -1);
    /* small order: the all-zero point and 1 (both give an all-zero secret) */
    uint8_t bad[TIDE_JOIN_PUB_LEN] = {0};
    assert_int_equal(tide_join_kex_keys(a.k, a.pub, "tide.h.1.0", 0, bad, "tide.h.2.0", 0, m, t), -1);
    bad[0] = 1;
    assert_int_equal(tide_join_kex_keys(a.k, a.pub, "tide.h.1.0", 0, bad, "tide.h.2.0", 0, m, t), -1);
    tide_join_kex_free(a.k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_both_ends_agree),
        cmocka_unit_test(test_names_bound),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
