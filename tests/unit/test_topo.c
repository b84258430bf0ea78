/*
 * test_topo.c: the parts of libmpi/comm that need no other process:
 * MPI_Dims_create's factorisation (tide_dims_fill) against the standard's
 * table and exhaustive properties, row-major rank/coordinate arithmetic,
 * topologies on a one-process MPI_COMM_WORLD with the neighbour lists the
 * neighbourhood collectives read (tide_topo_neighbors, order and
 * MPI_PROC_NULL), their sharing by MPI_Comm_dup, and the helpers of
 * comm_create.h (process lists in byte form across two jobs, groups by
 * color and key).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "runtime/api.h"
#include "runtime/errhandler.h"
#include "runtime/proc.h"
#include "comm/comm.h"
#include "comm/comm_create.h"
#include "comm/group.h"
#include "comm/topo.h"

static int setup(void **state)
{
    (void)state;
    tide_errhandler_init();
    snprintf(tide.nspace, sizeof tide.nspace, "topojob");
    tide.rank = 0;
    tide.size = 1;
    tide.me = tide_proc_get("topojob", 0);
    if (tide_comm_init_predefined() != 0)
        return -1;
    tide_comm_world->errhandler = MPI_ERRORS_RETURN;
    tide.initialized = 1;
    return 0;
}

static void dims(int nnodes, int nd, const int *in, const int *expect)
{
    int d[8];
    memcpy(d, in, (size_t)nd * sizeof *d);
    int rc = tide_dims_fill(nnodes, nd, d);
    if (!expect) {
        assert_int_equal(rc, MPI_ERR_DIMS);
        return;
    }
    assert_int_equal(rc, MPI_SUCCESS);
    for (int i = 0; i < nd; i++)
        if (d[i] != expect[i])
            fail_msg("dims_fill(%d, %d): dims[%d] = %d, expected %d", nnodes, nd, i, d[i], expect[i]);
}

static void test_dims_table(void **state)
{
    (void)state;
    dims(6, 2, (int[]){0, 0}, (int[]){3, 2});
    dims(7, 2, (int[]){0, 0}, (int[]){7, 1});
    dims(6, 3, (int[]){0, 3, 0}, (int[]){2, 3, 1});
    dims(7, 3, (int[]){0, 3, 0}, NULL);
    dims(64, 3, (int[]){0, 0, 0}, (int[]){4, 4, 4});
    dims(60, 3, (int[]){0, 0, 0}, (int[]){5, 4, 3});
    /* the smallest spread, not the smallest largest factor (24 x 24 x 13) */
    dims(7488, 3, (int[]){0, 0, 0}, (int[]){26, 18, 16});
    /* equal spreads: the largest smallest factor (not 20 x 18 x 14) */
    dims(5040, 3, (int[]){0, 0, 0}, (int[]){21, 16, 15});
    dims(8, 2, (int[]){0, 0}, (int[]){4, 2});
    dims(1, 0, (int[]){0}, (int[]){0});
    dims(2, 0, (int[]){0}, NULL);
    dims(6, 1, (int[]){-2}, NULL);
}

/* For every n up to 400 and 1 to 4 free dimensions: the product is n, the
 * factors do not increase, and no other such factorisation has a smaller
 * difference between its largest and smallest factor (the factors as
 * close to each other as possible). */
