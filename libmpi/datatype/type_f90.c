/*
 * type_f90.c: the Fortran 90 parameterized types
 * (MPI_Type_create_f90_integer/real/complex) and MPI_Type_match_size.
 *
 * An F90 type is a predefined type (it cannot be freed) whose envelope is
 * the F90 combiner with (p, r) or (r) as the standard says; it is
 * implemented by the named type of the smallest kind that has the
 * precision and range asked for. The same arguments return the same
 * handle.
 */
#include "runtime/api.h"
#include "datatype/datatype.h"
#include "datatype/engine.h"

#include <stdio.h>
#include <stdlib.h>

struct f90_ent {
    int combiner, p, r;
    struct tide_datatype *dt;
};

static struct f90_ent *cache;
static size_t ncache, capcache;

static int f90_type(const char *fn, int combiner, int p, int r, MPI_Datatype named, MPI_Datatype *newtype)
{
    for (size_t i = 0; i < ncache; i++)
        if (cache[i].combiner == combiner && cache[i].p == p && cache[i].r == r) {
            *newtype = cache[i].dt->handle;
            return MPI_SUCCESS;
        }
    if (ncache == capcache) {
        size_t cap = capcache ? capcache * 2 : 8;
        struct f90_ent *nc = realloc(cache, cap * sizeof *nc);
        if (!nc)
            return TIDE_ERR(MPI_ERR_NO_MEM, "%s: out of memory", fn);
        cache = nc;
        capcache = cap;
    }
    int ni = combiner == MPI_COMBINER_F90_INTEGER ? 1 : 2;
    struct tide_datatype *dt = tide_dt_alloc(combiner, ni, 0, 0);
    if (!dt)
        return TIDE_ERR(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    if (ni == 1) {
        dt->ints[0] = r;
    } else {
        dt->ints[0] = p;
        dt->ints[1] = r;
    }
    dt->inner = tide_datatype_get(named);
    int rc = tide_dt_finish(dt, false, fn);
    if (rc != MPI_SUCCESS)
        return tide_raise(rc);
    dt->predefined = true;
    dt->committed = true;
    dt->contig = dt->inner->contig;
    if (ni == 1)
        snprintf(dt->name, sizeof dt->name, "%.40s (MPI_Type_create_f90_integer(%d))", dt->inner->name, r);
    else
        snprintf(dt->name, sizeof dt->name, "%.40s (%.40s(%d, %d))", dt->inner->name, fn, p, r);
    cache[ncache++] = (struct f90_ent){combiner, p, r, dt};
    *newtype = dt->handle;
    return MPI_SUCCESS;
}

/* the kind of REAL with at least precision p and range r: 4, 8, 16 bytes, or 0 */
static int real_kind(int p, int r)
{
    int pp = p == MPI_UNDEFINED ? 0 : p, rr = r == MPI_UNDEFINED ? 0 : r;
    if (pp <= 6 && rr <= 37)
        return 4;
    if (pp <= 15 && rr <= 307)
        return 8;
    if (pp <= 33 && rr <= 4931)
        return 16;
    return 0;
}

static int check_pr(const char *fn, int p, int r)
{
    if (p == MPI_UNDEFINED && r == MPI_UNDEFINED)
        return TIDE_ERR(MPI_ERR_ARG, "%s: p and r cannot both be MPI_UNDEFINED", fn);
    if ((p < 0 && p != MPI_UNDEFINED) || (r < 0 && r != MPI_UNDEFINED))
        return TIDE_ERR(MPI_ERR_ARG, "%s: p (%d) and r (%d) must be nonnegative or MPI_UNDEFINED", fn, p, r);
    return MPI_SUCCESS;
}

int PMPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Type_create_f90_real";
    int rc = check_pr(fn, p, r);
    if (rc)
        return rc;
    if (!newtype)
        return TIDE_ERR(MPI_ERR_ARG, "%s: newtype must not be NULL (argument newtype)", fn);
    int k = real_kind(p, r);
    if (!k)
        return TIDE_ERR(MPI_ERR_ARG, "%s: no REAL kind has precision %d and range %d", fn, p, r);
    return f90_type(fn, MPI_COMBINER_F90_REAL, p, r, k == 4 ? MPI_REAL4 : k == 8 ? MPI_REAL8 : MPI_REAL16,
                    newtype);
}
TIDE_ALIAS(MPI_Type_create_f90_real)

int PMPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Type_create_f90_complex";
    int rc = check_pr(fn, p, r);
    if (rc)
        return rc;
    if (!newtype)
        return TIDE_ERR(MPI_ERR_ARG, "%s: newtype must not be NULL (argument newtype)", fn);
    int k = real_kind(p, r);
    if (!k)
        return TIDE_ERR(MPI_ERR_ARG, "%s: no COMPLEX kind has precision %d and range %d", fn, p, r);
    return f90_type(fn, MPI_COMBINER_F90_COMPLEX, p, r,
                    k == 4 ? MPI_COMPLEX8 : k == 8 ? MPI_COMPLEX16 : MPI_COMPLEX32, newtype);
}
TIDE_ALIAS(MPI_Type_create_f90_complex)

int PMPI_Type_create_f90_integer(int r, MPI_Datatype *newtype)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Type_create_f90_integer";
    if (r < 0 || r == MPI_UNDEFINED)
        return TIDE_ERR(MPI_ERR_ARG, "%s: r must be nonnegative, not %d (argument r)", fn, r);
    if (!newtype)
        return TIDE_ERR(MPI_ERR_ARG, "%s: newtype must not be NULL (argument newtype)", fn);
    MPI_Datatype named = r <= 2    ? MPI_INTEGER1
                         : r <= 4  ? MPI_INTEGER2
                         : r <= 9  ? MPI_INTEGER4
                         : r <= 18 ? MPI_INTEGER8
                         : r <= 38 ? MPI_INTEGER16
                                   : MPI_DATATYPE_NULL;
    if (named == MPI_DATATYPE_NULL)
        return TIDE_ERR(MPI_ERR_ARG, "%s: no INTEGER kind has range %d", fn, r);
    return f90_type(fn, MPI_COMBINER_F90_INTEGER, MPI_UNDEFINED, r, named, newtype);
}
TIDE_ALIAS(MPI_Type_create_f90_integer)

int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Type_match_size";
    if (!datatype)
        return TIDE_ERR(MPI_ERR_ARG, "%s: datatype must not be NULL (argument datatype)", fn);
    MPI_Datatype t = MPI_DATATYPE_NULL;
    switch (typeclass) {
    case MPI_TYPECLASS_REAL:
        t = size == 4 ? MPI_REAL4 : size == 8 ? MPI_REAL8 : size == 16 ? MPI_REAL16 : size == 2 ? MPI_REAL2
                                                                                               : MPI_DATATYPE_NULL;
        break;
    case MPI_TYPECLASS_INTEGER:
        t = size == 1 ? MPI_INTEGER1 : size == 2 ? MPI_INTEGER2 : size == 4 ? MPI_INTEGER4
            : size == 8 ? MPI_INTEGER8 : size == 16 ? MPI_INTEGER16 : MPI_DATATYPE_NULL;
        break;
    case MPI_TYPECLASS_COMPLEX:
        t = size == 8 ? MPI_COMPLEX8 : size == 16 ? MPI_COMPLEX16 : size == 32 ? MPI_COMPLEX32
                                                                               : MPI_DATATYPE_NULL;
        break;
    default:
        return TIDE_ERR(MPI_ERR_ARG, "%s: typeclass %d is not MPI_TYPECLASS_REAL, _INTEGER or _COMPLEX (argument typeclass)",
                        fn, typeclass);
    }
    if (t == MPI_DATATYPE_NULL)
        return TIDE_ERR(MPI_ERR_ARG, "%s: no predefined type of this class has size %d (argument size)", fn, size);
    *datatype = t;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Type_match_size)

void tide_dt_f90_finalize(void)
{
    for (size_t i = 0; i < ncache; i++)
        tide_dt_destroy(cache[i].dt);
    free(cache);
    cache = NULL;
    ncache = capcache = 0;
}
