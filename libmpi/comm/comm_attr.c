/*
 * comm_attr.c: attribute functions on communicators (MPI_Comm_*_attr,
 * MPI_Comm_*_keyval) and their deprecated MPI-1 forms.
 */
#include "runtime/api.h"
#include "runtime/attr.h"
#include "comm/comm.h"

#define COMM_OR_FAIL(fn, h, c)                                                             \
    struct tide_comm *c = tide_comm_get(h);                                                \
    if (!c)                                                                                \
        return TIDE_ERR(MPI_ERR_COMM, "%s: invalid communicator (argument comm)", fn);

int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy_fn, MPI_Comm_delete_attr_function *delete_fn,
                            int *keyval, void *extra_state)
{
    TIDE_API_ENTER();
    int rc = tide_keyval_create(TIDE_ATTR_COMM, (void (*)(void))copy_fn, (void (*)(void))delete_fn,
                                extra_state, keyval, "MPI_Comm_create_keyval");
    return rc ? tide_raise(rc) : MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Comm_create_keyval)

int PMPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval,
                       void *extra_state)
{
    TIDE_API_ENTER();
    int rc = tide_keyval_create(TIDE_ATTR_COMM, (void (*)(void))copy_fn, (void (*)(void))delete_fn,
                                extra_state, keyval, "MPI_Keyval_create");
    return rc ? tide_raise(rc) : MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Keyval_create)

int PMPI_Comm_free_keyval(int *keyval)
{
    TIDE_API_ENTER();
    int rc = tide_keyval_free(TIDE_ATTR_COMM, keyval, "MPI_Comm_free_keyval");
    return rc ? tide_raise(rc) : MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Comm_free_keyval)

int PMPI_Keyval_free(int *keyval)
{
    TIDE_API_ENTER();
    int rc = tide_keyval_free(TIDE_ATTR_COMM, keyval, "MPI_Keyval_free");
    return rc ? tide_raise(rc) : MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Keyval_free)

static int comm_set(const char *fn, MPI_Comm comm, int keyval, void *value)
{
    COMM_OR_FAIL(fn, comm, c);
    int rc = tide_attr_set(TIDE_ATTR_COMM, comm, &c->attrs, keyval, value, fn);
    return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
}

static int comm_get(const char *fn, MPI_Comm comm, int keyval, void *value, int *flag)
{
    COMM_OR_FAIL(fn, comm, c);
    int rc = tide_attr_get(TIDE_ATTR_COMM, comm, c->attrs, keyval, value, flag, fn);
    return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
}

static int comm_delete(const char *fn, MPI_Comm comm, int keyval)
{
    COMM_OR_FAIL(fn, comm, c);
    int rc = tide_attr_delete(TIDE_ATTR_COMM, comm, &c->attrs, keyval, fn);
    return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
}

int PMPI_Comm_set_attr(MPI_Comm comm, int keyval, void *value)
{
    TIDE_API_ENTER();
    return comm_set("MPI_Comm_set_attr", comm, keyval, value);
}
TIDE_ALIAS(MPI_Comm_set_attr)

int PMPI_Attr_put(MPI_Comm comm, int keyval, void *value)
{
    TIDE_API_ENTER();
    return comm_set("MPI_Attr_put", comm, keyval, value);
}
TIDE_ALIAS(MPI_Attr_put)

int PMPI_Comm_get_attr(MPI_Comm comm, int keyval, void *value, int *flag)
{
    TIDE_API_ENTER();
    return comm_get("MPI_Comm_get_attr", comm, keyval, value, flag);
}
TIDE_ALIAS(MPI_Comm_get_attr)

int PMPI_Attr_get(MPI_Comm comm, int keyval, void *value, int *flag)
{
    TIDE_API_ENTER();
    return comm_get("MPI_Attr_get", comm, keyval, value, flag);
}
TIDE_ALIAS(MPI_Attr_get)

int PMPI_Comm_delete_attr(MPI_Comm comm, int keyval)
{
    TIDE_API_ENTER();
    return comm_delete("MPI_Comm_delete_attr", comm, keyval);
}
TIDE_ALIAS(MPI_Comm_delete_attr)

int PMPI_Attr_delete(MPI_Comm comm, int keyval)
{
    TIDE_API_ENTER();
    return comm_delete("MPI_Attr_delete", comm, keyval);
}
TIDE_ALIAS(MPI_Attr_delete)
