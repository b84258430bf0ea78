/*
 * win_keyval.c: keyvals for attributes cached on windows
 * (MPI_Win_create_keyval, MPI_Win_free_keyval), through the common
 * machinery of runtime/attr.h. A window keyval is of its own kind: using
 * it on a communicator or a datatype is MPI_ERR_KEYVAL.
 */
#include "runtime/api.h"
#include "runtime/attr.h"

int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn,
                           MPI_Win_delete_attr_function *win_delete_attr_fn, int *win_keyval,
                           void *extra_state)
{
    TIDE_API_ENTER();
    int rc = tide_keyval_create(TIDE_ATTR_WIN, (void (*)(void))win_copy_attr_fn,
                                (void (*)(void))win_delete_attr_fn, extra_state, win_keyval,
                                "MPI_Win_create_keyval");
    return rc ? tide_raise(rc) : MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Win_create_keyval)

int PMPI_Win_free_keyval(int *win_keyval)
{
    TIDE_API_ENTER();
    int rc = tide_keyval_free(TIDE_ATTR_WIN, win_keyval, "MPI_Win_free_keyval");
    return rc ? tide_raise(rc) : MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Win_free_keyval)
