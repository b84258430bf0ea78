! f08_subarray.f90: choice buffers of `use mpi_f08` as assumed-rank arrays
! (MPI_SUBARRAYS_SUPPORTED): non-contiguous array sections - a(1:n:2), a
! 2-D section, a reversed section, a section of an array of a derived
! type, part of a section - given to MPI_Send/MPI_Recv, MPI_Isend/
! MPI_Irecv + MPI_Wait, MPI_Bcast, MPI_Allreduce (MPI_IN_PLACE too),
! MPI_Gather, MPI_Iallreduce, MPI_Send_init/MPI_Recv_init (a COMPLEX
! section as MPI_REAL), MPI_Put/MPI_Get with fences, MPI_File_write_at/
! MPI_File_read_at and MPI_File_iwrite_at/MPI_File_iread_at, each checked
! element by element, the elements outside the section untouched;
! scalars; MPI_Get_address of a section; blocking reductions between
! a section and a contiguous buffer (copied); MPI_ERR_BUFFER for a
! nonblocking one; and MPI_Status_f2f08/f082f.
! Needs at least 2 ranks; rank 0 and 1 exchange, all join collectives.
program f08_subarray
    use mpi_f08
    implicit none
    integer, parameter :: n = 12
    type :: particle
        integer :: id
        double precision :: x
        integer :: tag
    end type particle
    integer :: rank, size, i, j, k, ierror, peer, scalar
    double precision :: a(2 * n), b(2 * n)
    integer :: m(6, 8), c(6, 8), flat(20)
    type(particle) :: parts(10), got(10)
    type(MPI_Datatype) :: ptype, tmp
    integer :: blens(3)
    integer(kind=MPI_ADDRESS_KIND) :: disps(3), base, lb, extent
    type(MPI_Request) :: reqs(2)
    type(MPI_Status) :: status, st08
    integer :: fstatus(MPI_STATUS_SIZE), count
    integer, allocatable :: gath(:)
    integer :: win_mem(20), org(40)
    type(MPI_Win) :: win
    integer(kind=MPI_ADDRESS_KIND) :: wbytes, disp
    type(MPI_File) :: fh
    integer(kind=MPI_OFFSET_KIND) :: off
    complex :: zs(8), zr(8)
    double precision :: zsum(n + 1)
    character(len=256) :: fname, tmpdir

    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, size)
    if (.not. MPI_SUBARRAYS_SUPPORTED) call fail('MPI_SUBARRAYS_SUPPORTED')
    if (.not. MPI_ASYNC_PROTECTS_NONBLOCKING) call fail('MPI_ASYNC_PROTECTS_NONBLOCKING')
    if (size < 2) call fail('needs 2 ranks')
    peer = 1 - rank

    ! 1. a(1:2n:2) sent, received into b(2:2n:2)
    if (rank <= 1) then
        a = (/ (dble(i), i = 1, 2 * n) /)
        b = -1d0
        if (rank == 0) then
            call MPI_Send(a(1:2 * n:2), n, MPI_DOUBLE_PRECISION, 1, 1, MPI_COMM_WORLD)
        else
            call MPI_Recv(b(2:2 * n:2), n, MPI_DOUBLE_PRECISION, 0, 1, MPI_COMM_WORLD, status)
            call MPI_Get_count(status, MPI_DOUBLE_PRECISION, count)
            if (count /= n) call fail('strided recv count')
            do i = 1, n
                if (b(2 * i) /= dble(2 * i - 1)) call fail('strided recv value')
                if (b(2 * i - 1) /= -1d0) call fail('strided recv outside')
            end do
        end if
    end if

    ! 2. a 2-D section m(2:5, 3:7) into a contiguous array, and into a 2-D
    ! section of another shape c(1:6:...)
    if (rank <= 1) then
        m = reshape((/ (i, i = 1, 48) /), (/ 6, 8 /))
        c = -1
        flat = -1
        if (rank == 0) then
            call MPI_Send(m(2:5, 3:7), 20, MPI_INTEGER, 1, 2, MPI_COMM_WORLD)
            call MPI_Send(m(2:5, 3:7), 20, MPI_INTEGER, 1, 3, MPI_COMM_WORLD)
        else
            call MPI_Recv(flat, 20, MPI_INTEGER, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
            if (any(flat /= reshape(m(2:5, 3:7), (/ 20 /)))) call fail('2-D section to contiguous')
            call MPI_Recv(c(1:5, 2:8:2), 20, MPI_INTEGER, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
            k = 0
            do j = 1, 8
                do i = 1, 6
                    if (i <= 5 .and. mod(j, 2) == 0) then
                        k = k + 1
                        if (c(i, j) /= flat(k)) call fail('2-D section to 2-D section')
                    else if (c(i, j) /= -1) then
                        call fail('2-D section outside')
                    end if
                end do
            end do
        end if
    end if

    ! 3. nonblocking: Isend of a reversed section, Irecv into a 2-D section,
    ! the buffers used after the calls return
    if (rank <= 1) then
        m = reshape((/ (100 * rank + i, i = 1, 48) /), (/ 6, 8 /))
        c = -1
        flat = (/ (1000 * rank + i, i = 1, 20) /)
        call MPI_Irecv(c(2:6:2, 1:7:3), 9, MPI_INTEGER, peer, 4, MPI_COMM_WORLD, reqs(1))
        call MPI_Isend(flat(20:4:-2), 9, MPI_INTEGER, peer, 4, MPI_COMM_WORLD, reqs(2))
        call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE)
        k = 20
        do j = 1, 8
            do i = 1, 6
                if (mod(i, 2) == 0 .and. mod(j - 1, 3) == 0) then
                    if (c(i, j) /= 1000 * peer + k) call fail('nonblocking section value')
                    k = k - 2
                else if (c(i, j) /= -1) then
                    call fail('nonblocking section outside')
                end if
            end do
        end do
        ! one request at a time, MPI_Wait
        b = -1d0
        a = (/ (dble(i + 100 * rank), i = 1, 2 * n) /)
        if (rank == 0) then
            call MPI_Isend(a(2:2 * n:3), 8, MPI_DOUBLE_PRECISION, 1, 5, MPI_COMM_WORLD, reqs(1))
        else
            call MPI_Irecv(b(1:2 * n:3), 8, MPI_DOUBLE_PRECISION, 0, 5, MPI_COMM_WORLD, reqs(1))
        end if
        call MPI_Wait(reqs(1), status)
        if (rank == 1) then
            do i = 1, 2 * n
                if (mod(i - 1, 3) == 0) then
                    if (b(i) /= dble(i + 1)) call fail('isend/irecv value')
                else if (b(i) /= -1d0) then
                    call fail('isend/irecv outside')
                end if
            end do
        end if
    end if

    ! 4. a section of an array of a derived type, with its MPI datatype
    call MPI_Get_address(parts(1)%id, base)
    call MPI_Get_address(parts(1)%x, disps(2))
    call MPI_Get_address(parts(1)%tag, disps(3))
    disps(1) = 0
    disps(2) = disps(2) - base
    disps(3) = disps(3) - base
    blens = 1
    call MPI_Type_create_struct(3, blens, disps, (/ MPI_INTEGER, MPI_DOUBLE_PRECISION, MPI_INTEGER /), tmp)
    call MPI_Get_address(parts(2)%id, extent)
    extent = extent - base
    lb = 0
    call MPI_Type_create_resized(tmp, lb, extent, ptype)
    call MPI_Type_free(tmp)
    call MPI_Type_commit(ptype)
    if (rank <= 1) then
        do i = 1, 10
            parts(i) = particle(i, dble(i) / 4, -i)
            got(i) = particle(-1, -1d0, -1)
        end do
        if (rank == 0) then
            call MPI_Send(parts(1:10:3), 4, ptype, 1, 6, MPI_COMM_WORLD)
        else
            call MPI_Recv(got(2:8:2), 4, ptype, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
            do i = 1, 10
                if (mod(i, 2) == 0 .and. i <= 8) then
                    k = 3 * (i / 2 - 1) + 1
                    if (got(i)%id /= k .or. got(i)%x /= dble(k) / 4 .or. got(i)%tag /= -k) &
                        call fail('derived type section value')
                else if (got(i)%id /= -1 .or. got(i)%x /= -1d0 .or. got(i)%tag /= -1) then
                    call fail('derived type section outside')
                end if
            end do
        end if
    end if
    call MPI_Type_free(ptype)

    ! 5. fewer items than the section holds: 5 of a(1:2n:2); scalars
    if (rank <= 1) then
        a = (/ (dble(i), i = 1, 2 * n) /)
        b = -1d0
        if (rank == 0) then
            call MPI_Send(a(1:2 * n:2), 5, MPI_DOUBLE_PRECISION, 1, 7, MPI_COMM_WORLD)
            scalar = 42
            call MPI_Send(scalar, 1, MPI_INTEGER, 1, 8, MPI_COMM_WORLD)
        else
            call MPI_Recv(b(1:2 * n:4), 5, MPI_DOUBLE_PRECISION, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
            do i = 1, 2 * n
                if (mod(i - 1, 4) == 0 .and. i <= 17) then
                    if (b(i) /= dble(2 * ((i - 1) / 4) + 1)) call fail('part of a section value')
                else if (b(i) /= -1d0) then
                    call fail('part of a section outside')
                end if
            end do
            call MPI_Recv(scalar, 1, MPI_INTEGER, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
            if (scalar /= 42) call fail('scalar')
        end if
    end if

    ! 6. collectives: Bcast of a 2-D section; Allreduce of sections, of a
    ! scalar, and MPI_IN_PLACE on a 2-D section; Gather into a strided buffer
    m = -1
    if (rank == 0) m(2:5, 3:7) = reshape((/ (i, i = 1, 20) /), (/ 4, 5 /))
    call MPI_Bcast(m(2:5, 3:7), 20, MPI_INTEGER, 0, MPI_COMM_WORLD)
    do j = 1, 8
        do i = 1, 6
            if (i >= 2 .and. i <= 5 .and. j >= 3 .and. j <= 7) then
                if (m(i, j) /= (i - 1) + 4 * (j - 3)) call fail('bcast value')
            else if (m(i, j) /= -1) then
                call fail('bcast outside')
            end if
        end do
    end do
    a = (/ (dble(i + rank), i = 1, 2 * n) /)
    b = -1d0
    call MPI_Allreduce(a(1:2 * n:2), b(1:2 * n:2), n, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD)
    do i = 1, 2 * n
        if (mod(i, 2) == 1) then
            if (b(i) /= dble(size * i + size * (size - 1) / 2)) call fail('allreduce value')
        else if (b(i) /= -1d0) then
            call fail('allreduce outside')
        end if
    end do
    scalar = rank + 1
    call MPI_Allreduce(MPI_IN_PLACE, scalar, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    if (scalar /= size * (size + 1) / 2) call fail('allreduce scalar in place')
    m = reshape((/ (i + rank, i = 1, 48) /), (/ 6, 8 /))
    call MPI_Allreduce(MPI_IN_PLACE, m(2:5, 3:7), 20, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD)
    do j = 1, 8
        do i = 1, 6
            k = i + 6 * (j - 1)
            if (i >= 2 .and. i <= 5 .and. j >= 3 .and. j <= 7) k = k + size - 1 - rank
            if (m(i, j) /= k + rank) call fail('allreduce in place 2-D section')
        end do
    end do
    allocate(gath(4 * size))
    gath = -1
    scalar = 10 * rank
    call MPI_Gather(scalar, 1, MPI_INTEGER, gath(1:4 * size:4), 1, MPI_INTEGER, 0, MPI_COMM_WORLD)
    if (rank == 0) then
        do i = 1, 4 * size
            if (mod(i - 1, 4) == 0) then
                if (gath(i) /= 10 * ((i - 1) / 4)) call fail('gather value')
            else if (gath(i) /= -1) then
                call fail('gather outside')
            end if
        end do
    end if
    deallocate(gath)

    ! 7. one-sided: Put from a section, Get into a section (fences)
    win_mem = -1
    wbytes = 4 * 20
    call MPI_Win_create(win_mem, wbytes, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win)
    org = (/ (1000 * rank + i, i = 1, 40) /)
    call MPI_Win_fence(0, win)
    disp = 2
    if (rank == 0) call MPI_Put(org(1:40:4), 10, MPI_INTEGER, 1, disp, 10, MPI_INTEGER, win)
    call MPI_Win_fence(0, win)
    call MPI_F_sync_reg(win_mem)
    if (rank == 1) then
        do i = 1, 20
            if (i >= 3 .and. i <= 12) then
                if (win_mem(i) /= 4 * (i - 3) + 1) call fail('put value')
            else if (win_mem(i) /= -1) then
                call fail('put outside')
            end if
        end do
    end if
    win_mem = (/ (100 * rank + i, i = 1, 20) /)
    org = -1
    call MPI_Win_fence(0, win)
    disp = 0
    if (rank == 0) call MPI_Get(org(2:40:2), 20, MPI_INTEGER, 1, disp, 20, MPI_INTEGER, win)
    call MPI_Win_fence(0, win)
    if (rank == 0) then
        do i = 1, 40
            if (mod(i, 2) == 0) then
                if (org(i) /= 100 + i / 2) call fail('get value')
            else if (org(i) /= -1) then
                call fail('get outside')
            end if
        end do
    end if
    call MPI_Win_free(win)

    ! 8. MPI-IO: each rank writes a(1:2n:2) at its offset, reads it back
    ! into b(2:2n:2)
    if (rank == 0) then
        call get_environment_variable('TMPDIR', tmpdir, status=i)
        if (i /= 0 .or. len_trim(tmpdir) == 0) tmpdir = '/tmp'
        call system_clock(i)
        write (fname, '(a,a,i0,a)') trim(tmpdir), '/f08_subarray_', i, '.dat'
    end if
    call MPI_Bcast(fname, len(fname), MPI_CHARACTER, 0, MPI_COMM_WORLD)
    call MPI_File_open(MPI_COMM_WORLD, trim(fname), MPI_MODE_CREATE + MPI_MODE_RDWR, &
        MPI_INFO_NULL, fh, ierror)
    if (ierror /= MPI_SUCCESS) call fail('file open')
    a = (/ (dble(i + 1000 * rank), i = 1, 2 * n) /)
    off = 8 * n * rank
    call MPI_File_write_at(fh, off, a(1:2 * n:2), n, MPI_DOUBLE_PRECISION, status)
    call MPI_Get_count(status, MPI_DOUBLE_PRECISION, count)
    if (count /= n) call fail('file write count')
    call MPI_File_sync(fh)
    call MPI_Barrier(MPI_COMM_WORLD)
    b = -1d0
    off = 8 * n * peer
    if (rank <= 1) call MPI_File_read_at(fh, off, b(2:2 * n:2), n, MPI_DOUBLE_PRECISION, status)
    if (rank <= 1) then
        do i = 1, 2 * n
            if (mod(i, 2) == 0) then
                if (b(i) /= dble(i - 1 + 1000 * peer)) call fail('file read value')
            else if (b(i) /= -1d0) then
                call fail('file read outside')
            end if
        end do
    end if
    ! nonblocking: the sections are used after the calls return
    call MPI_Barrier(MPI_COMM_WORLD)
    a = (/ (dble(i + 2000 * rank), i = 1, 2 * n) /)
    off = 8 * n * rank
    call MPI_File_iwrite_at(fh, off, a(2 * n:1:-2), n, MPI_DOUBLE_PRECISION, reqs(1))
    call MPI_Wait(reqs(1), MPI_STATUS_IGNORE)
    call MPI_File_sync(fh)
    call MPI_Barrier(MPI_COMM_WORLD)
    b = -1d0
    off = 8 * n * rank
    call MPI_File_iread_at(fh, off, b(1:2 * n:2), n, MPI_DOUBLE_PRECISION, reqs(1))
    call MPI_Wait(reqs(1), MPI_STATUS_IGNORE)
    do i = 1, 2 * n
        if (mod(i, 2) == 1) then
            if (b(i) /= dble(2 * n + 1 - i + 2000 * rank)) call fail('file iread value')
        else if (b(i) /= -1d0) then
            call fail('file iread outside')
        end if
    end do
    call MPI_File_close(fh)
    call MPI_Barrier(MPI_COMM_WORLD)
    if (rank == 0) call MPI_File_delete(trim(fname), MPI_INFO_NULL)

    ! 9. nonblocking and persistent: MPI_Iallreduce of a 2-D section in
    ! place, MPI_Send_init/MPI_Recv_init on sections, a COMPLEX section as
    ! twice as many MPI_REAL, MPI_Get_address of a section, and a layout that
    ! cannot be described (a contiguous buffer reduced into a section)
    m = reshape((/ (i, i = 1, 48) /), (/ 6, 8 /))
    call MPI_Iallreduce(MPI_IN_PLACE, m(1:6:5, 2:8:3), 6, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, reqs(1))
    call MPI_Wait(reqs(1), MPI_STATUS_IGNORE)
    do j = 1, 8
        do i = 1, 6
            k = i + 6 * (j - 1)
            if ((i == 1 .or. i == 6) .and. mod(j - 2, 3) == 0) k = k * size
            if (m(i, j) /= k) call fail('iallreduce in place section')
        end do
    end do
    if (rank <= 1) then
        zs = (/ (cmplx(i, -i), i = 1, 8) /)
        zr = (0.0, 0.0)
        call MPI_Send_init(zs(1:8:2), 8, MPI_REAL, peer, 10, MPI_COMM_WORLD, reqs(1))
        call MPI_Recv_init(zr(8:1:-2), 8, MPI_REAL, peer, 10, MPI_COMM_WORLD, reqs(2))
        do k = 1, 2
            call MPI_Startall(2, reqs)
            call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE)
            do i = 1, 8
                if (mod(i, 2) == 0) then
                    if (zr(i) /= zs(9 - i)) call fail('persistent complex section value')
                else if (zr(i) /= (0.0, 0.0)) then
                    call fail('persistent complex section outside')
                end if
            end do
        end do
        call MPI_Request_free(reqs(1))
        call MPI_Request_free(reqs(2))
    end if
    call MPI_Get_address(a(3:2 * n:2), disp)
    call MPI_Get_address(a(3), base)
    if (disp /= base) call fail('get_address of a section')
    ! blocking reductions between buffers laid out differently (copied):
    ! a section into a contiguous array, a contiguous array into a 2-D
    ! section at the root (the others give a scalar as recvbuf)
    a = (/ (dble(i + rank), i = 1, 2 * n) /)
    zsum = -1d0
    call MPI_Allreduce(a(2:2 * n:2), zsum, n, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD)
    do i = 1, n
        if (zsum(i) /= dble(size * 2 * i + size * (size - 1) / 2)) call fail('allreduce section to contiguous')
    end do
    if (zsum(n + 1) /= -1d0) call fail('allreduce section to contiguous: outside')
    m = -1
    flat = (/ (i * (rank + 1), i = 1, 20) /)
    if (rank == 0) then
        call MPI_Reduce(flat, m(2:5, 3:7), 20, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD)
    else
        call MPI_Reduce(flat, scalar, 20, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD)
    end if
    if (rank == 0) then
        do j = 1, 8
            do i = 1, 6
                if (i >= 2 .and. i <= 5 .and. j >= 3 .and. j <= 7) then
                    if (m(i, j) /= ((i - 1) + 4 * (j - 3)) * size * (size + 1) / 2) call fail('reduce into section')
                else if (m(i, j) /= -1) then
                    call fail('reduce into section: outside')
                end if
            end do
        end do
    end if
    ! no datatype describes both and a nonblocking call cannot be copied
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
    call MPI_Iallreduce(a(1:n), b(1:2 * n:2), n, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, &
        reqs(1), ierror)
    if (ierror /= MPI_ERR_BUFFER) call fail('contiguous reduced into a section: MPI_ERR_BUFFER')
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL)

    ! 10. the status conversions of mpi_f08
    if (rank <= 1) then
        if (rank == 0) then
            call MPI_Send(a, 3, MPI_DOUBLE_PRECISION, 1, 9, MPI_COMM_WORLD)
        else
            call MPI_Recv(b, 2 * n, MPI_DOUBLE_PRECISION, 0, 9, MPI_COMM_WORLD, status)
            call MPI_Status_f082f(status, fstatus, ierror)
            if (ierror /= MPI_SUCCESS .or. fstatus(MPI_SOURCE) /= 0 .or. fstatus(MPI_TAG) /= 9) &
                call fail('status_f082f')
            call MPI_Status_f2f08(fstatus, st08)
            call MPI_Get_count(st08, MPI_DOUBLE_PRECISION, count)
            if (st08%MPI_SOURCE /= 0 .or. st08%MPI_TAG /= 9 .or. count /= 3) call fail('status_f2f08')
        end if
    end if

    call MPI_Barrier(MPI_COMM_WORLD)
    if (rank == 0) print '(A,I0,A)', 'f08 subarrays on ', size, ' ok'
    call MPI_Finalize()
contains
    subroutine fail(what)
        character(len=*), intent(in) :: what
        print *, 'FAIL rank', rank, ': ', what
        call MPI_Abort(MPI_COMM_WORLD, 1)
    end subroutine
end program f08_subarray
