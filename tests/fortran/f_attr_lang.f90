! f_attr_lang.f90: attributes between Fortran and C (MPI-4.0 19.3.7, the
! standard's example of a value set in Fortran read in C): a value set by
! MPI_COMM_SET_ATTR is seen in C (c_attr_lang.c) as the address of an
! MPI_Aint holding it, on a keyval made in Fortran and on one made in C,
! also on a duplicate made by MPI_COMM_DUP through MPI_COMM_DUP_FN and
! after replacing the value; Fortran reads its own values back, through
! MPI_ATTR_GET too; a pointer C sets is read in Fortran as that address.
program f_attr_lang
  use mpi
  implicit none
  integer :: ierr, fkey, ckey, dup, errs
  integer(kind=MPI_ADDRESS_KIND) :: val, got, extra, addr
  integer :: ival
  logical :: flag
  interface
    subroutine c_attr_get(comm, keyval, value)
      import :: MPI_ADDRESS_KIND
      integer :: comm, keyval
      integer(kind=MPI_ADDRESS_KIND) :: value
    end subroutine c_attr_get
    subroutine c_keyval_create(keyval)
      integer :: keyval
    end subroutine c_keyval_create
    subroutine c_attr_set(comm, keyval, address)
      import :: MPI_ADDRESS_KIND
      integer :: comm, keyval
      integer(kind=MPI_ADDRESS_KIND) :: address
    end subroutine c_attr_set
  end interface

  errs = 0
  call MPI_Init(ierr)
  extra = 0
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, fkey, extra, ierr)
  call c_keyval_create(ckey)

  val = 5555
  call MPI_Comm_set_attr(MPI_COMM_WORLD, fkey, val, ierr)
  call c_attr_get(MPI_COMM_WORLD, fkey, got)
  call expect(got == 5555, 'C read of a value set in Fortran (Fortran keyval)', got)
  val = 7777
  call MPI_Comm_set_attr(MPI_COMM_WORLD, fkey, val, ierr)
  call c_attr_get(MPI_COMM_WORLD, fkey, got)
  call expect(got == 7777, 'C read of a replaced value', got)
  call MPI_Comm_get_attr(MPI_COMM_WORLD, fkey, got, flag, ierr)
  call expect(flag .and. got == 7777, 'Fortran read of its value', got)
  call MPI_Attr_get(MPI_COMM_WORLD, fkey, ival, flag, ierr)
  call expect(flag .and. ival == 7777, 'MPI_ATTR_GET of it', int(ival, MPI_ADDRESS_KIND))

  val = 6666
  call MPI_Comm_set_attr(MPI_COMM_WORLD, ckey, val, ierr)
  call c_attr_get(MPI_COMM_WORLD, ckey, got)
  call expect(got == 6666, 'C read of a value set in Fortran (C keyval)', got)

  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  call c_attr_get(dup, fkey, got)
  call expect(got == 7777, 'C read on the duplicate (Fortran keyval)', got)
  call c_attr_get(dup, ckey, got)
  call expect(got == 6666, 'C read on the duplicate (C keyval)', got)
  call MPI_Comm_get_attr(dup, fkey, got, flag, ierr)
  call expect(flag .and. got == 7777, 'Fortran read on the duplicate', got)
  call MPI_Comm_free(dup, ierr)

  call c_attr_set(MPI_COMM_WORLD, fkey, addr)
  call MPI_Comm_get_attr(MPI_COMM_WORLD, fkey, got, flag, ierr)
  call expect(flag .and. got == addr, 'Fortran read of a pointer set in C', got)

  call MPI_Comm_delete_attr(MPI_COMM_WORLD, fkey, ierr)
  call MPI_Comm_delete_attr(MPI_COMM_WORLD, ckey, ierr)
  call MPI_Comm_free_keyval(fkey, ierr)
  call MPI_Comm_free_keyval(ckey, ierr)
  if (errs == 0) print '(a)', 'attributes between languages ok'
  call MPI_Finalize(ierr)
contains
  subroutine expect(ok, what, v)
    logical :: ok
    character(len=*) :: what
    integer(kind=MPI_ADDRESS_KIND) :: v
    if (.not. ok) then
      print '(a,a,a,i0)', 'wrong: ', what, ': ', v
      errs = errs + 1
    end if
  end subroutine expect
end program f_attr_lang
