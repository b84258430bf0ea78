/*
 * test_shmseg.c: the layout of a shared-memory receive segment: the slots
 * are capped, so a segment's size does not grow with the number of ranks,
 * and small jobs keep the layout they had; the space a node's segments
 * may fill.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "shmseg.h"

static void test_small_jobs(void **state)
{
    (void)state;
    struct tide_shm_layout l;
    tide_shm_layout(16, 524288, &l); /* 16 ranks on 2 cores: oversubscribed rings */
    assert_int_equal(l.nslots, 128);
    assert_int_equal(l.ring_size, 524288);
    assert_int_equal(l.area_size, 4096 + 524288);
    assert_int_equal(l.len, 4096 + 128ull * (4096 + 524288));
    tide_shm_layout(100, 262144, &l); /* many ranks: smaller rings */
    assert_int_equal(l.nslots, 164);
    assert_int_equal(l.ring_size, 65536);
    tide_shm_layout(4, 20000, &l); /* rounded up to a power of two */
    assert_int_equal(l.ring_size, 32768);
}

static void test_capped(void **state)
{
    (void)state;
    struct tide_shm_layout a, b;
    tide_shm_layout(1000, 262144, &a);
    tide_shm_layout(100000, 524288, &b);
    assert_int_equal(a.nslots, TIDE_SHM_MAX_SLOTS);
    assert_int_equal(b.nslots, TIDE_SHM_MAX_SLOTS);
    assert_int_equal(a.len, b.len);
    assert_true(b.len < 20ull << 20); /* was 7 GB for 100000 ranks */
}

static void test_node_bytes(void **state)
{
    (void)state;
    struct tide_shm_layout l;
    tide_shm_layout(16, 524288, &l);
    assert_int_equal(tide_shm_node_bytes(16, &l), 16ull * (4096 + 15ull * l.area_size));
    assert_int_equal(tide_shm_node_bytes(1, &l), 4096);
    assert_int_equal(tide_shm_node_bytes(0, &l), 0);
    tide_shm_layout(1000, 262144, &l);
    /* senders beyond the slots use TCP: not counted */
    assert_int_equal(tide_shm_node_bytes(1000, &l), 1000ull * (4096 + 256ull * l.area_size));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_jobs),
        cmocka_unit_test(test_capped),
        cmocka_unit_test(test_node_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
