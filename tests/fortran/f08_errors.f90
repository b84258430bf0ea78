! f08_errors.f90: error handling from `use mpi_f08`: MPI_ERRORS_RETURN on
! MPI_COMM_WORLD, an error in ierror when it is present and returned (the
! program goes on) when it is absent, MPI_Error_class/MPI_Error_string, and
! an error handler written in Fortran (TYPE(MPI_Comm) argument) called by
! MPI_Comm_call_errhandler and by an error on a communicator.
module f08_errors_handler
    use mpi_f08
    implicit none
    integer :: calls = 0, last_code = -1
    type(MPI_Comm) :: last_comm
contains
    subroutine on_error(comm, error_code)
        type(MPI_Comm) :: comm
        integer :: error_code
        calls = calls + 1
        last_code = error_code
        last_comm = comm
    end subroutine
end module f08_errors_handler

program f08_errors
    use mpi_f08
    use f08_errors_handler
    implicit none
    integer :: rank, size, cls, rlen, ierror
    character(len=MPI_MAX_ERROR_STRING) :: msg
    type(MPI_Errhandler) :: eh, got
    type(MPI_Comm) :: dup
    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, size)
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
    call MPI_Comm_get_errhandler(MPI_COMM_WORLD, got)
    if (got /= MPI_ERRORS_RETURN) call fail('get_errhandler')
    ! ierror present: the error class
    call MPI_Send(rank, 1, MPI_INTEGER, size + 5, 0, MPI_COMM_WORLD, ierror)
    call MPI_Error_class(ierror, cls)
    if (ierror == MPI_SUCCESS .or. cls /= MPI_ERR_RANK) call fail('ierror')
    call MPI_Error_string(ierror, msg, rlen)
    if (rlen < 1 .or. len_trim(msg) /= rlen) call fail('error string')
    ! ierror absent: the call returns all the same
    call MPI_Send(rank, 1, MPI_INTEGER, size + 5, 0, MPI_COMM_WORLD)
    call MPI_Send(rank, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD)
    ! a Fortran handler on a duplicate of the world
    call MPI_Comm_dup(MPI_COMM_WORLD, dup)
    call MPI_Comm_create_errhandler(on_error, eh)
    call MPI_Comm_set_errhandler(dup, eh)
    call MPI_Comm_call_errhandler(dup, MPI_ERR_OTHER)
    if (calls /= 1 .or. last_code /= MPI_ERR_OTHER .or. last_comm /= dup) call fail('call_errhandler')
    call MPI_Send(rank, 1, MPI_INTEGER, -7, 0, dup, ierror)
    call MPI_Error_class(last_code, cls)
    if (calls /= 2 .or. cls /= MPI_ERR_RANK .or. ierror /= last_code) call fail('handler on send')
    call MPI_Errhandler_free(eh)
    if (eh /= MPI_ERRHANDLER_NULL) call fail('errhandler_free')
    call MPI_Comm_free(dup)
    if (rank == 0) print '(A,A)', 'f08 error returned: ', msg(1:rlen)
    call MPI_Finalize()
contains
    subroutine fail(what)
        character(len=*), intent(in) :: what
        integer :: e
        print *, 'FAIL rank', rank, ': ', what, ierror, cls, calls, last_code
        call MPI_Abort(MPI_COMM_WORLD, 1, e)
    end subroutine
end program f08_errors
