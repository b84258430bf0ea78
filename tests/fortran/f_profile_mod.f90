! f_profile_mod.f90: a profiling tool for `use mpi` programs (MPI-4.0
! 15.2): MPI_RECV replaced by the tool, which calls PMPI_RECV through the
! module's explicit interface (the module declares every PMPI_XXX too);
! the program calls MPI_Recv through the module's interface.
module f_profile_mod_counts
  implicit none
  integer :: recvs = 0
end module f_profile_mod_counts

subroutine MPI_Recv(buf, count, datatype, source, tag, comm, status, ierror)
  use mpi, only: MPI_STATUS_SIZE, PMPI_Recv
  use f_profile_mod_counts
  implicit none
  !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
  type(*), dimension(*) :: buf
  integer :: count, datatype, source, tag, comm, status(MPI_STATUS_SIZE), ierror
  recvs = recvs + 1
  call PMPI_Recv(buf, count, datatype, source, tag, comm, status, ierror)
end subroutine MPI_Recv

program f_profile_mod
  use mpi
  use f_profile_mod_counts
  implicit none
  integer :: ierr, rank, msg(2), total
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  if (rank == 0) then
     msg = (/ 4, 5 /)
     call MPI_Send(msg, 2, MPI_INTEGER, 1, 3, MPI_COMM_WORLD, ierr)
  else if (rank == 1) then
     call MPI_Recv(msg, 2, MPI_INTEGER, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
     if (msg(2) /= 5) print *, 'received wrong', msg
  end if
  call PMPI_Allreduce(recvs, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a,i0)', 'module profiled recvs ', total
  call MPI_Finalize(ierr)
end program f_profile_mod
