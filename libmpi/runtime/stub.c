/*
 * stub.c: the common body of unimplemented MPI functions (stub.h).
 */
#include "runtime/api.h"
#include "runtime/stub.h"

int tide_unsupported(const char *fn)
{
    return TIDE_ERR(MPI_ERR_UNSUPPORTED_OPERATION, "%s is not implemented in this version of Tide", fn);
}
