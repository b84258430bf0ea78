/*
 * coll_neighbor.c: the neighbourhood collectives (MPI_Neighbor_allgather(v),
 * MPI_Neighbor_alltoall(v,w), blocking and nonblocking) on Cartesian
 * topologies (periodic and not, with dimensions of size 1 and 2, where a
 * rank is the same neighbour on both sides: block s of the sender fills
 * block s^1 of the receiver, the rule of MPI-4.0's errata to MPI-3.1,
 * which older releases of other implementations do not follow), on a
 * graph with a doubled
 * edge, and on distributed graphs (adjacent and general, weighted). Each
 * message carries its sender and the sender's slot, so the test sees that
 * every block landed where the standard puts it; blocks of MPI_PROC_NULL
 * neighbours stay untouched. Also the errors: no topology (MPI_ERR_TOPOLOGY)
 * and MPI_IN_PLACE (MPI_ERR_BUFFER). Prints "coll_neighbor: ok".
 */
#include "testutil.h"

#include <stdbool.h>

#define SENT (-99999)

static int wrank, wsize;
static long nchecks;

/* what `sender` puts in element e of the block for its destination slot k */
static int nval(int sender, int k, int e)
{
    return sender * 1000 + k * 37 + e;
}

struct nb {
    int in, out;
    int *src, *dst;
    int *peer_slot; /* for each of my in slots: the sender's out slot that feeds it */
    bool by_rank;   /* slot order not known (general distributed graph): blocks are
                       keyed by the destination's rank instead of the sender's slot */
};

/* the key a sender writes into its block for out slot k / a receiver expects in slot j */
static int skey(const struct nb *b, int k)
{
    return b->by_rank ? b->dst[k] : k;
}

static int rkey(const struct nb *b, int j, int me)
{
    return b->by_rank ? me : b->peer_slot[j];
}

/* the sender's out slot feeding my in slot j */
static void pair_slots(MPI_Comm c, struct nb *b, bool cart, int (*out_of)(MPI_Comm, int, int **))
{
    int me;
    MPI_Comm_rank(c, &me);
    b->peer_slot = malloc((size_t)(b->in ? b->in : 1) * sizeof(int));
    for (int j = 0; j < b->in; j++) {
        int s = b->src[j];
        if (s == MPI_PROC_NULL) {
            b->peer_slot[j] = -1;
            continue;
        }
        if (cart) {
            b->peer_slot[j] = j ^ 1;
            continue;
        }
        /* the m-th time s is my source is the m-th time I am its destination */
        int m = 0;
        for (int q = 0; q < j; q++)
            m += b->src[q] == s;
        int *sd = NULL;
        int so = out_of(c, s, &sd);
        int k = -1;
        for (int q = 0; q < so; q++)
            if (sd[q] == me && m-- == 0) {
                k = q;
                break;
            }
        CHECK(k >= 0, "neighbour lists do not match");
        b->peer_slot[j] = k;
        free(sd);
    }
}

