! f_spawn_child.f90: a Fortran child spawned by the C parent c_spawn_parent:
! MPI_Comm_get_parent, MPI_APPNUM through MPI_Comm_get_attr, one answer to
! each parent, MPI_Comm_disconnect. mpif.h.
program f_spawn_child
    implicit none
    include 'mpif.h'
    integer :: ierr, rank, parent, psize, p, v
    integer :: status(MPI_STATUS_SIZE)
    integer(kind=MPI_ADDRESS_KIND) :: appnum
    logical :: flag
    character(len=32) :: arg
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_get_parent(parent, ierr)
    call get_command_argument(1, arg)
    if (parent == MPI_COMM_NULL .or. arg /= 'child') then
        print *, 'FAIL no parent or argv: ', trim(arg)
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
    call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, appnum, flag, ierr)
    if (.not. flag .or. appnum /= 0) then
        print *, 'FAIL appnum', flag, appnum
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
    call MPI_Comm_remote_size(parent, psize, ierr)
    do p = 1, psize
        call MPI_Recv(v, 1, MPI_INTEGER, MPI_ANY_SOURCE, 1, parent, status, ierr)
        if (v /= status(MPI_SOURCE) * 100 + rank) then
            print *, 'FAIL from parent', status(MPI_SOURCE), v
            call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
        end if
        v = rank * 1000 + status(MPI_SOURCE)
        call MPI_Send(v, 1, MPI_INTEGER, status(MPI_SOURCE), 2, parent, ierr)
    end do
    call MPI_Comm_disconnect(parent, ierr)
    call MPI_Finalize(ierr)
end program f_spawn_child
