! f_callbacks.f90: Fortran callbacks with extra state, from mpif.h (external
! subroutines, no interfaces): a generalized request (MPI_Grequest_start)
! tested before it is complete, completed by the program with
! MPI_Grequest_complete and waited on, its status set by the query
! callback; a cancelled one (the cancel callback sees complete = .false.);
! the free callback on each; a data representation registered with
! MPI_Register_datarep (conversions adding and removing the extra state)
! used in MPI_File_set_view, read back through it and as "native".
! Usage: f_callbacks FILE
program f_callbacks
    implicit none
    include 'mpif.h'
    external query_fn, free_fn, cancel_fn, read_fn, write_fn, extent_fn
    integer :: queries, frees, cancels, cancel_complete, converts
    common /counts/ queries, frees, cancels, cancel_complete, converts
    integer, parameter :: n = 8
    integer :: ierr, rank, size, req, count, i, fh
    integer :: status(MPI_STATUS_SIZE), buf(n), back(n)
    integer(kind=MPI_ADDRESS_KIND) :: extra
    integer(kind=MPI_OFFSET_KIND) :: disp
    logical :: flag
    character(len=512) :: path
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
    call get_command_argument(1, path)
    queries = 0
    frees = 0
    cancels = 0
    cancel_complete = -1
    converts = 0
    ! a generalized request, not complete, then completed and waited on
    extra = 40 + rank
    call MPI_Grequest_start(query_fn, free_fn, cancel_fn, extra, req, ierr)
    if (ierr /= MPI_SUCCESS .or. req == MPI_REQUEST_NULL) call fail('grequest_start')
    call MPI_Test(req, flag, status, ierr)
    if (flag) call fail('complete before MPI_Grequest_complete')
    call MPI_Grequest_complete(req, ierr)
    call MPI_Wait(req, status, ierr)
    if (ierr /= MPI_SUCCESS .or. req /= MPI_REQUEST_NULL) call fail('wait')
    if (queries /= 1 .or. frees /= 1) call fail('query and free callbacks')
    if (status(MPI_SOURCE) /= 40 + rank .or. status(MPI_TAG) /= 17) call fail('status from query')
    call MPI_Get_count(status, MPI_INTEGER, count, ierr)
    if (count /= 5) call fail('count from query')
    ! cancelled before it completes
    extra = 7
    call MPI_Grequest_start(query_fn, free_fn, cancel_fn, extra, req, ierr)
    call MPI_Cancel(req, ierr)
    if (cancels /= 1 .or. cancel_complete /= 0) call fail('cancel callback')
    call MPI_Grequest_complete(req, ierr)
    call MPI_Wait(req, status, ierr)
    if (frees /= 2) call fail('second free')
    ! a data representation: the file holds value + 1000
    extra = 1000
    call MPI_Register_datarep('tide_f_plus', read_fn, write_fn, extent_fn, extra, ierr)
    if (ierr /= MPI_SUCCESS) call fail('register_datarep')
    call MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE + MPI_MODE_RDWR, MPI_INFO_NULL, fh, ierr)
    if (ierr /= MPI_SUCCESS) call fail('file_open')
    disp = 4 * n * rank
    call MPI_File_set_view(fh, disp, MPI_INTEGER, MPI_INTEGER, 'tide_f_plus', MPI_INFO_NULL, ierr)
    if (ierr /= MPI_SUCCESS) call fail('set_view tide_f_plus')
    buf = (/ (rank * 100 + i, i = 1, n) /)
    disp = 0
    call MPI_File_write_at(fh, disp, buf, n, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
    if (ierr /= MPI_SUCCESS) call fail('write_at')
    back = 0
    call MPI_File_read_at(fh, disp, back, n, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
    if (ierr /= MPI_SUCCESS .or. any(back /= buf)) call fail('read back through the representation')
    if (converts < 2) call fail('conversion callbacks not called')
    disp = 4 * n * rank
    call MPI_File_set_view(fh, disp, MPI_INTEGER, MPI_INTEGER, 'native', MPI_INFO_NULL, ierr)
    disp = 0
    call MPI_File_read_at(fh, disp, back, n, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
    if (any(back /= buf + 1000)) call fail('native view of the file')
    call MPI_File_close(fh, ierr)
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    if (rank == 0) call MPI_File_delete(path, MPI_INFO_NULL, ierr)
    if (rank == 0) print '(A,I0,A)', 'callbacks on ', size, ' ok'
    call MPI_Finalize(ierr)
contains
    subroutine fail(what)
        character(len=*), intent(in) :: what
        print *, 'FAIL rank', rank, ': ', what, queries, frees, cancels, cancel_complete, converts
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end subroutine
end program f_callbacks

subroutine query_fn(extra_state, status, ierror)
    implicit none
    include 'mpif.h'
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer :: status(MPI_STATUS_SIZE), ierror
    integer :: queries, frees, cancels, cancel_complete, converts
    common /counts/ queries, frees, cancels, cancel_complete, converts
    queries = queries + 1
    status(MPI_SOURCE) = int(extra_state)
    status(MPI_TAG) = 17
    status(MPI_ERROR) = MPI_SUCCESS
    call MPI_Status_set_cancelled(status, .false., ierror)
    call MPI_Status_set_elements(status, MPI_INTEGER, 5, ierror)
end subroutine query_fn

subroutine free_fn(extra_state, ierror)
    implicit none
    include 'mpif.h'
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer :: ierror
    integer :: queries, frees, cancels, cancel_complete, converts
    common /counts/ queries, frees, cancels, cancel_complete, converts
    if (extra_state < 7) frees = frees - 100
    frees = frees + 1
    ierror = MPI_SUCCESS
end subroutine free_fn

subroutine cancel_fn(extra_state, complete, ierror)
    implicit none
    include 'mpif.h'
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    logical :: complete
    integer :: ierror
    integer :: queries, frees, cancels, cancel_complete, converts
    common /counts/ queries, frees, cancels, cancel_complete, converts
    if (extra_state /= 7) cancels = cancels - 100
    cancels = cancels + 1
    cancel_complete = merge(1, 0, complete)
    ierror = MPI_SUCCESS
end subroutine cancel_fn

! conversions of MPI_INTEGER data: the file holds the value plus the extra state
subroutine write_fn(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    implicit none
    include 'mpif.h'
    integer :: userbuf(*), filebuf(*), datatype, count, ierror, i
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer :: queries, frees, cancels, cancel_complete, converts
    common /counts/ queries, frees, cancels, cancel_complete, converts
    ierror = MPI_ERR_TYPE
    if (datatype /= MPI_INTEGER) return
    do i = 1, count
        filebuf(i) = userbuf(position + i) + int(extra_state)
    end do
    converts = converts + 1
    ierror = MPI_SUCCESS
end subroutine write_fn

subroutine read_fn(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    implicit none
    include 'mpif.h'
    integer :: userbuf(*), filebuf(*), datatype, count, ierror, i
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer :: queries, frees, cancels, cancel_complete, converts
    common /counts/ queries, frees, cancels, cancel_complete, converts
    ierror = MPI_ERR_TYPE
    if (datatype /= MPI_INTEGER) return
    do i = 1, count
        userbuf(position + i) = filebuf(i) - int(extra_state)
    end do
    converts = converts + 1
    ierror = MPI_SUCCESS
end subroutine read_fn

subroutine extent_fn(datatype, extent, extra_state, ierror)
    implicit none
    include 'mpif.h'
    integer :: datatype, ierror, size
    integer(kind=MPI_ADDRESS_KIND) :: extent, extra_state
    if (extra_state /= 1000) then
        ierror = MPI_ERR_ARG
        return
    end if
    call MPI_Type_size(datatype, size, ierror)
    extent = size
end subroutine extent_fn
