/*
 * topo_graph.c: graph and distributed graph topologies against
 * hand-computed values. At 4 ranks, the standard's example graph
 * (0: 1 3, 1: 0, 2: 3, 3: 0 2): MPI_Graphdims_get, MPI_Graph_get (whole
 * and cut short), MPI_Graph_neighbors_count, MPI_Graph_neighbors,
 * MPI_Graph_map, MPI_Topo_test, kept by MPI_Comm_dup; a graph smaller than
 * the communicator; the empty graph. At any size: distributed graphs made
 * with MPI_Dist_graph_create_adjacent (weighted, MPI_UNWEIGHTED,
 * MPI_WEIGHTS_EMPTY) and MPI_Dist_graph_create (edges given by a rank that
 * is neither end; the documented order: by the rank that named the edge,
 * then its order there), MPI_Dist_graph_neighbors_count and
 * MPI_Dist_graph_neighbors (with smaller arrays); bad input.
 */
#include "testutil.h"

static int rank, size;

/* MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY are small constant addresses; gcc
 * 12 warns when one is passed to a parameter declared as an array (as
 * mpi.h declares the weights), so they go through variables it cannot
 * see through. */
static int *volatile unweighted_v = MPI_UNWEIGHTED;
static int *volatile weights_empty_v = MPI_WEIGHTS_EMPTY;
#define UNWEIGHTED (unweighted_v)
#define WEIGHTS_EMPTY (weights_empty_v)

static void test_graph4(void)
{
    int index[4] = {2, 3, 4, 6}, edges[6] = {1, 3, 0, 3, 0, 2};
    static const int nbr[4][2] = {{1, 3}, {0, -1}, {3, -1}, {0, 2}}, cnt[4] = {2, 1, 1, 2};
    MPI_Comm g, d;
    CHECK_OK(MPI_Graph_create(MPI_COMM_WORLD, 4, index, edges, 1, &g));
    CHECK_OK(MPI_Comm_dup(g, &d));
    MPI_Comm both[2] = {g, d};
    for (int k = 0; k < 2; k++) {
        MPI_Comm c = both[k];
        int st, nn, ne;
        CHECK_OK(MPI_Topo_test(c, &st));
        CHECK(st == MPI_GRAPH, "Topo_test %d", st);
        CHECK_OK(MPI_Graphdims_get(c, &nn, &ne));
        CHECK(nn == 4 && ne == 6, "Graphdims_get %d %d", nn, ne);
        int gi[4] = {0}, ge[6] = {0};
        CHECK_OK(MPI_Graph_get(c, 4, 6, gi, ge));
        CHECK(memcmp(gi, index, sizeof gi) == 0 && memcmp(ge, edges, sizeof ge) == 0, "Graph_get");
        int pi[4] = {-1, -1, -1, -1}, pe[6] = {-1, -1, -1, -1, -1, -1};
        CHECK_OK(MPI_Graph_get(c, 2, 3, pi, pe));
        CHECK(pi[0] == 2 && pi[1] == 3 && pi[2] == -1 && pe[2] == 0 && pe[3] == -1, "Graph_get cut short");
        for (int r = 0; r < 4; r++) {
            int n, v[4] = {-1, -1, -1, -1};
            CHECK_OK(MPI_Graph_neighbors_count(c, r, &n));
            CHECK(n == cnt[r], "neighbours count of %d: %d", r, n);
            CHECK_OK(MPI_Graph_neighbors(c, r, 4, v));
            for (int i = 0; i < n; i++)
                CHECK(v[i] == nbr[r][i], "neighbour %d of %d: %d", i, r, v[i]);
            CHECK_OK(MPI_Graph_neighbors(c, r, 1, v));
        }
        /* messages along the edges */
        int n = cnt[rank], in[2] = {-1, -1};
        MPI_Request rq[4];
        for (int i = 0; i < n; i++) {
            MPI_Irecv(&in[i], 1, MPI_INT, nbr[rank][i], 0, c, &rq[2 * i]);
            MPI_Isend(&rank, 1, MPI_INT, nbr[rank][i], 0, c, &rq[2 * i + 1]);
        }
        MPI_Waitall(2 * n, rq, MPI_STATUSES_IGNORE);
        for (int i = 0; i < n; i++)
            CHECK(in[i] == nbr[rank][i], "message along an edge from %d", in[i]);
        CHECK_ERR(MPI_Graph_neighbors_count(c, 4, &n), MPI_ERR_RANK);
        CHECK_ERR(MPI_Graph_neighbors(c, -1, 4, in), MPI_ERR_RANK);
        int nd;
        CHECK_ERR(MPI_Cartdim_get(c, &nd), MPI_ERR_TOPOLOGY);
        int w;
        CHECK_ERR(MPI_Dist_graph_neighbors_count(c, &n, &n, &w), MPI_ERR_TOPOLOGY);
    }
    MPI_Comm_free(&d);
    MPI_Comm_free(&g);
    int nr;
    CHECK_OK(MPI_Graph_map(MPI_COMM_WORLD, 4, index, edges, &nr));
    CHECK(nr == rank, "Graph_map %d", nr);
    /* three nodes on four ranks: rank 3 is left out */
    int i3[3] = {1, 2, 3}, e3[3] = {1, 2, 0};
    CHECK_OK(MPI_Graph_create(MPI_COMM_WORLD, 3, i3, e3, 0, &g));
    CHECK_OK(MPI_Graph_map(MPI_COMM_WORLD, 3, i3, e3, &nr));
    if (rank == 3) {
        CHECK(g == MPI_COMM_NULL && nr == MPI_UNDEFINED, "rank 3 in a 3-node graph");
    } else {
        int n, v;
        MPI_Comm_size(g, &n);
        MPI_Graph_neighbors(g, rank, 1, &v);
        CHECK(n == 3 && v == (rank + 1) % 3 && nr == rank, "3-node graph: size %d neighbour %d", n, v);
        MPI_Comm_free(&g);
    }
}

