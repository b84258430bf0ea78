/*
 * type_create_c.c: the large-count datatype constructors of MPI-4.0
 * (MPI_Type_contiguous_c ... MPI_Type_create_resized_c). Their counts,
 * block lengths and displacements are kept as MPI_Count (the type's
 * large counts, in the order MPI_Type_get_contents_c returns them), and
 * the size, bounds and engine program are computed from them exactly as
 * for the int constructors (tide_dt_arg reads either form), so a type may
 * hold more than INT_MAX elements. Subarray and darray share the
 * construction of type_darray.c.
 */
#include "runtime/api.h"
#include "datatype/datatype.h"
#include "datatype/engine.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static int get_type(MPI_Datatype h, const char *fn, const char *arg, struct tide_datatype **out)
{
    struct tide_datatype *dt = tide_datatype_get(h);
    if (!dt) {
        if (h == MPI_DATATYPE_NULL)
            return TIDE_ERR(MPI_ERR_TYPE, "%s: MPI_DATATYPE_NULL is not a datatype (argument %s)", fn, arg);
        return TIDE_ERR(MPI_ERR_TYPE, "%s: invalid datatype (argument %s)", fn, arg);
    }
    *out = dt;
    return MPI_SUCCESS;
}

/* The checks every constructor makes: count >= 0, each array present
 * when count > 0, oldtype valid (when named), newtype not NULL. */
static int check_common(const char *fn, MPI_Count count, const void *a1, const char *n1, const void *a2,
                        const char *n2, MPI_Datatype oldtype, struct tide_datatype **old, MPI_Datatype *newtype)
{
    if (count < 0)
        return TIDE_ERR(MPI_ERR_COUNT, "%s: negative count %lld (argument count)", fn, count);
    if (count > 0 && n1 && !a1)
        return TIDE_ERR(MPI_ERR_ARG, "%s: %s must not be NULL (argument %s)", fn, n1, n1);
    if (count > 0 && n2 && !a2)
        return TIDE_ERR(MPI_ERR_ARG, "%s: %s must not be NULL (argument %s)", fn, n2, n2);
    if (old) {
        int rc = get_type(oldtype, fn, "oldtype", old);
        if (rc)
            return rc;
    }
    if (!newtype)
        return TIDE_ERR(MPI_ERR_ARG, "%s: newtype must not be NULL (argument newtype)", fn);
    return MPI_SUCCESS;
}

static int check_blocklength(const char *fn, MPI_Count bl)
{
    if (bl < 0)
        return TIDE_ERR(MPI_ERR_ARG, "%s: negative blocklength %lld (argument blocklength)", fn, bl);
    return MPI_SUCCESS;
}

static int check_blocklengths(const char *fn, MPI_Count count, const MPI_Count *bl)
{
    for (MPI_Count i = 0; i < count; i++)
        if (bl[i] < 0)
            return TIDE_ERR(MPI_ERR_ARG, "%s: array_of_blocklengths[%lld] is negative (%lld)", fn, i, bl[i]);
    return MPI_SUCCESS;
}

/* nc = k * count + extra large counts, or an error if that many cannot be kept */
static int counts_needed(const char *fn, MPI_Count count, size_t k, size_t extra, size_t *nc)
{
    if ((unsigned long long)count > SIZE_MAX / sizeof(MPI_Count) / (k + 1) ||
        __builtin_mul_overflow((size_t)count, k, nc) || __builtin_add_overflow(*nc, extra, nc))
        return TIDE_ERR(MPI_ERR_COUNT, "%s: count %lld is too large (argument count)", fn, count);
    return MPI_SUCCESS;
}

/* A new large-count type of one old type, or NULL (error raised in *rc). */
static struct tide_datatype *new_type(const char *fn, int combiner, size_t nc, MPI_Datatype oldtype,
                                      struct tide_datatype *old, int *rc)
{
    struct tide_datatype *dt = tide_dt_alloc_c(combiner, 0, 0, nc, 1);
    if (!dt) {
        *rc = TIDE_ERR(MPI_ERR_NO_MEM, "%s: out of memory", fn);
        return NULL;
    }
    dt->types[0] = oldtype;
    dt->olds[0] = old;
    return dt;
}

static int publish(struct tide_datatype *dt, const char *fn, MPI_Datatype *newtype)
{
    int rc = tide_dt_finish(dt, false, fn);
    if (rc != MPI_SUCCESS)
        return tide_raise(rc);
    *newtype = dt->handle;
    return MPI_SUCCESS;
}

int PMPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Type_contiguous_c";
    struct tide_datatype *old;
    int rc = check_common(fn, count, NULL, NULL, NULL, NULL, oldtype, &old, newtype);
    if (rc)
        return rc;
    struct tide_datatype *dt = new_type(fn, MPI_COMBINER_CONTIGUOUS, 1, oldtype, old, &rc);
    if (!dt)
        return rc;
    dt->counts[0] = count;
    return publish(dt, fn, newtype);
}
TIDE_ALIAS(MPI_Type_contiguous_c)

static int vector(const char *fn, int combiner, MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                  MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    struct tide_datatype *old;
    int rc = check_common(fn, count, NULL, NULL, NULL, NULL, oldtype, &old, newtype);
    if (rc || (rc = check_blocklength(fn, blocklength)))
        return rc;
    struct tide_datatype *dt = new_type(fn, combiner, 3, oldtype, old, &rc);
    if (!dt)
        return rc;
    dt->counts[0] = count;
    dt->counts[1] = blocklength;
    dt->counts[2] = stride;
    return publish(dt, fn, newtype);
}

int PMPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                       MPI_Datatype *newtype)
{
    TIDE_API_ENTER();
    return vector("MPI_Type_vector_c", MPI_COMBINER_VECTOR, count, blocklength, stride, oldtype, newtype);
}
TIDE_ALIAS(MPI_Type_vector_c)

int PMPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                               MPI_Datatype *newtype)
{
    TIDE_API_ENTER();
    return vector("MPI_Type_create_hvector_c", MPI_COMBINER_HVECTOR, count, blocklength, stride, oldtype,
                  newtype);
}
TIDE_ALIAS(MPI_Type_create_hvector_c)

/* indexed and hindexed: count, blocklengths[count], displacements[count] */
static int indexed(const char *fn, int combiner, MPI_Count count, const MPI_Count *bl, const MPI_Count *disp,
                   MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    struct tide_datatype *old;
    size_t nc = 0;
    int rc = check_common(fn, count, bl, "array_of_blocklengths", disp, "array_of_displacements", oldtype, &old,
                          newtype);
    if (rc || (rc = check_blocklengths(fn, count, bl)) || (rc = counts_needed(fn, count, 2, 1, &nc)))
        return rc;
    struct tide_datatype *dt = new_type(fn, combiner, nc, oldtype, old, &rc);
    if (!dt)
        return rc;
    dt->counts[0] = count;
    if (count) {
        memcpy(dt->counts + 1, bl, (size_t)count * sizeof(MPI_Count));
        memcpy(dt->counts + 1 + count, disp, (size_t)count * sizeof(MPI_Count));
    }
    return publish(dt, fn, newtype);
}

int PMPI_Type_indexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                        const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    TIDE_API_ENTER();
    return indexed("MPI_Type_indexed_c", MPI_COMBINER_INDEXED, count, array_of_blocklengths,
                   array_of_displacements, oldtype, newtype);
}
TIDE_ALIAS(MPI_Type_indexed_c)

int PMPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                MPI_Datatype *newtype)
{
    TIDE_API_ENTER();
    return indexed("MPI_Type_create_hindexed_c", MPI_COMBINER_HINDEXED, count, array_of_blocklengths,
                   array_of_displacements, oldtype, newtype);
}
TIDE_ALIAS(MPI_Type_create_hindexed_c)

/* indexed_block and hindexed_block: count, blocklength, displacements[count] */
static int indexed_block(const char *fn, int combiner, MPI_Count count, MPI_Count blocklength,
                         const MPI_Count *disp, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    struct tide_datatype *old;
    size_t nc = 0;
    int rc = check_common(fn, count, disp, "array_of_displacements", NULL, NULL, oldtype, &old, newtype);
    if (rc || (rc = check_blocklength(fn, blocklength)) || (rc = counts_needed(fn, count, 1, 2, &nc)))
        return rc;
    struct tide_datatype *dt = new_type(fn, combiner, nc, oldtype, old, &rc);
    if (!dt)
        return rc;
    dt->counts[0] = count;
    dt->counts[1] = blocklength;
    if (count)
        memcpy(dt->counts + 2, disp, (size_t)count * sizeof(MPI_Count));
    return publish(dt, fn, newtype);
}

int PMPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
                                     const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                     MPI_Datatype *newtype)
{
    TIDE_API_ENTER();
    return indexed_block("MPI_Type_create_indexed_block_c", MPI_COMBINER_INDEXED_BLOCK, count, blocklength,
                         array_of_displacements, oldtype, newtype);
}
TIDE_ALIAS(MPI_Type_create_indexed_block_c)

int PMPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
                                      const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                      MPI_Datatype *newtype)
{
    TIDE_API_ENTER();
    return indexed_block("MPI_Type_create_hindexed_block_c", MPI_COMBINER_HINDEXED_BLOCK, count, blocklength,
                         array_of_displacements, oldtype, newtype);
}
TIDE_ALIAS(MPI_Type_create_hindexed_block_c)

int PMPI_Type_create_struct_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                              const MPI_Count array_of_displacements[], const MPI_Datatype array_of_types[],
                              MPI_Datatype *newtype)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Type_create_struct_c";
    size_t nc = 0;
    int rc = check_common(fn, count, array_of_blocklengths, "array_of_blocklengths", array_of_displacements,
                          "array_of_displacements", MPI_DATATYPE_NULL, NULL, newtype);
    if (rc || (rc = check_blocklengths(fn, count, array_of_blocklengths)))
        return rc;
    if (count > 0 && !array_of_types)
        return TIDE_ERR(MPI_ERR_ARG, "%s: array_of_types must not be NULL (argument array_of_types)", fn);
    for (MPI_Count i = 0; i < count; i++)
        if (!tide_datatype_get(array_of_types[i]))
            return TIDE_ERR(MPI_ERR_TYPE, "%s: array_of_types[%lld] is %s", fn, i,
                            array_of_types[i] == MPI_DATATYPE_NULL ? "MPI_DATATYPE_NULL" : "not a valid datatype");
    /* one datatype handle per block: the envelope counts them in an int */
    if (count > INT_MAX)
        return TIDE_ERR(MPI_ERR_COUNT, "%s: count %lld is too large (argument count; at most %d types)", fn, count,
                        INT_MAX);
    if ((rc = counts_needed(fn, count, 2, 1, &nc)))
        return rc;
    struct tide_datatype *dt = tide_dt_alloc_c(MPI_COMBINER_STRUCT, 0, 0, nc, (int)count);
    if (!dt)
        return TIDE_ERR(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    dt->counts[0] = count;
    for (MPI_Count i = 0; i < count; i++) {
        dt->counts[1 + i] = array_of_blocklengths[i];
        dt->counts[1 + count + i] = array_of_displacements[i];
        dt->types[i] = array_of_types[i];
        dt->olds[i] = tide_datatype_get(array_of_types[i]);
    }
    return publish(dt, fn, newtype);
}
TIDE_ALIAS(MPI_Type_create_struct_c)

int PMPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent, MPI_Datatype *newtype)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Type_create_resized_c";
    struct tide_datatype *old;
    int rc = check_common(fn, 0, NULL, NULL, NULL, NULL, oldtype, &old, newtype);
    if (rc)
        return rc;
    struct tide_datatype *dt = new_type(fn, MPI_COMBINER_RESIZED, 2, oldtype, old, &rc);
    if (!dt)
        return rc;
    dt->counts[0] = lb;
    dt->counts[1] = extent;
    return publish(dt, fn, newtype);
}
TIDE_ALIAS(MPI_Type_create_resized_c)

int PMPI_Type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[], const MPI_Count array_of_subsizes[],
                                const MPI_Count array_of_starts[], int order, MPI_Datatype oldtype,
                                MPI_Datatype *newtype)
{
    TIDE_API_ENTER();
    return tide_dt_subarray("MPI_Type_create_subarray_c", true, ndims, array_of_sizes, array_of_subsizes,
                            array_of_starts, order, oldtype, newtype);
}
TIDE_ALIAS(MPI_Type_create_subarray_c)

int PMPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                              const int array_of_distribs[], const int array_of_dargs[], const int array_of_psizes[],
                              int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    TIDE_API_ENTER();
    return tide_dt_darray("MPI_Type_create_darray_c", true, size, rank, ndims, array_of_gsizes, array_of_distribs,
                          array_of_dargs, array_of_psizes, order, oldtype, newtype);
}
TIDE_ALIAS(MPI_Type_create_darray_c)
