/*
 * c_status_f08.c: C functions called by f08_status_c.f90 (BIND(C)) with a
 * TYPE(MPI_Status) of mpi_f08: MPI_F08_STATUS_IGNORE is the address of
 * mpi_f08's MPI_STATUS_IGNORE, and MPI_Status_f082c reads a real status.
 */
#include <mpi.h>

int c_is_status_ignore(MPI_F08_status *s);
int c_is_statuses_ignore(MPI_F08_status *s);
int c_status_tag_count(MPI_F08_status *s, int *count);
int c_is_f_status_ignore(MPI_Fint *s);

int c_is_status_ignore(MPI_F08_status *s)
{
    return s == MPI_F08_STATUS_IGNORE;
}

int c_is_statuses_ignore(MPI_F08_status *s)
{
    return s == MPI_F08_STATUSES_IGNORE;
}

/* mpif.h's and `use mpi`'s MPI_STATUS_IGNORE is the same storage as
 * mpi_f08's: C knows it as MPI_F_STATUS_IGNORE */
int c_is_f_status_ignore(MPI_Fint *s)
{
    return s == MPI_F_STATUS_IGNORE;
}

/* the tag of a Fortran status and its count of MPI_INT, through a C status */
int c_status_tag_count(MPI_F08_status *s, int *count)
{
    MPI_Status c;
    if (MPI_Status_f082c(s, &c) != MPI_SUCCESS)
        return -1;
    MPI_Get_count(&c, MPI_INT, count);
    return c.MPI_TAG;
}
