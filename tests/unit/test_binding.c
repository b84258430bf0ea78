/*
 * test_binding.c: the binding arithmetic of the node daemon
 * (daemon/bind_policy.c): which cores, hardware threads, packages or NUMA
 * nodes a rank gets under each policy, wrapping and sharing when ranks
 * outnumber cpus, the default's fallback to no binding, and binding slots.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "bind_policy.h"
#include "jobdesc.h"

/* 2 packages x 4 cores x 2 hwthreads, 2 NUMA nodes */
static const struct bind_topo big = {.npackages = 2, .nnuma = 2, .ncores = 8, .npus = 16};
/* the test machine's shape: 1 package, 2 cores, 1 hwthread each */
static const struct bind_topo small = {.npackages = 1, .nnuma = 1, .ncores = 2, .npus = 2};

static struct bind_target compute(int policy, int cpr, const struct bind_topo *t, int slot, int nslots,
                                  bool *shared)
{
    struct bind_target b;
    bool s;
    bind_compute(policy, cpr, t, slot, nslots, &b, &s);
    if (shared)
        *shared = s;
    return b;
}

static void test_default(void **state)
{
    (void)state;
    bool shared;
    struct bind_target b = compute(TIDE_BIND_DEFAULT, 1, &small, 1, 2, &shared);
    assert_int_equal(b.obj, BIND_OBJ_CORE);
    assert_int_equal(b.first, 1);
    assert_int_equal(b.count, 1);
    assert_false(shared);
    /* more ranks than cores: not bound, and no warning */
    b = compute(TIDE_BIND_DEFAULT, 1, &small, 0, 16, &shared);
    assert_int_equal(b.obj, BIND_OBJ_NONE);
    assert_false(shared);
    /* 4 ranks x 2 cpus fit 8 cores; 5 do not */
    b = compute(TIDE_BIND_DEFAULT, 2, &big, 3, 4, NULL);
    assert_int_equal(b.obj, BIND_OBJ_CORE);
    assert_int_equal(b.first, 6);
    assert_int_equal(b.count, 2);
    b = compute(TIDE_BIND_DEFAULT, 2, &big, 3, 5, NULL);
    assert_int_equal(b.obj, BIND_OBJ_NONE);
}

static void test_core_wraps(void **state)
{
    (void)state;
    bool shared;
    struct bind_target b = compute(TIDE_BIND_CORE, 1, &small, 2, 4, &shared);
    assert_int_equal(b.obj, BIND_OBJ_CORE);
    assert_int_equal(b.first, 0);
    assert_true(shared);
    b = compute(TIDE_BIND_CORE, 3, &big, 2, 3, &shared);
    assert_int_equal(b.first, 6); /* cores 6, 7, 0 */
    assert_int_equal(b.count, 3);
    assert_true(shared);
    b = compute(TIDE_BIND_CORE, 2, &big, 3, 4, &shared);
    assert_int_equal(b.first, 6);
    assert_false(shared);
    /* more cpus per rank than cores: all of them */
    b = compute(TIDE_BIND_CORE, 100, &small, 0, 1, &shared);
    assert_int_equal(b.first, 0);
    assert_int_equal(b.count, 2);
    assert_true(shared);
}

static void test_hwthread(void **state)
{
    (void)state;
    bool shared;
    struct bind_target b = compute(TIDE_BIND_HWTHREAD, 1, &big, 9, 16, &shared);
    assert_int_equal(b.obj, BIND_OBJ_PU);
    assert_int_equal(b.first, 9);
    assert_int_equal(b.count, 1);
    assert_false(shared);
    b = compute(TIDE_BIND_HWTHREAD, 1, &big, 17, 18, &shared);
    assert_int_equal(b.first, 1);
    assert_true(shared);
}

static void test_package_numa_none(void **state)
{
    (void)state;
    bool shared;
    struct bind_target b = compute(TIDE_BIND_SOCKET, 4, &big, 3, 100, &shared);
    assert_int_equal(b.obj, BIND_OBJ_PACKAGE);
    assert_int_equal(b.first, 1);
    assert_int_equal(b.count, 1);
    assert_false(shared); /* ranks sharing a package is the point */
    b = compute(TIDE_BIND_NUMA, 1, &big, 4, 5, NULL);
    assert_int_equal(b.obj, BIND_OBJ_NUMA);
    assert_int_equal(b.first, 0);
    b = compute(TIDE_BIND_NONE, 1, &big, 0, 1, &shared);
    assert_int_equal(b.obj, BIND_OBJ_NONE);
    assert_false(shared);
    /* a topology without packages: no package binding */
    struct bind_topo flat = {.npackages = 0, .nnuma = 1, .ncores = 4, .npus = 4};
    b = compute(TIDE_BIND_SOCKET, 1, &flat, 0, 1, NULL);
    assert_int_equal(b.obj, BIND_OBJ_NONE);
}

static void test_free_slots(void **state)
{
    (void)state;
    int used[] = {2, 0, 2, 5}, slots[4];
    bind_free_slots(used, 4, 4, slots);
    int expect[4] = {1, 3, 4, 6};
    assert_memory_equal(slots, expect, sizeof expect);
    bind_free_slots(NULL, 0, 3, slots);
    assert_int_equal(slots[0], 0);
    assert_int_equal(slots[2], 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default),        cmocka_unit_test(test_core_wraps),
        cmocka_unit_test(test_hwthread),       cmocka_unit_test(test_package_numa_none),
        cmocka_unit_test(test_free_slots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
