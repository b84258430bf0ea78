! f08_coll.f90: collectives from `use mpi_f08`: MPI_Bcast of a string,
! MPI_Allreduce on DOUBLE PRECISION arrays (and MPI_IN_PLACE), MPI_Reduce
! with MPI_MAX, MPI_Gather, MPI_Alltoall, MPI_Iallreduce with MPI_Wait,
! and an MPI_Op_create user function (a product; TYPE(C_PTR) vectors).
module f08_coll_ops
    use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
    use mpi_f08
    implicit none
contains
    ! inoutvec = inoutvec * invec on MPI_INTEGER
    subroutine int_product(invec, inoutvec, len, datatype)
        type(c_ptr), value :: invec, inoutvec
        integer :: len
        type(MPI_Datatype) :: datatype
        integer, pointer :: a(:), b(:)
        if (datatype /= MPI_INTEGER) return
        call c_f_pointer(invec, a, (/ len /))
        call c_f_pointer(inoutvec, b, (/ len /))
        b = b * a
    end subroutine
end module f08_coll_ops

program f08_coll
    use mpi_f08
    use f08_coll_ops
    implicit none
    integer, parameter :: n = 5
    integer :: rank, size, i, imax, ierror
    integer :: iv(2), ir(2)
    double precision :: x(n), y(n), want(n)
    integer, allocatable :: gathered(:), sendto(:), recvfrom(:)
    character(len=16) :: word
    type(MPI_Op) :: op
    type(MPI_Request) :: req
    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, size)
    word = 'nothing'
    if (rank == 0) word = 'broadcast'
    call MPI_Bcast(word, len(word), MPI_CHARACTER, 0, MPI_COMM_WORLD)
    if (word /= 'broadcast') call fail('bcast')
    do i = 1, n
        x(i) = rank + 0.5d0 * i
        want(i) = size * (size - 1) / 2 + size * 0.5d0 * i
    end do
    call MPI_Allreduce(x, y, n, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierror)
    if (ierror /= MPI_SUCCESS .or. any(abs(y - want) > 1d-9)) call fail('allreduce')
    call MPI_Allreduce(MPI_IN_PLACE, x, n, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD)
    if (any(abs(x - want) > 1d-9)) call fail('allreduce in place')
    call MPI_Reduce(rank, imax, 1, MPI_INTEGER, MPI_MAX, 0, MPI_COMM_WORLD)
    if (rank == 0 .and. imax /= size - 1) call fail('reduce max')
    allocate (gathered(size), sendto(size), recvfrom(size))
    call MPI_Gather(rank * rank, 1, MPI_INTEGER, gathered, 1, MPI_INTEGER, 0, MPI_COMM_WORLD)
    if (rank == 0 .and. any(gathered /= (/ (i * i, i = 0, size - 1) /))) call fail('gather')
    sendto = (/ (100 * rank + i, i = 0, size - 1) /)
    call MPI_Alltoall(sendto, 1, MPI_INTEGER, recvfrom, 1, MPI_INTEGER, MPI_COMM_WORLD)
    if (any(recvfrom /= (/ (100 * i + rank, i = 0, size - 1) /))) call fail('alltoall')
    y = 0
    call MPI_Iallreduce(want, y, n, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, req)
    call MPI_Wait(req, MPI_STATUS_IGNORE)
    if (any(y /= want) .or. req /= MPI_REQUEST_NULL) call fail('iallreduce')
    call MPI_Op_create(int_product, .true., op)
    iv = (/ 2, rank + 1 /)
    call MPI_Allreduce(iv, ir, 2, MPI_INTEGER, op, MPI_COMM_WORLD)
    if (ir(1) /= 2**size .or. ir(2) /= product((/ (i, i = 1, size) /))) call fail('user op')
    call MPI_Op_free(op)
    if (op /= MPI_OP_NULL) call fail('op_free')
    if (rank == 0) print '(A,I0,A)', 'f08 collectives on ', size, ' ok'
    deallocate (gathered, sendto, recvfrom)
    call MPI_Finalize()
contains
    subroutine fail(what)
        character(len=*), intent(in) :: what
        print *, 'FAIL rank', rank, ': ', what
        call MPI_Abort(MPI_COMM_WORLD, 1)
    end subroutine
end program f08_coll
