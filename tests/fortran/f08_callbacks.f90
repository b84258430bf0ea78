! f08_callbacks.f90: Fortran callbacks with extra state from `use mpi_f08`
! (the standard's abstract interfaces): a generalized request whose query
! callback sets a TYPE(MPI_Status), completed by the program and waited
! on; a cancelled one (LOGICAL complete); MPI_Register_datarep with a write
! conversion taking TYPE(C_PTR) buffers by value and MPI_CONVERSION_FN_NULL
! for reading, used in MPI_File_set_view. Usage: f08_callbacks FILE
module f08_callbacks_procs
    use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
    use mpi_f08
    implicit none
    integer :: queries = 0, frees = 0, cancels = 0, cancel_complete = -1, converts = 0
contains
    subroutine query_fn(extra_state, status, ierror)
        integer(kind=MPI_ADDRESS_KIND) :: extra_state
        type(MPI_Status) :: status
        integer :: ierror
        queries = queries + 1
        status%MPI_SOURCE = int(extra_state)
        status%MPI_TAG = 23
        status%MPI_ERROR = MPI_SUCCESS
        call MPI_Status_set_cancelled(status, .false.)
        call MPI_Status_set_elements(status, MPI_DOUBLE_PRECISION, 3, ierror)
    end subroutine
    subroutine free_fn(extra_state, ierror)
        integer(kind=MPI_ADDRESS_KIND) :: extra_state
        integer :: ierror
        if (extra_state < 7) frees = frees - 100
        frees = frees + 1
        ierror = MPI_SUCCESS
    end subroutine
    subroutine cancel_fn(extra_state, complete, ierror)
        integer(kind=MPI_ADDRESS_KIND) :: extra_state
        logical :: complete
        integer :: ierror
        if (extra_state /= 7) cancels = cancels - 100
        cancels = cancels + 1
        cancel_complete = merge(1, 0, complete)
        ierror = MPI_SUCCESS
    end subroutine
    ! MPI_INTEGER data: the file holds the value plus the extra state
    subroutine write_fn(userbuf, datatype, count, filebuf, position, extra_state, ierror)
        type(c_ptr), value :: userbuf, filebuf
        type(MPI_Datatype) :: datatype
        integer :: count, ierror
        integer(kind=MPI_OFFSET_KIND) :: position
        integer(kind=MPI_ADDRESS_KIND) :: extra_state
        integer, pointer :: user(:), file(:)
        ierror = MPI_ERR_TYPE
        if (datatype /= MPI_INTEGER) return
        call c_f_pointer(userbuf, user, (/ int(position) + count /))
        call c_f_pointer(filebuf, file, (/ count /))
        file = user(position + 1:) + int(extra_state)
        converts = converts + 1
        ierror = MPI_SUCCESS
    end subroutine
    subroutine extent_fn(datatype, extent, extra_state, ierror)
        type(MPI_Datatype) :: datatype
        integer(kind=MPI_ADDRESS_KIND) :: extent, extra_state
        integer :: ierror, size
        call MPI_Type_size(datatype, size, ierror)
        extent = size
        if (extra_state /= 1000) ierror = MPI_ERR_ARG
    end subroutine
end module f08_callbacks_procs

program f08_callbacks
    use mpi_f08
    use f08_callbacks_procs
    implicit none
    integer, parameter :: n = 8
    integer :: rank, size, count, i, ierror
    integer :: buf(n), back(n)
    type(MPI_Request) :: req
    type(MPI_Status) :: status
    type(MPI_File) :: fh
    integer(kind=MPI_ADDRESS_KIND) :: extra
    integer(kind=MPI_OFFSET_KIND) :: disp
    logical :: flag
    character(len=512) :: path
    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, size)
    call get_command_argument(1, path)
    extra = 50 + rank
    call MPI_Grequest_start(query_fn, free_fn, cancel_fn, extra, req, ierror)
    if (ierror /= MPI_SUCCESS .or. req == MPI_REQUEST_NULL) call fail('grequest_start')
    call MPI_Test(req, flag, status)
    if (flag) call fail('complete before MPI_Grequest_complete')
    call MPI_Grequest_complete(req)
    call MPI_Wait(req, status)
    if (req /= MPI_REQUEST_NULL .or. queries /= 1 .or. frees /= 1) call fail('wait, query, free')
    if (status%MPI_SOURCE /= 50 + rank .or. status%MPI_TAG /= 23) call fail('status from query')
    call MPI_Get_count(status, MPI_DOUBLE_PRECISION, count)
    if (count /= 3) call fail('count from query')
    extra = 7
    call MPI_Grequest_start(query_fn, free_fn, cancel_fn, extra, req)
    call MPI_Cancel(req)
    if (cancels /= 1 .or. cancel_complete /= 0) call fail('cancel callback')
    call MPI_Grequest_complete(req)
    call MPI_Wait(req, MPI_STATUS_IGNORE)
    if (frees /= 2) call fail('second free')
    ! a representation converting on write only
    extra = 1000
    call MPI_Register_datarep('tide_f08_plus', MPI_CONVERSION_FN_NULL, write_fn, extent_fn, extra, ierror)
    if (ierror /= MPI_SUCCESS) call fail('register_datarep')
    call MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE + MPI_MODE_RDWR, MPI_INFO_NULL, fh)
    disp = 4 * n * rank
    call MPI_File_set_view(fh, disp, MPI_INTEGER, MPI_INTEGER, 'tide_f08_plus', MPI_INFO_NULL, ierror)
    if (ierror /= MPI_SUCCESS) call fail('set_view')
    buf = (/ (rank * 100 + i, i = 1, n) /)
    disp = 0
    call MPI_File_write_at(fh, disp, buf, n, MPI_INTEGER, MPI_STATUS_IGNORE, ierror)
    if (ierror /= MPI_SUCCESS .or. converts < 1) call fail('write_at')
    back = 0
    call MPI_File_read_at(fh, disp, back, n, MPI_INTEGER, MPI_STATUS_IGNORE, ierror)
    if (ierror /= MPI_SUCCESS .or. any(back /= buf + 1000)) call fail('read without conversion')
    call MPI_File_close(fh)
    call MPI_Barrier(MPI_COMM_WORLD)
    if (rank == 0) call MPI_File_delete(path, MPI_INFO_NULL)
    if (rank == 0) print '(A,I0,A)', 'f08 callbacks on ', size, ' ok'
    call MPI_Finalize()
contains
    subroutine fail(what)
        character(len=*), intent(in) :: what
        print *, 'FAIL rank', rank, ': ', what, queries, frees, cancels, cancel_complete, converts
        call MPI_Abort(MPI_COMM_WORLD, 1)
    end subroutine
end program f08_callbacks
