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

int tide_pack(const char *fn, const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
              MPI_Count outsize, MPI_Count *position, MPI_Comm comm)
{
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "%s: invalid communicator (argument comm)", fn);
    struct tide_datatype *dt = tide_datatype_get(datatype);
    if (incount < 0)
        return TIDE_ERR_COMM(c, MPI_ERR_COUNT, "%s: negative count %lld (argument incount)", fn, incount);
    int rc = tide_datatype_check(dt, datatype, incount, fn, "datatype");
    if (rc)
        return tide_raise_comm(c, rc);
    if (!position)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: position must not be NULL (argument position)", fn);
    if (outsize < 0)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: negative outsize %lld (argument outsize)", fn, outsize);
    if (*position < 0 || *position > outsize)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: position %lld is outside the output buffer of %lld bytes (argument position)",
                             fn, *position, outsize);
    size_t need;
    if (__builtin_mul_overflow((size_t)incount, dt->size, &need) || need > (size_t)(outsize - *position))
        return TIDE_ERR_COMM(c, MPI_ERR_TRUNCATE,
                             "%s: %lld elements of %zu bytes to pack but only %lld bytes left in the output buffer "
                             "(arguments outsize, position)",
                             fn, incount, dt->size, outsize - *position);
    if (need && !outbuf)
        return TIDE_ERR_COMM(c, MPI_ERR_BUFFER, "%s: outbuf must not be NULL (argument outbuf)", fn);
    if (need == 0)
        return MPI_SUCCESS;
    struct tide_convertor cv;
    tide_conv_init(&cv, dt, (size_t)incount, inbuf);
    size_t n = tide_conv_pack(&cv, (char *)outbuf + *position, need);
    if (n != need)
        return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    *position += (MPI_Count)n;
    return MPI_SUCCESS;
}

int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
              int *position, MPI_Comm comm)
{
    TIDE_API_ENTER();
    MPI_Count pos = position ? *position : 0;
    int rc = tide_pack("MPI_Pack", inbuf, incount, datatype, outbuf, outsize, position ? &pos : NULL, comm);
    if (rc == MPI_SUCCESS)
        *position = (int)pos; /* at most outsize */
    return rc;
}
TIDE_ALIAS(MPI_Pack)

int tide_unpack(const char *fn, const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm)
{
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "%s: invalid communicator (argument comm)", fn);
    struct tide_datatype *dt = tide_datatype_get(datatype);
    if (outcount < 0)
        return TIDE_ERR_COMM(c, MPI_ERR_COUNT, "%s: negative count %lld (argument outcount)", fn, outcount);
    int rc = tide_datatype_check(dt, datatype, outcount, fn, "datatype");
    if (rc)
        return tide_raise_comm(c, rc);
    if (!position)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: position must not be NULL (argument position)", fn);
    if (insize < 0)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: negative insize %lld (argument insize)", fn, insize);
    if (*position < 0 || *position > insize)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: position %lld is outside the input buffer of %lld bytes (argument position)",
                             fn, *position, insize);
    size_t need;
    if (__builtin_mul_overflow((size_t)outcount, dt->size, &need) || need > (size_t)(insize - *position))
        return TIDE_ERR_COMM(c, MPI_ERR_TRUNCATE,
                             "%s: %lld elements of %zu bytes to unpack but only %lld bytes left in the input buffer "
                             "(arguments insize, position)",
                             fn, outcount, dt->size, insize - *position);
    if (need && !inbuf)
        return TIDE_ERR_COMM(c, MPI_ERR_BUFFER, "%s: inbuf must not be NULL (argument inbuf)", fn);
    if (need == 0)
        return MPI_SUCCESS;
    struct tide_convertor cv;
    tide_conv_init(&cv, dt, (size_t)outcount, outbuf);
    size_t n = tide_conv_unpack(&cv, (const char *)inbuf + *position, need);
    if (n != need)
        return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    *position += (MPI_Count)n;
    return MPI_SUCCESS;
}

int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                MPI_Datatype datatype, MPI_Comm comm)
{
    TIDE_API_ENTER();
    MPI_Count pos = position ? *position : 0;
    int rc = tide_unpack("MPI_Unpack", inbuf, insize, position ? &pos : NULL, outbuf, outcount, datatype, comm);
    if (rc == MPI_SUCCESS)
        *position = (int)pos; /* at most insize */
    return rc;
}
TIDE_ALIAS(MPI_Unpack)

int tide_pack_size(const char *fn, MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count limit,
                   MPI_Count *size)
{
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
        return TIDE_ERR_COMM(c, MPI_ERR_COUNT, "%s: negative count %lld (argument incount)", fn, incount);
    if (!size)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: size must not be NULL (argument size)", fn);
    size_t n;
    if (__builtin_mul_overflow((size_t)incount, dt->size, &n) || n > (size_t)limit)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: %lld elements of this type take more than %lld bytes", fn, incount,
                             limit);
    *size = (MPI_Count)n;
    return MPI_SUCCESS;
}

int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
    TIDE_API_ENTER();
    MPI_Count n = 0;
    int rc = tide_pack_size("MPI_Pack_size", incount, datatype, comm, INT_MAX, size ? &n : NULL);
    if (rc == MPI_SUCCESS)
        *size = (int)n; /* at most INT_MAX */
    return rc;
}
TIDE_ALIAS(MPI_Pack_size)
