/*
 * fortran_handles.c: converting handles and statuses between C and
 * Fortran. Handles are integers in both languages, so the conversion of
 * a handle is the identity; a Fortran status is the C status' words.
 */
#include "runtime/api.h"

#include <string.h>

#define IDENTITY(type, name)                                  \
    MPI_Fint PMPI_##name##_c2f(type h) { return (MPI_Fint)h; } \
    TIDE_ALIAS(MPI_##name##_c2f)                              \
    type PMPI_##name##_f2c(MPI_Fint h) { return (type)h; }    \
    TIDE_ALIAS(MPI_##name##_f2c)

IDENTITY(MPI_Comm, Comm)
IDENTITY(MPI_Datatype, Type)
IDENTITY(MPI_Group, Group)
IDENTITY(MPI_Request, Request)
IDENTITY(MPI_Info, Info)
IDENTITY(MPI_Win, Win)
IDENTITY(MPI_Op, Op)
IDENTITY(MPI_Errhandler, Errhandler)
IDENTITY(MPI_File, File)
IDENTITY(MPI_Message, Message)
IDENTITY(MPI_Session, Session)

int PMPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status)
{
    if (!c_status || c_status == MPI_STATUS_IGNORE || !f_status)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Status_c2f: invalid status argument");
    memcpy(f_status, c_status, sizeof *c_status);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Status_c2f)

int PMPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status)
{
    if (!f_status || !c_status || c_status == MPI_STATUS_IGNORE)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Status_f2c: invalid status argument");
    memcpy(c_status, f_status, sizeof *c_status);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Status_f2c)
