/*
 * topo_cart.c: Cartesian topologies (MPI-2.2 sections 7.5.1-7.5.5, 7.5.7):
 * MPI_Cart_create, MPI_Dims_create, MPI_Cartdim_get, MPI_Cart_get,
 * MPI_Cart_rank, MPI_Cart_coords, MPI_Cart_shift, MPI_Cart_sub,
 * MPI_Cart_map.
 *
 * Ranks are laid out in row-major order (the last dimension varies
 * fastest). Reordering is not done: reorder is ignored everywhere, and
 * MPI_Cart_map gives every process its own rank (or MPI_UNDEFINED past
 * the grid), which is what MPI_Cart_create then uses.
 */
#include "runtime/api.h"
#include "comm/comm.h"
#include "comm/comm_create.h"
#include "comm/group.h"
#include "comm/topo.h"

#include <stdlib.h>
#include <string.h>

/* ---- arithmetic ---- */

int tide_cart_rank_of(int ndims, const int *dims, const int *coords)
{
    int r = 0;
    for (int i = 0; i < ndims; i++)
        r = r * dims[i] + coords[i];
    return r;
}

void tide_cart_coords_of(int ndims, const int *dims, int rank, int *coords)
{
    for (int i = ndims - 1; i >= 0; i--) {
        coords[i] = rank % dims[i];
        rank /= dims[i];
    }
}

/* The rank at coords + disp along dimension d, or MPI_PROC_NULL. */
static int shifted(const struct tide_topo *t, const int *coords, int d, int disp)
{
    int *c = malloc((size_t)(t->ndims ? t->ndims : 1) * sizeof *c);
    if (!c)
        return MPI_PROC_NULL;
    memcpy(c, coords, (size_t)t->ndims * sizeof *c);
    long long x = (long long)c[d] + disp;
    int r = MPI_PROC_NULL;
    if (t->periods[d]) {
        x %= t->dims[d];
        if (x < 0)
            x += t->dims[d];
    }
    if (x >= 0 && x < t->dims[d]) {
        c[d] = (int)x;
        r = tide_cart_rank_of(t->ndims, t->dims, c);
    }
    free(c);
    return r;
}

/* A Cartesian topology for the process of the given rank. */
static struct tide_topo *cart_new(int ndims, const int *dims, const int *periods, int rank)
{
    struct tide_topo *t = tide_topo_new(MPI_CART);
    if (!t)
        return NULL;
    size_t n = (size_t)(ndims ? ndims : 1);
    t->ndims = ndims;
    t->dims = malloc(n * sizeof *t->dims);
    t->periods = malloc(n * sizeof *t->periods);
    t->coords = malloc(n * sizeof *t->coords);
    t->in = malloc(2 * n * sizeof *t->in);
    if (!t->dims || !t->periods || !t->coords || !t->in) {
        tide_topo_release(t);
        return NULL;
    }
    for (int i = 0; i < ndims; i++) {
        t->dims[i] = dims[i];
        t->periods[i] = periods[i] ? 1 : 0;
    }
    tide_cart_coords_of(ndims, t->dims, rank, t->coords);
    /* neighbours: per dimension, the one at -1 then the one at +1 */
    for (int d = 0; d < ndims; d++) {
        t->in[2 * d] = shifted(t, t->coords, d, -1);
        t->in[2 * d + 1] = shifted(t, t->coords, d, 1);
    }
    t->out = t->in;
    t->indegree = t->outdegree = 2 * ndims;
    return t;
}

/* Check a grid description against a group of size n; *points gets the
 * number of grid points. An error code (not raised) or MPI_SUCCESS. */
static int check_grid(const char *fn, int n, int ndims, const int dims[], const int periods[], int *points)
{
    if (ndims < 0)
        return tide_err(MPI_ERR_DIMS, "%s: negative number of dimensions %d (argument ndims)", fn, ndims);
    if (ndims > 0 && !dims)
        return tide_err(MPI_ERR_ARG, "%s: dims must not be NULL", fn);
    if (ndims > 0 && !periods)
        return tide_err(MPI_ERR_ARG, "%s: periods must not be NULL", fn);
    long long p = 1;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] <= 0)
            return tide_err(MPI_ERR_DIMS, "%s: dims[%d] is %d; every dimension must be at least 1 (argument dims)",
                            fn, i, dims[i]);
        p *= dims[i];
        if (p > n)
            break;
    }
    if (p > n) {
        long long full = 1;
        for (int i = 0; i < ndims && full <= (1ll << 40); i++)
            full *= dims[i];
        return tide_err(MPI_ERR_DIMS,
                        "%s: the grid has %lld%s points but the communicator only %d processes (argument dims)", fn,
                        full, full > (1ll << 40) ? " or more" : "", n);
    }
    *points = (int)p;
    return MPI_SUCCESS;
}

