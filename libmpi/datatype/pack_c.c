/*
 * pack_c.c: the large-count forms of MPI_Pack, MPI_Unpack, MPI_Pack_size
 * and their external32 forms (MPI-4.0): sizes and positions are
 * MPI_Count, shared with the int forms through pack.c and external32.c.
 */
#include "runtime/api.h"
#include "datatype/datatype.h"

int PMPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf, MPI_Count outsize,
                MPI_Count *position, MPI_Comm comm)
{
    TIDE_API_ENTER();
    return tide_pack("MPI_Pack_c", inbuf, incount, datatype, outbuf, outsize, position, comm);
}
TIDE_ALIAS(MPI_Pack_c)

int PMPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf, MPI_Count outcount,
                  MPI_Datatype datatype, MPI_Comm comm)
{
    TIDE_API_ENTER();
    return tide_unpack("MPI_Unpack_c", inbuf, insize, position, outbuf, outcount, datatype, comm);
}
TIDE_ALIAS(MPI_Unpack_c)

int PMPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size)
{
    TIDE_API_ENTER();
    return tide_pack_size("MPI_Pack_size_c", incount, datatype, comm, INT64_MAX, size);
}
TIDE_ALIAS(MPI_Pack_size_c)

int PMPI_Pack_external_c(const char datarep[], const void *inbuf, MPI_Count incount, MPI_Datatype datatype,
                         void *outbuf, MPI_Count outsize, MPI_Count *position)
{
    TIDE_API_ENTER();
    return tide_pack_external("MPI_Pack_external_c", datarep, inbuf, incount, datatype, outbuf, outsize, position);
}
TIDE_ALIAS(MPI_Pack_external_c)

int PMPI_Unpack_external_c(const char datarep[], const void *inbuf, MPI_Count insize, MPI_Count *position,
                           void *outbuf, MPI_Count outcount, MPI_Datatype datatype)
{
    TIDE_API_ENTER();
    return tide_unpack_external("MPI_Unpack_external_c", datarep, inbuf, insize, position, outbuf, outcount,
                                datatype);
}
TIDE_ALIAS(MPI_Unpack_external_c)

int PMPI_Pack_external_size_c(const char datarep[], MPI_Count incount, MPI_Datatype datatype, MPI_Count *size)
{
    TIDE_API_ENTER();
    return tide_pack_external_size("MPI_Pack_external_size_c", datarep, incount, datatype, size);
}
TIDE_ALIAS(MPI_Pack_external_size_c)
