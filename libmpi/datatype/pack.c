/*
 * pack.c: MPI_Pack, MPI_Unpack and MPI_Pack_size. The packed form is the
 * native one the convertor produces (no header), so MPI_PACKED data and
 * typed data of the same signature match byte for byte. The communicator
 * argument is only validated.
 */
#include "runtime/api.h"
#include "comm/comm.h"
#include "datatype/datatype.h"

#include <limits.h>

int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
              int *position, MPI_Comm comm)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Pack";
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "%s: invalid communicator (argument comm)", fn);
    struct tide_datatype *dt = tide_datatype_get(datatype);
    if (incount < 0)
        return TIDE_ERR_COMM(c, MPI_ERR_COUNT, "%s: negative count %d (argument incount)", fn, incount);
    int rc = tide_datatype_check(dt, datatype, incount, fn, "datatype");
    if (rc)
        return tide_raise_comm(c, rc);
    if (!position)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: position must not be NULL (argument position)", fn);
    if (outsize < 0)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: negative outsize %d (argument outsize)", fn, outsize);
    if (*position < 0 || *position > outsize)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: position %d is outside the output buffer of %d bytes (argument position)",
                             fn, *position, outsize);
    size_t need = (size_t)incount * dt->size;
    if (need > (size_t)(outsize - *position))
        return TIDE_ERR_COMM(c, MPI_ERR_TRUNCATE,
                             "%s: %zu bytes to pack but only %d left in the output buffer (arguments outsize, position)",
                             fn, need, outsize - *position);
    if (need && !outbuf)
        return TIDE_ERR_COMM(c, MPI_ERR_BUFFER, "%s: outbuf must not be NULL (argument outbuf)", fn);
    if (need == 0)
        return MPI_SUCCESS;
    struct tide_convertor cv;
    tide_conv_init(&cv, dt, (size_t)incount, inbuf);
    size_t n = tide_conv_pack(&cv, (char *)outbuf + *position, need);
    if (n != need)
        return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    *position += (int)n;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Pack)

int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                MPI_Datatype datatype, MPI_Comm comm)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Unpack";
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "%s: invalid communicator (argument comm)", fn);
    struct tide_datatype *dt = tide_datatype_get(datatype);
    if (outcount < 0)
        return TIDE_ERR_COMM(c, MPI_ERR_COUNT, "%s: negative count %d (argument outcount)", fn, outcount);
    int rc = tide_datatype_check(dt, datatype, outcount, fn, "datatype");
    if (rc)
        return tide_raise_comm(c, rc);
    if (!position)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: position must not be NULL (argument position)", fn);
    if (insize < 0)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: negative insize %d (argument insize)", fn, insize);
    if (*position < 0 || *position > insize)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: position %d is outside the input buffer of %d bytes (argument position)",
                             fn, *position, insize);
    size_t need = (size_t)outcount * dt->size;
    if (need > (size_t)(insize - *position))
        return TIDE_ERR_COMM(c, MPI_ERR_TRUNCATE,
                             "%s: %zu bytes to unpack but only %d left in the input buffer (arguments insize, position)",
                             fn, need, insize - *position);
    if (need && !inbuf)
        return TIDE_ERR_COMM(c, MPI_ERR_BUFFER, "%s: inbuf must not be NULL (argument inbuf)", fn);
    if (need == 0)
        return MPI_SUCCESS;
    struct tide_convertor cv;
    tide_conv_init(&cv, dt, (size_t)outcount, outbuf);
    size_t n = tide_conv_unpack(&cv, (const char *)inbuf + *position, need);
    if (n != need)
        return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    *position += (int)n;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Unpack)

int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Pack_size";
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "%s: invalid communicator (argument comm)", fn);
    struct tide_datatype *dt = tide_datatype_get(datatype);
    if (!dt) {
        if (datatype == MPI_DATATYPE_NULL)
            return TIDE_ERR_COMM(c, MPI_ERR_TYPE, "%s: MPI_DATATYPE_NULL is not a datatype (argument datatype)", fn);
        return TIDE_ERR_COMM(c, MPI_ERR_TYPE, "%s: invalid datatype (argument datatype)", fn);
    }
    if (incount < 0)
        return TIDE_ERR_COMM(c, MPI_ERR_COUNT, "%s: negative count %d (argument incount)", fn, incount);
    if (!size)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: size must not be NULL (argument size)", fn);
    size_t n = (size_t)incount * dt->size;
    if (dt->size && n / dt->size != (size_t)incount)
        n = SIZE_MAX;
    if (n > INT_MAX)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: %d elements of this type take more than INT_MAX bytes", fn, incount);
    *size = (int)n;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Pack_size)
