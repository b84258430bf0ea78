! f_memory_mod.f90: memory given back as an address in `use mpi`, through
! both specifics of the generic interfaces: BASEPTR a TYPE(C_PTR) used with
! c_f_pointer (MPI_Alloc_mem, MPI_Win_allocate with MPI_Put/MPI_Get between
! fences, MPI_Win_allocate_shared with MPI_Win_shared_query) and an
! INTEGER(KIND=MPI_ADDRESS_KIND) turned into a pointer by c_f_pointer
! (transfer to a TYPE(C_PTR)); MPI_Aint_add/diff through the module.
program f_memory_mod
    use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer, c_associated
    use mpi
    implicit none
    integer, parameter :: n = 4
    integer :: ierr, rank, size, next, prev, i, win, swin, node, srank, disp_unit
    integer(kind=MPI_ADDRESS_KIND) :: bytes, disp, qsize, iaddr
    integer, pointer :: mem(:), wmem(:), first(:), imem(:)
    integer :: got(n)
    type(c_ptr) :: p, q
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
    next = mod(rank + 1, size)
    prev = mod(rank + size - 1, size)
    bytes = 4 * n
    call MPI_Alloc_mem(bytes, MPI_INFO_NULL, p, ierr)
    if (ierr /= MPI_SUCCESS .or. .not. c_associated(p)) call fail('alloc_mem c_ptr')
    call c_f_pointer(p, mem, (/ n /))
    mem = (/ (rank * 10 + i, i = 1, n) /)
    ! the INTEGER(KIND=MPI_ADDRESS_KIND) specific
    iaddr = 0
    call MPI_Alloc_mem(bytes, MPI_INFO_NULL, iaddr, ierr)
    if (ierr /= MPI_SUCCESS .or. iaddr == 0) call fail('alloc_mem integer')
    call c_f_pointer(transfer(iaddr, q), imem, (/ n /))
    imem = 3
    if (sum(imem) /= 3 * n) call fail('integer address memory')
    call MPI_Free_mem(imem, ierr)
    ! a window: each rank puts its block into the next rank's memory
    call MPI_Win_allocate(bytes, 4, MPI_INFO_NULL, MPI_COMM_WORLD, q, win, ierr)
    if (ierr /= MPI_SUCCESS .or. .not. c_associated(q)) call fail('win_allocate')
    call c_f_pointer(q, wmem, (/ n /))
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
    ! a shared window on the node: rank 0's block seen by all
    call MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, node, ierr)
    call MPI_Comm_rank(node, srank, ierr)
    call MPI_Win_allocate_shared(bytes, 4, MPI_INFO_NULL, node, q, swin, ierr)
    call c_f_pointer(q, wmem, (/ n /))
    call MPI_Win_fence(0, swin, ierr)
    wmem = srank + 5
    call MPI_Win_fence(0, swin, ierr)
    call MPI_Win_shared_query(swin, 0, qsize, disp_unit, p, ierr)
    call c_f_pointer(p, first, (/ n /))
    if (ierr /= MPI_SUCCESS .or. qsize /= bytes .or. disp_unit /= 4 .or. any(first /= 5)) &
        call fail('shared_query')
    ! the integer form of MPI_Win_shared_query gives the same address
    call MPI_Win_shared_query(swin, 0, qsize, disp_unit, iaddr, ierr)
    if (.not. c_associated(p, transfer(iaddr, p))) call fail('shared_query integer')
    call MPI_Win_fence(0, swin, ierr)
    call MPI_Win_free(swin, ierr)
    call MPI_Comm_free(node, ierr)
    if (MPI_Aint_diff(MPI_Aint_add(iaddr, 24_MPI_ADDRESS_KIND), iaddr) /= 24) call fail('aint')
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    if (rank == 0) print '(A,I0,A)', 'module memory on ', size, ' ok'
    call MPI_Finalize(ierr)
contains
    subroutine fail(what)
        character(len=*), intent(in) :: what
        print *, 'FAIL rank', rank, ': ', what
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end subroutine
end program f_memory_mod