/* ---- creation ---- */

int PMPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder,
                     MPI_Comm *comm_cart)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Cart_create";
    (void)reorder; /* ranks are kept */
    struct tide_comm *c = tide_comm_get(comm_old);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "%s: invalid communicator%s (argument comm_old)", fn,
                        comm_old == MPI_COMM_NULL ? " MPI_COMM_NULL" : "");
    if (c->is_inter)
        return TIDE_ERR_COMM(c, MPI_ERR_COMM, "%s: comm_old must be an intracommunicator (argument comm_old)", fn);
    if (!comm_cart)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: comm_cart must not be NULL", fn);
    *comm_cart = MPI_COMM_NULL; /* what a failed call leaves */
    int points;
    int rc = check_grid(fn, c->size, ndims, dims, periods, &points);
    if (rc != MPI_SUCCESS)
        return tide_raise_comm(c, rc);
    /* the first `points` ranks form the grid */
    struct tide_group *g = NULL;
    struct tide_topo *t = NULL;
    if (c->rank < points) {
        g = tide_group_new(points, c->group->procs);
        t = cart_new(ndims, dims, periods, c->rank);
        if (!g || !t)
            rc = tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    }
    struct tide_comm *nc = NULL;
    int rc2 = tide_comm_make_split(c, rc == MPI_SUCCESS ? g : NULL, 0, c->rank, &nc);
    tide_group_release(g);
    if (rc == MPI_SUCCESS)
        rc = rc2;
    if (rc != MPI_SUCCESS) {
        tide_topo_release(t);
        if (nc)
            tide_comm_release(nc);
        return tide_raise_comm(c, rc);
    }
    if (nc)
        nc->topo = t;
    *comm_cart = tide_comm_handle_of(nc);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Cart_create)

/* ---- MPI_Dims_create ---- */

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return x < y ? -1 : x > y;
}

/* The split of n into k factors that are as close to each other as
 * possible: the smallest difference between the largest and the smallest
 * factor; among those, the one whose smallest factor is largest, then
 * whose next smallest is largest, and so on. Factors are chosen from the
 * divisors of n (divs, ascending) smallest first, each at least the one
 * before; best holds the best split found so far, ascending. */
struct split_search {
    int k;
    const int *divs;
    int ndivs;
    int *cur, *best;
    int best_spread; /* -1: none found yet */
};

static bool split_better(const struct split_search *S)
{
    int spread = S->cur[S->k - 1] - S->cur[0];
    if (S->best_spread < 0 || spread < S->best_spread)
        return true;
    if (spread > S->best_spread)
        return false;
    for (int i = 0; i < S->k; i++)
        if (S->cur[i] != S->best[i])
            return S->cur[i] > S->best[i];
    return false;
}

/* Place factors pos..k-1 (the product left is n, each at least lo). */
static void split_from(struct split_search *S, int pos, int n, int lo)
{
    if (pos == S->k - 1) {
        if (n < lo)
            return;
        S->cur[pos] = n;
        if (split_better(S)) {
            memcpy(S->best, S->cur, (size_t)S->k * sizeof *S->cur);
            S->best_spread = n - S->cur[0];
        }
        return;
    }
    int left = S->k - pos;
    for (int i = 0; i < S->ndivs; i++) {
        int f = S->divs[i];
        if (f < lo || n % f)
            continue;
        /* the factors still to place are all at least f: f^left <= n */
        long long p = 1;
        for (int j = 0; j < left && p <= n; j++)
            p *= f;
        if (p > n)
            break;
        /* the largest factor will be at least f */
        if (S->best_spread >= 0 && f - (pos == 0 ? f : S->cur[0]) > S->best_spread)
            break;
        S->cur[pos] = f;
        split_from(S, pos + 1, n / f, f);
    }
}

