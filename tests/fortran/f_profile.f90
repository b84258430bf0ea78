! f_profile.f90: a profiling tool written in Fortran (MPI-4.0 15.2): the
! program defines MPI_SEND and MPI_RECV itself, counting the calls, and
! reaches the library through PMPI_SEND and PMPI_RECV (mpif.h: every
! MPI_XXX of the library can be replaced, PMPI_XXX always reaches it).
! MPI_BCAST is not replaced: it reaches the library as before.
module f_profile_counts
  implicit none
  integer :: sends = 0, recvs = 0, sent = 0
end module f_profile_counts

subroutine MPI_SEND(buf, count, datatype, dest, tag, comm, ierror)
  use f_profile_counts
  implicit none
  integer :: buf(*), count, datatype, dest, tag, comm, ierror
  sends = sends + 1
  sent = sent + count
  call PMPI_SEND(buf, count, datatype, dest, tag, comm, ierror)
end subroutine MPI_SEND

subroutine MPI_RECV(buf, count, datatype, source, tag, comm, status, ierror)
  use f_profile_counts
  implicit none
  include 'mpif.h'
  integer :: buf(*), count, datatype, source, tag, comm, status(MPI_STATUS_SIZE), ierror
  recvs = recvs + 1
  call PMPI_RECV(buf, count, datatype, source, tag, comm, status, ierror)
end subroutine MPI_RECV

program f_profile
  use f_profile_counts
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, nprocs, msg(3), status(MPI_STATUS_SIZE), total(2), mine(2)
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nprocs, ierr)
  msg = (/ 7, 8, 9 /)
  if (rank == 0) then
     call MPI_SEND(msg, 3, MPI_INTEGER, 1, 1, MPI_COMM_WORLD, ierr)
     call MPI_SEND(msg, 2, MPI_INTEGER, 1, 2, MPI_COMM_WORLD, ierr)
  else if (rank == 1) then
     msg = 0
     call MPI_RECV(msg, 3, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, status, ierr)
     call MPI_RECV(msg, 3, MPI_INTEGER, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
     if (msg(3) /= 9 .or. status(MPI_TAG) /= 1) print *, 'received wrong', msg, status(MPI_TAG)
  end if
  ! PMPI_ of a call not replaced; PMPI_WTIME declared by mpif.h
  call PMPI_BARRIER(MPI_COMM_WORLD, ierr)
  if (PMPI_WTIME() <= 0d0 .or. PMPI_WTICK() <= 0d0) sends = sends + 1000
  mine = (/ sends * 100 + sent, recvs /)
  call MPI_REDUCE(mine, total, 2, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a,i0,a,i0)', 'profiled sends ', total(1), ' recvs ', total(2)
  call MPI_FINALIZE(ierr)
end program f_profile
