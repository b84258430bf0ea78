/*
 * dt_darray.c: darray and subarray round trips between ranks. Rank 0
 * holds a global array whose elements are their global indices, sends
 * each rank its part with that rank's darray type, and each rank checks
 * what it got against the layout computed by hand (block and cyclic
 * ownership, C and Fortran order, MPI_DISTRIBUTE_DFLT_DARG); the parts
 * come back into a cleared global array through the same types and must
 * rebuild it exactly. Then a halo exchange of subarray faces of a 3-D
 * block between ranks in a ring. Any number of ranks (the grids are made
 * for the number run with).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static int rank, nprocs;

/* global indices rank r owns along one dimension, increasing */
static int owned(int g, int distrib, int darg, int p, int c, int *out)
{
    int n = 0;
    for (int i = 0; i < g; i++) {
        int owner;
        if (distrib == MPI_DISTRIBUTE_NONE)
            owner = 0;
        else if (distrib == MPI_DISTRIBUTE_BLOCK)
            owner = i / (darg == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : darg);
        else
            owner = (i / (darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg)) % p;
        if (owner == c)
            out[n++] = i;
    }
    return n;
}

static void darray_case(const char *what, int nd, const int *gs, const int *dist, const int *dargs,
                        const int *ps, int order)
{
    int total = 1;
    for (int i = 0; i < nd; i++)
        total *= gs[i];
    /* my expected part: the product of the owned lists, in array order */
    int coords[3], r = rank, lists[3][64], lens[3];
    for (int i = nd - 1; i >= 0; i--) {
        coords[i] = r % ps[i];
        r /= ps[i];
    }
    for (int i = 0; i < nd; i++)
        lens[i] = owned(gs[i], dist[i], dargs[i], ps[i], coords[i], lists[i]);
    int nloc = 1;
    for (int i = 0; i < nd; i++)
        nloc *= lens[i];
    int *want = malloc((size_t)(nloc + 1) * sizeof *want), k = 0;
    int idx[3] = {0, 0, 0};
    while (nloc > 0) {
        int lin = 0, mult = 1;
        for (int j = 0; j < nd; j++) {
            int i = order == MPI_ORDER_C ? nd - 1 - j : j;
            lin += lists[i][idx[i]] * mult;
            mult *= gs[i];
        }
        want[k++] = lin;
        int j;
        for (j = 0; j < nd; j++) {
            int i = order == MPI_ORDER_C ? nd - 1 - j : j;
            if (++idx[i] < lens[i])
                break;
            idx[i] = 0;
        }
        if (j == nd)
            break;
    }
    MPI_Datatype mine;
    CHECK_OK(MPI_Type_create_darray(nprocs, rank, nd, gs, dist, dargs, ps, order, MPI_INT, &mine));
    CHECK_OK(MPI_Type_commit(&mine));
    int sz;
    MPI_Type_size(mine, &sz);
    CHECK(sz == nloc * (int)sizeof(int), "%s: my part has %d bytes, expected %d ints", what, sz, nloc);
    int *local = calloc((size_t)nloc + 1, sizeof *local);
    MPI_Request req;
    CHECK_OK(MPI_Irecv(local, nloc, MPI_INT, 0, 1, MPI_COMM_WORLD, &req));
    int *global = NULL;
    if (rank == 0) {
        global = malloc((size_t)total * sizeof *global);
        for (int i = 0; i < total; i++)
            global[i] = i;
        for (int p = 0; p < nprocs; p++) {
            MPI_Datatype t;
            CHECK_OK(MPI_Type_create_darray(nprocs, p, nd, gs, dist, dargs, ps, order, MPI_INT, &t));
            CHECK_OK(MPI_Type_commit(&t));
            CHECK_OK(MPI_Send(global, 1, t, p, 1, MPI_COMM_WORLD));
            MPI_Type_free(&t);
        }
    }
    CHECK_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    for (int i = 0; i < nloc; i++)
        CHECK(local[i] == want[i], "%s: local element %d is global %d, expected %d", what, i, local[i], want[i]);
    /* back: every rank sends its part; rank 0 receives each through its type */
    CHECK_OK(MPI_Isend(local, nloc, MPI_INT, 0, 2, MPI_COMM_WORLD, &req));
    if (rank == 0) {
        memset(global, 0xff, (size_t)total * sizeof *global);
        for (int p = 0; p < nprocs; p++) {
            MPI_Datatype t;
            CHECK_OK(MPI_Type_create_darray(nprocs, p, nd, gs, dist, dargs, ps, order, MPI_INT, &t));
            CHECK_OK(MPI_Type_commit(&t));
            CHECK_OK(MPI_Recv(global, 1, t, p, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            MPI_Type_free(&t);
        }
        for (int i = 0; i < total; i++)
            CHECK(global[i] == i, "%s: element %d of the rebuilt array is %d", what, i, global[i]);
        free(global);
    }
    CHECK_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    MPI_Type_free(&mine);
    free(local);
    free(want);
}

static void darrays(void)
{
    int dims[2] = {0, 0};
    /* a 2-D grid as square as possible */
    for (int a = 1; a * a <= nprocs; a++)
        if (nprocs % a == 0)
            dims[0] = a;
    dims[1] = nprocs / dims[0];
    int gs[2] = {11, 13}, dflt[2] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG};
    int bb[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK}, cc[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_CYCLIC};
    int bc[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
    int cyc2[2] = {2, 3};
    int blk[2] = {(11 + dims[0] - 1) / dims[0] + 1, (13 + dims[1] - 1) / dims[1]};
    for (int o = 0; o < 2; o++) {
        int order = o ? MPI_ORDER_FORTRAN : MPI_ORDER_C;
        darray_case("block x block", 2, gs, bb, dflt, dims, order);
        darray_case("cyclic x cyclic", 2, gs, cc, dflt, dims, order);
        darray_case("cyclic(2) x cyclic(3)", 2, gs, cc, cyc2, dims, order);
        darray_case("block(n) x cyclic", 2, gs, bc, blk, dims, order);
    }
    int g3[3] = {5, 4, 7}, d3[3] = {MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK};
    int a3[3] = {MPI_DISTRIBUTE_DFLT_DARG, 2, MPI_DISTRIBUTE_DFLT_DARG}, p3[3] = {1, dims[0], dims[1]};
    darray_case("none x cyclic(2) x block", 3, g3, d3, a3, p3, MPI_ORDER_C);
    darray_case("none x cyclic(2) x block, Fortran", 3, g3, d3, a3, p3, MPI_ORDER_FORTRAN);
}

/* each rank owns an n^3 block with a halo of 1; it sends its x = n face to
 * the next rank, which receives it into its x = 0 halo */
static void halo(void)
{
    enum { n = 6, m = n + 2 };
    double *a = malloc(m * m * m * sizeof *a);
    for (int i = 0; i < m * m * m; i++)
        a[i] = -1;
    for (int z = 1; z <= n; z++)
        for (int y = 1; y <= n; y++)
            for (int x = 1; x <= n; x++)
                a[(z * m + y) * m + x] = rank * 1000 + z * 100 + y * 10 + x;
    int sizes[3] = {m, m, m}, sub[3] = {n, n, 1}, sface[3] = {1, 1, n}, rface[3] = {1, 1, 0};
    MPI_Datatype st, rt;
    MPI_Type_create_subarray(3, sizes, sub, sface, MPI_ORDER_C, MPI_DOUBLE, &st);
    MPI_Type_create_subarray(3, sizes, sub, rface, MPI_ORDER_C, MPI_DOUBLE, &rt);
    MPI_Type_commit(&st);
    MPI_Type_commit(&rt);
    int next = (rank + 1) % nprocs, prev = (rank + nprocs - 1) % nprocs;
    CHECK_OK(MPI_Sendrecv(a, 1, st, next, 5, a, 1, rt, prev, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (int z = 0; z < m; z++)
        for (int y = 0; y < m; y++)
            for (int x = 0; x < m; x++) {
                double v = a[(z * m + y) * m + x], want;
                if (x == 0 && z >= 1 && z <= n && y >= 1 && y <= n)
                    want = prev * 1000 + z * 100 + y * 10 + n;
                else if (x >= 1 && x <= n && y >= 1 && y <= n && z >= 1 && z <= n)
                    want = rank * 1000 + z * 100 + y * 10 + x;
                else
                    want = -1;
                CHECK(v == want, "halo: a[%d][%d][%d] = %g, expected %g", z, y, x, v, want);
            }
    MPI_Type_free(&st);
    MPI_Type_free(&rt);
    free(a);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    darrays();
    halo();
    if (rank == 0)
        printf("dt_darray: ok\n");
    MPI_Finalize();
    return 0;
}