static void test_dims_properties(void **state)
{
    (void)state;
    for (int n = 1; n <= 400; n++)
        for (int k = 1; k <= 4; k++) {
            int d[4] = {0, 0, 0, 0};
            assert_int_equal(tide_dims_fill(n, k, d), MPI_SUCCESS);
            long long p = 1;
            for (int i = 0; i < k; i++) {
                p *= d[i];
                if (i > 0 && d[i] > d[i - 1])
                    fail_msg("dims(%d, %d): increasing at %d", n, k, i);
            }
            assert_int_equal(p, n);
            /* brute force the smallest possible spread over a >= b >= c >= e */
            int best = n;
            for (int a = 1; a <= n; a++) {
                if (n % a)
                    continue;
                if (k == 1) {
                    best = 0;
                    break;
                }
                for (int b = 1; b <= a; b++) {
                    if ((n / a) % b)
                        continue;
                    int rest = n / a / b;
                    if (k == 2 && rest == 1 && a - b < best)
                        best = a - b;
                    if (k >= 3)
                        for (int c = 1; c <= b; c++) {
                            if (rest % c)
                                continue;
                            int e = rest / c;
                            if (k == 3 && e == 1 && a - c < best)
                                best = a - c;
                            if (k == 4 && e <= c && a - e < best)
                                best = a - e;
                        }
                }
            }
            if (d[0] - d[k - 1] != best)
                fail_msg("dims(%d, %d): spread %d, %d possible", n, k, d[0] - d[k - 1], best);
        }
}

static void test_cart_arith(void **state)
{
    (void)state;
    int d[3] = {3, 4, 5}, c[3];
    for (int r = 0; r < 60; r++) {
        tide_cart_coords_of(3, d, r, c);
        assert_int_equal(c[0] * 20 + c[1] * 5 + c[2], r);
        assert_int_equal(tide_cart_rank_of(3, d, c), r);
    }
    assert_int_equal(tide_cart_rank_of(0, d, c), 0);
}

static void test_neighbors_alone(void **state)
{
    (void)state;
    /* a 1 x 1 grid, periodic then not: neighbours are this process or none */
    int dm[2] = {1, 1}, per[2] = {1, 0};
    MPI_Comm c;
    assert_int_equal(PMPI_Cart_create(MPI_COMM_WORLD, 2, dm, per, 0, &c), MPI_SUCCESS);
    struct tide_comm *tc = tide_comm_get(c);
    assert_non_null(tc);
    int nin, nout;
    const int *in, *out;
    assert_int_equal(tide_topo_neighbors(tc, &nin, &in, &nout, &out), MPI_SUCCESS);
    assert_int_equal(nin, 4);
    assert_int_equal(nout, 4);
    int expect[4] = {0, 0, MPI_PROC_NULL, MPI_PROC_NULL};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(in[i], expect[i]);
        assert_int_equal(out[i], expect[i]);
    }
    const int *iw, *ow;
    assert_int_equal(tide_topo_neighbor_weights(tc, &iw, &ow), MPI_SUCCESS);
    assert_null(iw);
    assert_null(ow);
    /* the dup shares it */
    MPI_Comm d;
    assert_int_equal(PMPI_Comm_dup(c, &d), MPI_SUCCESS);
    assert_ptr_equal(tide_comm_get(d)->topo, tc->topo);
    assert_int_equal(tc->topo->refcount, 2);
    assert_int_equal(PMPI_Comm_free(&c), MPI_SUCCESS);
    assert_int_equal(tide_comm_get(d)->topo->refcount, 1);
    assert_int_equal(PMPI_Comm_free(&d), MPI_SUCCESS);
    /* a graph with a self loop twice */
    int index[1] = {2}, edges[2] = {0, 0};
    assert_int_equal(PMPI_Graph_create(MPI_COMM_WORLD, 1, index, edges, 0, &c), MPI_SUCCESS);
    tc = tide_comm_get(c);
    assert_int_equal(tide_topo_neighbors(tc, &nin, &in, &nout, &out), MPI_SUCCESS);
    assert_int_equal(nin, 2);
    assert_int_equal(nout, 2);
    assert_int_equal(in[0], 0);
    assert_int_equal(out[1], 0);
    assert_int_equal(PMPI_Comm_free(&c), MPI_SUCCESS);
    /* a weighted distributed graph */
    int src[2] = {0, 0}, sw[2] = {5, 6}, dst[1] = {0}, dw[1] = {7};
    assert_int_equal(PMPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, src, sw, 1, dst, dw, MPI_INFO_NULL, 0, &c),
                     MPI_SUCCESS);
    tc = tide_comm_get(c);
    assert_int_equal(tide_topo_neighbors(tc, &nin, &in, &nout, &out), MPI_SUCCESS);
    assert_int_equal(nin, 2);
    assert_int_equal(nout, 1);
    assert_int_equal(tide_topo_neighbor_weights(tc, &iw, &ow), MPI_SUCCESS);
    assert_int_equal(iw[1], 6);
    assert_int_equal(ow[0], 7);
    assert_int_equal(PMPI_Comm_free(&c), MPI_SUCCESS);
    /* no topology */
    assert_int_equal(tide_topo_neighbors(tide_comm_world, &nin, &in, &nout, &out), MPI_ERR_TOPOLOGY);
    assert_int_equal(tide_topo_neighbor_weights(tide_comm_world, &iw, &ow), MPI_ERR_TOPOLOGY);
}

