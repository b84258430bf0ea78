/*
 * topo_cart.c: Cartesian topologies against hand-computed values. At 6
 * ranks, a 3 x 2 grid periodic in the first dimension only: MPI_Cart_get,
 * MPI_Cartdim_get, MPI_Cart_rank (wrapping where periodic), MPI_Cart_coords,
 * MPI_Cart_shift (periodic and not, several displacements), MPI_Cart_sub
 * (each choice of remaining dimensions), MPI_Cart_map, MPI_Topo_test, the
 * topology kept by MPI_Comm_dup, a grid smaller than the communicator and
 * a zero-dimensional one. At any size: MPI_Dims_create against the
 * standard's table and more, and bad input (MPI_ERR_DIMS, MPI_ERR_RANK,
 * MPI_ERR_ARG, MPI_ERR_TOPOLOGY with messages naming the argument).
 */
#include "testutil.h"

static int rank, size;

static void dims_case(int nnodes, int nd, const int *in, const int *expect)
{
    int d[8];
    memcpy(d, in, (size_t)nd * sizeof *d);
    int rc = MPI_Dims_create(nnodes, nd, d);
    if (!expect) {
        int cls;
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_DIMS, "Dims_create(%d, %d) should fail with MPI_ERR_DIMS: class %d", nnodes, nd, cls);
        return;
    }
    CHECK(rc == MPI_SUCCESS, "Dims_create(%d, %d) failed", nnodes, nd);
    for (int i = 0; i < nd; i++)
        CHECK(d[i] == expect[i], "Dims_create(%d, %d): dims[%d] = %d, expected %d", nnodes, nd, i, d[i], expect[i]);
}

