/*
 * type_inquiry_c.c: the large-count inquiries of MPI-4.0: a datatype's
 * size and extents (MPI_Type_size_c, MPI_Type_get_extent_c,
 * MPI_Type_get_true_extent_c) and what a status holds in terms of a
 * datatype (MPI_Get_count_c, MPI_Get_elements_c), undefined only when the
 * data is not a whole number of elements, never for its size.
 */
#include "runtime/api.h"
#include "datatype/datatype.h"

static struct tide_datatype *get(const char *fn, MPI_Datatype h, int *rc)
{
    struct tide_datatype *dt = tide_datatype_get(h);
    if (!dt)
        *rc = TIDE_ERR(MPI_ERR_TYPE, "%s: %s (argument datatype)", fn,
                       h == MPI_DATATYPE_NULL ? "MPI_DATATYPE_NULL is not a datatype" : "invalid datatype");
    return dt;
}

int PMPI_Type_size_c(MPI_Datatype datatype, MPI_Count *size)
{
    TIDE_API_ENTER();
    int rc;
    struct tide_datatype *dt = get("MPI_Type_size_c", datatype, &rc);
    if (!dt)
        return rc;
    if (!size)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Type_size_c: size must not be NULL (argument size)");
    *size = (MPI_Count)dt->size;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Type_size_c)

int PMPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    TIDE_API_ENTER();
    int rc;
    struct tide_datatype *dt = get("MPI_Type_get_extent_c", datatype, &rc);
    if (!dt)
        return rc;
    if (!lb || !extent)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Type_get_extent_c: lb and extent must not be NULL (arguments lb, extent)");
    *lb = dt->lb;
    *extent = dt->extent;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Type_get_extent_c)

int PMPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent)
{
    TIDE_API_ENTER();
    int rc;
    struct tide_datatype *dt = get("MPI_Type_get_true_extent_c", datatype, &rc);
    if (!dt)
        return rc;
    if (!true_lb || !true_extent)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Type_get_true_extent_c: true_lb and true_extent must not be NULL "
                                     "(arguments true_lb, true_extent)");
    *true_lb = dt->true_lb;
    *true_extent = dt->true_ub - dt->true_lb;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Type_get_true_extent_c)

static int check_status(const char *fn, const MPI_Status *status, void *count)
{
    if (!status || status == MPI_STATUS_IGNORE)
        return TIDE_ERR(MPI_ERR_ARG, "%s: status must be a status, not %s (argument status)", fn,
                        status ? "MPI_STATUS_IGNORE" : "NULL");
    if (!count)
        return TIDE_ERR(MPI_ERR_ARG, "%s: count must not be NULL (argument count)", fn);
    return MPI_SUCCESS;
}

int PMPI_Get_count_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Get_count_c";
    int rc = check_status(fn, status, count);
    if (rc)
        return rc;
    struct tide_datatype *dt = get(fn, datatype, &rc);
    if (!dt)
        return rc;
    MPI_Count n = status->tide_nbytes, size = (MPI_Count)dt->size;
    if (size == 0)
        *count = 0;
    else
        *count = n % size ? MPI_UNDEFINED : n / size;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Get_count_c)

int PMPI_Get_elements_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Get_elements_c";
    int rc = check_status(fn, status, count);
    if (rc)
        return rc;
    struct tide_datatype *dt = get(fn, datatype, &rc);
    if (!dt)
        return rc;
    *count = tide_datatype_elements(dt, status->tide_nbytes);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Get_elements_c)
