/*
 * ep_topo.c: process topologies on an endpoints communicator, one thread
 * per endpoint: MPI_Cart_create (a periodic 2-D grid, no reordering),
 * MPI_Cart_coords / MPI_Cart_rank / MPI_Cart_shift with messages along
 * both dimensions, MPI_Cart_sub into rows with an allreduce in each,
 * MPI_Neighbor_allgather on the grid; MPI_Graph_create (a ring) with
 * MPI_Graph_neighbors and MPI_Neighbor_alltoall; MPI_Dist_graph_create
 * and MPI_Dist_graph_create_adjacent (a ring) with
 * MPI_Neighbor_allgather and MPI_Ineighbor_allgather.
 * Usage: ep_topo RULE (T endpoints per process, or "uneven": 1 + rank % 3)
 */
#include "ep_testutil.h"

static void cart(MPI_Comm c, int me, int n)
{
    int dims[2] = {0, 0}, periods[2] = {1, 1};
    CHECK_OK(MPI_Dims_create(n, 2, dims));
    MPI_Comm g;
    CHECK_OK(MPI_Cart_create(c, 2, dims, periods, 0, &g));
    CHECK(g != MPI_COMM_NULL, "cart_create: no communicator");
    int gr = -1, gn = -1, type = -1;
    CHECK_OK(MPI_Comm_rank(g, &gr));
    CHECK_OK(MPI_Comm_size(g, &gn));
    CHECK_OK(MPI_Topo_test(g, &type));
    CHECK(gr == me && gn == n && type == MPI_CART, "cart: rank %d size %d topology %d", gr, gn, type);
    int co[2], back = -1;
    CHECK_OK(MPI_Cart_coords(g, me, 2, co));
    CHECK(co[0] == me / dims[1] && co[1] == me % dims[1], "cart coords of %d: %d %d", me, co[0], co[1]);
    CHECK_OK(MPI_Cart_rank(g, co, &back));
    CHECK(back == me, "cart_rank: %d", back);
    for (int d = 0; d < 2; d++) {
        int src = -1, dst = -1;
        CHECK_OK(MPI_Cart_shift(g, d, 1, &src, &dst));
        int cd[2] = {co[0], co[1]}, cs[2] = {co[0], co[1]};
        cd[d] = (co[d] + 1) % dims[d];
        cs[d] = (co[d] - 1 + dims[d]) % dims[d];
        int want_dst = cd[0] * dims[1] + cd[1], want_src = cs[0] * dims[1] + cs[1];
        CHECK(src == want_src && dst == want_dst, "cart_shift dim %d: %d %d, expected %d %d", d, src, dst, want_src,
              want_dst);
        int in = -1;
        CHECK_OK(MPI_Sendrecv(&me, 1, MPI_INT, dst, d, &in, 1, MPI_INT, src, d, g, MPI_STATUS_IGNORE));
        CHECK(in == src, "cart shift dim %d: got %d, expected %d", d, in, src);
    }
    /* rows: keep dimension 1 */
    int remain[2] = {0, 1};
    MPI_Comm row;
    CHECK_OK(MPI_Cart_sub(g, remain, &row));
    int rr = -1, rn = -1, sum = -1;
    CHECK_OK(MPI_Comm_rank(row, &rr));
    CHECK_OK(MPI_Comm_size(row, &rn));
    CHECK(rr == co[1] && rn == dims[1], "cart_sub: rank %d size %d, expected %d %d", rr, rn, co[1], dims[1]);
    CHECK_OK(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, row));
    int want = 0;
    for (int k = 0; k < dims[1]; k++)
        want += co[0] * dims[1] + k;
    CHECK(sum == want, "cart_sub row allreduce: %d, expected %d", sum, want);
    CHECK_OK(MPI_Comm_free(&row));
    /* neighbors: for each dimension the one below, then the one above */
    int nb[4] = {-1, -1, -1, -1}, want_nb[4];
    for (int d = 0; d < 2; d++) {
        int src, dst;
        CHECK_OK(MPI_Cart_shift(g, d, 1, &src, &dst));
        want_nb[2 * d] = src;
        want_nb[2 * d + 1] = dst;
    }
    CHECK_OK(MPI_Neighbor_allgather(&me, 1, MPI_INT, nb, 1, MPI_INT, g));
    for (int k = 0; k < 4; k++)
        CHECK(nb[k] == want_nb[k], "cart neighbor_allgather: neighbor %d is %d, expected %d", k, nb[k], want_nb[k]);
    CHECK_OK(MPI_Comm_free(&g));
}

