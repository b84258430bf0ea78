! f_attr.f90: attributes from Fortran: keyvals with copy and delete
! subroutines written in Fortran and with the predefined MPI_COMM_DUP_FN
! and MPI_COMM_NULL_DELETE_FN, values through MPI_Comm_dup and
! MPI_Comm_free, datatype and window attributes (MPI_WIN_SIZE,
! MPI_WIN_DISP_UNIT), and the MPI-1 MPI_Keyval_create/MPI_Attr_put/get.
! `use mpi`.
module f_attr_callbacks
    use mpi
    implicit none
    integer :: copies = 0, deletes = 0, bad = 0
    integer(kind=MPI_ADDRESS_KIND) :: deleted_sum = 0
contains
    subroutine my_copy(oldcomm, keyval, extra, val_in, val_out, flag, ierr)
        integer :: oldcomm, keyval, ierr
        integer(kind=MPI_ADDRESS_KIND) :: extra, val_in, val_out
        logical :: flag
        if (oldcomm == MPI_COMM_NULL .or. keyval == MPI_KEYVAL_INVALID) bad = bad + 1
        copies = copies + 1
        val_out = val_in + extra
        flag = .true.
        ierr = MPI_SUCCESS
    end subroutine
    subroutine my_delete(comm, keyval, val, extra, ierr)
        integer :: comm, keyval, ierr
        integer(kind=MPI_ADDRESS_KIND) :: val, extra
        if (comm == MPI_COMM_NULL .or. keyval == MPI_KEYVAL_INVALID .or. extra /= 1000) bad = bad + 1
        deleted_sum = deleted_sum + val
        deletes = deletes + 1
        ierr = MPI_SUCCESS
    end subroutine
    subroutine old_copy(oldcomm, keyval, extra, val_in, val_out, flag, ierr)
        integer :: oldcomm, keyval, extra, val_in, val_out, ierr
        logical :: flag
        if (oldcomm == MPI_COMM_NULL .or. keyval == MPI_KEYVAL_INVALID) bad = bad + 1
        val_out = val_in * extra
        flag = .true.
        ierr = MPI_SUCCESS
    end subroutine
    subroutine old_delete(comm, keyval, val, extra, ierr)
        integer :: comm, keyval, val, extra, ierr
        if (comm == MPI_COMM_NULL .or. keyval == MPI_KEYVAL_INVALID .or. extra /= 3 .or. val /= 15) bad = bad + 1
        deletes = deletes + 100
        ierr = MPI_SUCCESS
    end subroutine
end module f_attr_callbacks

program f_attr
    use mpi
    use f_attr_callbacks
    implicit none
    integer :: ierr, rank, kv, kv2, kv1, tkv, dup, win, t, old
    integer(kind=MPI_ADDRESS_KIND) :: extra, val, wsize
    logical :: flag
    integer :: buf(10)
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    extra = 1000
    call MPI_Comm_create_keyval(my_copy, my_delete, kv, extra, ierr)
    call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, kv2, extra, ierr)
    call MPI_Keyval_create(old_copy, old_delete, kv1, 3, ierr)
    val = 42
    call MPI_Comm_set_attr(MPI_COMM_WORLD, kv, val, ierr)
    val = 7
    call MPI_Comm_set_attr(MPI_COMM_WORLD, kv2, val, ierr)
    call MPI_Attr_put(MPI_COMM_WORLD, kv1, 5, ierr)
    call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
    call MPI_Comm_get_attr(dup, kv, val, flag, ierr)
    if (.not. flag .or. val /= 1042 .or. copies /= 1) call fail('copy callback', int(val))
    call MPI_Comm_get_attr(dup, kv2, val, flag, ierr)
    if (.not. flag .or. val /= 7) call fail('MPI_COMM_DUP_FN', int(val))
    call MPI_Attr_get(dup, kv1, old, flag, ierr)
    if (.not. flag .or. old /= 15) call fail('MPI-1 copy callback', old)
    call MPI_Comm_free(dup, ierr)
    if (deletes /= 101) call fail('delete callbacks', deletes)
    ! a datatype attribute
    call MPI_Type_contiguous(2, MPI_INTEGER, t, ierr)
    call MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, tkv, extra, ierr)
    val = 99
    call MPI_Type_set_attr(t, tkv, val, ierr)
    val = 0
    call MPI_Type_get_attr(t, tkv, val, flag, ierr)
    if (.not. flag .or. val /= 99) call fail('type attribute', int(val))
    call MPI_Type_free(t, ierr)
    ! window attributes
    wsize = 40
    call MPI_Win_create(buf, wsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
    call MPI_Win_get_attr(win, MPI_WIN_SIZE, val, flag, ierr)
    if (.not. flag .or. val /= 40) call fail('MPI_WIN_SIZE', int(val))
    call MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, val, flag, ierr)
    if (.not. flag .or. val /= 4) call fail('MPI_WIN_DISP_UNIT', int(val))
    call MPI_Win_free(win, ierr)
    call MPI_Comm_delete_attr(MPI_COMM_WORLD, kv, ierr)
    if (deletes /= 102 .or. deleted_sum /= 1042 + 42) call fail('delete on MPI_Comm_delete_attr', deletes)
    if (bad /= 0) call fail('callback arguments', bad)
    call MPI_Comm_free_keyval(kv, ierr)
    call MPI_Comm_free_keyval(kv2, ierr)
    call MPI_Type_free_keyval(tkv, ierr)
    if (rank == 0) print '(a)', 'attributes ok'
    call MPI_Finalize(ierr)
contains
    subroutine fail(what, v)
        character(len=*), intent(in) :: what
        integer, intent(in) :: v
        integer :: e2
        print *, 'FAIL ', what, v
        call MPI_Abort(MPI_COMM_WORLD, 1, e2)
    end subroutine
end program f_attr
