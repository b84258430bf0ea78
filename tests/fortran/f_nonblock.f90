! f_nonblock.f90: MPI_Isend/MPI_Irecv from every rank to every rank,
! MPI_Waitall with an array of statuses, then with MPI_STATUSES_IGNORE,
! and MPI_Waitany's 1-based index. mpif.h.
program f_nonblock
    implicit none
    include 'mpif.h'
    integer :: ierr, rank, size, i, idx
    integer, allocatable :: reqs(:), stats(:,:), inb(:), outb(:)
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
    allocate(reqs(2 * size), stats(MPI_STATUS_SIZE, 2 * size), inb(size), outb(size))
    stats = -5
    do i = 1, size
        outb(i) = rank * 100 + (i - 1)
        call MPI_Irecv(inb(i), 1, MPI_INTEGER, i - 1, 3, MPI_COMM_WORLD, reqs(i), ierr)
        call MPI_Isend(outb(i), 1, MPI_INTEGER, i - 1, 3, MPI_COMM_WORLD, reqs(size + i), ierr)
    end do
    call MPI_Waitall(2 * size, reqs, stats, ierr)
    do i = 1, size
        if (ierr /= MPI_SUCCESS .or. inb(i) /= (i - 1) * 100 + rank .or. &
            stats(MPI_SOURCE, i) /= i - 1 .or. stats(MPI_TAG, i) /= 3 .or. &
            reqs(i) /= MPI_REQUEST_NULL) then
            print *, 'FAIL waitall', rank, i, inb(i), stats(:, i)
            call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
        end if
    end do
    do i = 1, size
        call MPI_Irecv(inb(i), 1, MPI_INTEGER, i - 1, 4, MPI_COMM_WORLD, reqs(i), ierr)
        call MPI_Isend(outb(i), 1, MPI_INTEGER, i - 1, 4, MPI_COMM_WORLD, reqs(size + i), ierr)
    end do
    call MPI_Waitall(2 * size, reqs, MPI_STATUSES_IGNORE, ierr)
    if (ierr /= MPI_SUCCESS .or. inb(size) /= (size - 1) * 100 + rank) then
        print *, 'FAIL waitall ignore', rank, inb
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
    ! Waitany: the index of the only active request, counted from 1
    reqs = MPI_REQUEST_NULL
    call MPI_Irecv(inb(1), 1, MPI_INTEGER, rank, 5, MPI_COMM_WORLD, reqs(3), ierr)
    call MPI_Send(rank, 1, MPI_INTEGER, rank, 5, MPI_COMM_WORLD, ierr)
    call MPI_Waitany(4, reqs, idx, stats(1, 1), ierr)
    if (idx /= 3 .or. stats(MPI_SOURCE, 1) /= rank) then
        print *, 'FAIL waitany index', idx
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    deallocate(reqs, stats, inb, outb)
    if (rank == 0) print '(A,I0,A)', 'nonblocking ', size, ' ok'
    call MPI_Finalize(ierr)
end program f_nonblock
