/*
 * type_inquiry.c: questions about a datatype (size, extent, true extent
 * and their MPI-1 and _x forms), addresses (MPI_Get_address, MPI_Address),
 * and what a status says in terms of a datatype (MPI_Get_count,
 * MPI_Get_elements[_x], MPI_Status_set_elements[_x]). A status holds the
 * number of bytes received (tide_nbytes).
 */
#include "runtime/api.h"
#include "datatype/datatype.h"
#include "datatype/engine.h"

#include <limits.h>

#define TYPE_OR_FAIL(fn, h, dt)                                                                \
    struct tide_datatype *dt = tide_datatype_get(h);                                           \
    if (!dt) {                                                                                 \
        if ((h) == MPI_DATATYPE_NULL)                                                          \
            return TIDE_ERR(MPI_ERR_TYPE, "%s: MPI_DATATYPE_NULL is not a datatype (argument datatype)", fn); \
        return TIDE_ERR(MPI_ERR_TYPE, "%s: invalid datatype (argument datatype)", fn);        \
    }
#define NOT_NULL(fn, p, name)                                                                  \
    do {                                                                                       \
        if (!(p))                                                                              \
            return TIDE_ERR(MPI_ERR_ARG, "%s: %s must not be NULL (argument %s)", fn, name, name); \
    } while (0)

int PMPI_Type_size(MPI_Datatype datatype, int *size)
{
    TIDE_API_ENTER();
    TYPE_OR_FAIL("MPI_Type_size", datatype, dt);
    NOT_NULL("MPI_Type_size", size, "size");
    *size = dt->size > INT_MAX ? MPI_UNDEFINED : (int)dt->size;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Type_size)

int PMPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size)
{
    TIDE_API_ENTER();
    TYPE_OR_FAIL("MPI_Type_size_x", datatype, dt);
    NOT_NULL("MPI_Type_size_x", size, "size");
    *size = (MPI_Count)dt->size;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Type_size_x)

int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent)
{
    TIDE_API_ENTER();
    TYPE_OR_FAIL("MPI_Type_get_extent", datatype, dt);
    NOT_NULL("MPI_Type_get_extent", lb, "lb");
    NOT_NULL("MPI_Type_get_extent", extent, "extent");
    *lb = dt->lb;
    *extent = dt->extent;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Type_get_extent)

int PMPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    TIDE_API_ENTER();
    TYPE_OR_FAIL("MPI_Type_get_extent_x", datatype, dt);
    NOT_NULL("MPI_Type_get_extent_x", lb, "lb");
    NOT_NULL("MPI_Type_get_extent_x", extent, "extent");
    *lb = dt->lb;
    *extent = dt->extent;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Type_get_extent_x)

int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent)
{
    TIDE_API_ENTER();
    TYPE_OR_FAIL("MPI_Type_get_true_extent", datatype, dt);
    NOT_NULL("MPI_Type_get_true_extent", true_lb, "true_lb");
    NOT_NULL("MPI_Type_get_true_extent", true_extent, "true_extent");
    *true_lb = dt->true_lb;
    *true_extent = dt->true_ub - dt->true_lb;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Type_get_true_extent)

int PMPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent)
{
    TIDE_API_ENTER();
    TYPE_OR_FAIL("MPI_Type_get_true_extent_x", datatype, dt);
    NOT_NULL("MPI_Type_get_true_extent_x", true_lb, "true_lb");
    NOT_NULL("MPI_Type_get_true_extent_x", true_extent, "true_extent");
    *true_lb = dt->true_lb;
    *true_extent = dt->true_ub - dt->true_lb;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Type_get_true_extent_x)

int PMPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent)
{
    TIDE_API_ENTER();
    TYPE_OR_FAIL("MPI_Type_extent", datatype, dt);
    NOT_NULL("MPI_Type_extent", extent, "extent");
    *extent = dt->extent;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Type_extent)

int PMPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement)
{
    TIDE_API_ENTER();
    TYPE_OR_FAIL("MPI_Type_lb", datatype, dt);
    NOT_NULL("MPI_Type_lb", displacement, "displacement");
    *displacement = dt->lb;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Type_lb)

int PMPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement)
{
    TIDE_API_ENTER();
    TYPE_OR_FAIL("MPI_Type_ub", datatype, dt);
    NOT_NULL("MPI_Type_ub", displacement, "displacement");
    *displacement = dt->ub;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Type_ub)

int PMPI_Get_address(const void *location, MPI_Aint *address)
{
    TIDE_API_ENTER();
    NOT_NULL("MPI_Get_address", address, "address");
    *address = (MPI_Aint)(uintptr_t)location;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Get_address)

int PMPI_Address(void *location, MPI_Aint *address)
{
    TIDE_API_ENTER();
    NOT_NULL("MPI_Address", address, "address");
    *address = (MPI_Aint)(uintptr_t)location;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Address)

/* ---- statuses ---- */

#define STATUS_OR_FAIL(fn, st)                                                                 \
    do {                                                                                       \
        if (!(st) || (st) == MPI_STATUS_IGNORE)                                                \
            return TIDE_ERR(MPI_ERR_ARG, "%s: status must be a status, not %s (argument status)", fn, \
                            (st) ? "MPI_STATUS_IGNORE" : "NULL");                              \
    } while (0)

int PMPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Get_count";
    STATUS_OR_FAIL(fn, status);
    TYPE_OR_FAIL(fn, datatype, dt);
    NOT_NULL(fn, count, "count");
    MPI_Count n = status->tide_nbytes;
    if (dt->size == 0)
        *count = 0;
    else if (n % (MPI_Count)dt->size || n / (MPI_Count)dt->size > INT_MAX)
        *count = MPI_UNDEFINED;
    else
        *count = (int)(n / (MPI_Count)dt->size);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Get_count)

static int get_elements(const char *fn, const MPI_Status *status, MPI_Datatype datatype, MPI_Count *out)
{
    STATUS_OR_FAIL(fn, status);
    TYPE_OR_FAIL(fn, datatype, dt);
    MPI_Count e = tide_datatype_elements(dt, status->tide_nbytes);
    *out = e;
    return MPI_SUCCESS;
}

int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    TIDE_API_ENTER();
    NOT_NULL("MPI_Get_elements", count, "count");
    MPI_Count e;
    int rc = get_elements("MPI_Get_elements", status, datatype, &e);
    if (rc)
        return rc;
    *count = e == MPI_UNDEFINED || e > INT_MAX ? MPI_UNDEFINED : (int)e;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Get_elements)

int PMPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    TIDE_API_ENTER();
    NOT_NULL("MPI_Get_elements_x", count, "count");
    return get_elements("MPI_Get_elements_x", status, datatype, count);
}
TIDE_ALIAS(MPI_Get_elements_x)

static int set_elements(const char *fn, MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    STATUS_OR_FAIL(fn, status);
    TYPE_OR_FAIL(fn, datatype, dt);
    if (count < 0)
        return TIDE_ERR(MPI_ERR_COUNT, "%s: negative count %lld (argument count)", fn, (long long)count);
    MPI_Count bytes = tide_datatype_elements_bytes(dt, count);
    if (bytes < 0)
        return TIDE_ERR(MPI_ERR_ARG, "%s: the datatype holds no basic elements, so count must be 0", fn);
    status->tide_nbytes = bytes;
    return MPI_SUCCESS;
}

int PMPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype, int count)
{
    TIDE_API_ENTER();
    return set_elements("MPI_Status_set_elements", status, datatype, count);
}
TIDE_ALIAS(MPI_Status_set_elements)

int PMPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    TIDE_API_ENTER();
    return set_elements("MPI_Status_set_elements_x", status, datatype, count);
}
TIDE_ALIAS(MPI_Status_set_elements_x)