static void test_dims_create(void)
{
    /* the standard's table (MPI-2.2 section 7.5.2) */
    dims_case(6, 2, (int[]){0, 0}, (int[]){3, 2});
    dims_case(7, 2, (int[]){0, 0}, (int[]){7, 1});
    dims_case(6, 3, (int[]){0, 3, 0}, (int[]){2, 3, 1});
    dims_case(7, 3, (int[]){0, 3, 0}, NULL);
    /* more */
    dims_case(12, 3, (int[]){0, 0, 0}, (int[]){3, 2, 2});
    dims_case(16, 4, (int[]){0, 0, 0, 0}, (int[]){2, 2, 2, 2});
    dims_case(30, 3, (int[]){0, 0, 0}, (int[]){5, 3, 2});
    dims_case(24, 2, (int[]){0, 0}, (int[]){6, 4});
    dims_case(36, 2, (int[]){0, 0}, (int[]){6, 6});
    dims_case(72, 3, (int[]){0, 0, 0}, (int[]){6, 4, 3});
    dims_case(97, 3, (int[]){0, 0, 0}, (int[]){97, 1, 1});
    dims_case(1, 3, (int[]){0, 0, 0}, (int[]){1, 1, 1});
    dims_case(10, 2, (int[]){2, 0}, (int[]){2, 5});
    dims_case(10, 2, (int[]){0, 2}, (int[]){5, 2});
    dims_case(16, 3, (int[]){4, 0, 2}, (int[]){4, 2, 2});
    dims_case(6, 2, (int[]){2, 3}, (int[]){2, 3});
    dims_case(7, 2, (int[]){2, 3}, NULL);
    dims_case(1 << 20, 2, (int[]){0, 0}, (int[]){1024, 1024});
    dims_case(2147483647, 2, (int[]){0, 0}, (int[]){2147483647, 1});
    int d[2] = {0, 0};
    CHECK_OK(MPI_Dims_create(1, 0, d));
    CHECK_ERR(MPI_Dims_create(5, 0, d), MPI_ERR_DIMS); /* no dimensions multiply to 1 */
    CHECK_ERR(MPI_Dims_create(6, -1, d), MPI_ERR_DIMS);
    int neg[2] = {-1, 0};
    CHECK_ERR(MPI_Dims_create(6, 2, neg), MPI_ERR_DIMS);
    CHECK_ERR(MPI_Dims_create(0, 2, d), MPI_ERR_ARG);
    int three[2] = {0, 3};
    int rc = MPI_Dims_create(7, 2, three);
    char msg[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(rc, msg, &len);
    CHECK(strstr(msg, "MPI_Dims_create") && strstr(msg, "dims"), "message '%s'", msg);
}

/* the 3 x 2 grid, periodic in dimension 0: rank = 2 x + y */
static const int shift0[6][2] = {{4, 2}, {5, 3}, {0, 4}, {1, 5}, {2, 0}, {3, 1}};
static const int shift1[6][2] = {{MPI_PROC_NULL, 1}, {0, MPI_PROC_NULL}, {MPI_PROC_NULL, 3},
                                 {2, MPI_PROC_NULL}, {MPI_PROC_NULL, 5}, {4, MPI_PROC_NULL}};

static void check_grid(MPI_Comm c, const char *what)
{
    int st, nd, dims[2], per[2], co[2];
    CHECK_OK(MPI_Topo_test(c, &st));
    CHECK(st == MPI_CART, "%s: Topo_test %d", what, st);
    CHECK_OK(MPI_Cartdim_get(c, &nd));
    CHECK(nd == 2, "%s: %d dimensions", what, nd);
    CHECK_OK(MPI_Cart_get(c, 2, dims, per, co));
    CHECK(dims[0] == 3 && dims[1] == 2 && per[0] == 1 && per[1] == 0, "%s: Cart_get dims %d %d periods %d %d", what,
          dims[0], dims[1], per[0], per[1]);
    CHECK(co[0] == rank / 2 && co[1] == rank % 2, "%s: my coords (%d, %d)", what, co[0], co[1]);
    for (int r = 0; r < 6; r++) {
        CHECK_OK(MPI_Cart_coords(c, r, 2, co));
        CHECK(co[0] == r / 2 && co[1] == r % 2, "%s: coords of %d: (%d, %d)", what, r, co[0], co[1]);
        int back;
        CHECK_OK(MPI_Cart_rank(c, co, &back));
        CHECK(back == r, "%s: rank of (%d, %d) = %d", what, co[0], co[1], back);
    }
    int wrap[2] = {-1, 0}, rr;
    CHECK_OK(MPI_Cart_rank(c, wrap, &rr));
    CHECK(rr == 4, "%s: rank of (-1, 0) = %d", what, rr);
    wrap[0] = 3;
    wrap[1] = 1;
    CHECK_OK(MPI_Cart_rank(c, wrap, &rr));
    CHECK(rr == 1, "%s: rank of (3, 1) = %d", what, rr);
    wrap[0] = -7; /* -7 mod 3 = 2 */
    wrap[1] = 0;
    CHECK_OK(MPI_Cart_rank(c, wrap, &rr));
    CHECK(rr == 4, "%s: rank of (-7, 0) = %d", what, rr);
    int out[2] = {0, 2};
    int rc = MPI_Cart_rank(c, out, &rr), cls;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_ARG, "%s: rank of (0, 2) in a non-periodic dimension: class %d", what, cls);
    int s, d;
    CHECK_OK(MPI_Cart_shift(c, 0, 1, &s, &d));
    CHECK(s == shift0[rank][0] && d == shift0[rank][1], "%s: shift(0, 1) = %d %d", what, s, d);
    CHECK_OK(MPI_Cart_shift(c, 0, -1, &s, &d));
    CHECK(s == shift0[rank][1] && d == shift0[rank][0], "%s: shift(0, -1) = %d %d", what, s, d);
    CHECK_OK(MPI_Cart_shift(c, 0, 2, &s, &d));
    CHECK(s == shift0[rank][1] && d == shift0[rank][0], "%s: shift(0, 2) = %d %d", what, s, d);
    CHECK_OK(MPI_Cart_shift(c, 0, 3, &s, &d));
    CHECK(s == rank && d == rank, "%s: shift(0, 3) = %d %d", what, s, d);
    CHECK_OK(MPI_Cart_shift(c, 1, 1, &s, &d));
    CHECK(s == shift1[rank][0] && d == shift1[rank][1], "%s: shift(1, 1) = %d %d", what, s, d);
    CHECK_OK(MPI_Cart_shift(c, 1, 2, &s, &d));
    CHECK(s == MPI_PROC_NULL && d == MPI_PROC_NULL, "%s: shift(1, 2) = %d %d", what, s, d);
    CHECK_OK(MPI_Cart_shift(c, 1, 0, &s, &d));
    CHECK(s == rank && d == rank, "%s: shift(1, 0) = %d %d", what, s, d);
    /* the shifts are usable for messages */
    CHECK_OK(MPI_Cart_shift(c, 0, 1, &s, &d));
    int v = rank, got = -1;
    CHECK_OK(MPI_Sendrecv(&v, 1, MPI_INT, d, 4, &got, 1, MPI_INT, s, 4, c, MPI_STATUS_IGNORE));
    CHECK(got == s, "%s: shifted message from %d", what, got);
    CHECK_OK(MPI_Cart_shift(c, 1, 1, &s, &d));
    got = -1;
    CHECK_OK(MPI_Sendrecv(&v, 1, MPI_INT, d, 5, &got, 1, MPI_INT, s, 5, c, MPI_STATUS_IGNORE));
    CHECK(got == (s == MPI_PROC_NULL ? -1 : s), "%s: shift on the open dimension: %d", what, got);
    /* bad input */
    rc = MPI_Cart_shift(c, 2, 1, &s, &d);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_DIMS, "%s: shift in direction 2: class %d", what, cls);
    CHECK_ERR(MPI_Cart_coords(c, 6, 2, co), MPI_ERR_RANK);
    CHECK_ERR(MPI_Cart_coords(c, 0, 1, co), MPI_ERR_ARG);
    CHECK_ERR(MPI_Cart_get(c, 1, dims, per, co), MPI_ERR_ARG);
}

