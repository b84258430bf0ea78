! f08_attr.f90: attributes and keyvals from `use mpi_f08`: a communicator
! keyval with copy and delete procedures of the standard's interfaces
! (PROCEDURE(MPI_Comm_copy_attr_function), ...), called on MPI_Comm_dup and
! MPI_Comm_free with the communicator, keyval, extra state and value; the
! copy's flag deciding whether the duplicate gets the attribute; the
! predefined MPI_COMM_DUP_FN, MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN;
! datatype and window keyvals (MPI_Type_dup, MPI_TYPE_DUP_FN, MPI_WIN_*);
! values of MPI_ADDRESS_KIND through set_attr/get_attr and the flag of
! get_attr.
module f08_attr_callbacks
    use mpi_f08
    implicit none
    integer :: copies = 0, deletes = 0, bad = 0, tdeletes = 0
    type(MPI_Comm) :: expect_old
    integer(kind=MPI_ADDRESS_KIND) :: deleted_sum = 0
contains
    ! copies the value plus the extra state when it is even, not at all when odd
    subroutine my_copy(oldcomm, comm_keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
        type(MPI_Comm) :: oldcomm
        integer :: comm_keyval, ierror
        integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
        logical :: flag
        if (oldcomm /= expect_old .or. comm_keyval == MPI_KEYVAL_INVALID .or. extra_state /= 1000) &
            bad = bad + 1
        copies = copies + 1
        flag = mod(attribute_val_in, 2_MPI_ADDRESS_KIND) == 0
        if (flag) attribute_val_out = attribute_val_in + extra_state
        ierror = MPI_SUCCESS
    end subroutine
    subroutine my_delete(comm, comm_keyval, attribute_val, extra_state, ierror)
        type(MPI_Comm) :: comm
        integer :: comm_keyval, ierror
        integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
        if (comm == MPI_COMM_NULL .or. comm_keyval == MPI_KEYVAL_INVALID .or. extra_state /= 1000) &
            bad = bad + 1
        deleted_sum = deleted_sum + attribute_val
        deletes = deletes + 1
        ierror = MPI_SUCCESS
    end subroutine
    subroutine type_delete(datatype, type_keyval, attribute_val, extra_state, ierror)
        type(MPI_Datatype) :: datatype
        integer :: type_keyval, ierror
        integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
        if (datatype == MPI_DATATYPE_NULL .or. type_keyval == MPI_KEYVAL_INVALID .or. &
            attribute_val /= 77 .or. extra_state /= 5) bad = bad + 1
        tdeletes = tdeletes + 1
        ierror = MPI_SUCCESS
    end subroutine
end module f08_attr_callbacks

program f08_attr
    use mpi_f08
    use f08_attr_callbacks
    implicit none
    integer :: rank, kv, kv_dup, kv_null, tkv, wkv, ierror
    type(MPI_Comm) :: dup, dup2
    type(MPI_Datatype) :: t, t2
    type(MPI_Win) :: win
    integer(kind=MPI_ADDRESS_KIND) :: val, extra, wsize
    logical :: flag
    integer, target :: buf(10)
    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    extra = 1000
    call MPI_Comm_create_keyval(my_copy, my_delete, kv, extra, ierror)
    if (ierror /= MPI_SUCCESS .or. kv == MPI_KEYVAL_INVALID) call fail('create_keyval')
    call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, kv_dup, extra)
    call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, kv_null, extra)
    ! not set: flag false
    call MPI_Comm_get_attr(MPI_COMM_WORLD, kv, val, flag)
    if (flag) call fail('flag of an unset attribute')
    ! values wider than 32 bits survive
    call MPI_Comm_set_attr(MPI_COMM_WORLD, kv, 42_MPI_ADDRESS_KIND)
    call MPI_Comm_set_attr(MPI_COMM_WORLD, kv_dup, 8589934593_MPI_ADDRESS_KIND)
    call MPI_Comm_set_attr(MPI_COMM_WORLD, kv_null, 9_MPI_ADDRESS_KIND)
    call MPI_Comm_get_attr(MPI_COMM_WORLD, kv, val, flag)
    if (.not. flag .or. val /= 42) call fail('get_attr')
    ! dup: my_copy called with MPI_COMM_WORLD, gives 42 + 1000
    expect_old = MPI_COMM_WORLD
    call MPI_Comm_dup(MPI_COMM_WORLD, dup)
    if (copies /= 1) call fail('copy callback not called once')
    call MPI_Comm_get_attr(dup, kv, val, flag)
    if (.not. flag .or. val /= 1042) call fail('copied value')
    call MPI_Comm_get_attr(dup, kv_dup, val, flag)
    if (.not. flag .or. val /= 8589934593_MPI_ADDRESS_KIND) call fail('MPI_COMM_DUP_FN')
    call MPI_Comm_get_attr(dup, kv_null, val, flag)
    if (flag) call fail('MPI_COMM_NULL_COPY_FN copied')
    ! an odd value: the copy callback says flag = .false., the duplicate has none
    call MPI_Comm_set_attr(dup, kv, 1043_MPI_ADDRESS_KIND)   ! replaces 1042: deleted
    if (deletes /= 1 .or. deleted_sum /= 1042) call fail('delete on replace')
    expect_old = dup
    call MPI_Comm_dup(dup, dup2)
    if (copies /= 2) call fail('second copy')
    call MPI_Comm_get_attr(dup2, kv, val, flag)
    if (flag) call fail('flag .false. from the copy callback not honoured')
    call MPI_Comm_free(dup2)
    if (deletes /= 1) call fail('delete of an attribute not copied')
    ! free: the delete callback gets the value
    call MPI_Comm_free(dup)
    if (deletes /= 2 .or. deleted_sum /= 1042 + 1043) call fail('delete on free')
    call MPI_Comm_delete_attr(MPI_COMM_WORLD, kv)
    if (deletes /= 3 .or. deleted_sum /= 1042 + 1043 + 42) call fail('delete_attr')
    call MPI_Comm_get_attr(MPI_COMM_WORLD, kv, val, flag)
    if (flag) call fail('flag after delete_attr')
    call MPI_Comm_free_keyval(kv)
    call MPI_Comm_free_keyval(kv_dup)
    call MPI_Comm_free_keyval(kv_null)
    if (kv /= MPI_KEYVAL_INVALID) call fail('free_keyval')
    ! datatypes: MPI_TYPE_DUP_FN copies, the delete callback runs for both
    extra = 5
    call MPI_Type_create_keyval(MPI_TYPE_DUP_FN, type_delete, tkv, extra)
    call MPI_Type_contiguous(2, MPI_INTEGER, t)
    call MPI_Type_set_attr(t, tkv, 77_MPI_ADDRESS_KIND)
    call MPI_Type_dup(t, t2)
    call MPI_Type_get_attr(t2, tkv, val, flag)
    if (.not. flag .or. val /= 77) call fail('type attribute')
    call MPI_Type_free(t2)
    call MPI_Type_free(t)
    if (tdeletes /= 2) call fail('type delete callbacks')
    call MPI_Type_free_keyval(tkv)
    ! windows: a keyval of its own and the predefined attributes
    call MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, wkv, extra)
    call MPI_Win_create(buf, 40_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win)
    call MPI_Win_set_attr(win, wkv, 123_MPI_ADDRESS_KIND)
    call MPI_Win_get_attr(win, wkv, val, flag)
    if (.not. flag .or. val /= 123) call fail('win attribute')
    call MPI_Win_get_attr(win, MPI_WIN_SIZE, wsize, flag)
    if (.not. flag .or. wsize /= 40) call fail('MPI_WIN_SIZE')
    call MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, val, flag)
    if (.not. flag .or. val /= 4) call fail('MPI_WIN_DISP_UNIT')
    call MPI_Win_free(win)
    call MPI_Win_free_keyval(wkv)
    if (bad /= 0) call fail('callback arguments')
    call MPI_Barrier(MPI_COMM_WORLD)
    if (rank == 0) print '(A)', 'f08 attributes ok'
    call MPI_Finalize()
contains
    subroutine fail(what)
        character(len=*), intent(in) :: what
        print *, 'FAIL rank', rank, ': ', what, copies, deletes, deleted_sum, bad
        call MPI_Abort(MPI_COMM_WORLD, 1)
    end subroutine
end program f08_attr
