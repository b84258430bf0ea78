/*
 * fortran_handles.c: converting handles and statuses between C and
 * Fortran. Handles are integers in both languages, so the conversion of
 * a handle is the identity; a Fortran status (of mpif.h or of mpi_f08) is
 * the C status' words.
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

/* The Fortran IGNORE statuses are no status (MPI-3.1 17.2.5) */
static int f_ignored(const MPI_Fint *s)
{
    return !s || s == MPI_F_STATUS_IGNORE || s == MPI_F_STATUSES_IGNORE;
}

int PMPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status)
{
    if (!c_status || c_status == MPI_STATUS_IGNORE || f_ignored(f_status))
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Status_c2f: invalid status argument");
    memcpy(f_status, c_status, sizeof *c_status);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Status_c2f)

int PMPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status)
{
    if (f_ignored(f_status) || !c_status || c_status == MPI_STATUS_IGNORE)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Status_f2c: invalid status argument");
    memcpy(c_status, f_status, sizeof *c_status);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Status_f2c)

/* The statuses of `use mpi_f08` (MPI_F08_status): the same words again.
 * The two IGNORE pointers are set to mpi_f08's sentinels by the Fortran
 * bindings when they are loaded; until then they point to storage of
 * their own, which no status is. */
_Static_assert(sizeof(MPI_F08_status) == sizeof(MPI_Status), "MPI_F08_status mirrors MPI_Status");
static MPI_F08_status f08_ignore_storage[2];
static MPI_Fint f_ignore_storage[2];
MPI_Fint *MPI_F_STATUS_IGNORE = &f_ignore_storage[0];
MPI_Fint *MPI_F_STATUSES_IGNORE = &f_ignore_storage[1];
MPI_F08_status *MPI_F08_STATUS_IGNORE = &f08_ignore_storage[0];
MPI_F08_status *MPI_F08_STATUSES_IGNORE = &f08_ignore_storage[1];

static int f08_ignored(const MPI_F08_status *s)
{
    return !s || s == MPI_F08_STATUS_IGNORE || s == MPI_F08_STATUSES_IGNORE;
}

int PMPI_Status_c2f08(const MPI_Status *c_status, MPI_F08_status *f08_status)
{
    if (!c_status || c_status == MPI_STATUS_IGNORE || f08_ignored(f08_status))
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Status_c2f08: invalid status argument");
    memcpy(f08_status, c_status, sizeof *c_status);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Status_c2f08)

int PMPI_Status_f082c(const MPI_F08_status *f08_status, MPI_Status *c_status)
{
    if (f08_ignored(f08_status) || !c_status || c_status == MPI_STATUS_IGNORE)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Status_f082c: invalid status argument");
    memcpy(c_status, f08_status, sizeof *c_status);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Status_f082c)

int PMPI_Status_f2f08(const MPI_Fint *f_status, MPI_F08_status *f08_status)
{
    if (f_ignored(f_status) || f08_ignored(f08_status))
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Status_f2f08: invalid status argument");
    memcpy(f08_status, f_status, sizeof *f08_status);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Status_f2f08)

int PMPI_Status_f082f(const MPI_F08_status *f08_status, MPI_Fint *f_status)
{
    if (f08_ignored(f08_status) || f_ignored(f_status))
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Status_f082f: invalid status argument");
    memcpy(f_status, f08_status, sizeof *f08_status);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Status_f082f)
