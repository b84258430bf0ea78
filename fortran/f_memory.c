/*
 * f_memory.c: the Fortran bindings (mpif.h, `use mpi`) of the calls that
 * give memory back as an address: MPI_Alloc_mem, MPI_Win_allocate,
 * MPI_Win_allocate_shared, MPI_Win_shared_query (BASEPTR an
 * INTEGER(KIND=MPI_ADDRESS_KIND), the form of Cray pointers, or a
 * TYPE(C_PTR): both are the address in 8 bytes, so one wrapper serves both;
 * the `mpi` module names the second under *_cptr, an alias), and
 * MPI_Buffer_detach; also MPI_Aint_add and MPI_Aint_diff (functions of
 * kind MPI_ADDRESS_KIND).
 */
#include <stdint.h>
#include "f_support.h"

_Static_assert(sizeof(MPI_Aint) == sizeof(void *), "an address fits INTEGER(KIND=MPI_ADDRESS_KIND)");

/* name_, name__ and name_cptr_ (the TYPE(C_PTR) specific of `use mpi`) */
#define ALIAS3(name, ...) \
    ALIAS2(name, __VA_ARGS__) \
    void name##_cptr_(__VA_ARGS__) __attribute__((weak, alias(#name "_"))); \
    void p##name##_cptr_(__VA_ARGS__) __attribute__((alias(#name "_")));

ALIAS3(mpi_alloc_mem, MPI_Aint *size, MPI_Fint *info, MPI_Aint *baseptr, MPI_Fint *ierr)
void mpi_alloc_mem_(MPI_Aint *size, MPI_Fint *info, MPI_Aint *baseptr, MPI_Fint *ierr)
{
    void *p = NULL;
    int rc = MPI_Alloc_mem(*size, MPI_Info_f2c(*info), &p);
    if (rc == MPI_SUCCESS)
        *baseptr = (MPI_Aint)(intptr_t)p;
    if (ierr)
        *ierr = rc;
}

/* MPI_Win_allocate and MPI_Win_allocate_shared: the same arguments */
#define WIN_ALLOCATE(lower, cname)                                                                         \
    ALIAS3(lower, MPI_Aint *size, MPI_Fint *disp_unit, MPI_Fint *info, MPI_Fint *comm, MPI_Aint *baseptr,  \
           MPI_Fint *win, MPI_Fint *ierr)                                                                  \
    void lower##_(MPI_Aint *size, MPI_Fint *disp_unit, MPI_Fint *info, MPI_Fint *comm, MPI_Aint *baseptr,  \
                  MPI_Fint *win, MPI_Fint *ierr)                                                           \
    {                                                                                                      \
        void *p = NULL;                                                                                    \
        MPI_Win c_win = MPI_WIN_NULL;                                                                      \
        int rc = cname(*size, *disp_unit, MPI_Info_f2c(*info), MPI_Comm_f2c(*comm), &p, &c_win);           \
        if (rc == MPI_SUCCESS)                                                                             \
            *baseptr = (MPI_Aint)(intptr_t)p;                                                              \
        *win = MPI_Win_c2f(c_win);                                                                         \
        if (ierr)                                                                                          \
            *ierr = rc;                                                                                    \
    }
WIN_ALLOCATE(mpi_win_allocate, MPI_Win_allocate)
WIN_ALLOCATE(mpi_win_allocate_shared, MPI_Win_allocate_shared)

ALIAS3(mpi_win_shared_query, MPI_Fint *win, MPI_Fint *rank, MPI_Aint *size, MPI_Fint *disp_unit,
       MPI_Aint *baseptr, MPI_Fint *ierr)
void mpi_win_shared_query_(MPI_Fint *win, MPI_Fint *rank, MPI_Aint *size, MPI_Fint *disp_unit,
                           MPI_Aint *baseptr, MPI_Fint *ierr)
{
    void *p = NULL;
    MPI_Aint c_size = 0;
    int c_unit = 0;
    int rc = MPI_Win_shared_query(MPI_Win_f2c(*win), *rank, &c_size, &c_unit, &p);
    if (rc == MPI_SUCCESS) {
        *size = c_size;
        *disp_unit = c_unit;
        *baseptr = (MPI_Aint)(intptr_t)p;
    }
    if (ierr)
        *ierr = rc;
}

/* MPI_BUFFER_DETACH(BUFFER_ADDR, SIZE, IERROR): BUFFER_ADDR is a choice
 * argument in mpif.h and `use mpi`, which has no room for an address; the
 * buffer is detached and left as it is (mpi_f08 gives the address). */
ALIAS2(mpi_buffer_detach, void *buffer_addr, MPI_Fint *size, MPI_Fint *ierr)
void mpi_buffer_detach_(void *buffer_addr, MPI_Fint *size, MPI_Fint *ierr)
{
    (void)buffer_addr;
    void *p = NULL;
    int c_size = 0;
    int rc = MPI_Buffer_detach(&p, &c_size);
    if (rc == MPI_SUCCESS)
        *size = c_size;
    if (ierr)
        *ierr = rc;
}

TIDE_F_WEAK_NAMES(MPI_Aint, mpi_aint_add, MPI_Aint *base, MPI_Aint *disp)
MPI_Aint mpi_aint_add_(MPI_Aint *base, MPI_Aint *disp)
{
    return MPI_Aint_add(*base, *disp);
}

TIDE_F_WEAK_NAMES(MPI_Aint, mpi_aint_diff, MPI_Aint *addr1, MPI_Aint *addr2)
MPI_Aint mpi_aint_diff_(MPI_Aint *addr1, MPI_Aint *addr2)
{
    return MPI_Aint_diff(*addr1, *addr2);
}
