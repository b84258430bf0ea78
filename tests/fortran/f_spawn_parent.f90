! f_spawn_parent.f90: a Fortran parent that spawns N copies of a C child
! (tests/mpi/dpm_spawn, given as the first argument, started with the
! argument "child"), trades a message with each over the intercommunicator,
! and disconnects. Usage: f_spawn_parent CHILD N
program f_spawn_parent
    use mpi
    implicit none
    integer :: ierr, rank, size, inter, n, c, v, rsize
    integer :: errcodes(16), status(MPI_STATUS_SIZE)
    character(len=512) :: child, arg
    character(len=16) :: cargv(2)
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
    call get_command_argument(1, child)
    call get_command_argument(2, arg)
    read (arg, *) n
    cargv(1) = 'child'
    cargv(2) = ' '
    errcodes = -1
    call MPI_Comm_spawn(child, cargv, n, MPI_INFO_NULL, 0, MPI_COMM_WORLD, inter, errcodes, ierr)
    call MPI_Comm_remote_size(inter, rsize, ierr)
    if (ierr /= MPI_SUCCESS .or. rsize /= n .or. any(errcodes(1:n) /= MPI_SUCCESS)) then
        print *, 'FAIL spawn', ierr, rsize, errcodes(1:n)
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
    do c = 0, n - 1
        v = rank * 100 + c
        call MPI_Send(v, 1, MPI_INTEGER, c, 1, inter, ierr)
    end do
    do c = 0, n - 1
        call MPI_Recv(v, 1, MPI_INTEGER, MPI_ANY_SOURCE, 2, inter, status, ierr)
        if (v /= status(MPI_SOURCE) * 1000 + rank) then
            print *, 'FAIL answer', v, 'from', status(MPI_SOURCE)
            call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
        end if
    end do
    call MPI_Comm_disconnect(inter, ierr)
    if (rank == 0) print '(A,I0,A)', 'fortran parent: ', n, ' C children answered'
    call MPI_Finalize(ierr)
end program f_spawn_parent
