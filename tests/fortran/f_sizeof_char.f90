! f_sizeof_char.f90: MPI_SIZEOF of CHARACTER variables from `use mpi` and
! `use mpi_f08` (the size in bytes of one element: its length), scalars
! and arrays, besides a numeric type.
program f_sizeof_char
  use mpi, only: MPI_Init, MPI_Finalize, MPI_Sizeof
  use mpi_f08, only: f08_sizeof => MPI_Sizeof
  implicit none
  character :: c1, cv(6)
  character(len=5) :: c5
  double precision :: d(3)
  integer :: ierr, s1, sv, s5, sd, s8
  call MPI_Init(ierr)
  call MPI_Sizeof(c1, s1, ierr)
  call MPI_Sizeof(cv, sv, ierr)
  call MPI_Sizeof(c5, s5, ierr)
  call MPI_Sizeof(d, sd, ierr)
  call f08_sizeof(c5, s8)
  print '(a,5(1x,i0))', 'sizeof', s1, sv, s5, sd, s8
  call MPI_Finalize(ierr)
end program f_sizeof_char
