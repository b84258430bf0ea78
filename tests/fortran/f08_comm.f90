! f08_comm.f90: communicators from `use mpi_f08`: MPI_Comm_split into even
! and odd ranks, MPI_Comm_compare (MPI_IDENT, MPI_CONGRUENT, MPI_UNEQUAL),
! `==` and `/=` on TYPE(MPI_Comm) and TYPE(MPI_Group), names, groups,
! MPI_Comm_free leaving MPI_COMM_NULL.
program f08_comm
    use mpi_f08
    implicit none
    integer :: rank, size, subrank, subsize, result, rlen, ierror
    type(MPI_Comm) :: sub, dup, same
    type(MPI_Group) :: world_group, sub_group
    character(len=MPI_MAX_OBJECT_NAME) :: name
    character(len=10) :: mine
    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, size)
    call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), -rank, sub)
    call MPI_Comm_rank(sub, subrank)
    call MPI_Comm_size(sub, subsize)
    if (subsize /= (size + 1 - mod(rank, 2)) / 2 .or. subrank /= subsize - 1 - rank / 2) &
        call fail('split')
    same = MPI_COMM_WORLD
    if (.not. (same == MPI_COMM_WORLD) .or. same /= MPI_COMM_WORLD) call fail('== on comm')
    if (sub == MPI_COMM_WORLD .or. sub == MPI_COMM_NULL) call fail('split handle')
    call MPI_Comm_compare(MPI_COMM_WORLD, same, result)
    if (result /= MPI_IDENT) call fail('compare ident')
    call MPI_Comm_dup(MPI_COMM_WORLD, dup)
    call MPI_Comm_compare(MPI_COMM_WORLD, dup, result)
    if (result /= MPI_CONGRUENT .or. dup == MPI_COMM_WORLD) call fail('compare dup')
    call MPI_Comm_compare(MPI_COMM_WORLD, sub, result)
    if (size > 1 .and. result /= MPI_UNEQUAL) call fail('compare split')
    call MPI_Comm_group(MPI_COMM_WORLD, world_group)
    call MPI_Comm_group(sub, sub_group)
    call MPI_Group_compare(world_group, sub_group, result)
    if (size > 1 .and. result /= MPI_UNEQUAL) call fail('group compare')
    if (world_group == MPI_GROUP_NULL .or. world_group == MPI_GROUP_EMPTY) call fail('group handle')
    call MPI_Group_free(sub_group)
    call MPI_Group_free(world_group)
    if (world_group /= MPI_GROUP_NULL) call fail('group_free')
    write (mine, '(A,I0)') 'half', mod(rank, 2)
    call MPI_Comm_set_name(sub, mine)
    name = 'xxxxxxxx'
    call MPI_Comm_get_name(sub, name, rlen)
    if (name /= mine .or. rlen /= len_trim(mine)) call fail('name')
    call MPI_Comm_free(dup)
    call MPI_Comm_free(sub, ierror)
    if (ierror /= MPI_SUCCESS .or. sub /= MPI_COMM_NULL .or. dup /= MPI_COMM_NULL) call fail('free')
    call MPI_Comm_get_name(MPI_COMM_WORLD, name, rlen)
    if (rank == 0) print '(A,A,A,A)', 'f08 split ok: ', trim(mine), ' world ', trim(name)
    call MPI_Finalize()
contains
    subroutine fail(what)
        character(len=*), intent(in) :: what
        print *, 'FAIL rank', rank, ': ', what, result
        call MPI_Abort(MPI_COMM_WORLD, 1)
    end subroutine
end program f08_comm
