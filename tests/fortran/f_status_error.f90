! f_status_error.f90: the MPI_ERROR field of a status (MPI-4.0 3.2.5:
! "message-passing calls do not modify the value of the error code field
! of status variables", except the multiple-completion calls returning
! MPI_ERR_IN_STATUS): set to MPI_ERR_DIMS before MPI_RECV, MPI_PROBE,
! MPI_MPROBE, MPI_MRECV, MPI_WAIT, MPI_TEST, MPI_SENDRECV and MPI_WAITALL
! (mpif.h), it is MPI_ERR_DIMS after them; the other fields are set.
program f_status_error
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, nprocs, peer, errs, msg, req, reqs(2), msgh
  integer :: st(MPI_STATUS_SIZE), sts(MPI_STATUS_SIZE, 2)
  logical :: flag

  errs = 0
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nprocs, ierr)
  peer = 1 - rank
  if (rank < 2) then
     if (rank == 0) then
        msg = 11
        call MPI_SEND(msg, 1, MPI_INTEGER, peer, 1, MPI_COMM_WORLD, ierr)
        call MPI_SEND(msg, 1, MPI_INTEGER, peer, 2, MPI_COMM_WORLD, ierr)
        call MPI_SEND(msg, 1, MPI_INTEGER, peer, 3, MPI_COMM_WORLD, ierr)
        call MPI_SEND(msg, 1, MPI_INTEGER, peer, 4, MPI_COMM_WORLD, ierr)
        call MPI_SEND(msg, 1, MPI_INTEGER, peer, 5, MPI_COMM_WORLD, ierr)
     else
        st(MPI_ERROR) = MPI_ERR_DIMS
        call MPI_PROBE(0, 1, MPI_COMM_WORLD, st, ierr)
        call check(st, 1, 'MPI_PROBE')
        st(MPI_ERROR) = MPI_ERR_DIMS
        call MPI_RECV(msg, 1, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, st, ierr)
        call check(st, 1, 'MPI_RECV')
        st(MPI_ERROR) = MPI_ERR_DIMS
        call MPI_MPROBE(0, 2, MPI_COMM_WORLD, msgh, st, ierr)
        call check(st, 2, 'MPI_MPROBE')
        st(MPI_ERROR) = MPI_ERR_DIMS
        call MPI_MRECV(msg, 1, MPI_INTEGER, msgh, st, ierr)
        call check(st, 2, 'MPI_MRECV')
        call MPI_IRECV(msg, 1, MPI_INTEGER, 0, 3, MPI_COMM_WORLD, req, ierr)
        st(MPI_ERROR) = MPI_ERR_DIMS
        call MPI_WAIT(req, st, ierr)
        call check(st, 3, 'MPI_WAIT')
        call MPI_IRECV(msg, 1, MPI_INTEGER, 0, 4, MPI_COMM_WORLD, req, ierr)
        flag = .false.
        do while (.not. flag)
           st(MPI_ERROR) = MPI_ERR_DIMS
           call MPI_TEST(req, flag, st, ierr)
        end do
        call check(st, 4, 'MPI_TEST')
        call MPI_IRECV(msg, 1, MPI_INTEGER, 0, 5, MPI_COMM_WORLD, reqs(1), ierr)
        reqs(2) = MPI_REQUEST_NULL
        sts(MPI_ERROR, :) = MPI_ERR_DIMS
        call MPI_WAITALL(2, reqs, sts, ierr)
        call check(sts(:, 1), 5, 'MPI_WAITALL')
     end if
     st(MPI_ERROR) = MPI_ERR_DIMS
     call MPI_SENDRECV(rank, 1, MPI_INTEGER, peer, 6, msg, 1, MPI_INTEGER, peer, 6, &
          MPI_COMM_WORLD, st, ierr)
     call check(st, 6, 'MPI_SENDRECV')
  end if
  call MPI_ALLREDUCE(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. errs == 0) print '(a)', 'status error field ok'
  call MPI_FINALIZE(ierr)
contains
  subroutine check(s, tag, what)
    integer :: s(MPI_STATUS_SIZE), tag
    character(len=*) :: what
    if (s(MPI_ERROR) /= MPI_ERR_DIMS) call fail(what // ' changed MPI_ERROR to', s(MPI_ERROR))
    if (s(MPI_TAG) /= tag .or. s(MPI_SOURCE) /= 1 - rank) call fail(what // ' tag', s(MPI_TAG))
  end subroutine check
  subroutine fail(what, v)
    character(len=*) :: what
    integer :: v
    print '(a,i0,a,a,a,i0)', 'rank ', rank, ': ', what, ' ', v
    errs = errs + 1
  end subroutine fail
end program f_status_error