static void graph(MPI_Comm c, int me, int n)
{
    int *index = malloc((size_t)n * sizeof *index), *edges = malloc((size_t)2 * n * sizeof *edges);
    for (int r = 0; r < n; r++) {
        index[r] = 2 * (r + 1);
        edges[2 * r] = (r - 1 + n) % n;
        edges[2 * r + 1] = (r + 1) % n;
    }
    MPI_Comm g;
    CHECK_OK(MPI_Graph_create(c, n, index, edges, 0, &g));
    int type = -1, cnt = -1, nbrs[2];
    CHECK_OK(MPI_Topo_test(g, &type));
    CHECK(type == MPI_GRAPH, "graph: topology %d", type);
    CHECK_OK(MPI_Graph_neighbors_count(g, me, &cnt));
    CHECK_OK(MPI_Graph_neighbors(g, me, 2, nbrs));
    int prev = (me - 1 + n) % n, next = (me + 1) % n;
    CHECK(cnt == 2 && nbrs[0] == prev && nbrs[1] == next, "graph neighbors: %d: %d %d", cnt, nbrs[0], nbrs[1]);
    /* to the previous 10 * me + 1, to the next 10 * me + 2 */
    int out[2] = {10 * me + 1, 10 * me + 2}, in[2] = {-1, -1};
    CHECK_OK(MPI_Neighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, g));
    /* two edges to one rank (2 ranks or fewer) match in their order */
    int want0 = prev == next ? 10 * prev + 1 : 10 * prev + 2, want1 = prev == next ? 10 * next + 2 : 10 * next + 1;
    CHECK(in[0] == want0 && in[1] == want1, "graph neighbor_alltoall: %d %d, expected %d %d", in[0], in[1], want0,
          want1);
    CHECK_OK(MPI_Comm_free(&g));
    free(index);
    free(edges);
}

static void dist_graph(MPI_Comm c, int me, int n)
{
    int prev = (me - 1 + n) % n, next = (me + 1) % n;
    MPI_Comm g, ga;
    /* each rank names its edge to the next one */
    int src = me, deg = 1;
    CHECK_OK(MPI_Dist_graph_create(c, 1, &src, &deg, &next, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g));
    CHECK_OK(MPI_Dist_graph_create_adjacent(c, 1, &prev, MPI_UNWEIGHTED, 1, &next, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                            &ga));
    int indeg = -1, outdeg = -1, weighted = -1;
    CHECK_OK(MPI_Dist_graph_neighbors_count(g, &indeg, &outdeg, &weighted));
    CHECK(indeg == 1 && outdeg == 1, "dist_graph: degrees %d %d", indeg, outdeg);
    int s = -1, d = -1;
    CHECK_OK(MPI_Dist_graph_neighbors(g, 1, &s, MPI_UNWEIGHTED, 1, &d, MPI_UNWEIGHTED));
    CHECK(s == prev && d == next, "dist_graph neighbors: %d %d, expected %d %d", s, d, prev, next);
    int in = -1, in2 = -1;
    CHECK_OK(MPI_Neighbor_allgather(&me, 1, MPI_INT, &in, 1, MPI_INT, g));
    CHECK(in == prev, "dist_graph neighbor_allgather: %d, expected %d", in, prev);
    MPI_Request rq;
    CHECK_OK(MPI_Ineighbor_allgather(&me, 1, MPI_INT, &in2, 1, MPI_INT, ga, &rq));
    CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK(in2 == prev, "dist_graph_adjacent ineighbor_allgather: %d, expected %d", in2, prev);
    CHECK_OK(MPI_Comm_free(&g));
    CHECK_OK(MPI_Comm_free(&ga));
}

static void *endpoint_main(void *p)
{
    struct ep_thread_arg *a = p;
    MPI_Comm c = a->comm;
    int me, n;
    ep_expect(c, a->rank, a->size, &me, &n);
    cart(c, me, n);
    graph(c, me, n);
    dist_graph(c, me, n);
    CHECK_OK(MPI_Barrier(c));
    CHECK_OK(MPI_Comm_free(&a->comm));
    return NULL;
}

int main(int argc, char **argv)
{
    int wrank, wsize;
    ep_init(&argc, &argv, &wrank, &wsize);
    const char *rule = argc > 1 ? argv[1] : "2";
    ep_run_threads("ep_topo", rule, wrank, wsize, endpoint_main);
    MPI_Finalize();
    return 0;
}
