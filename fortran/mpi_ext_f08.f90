! mpi_ext_f08.f90: `use mpi_ext_f08`, Tide's extensions for `use mpi_f08`
! programs: User-Level Failure Mitigation and MPI Endpoints
! (libmpi/include/mpi-ext.h) with
! TYPE(MPI_Comm) and friends and an optional ierror, calling the C
! bindings of fortran/f_ext.c.
module mpi_ext_f08
    use mpi_f08, only: MPI_Comm, MPI_Group, MPI_Request, MPI_Info
    implicit none
    private
    public :: MPIX_ERR_PROC_FAILED, MPIX_ERR_PROC_FAILED_PENDING, MPIX_ERR_REVOKED
    public :: MPIX_Comm_revoke, MPIX_Comm_is_revoked, MPIX_Comm_shrink, MPIX_Comm_ishrink, &
              MPIX_Comm_agree, MPIX_Comm_iagree, MPIX_Comm_failure_ack, MPIX_Comm_failure_get_acked, &
              MPIX_Comm_get_failed, MPIX_Comm_ack_failed, MPIX_Comm_create_endpoints
    include 'mpif-ext.h'
    interface
        subroutine c_create_endpoints(parent_comm, my_num_ep, info, out_comm_hdls, ierror) &
                bind(C, name='mpix_comm_create_endpoints_')
            integer :: parent_comm, my_num_ep, info, ierror
            integer :: out_comm_hdls(*)
        end subroutine
        subroutine c_revoke(comm, ierror) bind(C, name='mpix_comm_revoke_')
            integer :: comm, ierror
        end subroutine
        subroutine c_is_revoked(comm, flag, ierror) bind(C, name='mpix_comm_is_revoked_')
            integer :: comm, flag, ierror
        end subroutine
        subroutine c_shrink(comm, newcomm, ierror) bind(C, name='mpix_comm_shrink_')
            integer :: comm, newcomm, ierror
        end subroutine
        subroutine c_ishrink(comm, newcomm, request, ierror) bind(C, name='mpix_comm_ishrink_')
            integer :: comm, request, ierror
            integer, asynchronous :: newcomm
        end subroutine
        subroutine c_agree(comm, flag, ierror) bind(C, name='mpix_comm_agree_')
            integer :: comm, flag, ierror
        end subroutine
        subroutine c_iagree(comm, flag, request, ierror) bind(C, name='mpix_comm_iagree_')
            integer :: comm, request, ierror
            integer, asynchronous :: flag
        end subroutine
        subroutine c_failure_ack(comm, ierror) bind(C, name='mpix_comm_failure_ack_')
            integer :: comm, ierror
        end subroutine
        subroutine c_failure_get_acked(comm, group, ierror) bind(C, name='mpix_comm_failure_get_acked_')
            integer :: comm, group, ierror
        end subroutine
        subroutine c_get_failed(comm, group, ierror) bind(C, name='mpix_comm_get_failed_')
            integer :: comm, group, ierror
        end subroutine
        subroutine c_ack_failed(comm, num_to_ack, num_acked, ierror) bind(C, name='mpix_comm_ack_failed_')
            integer :: comm, num_to_ack, num_acked, ierror
        end subroutine
    end interface
