! f_hello_mod.f90: the same as f_hello with `use mpi`, and MPI_Wtime.
program f_hello_mod
    use mpi
    implicit none
    integer :: ierr, rank, size
    double precision :: t0, t1
    logical :: flag
    call MPI_Init(ierr)
    t0 = MPI_Wtime()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
    call MPI_Initialized(flag, ierr)
    t1 = MPI_Wtime()
    if (.not. flag .or. t1 < t0 .or. MPI_Wtick() <= 0d0) then
        print *, 'FAIL initialized/wtime', flag, t0, t1
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
    print '(A,I0,A,I0)', 'module hello rank ', rank, ' of ', size
    call MPI_Finalize(ierr)
end program f_hello_mod