int tide_dims_fill(int nnodes, int ndims, int *dims)
{
    long long fixed = 1;
    int nfree = 0;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 0)
            return MPI_ERR_DIMS;
        if (dims[i] == 0)
            nfree++;
        else
            fixed *= dims[i];
        if (fixed > nnodes)
            return MPI_ERR_DIMS;
    }
    if (nnodes % fixed)
        return MPI_ERR_DIMS;
    int rest = (int)(nnodes / fixed);
    if (nfree == 0)
        return rest == 1 ? MPI_SUCCESS : MPI_ERR_DIMS;
    int cap = 2;
    for (long long d = 1; d * d <= rest; d++)
        if (rest % d == 0)
            cap += 2;
    int *divs = malloc((size_t)cap * sizeof *divs), ndivs = 0;
    int *cur = malloc((size_t)nfree * sizeof *cur), *best = malloc((size_t)nfree * sizeof *best);
    if (!divs || !cur || !best) {
        free(divs);
        free(cur);
        free(best);
        return MPI_ERR_NO_MEM;
    }
    for (long long d = 1; d * d <= rest; d++)
        if (rest % d == 0) {
            divs[ndivs++] = (int)d;
            if (d * d != rest)
                divs[ndivs++] = (int)(rest / d);
        }
    qsort(divs, (size_t)ndivs, sizeof *divs, cmp_int);
    struct split_search S = {.k = nfree, .divs = divs, .ndivs = ndivs, .cur = cur, .best = best, .best_spread = -1};
    split_from(&S, 0, rest, 1); /* always finds one: 1, ..., 1, rest */
    /* the free entries get the factors largest first */
    for (int i = 0, j = nfree - 1; i < ndims; i++)
        if (dims[i] == 0)
            dims[i] = best[j--];
    free(divs);
    free(cur);
    free(best);
    return MPI_SUCCESS;
}

int PMPI_Dims_create(int nnodes, int ndims, int dims[])
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Dims_create";
    if (nnodes < 1)
        return TIDE_ERR(MPI_ERR_ARG, "%s: nnodes is %d; it must be at least 1 (argument nnodes)", fn, nnodes);
    if (ndims < 0)
        return TIDE_ERR(MPI_ERR_DIMS, "%s: negative number of dimensions %d (argument ndims)", fn, ndims);
    if (ndims > 0 && !dims)
        return TIDE_ERR(MPI_ERR_ARG, "%s: dims must not be NULL", fn);
    for (int i = 0; i < ndims; i++)
        if (dims[i] < 0)
            return TIDE_ERR(MPI_ERR_DIMS, "%s: dims[%d] is %d; entries must be 0 or positive (argument dims)", fn, i,
                            dims[i]);
    int cls = tide_dims_fill(nnodes, ndims, dims);
    if (cls == MPI_ERR_DIMS)
        return TIDE_ERR(MPI_ERR_DIMS,
                        "%s: the fixed entries of dims do not divide nnodes = %d (argument dims; with no 0 "
                        "entries their product must be nnodes)",
                        fn, nnodes);
    if (cls != MPI_SUCCESS)
        return TIDE_ERR(cls, "%s: out of memory", fn);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Dims_create)

/* ---- inquiries ---- */

int PMPI_Cartdim_get(MPI_Comm comm, int *ndims)
{
    TIDE_API_ENTER();
    int rc;
    struct tide_comm *c;
    struct tide_topo *t = tide_topo_of(comm, MPI_CART, "MPI_Cartdim_get", &c, &rc);
    if (!t)
        return rc;
    if (!ndims)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "MPI_Cartdim_get: ndims must not be NULL");
    *ndims = t->ndims;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Cartdim_get)

int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[])
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Cart_get";
    int rc;
    struct tide_comm *c;
    struct tide_topo *t = tide_topo_of(comm, MPI_CART, fn, &c, &rc);
    if (!t)
        return rc;
    if (maxdims < t->ndims)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: maxdims is %d but the grid has %d dimensions (argument maxdims)", fn,
                             maxdims, t->ndims);
    if (t->ndims > 0 && (!dims || !periods || !coords))
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: dims, periods and coords must not be NULL", fn);
    for (int i = 0; i < t->ndims; i++) {
        dims[i] = t->dims[i];
        periods[i] = t->periods[i];
        coords[i] = t->coords[i];
    }
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Cart_get)

int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Cart_rank";
    int rc;
    struct tide_comm *c;
    struct tide_topo *t = tide_topo_of(comm, MPI_CART, fn, &c, &rc);
    if (!t)
        return rc;
    if (!rank || (t->ndims > 0 && !coords))
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: coords and rank must not be NULL", fn);
    int r = 0;
    for (int i = 0; i < t->ndims; i++) {
        long long x = coords[i];
        if (t->periods[i]) {
            x %= t->dims[i];
            if (x < 0)
                x += t->dims[i];
        } else if (x < 0 || x >= t->dims[i]) {
            return TIDE_ERR_COMM(c, MPI_ERR_ARG,
                                 "%s: coords[%d] = %d is outside dimension %d (0 to %d, not periodic; argument coords)",
                                 fn, i, coords[i], i, t->dims[i] - 1);
        }
        r = r * t->dims[i] + (int)x;
    }
    *rank = r;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Cart_rank)

