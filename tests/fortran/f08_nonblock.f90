! f08_nonblock.f90: MPI_Isend/MPI_Irecv with every other rank, arrays of
! TYPE(MPI_Request) and TYPE(MPI_Status) in MPI_Waitall, MPI_STATUSES_IGNORE,
! MPI_Waitany's 1-based index, MPI_Test, and `==` with MPI_REQUEST_NULL.
! `use mpi_f08`.
program f08_nonblock
    use mpi_f08
    implicit none
    integer, parameter :: maxp = 64
    integer :: rank, size, p, n, idx, k, ierror
    integer :: inbox(maxp), outbox(maxp)
    type(MPI_Request) :: reqs(2 * maxp)
    type(MPI_Status) :: stats(2 * maxp), st
    logical :: done
    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, size)
    ! round 1: statuses
    n = 0
    do p = 0, size - 1
        outbox(p + 1) = 100 * rank + p
        inbox(p + 1) = -1
        n = n + 1
        call MPI_Irecv(inbox(p + 1), 1, MPI_INTEGER, p, 3, MPI_COMM_WORLD, reqs(n))
        n = n + 1
        call MPI_Isend(outbox(p + 1), 1, MPI_INTEGER, p, 3, MPI_COMM_WORLD, reqs(n))
    end do
    call MPI_Waitall(n, reqs, stats, ierror)
    if (ierror /= MPI_SUCCESS) call fail('waitall')
    do p = 0, size - 1
        if (inbox(p + 1) /= 100 * p + rank) call fail('round 1 data')
        if (stats(2 * p + 1)%MPI_SOURCE /= p .or. stats(2 * p + 1)%MPI_TAG /= 3) call fail('round 1 status')
        if (reqs(2 * p + 1) /= MPI_REQUEST_NULL) call fail('request not freed')
    end do
    ! round 2: MPI_STATUSES_IGNORE
    outbox = -outbox
    n = 0
    do p = 0, size - 1
        n = n + 1
        call MPI_Irecv(inbox(p + 1), 1, MPI_INTEGER, p, 4, MPI_COMM_WORLD, reqs(n))
        n = n + 1
        call MPI_Isend(outbox(p + 1), 1, MPI_INTEGER, p, 4, MPI_COMM_WORLD, reqs(n))
    end do
    call MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE)
    if (any(inbox(1:size) /= (/ (-(100 * p + rank), p = 0, size - 1) /))) call fail('round 2 data')
    ! round 3: Waitany over receives from all, then Test on a done request
    do p = 0, size - 1
        call MPI_Irecv(inbox(p + 1), 1, MPI_INTEGER, p, 5, MPI_COMM_WORLD, reqs(p + 1))
    end do
    do p = 0, size - 1
        call MPI_Send(rank, 1, MPI_INTEGER, p, 5, MPI_COMM_WORLD)
    end do
    do k = 1, size
        call MPI_Waitany(size, reqs, idx, st)
        if (idx < 1 .or. idx > size) call fail('waitany index')
        if (st%MPI_SOURCE /= idx - 1 .or. inbox(idx) /= idx - 1) call fail('waitany status')
    end do
    call MPI_Test(reqs(1), done, st)
    if (.not. done .or. .not. all(reqs(1:size) == MPI_REQUEST_NULL)) call fail('test')
    call MPI_Barrier(MPI_COMM_WORLD)
    if (rank == 0) print '(A,I0,A)', 'f08 nonblocking ', size, ' ok'
    call MPI_Finalize()
contains
    subroutine fail(what)
        character(len=*), intent(in) :: what
        print *, 'FAIL rank', rank, ': ', what
        call MPI_Abort(MPI_COMM_WORLD, 1)
    end subroutine
end program f08_nonblock
