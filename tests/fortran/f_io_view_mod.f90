! f_io_view_mod.f90: MPI_DISPLACEMENT_CURRENT from `use mpi` (f_io_view.inc)
program f_io_view_mod
  use mpi
  implicit none
  include 'f_io_view.inc'
end program f_io_view_mod
