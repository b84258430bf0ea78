! f08_ring.f90: a token around a ring of ranks with MPI_Send/MPI_Recv,
! MPI_ANY_SOURCE and MPI_ANY_TAG; TYPE(MPI_Status) fields MPI_SOURCE and
! MPI_TAG, MPI_Get_count, MPI_Sendrecv with MPI_STATUS_IGNORE, MPI_Probe.
! `use mpi_f08`.
program f08_ring
    use mpi_f08
    implicit none
    integer :: rank, size, next, prev, count, got(5), token(5), i
    type(MPI_Status) :: status
    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, size)
    next = mod(rank + 1, size)
    prev = mod(rank + size - 1, size)
    if (rank == 0) then
        token = (/ (10 * i, i = 1, 5) /)
        call MPI_Send(token, 5, MPI_INTEGER, next, 7, MPI_COMM_WORLD)
        call MPI_Recv(got, 5, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, status)
    else
        call MPI_Probe(prev, MPI_ANY_TAG, MPI_COMM_WORLD, status)
        if (status%MPI_SOURCE /= prev) call fail('probe source')
        call MPI_Recv(got, 5, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, status)
        got = got + 1
        call MPI_Send(got(1:size - rank), size - rank, MPI_INTEGER, next, 7 + rank, MPI_COMM_WORLD)
    end if
    call MPI_Get_count(status, MPI_INTEGER, count)
    if (status%MPI_SOURCE /= prev .or. status%MPI_TAG /= 7 + prev .or. status%MPI_ERROR < 0) &
        call fail('status fields')
    if (rank == 0 .and. (count /= 1 .or. got(1) /= 10 + size - 1)) call fail('token')
    if (rank > 0 .and. count /= merge(5, size - rank + 1, rank == 1)) call fail('count')
    ! a shift with Sendrecv, no status
    call MPI_Sendrecv(rank, 1, MPI_INTEGER, next, 1, i, 1, MPI_INTEGER, prev, 1, &
        MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    if (i /= prev) call fail('sendrecv')
    if (rank == 0) print '(A,I0,A)', 'f08 ring of ', size, ' ok'
    call MPI_Finalize()
contains
    subroutine fail(what)
        character(len=*), intent(in) :: what
        print *, 'FAIL rank', rank, ': ', what, status%MPI_SOURCE, status%MPI_TAG, count
        call MPI_Abort(MPI_COMM_WORLD, 1)
    end subroutine
end program f08_ring
