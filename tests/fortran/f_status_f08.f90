! f_status_f08.f90: MPI_Status_f2f08 and MPI_Status_f082f from `use mpi`
! (MPI-3.1 17.2.5): an INTEGER status of a receive becomes a
! TYPE(MPI_Status) and back, hidden fields (the count) included.
program f_status_f08
    use mpi
    implicit none
    integer :: rank, ierror, count, buf(4)
    integer :: st(MPI_STATUS_SIZE), back(MPI_STATUS_SIZE)
    type(MPI_Status) :: st08
    call MPI_Init(ierror)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierror)
    buf = (/ 1, 2, 3, 4 /)
    call MPI_Sendrecv(buf, 3, MPI_INTEGER, rank, 7, buf, 4, MPI_INTEGER, rank, 7, &
        MPI_COMM_WORLD, st, ierror)
    call MPI_Status_f2f08(st, st08, ierror)
    if (ierror /= MPI_SUCCESS) call fail('f2f08 ierror')
    if (st08%MPI_SOURCE /= rank .or. st08%MPI_TAG /= 7 .or. st08%MPI_ERROR /= st(MPI_ERROR)) &
        call fail('f2f08 fields')
    back = -1
    call MPI_Status_f082f(st08, back, ierror)
    if (ierror /= MPI_SUCCESS .or. any(back /= st)) call fail('f082f')
    call MPI_Get_count(back, MPI_INTEGER, count, ierror)
    if (count /= 3) call fail('count after the round trip')
    if (rank == 0) print '(A)', 'status f08 conversions ok'
    call MPI_Finalize(ierror)
contains
    subroutine fail(what)
        character(len=*), intent(in) :: what
        print *, 'FAIL: ', what
        call MPI_Abort(MPI_COMM_WORLD, 1, ierror)
    end subroutine
end program f_status_f08