static void check_sub(MPI_Comm c, int k0, int k1)
{
    int remain[2] = {k0, k1};
    MPI_Comm s;
    CHECK_OK(MPI_Cart_sub(c, remain, &s));
    int n, r, nd;
    MPI_Comm_size(s, &n);
    MPI_Comm_rank(s, &r);
    MPI_Cartdim_get(s, &nd);
    int x = rank / 2, y = rank % 2;
    int en = (k0 ? 3 : 1) * (k1 ? 2 : 1);
    int er = k0 && k1 ? rank : k0 ? x : k1 ? y : 0;
    CHECK(n == en && r == er && nd == k0 + k1, "Cart_sub(%d, %d): size %d rank %d ndims %d, expected %d %d %d", k0,
          k1, n, r, nd, en, er, k0 + k1);
    /* no dimension kept: a zero-dimensional Cartesian communicator of one
     * process on every rank (MPI-2.2 7.5.7), not MPI_COMM_NULL */
    int st;
    MPI_Topo_test(s, &st);
    CHECK(st == MPI_CART, "Cart_sub(%d, %d): topology %d", k0, k1, st);
    int dims[2], per[2], co[2];
    CHECK_OK(MPI_Cart_get(s, 2, dims, per, co));
    if (k0 && !k1)
        CHECK(dims[0] == 3 && per[0] == 1 && co[0] == x, "Cart_sub(1, 0): %d %d %d", dims[0], per[0], co[0]);
    if (!k0 && k1)
        CHECK(dims[0] == 2 && per[0] == 0 && co[0] == y, "Cart_sub(0, 1): %d %d %d", dims[0], per[0], co[0]);
    /* the members: same dropped coordinates */
    MPI_Group g, wg;
    MPI_Comm_group(s, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int idx[6] = {0, 1, 2, 3, 4, 5}, w[6];
    MPI_Group_translate_ranks(g, n, idx, wg, w);
    for (int i = 0; i < n; i++) {
        int wx = w[i] / 2, wy = w[i] % 2;
        CHECK((k0 || wx == x) && (k1 || wy == y), "Cart_sub(%d, %d): member %d is world %d", k0, k1, i, w[i]);
    }
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    int ring = r, got = -1;
    MPI_Sendrecv(&ring, 1, MPI_INT, (r + 1) % n, 0, &got, 1, MPI_INT, (r + n - 1) % n, 0, s, MPI_STATUS_IGNORE);
    CHECK(got == (r + n - 1) % n, "Cart_sub(%d, %d): ring got %d", k0, k1, got);
    MPI_Comm_free(&s);
}

static void test_grid6(void)
{
    int dims[2] = {3, 2}, per[2] = {1, 0};
    MPI_Comm c, d;
    CHECK_OK(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, per, 1, &c));
    int r;
    MPI_Comm_rank(c, &r);
    CHECK(r == rank, "reorder is not done, yet rank %d became %d", rank, r);
    check_grid(c, "3x2 grid");
    CHECK_OK(MPI_Comm_dup(c, &d));
    check_grid(d, "dup of the grid");
    for (int k0 = 0; k0 < 2; k0++)
        for (int k1 = 0; k1 < 2; k1++)
            check_sub(c, k0, k1);
    /* Cart_map agrees with what Cart_create did */
    int nr;
    CHECK_OK(MPI_Cart_map(MPI_COMM_WORLD, 2, dims, per, &nr));
    CHECK(nr == rank, "Cart_map %d", nr);
    int small[2] = {2, 2};
    CHECK_OK(MPI_Cart_map(MPI_COMM_WORLD, 2, small, per, &nr));
    CHECK(nr == (rank < 4 ? rank : MPI_UNDEFINED), "Cart_map 2x2: %d", nr);
    MPI_Comm_free(&d);
    MPI_Comm_free(&c);
    /* a grid smaller than the communicator */
    CHECK_OK(MPI_Cart_create(MPI_COMM_WORLD, 2, small, per, 0, &c));
    if (rank >= 4) {
        CHECK(c == MPI_COMM_NULL, "rank %d outside the 2x2 grid got a communicator", rank);
    } else {
        int n, s, dd;
        MPI_Comm_size(c, &n);
        CHECK(n == 4, "2x2 grid size %d", n);
        MPI_Cart_shift(c, 0, 1, &s, &dd);
        CHECK(s == (rank + 2) % 4 && dd == (rank + 2) % 4, "2x2 shift(0, 1) %d %d", s, dd);
        MPI_Comm_free(&c);
    }
}

