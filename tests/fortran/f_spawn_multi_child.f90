! f_spawn_multi_child.f90: the child of f_spawn_multi and f08_spawn_multi
! (MPI_Comm_spawn_multiple): checks its argv against its MPI_APPNUM (app 0:
! "app0 x", app 1: "app1 second third", or none with MPI_ARGVS_NULL) and
! the "argv" of MPI_Info_create_env, and sends APPNUM * 100 + the number of
! arguments to the parents' rank 0. mpif.h.
program f_spawn_multi_child
    implicit none
    include 'mpif.h'
    integer :: ierr, rank, parent, nargs, code, info, buflen
    integer(kind=MPI_ADDRESS_KIND) :: appnum
    logical :: flag
    character(len=32) :: arg, expect(2)
    character(len=256) :: value, joined
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_get_parent(parent, ierr)
    if (parent == MPI_COMM_NULL) call fail('no parent')
    call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, appnum, flag, ierr)
    if (.not. flag .or. appnum < 0 .or. appnum > 1) call fail('appnum')
    nargs = command_argument_count()
    expect(1) = 'app0 x'
    expect(2) = 'app1 second third'
    if (nargs > 0) then
        call get_command_argument(1, arg)
        if (arg /= 'app' // achar(48 + int(appnum))) call fail('argv(1) ' // arg)
        if (nargs /= 2 + appnum) call fail('number of arguments')
    end if
    ! the same arguments in the environment's info
    call MPI_Info_create_env(info, ierr)
    if (ierr /= MPI_SUCCESS) call fail('info_create_env')
    buflen = len(value)
    value = ' '
    call MPI_Info_get_string(info, 'argv', buflen, value, flag, ierr)
    joined = ' '
    if (nargs > 0) joined = expect(appnum + 1)
    if (nargs > 0 .and. (.not. flag .or. value /= joined)) call fail('info argv ' // value)
    buflen = len(value)
    call MPI_Info_get_string(info, 'command', buflen, value, flag, ierr)
    if (.not. flag .or. index(value, 'f_spawn_multi_child') == 0) call fail('info command ' // value)
    call MPI_Info_free(info, ierr)
    code = int(appnum) * 100 + nargs
    call MPI_Send(code, 1, MPI_INTEGER, 0, 7, parent, ierr)
    call MPI_Comm_disconnect(parent, ierr)
    call MPI_Finalize(ierr)
contains
    subroutine fail(what)
        character(len=*), intent(in) :: what
        print *, 'FAIL child', rank, ': ', trim(what)
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end subroutine
end program f_spawn_multi_child
