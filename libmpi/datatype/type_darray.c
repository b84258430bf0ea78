/*
 * type_darray.c: MPI_Type_create_subarray and MPI_Type_create_darray.
 *
 * Both are built, dimension by dimension from the fastest-varying one, out
 * of internal hvector/struct/resized types exactly as MPI-2.2 section
 * 4.1.3/4.1.4 defines them: each dimension's type is resized to the
 * dimension's full extent, so the next one repeats it at the right
 * stride; the result has lb 0 and the extent of the whole global array.
 * The user sees the subarray/darray combiner and its arguments; the
 * equivalent internal type (dt->inner) is what the engine walks.
 */
#include "runtime/api.h"
#include "datatype/datatype.h"
#include "datatype/engine.h"

#include <stdlib.h>
#include <string.h>

/* t placed at displacement d (a struct of one block); consumes our reference to t */
static int place(struct tide_datatype **t, MPI_Aint d)
{
    size_t one = 1;
    struct tide_datatype *r;
    int rc = tide_dt_struct(1, &one, &d, t, &r);
    tide_datatype_release(*t);
    *t = rc == MPI_SUCCESS ? r : NULL;
    return rc;
}

static int resize(struct tide_datatype **t, MPI_Aint lb, MPI_Aint extent)
{
    struct tide_datatype *r;
    int rc = tide_dt_resized(*t, lb, extent, &r);
    tide_datatype_release(*t);
    *t = rc == MPI_SUCCESS ? r : NULL;
    return rc;
}

/* count blocks of bl copies of t, stride in bytes; keeps our reference to t */
static int hvec(struct tide_datatype *t, size_t count, size_t bl, MPI_Aint stride, struct tide_datatype **out)
{
    return tide_dt_hvector(count, bl, stride, t, out);
}

static int get_old(MPI_Datatype h, const char *fn, struct tide_datatype **out)
{
    struct tide_datatype *dt = tide_datatype_get(h);
    if (!dt) {
        if (h == MPI_DATATYPE_NULL)
            return TIDE_ERR(MPI_ERR_TYPE, "%s: MPI_DATATYPE_NULL is not a datatype (argument oldtype)", fn);
        return TIDE_ERR(MPI_ERR_TYPE, "%s: invalid datatype (argument oldtype)", fn);
    }
    *out = dt;
    return MPI_SUCCESS;
}

/* The user's type: the combiner and its arguments (ints, and for the
 * large-count forms the large counts), implemented by inner. */
