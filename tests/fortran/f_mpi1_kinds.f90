! f_mpi1_kinds.f90: the MPI-1 datatype calls from mpif.h (f_mpi1_kinds.inc)
program f_mpi1_kinds
  implicit none
  include 'mpif.h'
  include 'f_mpi1_kinds.inc'
end program f_mpi1_kinds
