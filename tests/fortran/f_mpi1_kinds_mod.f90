! f_mpi1_kinds_mod.f90: the MPI-1 datatype calls from `use mpi`, whose
! interfaces declare their default INTEGER addresses (f_mpi1_kinds.inc)
program f_mpi1_kinds_mod
  use mpi
  implicit none
  include 'f_mpi1_kinds.inc'
end program f_mpi1_kinds_mod
