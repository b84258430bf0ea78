! f08_profile.f90: a profiling tool for mpi_f08 programs (MPI-4.0 15.2,
! 19.1.5): the generic MPI_Send names the specific MPI_Send_f08ts (choice
! buffers with MPI_SUBARRAYS_SUPPORTED), MPI_Barrier names MPI_Barrier_f08;
! the tool defines those itself, counting, and reaches the library
! through the generics PMPI_Send, PMPI_Recv, PMPI_Barrier of mpi_f08 (and
! of pmpi_f08, Open MPI's module name).
module f08_profile_counts
  implicit none
  integer :: sends = 0, sent = 0, recvs = 0, barriers = 0
end module f08_profile_counts

subroutine MPI_Send_f08ts(buf, count, datatype, dest, tag, comm, ierror)
  use mpi_f08, tool_unused => MPI_Send_f08ts
  use f08_profile_counts
  implicit none
  type(*), dimension(..), intent(in) :: buf
  integer, intent(in) :: count, dest, tag
  type(MPI_Datatype), intent(in) :: datatype
  type(MPI_Comm), intent(in) :: comm
  integer, optional, intent(out) :: ierror
  sends = sends + 1
  sent = sent + count
  call PMPI_Send(buf, count, datatype, dest, tag, comm, ierror)
end subroutine MPI_Send_f08ts

subroutine MPI_Recv_f08ts(buf, count, datatype, source, tag, comm, status, ierror)
  use mpi_f08, tool_unused => MPI_Recv_f08ts
  use f08_profile_counts
  implicit none
  type(*), dimension(..) :: buf
  integer, intent(in) :: count, source, tag
  type(MPI_Datatype), intent(in) :: datatype
  type(MPI_Comm), intent(in) :: comm
  type(MPI_Status) :: status
  integer, optional, intent(out) :: ierror
  recvs = recvs + 1
  call PMPI_Recv(buf, count, datatype, source, tag, comm, status, ierror)
end subroutine MPI_Recv_f08ts

subroutine MPI_Barrier_f08(comm, ierror)
  use mpi_f08, only: MPI_Comm
  use pmpi_f08, only: PMPI_Barrier
  use f08_profile_counts
  implicit none
  type(MPI_Comm), intent(in) :: comm
  integer, optional, intent(out) :: ierror
  barriers = barriers + 1
  call PMPI_Barrier(comm, ierror)
end subroutine MPI_Barrier_f08

program f08_profile
  use mpi_f08
  use f08_profile_counts
  implicit none
  integer :: rank, msg(4), total(4), mine(4)
  type(MPI_Status) :: st
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  msg = (/ 1, 2, 3, 4 /)
  if (rank == 0) then
     call MPI_Send(msg, 4, MPI_INTEGER, 1, 1, MPI_COMM_WORLD)
     call MPI_Send(msg(1:3:2), 2, MPI_INTEGER, 1, 2, MPI_COMM_WORLD)
  else if (rank == 1) then
     msg = 0
     call MPI_Recv(msg, 4, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, st)
     if (msg(4) /= 4 .or. st%MPI_TAG /= 1) print *, 'received wrong', msg
     call MPI_Recv(msg(2:4:2), 2, MPI_INTEGER, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
     if (msg(2) /= 1 .or. msg(4) /= 3 .or. msg(3) /= 3) print *, 'section received wrong', msg
  end if
  call MPI_Barrier(MPI_COMM_WORLD)
  ! the library's own, not counted
  call PMPI_Barrier(MPI_COMM_WORLD)
  mine = (/ sends, sent, recvs, barriers /)
  call MPI_Reduce(mine, total, 4, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD)
  if (rank == 0) print '(a,4(1x,i0))', 'f08 profiled', total
  call MPI_Finalize()
end program f08_profile
