/*
 * test_jobmap.c: placement by slot, by node and N per node, ranking,
 * cpus per rank, oversubscription and its refusal, and --map-by parsing.
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

/* a hostfile's max_slots: oversubscription stops there, on every policy */
static void test_max_slots(void **state)
{
    (void)state;
    int slots[2] = {2, 1}, max[2] = {3, 0}, used[2] = {0, 0}, map[16];
    char err[256];
    struct jobmap_spec spec = {.policy = JOBMAP_BY_SLOT, .cpus_per_rank = 1, .oversubscribe = true,
                               .max_slots = max};
    assert_int_equal(jobmap_place(&spec, 10, 2, slots, used, map, err, sizeof err), 0);
    assert_int_equal(used[0], 3); /* no more than its max */
    assert_int_equal(used[1], 7);
    /* every node capped: refused, and nothing is taken */
    int max2[2] = {3, 2}, used2[2] = {0, 0};
    spec.max_slots = max2;
    assert_int_equal(jobmap_place(&spec, 6, 2, slots, used2, map, err, sizeof err), -1);
    assert_non_null(strstr(err, "max_slots of the hosts allow only 5"));
    assert_int_equal(used2[0] + used2[1], 0);
    assert_int_equal(jobmap_place(&spec, 5, 2, slots, used2, map, err, sizeof err), 0);
    /* ppr past a max */
    struct jobmap_spec ppr = {.policy = JOBMAP_PPR, .ppr = 3, .cpus_per_rank = 1, .oversubscribe = true,
                              .max_slots = max2};
    int used3[2] = {0, 0};
    assert_int_equal(jobmap_place(&ppr, 6, 2, slots, used3, map, err, sizeof err), -1);
    assert_non_null(strstr(err, "max_slots"));
}

static void test_by_node(void **state)
{
    (void)state;
    struct jobmap_spec spec = {.policy = JOBMAP_BY_NODE, .cpus_per_rank = 1};
    int slots[3] = {2, 1, 2}, used[3] = {0, 0, 0}, map[5];
    char err[256];
    assert_int_equal(jobmap_place(&spec, 5, 3, slots, used, map, err, sizeof err), 0);
    int expect[5] = {0, 1, 2, 0, 2};
    assert_memory_equal(map, expect, sizeof expect);
    /* full: refused, then dealt on with oversubscription */
    assert_int_equal(jobmap_place(&spec, 1, 3, slots, used, map, err, sizeof err), -1);
    spec.oversubscribe = true;
    assert_int_equal(jobmap_place(&spec, 3, 3, slots, used, map, err, sizeof err), 0);
    assert_int_equal(used[0] + used[1] + used[2], 8);
}

static void test_ppr(void **state)
{
    (void)state;
    struct jobmap_spec spec = {.policy = JOBMAP_PPR, .ppr = 2, .cpus_per_rank = 1};
    int slots[3] = {4, 4, 4}, used[3] = {0, 0, 0}, map[6];
    char err[256];
    assert_int_equal(jobmap_default_nprocs(&spec, 3, slots, used), 6);
    assert_int_equal(jobmap_place(&spec, 5, 3, slots, used, map, err, sizeof err), 0);
    int expect[5] = {0, 0, 1, 1, 2};
    assert_memory_equal(map, expect, sizeof expect);
    /* too few nodes */
    int u2[3] = {0, 0, 0};
    assert_int_equal(jobmap_place(&spec, 7, 3, slots, u2, map, err, sizeof err), -1);
    assert_non_null(strstr(err, "at most 6"));
    /* more per node than slots */
    int small[2] = {1, 1}, u3[2] = {0, 0};
    assert_int_equal(jobmap_place(&spec, 4, 2, small, u3, map, err, sizeof err), -1);
    assert_non_null(strstr(err, "--oversubscribe"));
    assert_int_equal(u3[0], 0);
    spec.oversubscribe = true;
    assert_int_equal(jobmap_place(&spec, 4, 2, small, u3, map, err, sizeof err), 0);
    assert_int_equal(u3[1], 2);
}

