! f08_ulfm.f90: User-Level Failure Mitigation from `use mpi_f08` and
! `use mpi_ext_f08` (run under mpiexec --enable-recovery, 4 ranks or
! more): the last rank kills itself; the survivors see the failure in a
! barrier, acknowledge, agree without and with a request, shrink without
! and with a request, and sum their ranks on the shrunk communicator.
program f08_ulfm
    use mpi_f08
    use mpi_ext_f08
    implicit none
    type(MPI_Comm) :: comm, small, small2
    type(MPI_Request) :: req
    type(MPI_Group) :: acked
    integer :: ierr, rank, size, cls, flag, n, ssize, total
    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, size)
    call MPI_Comm_dup(MPI_COMM_WORLD, comm)
    call MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN)
    flag = 1
    call MPIX_Comm_agree(comm, flag)
    if (rank == size - 1) call kill(getpid(), 9)
    call MPI_Barrier(comm, ierr)
    call MPI_Error_class(ierr, cls)
    if (cls /= MPIX_ERR_PROC_FAILED) call fail('the barrier does not report the failure')
    call MPIX_Comm_failure_ack(comm)
    call MPIX_Comm_failure_get_acked(comm, acked)
    call MPI_Group_size(acked, n)
    if (n /= 1) call fail('one acknowledged failure')
    call MPI_Group_free(acked)
    flag = 5
    call MPIX_Comm_iagree(comm, flag, req)
    call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
    if (ierr /= MPI_SUCCESS .or. flag /= 5) call fail('iagree')
    call MPIX_Comm_shrink(comm, small, ierr)
    if (ierr /= MPI_SUCCESS) call fail('shrink')
    call MPIX_Comm_ishrink(small, small2, req)
    call MPI_Wait(req, MPI_STATUS_IGNORE)
    call MPI_Comm_size(small2, ssize)
    call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, small2)
    if (ssize /= size - 1 .or. total /= (size - 1) * (size - 2) / 2) call fail('shrunk communicator')
    if (rank == 0) print '(A,I0,A)', 'f08_ulfm: ok (', ssize, ' survivors)'
    call MPI_Comm_free(small2)
    call MPI_Comm_free(small)
    call MPI_Comm_free(comm)
    call MPI_Finalize()
contains
    subroutine fail(what)
        character(len=*), intent(in) :: what
        print *, 'FAIL: ', what
        call MPI_Abort(MPI_COMM_WORLD, 1)
    end subroutine
end program f08_ulfm
