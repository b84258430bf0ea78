! f_callbacks_mod.f90: MPI_Grequest_start and MPI_Register_datarep through
! the `use mpi` interfaces (module procedures as callbacks): a generalized
! request completed by the program and waited on, its status set by the
! query callback; a representation with MPI_CONVERSION_FN_NULL both ways
! (the bytes as they are) and a Fortran extent callback, written and read
! back through MPI_File_set_view. Usage: f_callbacks_mod FILE
module f_callbacks_mod_procs
    use mpi
    implicit none
    integer :: queries = 0, frees = 0, extents = 0
contains
    subroutine query_fn(extra_state, status, ierror)
        integer(kind=MPI_ADDRESS_KIND) :: extra_state
        integer :: status(MPI_STATUS_SIZE), ierror
        queries = queries + 1
        status(MPI_SOURCE) = int(extra_state)
        status(MPI_TAG) = 31
        call MPI_Status_set_elements(status, MPI_INTEGER, 2, ierror)
    end subroutine
    subroutine free_fn(extra_state, ierror)
        integer(kind=MPI_ADDRESS_KIND) :: extra_state
        integer :: ierror
        if (extra_state == 60) frees = frees + 1
        ierror = MPI_SUCCESS
    end subroutine
    subroutine cancel_fn(extra_state, complete, ierror)
        integer(kind=MPI_ADDRESS_KIND) :: extra_state
        logical :: complete
        integer :: ierror
        if (extra_state /= 60 .or. .not. complete) frees = frees - 100   ! not cancelled here
        ierror = MPI_SUCCESS
    end subroutine
    subroutine extent_fn(datatype, extent, extra_state, ierror)
        integer :: datatype, ierror, size
        integer(kind=MPI_ADDRESS_KIND) :: extent, extra_state
        call MPI_Type_size(datatype, size, ierror)
        extent = size
        extents = extents + 1
        if (extra_state /= 5) ierror = MPI_ERR_ARG
    end subroutine
end module f_callbacks_mod_procs

program f_callbacks_mod
    use mpi
    use f_callbacks_mod_procs
    implicit none
    integer, parameter :: n = 6
    integer :: ierr, rank, size, req, count, i, fh
    integer :: status(MPI_STATUS_SIZE), buf(n), back(n)
    integer(kind=MPI_ADDRESS_KIND) :: extra
    integer(kind=MPI_OFFSET_KIND) :: disp
    character(len=512) :: path
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
    call get_command_argument(1, path)
    extra = 60
    call MPI_Grequest_start(query_fn, free_fn, cancel_fn, extra, req, ierr)
    call MPI_Grequest_complete(req, ierr)
    call MPI_Wait(req, status, ierr)
    call MPI_Get_count(status, MPI_INTEGER, count, ierr)
    if (ierr /= MPI_SUCCESS .or. queries /= 1 .or. frees /= 1 .or. status(MPI_SOURCE) /= 60 .or. &
        status(MPI_TAG) /= 31 .or. count /= 2) call fail('generalized request')
    extra = 5
    call MPI_Register_datarep('tide_f_same', MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, &
        extent_fn, extra, ierr)
    if (ierr /= MPI_SUCCESS) call fail('register_datarep')
    call MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE + MPI_MODE_RDWR, MPI_INFO_NULL, fh, ierr)
    disp = 4 * n * rank
    call MPI_File_set_view(fh, disp, MPI_INTEGER, MPI_INTEGER, 'tide_f_same', MPI_INFO_NULL, ierr)
    if (ierr /= MPI_SUCCESS) call fail('set_view')
    buf = (/ (rank * 10 + i, i = 1, n) /)
    disp = 0
    call MPI_File_write_at(fh, disp, buf, n, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
    back = 0
    call MPI_File_read_at(fh, disp, back, n, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
    if (ierr /= MPI_SUCCESS .or. any(back /= buf) .or. extents < 1) call fail('read back')
    call MPI_File_close(fh, ierr)
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    if (rank == 0) call MPI_File_delete(path, MPI_INFO_NULL, ierr)
    if (rank == 0) print '(A,I0,A)', 'module callbacks on ', size, ' ok'
    call MPI_Finalize(ierr)
contains
    subroutine fail(what)
        character(len=*), intent(in) :: what
        print *, 'FAIL rank', rank, ': ', what, queries, frees, extents
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end subroutine
end program f_callbacks_mod