static void run_all(MPI_Comm c, struct nb *b, int nb_)
{
    int me;
    MPI_Comm_rank(c, &me);
    enum { K = 5 };
    int in = b->in, out = b->out;
    /* allgather */
    int *s = malloc((size_t)(out + 1) * K * 2 * sizeof(int)), *r = malloc((size_t)(in + 1) * K * 3 * sizeof(int));
    MPI_Request rq;
    for (int e = 0; e < K; e++)
        s[e] = nval(me, 0, e);
    for (int i = 0; i < in * K * 3 + 3; i++)
        r[i] = SENT;
    if (nb_) {
        CHECK_OK(MPI_Ineighbor_allgather(s, K, MPI_INT, r, K, MPI_INT, c, &rq));
        CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    } else {
        CHECK_OK(MPI_Neighbor_allgather(s, K, MPI_INT, r, K, MPI_INT, c));
    }
    for (int j = 0; j < in; j++)
        for (int e = 0; e < K; e++) {
            int want = b->src[j] == MPI_PROC_NULL ? SENT : nval(b->src[j], 0, e);
            CHECK(r[j * K + e] == want, "neighbor_allgather: slot %d element %d: %d want %d", j, e, r[j * K + e],
                  want);
        }
    nchecks++;
    /* allgatherv: block j holds j % 3 + 1 of the K, gaps between */
    int *rc = malloc((size_t)(in + 1) * sizeof(int)), *rd = malloc((size_t)(in + 1) * sizeof(int));
    for (int i = 0; i < in * K * 3 + 3; i++)
        r[i] = SENT;
    int at = 0;
    for (int j = in - 1; j >= 0; j--) {
        rc[j] = K;
        rd[j] = at;
        at += K + 2;
    }
    if (nb_) {
        CHECK_OK(MPI_Ineighbor_allgatherv(s, K, MPI_INT, r, rc, rd, MPI_INT, c, &rq));
        CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    } else {
        CHECK_OK(MPI_Neighbor_allgatherv(s, K, MPI_INT, r, rc, rd, MPI_INT, c));
    }
    for (int j = 0; j < in; j++)
        for (int e = 0; e < K; e++) {
            int want = b->src[j] == MPI_PROC_NULL ? SENT : nval(b->src[j], 0, e);
            CHECK(r[rd[j] + e] == want, "neighbor_allgatherv: slot %d element %d", j, e);
        }
    nchecks++;
    /* alltoall */
    for (int k = 0; k < out; k++)
        for (int e = 0; e < K; e++)
            s[k * K + e] = nval(me, skey(b, k), e);
    for (int i = 0; i < in * K * 3 + 3; i++)
        r[i] = SENT;
    if (nb_) {
        CHECK_OK(MPI_Ineighbor_alltoall(s, K, MPI_INT, r, K, MPI_INT, c, &rq));
        CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    } else {
        CHECK_OK(MPI_Neighbor_alltoall(s, K, MPI_INT, r, K, MPI_INT, c));
    }
    for (int j = 0; j < in; j++)
        for (int e = 0; e < K; e++) {
            int want = b->src[j] == MPI_PROC_NULL ? SENT : nval(b->src[j], rkey(b, j, me), e);
            CHECK(r[j * K + e] == want, "neighbor_alltoall: slot %d element %d: %d want %d", j, e, r[j * K + e],
                  want);
        }
    nchecks++;
    /* alltoallv: the block for out slot k has (k % 3) + 1 elements; the
     * receiver works out the size from the sender's slot */
    int *sc = malloc((size_t)(out + 1) * sizeof(int)), *sd = malloc((size_t)(out + 1) * sizeof(int));
    for (int k = 0; k < out; k++) {
        sc[k] = skey(b, k) % 3 + 1;
        sd[k] = (out - 1 - k) * K;
    }
    for (int k = 0; k < out; k++)
        for (int e = 0; e < sc[k]; e++)
            s[sd[k] + e] = nval(me, skey(b, k), e);
    at = 0;
    for (int j = 0; j < in; j++) {
        rc[j] = b->src[j] == MPI_PROC_NULL ? 1 : rkey(b, j, me) % 3 + 1;
        rd[j] = at;
        at += rc[j] + 1;
    }
    for (int i = 0; i < in * K * 3 + 3; i++)
        r[i] = SENT;
    if (nb_) {
        CHECK_OK(MPI_Ineighbor_alltoallv(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, c, &rq));
        CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    } else {
        CHECK_OK(MPI_Neighbor_alltoallv(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, c));
    }
    for (int j = 0; j < in; j++) {
        for (int e = 0; e < rc[j]; e++) {
            int want = b->src[j] == MPI_PROC_NULL ? SENT : nval(b->src[j], rkey(b, j, me), e);
            CHECK(r[rd[j] + e] == want, "neighbor_alltoallv: slot %d element %d", j, e);
        }
        CHECK(r[rd[j] + rc[j]] == SENT, "neighbor_alltoallv: gap after slot %d written", j);
    }
    nchecks++;
    /* alltoallw: pairs of ints sent as contig(2) and received as 2 MPI_INT */
    MPI_Datatype two;
    MPI_Type_contiguous(2, MPI_INT, &two);
    MPI_Type_commit(&two);
    int *wsc = malloc((size_t)(out + 1) * sizeof(int)), *wrc = malloc((size_t)(in + 1) * sizeof(int));
    MPI_Aint *wsd = malloc((size_t)(out + 1) * sizeof(MPI_Aint)), *wrd = malloc((size_t)(in + 1) * sizeof(MPI_Aint));
    MPI_Datatype *wst = malloc((size_t)(out + 1) * sizeof(MPI_Datatype)),
                 *wrt = malloc((size_t)(in + 1) * sizeof(MPI_Datatype));
    for (int k = 0; k < out; k++) {
        wsc[k] = 2;
        wst[k] = two;
        wsd[k] = (MPI_Aint)(k * 4 * sizeof(int));
        for (int e = 0; e < 4; e++)
            s[k * 4 + e] = nval(me, skey(b, k), e);
    }
    for (int j = 0; j < in; j++) {
        wrc[j] = 4;
        wrt[j] = MPI_INT;
        wrd[j] = (MPI_Aint)(j * 5 * sizeof(int));
    }
    for (int i = 0; i < in * K * 3 + 3; i++)
        r[i] = SENT;
    if (nb_) {
        CHECK_OK(MPI_Ineighbor_alltoallw(s, wsc, wsd, wst, r, wrc, wrd, wrt, c, &rq));
        CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    } else {
        CHECK_OK(MPI_Neighbor_alltoallw(s, wsc, wsd, wst, r, wrc, wrd, wrt, c));
    }
    for (int j = 0; j < in; j++)
        for (int e = 0; e < 4; e++) {
            int want = b->src[j] == MPI_PROC_NULL ? SENT : nval(b->src[j], rkey(b, j, me), e);
            CHECK(r[j * 5 + e] == want, "neighbor_alltoallw: slot %d element %d", j, e);
        }
    nchecks++;
    MPI_Type_free(&two);
    free(s);
    free(r);
    free(rc);
    free(rd);
    free(sc);
    free(sd);
    free(wsc);
    free(wrc);
    free(wsd);
    free(wrd);
    free(wst);
    free(wrt);
}

