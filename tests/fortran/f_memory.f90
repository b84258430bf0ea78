! f_memory.f90: memory given back as an address in mpif.h: BASEPTR an
! INTEGER(KIND=MPI_ADDRESS_KIND) used as a Cray pointer (MPI_Alloc_mem,
! MPI_Win_allocate with MPI_Put/MPI_Get between fences,
! MPI_Win_allocate_shared with MPI_Win_shared_query), the same calls with a
! TYPE(C_PTR) and c_f_pointer, MPI_Buffer_detach, MPI_Aint_add/diff.
! build-flags: -fcray-pointer
program f_memory
    use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer, c_associated
    implicit none
    include 'mpif.h'
    integer, parameter :: n = 4
    integer :: ierr, rank, size, next, prev, i, win, swin, node, srank, disp_unit, bsize
    integer(kind=MPI_ADDRESS_KIND) :: bytes, disp, qsize, base, addr
    integer :: mem(n), wmem(n), first(n), got(n)
    pointer (pmem, mem)
    pointer (pwin, wmem)
    pointer (pfirst, first)
    integer, pointer :: cmem(:)
    type(c_ptr) :: cp
    integer :: bsend_buf(1024)
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
    next = mod(rank + 1, size)
    prev = mod(rank + size - 1, size)
    bytes = 4 * n
    ! MPI_Alloc_mem into a Cray pointer
    pmem = 0
    call MPI_Alloc_mem(bytes, MPI_INFO_NULL, pmem, ierr)
    if (ierr /= MPI_SUCCESS .or. pmem == 0) call fail('alloc_mem')
    mem = (/ (rank * 10 + i, i = 1, n) /)
    ! a window: each rank puts its block into the next rank's memory
    call MPI_Win_allocate(bytes, 4, MPI_INFO_NULL, MPI_COMM_WORLD, pwin, win, ierr)
    if (ierr /= MPI_SUCCESS .or. pwin == 0) call fail('win_allocate')
    wmem = -1
    call MPI_Win_fence(0, win, ierr)
    disp = 0
    call MPI_Put(mem, n, MPI_INTEGER, next, disp, n, MPI_INTEGER, win, ierr)
    call MPI_Win_fence(0, win, ierr)
    call MPI_F_sync_reg(wmem)
    if (any(wmem /= (/ (prev * 10 + i, i = 1, n) /))) call fail('put')
    got = 0
    disp = 1
    call MPI_Get(got, n - 1, MPI_INTEGER, prev, disp, n - 1, MPI_INTEGER, win, ierr)
    call MPI_Win_fence(0, win, ierr)
    if (any(got(1:n - 1) /= (/ (mod(prev + size - 1, size) * 10 + i, i = 2, n) /))) call fail('get')
    call MPI_Win_free(win, ierr)
    call MPI_Free_mem(mem, ierr)
    if (ierr /= MPI_SUCCESS) call fail('free_mem')
    ! the same with a TYPE(C_PTR) (mpif.h has no interfaces: it is the address)
    call MPI_Alloc_mem(bytes, MPI_INFO_NULL, cp, ierr)
    if (ierr /= MPI_SUCCESS .or. .not. c_associated(cp)) call fail('alloc_mem c_ptr')
    call c_f_pointer(cp, cmem, (/ n /))
    cmem = 7
    if (sum(cmem) /= 7 * n) call fail('c_ptr memory')
    call MPI_Free_mem(cmem, ierr)
    ! a shared window on the node: rank 0's block seen by all
    call MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, node, ierr)
    call MPI_Comm_rank(node, srank, ierr)
    call MPI_Win_allocate_shared(bytes, 4, MPI_INFO_NULL, node, pwin, swin, ierr)
    call MPI_Win_fence(0, swin, ierr)
    wmem = srank + 5
    call MPI_Win_fence(0, swin, ierr)
    call MPI_Win_shared_query(swin, 0, qsize, disp_unit, pfirst, ierr)
    if (ierr /= MPI_SUCCESS .or. qsize /= bytes .or. disp_unit /= 4 .or. any(first /= 5)) &
        call fail('shared_query')
    call MPI_Win_fence(0, swin, ierr)
    call MPI_Win_free(swin, ierr)
    call MPI_Comm_free(node, ierr)
    ! MPI_Buffer_detach gives the size back
    call MPI_Buffer_attach(bsend_buf, 4 * 1024, ierr)
    call MPI_Bsend(rank, 1, MPI_INTEGER, next, 1, MPI_COMM_WORLD, ierr)
    call MPI_Recv(i, 1, MPI_INTEGER, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    if (i /= prev) call fail('bsend')
    call MPI_Buffer_detach(bsend_buf, bsize, ierr)
    if (ierr /= MPI_SUCCESS .or. bsize /= 4 * 1024) call fail('buffer_detach')
    ! address arithmetic
    call MPI_Get_address(got(1), base, ierr)
    call MPI_Get_address(got(3), addr, ierr)
    if (MPI_Aint_diff(addr, base) /= 8 .or. MPI_Aint_add(base, 8_MPI_ADDRESS_KIND) /= addr) &
        call fail('aint_add/diff')
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    if (rank == 0) print '(A,I0,A)', 'memory on ', size, ' ok'
    call MPI_Finalize(ierr)
contains
    subroutine fail(what)
        character(len=*), intent(in) :: what
        print *, 'FAIL rank', rank, ': ', what
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end subroutine
end program f_memory
