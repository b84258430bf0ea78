! mpi_ext.f90: `use mpi_ext`, Tide's extensions for `use mpi` programs:
! User-Level Failure Mitigation and MPI Endpoints
! (libmpi/include/mpi-ext.h), with the
! constants of mpif-ext.h and an explicit interface for each call (the C
! bindings are in fortran/f_ext.c).
module mpi_ext
    implicit none
    include 'mpif-ext.h'
    interface
        subroutine MPIX_Comm_create_endpoints(parent_comm, my_num_ep, info, out_comm_hdls, ierror)
            integer, intent(in) :: parent_comm, my_num_ep, info
            integer, intent(out) :: out_comm_hdls(*), ierror
        end subroutine
        subroutine MPIX_Comm_revoke(comm, ierror)
            integer, intent(in) :: comm
            integer, intent(out) :: ierror
        end subroutine
        subroutine MPIX_Comm_is_revoked(comm, flag, ierror)
            integer, intent(in) :: comm
            logical, intent(out) :: flag
            integer, intent(out) :: ierror
        end subroutine
        subroutine MPIX_Comm_shrink(comm, newcomm, ierror)
            integer, intent(in) :: comm
            integer, intent(out) :: newcomm, ierror
        end subroutine
        subroutine MPIX_Comm_ishrink(comm, newcomm, request, ierror)
            integer, intent(in) :: comm
            integer, asynchronous :: newcomm
            integer, intent(out) :: request, ierror
        end subroutine
        subroutine MPIX_Comm_agree(comm, flag, ierror)
            integer, intent(in) :: comm
            integer, intent(inout) :: flag
            integer, intent(out) :: ierror
        end subroutine
        subroutine MPIX_Comm_iagree(comm, flag, request, ierror)
            integer, intent(in) :: comm
            integer, asynchronous :: flag
            integer, intent(out) :: request, ierror
        end subroutine
        subroutine MPIX_Comm_failure_ack(comm, ierror)
            integer, intent(in) :: comm
            integer, intent(out) :: ierror
        end subroutine
        subroutine MPIX_Comm_failure_get_acked(comm, failedgrp, ierror)
            integer, intent(in) :: comm
            integer, intent(out) :: failedgrp, ierror
        end subroutine
        subroutine MPIX_Comm_get_failed(comm, failedgrp, ierror)
            integer, intent(in) :: comm
            integer, intent(out) :: failedgrp, ierror
        end subroutine
        subroutine MPIX_Comm_ack_failed(comm, num_to_ack, num_acked, ierror)
            integer, intent(in) :: comm, num_to_ack
            integer, intent(out) :: num_acked, ierror
        end subroutine
    end interface
end module mpi_ext
