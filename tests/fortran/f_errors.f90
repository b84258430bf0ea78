! f_errors.f90: MPI_ERRORS_RETURN on MPI_COMM_WORLD, an error returned in
! ierror (MPI_Send to a rank out of range), MPI_Error_class and
! MPI_Error_string (a Fortran string out). mpif.h.
program f_errors
    implicit none
    include 'mpif.h'
    integer :: ierr, rank, size, cls, rlen, eh
    character(len=MPI_MAX_ERROR_STRING) :: msg
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
    call MPI_Comm_get_errhandler(MPI_COMM_WORLD, eh, ierr)
    if (eh /= MPI_ERRORS_RETURN) then
        print *, 'FAIL get_errhandler', eh
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
    call MPI_Send(rank, 1, MPI_INTEGER, size + 5, 0, MPI_COMM_WORLD, ierr)
    call MPI_Error_class(ierr, cls, rlen)
    if (ierr == MPI_SUCCESS .or. cls /= MPI_ERR_RANK) then
        print *, 'FAIL ierror', ierr, cls
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
    call MPI_Error_string(ierr, msg, rlen, cls)
    if (rlen < 1 .or. len_trim(msg) /= rlen) then
        print *, 'FAIL error string', rlen
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
    if (rank == 0) print '(A,A)', 'error returned: ', msg(1:rlen)
    call MPI_Finalize(ierr)
end program f_errors
