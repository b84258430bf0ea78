/*
 * type_attr.c: attributes cached on datatypes (MPI_Type_create_keyval,
 * MPI_Type_free_keyval, MPI_Type_set_attr/get_attr/delete_attr, through the
 * common machinery of runtime/attr.h; copied by MPI_Type_dup, deleted by
 * MPI_Type_free) and datatype names (MPI_Type_set_name/get_name; the
 * predefined types are named after their handles).
 */
#include "runtime/api.h"
#include "runtime/attr.h"
#include "datatype/datatype.h"

#include <stdio.h>
#include <string.h>

#define TYPE_OR_FAIL(fn, h, dt)                                                                \
    struct tide_datatype *dt = tide_datatype_get(h);                                           \
    if (!dt) {                                                                                 \
        if ((h) == MPI_DATATYPE_NULL)                                                          \
            return TIDE_ERR(MPI_ERR_TYPE, "%s: MPI_DATATYPE_NULL is not a datatype (argument datatype)", fn); \
        return TIDE_ERR(MPI_ERR_TYPE, "%s: invalid datatype (argument datatype)", fn);        \
    }

int PMPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
                            MPI_Type_delete_attr_function *type_delete_attr_fn, int *type_keyval,
                            void *extra_state)
{
    TIDE_API_ENTER();
    int rc = tide_keyval_create(TIDE_ATTR_TYPE, (void (*)(void))type_copy_attr_fn,
                                (void (*)(void))type_delete_attr_fn, extra_state, type_keyval,
                                "MPI_Type_create_keyval");
    return rc ? tide_raise(rc) : MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Type_create_keyval)

int PMPI_Type_free_keyval(int *type_keyval)
{
    TIDE_API_ENTER();
    int rc = tide_keyval_free(TIDE_ATTR_TYPE, type_keyval, "MPI_Type_free_keyval");
    return rc ? tide_raise(rc) : MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Type_free_keyval)

int PMPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Type_set_attr";
    TYPE_OR_FAIL(fn, datatype, dt);
    int rc = tide_attr_set(TIDE_ATTR_TYPE, datatype, &dt->attrs, type_keyval, attribute_val, fn);
    return rc ? tide_raise(rc) : MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Type_set_attr)

int PMPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Type_get_attr";
    TYPE_OR_FAIL(fn, datatype, dt);
    int rc = tide_attr_get(TIDE_ATTR_TYPE, datatype, dt->attrs, type_keyval, attribute_val, flag, fn);
    return rc ? tide_raise(rc) : MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Type_get_attr)

int PMPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Type_delete_attr";
    TYPE_OR_FAIL(fn, datatype, dt);
    int rc = tide_attr_delete(TIDE_ATTR_TYPE, datatype, &dt->attrs, type_keyval, fn);
    return rc ? tide_raise(rc) : MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Type_delete_attr)

int PMPI_Type_set_name(MPI_Datatype datatype, const char *type_name)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Type_set_name";
    TYPE_OR_FAIL(fn, datatype, dt);
    if (!type_name)
        return TIDE_ERR(MPI_ERR_ARG, "%s: type_name must not be NULL (argument type_name)", fn);
    snprintf(dt->name, sizeof dt->name, "%s", type_name);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Type_set_name)

int PMPI_Type_get_name(MPI_Datatype datatype, char *type_name, int *resultlen)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Type_get_name";
    TYPE_OR_FAIL(fn, datatype, dt);
    if (!type_name || !resultlen)
        return TIDE_ERR(MPI_ERR_ARG, "%s: type_name and resultlen must not be NULL", fn);
    size_t n = strlen(dt->name);
    memcpy(type_name, dt->name, n + 1);
    *resultlen = (int)n;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Type_get_name)