contains
    subroutine MPIX_Comm_revoke(comm, ierror)
        type(MPI_Comm), intent(in) :: comm
        integer, optional, intent(out) :: ierror
        integer :: e
        call c_revoke(comm%MPI_VAL, e)
        if (present(ierror)) ierror = e
    end subroutine

    subroutine MPIX_Comm_is_revoked(comm, flag, ierror)
        type(MPI_Comm), intent(in) :: comm
        logical, intent(out) :: flag
        integer, optional, intent(out) :: ierror
        integer :: e, f
        call c_is_revoked(comm%MPI_VAL, f, e)
        flag = f /= 0
        if (present(ierror)) ierror = e
    end subroutine

    subroutine MPIX_Comm_shrink(comm, newcomm, ierror)
        type(MPI_Comm), intent(in) :: comm
        type(MPI_Comm), intent(out) :: newcomm
        integer, optional, intent(out) :: ierror
        integer :: e
        call c_shrink(comm%MPI_VAL, newcomm%MPI_VAL, e)
        if (present(ierror)) ierror = e
    end subroutine

    subroutine MPIX_Comm_ishrink(comm, newcomm, request, ierror)
        type(MPI_Comm), intent(in) :: comm
        type(MPI_Comm), intent(out), asynchronous :: newcomm
        type(MPI_Request), intent(out) :: request
        integer, optional, intent(out) :: ierror
        integer :: e
        call c_ishrink(comm%MPI_VAL, newcomm%MPI_VAL, request%MPI_VAL, e)
        if (present(ierror)) ierror = e
    end subroutine

    subroutine MPIX_Comm_create_endpoints(parent_comm, my_num_ep, info, out_comm_hdls, ierror)
        type(MPI_Comm), intent(in) :: parent_comm
        integer, intent(in) :: my_num_ep
        type(MPI_Info), intent(in) :: info
        type(MPI_Comm), intent(out) :: out_comm_hdls(*)
        integer, optional, intent(out) :: ierror
        integer :: e, i
        integer :: h(max(my_num_ep, 1))
        call c_create_endpoints(parent_comm%MPI_VAL, my_num_ep, info%MPI_VAL, h, e)
        if (e == 0) then
            do i = 1, my_num_ep
                out_comm_hdls(i)%MPI_VAL = h(i)
            end do
        end if
        if (present(ierror)) ierror = e
    end subroutine

    subroutine MPIX_Comm_agree(comm, flag, ierror)
        type(MPI_Comm), intent(in) :: comm
        integer, intent(inout) :: flag
        integer, optional, intent(out) :: ierror
        integer :: e
        call c_agree(comm%MPI_VAL, flag, e)
        if (present(ierror)) ierror = e
    end subroutine

    subroutine MPIX_Comm_iagree(comm, flag, request, ierror)
        type(MPI_Comm), intent(in) :: comm
        integer, intent(inout), asynchronous :: flag
        type(MPI_Request), intent(out) :: request
        integer, optional, intent(out) :: ierror
        integer :: e
        call c_iagree(comm%MPI_VAL, flag, request%MPI_VAL, e)
        if (present(ierror)) ierror = e
    end subroutine

    subroutine MPIX_Comm_failure_ack(comm, ierror)
        type(MPI_Comm), intent(in) :: comm
        integer, optional, intent(out) :: ierror
        integer :: e
        call c_failure_ack(comm%MPI_VAL, e)
        if (present(ierror)) ierror = e
    end subroutine

    subroutine MPIX_Comm_failure_get_acked(comm, failedgrp, ierror)
        type(MPI_Comm), intent(in) :: comm
        type(MPI_Group), intent(out) :: failedgrp
        integer, optional, intent(out) :: ierror
        integer :: e
        call c_failure_get_acked(comm%MPI_VAL, failedgrp%MPI_VAL, e)
        if (present(ierror)) ierror = e
    end subroutine

    subroutine MPIX_Comm_get_failed(comm, failedgrp, ierror)
        type(MPI_Comm), intent(in) :: comm
        type(MPI_Group), intent(out) :: failedgrp
        integer, optional, intent(out) :: ierror
        integer :: e
        call c_get_failed(comm%MPI_VAL, failedgrp%MPI_VAL, e)
        if (present(ierror)) ierror = e
    end subroutine

    subroutine MPIX_Comm_ack_failed(comm, num_to_ack, num_acked, ierror)
        type(MPI_Comm), intent(in) :: comm
        integer, intent(in) :: num_to_ack
        integer, intent(out) :: num_acked
        integer, optional, intent(out) :: ierror
        integer :: e
        call c_ack_failed(comm%MPI_VAL, num_to_ack, num_acked, e)
        if (present(ierror)) ierror = e
    end subroutine
end module mpi_ext_f08
