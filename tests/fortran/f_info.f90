! f_info.f90: the info calls returning strings, by the Fortran text of
! MPI-4.0 10 and 19.1 (use mpi): MPI_INFO_GET and MPI_INFO_GET_STRING
! leave VALUE untouched when the key is absent (FLAG false) and when
! VALUELEN/BUFLEN is 0, write at most VALUELEN characters, blank padded;
! MPI_INFO_GET_STRING returns in BUFLEN the length of the value (no C
! terminator), MPI_INFO_GET_VALUELEN the same; MPI_INFO_GET_NTHKEY
! blank pads the key and leaves it untouched on an error.
program f_info
  use mpi
  implicit none
  integer :: ierr, info, buflen, vlen, nkeys, errs, cls
  logical :: flag
  character(len=16) :: value
  character(len=MPI_MAX_INFO_KEY) :: key

  errs = 0
  call MPI_Init(ierr)
  call MPI_Info_create(info, ierr)
  call MPI_Info_set(info, 'color', 'abc', ierr)

  ! MPI_INFO_GET
  value = 'untouched'
  call MPI_Info_get(info, 'nokey', 16, value, flag, ierr)
  call expect(.not. flag .and. value == 'untouched', 'get of an absent key changed the value')
  value = 'xxxxxxxxxxxxxxxx'
  call MPI_Info_get(info, 'color', 16, value, flag, ierr)
  call expect(flag .and. value == 'abc', 'get: ' // value)
  value = 'xxxxxxxxxxxxxxxx'
  call MPI_Info_get(info, 'color', 2, value, flag, ierr)
  call expect(flag .and. value(1:2) == 'ab', 'get with valuelen 2: ' // value)
  value = 'untouched'
  call MPI_Info_get(info, 'color', 0, value, flag, ierr)
  call expect(flag .and. value == 'untouched', 'get with valuelen 0 changed the value: ' // value)

  ! MPI_INFO_GET_VALUELEN
  vlen = -1
  call MPI_Info_get_valuelen(info, 'color', vlen, flag, ierr)
  call expect(flag .and. vlen == 3, 'get_valuelen not 3')

  ! MPI_INFO_GET_STRING
  value = 'untouched'
  buflen = 16
  call MPI_Info_get_string(info, 'nokey', buflen, value, flag, ierr)
  call expect(.not. flag .and. value == 'untouched' .and. buflen == 16, 'get_string of an absent key')
  value = 'xxxxxxxxxxxxxxxx'
  buflen = 16
  call MPI_Info_get_string(info, 'color', buflen, value, flag, ierr)
  call expect(flag .and. value == 'abc', 'get_string: ' // value)
  call expect(buflen == 3, 'get_string buflen not the length of "abc"')
  value = 'untouched'
  buflen = 0
  call MPI_Info_get_string(info, 'color', buflen, value, flag, ierr)
  call expect(flag .and. value == 'untouched', 'get_string with buflen 0 changed the value: ' // value)
  call expect(buflen == 3, 'get_string with buflen 0: buflen not 3')
  value = 'xxxxxxxxxxxxxxxx'
  buflen = 2
  call MPI_Info_get_string(info, 'color', buflen, value, flag, ierr)
  call expect(flag .and. value(1:2) == 'ab' .and. buflen == 3, 'get_string with buflen 2: ' // value)

  ! MPI_INFO_GET_NTHKEY
  call MPI_Info_get_nkeys(info, nkeys, ierr)
  key = 'x'
  call MPI_Info_get_nthkey(info, 0, key, ierr)
  call expect(key == 'color', 'nthkey: ' // trim(key))
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  key = 'untouched'
  call MPI_Info_get_nthkey(info, nkeys, key, ierr)
  call MPI_Error_class(ierr, cls, ierr)
  call expect(cls == MPI_ERR_ARG .and. key == 'untouched', 'nthkey out of range: ' // trim(key))

  call MPI_Info_free(info, ierr)
  if (errs == 0) print '(a)', 'info strings ok'
  call MPI_Finalize(ierr)
contains
  subroutine expect(ok, what)
    logical :: ok
    character(len=*) :: what
    if (.not. ok) then
      print '(a,a)', 'wrong: ', what
      errs = errs + 1
    end if
  end subroutine expect
end program f_info
