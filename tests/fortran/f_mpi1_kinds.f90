! f_mpi1_kinds.f90: the MPI-1 datatype calls from mpif.h, whose
! displacements, strides and extents are default INTEGERs (MPI-1.1 3.12;
! MPI-2.2 16.2 keeps them so, deprecated): MPI_TYPE_HINDEXED,
! MPI_TYPE_HVECTOR, MPI_TYPE_STRUCT built from MPI_ADDRESS differences,
! used in MPI_PACK/MPI_UNPACK and a send, and MPI_TYPE_EXTENT,
! MPI_TYPE_LB, MPI_TYPE_UB.
program f_mpi1_kinds
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, nprocs, errs, i
  integer :: hind, hvec, st, ext, lb, ub
  integer :: blens(3), disps(3), types(3), a1, a2
  integer :: src(10), dst(10), pos
  character :: packed(200)
  double precision :: d(4)
  integer :: iv(4)
  common /pair/ d, iv
  integer :: status(MPI_STATUS_SIZE)

  errs = 0
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nprocs, ierr)

  ! hindexed: elements 1, 4 and 7 (byte displacements 0, 12, 24)
  blens = (/ 1, 1, 2 /)
  disps = (/ 0, 12, 24 /)
  call MPI_TYPE_HINDEXED(3, blens, disps, MPI_INTEGER, hind, ierr)
  call MPI_TYPE_COMMIT(hind, ierr)
  call MPI_TYPE_EXTENT(hind, ext, ierr)
  if (ext /= 32) call fail('hindexed extent', ext)
  do i = 1, 10
     src(i) = i
  end do
  pos = 0
  call MPI_PACK(src, 1, hind, packed, 200, pos, MPI_COMM_WORLD, ierr)
  if (pos /= 16) call fail('packed size', pos)
  dst = 0
  pos = 0
  call MPI_UNPACK(packed, 200, pos, dst, 4, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  if (dst(1) /= 1 .or. dst(2) /= 4 .or. dst(3) /= 7 .or. dst(4) /= 8) call fail('hindexed unpack', dst(2))

  ! hvector: 3 blocks of 1 integer, 8 bytes apart (1, 3, 5)
  call MPI_TYPE_HVECTOR(3, 1, 8, MPI_INTEGER, hvec, ierr)
  call MPI_TYPE_COMMIT(hvec, ierr)
  call MPI_TYPE_LB(hvec, lb, ierr)
  call MPI_TYPE_UB(hvec, ub, ierr)
  if (lb /= 0 .or. ub /= 20) call fail('hvector ub', ub)
  pos = 0
  call MPI_PACK(src, 1, hvec, packed, 200, pos, MPI_COMM_WORLD, ierr)
  dst = 0
  pos = 0
  call MPI_UNPACK(packed, 200, pos, dst, 3, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  if (dst(1) /= 1 .or. dst(2) /= 3 .or. dst(3) /= 5) call fail('hvector unpack', dst(2))

  ! MPI_ADDRESS: the address in a default INTEGER, or (a 64-bit address
  ! beyond its range, as in most programs here) an MPI_ERR_ARG error
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_ADDRESS(iv, a1, ierr)
  call MPI_ADDRESS(iv(3), a2, ierr)
  if (ierr == MPI_SUCCESS) then
     if (a2 - a1 /= 8) call fail('address difference', a2 - a1)
  else
     call MPI_ERROR_CLASS(ierr, i, ierr)
     if (i /= MPI_ERR_ARG) call fail('MPI_ADDRESS error class', i)
  end if
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL, ierr)
  ! struct of the common block /pair/: (d, iv(1:2)), iv 32 bytes after d
  blens = (/ 4, 2, 0 /)
  disps = (/ 0, 32, 0 /)
  types = (/ MPI_DOUBLE_PRECISION, MPI_INTEGER, MPI_INTEGER /)
  call MPI_TYPE_STRUCT(2, blens, disps, types, st, ierr)
  call MPI_TYPE_COMMIT(st, ierr)
  call MPI_TYPE_EXTENT(st, ext, ierr)
  if (ext /= 40) call fail('struct extent', ext)
  if (nprocs > 1) then
     if (rank == 0) then
        d = (/ 1.5d0, 2.5d0, 3.5d0, 4.5d0 /)
        iv = (/ 11, 12, 13, 14 /)
        call MPI_SEND(d, 1, st, 1, 5, MPI_COMM_WORLD, ierr)
     else if (rank == 1) then
        d = 0
        iv = 0
        call MPI_RECV(d, 1, st, 0, 5, MPI_COMM_WORLD, status, ierr)
        if (d(4) /= 4.5d0 .or. iv(1) /= 11 .or. iv(2) /= 12 .or. iv(3) /= 0) &
             call fail('struct received', iv(2))
     end if
  end if
  call MPI_TYPE_FREE(hind, ierr)
  call MPI_TYPE_FREE(hvec, ierr)
  call MPI_TYPE_FREE(st, ierr)
  call MPI_ALLREDUCE(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. errs == 0) print '(a,i0,a)', 'mpi1 kinds on ', nprocs, ' ok'
  call MPI_FINALIZE(ierr)
contains
  subroutine fail(what, v)
    character(len=*) :: what
    integer :: v
    print '(a,i0,a,a,a,i0)', 'rank ', rank, ': ', what, ' wrong: ', v
    errs = errs + 1
  end subroutine fail
end program f_mpi1_kinds