static int publish(const char *fn, int combiner, int ni, const int *ints, size_t nc, const MPI_Count *counts,
                   MPI_Datatype oldtype, struct tide_datatype *old, struct tide_datatype *inner,
                   MPI_Datatype *newtype)
{
    struct tide_datatype *dt = tide_dt_alloc_c(combiner, ni, 0, nc, 1);
    if (!dt) {
        tide_datatype_release(inner);
        return TIDE_ERR(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    }
    memcpy(dt->ints, ints, (size_t)ni * sizeof(int));
    if (nc)
        memcpy(dt->counts, counts, nc * sizeof(MPI_Count));
    dt->types[0] = oldtype;
    dt->olds[0] = old;
    dt->inner = inner;
    int rc = tide_dt_finish(dt, false, fn);
    if (rc != MPI_SUCCESS)
        return tide_raise(rc);
    *newtype = dt->handle;
    return MPI_SUCCESS;
}

/* n ints as MPI_Count (the int forms share the large-count code); NULL if out of memory */
static MPI_Count *widen(const int *a, int n)
{
    MPI_Count *w = malloc((size_t)(n > 0 ? n : 1) * sizeof *w);
    if (w)
        for (int i = 0; i < n; i++)
            w[i] = a[i];
    return w;
}

static int mul_aint(MPI_Aint a, MPI_Aint b, MPI_Aint *out)
{
    return __builtin_mul_overflow(a, b, out) ? -1 : 0;
}

int tide_dt_subarray(const char *fn, bool large, int ndims, const MPI_Count array_of_sizes[],
                     const MPI_Count array_of_subsizes[], const MPI_Count array_of_starts[], int order,
                     MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    if (ndims <= 0)
        return TIDE_ERR(MPI_ERR_ARG, "%s: ndims must be positive, not %d (argument ndims)", fn, ndims);
    if (!array_of_sizes || !array_of_subsizes || !array_of_starts)
        return TIDE_ERR(MPI_ERR_ARG, "%s: array_of_sizes, array_of_subsizes and array_of_starts must not be NULL", fn);
    for (int i = 0; i < ndims; i++) {
        if (array_of_sizes[i] < 1)
            return TIDE_ERR(MPI_ERR_ARG, "%s: array_of_sizes[%d] is %lld; it must be positive", fn, i, array_of_sizes[i]);
        if (array_of_subsizes[i] < 1 || array_of_subsizes[i] > array_of_sizes[i])
            return TIDE_ERR(MPI_ERR_ARG, "%s: array_of_subsizes[%d] is %lld; it must be in 1..%lld (array_of_sizes[%d])",
                            fn, i, array_of_subsizes[i], array_of_sizes[i], i);
        if (array_of_starts[i] < 0 || array_of_starts[i] > array_of_sizes[i] - array_of_subsizes[i])
            return TIDE_ERR(MPI_ERR_ARG, "%s: array_of_starts[%d] is %lld; it must be in 0..%lld", fn, i,
                            array_of_starts[i], array_of_sizes[i] - array_of_subsizes[i]);
    }
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return TIDE_ERR(MPI_ERR_ARG, "%s: order must be MPI_ORDER_C or MPI_ORDER_FORTRAN, not %d (argument order)",
                        fn, order);
    struct tide_datatype *old;
    int rc = get_old(oldtype, fn, &old);
    if (rc)
        return rc;
    if (!newtype)
        return TIDE_ERR(MPI_ERR_ARG, "%s: newtype must not be NULL (argument newtype)", fn);
    if (ndims > (INT32_MAX - 2) / 3)
        return TIDE_ERR(MPI_ERR_ARG, "%s: ndims %d is too large (argument ndims)", fn, ndims);

    /* dimensions from the fastest varying: C order is last to first */
    MPI_Aint stride = old->extent, disp = 0;
    struct tide_datatype *t = old;
    tide_datatype_retain(t);
    for (int k = 0; k < ndims; k++) {
        int i = order == MPI_ORDER_C ? ndims - 1 - k : k;
        struct tide_datatype *n;
        rc = hvec(t, (size_t)array_of_subsizes[i], 1, stride, &n);
        tide_datatype_release(t);
        if (rc)
            return tide_raise(rc);
        t = n;
        MPI_Aint sd;
        if (mul_aint(array_of_starts[i], stride, &sd) || __builtin_add_overflow(disp, sd, &disp) ||
            mul_aint(stride, array_of_sizes[i], &stride)) {
            tide_datatype_release(t);
            return TIDE_ERR(MPI_ERR_ARG, "%s: the array is larger than the address space", fn);
        }
    }
    if ((rc = place(&t, disp)) || (rc = resize(&t, 0, stride)))
        return tide_raise(rc);

    int rc2;
    if (large) {
        int ints[2] = {ndims, order};
        MPI_Count *counts = malloc(3 * (size_t)ndims * sizeof *counts);
        if (!counts) {
            tide_datatype_release(t);
            return TIDE_ERR(MPI_ERR_NO_MEM, "%s: out of memory", fn);
        }
        memcpy(counts, array_of_sizes, (size_t)ndims * sizeof(MPI_Count));
        memcpy(counts + ndims, array_of_subsizes, (size_t)ndims * sizeof(MPI_Count));
        memcpy(counts + 2 * ndims, array_of_starts, (size_t)ndims * sizeof(MPI_Count));
        rc2 = publish(fn, MPI_COMBINER_SUBARRAY, 2, ints, 3 * (size_t)ndims, counts, oldtype, old, t, newtype);
        free(counts);
        return rc2;
    }
    int ni = 3 * ndims + 2, *ints = malloc((size_t)ni * sizeof *ints);
    if (!ints) {
        tide_datatype_release(t);
        return TIDE_ERR(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    }
    ints[0] = ndims;
    for (int i = 0; i < ndims; i++) { /* the int form's arguments were ints */
        ints[1 + i] = (int)array_of_sizes[i];
        ints[1 + ndims + i] = (int)array_of_subsizes[i];
        ints[1 + 2 * ndims + i] = (int)array_of_starts[i];
    }
    ints[ni - 1] = order;
    rc2 = publish(fn, MPI_COMBINER_SUBARRAY, ni, ints, 0, NULL, oldtype, old, t, newtype);
    free(ints);
    return rc2;
}

int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int array_of_subsizes[],
                              const int array_of_starts[], int order, MPI_Datatype oldtype,
                              MPI_Datatype *newtype)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Type_create_subarray";
    if (ndims <= 0)
        return TIDE_ERR(MPI_ERR_ARG, "%s: ndims must be positive, not %d (argument ndims)", fn, ndims);
    if (!array_of_sizes || !array_of_subsizes || !array_of_starts)
        return TIDE_ERR(MPI_ERR_ARG, "%s: array_of_sizes, array_of_subsizes and array_of_starts must not be NULL", fn);
    MPI_Count *sizes = widen(array_of_sizes, ndims), *subsizes = widen(array_of_subsizes, ndims),
              *starts = widen(array_of_starts, ndims);
    int rc = sizes && subsizes && starts
                 ? tide_dt_subarray(fn, false, ndims, sizes, subsizes, starts, order, oldtype, newtype)
                 : TIDE_ERR(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    free(sizes);
    free(subsizes);
    free(starts);
    return rc;
}
TIDE_ALIAS(MPI_Type_create_subarray)

/* One dimension of a darray: the local part of a dimension of g elements
 * of t (extent e) for process coordinate c of p. */
static int darray_dim(struct tide_datatype **t, MPI_Aint e, MPI_Count g, int distrib, int darg, int p, int c)
{
    struct tide_datatype *in = *t, *n = NULL;
    int rc;
    if (distrib == MPI_DISTRIBUTE_NONE) {
        distrib = MPI_DISTRIBUTE_BLOCK;
        darg = g;
        p = 1;
        c = 0;
    }
    if (distrib == MPI_DISTRIBUTE_BLOCK) {
        long long blk = darg == MPI_DISTRIBUTE_DFLT_DARG ? ((long long)g + p - 1) / p : darg;
        long long start = (long long)c * blk, len = (long long)g - start;
        if (len > blk)
            len = blk;
        if (len < 0)
            len = 0;
        if ((rc = hvec(in, 1, (size_t)len, e, &n)))
            return rc;
        tide_datatype_release(in);
        *t = n;
        if ((rc = place(t, (MPI_Aint)start * e)))
            return rc;
    } else { /* cyclic */
        long long b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
        long long nblocks = ((long long)g + b - 1) / b;
        long long nloc = c < nblocks ? (nblocks - c + p - 1) / p : 0;
        long long klast = c + (nloc - 1) * (long long)p;
        long long lastlen = nloc ? (long long)g - klast * b : 0;
        if (lastlen > b)
            lastlen = b;
        MPI_Aint stride = (MPI_Aint)(p * b) * e;
        if (nloc == 0 || lastlen == b) {
            if ((rc = hvec(in, (size_t)nloc, (size_t)b, stride, &n)))
                return rc;
            tide_datatype_release(in);
            *t = n;
            if ((rc = place(t, (MPI_Aint)(c * b) * e)))
                return rc;
        } else {
            struct tide_datatype *full, *last;
            if ((rc = hvec(in, (size_t)(nloc - 1), (size_t)b, stride, &full)))
                return rc;
            if ((rc = hvec(in, 1, (size_t)lastlen, e, &last))) {
                tide_datatype_release(full);
                return rc;
            }
            size_t bl[2] = {1, 1};
            MPI_Aint d[2] = {(MPI_Aint)(c * b) * e, (MPI_Aint)(klast * b) * e};
            struct tide_datatype *ts[2] = {full, last};
            rc = tide_dt_struct(2, bl, d, ts, &n);
            tide_datatype_release(full);
            tide_datatype_release(last);
            if (rc)
                return rc;
            tide_datatype_release(in);
            *t = n;
        }
    }
    return resize(t, 0, (MPI_Aint)g * e);
}

int tide_dt_darray(const char *fn, bool large, int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                   const int array_of_distribs[], const int array_of_dargs[], const int array_of_psizes[],
                   int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    if (size < 1)
        return TIDE_ERR(MPI_ERR_ARG, "%s: size must be positive, not %d (argument size)", fn, size);
    if (rank < 0 || rank >= size)
        return TIDE_ERR(MPI_ERR_ARG, "%s: rank %d is not in 0..%d (argument rank)", fn, rank, size - 1);
    if (ndims <= 0)
        return TIDE_ERR(MPI_ERR_ARG, "%s: ndims must be positive, not %d (argument ndims)", fn, ndims);
    if (!array_of_gsizes || !array_of_distribs || !array_of_dargs || !array_of_psizes)
        return TIDE_ERR(MPI_ERR_ARG, "%s: the array arguments must not be NULL", fn);
    long long procs = 1;
    for (int i = 0; i < ndims; i++) {
        MPI_Count g = array_of_gsizes[i];
        int ds = array_of_distribs[i], da = array_of_dargs[i], p = array_of_psizes[i];
        if (g < 1)
            return TIDE_ERR(MPI_ERR_ARG, "%s: array_of_gsizes[%d] is %lld; it must be positive", fn, i, g);
        if (p < 1)
            return TIDE_ERR(MPI_ERR_ARG, "%s: array_of_psizes[%d] is %d; it must be positive", fn, i, p);
        if (ds != MPI_DISTRIBUTE_BLOCK && ds != MPI_DISTRIBUTE_CYCLIC && ds != MPI_DISTRIBUTE_NONE)
            return TIDE_ERR(MPI_ERR_ARG, "%s: array_of_distribs[%d] is %d, not MPI_DISTRIBUTE_BLOCK, _CYCLIC or _NONE",
                            fn, i, ds);
        if (da != MPI_DISTRIBUTE_DFLT_DARG && da < 1)
            return TIDE_ERR(MPI_ERR_ARG, "%s: array_of_dargs[%d] is %d; it must be positive or MPI_DISTRIBUTE_DFLT_DARG",
                            fn, i, da);
        if (ds == MPI_DISTRIBUTE_NONE && p != 1)
            return TIDE_ERR(MPI_ERR_ARG, "%s: dimension %d is not distributed (MPI_DISTRIBUTE_NONE) but array_of_psizes[%d] is %d, not 1",
                            fn, i, i, p);
        if (ds == MPI_DISTRIBUTE_BLOCK && da != MPI_DISTRIBUTE_DFLT_DARG && (long long)da * p < g)
            return TIDE_ERR(MPI_ERR_ARG, "%s: dimension %d: blocks of %d over %d processes cover %lld of the %lld elements (array_of_dargs[%d] * array_of_psizes[%d] < array_of_gsizes[%d])",
                            fn, i, da, p, (long long)da * p, g, i, i, i);
        procs *= p;
        if (procs > size)
            break;
    }
    if (procs != size)
        return TIDE_ERR(MPI_ERR_ARG, "%s: the process grid (array_of_psizes) has %s%lld processes but size is %d",
                        fn, procs > size ? "at least " : "", procs, size);
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return TIDE_ERR(MPI_ERR_ARG, "%s: order must be MPI_ORDER_C or MPI_ORDER_FORTRAN, not %d (argument order)",
                        fn, order);
    struct tide_datatype *old;
    int rc = get_old(oldtype, fn, &old);
    if (rc)
        return rc;
    if (!newtype)
        return TIDE_ERR(MPI_ERR_ARG, "%s: newtype must not be NULL (argument newtype)", fn);
    if (ndims > (INT32_MAX - 4) / 4)
        return TIDE_ERR(MPI_ERR_ARG, "%s: ndims %d is too large (argument ndims)", fn, ndims);
    MPI_Aint total = old->extent;
    for (int i = 0; i < ndims; i++)
        if (mul_aint(total, array_of_gsizes[i], &total))
            return TIDE_ERR(MPI_ERR_ARG, "%s: the array is larger than the address space", fn);

    /* process coordinates: row-major in the grid, whatever the order */
    int *coords = malloc((size_t)ndims * sizeof *coords);
    if (!coords)
        return TIDE_ERR(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    int r = rank;
    for (int i = ndims - 1; i >= 0; i--) {
        coords[i] = r % array_of_psizes[i];
        r /= array_of_psizes[i];
    }
    struct tide_datatype *t = old;
    tide_datatype_retain(t);
    MPI_Aint e = old->extent;
    for (int k = 0; k < ndims; k++) {
        int i = order == MPI_ORDER_C ? ndims - 1 - k : k;
        rc = darray_dim(&t, e, array_of_gsizes[i], array_of_distribs[i], array_of_dargs[i], array_of_psizes[i],
                        coords[i]);
        if (rc) {
            if (t)
                tide_datatype_release(t);
            free(coords);
            return tide_raise(rc);
        }
        e *= array_of_gsizes[i];
    }
    free(coords);

    int ni = large ? 3 * ndims + 4 : 4 * ndims + 4, *ints = malloc((size_t)ni * sizeof *ints);
    if (!ints) {
        tide_datatype_release(t);
        return TIDE_ERR(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    }
    /* size, rank, ndims, [gsizes,] distribs, dargs, psizes, order: the
     * large-count form has gsizes among its large counts instead */
    int *ip = ints;
    *ip++ = size;
    *ip++ = rank;
    *ip++ = ndims;
    if (!large)
        for (int i = 0; i < ndims; i++)
            *ip++ = (int)array_of_gsizes[i]; /* the int form's arguments were ints */
    memcpy(ip, array_of_distribs, (size_t)ndims * sizeof(int));
    memcpy(ip + ndims, array_of_dargs, (size_t)ndims * sizeof(int));
    memcpy(ip + 2 * ndims, array_of_psizes, (size_t)ndims * sizeof(int));
    ints[ni - 1] = order;
    rc = publish(fn, MPI_COMBINER_DARRAY, ni, ints, large ? (size_t)ndims : 0, array_of_gsizes, oldtype, old, t,
                 newtype);
    free(ints);
    return rc;
}

int PMPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
                            const int array_of_distribs[], const int array_of_dargs[],
                            const int array_of_psizes[], int order, MPI_Datatype oldtype,
                            MPI_Datatype *newtype)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Type_create_darray";
    if (ndims <= 0)
        return TIDE_ERR(MPI_ERR_ARG, "%s: ndims must be positive, not %d (argument ndims)", fn, ndims);
    if (!array_of_gsizes)
        return TIDE_ERR(MPI_ERR_ARG, "%s: the array arguments must not be NULL", fn);
    MPI_Count *gsizes = widen(array_of_gsizes, ndims);
    if (!gsizes)
        return TIDE_ERR(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    int rc = tide_dt_darray(fn, false, size, rank, ndims, gsizes, array_of_distribs, array_of_dargs,
                            array_of_psizes, order, oldtype, newtype);
    free(gsizes);
    return rc;
}
TIDE_ALIAS(MPI_Type_create_darray)
