/* c_attr_lang.c: the C half of f_attr_lang.f90: reads attributes set in
 * Fortran and sets one for Fortran to read (MPI-4.0 19.3.7). */
#include <mpi.h>
#include <stdint.h>

/* the value C sees for an attribute Fortran set with MPI_COMM_SET_ATTR:
 * the address of an MPI_Aint holding it; -1 when absent */
void c_attr_get_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *value);
void c_attr_get_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *value)
{
    MPI_Aint *p = NULL;
    int flag = 0;
    MPI_Comm_get_attr(MPI_Comm_f2c(*comm), *keyval, &p, &flag);
    *value = flag && p ? *p : -1;
}

/* a keyval made in C (MPI_COMM_DUP_FN: the value itself is copied) */
void c_keyval_create_(MPI_Fint *keyval);
void c_keyval_create_(MPI_Fint *keyval)
{
    int k;
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &k, NULL);
    *keyval = k;
}

/* C sets a pointer as the value; Fortran gets that address back */
static int target;
void c_attr_set_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *address);
void c_attr_set_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *address)
{
    MPI_Comm_set_attr(MPI_Comm_f2c(*comm), *keyval, &target);
    *address = (MPI_Aint)(intptr_t)&target;
}
