/*
 * test_ctltree.c: the daemon tree (common/ctltree.c): parents, children,
 * subtrees and next hops for several radixes, against a brute-force
 * walk; formatting and parsing, and malformed trees refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ctltree.h"

static void test_chain_and_star(void **state)
{
    (void)state;
    int nodes[] = {3, 1, 4, 2};
    struct tide_ctltree t;
    assert_int_equal(tide_ctltree_init(&t, 1, nodes, 4), 0);
    assert_int_equal(tide_ctltree_parent(&t, 3), -1);
    assert_int_equal(tide_ctltree_parent(&t, 1), 3);
    assert_int_equal(tide_ctltree_parent(&t, 2), 4);
    assert_int_equal(tide_ctltree_next_hop(&t, -1, 2), 3);
    assert_int_equal(tide_ctltree_next_hop(&t, 1, 2), 4);
    assert_int_equal(tide_ctltree_next_hop(&t, 4, 3), -1);
    assert_true(tide_ctltree_in_subtree(&t, 1, 2));
    assert_false(tide_ctltree_in_subtree(&t, 4, 1));
    int kids[8];
    assert_int_equal(tide_ctltree_children(&t, -1, kids, 8), 1);
    assert_int_equal(kids[0], 3);
    tide_ctltree_free(&t);
    assert_int_equal(tide_ctltree_init(&t, 32, nodes, 4), 0);
    assert_int_equal(tide_ctltree_children(&t, -1, kids, 8), 4);
    for (int i = 0; i < 4; i++)
        assert_int_equal(tide_ctltree_parent(&t, nodes[i]), -1);
    assert_int_equal(tide_ctltree_children(&t, 3, kids, 8), 0);
    tide_ctltree_free(&t);
}

/* every member reaches mpiexec, every route follows parent links */
static void test_routes_against_walk(void **state)
{
    (void)state;
    for (int radix = 1; radix <= 5; radix++)
        for (int n = 0; n <= 40; n++) {
            int *nodes = malloc((size_t)(n + 1) * sizeof(int));
            for (int i = 0; i < n; i++)
                nodes[i] = 2 * i + 1; /* not 0..n-1: node numbers are not positions */
            struct tide_ctltree t;
            assert_int_equal(tide_ctltree_init(&t, radix, nodes, n), 0);
            int total_children = 0;
            for (int i = -1; i < n; i++) {
                int from = i < 0 ? -1 : nodes[i], kids[64];
                int k = tide_ctltree_children(&t, from, kids, 64);
                assert_true(k <= radix);
                total_children += k;
                for (int c = 0; c < k; c++)
                    assert_int_equal(tide_ctltree_parent(&t, kids[c]), from);
            }
            assert_int_equal(total_children, n);
            for (int i = 0; i < n; i++) {
                int depth = 0;
                for (int a = nodes[i]; a >= 0; a = tide_ctltree_parent(&t, a)) {
                    assert_true(tide_ctltree_in_subtree(&t, a, nodes[i]));
                    depth++;
                    assert_true(depth <= n);
                }
                /* the hop from mpiexec, then from each hop, ends at the node */
                int at = -1, hops = 0;
                while (at != nodes[i]) {
                    int next = tide_ctltree_next_hop(&t, at, nodes[i]);
                    assert_true(next >= 0);
                    assert_int_equal(tide_ctltree_parent(&t, next), at);
                    at = next;
                    assert_true(++hops <= depth);
                }
            }
            char *s = tide_ctltree_format(&t);
            struct tide_ctltree u;
            assert_int_equal(tide_ctltree_parse(&u, s), 0);
            assert_int_equal(u.n, n);
            assert_int_equal(u.radix, radix);
            for (int i = 0; i < n; i++)
                assert_int_equal(u.member[i], nodes[i]);
            free(s);
            tide_ctltree_free(&u);
            tide_ctltree_free(&t);
            free(nodes);
        }
}

static void test_bad_trees(void **state)
{
    (void)state;
    struct tide_ctltree t;
    int dup[] = {1, 2, 1};
    assert_int_equal(tide_ctltree_init(&t, 2, dup, 3), -1);
    int neg[] = {1, -2};
    assert_int_equal(tide_ctltree_init(&t, 2, neg, 2), -1);
    assert_int_equal(tide_ctltree_init(&t, 0, dup, 1), -1);
    assert_int_equal(tide_ctltree_parse(&t, "x:1"), -1);
    assert_int_equal(tide_ctltree_parse(&t, "2:1,,2"), -1);
    assert_int_equal(tide_ctltree_parse(&t, "2:1,a"), -1);
    assert_int_equal(tide_ctltree_parse(&t, "0:1"), -1);
    assert_int_equal(tide_ctltree_parse(&t, "3:"), 0);
    assert_int_equal(t.n, 0);
    assert_false(tide_ctltree_member(&t, 0));
    tide_ctltree_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chain_and_star),
        cmocka_unit_test(test_routes_against_walk),
        cmocka_unit_test(test_bad_trees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
