/*
 * reduce_local.c: MPI_Reduce_local, a reduction of two local buffers
 * (inoutbuf = inbuf op inoutbuf) with no communication.
 */
#include "runtime/api.h"
#include "datatype/datatype.h"
#include "op/op.h"

#include <stdint.h>

int tide_reduce_local_api(const char *fn, const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype datatype,
                          MPI_Op op)
{
    struct tide_datatype *dt = tide_datatype_get(datatype);
    int rc = tide_datatype_check(dt, datatype, count, fn, "datatype");
    if (rc != MPI_SUCCESS)
        return tide_raise(rc);
    struct tide_op *o = tide_op_get(op);
    if (!o)
        return TIDE_ERR(MPI_ERR_OP, "%s: %s (argument op)", fn,
                        op == MPI_OP_NULL ? "MPI_OP_NULL is not an operation" : "invalid operation");
    if (inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE)
        return TIDE_ERR(MPI_ERR_BUFFER, "%s: MPI_IN_PLACE is not allowed (argument %s)", fn,
                        inbuf == MPI_IN_PLACE ? "inbuf" : "inoutbuf");
    rc = tide_op_check_reduce(o, dt, fn);
    if (rc != MPI_SUCCESS)
        return tide_raise(rc);
    if (count == 0 || dt->size == 0)
        return MPI_SUCCESS;
    if (inbuf == inoutbuf)
        return TIDE_ERR(MPI_ERR_BUFFER, "%s: inbuf and inoutbuf are the same buffer (arguments inbuf and inoutbuf)",
                        fn);
    /* NULL is MPI_BOTTOM: fine with absolute addresses, not otherwise */
    if ((uintptr_t)inbuf + (uintptr_t)dt->true_lb == 0)
        return TIDE_ERR(MPI_ERR_BUFFER, "%s: inbuf is NULL (argument inbuf)", fn);
    if ((uintptr_t)inoutbuf + (uintptr_t)dt->true_lb == 0)
        return TIDE_ERR(MPI_ERR_BUFFER, "%s: inoutbuf is NULL (argument inoutbuf)", fn);
    tide_op_apply(o, inbuf, inoutbuf, (size_t)count, dt);
    return MPI_SUCCESS;
}

int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype, MPI_Op op)
{
    TIDE_API_ENTER();
    return tide_reduce_local_api("MPI_Reduce_local", inbuf, inoutbuf, count, datatype, op);
}
TIDE_ALIAS(MPI_Reduce_local)
