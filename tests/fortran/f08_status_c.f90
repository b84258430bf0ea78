! f08_status_c.f90: TYPE(MPI_Status) of mpi_f08 given to C (with
! c_status_f08.c, BIND(C)): C sees MPI_STATUS_IGNORE and
! MPI_STATUSES_IGNORE as MPI_F08_STATUS_IGNORE and MPI_F08_STATUSES_IGNORE,
! and converts a received status with MPI_Status_f082c.
program f08_status_c
    use mpi_f08
    use, intrinsic :: iso_c_binding, only: c_int
    implicit none
    interface
        integer(c_int) function c_is_status_ignore(s) bind(C)
            import :: MPI_Status, c_int
            type(MPI_Status) :: s
        end function
        integer(c_int) function c_is_statuses_ignore(s) bind(C)
            import :: MPI_Status, c_int
            type(MPI_Status) :: s(*)
        end function
        integer(c_int) function c_is_f_status_ignore(s) bind(C)
            import :: MPI_Status, c_int
            type(MPI_Status) :: s
        end function
        integer(c_int) function c_status_tag_count(s, count) bind(C)
            import :: MPI_Status, c_int
            type(MPI_Status) :: s
            integer(c_int) :: count
        end function
    end interface
    type(MPI_Status) :: status
    integer :: rank, buf(5)
    integer(c_int) :: count
    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    if (c_is_status_ignore(MPI_STATUS_IGNORE) /= 1) call fail('MPI_F08_STATUS_IGNORE')
    if (c_is_statuses_ignore(MPI_STATUSES_IGNORE) /= 1) call fail('MPI_F08_STATUSES_IGNORE')
    if (c_is_f_status_ignore(MPI_STATUS_IGNORE) /= 1) call fail('MPI_F_STATUS_IGNORE')
    buf = rank
    call MPI_Sendrecv_replace(buf, 4, MPI_INTEGER, rank, 11, rank, 11, MPI_COMM_WORLD, status)
    if (c_is_status_ignore(status) /= 0) call fail('a status is not MPI_F08_STATUS_IGNORE')
    if (c_status_tag_count(status, count) /= 11 .or. count /= 4) call fail('MPI_Status_f082c')
    if (rank == 0) print '(A)', 'f08 status to C ok'
    call MPI_Finalize()
contains
    subroutine fail(what)
        character(len=*), intent(in) :: what
        print *, 'FAIL: ', what
        call MPI_Abort(MPI_COMM_WORLD, 1)
    end subroutine
end program f08_status_c
