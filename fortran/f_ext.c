/*
 * f_ext.c: the Fortran bindings of mpi-ext.h (User-Level Failure
 * Mitigation, MPI Endpoints), for `include 'mpif-ext.h'`, `use mpi_ext` and, through
 * the module procedures of mpi_ext_f08, `use mpi_ext_f08`: the names and
 * arguments Open MPI 5 gives them (INTEGER handles, IERROR last).
 */
#include "f_support.h"
#include "mpi-ext.h"

#include <stdlib.h>

ALIAS2(mpix_comm_revoke, MPI_Fint *comm, MPI_Fint *ierr)
void mpix_comm_revoke_(MPI_Fint *comm, MPI_Fint *ierr)
{
    *ierr = MPIX_Comm_revoke(MPI_Comm_f2c(*comm));
}

ALIAS2(mpix_comm_is_revoked, MPI_Fint *comm, MPI_Fint *flag, MPI_Fint *ierr)
void mpix_comm_is_revoked_(MPI_Fint *comm, MPI_Fint *flag, MPI_Fint *ierr)
{
    int f = 0;
    *ierr = MPIX_Comm_is_revoked(MPI_Comm_f2c(*comm), &f);
    *flag = f;
}

ALIAS2(mpix_comm_shrink, MPI_Fint *comm, MPI_Fint *newcomm, MPI_Fint *ierr)
void mpix_comm_shrink_(MPI_Fint *comm, MPI_Fint *newcomm, MPI_Fint *ierr)
{
    MPI_Comm c = MPI_COMM_NULL;
    *ierr = MPIX_Comm_shrink(MPI_Comm_f2c(*comm), &c);
    *newcomm = MPI_Comm_c2f(c);
}

/* The nonblocking forms write their results when they complete: the
 * Fortran variables must stay put until then (ASYNCHRONOUS), and C's
 * int and MPI_Comm are Fortran's INTEGER here (both 4-byte handles). */
_Static_assert(sizeof(MPI_Fint) == sizeof(int) && sizeof(MPI_Comm) == sizeof(MPI_Fint),
               "Fortran INTEGER, C int and MPI_Comm are the same size");

ALIAS2(mpix_comm_ishrink, MPI_Fint *comm, MPI_Fint *newcomm, MPI_Fint *request, MPI_Fint *ierr)
void mpix_comm_ishrink_(MPI_Fint *comm, MPI_Fint *newcomm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    *ierr = MPIX_Comm_ishrink(MPI_Comm_f2c(*comm), (MPI_Comm *)newcomm, &r);
    *request = MPI_Request_c2f(r);
}

ALIAS2(mpix_comm_agree, MPI_Fint *comm, MPI_Fint *flag, MPI_Fint *ierr)
void mpix_comm_agree_(MPI_Fint *comm, MPI_Fint *flag, MPI_Fint *ierr)
{
    int f = *flag;
    *ierr = MPIX_Comm_agree(MPI_Comm_f2c(*comm), &f);
    *flag = f;
}

ALIAS2(mpix_comm_iagree, MPI_Fint *comm, MPI_Fint *flag, MPI_Fint *request, MPI_Fint *ierr)
void mpix_comm_iagree_(MPI_Fint *comm, MPI_Fint *flag, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request r = MPI_REQUEST_NULL;
    *ierr = MPIX_Comm_iagree(MPI_Comm_f2c(*comm), (int *)flag, &r);
    *request = MPI_Request_c2f(r);
}

ALIAS2(mpix_comm_failure_ack, MPI_Fint *comm, MPI_Fint *ierr)
void mpix_comm_failure_ack_(MPI_Fint *comm, MPI_Fint *ierr)
{
    *ierr = MPIX_Comm_failure_ack(MPI_Comm_f2c(*comm));
}

ALIAS2(mpix_comm_failure_get_acked, MPI_Fint *comm, MPI_Fint *group, MPI_Fint *ierr)
void mpix_comm_failure_get_acked_(MPI_Fint *comm, MPI_Fint *group, MPI_Fint *ierr)
{
    MPI_Group g = MPI_GROUP_NULL;
    *ierr = MPIX_Comm_failure_get_acked(MPI_Comm_f2c(*comm), &g);
    *group = MPI_Group_c2f(g);
}

ALIAS2(mpix_comm_get_failed, MPI_Fint *comm, MPI_Fint *group, MPI_Fint *ierr)
void mpix_comm_get_failed_(MPI_Fint *comm, MPI_Fint *group, MPI_Fint *ierr)
{
    MPI_Group g = MPI_GROUP_NULL;
    *ierr = MPIX_Comm_get_failed(MPI_Comm_f2c(*comm), &g);
    *group = MPI_Group_c2f(g);
}

ALIAS2(mpix_comm_ack_failed, MPI_Fint *comm, MPI_Fint *num_to_ack, MPI_Fint *num_acked, MPI_Fint *ierr)
void mpix_comm_ack_failed_(MPI_Fint *comm, MPI_Fint *num_to_ack, MPI_Fint *num_acked, MPI_Fint *ierr)
{
    int n = 0;
    *ierr = MPIX_Comm_ack_failed(MPI_Comm_f2c(*comm), *num_to_ack, &n);
    *num_acked = n;
}

ALIAS2(mpix_comm_create_endpoints, MPI_Fint *parent_comm, MPI_Fint *my_num_ep, MPI_Fint *info,
       MPI_Fint *out_comm_hdls, MPI_Fint *ierr)
void mpix_comm_create_endpoints_(MPI_Fint *parent_comm, MPI_Fint *my_num_ep, MPI_Fint *info, MPI_Fint *out_comm_hdls,
                                 MPI_Fint *ierr)
{
    int n = *my_num_ep > 0 ? *my_num_ep : 0;
    MPI_Comm *h = malloc((size_t)(n ? n : 1) * sizeof *h);
    if (!h) {
        *ierr = MPI_ERR_NO_MEM;
        return;
    }
    *ierr = MPIX_Comm_create_endpoints(MPI_Comm_f2c(*parent_comm), *my_num_ep, MPI_Info_f2c(*info),
                                       out_comm_hdls ? h : NULL);
    if (*ierr == MPI_SUCCESS)
        for (int i = 0; i < n; i++)
            out_comm_hdls[i] = MPI_Comm_c2f(h[i]);
    free(h);
}
