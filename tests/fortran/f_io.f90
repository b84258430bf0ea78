! f_io.f90: MPI-IO from Fortran: a 2-D array distributed by column blocks
! written collectively through a subarray view (MPI_ORDER_FORTRAN), read
! back whole by every rank with explicit offsets, a nonblocking write and
! read, the file's size, an error handler written in Fortran, and
! MPI_File_delete. `use mpi`.
module f_io_handler
    implicit none
    integer :: calls = 0, seen = -1
contains
    subroutine on_file_error(file, code)
        integer :: file, code
        calls = calls + 1
        seen = file
        if (code == 0) calls = -100
    end subroutine
end module f_io_handler

program f_io
    use mpi
    use f_io_handler
    implicit none
    integer, parameter :: n = 6, per = 4
    integer :: ierr, rank, size, fh, ftype, req, i, j, count, bad, eh, e2
    integer :: sizes(2), subsizes(2), starts(2)
    integer :: status(MPI_STATUS_SIZE)
    integer(kind=MPI_OFFSET_KIND) :: disp, fsize, off
    double precision :: mine(n, per), whole(n, per * 16), one(n)
    character(len=256) :: fname, tmpdir
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
    if (rank == 0) then
        call get_environment_variable('TMPDIR', tmpdir, status=i)
        if (i /= 0 .or. len_trim(tmpdir) == 0) tmpdir = '/tmp'
        write (fname, '(a,a,i0,a)') trim(tmpdir), '/f_io_', getpid_value(), '.dat'
    end if
    call MPI_Bcast(fname, len(fname), MPI_CHARACTER, 0, MPI_COMM_WORLD, ierr)
    do j = 1, per
        do i = 1, n
            mine(i, j) = 1000 * rank + 10 * j + i
        end do
    end do
    call MPI_File_open(MPI_COMM_WORLD, trim(fname), MPI_MODE_CREATE + MPI_MODE_RDWR, MPI_INFO_NULL, fh, ierr)
    call check(ierr, 'open')
    sizes = (/ n, per * size /)
    subsizes = (/ n, per /)
    starts = (/ 0, per * rank /)
    call MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_DOUBLE_PRECISION, ftype, ierr)
    call MPI_Type_commit(ftype, ierr)
    disp = 0
    call MPI_File_set_view(fh, disp, MPI_DOUBLE_PRECISION, ftype, 'native', MPI_INFO_NULL, ierr)
    call check(ierr, 'set_view')
    call MPI_File_write_all(fh, mine, n * per, MPI_DOUBLE_PRECISION, status, ierr)
    call check(ierr, 'write_all')
    call MPI_Get_count(status, MPI_DOUBLE_PRECISION, count, ierr)
    if (count /= n * per) call fail('write_all count')
    call MPI_File_sync(fh, ierr)
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    call MPI_File_sync(fh, ierr)
    call MPI_File_set_view(fh, disp, MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, 'native', MPI_INFO_NULL, ierr)
    off = 0
    call MPI_File_read_at(fh, off, whole, n * per * size, MPI_DOUBLE_PRECISION, status, ierr)
    call check(ierr, 'read_at')
    bad = 0
    do j = 1, per * size
        do i = 1, n
            if (whole(i, j) /= 1000 * ((j - 1) / per) + 10 * (mod(j - 1, per) + 1) + i) bad = bad + 1
        end do
    end do
    if (bad /= 0) call fail('file contents')
    call MPI_File_get_size(fh, fsize, ierr)
    if (fsize /= 8 * n * per * size) call fail('size')
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    ! a nonblocking write of one column after the array, and its read
    off = n * per * size + n * rank
    one = 7.5d0 + rank
    call MPI_File_iwrite_at(fh, off, one, n, MPI_DOUBLE_PRECISION, req, ierr)
    call MPI_Wait(req, status, ierr)
    call check(ierr, 'iwrite_at')
    one = 0
    call MPI_File_iread_at(fh, off, one, n, MPI_DOUBLE_PRECISION, req, ierr)
    call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
    if (any(one /= 7.5d0 + rank)) call fail('iread_at')
    ! an error handler written in Fortran, called for an error on the file
    call MPI_File_create_errhandler(on_file_error, eh, ierr)
    call MPI_File_set_errhandler(fh, eh, ierr)
    off = -1
    calls = 0
    call MPI_File_read_at(fh, off, one, n, MPI_DOUBLE_PRECISION, status, ierr)
    call MPI_Error_class(ierr, count, e2)
    if (calls /= 1 .or. count /= MPI_ERR_ARG .or. seen /= fh) call fail('file error handler')
    call MPI_Errhandler_free(eh, ierr)
    call MPI_File_close(fh, ierr)
    call check(ierr, 'close')
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    if (rank == 0) then
        call MPI_File_delete(trim(fname), MPI_INFO_NULL, ierr)
        call check(ierr, 'delete')
        print '(a,i0,a)', 'io on ', size, ' ok'
    end if
    call MPI_Type_free(ftype, ierr)
    call MPI_Finalize(ierr)
contains
    integer function getpid_value()
        integer :: t
        call system_clock(t)
        getpid_value = t
    end function
    subroutine check(e, what)
        integer, intent(in) :: e
        character(len=*), intent(in) :: what
        character(len=MPI_MAX_ERROR_STRING) :: msg
        integer :: l, e2
        if (e /= MPI_SUCCESS) then
            call MPI_Error_string(e, msg, l, e2)
            print *, 'FAIL ', what, ': ', msg(1:l)
            call MPI_Abort(MPI_COMM_WORLD, 1, e2)
        end if
    end subroutine
    subroutine fail(what)
        character(len=*), intent(in) :: what
        integer :: e2
        print *, 'FAIL rank', rank, ': ', what
        call MPI_Abort(MPI_COMM_WORLD, 1, e2)
    end subroutine
end program f_io
