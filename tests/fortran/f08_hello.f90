! f08_hello.f90: `use mpi_f08`: MPI_Init and MPI_Finalize without ierror,
! TYPE(MPI_Comm) constants, MPI_Wtime/MPI_Wtick, a processor name, the
! library version.
program f08_hello
    use mpi_f08
    implicit none
    integer :: rank, size, rlen, ierror
    logical :: flag
    double precision :: t0, t1
    character(len=MPI_MAX_PROCESSOR_NAME) :: host
    character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: version
    call MPI_Init()
    t0 = MPI_Wtime()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, size, ierror)
    call MPI_Initialized(flag)
    call MPI_Get_processor_name(host, rlen)
    call MPI_Get_library_version(version, rlen)
    t1 = MPI_Wtime()
    if (.not. flag .or. ierror /= MPI_SUCCESS .or. t1 < t0 .or. MPI_Wtick() <= 0d0 &
        .or. index(version, 'Tide') == 0) then
        print *, 'FAIL hello', flag, ierror, t0, t1
        call MPI_Abort(MPI_COMM_WORLD, 1)
    end if
    print '(A,I0,A,I0,A,A)', 'f08 hello rank ', rank, ' of ', size, ' on ', trim(host)
    call MPI_Finalize()
end program f08_hello