static void test_procs_codec(void **state)
{
    (void)state;
    struct tide_proc *p[5] = {tide_proc_get("jobA", 3), tide_proc_get("jobB", 0), tide_proc_get("jobA", 1),
                              tide_proc_get("jobB", 7), tide_proc_get("jobC-with-a-long-name", 2)};
    void *buf;
    size_t len;
    assert_int_equal(tide_procs_encode(5, p, &buf, &len), MPI_SUCCESS);
    int n;
    struct tide_proc **q;
    assert_int_equal(tide_procs_decode(buf, len, &n, &q), MPI_SUCCESS);
    assert_int_equal(n, 5);
    for (int i = 0; i < 5; i++)
        assert_ptr_equal(q[i], p[i]);
    free(q);
    /* truncated input is refused, not read past */
    for (size_t cut = 0; cut < len; cut++)
        assert_int_not_equal(tide_procs_decode(buf, cut, &n, &q), MPI_SUCCESS);
    free(buf);
    assert_int_equal(tide_procs_encode(0, p, &buf, &len), MPI_SUCCESS);
    assert_int_equal(tide_procs_decode(buf, len, &n, &q), MPI_SUCCESS);
    assert_int_equal(n, 0);
    free(q);
    free(buf);
}

static void test_group_by_color(void **state)
{
    (void)state;
    struct tide_proc *p[6];
    for (int i = 0; i < 6; i++)
        p[i] = tide_proc_get("colors", (uint32_t)i);
    struct tide_group *g = tide_group_new(6, p);
    /* (color, key) per rank */
    int ck[12] = {0, 5, 1, 3, 0, 5, MPI_UNDEFINED, 0, 1, 1, 0, -2};
    struct tide_group *g0 = tide_group_by_color(g, ck, 2, 0);
    assert_int_equal(g0->size, 3);
    assert_ptr_equal(g0->procs[0], p[5]); /* key -2 */
    assert_ptr_equal(g0->procs[1], p[0]); /* key 5, lower rank */
    assert_ptr_equal(g0->procs[2], p[2]);
    struct tide_group *g1 = tide_group_by_color(g, ck, 2, 1);
    assert_int_equal(g1->size, 2);
    assert_ptr_equal(g1->procs[0], p[4]);
    assert_ptr_equal(g1->procs[1], p[1]);
    assert_null(tide_group_by_color(g, ck, 2, 9));
    tide_group_release(g0);
    tide_group_release(g1);
    struct tide_group *sub = tide_group_new(2, (struct tide_proc *[]){p[3], p[1]});
    assert_int_equal(tide_group_check_subset(sub, g, "f", "g"), MPI_SUCCESS);
    struct tide_group *other = tide_group_new(1, (struct tide_proc *[]){tide_proc_get("elsewhere", 0)});
    int rc = tide_group_check_subset(other, g, "MPI_Comm_create", "comm");
    int cls = -1;
    PMPI_Error_class(rc, &cls);
    assert_int_equal(cls, MPI_ERR_GROUP);
    tide_group_release(other);
    tide_group_release(sub);
    tide_group_release(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dims_table),
        cmocka_unit_test(test_dims_properties),
        cmocka_unit_test(test_cart_arith),
        cmocka_unit_test(test_neighbors_alone),
        cmocka_unit_test(test_procs_codec),
        cmocka_unit_test(test_group_by_color),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