static void test_rank_by(void **state)
{
    (void)state;
    char err[256];
    /* by slot placement, ranked round-robin over the nodes */
    struct jobmap_spec spec = {.policy = JOBMAP_BY_SLOT, .rank_by = JOBMAP_RANK_BY_NODE, .cpus_per_rank = 1};
    int slots[2] = {3, 2}, used[2] = {0, 0}, map[5];
    assert_int_equal(jobmap_place(&spec, 5, 2, slots, used, map, err, sizeof err), 0);
    int e1[5] = {0, 1, 0, 1, 0};
    assert_memory_equal(map, e1, sizeof e1);
    /* by node placement, ranked by slot: each node's ranks together */
    struct jobmap_spec s2 = {.policy = JOBMAP_BY_NODE, .rank_by = JOBMAP_RANK_BY_SLOT, .cpus_per_rank = 1};
    int u2[2] = {0, 0};
    assert_int_equal(jobmap_place(&s2, 4, 2, slots, u2, map, err, sizeof err), 0);
    int e2[4] = {0, 0, 1, 1};
    assert_memory_equal(map, e2, sizeof e2);
}

static void test_cpus_per_rank(void **state)
{
    (void)state;
    char err[256];
    struct jobmap_spec spec = {.policy = JOBMAP_BY_SLOT, .cpus_per_rank = 2};
    int slots[2] = {4, 3}, used[2] = {0, 0}, map[4];
    assert_int_equal(jobmap_default_nprocs(&spec, 2, slots, used), 3);
    assert_int_equal(jobmap_place(&spec, 4, 2, slots, used, map, err, sizeof err), -1);
    assert_non_null(strstr(err, "of 2 cpus"));
    assert_int_equal(jobmap_place(&spec, 3, 2, slots, used, map, err, sizeof err), 0);
    int e[3] = {0, 0, 1};
    assert_memory_equal(map, e, sizeof e);
}

static void test_parse_map_by(void **state)
{
    (void)state;
    struct jobmap_mapby m;
    char err[256];
    assert_int_equal(jobmap_parse_map_by("slot", &m, err, sizeof err), 0);
    assert_int_equal(m.policy, JOBMAP_BY_SLOT);
    assert_int_equal(m.oversubscribe, -1);
    assert_int_equal(jobmap_parse_map_by("node:OVERSUBSCRIBE", &m, err, sizeof err), 0);
    assert_int_equal(m.policy, JOBMAP_BY_NODE);
    assert_int_equal(m.oversubscribe, 1);
    assert_int_equal(jobmap_parse_map_by("socket:PE=4:NOOVERSUBSCRIBE", &m, err, sizeof err), 0);
    assert_int_equal(m.policy, JOBMAP_BY_SLOT);
    assert_int_equal(m.pe, 4);
    assert_int_equal(m.oversubscribe, 0);
    assert_int_equal(jobmap_parse_map_by("ppr:3:node", &m, err, sizeof err), 0);
    assert_int_equal(m.policy, JOBMAP_PPR);
    assert_int_equal(m.ppr, 3);
    assert_false(m.ppr_socket);
    assert_int_equal(jobmap_parse_map_by("ppr:1:socket:PE=2", &m, err, sizeof err), 0);
    assert_true(m.ppr_socket);
    assert_int_equal(m.pe, 2);
    assert_int_equal(jobmap_parse_map_by("core", &m, err, sizeof err), 0);
    assert_int_equal(jobmap_parse_map_by("ppr:0:node", &m, err, sizeof err), -1);
    assert_int_equal(jobmap_parse_map_by("ppr:2:rack", &m, err, sizeof err), -1);
    assert_non_null(strstr(err, "--map-by"));
    assert_int_equal(jobmap_parse_map_by("ppr:2", &m, err, sizeof err), -1);
    assert_int_equal(jobmap_parse_map_by("diagonal", &m, err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown policy 'diagonal'"));
    assert_int_equal(jobmap_parse_map_by("slot:PE=0", &m, err, sizeof err), -1);
    assert_int_equal(jobmap_parse_map_by("slot:SPIN", &m, err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown modifier 'SPIN'"));
    enum jobmap_rank r;
    assert_int_equal(jobmap_parse_rank_by("node", &r, err, sizeof err), 0);
    assert_int_equal(r, JOBMAP_RANK_BY_NODE);
    assert_int_equal(jobmap_parse_rank_by("core", &r, err, sizeof err), 0);
    assert_int_equal(r, JOBMAP_RANK_BY_SLOT);
    assert_int_equal(jobmap_parse_rank_by("fast", &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "--rank-by"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fill_by_slot),
        cmocka_unit_test(test_oversubscribe),
        cmocka_unit_test(test_max_slots),
        cmocka_unit_test(test_by_node),
        cmocka_unit_test(test_ppr),
        cmocka_unit_test(test_rank_by),
        cmocka_unit_test(test_cpus_per_rank),
        cmocka_unit_test(test_parse_map_by),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