static void test_graph_any(void)
{
    MPI_Comm g;
    CHECK_OK(MPI_Graph_create(MPI_COMM_WORLD, 0, NULL, NULL, 0, &g));
    CHECK(g == MPI_COMM_NULL, "the empty graph gave a communicator");
    /* self loops and repeated edges are allowed */
    int index[1] = {3}, edges[3] = {0, 0, 0};
    CHECK_OK(MPI_Graph_create(MPI_COMM_WORLD, 1, index, edges, 0, &g));
    if (rank == 0) {
        int n;
        MPI_Graph_neighbors_count(g, 0, &n);
        CHECK(n == 3, "self loops: %d", n);
        MPI_Comm_free(&g);
    }
    /* bad input */
    int bad_e[3] = {0, 7, 0};
    int rc = MPI_Graph_create(MPI_COMM_WORLD, 1, index, bad_e, 0, &g), cls;
    MPI_Error_class(rc, &cls);
    char msg[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(rc, msg, &len);
    CHECK(cls == MPI_ERR_RANK && strstr(msg, "edges[1]"), "edge to node 7: %d '%s'", cls, msg);
    int dec[2] = {2, 1}, e2[2] = {0, 0};
    if (size >= 2)
        CHECK_ERR(MPI_Graph_create(MPI_COMM_WORLD, 2, dec, e2, 0, &g), MPI_ERR_ARG);
    CHECK_ERR(MPI_Graph_create(MPI_COMM_WORLD, size + 1, dec, e2, 0, &g), MPI_ERR_ARG);
    CHECK_ERR(MPI_Graph_create(MPI_COMM_WORLD, -1, dec, e2, 0, &g), MPI_ERR_ARG);
    int nn, ne;
    CHECK_ERR(MPI_Graphdims_get(MPI_COMM_WORLD, &nn, &ne), MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Graph_map(MPI_COMM_WORLD, 1, index, bad_e, &nn), MPI_ERR_RANK);
}

static void check_dist(MPI_Comm c, int nin, const int *src, const int *sw, int nout, const int *dst, const int *dw,
                       int weighted, const char *what)
{
    int st, i, o, w;
    CHECK_OK(MPI_Topo_test(c, &st));
    CHECK(st == MPI_DIST_GRAPH, "%s: Topo_test %d", what, st);
    CHECK_OK(MPI_Dist_graph_neighbors_count(c, &i, &o, &w));
    CHECK(i == nin && o == nout && (w != 0) == weighted, "%s: counts %d %d weighted %d, expected %d %d %d", what, i,
          o, w, nin, nout, weighted);
    int s[16], swv[16], d[16], dwv[16];
    for (int k = 0; k < 16; k++)
        s[k] = swv[k] = d[k] = dwv[k] = -5;
    CHECK_OK(MPI_Dist_graph_neighbors(c, 16, s, weighted ? swv : UNWEIGHTED, 16, d,
                                      weighted ? dwv : UNWEIGHTED));
    for (int k = 0; k < nin; k++)
        CHECK(s[k] == src[k] && (!weighted || swv[k] == sw[k]), "%s: source %d is %d (weight %d), expected %d (%d)",
              what, k, s[k], swv[k], src[k], weighted ? sw[k] : 0);
    for (int k = 0; k < nout; k++)
        CHECK(d[k] == dst[k] && (!weighted || dwv[k] == dw[k]),
              "%s: destination %d is %d (weight %d), expected %d (%d)", what, k, d[k], dwv[k], dst[k],
              weighted ? dw[k] : 0);
    /* smaller arrays get the first entries */
    if (nin > 1) {
        int s1[1] = {-5}, d1[1] = {-5};
        CHECK_OK(MPI_Dist_graph_neighbors(c, 1, s1, UNWEIGHTED, 1, d1, UNWEIGHTED));
        CHECK(s1[0] == src[0] && (nout == 0 || d1[0] == dst[0]), "%s: cut short %d %d", what, s1[0], d1[0]);
    }
    /* messages along the edges */
    MPI_Request rq[32];
    int in[16], n = 0;
    for (int k = 0; k < nin; k++)
        MPI_Irecv(&in[k], 1, MPI_INT, src[k], 1, c, &rq[n++]);
    for (int k = 0; k < nout; k++)
        MPI_Isend(&rank, 1, MPI_INT, dst[k], 1, c, &rq[n++]);
    MPI_Waitall(n, rq, MPI_STATUSES_IGNORE);
    for (int k = 0; k < nin; k++)
        CHECK(in[k] == src[k], "%s: message from %d says %d", what, src[k], in[k]);
}

static void test_dist(void)
{
    int l = (rank + size - 1) % size, r = (rank + 1) % size, r2 = (rank + 2) % size;
    int l2 = (rank + size - 2) % size;
    /* adjacent, weighted: in from l and l2, out to r and r2 */
    int src[2] = {l, l2}, sw[2] = {100 * l + rank, 100 * l2 + rank};
    int dst[2] = {r, r2}, dw[2] = {100 * rank + r, 100 * rank + r2};
    MPI_Comm c, d;
    CHECK_OK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, src, sw, 2, dst, dw, MPI_INFO_NULL, 0, &c));
    check_dist(c, 2, src, sw, 2, dst, dw, 1, "adjacent weighted");
    CHECK_OK(MPI_Comm_dup(c, &d));
    check_dist(d, 2, src, sw, 2, dst, dw, 1, "dup of adjacent weighted");
    MPI_Comm_free(&d);
    MPI_Comm_free(&c);
    CHECK_OK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, src, UNWEIGHTED, 1, dst, UNWEIGHTED,
                                            MPI_INFO_NULL, 0, &c));
    check_dist(c, 1, src, NULL, 1, dst, NULL, 0, "adjacent unweighted");
    MPI_Comm_free(&c);
    /* only rank 0 sends; WEIGHTS_EMPTY where there is nothing */
    int to_all[64], w_all[64];
    for (int k = 0; k < size; k++) {
        to_all[k] = k;
        w_all[k] = k + 1;
    }
    int zero = 0, one = 1;
    if (rank == 0)
        CHECK_OK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &zero, &one, size, to_all, w_all, MPI_INFO_NULL, 0,
                                                &c));
    else
        CHECK_OK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &zero, &w_all[rank], 0, NULL, WEIGHTS_EMPTY,
                                                MPI_INFO_NULL, 0, &c));
    if (rank == 0)
        check_dist(c, 1, &zero, &one, size, to_all, w_all, 1, "star from 0");
    else
        check_dist(c, 1, &zero, &w_all[rank], 0, NULL, NULL, 1, "star leaf");
    MPI_Comm_free(&c);

    /* Dist_graph_create: rank k names the edge (k+1) -> (k+2), weight
     * 100 a + b; rank 0 also names 0 -> 2 (if there are 3 ranks) */
    int a = (rank + 1) % size, b = (rank + 2) % size;
    int gsrc[2] = {a, 0}, gdeg[2] = {1, 1}, gdst[2] = {b, 2}, gw[2] = {100 * a + b, 2};
    int n = (rank == 0 && size >= 3) ? 2 : 1;
    CHECK_OK(MPI_Dist_graph_create(MPI_COMM_WORLD, n, gsrc, gdeg, gdst, gw, MPI_INFO_NULL, 0, &c));
    /* my in-edge from rank-1 was named by rank-2; my out-edge to rank+1 by
     * rank-1; rank 0 named 0 -> 2 */
    int ein[2], einw[2], eout[2], eoutw[2], ni = 0, no = 0;
    /* ordered by the naming rank: out-edge of 0 named by 0 (0->2) comes
     * before the one named by size-1 (0->1) */
    if (rank == 0 && size >= 3) {
        eout[no] = 2;
        eoutw[no++] = 2;
    }
    if (rank == 2 && size >= 3) {
        /* 1 -> 2 named by rank 0 (first in its arrays), then 0 -> 2 */
        ein[ni] = 1;
        einw[ni++] = 100 * 1 + 2;
        ein[ni] = 0;
        einw[ni++] = 2;
    } else {
        ein[ni] = l;
        einw[ni++] = 100 * l + rank;
    }
    eout[no] = r;
    eoutw[no++] = 100 * rank + r;
    if (size == 1) { /* one rank: 0 -> 0 named by 0, in and out */
        ni = no = 1;
        ein[0] = eout[0] = 0;
        einw[0] = eoutw[0] = 0;
    }
    if (size == 2) { /* rank k names (k+1) -> k */
        ni = no = 1;
        ein[0] = eout[0] = r;
        einw[0] = 100 * r + rank;
        eoutw[0] = 100 * rank + r;
    }
    check_dist(c, ni, ein, einw, no, eout, eoutw, 1, "Dist_graph_create");
    MPI_Comm_free(&c);
    CHECK_OK(MPI_Dist_graph_create(MPI_COMM_WORLD, n, gsrc, gdeg, gdst, UNWEIGHTED, MPI_INFO_NULL, 0, &c));
    check_dist(c, ni, ein, NULL, no, eout, NULL, 0, "Dist_graph_create unweighted");
    MPI_Comm_free(&c);
    /* nobody names anything */
    CHECK_OK(MPI_Dist_graph_create(MPI_COMM_WORLD, 0, NULL, NULL, NULL, WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &c));
    check_dist(c, 0, NULL, NULL, 0, NULL, NULL, 1, "empty distributed graph");
    MPI_Comm_free(&c);

    /* bad input */
    int badr[1] = {size};
    int rc = MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, badr, UNWEIGHTED, 0, NULL, UNWEIGHTED,
                                            MPI_INFO_NULL, 0, &c),
        cls;
    MPI_Error_class(rc, &cls);
    char msg[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(rc, msg, &len);
    CHECK(cls == MPI_ERR_RANK && strstr(msg, "sources[0]"), "bad source: %d '%s'", cls, msg);
    int negw[1] = {-3};
    CHECK_ERR(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &zero, negw, 0, NULL, WEIGHTS_EMPTY, MPI_INFO_NULL,
                                             0, &c),
              MPI_ERR_ARG);
    CHECK_ERR(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, -1, NULL, NULL, 0, NULL, NULL, MPI_INFO_NULL, 0, &c),
              MPI_ERR_ARG);
    int negd[1] = {-1};
    CHECK_ERR(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &zero, negd, NULL, UNWEIGHTED, MPI_INFO_NULL, 0, &c),
              MPI_ERR_ARG);
    CHECK_ERR(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &zero, &one, badr, UNWEIGHTED, MPI_INFO_NULL, 0, &c),
              MPI_ERR_RANK);
    int i, o, w;
    CHECK_ERR(MPI_Dist_graph_neighbors_count(MPI_COMM_WORLD, &i, &o, &w), MPI_ERR_TOPOLOGY);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size <= 64, "at most 64 ranks");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (size == 4)
        test_graph4();
    test_graph_any();
    test_dist();
    if (rank == 0)
        printf("topo_graph: ok on %d ranks\n", size);
    MPI_Finalize();
    return 0;
}
