! f08_io.f90: MPI-IO from `use mpi_f08`: TYPE(MPI_File), offsets of
! INTEGER(KIND=MPI_OFFSET_KIND): every rank writes its block with
! MPI_File_write_at_all, then reads the whole file with MPI_File_read_at
! (TYPE(MPI_Status), MPI_Get_count), MPI_File_get_size, MPI_File_close
! (the handle becomes MPI_FILE_NULL) and MPI_File_delete.
program f08_io
    use mpi_f08
    implicit none
    integer, parameter :: n = 8
    integer :: rank, size, i, count, bad, ierror
    integer, allocatable :: whole(:)
    integer :: mine(n)
    type(MPI_File) :: fh
    type(MPI_Status) :: status
    integer(kind=MPI_OFFSET_KIND) :: off, fsize
    character(len=256) :: fname, tmpdir
    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, size)
    if (rank == 0) then
        call get_environment_variable('TMPDIR', tmpdir, status=i)
        if (i /= 0 .or. len_trim(tmpdir) == 0) tmpdir = '/tmp'
        call system_clock(i)
        write (fname, '(a,a,i0,a)') trim(tmpdir), '/f08_io_', i, '.dat'
    end if
    call MPI_Bcast(fname, len(fname), MPI_CHARACTER, 0, MPI_COMM_WORLD)
    call MPI_File_open(MPI_COMM_WORLD, trim(fname), MPI_MODE_CREATE + MPI_MODE_RDWR, &
        MPI_INFO_NULL, fh, ierror)
    if (ierror /= MPI_SUCCESS .or. fh == MPI_FILE_NULL) call fail('open')
    mine = (/ (1000 * rank + i, i = 1, n) /)
    off = int(rank, MPI_OFFSET_KIND) * n * 4
    call MPI_File_write_at_all(fh, off, mine, n, MPI_INTEGER, status, ierror)
    if (ierror /= MPI_SUCCESS) call fail('write_at_all')
    call MPI_Get_count(status, MPI_INTEGER, count)
    if (count /= n) call fail('write count')
    call MPI_File_sync(fh)
    call MPI_Barrier(MPI_COMM_WORLD)
    call MPI_File_sync(fh)
    allocate (whole(n * size))
    whole = -1
    off = 0
    call MPI_File_read_at(fh, off, whole, n * size, MPI_INTEGER, status, ierror)
    if (ierror /= MPI_SUCCESS) call fail('read_at')
    call MPI_Get_count(status, MPI_INTEGER, count)
    if (count /= n * size) call fail('read count')
    bad = 0
    do i = 1, n * size
        if (whole(i) /= 1000 * ((i - 1) / n) + mod(i - 1, n) + 1) bad = bad + 1
    end do
    if (bad /= 0) call fail('contents')
    call MPI_File_get_size(fh, fsize)
    if (fsize /= 4 * n * size) call fail('size')
    call MPI_File_close(fh, ierror)
    if (ierror /= MPI_SUCCESS .or. fh /= MPI_FILE_NULL) call fail('close')
    call MPI_Barrier(MPI_COMM_WORLD)
    if (rank == 0) then
        call MPI_File_delete(trim(fname), MPI_INFO_NULL, ierror)
        if (ierror /= MPI_SUCCESS) call fail('delete')
        print '(a,i0,a)', 'f08 io on ', size, ' ok'
    end if
    deallocate (whole)
    call MPI_Finalize()
contains
    subroutine fail(what)
        character(len=*), intent(in) :: what
        print *, 'FAIL rank', rank, ': ', what, ierror
        call MPI_Abort(MPI_COMM_WORLD, 1)
    end subroutine
end program f08_io