static void cart_case(int ndims, const int *dims, const int *periods)
{
    MPI_Comm c;
    int n = 1;
    for (int d = 0; d < ndims; d++)
        n *= dims[d];
    int color = wrank < n ? 0 : MPI_UNDEFINED;
    MPI_Comm sub;
    CHECK_OK(MPI_Comm_split(MPI_COMM_WORLD, color, wrank, &sub));
    if (sub == MPI_COMM_NULL)
        return;
    CHECK_OK(MPI_Cart_create(sub, ndims, dims, periods, 0, &c));
    struct nb b = {.by_rank = false};
    b.in = b.out = 2 * ndims;
    b.src = malloc((size_t)b.in * sizeof(int));
    b.dst = malloc((size_t)b.out * sizeof(int));
    for (int d = 0; d < ndims; d++)
        CHECK_OK(MPI_Cart_shift(c, d, 1, &b.src[2 * d], &b.src[2 * d + 1]));
    for (int d = 0; d < ndims; d++) {
        b.dst[2 * d] = b.src[2 * d];
        b.dst[2 * d + 1] = b.src[2 * d + 1];
    }
    pair_slots(c, &b, true, NULL);
    run_all(c, &b, 0);
    run_all(c, &b, 1);
    free(b.src);
    free(b.dst);
    free(b.peer_slot);
    MPI_Comm_free(&c);
    MPI_Comm_free(&sub);
}

static int graph_out(MPI_Comm c, int r, int **list)
{
    int nn;
    MPI_Graph_neighbors_count(c, r, &nn);
    *list = malloc((size_t)(nn + 1) * sizeof(int));
    MPI_Graph_neighbors(c, r, nn, *list);
    return nn;
}

static void graph_case(void)
{
    int n = wsize;
    /* a ring, with the edge 0-1 doubled (both ways), and 0 its own neighbour */
    int *index = malloc((size_t)n * sizeof(int)), *edges = malloc((size_t)(4 * n + 4) * sizeof(int));
    int e = 0;
    for (int r = 0; r < n; r++) {
        if (n > 1) {
            edges[e++] = (r + 1) % n;
            edges[e++] = (r - 1 + n) % n;
        }
        if (n > 1 && r == 0)
            edges[e++] = 1;
        if (n > 1 && r == 1)
            edges[e++] = 0;
        if (r == 0)
            edges[e++] = 0;
        index[r] = e;
    }
    MPI_Comm c;
    CHECK_OK(MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 0, &c));
    struct nb b = {.by_rank = false};
    b.in = b.out = graph_out(c, wrank, &b.src);
    b.dst = b.src;
    pair_slots(c, &b, false, graph_out);
    run_all(c, &b, 0);
    run_all(c, &b, 1);
    free(b.src);
    free(b.peer_slot);
    MPI_Comm_free(&c);
    free(index);
    free(edges);
}

