! f_ring.f90: a token around a ring with MPI_Send/MPI_Recv; the status'
! MPI_SOURCE and MPI_TAG and MPI_Get_count; MPI_STATUS_IGNORE. `use mpi`.
program f_ring
    use mpi
    implicit none
    integer :: ierr, rank, size, next, prev, count, i
    integer :: status(MPI_STATUS_SIZE)
    integer :: buf(5)
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
    next = mod(rank + 1, size)
    prev = mod(rank + size - 1, size)
    if (rank == 0) then
        buf = (/ (i, i = 1, 5) /)
        call MPI_Send(buf, 3, MPI_INTEGER, next, 7, MPI_COMM_WORLD, ierr)
        call MPI_Recv(buf, 5, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, status, ierr)
    else
        call MPI_Recv(buf, 5, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, status, ierr)
    end if
    call MPI_Get_count(status, MPI_INTEGER, count, ierr)
    if (status(MPI_SOURCE) /= prev .or. status(MPI_TAG) /= 7 + prev .or. count /= 3 &
        .or. buf(3) /= 3 + prev) then
        print *, 'FAIL rank', rank, 'source', status(MPI_SOURCE), 'tag', status(MPI_TAG), &
            'count', count, 'buf', buf(1:3)
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
    if (rank /= 0) then
        buf(1:3) = buf(1:3) + 1
        call MPI_Send(buf, 3, MPI_INTEGER, next, 7 + rank, MPI_COMM_WORLD, ierr)
    end if
    ! a message received with MPI_STATUS_IGNORE
    if (rank == 0) call MPI_Send(rank, 1, MPI_INTEGER, next, 99, MPI_COMM_WORLD, ierr)
    if (rank == 1) then
        call MPI_Recv(i, 1, MPI_INTEGER, 0, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    end if
    if (rank == 0) print '(A,I0,A)', 'ring of ', size, ' ok'
    call MPI_Finalize(ierr)
end program f_ring
