/*
 * datarep_null.c: MPI_CONVERSION_FN_NULL, the predefined conversion
 * callback of MPI_Register_datarep (MPI-2.2 13.5.3). It says "no
 * conversion is needed in this direction": a data representation that
 * names it moves the bytes as they are. It is a real function so that
 * programs and language bindings that take its address link and load;
 * called, it converts nothing.
 */
#include "mpi.h"

int MPI_CONVERSION_FN_NULL(void *userbuf, MPI_Datatype datatype, int count, void *filebuf, MPI_Offset position,
                           void *extra_state)
{
    (void)userbuf, (void)datatype, (void)count, (void)filebuf, (void)position, (void)extra_state;
    return MPI_SUCCESS;
}