static MPI_Comm dist_comm;
static int dist_out(MPI_Comm c, int r, int **list)
{
    (void)c;
    /* rank r's destinations, as the test made them */
    int n = wsize;
    *list = malloc(3 * sizeof(int));
    (*list)[0] = (r + 1) % n;
    (*list)[1] = (r + 3) % n;
    (*list)[2] = (r + 1) % n;
    return 3;
}

static void dist_case(int adjacent)
{
    int n = wsize, me = wrank;
    int src[3] = {(me - 1 + n) % n, (me - 3 + 3 * n) % n, (me - 1 + n) % n};
    int dst[3];
    int *dl;
    dist_out(MPI_COMM_WORLD, me, &dl);
    memcpy(dst, dl, sizeof dst);
    free(dl);
    int w[3] = {1, 2, 3};
    if (adjacent) {
        CHECK_OK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 3, src, w, 3, dst, w, MPI_INFO_NULL, 0, &dist_comm));
    } else {
        int degrees[1] = {3};
        CHECK_OK(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &me, degrees, dst, w, MPI_INFO_NULL, 0, &dist_comm));
    }
    int ind, outd, weighted;
    CHECK_OK(MPI_Dist_graph_neighbors_count(dist_comm, &ind, &outd, &weighted));
    CHECK(ind == 3 && outd == 3, "dist graph degrees %d %d", ind, outd);
    struct nb b = {.by_rank = !adjacent};
    b.in = ind;
    b.out = outd;
    b.src = malloc(3 * sizeof(int));
    b.dst = malloc(3 * sizeof(int));
    int sw[3], dw[3];
    CHECK_OK(MPI_Dist_graph_neighbors(dist_comm, 3, b.src, sw, 3, b.dst, dw));
    if (adjacent)
        pair_slots(dist_comm, &b, false, dist_out);
    else
        b.peer_slot = NULL;
    run_all(dist_comm, &b, 0);
    run_all(dist_comm, &b, 1);
    free(b.src);
    free(b.dst);
    free(b.peer_slot);
    MPI_Comm_free(&dist_comm);
}

static void errors(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int x[4], y[64];
    CHECK_ERR(MPI_Neighbor_allgather(x, 1, MPI_INT, y, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_TOPOLOGY);
    MPI_Request rq;
    CHECK_ERR(MPI_Ineighbor_alltoall(x, 1, MPI_INT, y, 1, MPI_INT, MPI_COMM_WORLD, &rq), MPI_ERR_TOPOLOGY);
    int dims[1] = {wsize}, per[1] = {1};
    MPI_Comm c;
    CHECK_OK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, per, 0, &c));
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    CHECK_ERR(MPI_Neighbor_allgather(MPI_IN_PLACE, 1, MPI_INT, y, 1, MPI_INT, c), MPI_ERR_BUFFER);
    CHECK_ERR(MPI_Neighbor_alltoall(x, -1, MPI_INT, y, 1, MPI_INT, c), MPI_ERR_COUNT);
    /* still in step */
    CHECK_OK(MPI_Neighbor_allgather(x, 1, MPI_INT, y, 1, MPI_INT, c));
    MPI_Comm_free(&c);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    int d1[1] = {wsize}, p1[1] = {1}, p0[1] = {0};
    cart_case(1, d1, p1);
    cart_case(1, d1, p0);
    int d2[2] = {0, 0};
    MPI_Dims_create(wsize, 2, d2);
    int p2[2] = {1, 0};
    cart_case(2, d2, p2);
    int p3[2] = {1, 1};
    cart_case(2, d2, p3);
    int d3[3] = {1, 2, wsize / 2 > 0 ? wsize / 2 : 1};
    int p33[3] = {1, 1, 0};
    if (d3[1] * d3[2] <= wsize)
        cart_case(3, d3, p33);
    graph_case();
    dist_case(1);
    dist_case(0);
    errors();
    long total = 0;
    MPI_Reduce(&nchecks, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (wrank == 0)
        printf("coll_neighbor: ok %ld checks\n", total);
    MPI_Finalize();
    return 0;
}
