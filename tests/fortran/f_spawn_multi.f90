! f_spawn_multi.f90: MPI_Comm_spawn_multiple from `use mpi`: two apps of
! the Fortran child f_spawn_multi_child (the first argument), two
! processes with argv "app0 x" and one with "app1 second third" (rows of
! a 2-D CHARACTER array ended by blank entries), an array of infos and of
! error codes; each child reports its MPI_APPNUM and argument count.
! Usage: f_spawn_multi CHILD
program f_spawn_multi
    use mpi
    implicit none
    integer :: ierr, rank, inter, rsize, c, code, i
    integer :: maxprocs(2), infos(2), errcodes(3), status(MPI_STATUS_SIZE), expect(3)
    character(len=512) :: commands(2)
    character(len=16) :: argvs(2, 4)
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call get_command_argument(1, commands(1))
    commands(2) = commands(1)
    argvs = ' '
    argvs(1, 1) = 'app0'
    argvs(1, 2) = 'x'
    argvs(2, 1) = 'app1'
    argvs(2, 2) = 'second'
    argvs(2, 3) = 'third'
    maxprocs = (/ 2, 1 /)
    infos = MPI_INFO_NULL
    errcodes = -1
    call MPI_Comm_spawn_multiple(2, commands, argvs, maxprocs, infos, 0, MPI_COMM_WORLD, inter, &
        errcodes, ierr)
    call MPI_Comm_remote_size(inter, rsize, ierr)
    if (ierr /= MPI_SUCCESS .or. rsize /= 3 .or. any(errcodes /= MPI_SUCCESS)) then
        print *, 'FAIL spawn_multiple', ierr, rsize, errcodes
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
    if (rank == 0) then
        expect = (/ 2, 2, 103 /)   ! appnum * 100 + number of arguments, by child rank
        do i = 1, 3
            call MPI_Recv(code, 1, MPI_INTEGER, MPI_ANY_SOURCE, 7, inter, status, ierr)
            c = status(MPI_SOURCE)
            if (code /= expect(c + 1)) then
                print *, 'FAIL child', c, 'reported', code
                call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
            end if
        end do
    end if
    call MPI_Comm_disconnect(inter, ierr)
    if (rank == 0) print '(A)', 'spawn_multiple: 3 Fortran children of 2 apps answered'
    call MPI_Finalize(ierr)
end program f_spawn_multi
