! f_coll.f90: MPI_Bcast, MPI_Reduce and MPI_Allreduce on MPI_INTEGER,
! MPI_REAL, MPI_DOUBLE_PRECISION, MPI_COMPLEX and MPI_LOGICAL (MPI_LAND,
! MPI_LOR), and MPI_IN_PLACE. `use mpi`.
program f_coll
    use mpi
    implicit none
    integer :: ierr, rank, size, n, ibuf(3), isum(3)
    real :: r, rsum
    double precision :: d, dmax
    complex :: c, csum
    logical :: l, land, lor
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
    n = size * (size + 1) / 2
    ibuf = 0
    if (rank == 0) ibuf = (/ 11, 22, 33 /)
    call MPI_Bcast(ibuf, 3, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    if (ibuf(3) /= 33) call fail('bcast integer')
    ibuf = rank + 1
    call MPI_Reduce(ibuf, isum, 3, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
    if (rank == 0 .and. isum(2) /= n) call fail('reduce integer')
    r = real(rank + 1)
    call MPI_Allreduce(r, rsum, 1, MPI_REAL, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (abs(rsum - real(n)) > 1e-5) call fail('allreduce real')
    d = dble(rank) + 0.5d0
    call MPI_Allreduce(d, dmax, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
    if (abs(dmax - (size - 0.5d0)) > 1d-12) call fail('allreduce double precision')
    c = cmplx(rank + 1, 2 * (rank + 1))
    call MPI_Allreduce(c, csum, 1, MPI_COMPLEX, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (abs(csum - cmplx(n, 2 * n)) > 1e-4) call fail('allreduce complex')
    l = .true.
    call MPI_Allreduce(l, land, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD, ierr)
    if (.not. land) call fail('land all true')
    l = (rank == size - 1)
    call MPI_Allreduce(l, land, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD, ierr)
    call MPI_Allreduce(l, lor, 1, MPI_LOGICAL, MPI_LOR, MPI_COMM_WORLD, ierr)
    if ((size > 1 .and. land) .or. .not. lor) call fail('land/lor mixed')
    ! in place
    ibuf = rank
    call MPI_Allreduce(MPI_IN_PLACE, ibuf, 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (ibuf(1) /= n - size) call fail('allreduce in place')
    d = 1d0
    if (rank == 0) then
        call MPI_Reduce(MPI_IN_PLACE, d, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
        if (abs(d - size) > 1d-12) call fail('reduce in place')
    else
        call MPI_Reduce(d, d, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
    end if
    if (ierr /= MPI_SUCCESS) call fail('ierror')
    if (rank == 0) print '(A,I0,A)', 'collectives on ', size, ' ok'
    call MPI_Finalize(ierr)
contains
    subroutine fail(what)
        character(len=*), intent(in) :: what
        integer :: e
        print *, 'FAIL ', what, ' on rank ', rank
        call MPI_Abort(MPI_COMM_WORLD, 1, e)
    end subroutine fail
end program f_coll
