! hello_f08.f90: a Fortran program with `use mpi_f08`, built by the
! installed mpifort; each rank adds 1 and rank 0 prints the sum.
program proj_f08
    use mpi_f08
    implicit none
    integer :: rank, nranks, one, total
    type(MPI_Comm) :: comm
    call MPI_Init()
    comm = MPI_COMM_WORLD
    call MPI_Comm_rank(comm, rank)
    call MPI_Comm_size(comm, nranks)
    one = 1
    call MPI_Allreduce(one, total, 1, MPI_INTEGER, MPI_SUM, comm)
    if (rank == 0) print '(a,i0,a,i0)', 'proj-f08: ', nranks, ' ranks, sum ', total
    call MPI_Finalize()
end program proj_f08
