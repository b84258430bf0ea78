/*
 * test_jobmap.c: by-slot placement, oversubscription and its refusal.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "jobmap.h"

static void test_fill_by_slot(void **state)
{
    (void)state;
    int slots[3] = {2, 2, 2}, used[3] = {0, 0, 0}, map[5];
    char err[256];
    assert_int_equal(jobmap_by_slot(5, 3, slots, used, false, map, err, sizeof err), 0);
    int expect[5] = {0, 0, 1, 1, 2};
    assert_memory_equal(map, expect, sizeof expect);
    assert_int_equal(used[2], 1);
    /* a second job fills what is left, then refuses */
    int map2[1];
    assert_int_equal(jobmap_by_slot(1, 3, slots, used, false, map2, err, sizeof err), 0);
    assert_int_equal(map2[0], 2);
    assert_int_equal(jobmap_by_slot(1, 3, slots, used, false, map2, err, sizeof err), -1);
    assert_non_null(strstr(err, "--oversubscribe"));
}

static void test_oversubscribe(void **state)
{
    (void)state;
    int slots[2] = {2, 1}, used[2] = {0, 0}, map[16];
    char err[256];
    assert_int_equal(jobmap_by_slot(16, 2, slots, used, true, map, err, sizeof err), 0);
    assert_int_equal(used[0] + used[1], 16);
    /* load follows the slots: node 0 takes about twice node 1 */
    assert_true(used[0] >= 10 && used[0] <= 11);
    int one_slot[1] = {2}, u1[1] = {0}, m1[16];
    assert_int_equal(jobmap_by_slot(16, 1, one_slot, u1, true, m1, err, sizeof err), 0);
    for (int i = 0; i < 16; i++)
        assert_int_equal(m1[i], 0);
    int u2[1] = {0};
    assert_int_equal(jobmap_by_slot(3, 1, one_slot, u2, false, m1, err, sizeof err), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fill_by_slot),
        cmocka_unit_test(test_oversubscribe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