static void test_any_size(void)
{
    /* a ring of everyone, and 0 dimensions */
    int dims[1] = {size}, per[1] = {1};
    MPI_Comm c;
    CHECK_OK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, per, 0, &c));
    int s, d;
    CHECK_OK(MPI_Cart_shift(c, 0, 1, &s, &d));
    CHECK(s == (rank + size - 1) % size && d == (rank + 1) % size, "ring shift %d %d", s, d);
    MPI_Comm_free(&c);
    CHECK_OK(MPI_Cart_create(MPI_COMM_WORLD, 0, dims, per, 0, &c));
    if (rank == 0) {
        int n, nd;
        MPI_Comm_size(c, &n);
        MPI_Cartdim_get(c, &nd);
        CHECK(n == 1 && nd == 0, "zero-dimensional grid: size %d ndims %d", n, nd);
        int r;
        CHECK_OK(MPI_Cart_rank(c, NULL, &r));
        CHECK(r == 0, "rank in a zero-dimensional grid %d", r);
        MPI_Comm_free(&c);
    } else {
        CHECK(c == MPI_COMM_NULL, "zero-dimensional grid at rank %d", rank);
    }
    /* bad input */
    int big[2] = {size, 2}, p2[2] = {0, 0};
    int rc = MPI_Cart_create(MPI_COMM_WORLD, 2, big, p2, 0, &c), cls;
    MPI_Error_class(rc, &cls);
    char msg[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(rc, msg, &len);
    CHECK(cls == MPI_ERR_DIMS && strstr(msg, "dims"), "too many grid points: class %d '%s'", cls, msg);
    int zero[1] = {0};
    c = MPI_COMM_WORLD;
    CHECK_ERR(MPI_Cart_create(MPI_COMM_WORLD, 1, zero, per, 0, &c), MPI_ERR_DIMS);
    CHECK(c == MPI_COMM_NULL, "a failed MPI_Cart_create leaves comm_cart MPI_COMM_NULL");
    CHECK_ERR(MPI_Cart_create(MPI_COMM_WORLD, -1, dims, per, 0, &c), MPI_ERR_DIMS);
    CHECK_ERR(MPI_Cart_create(MPI_COMM_NULL, 1, dims, per, 0, &c), MPI_ERR_COMM);
    CHECK_ERR(MPI_Cart_map(MPI_COMM_WORLD, 2, big, p2, &rc), MPI_ERR_DIMS);
    int nd;
    rc = MPI_Cartdim_get(MPI_COMM_WORLD, &nd);
    MPI_Error_class(rc, &cls);
    MPI_Error_string(rc, msg, &len);
    CHECK(cls == MPI_ERR_TOPOLOGY && strstr(msg, "MPI_Cartdim_get"), "Cartdim_get on WORLD: %d '%s'", cls, msg);
    int st;
    CHECK_OK(MPI_Topo_test(MPI_COMM_WORLD, &st));
    CHECK(st == MPI_UNDEFINED, "Topo_test(WORLD) = %d", st);
    int remain[1] = {1};
    CHECK_ERR(MPI_Cart_sub(MPI_COMM_WORLD, remain, &c), MPI_ERR_TOPOLOGY);
    /* a graph is not a grid */
    int index[1] = {0};
    MPI_Comm g;
    CHECK_OK(MPI_Graph_create(MPI_COMM_WORLD, 1, index, NULL, 0, &g));
    if (g != MPI_COMM_NULL) {
        MPI_Comm_set_errhandler(g, MPI_ERRORS_RETURN);
        rc = MPI_Cart_shift(g, 0, 1, &s, &d);
        MPI_Error_class(rc, &cls);
        MPI_Error_string(rc, msg, &len);
        CHECK(cls == MPI_ERR_TOPOLOGY && strstr(msg, "graph"), "Cart_shift on a graph: %d '%s'", cls, msg);
        MPI_Comm_free(&g);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    test_dims_create();
    if (size == 6)
        test_grid6();
    test_any_size();
    if (rank == 0)
        printf("topo_cart: ok on %d ranks\n", size);
    MPI_Finalize();
    return 0;
}
