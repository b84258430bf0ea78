! f_io_view.f90: MPI_DISPLACEMENT_CURRENT from mpif.h (f_io_view.inc)
program f_io_view
  implicit none
  include 'mpif.h'
  include 'f_io_view.inc'
end program f_io_view
