! hello_fh.f90: a Fortran program with include 'mpif.h', built by the
! installed mpif77; each rank adds 1 and rank 0 prints the sum.
program proj_fh
    implicit none
    include 'mpif.h'
    integer :: ierr, rank, nranks, one, total
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
    one = 1
    call MPI_Allreduce(one, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (rank == 0) print '(a,i0,a,i0)', 'proj-fh: ', nranks, ' ranks, sum ', total
    call MPI_Finalize(ierr)
end program proj_fh
