! f_ulfm.f90: User-Level Failure Mitigation from `use mpi` and `use mpi_ext`
! (run under mpiexec --enable-recovery, 4 ranks or more): the last rank
! kills itself; the survivors see MPIX_ERR_PROC_FAILED from a barrier,
! acknowledge, agree, shrink, and sum their ranks on the shrunk
! communicator. Also include 'mpif-ext.h' through the module.
program f_ulfm
    use mpi
    use mpi_ext
    implicit none
    integer :: ierr, rank, size, comm, small, cls, flag, n, ssize, total, failed, nacked
    logical :: revoked
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
    call MPI_Comm_dup(MPI_COMM_WORLD, comm, ierr)
    call MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN, ierr)
    flag = 1
    call MPIX_Comm_agree(comm, flag, ierr)
    if (ierr /= MPI_SUCCESS) call fail('first agreement')
    if (rank == size - 1) call kill(getpid(), 9)
    call MPI_Barrier(comm, ierr)
    call MPI_Error_class(ierr, cls, n)
    if (cls /= MPIX_ERR_PROC_FAILED) call fail('the barrier does not report the failure')
    call MPIX_Comm_failure_ack(comm, ierr)
    call MPIX_Comm_get_failed(comm, failed, ierr)
    call MPI_Group_size(failed, n, ierr)
    if (n /= 1) call fail('one failed process')
    call MPI_Group_free(failed, ierr)
    call MPIX_Comm_ack_failed(comm, 1, nacked, ierr)
    if (nacked /= 1) call fail('ack_failed')
    flag = 3
    if (rank == 0) flag = 1
    call MPIX_Comm_agree(comm, flag, ierr)
    if (ierr /= MPI_SUCCESS .or. flag /= 1) call fail('agreement')
    call MPIX_Comm_shrink(comm, small, ierr)
    if (ierr /= MPI_SUCCESS) call fail('shrink')
    call MPI_Comm_size(small, ssize, ierr)
    call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, small, ierr)
    if (ssize /= size - 1 .or. total /= (size - 1) * (size - 2) / 2) call fail('shrunk communicator')
    call MPIX_Comm_revoke(small, ierr)
    call MPIX_Comm_is_revoked(small, revoked, ierr)
    if (.not. revoked) call fail('revoke')
    if (rank == 0) print '(A,I0,A)', 'f_ulfm: ok (', ssize, ' survivors)'
    call MPI_Comm_free(small, ierr)
    call MPI_Comm_free(comm, ierr)
    call MPI_Finalize(ierr)
contains
    subroutine fail(what)
        character(len=*), intent(in) :: what
        print *, 'FAIL: ', what
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end subroutine
end program f_ulfm