int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Cart_coords";
    int rc;
    struct tide_comm *c;
    struct tide_topo *t = tide_topo_of(comm, MPI_CART, fn, &c, &rc);
    if (!t)
        return rc;
    if (rank < 0 || rank >= c->size)
        return TIDE_ERR_COMM(c, MPI_ERR_RANK, "%s: invalid rank %d (argument rank; the communicator has %d ranks)", fn,
                             rank, c->size);
    if (maxdims < t->ndims)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: maxdims is %d but the grid has %d dimensions (argument maxdims)", fn,
                             maxdims, t->ndims);
    if (t->ndims > 0 && !coords)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: coords must not be NULL", fn);
    tide_cart_coords_of(t->ndims, t->dims, rank, coords);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Cart_coords)

int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Cart_shift";
    int rc;
    struct tide_comm *c;
    struct tide_topo *t = tide_topo_of(comm, MPI_CART, fn, &c, &rc);
    if (!t)
        return rc;
    if (direction < 0 || direction >= t->ndims)
        return TIDE_ERR_COMM(c, MPI_ERR_DIMS,
                             "%s: invalid direction %d (argument direction; the grid has %d dimensions)", fn,
                             direction, t->ndims);
    if (!rank_source || !rank_dest)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: rank_source and rank_dest must not be NULL", fn);
    *rank_source = shifted(t, t->coords, direction, -disp);
    *rank_dest = shifted(t, t->coords, direction, disp);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Cart_shift)

/* ---- MPI_Cart_sub ---- */

int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Cart_sub";
    int rc;
    struct tide_comm *c;
    struct tide_topo *t = tide_topo_of(comm, MPI_CART, fn, &c, &rc);
    if (!t)
        return rc;
    if ((t->ndims > 0 && !remain_dims) || !newcomm)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: remain_dims and newcomm must not be NULL", fn);
    int nd = t->ndims, nkeep = 0;
    int *keep = malloc((size_t)(nd ? nd : 1) * sizeof *keep);
    int *sdims = malloc((size_t)(nd ? nd : 1) * sizeof *sdims);
    int *sper = malloc((size_t)(nd ? nd : 1) * sizeof *sper);
    int *co = malloc((size_t)(nd ? nd : 1) * sizeof *co);
    struct tide_proc **procs = malloc((size_t)c->size * sizeof *procs);
    struct tide_group *g = NULL;
    struct tide_topo *nt = NULL;
    int color = 0, subrank = 0; /* my sub-grid, my rank in it */
    rc = MPI_SUCCESS;
    if (!keep || !sdims || !sper || !co || !procs) {
        rc = tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    } else {
        for (int d = 0; d < nd; d++) {
            keep[d] = remain_dims[d] ? 1 : 0;
            if (keep[d]) {
                sdims[nkeep] = t->dims[d];
                sper[nkeep] = t->periods[d];
                nkeep++;
            }
        }
        /* my sub-grid: the processes whose dropped coordinates equal mine,
         * ranked in row-major order of the kept ones (which rank order
         * gives, the layout being row-major) */
        int n = 0;
        for (int d = 0, stride = 1; d < nd; d++)
            if (!keep[d]) {
                color += t->coords[d] * stride;
                stride *= t->dims[d];
            }
        for (int r = 0; r < c->size; r++) {
            tide_cart_coords_of(nd, t->dims, r, co);
            bool same = true;
            for (int d = 0; d < nd && same; d++)
                if (!keep[d] && co[d] != t->coords[d])
                    same = false;
            if (!same)
                continue;
            if (r == c->rank)
                subrank = n;
            procs[n++] = c->group->procs[r];
        }
        g = tide_group_new(n, procs);
        nt = cart_new(nkeep, sdims, sper, subrank);
        if (!g || !nt)
            rc = tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    }
    free(keep);
    free(sdims);
    free(sper);
    free(co);
    free(procs);
    struct tide_comm *nc = NULL;
    int rc2 = tide_comm_make_split(c, rc == MPI_SUCCESS ? g : NULL, color, subrank, &nc);
    tide_group_release(g);
    if (rc == MPI_SUCCESS)
        rc = rc2;
    if (rc != MPI_SUCCESS) {
        tide_topo_release(nt);
        if (nc)
            tide_comm_release(nc);
        return tide_raise_comm(c, rc);
    }
    nc->topo = nt;
    *newcomm = nc->handle;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Cart_sub)

int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Cart_map";
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "%s: invalid communicator%s (argument comm)", fn,
                        comm == MPI_COMM_NULL ? " MPI_COMM_NULL" : "");
    if (c->is_inter)
        return TIDE_ERR_COMM(c, MPI_ERR_COMM, "%s: comm must be an intracommunicator (argument comm)", fn);
    if (!newrank)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: newrank must not be NULL", fn);
    int points;
    int rc = check_grid(fn, c->size, ndims, dims, periods, &points);
    if (rc != MPI_SUCCESS)
        return tide_raise_comm(c, rc);
    *newrank = c->rank < points ? c->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Cart_map)
