! f08_spawn_multi.f90: MPI_Comm_spawn_multiple from `use mpi_f08`: two apps
! of the Fortran child f_spawn_multi_child (the first argument), one
! process each, with MPI_ARGVS_NULL and MPI_ERRCODES_IGNORE, an array of
! TYPE(MPI_Info) (the second one an info of its own); each child
! reports its MPI_APPNUM and no arguments. Also MPI_Info_create_env here.
! Usage: f08_spawn_multi CHILD
program f08_spawn_multi
    use mpi_f08
    implicit none
    integer :: rank, code, i, buflen, seen(0:1)
    integer :: maxprocs(2)
    type(MPI_Info) :: infos(2), env
    type(MPI_Comm) :: inter
    type(MPI_Status) :: status
    character(len=512) :: commands(2), value
    logical :: flag
    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call get_command_argument(1, commands(1))
    commands(2) = commands(1)
    maxprocs = 1
    ! an info of the second app with a key spawn does not know (ignored)
    infos(1) = MPI_INFO_NULL
    call MPI_Info_create(infos(2))
    call MPI_Info_set(infos(2), 'tide_test_unknown_key', 'x')
    call MPI_Comm_spawn_multiple(2, commands, MPI_ARGVS_NULL, maxprocs, infos, 0, MPI_COMM_WORLD, &
        inter, MPI_ERRCODES_IGNORE)
    call MPI_Info_free(infos(2))
    if (rank == 0) then
        seen = 0
        do i = 1, 2
            call MPI_Recv(code, 1, MPI_INTEGER, MPI_ANY_SOURCE, 7, inter, status)
            if (code /= status%MPI_SOURCE * 100) then
                print *, 'FAIL child', status%MPI_SOURCE, 'reported', code
                call MPI_Abort(MPI_COMM_WORLD, 1)
            end if
            seen(status%MPI_SOURCE) = 1
        end do
        if (any(seen /= 1)) call MPI_Abort(MPI_COMM_WORLD, 1)
    end if
    call MPI_Comm_disconnect(inter)
    ! this process's own command line
    call MPI_Info_create_env(env)
    buflen = len(value)
    call MPI_Info_get_string(env, 'command', buflen, value, flag)
    if (.not. flag .or. index(value, 'f08_spawn_multi') == 0) then
        print *, 'FAIL info_create_env command: ', trim(value)
        call MPI_Abort(MPI_COMM_WORLD, 1)
    end if
    buflen = len(value)
    call MPI_Info_get_string(env, 'argv', buflen, value, flag)
    if (.not. flag .or. index(value, 'f_spawn_multi_child') == 0) then
        print *, 'FAIL info_create_env argv: ', trim(value)
        call MPI_Abort(MPI_COMM_WORLD, 1)
    end if
    call MPI_Info_free(env)
    if (rank == 0) print '(A)', 'f08 spawn_multiple: 2 Fortran children of 2 apps answered'
    call MPI_Finalize()
end program f08_spawn_multi
