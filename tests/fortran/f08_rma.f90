! f08_rma.f90: memory given as TYPE(C_PTR) in `use mpi_f08`: MPI_Alloc_mem
! and MPI_Free_mem, MPI_Win_allocate with MPI_Put/MPI_Get between fences
! (TYPE(MPI_Win), displacements of MPI_ADDRESS_KIND), MPI_Win_allocate_shared
! with MPI_Win_shared_query, MPI_Buffer_attach/MPI_Buffer_detach and
! MPI_F_sync_reg.
program f08_rma
    use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer, c_associated, c_loc
    use mpi_f08
    implicit none
    integer, parameter :: n = 4
    integer :: rank, size, next, prev, i, disp_unit, srank, bsize, ierror
    integer, pointer :: mem(:), win_mem(:), shared(:), first(:)
    integer :: got(n)
    integer, target :: bsend_buf(1024)
    type(c_ptr) :: p, q
    type(MPI_Win) :: win, swin
    type(MPI_Comm) :: node
    integer(kind=MPI_ADDRESS_KIND) :: bytes, disp, qsize
    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, size)
    next = mod(rank + 1, size)
    prev = mod(rank + size - 1, size)
    ! MPI_Alloc_mem
    bytes = 4 * n
    call MPI_Alloc_mem(bytes, MPI_INFO_NULL, p, ierror)
    if (ierror /= MPI_SUCCESS .or. .not. c_associated(p)) call fail('alloc_mem')
    call c_f_pointer(p, mem, (/ n /))
    mem = (/ (rank * 10 + i, i = 1, n) /)
    ! a window: each rank puts its block into the next rank's memory
    call MPI_Win_allocate(bytes, 4, MPI_INFO_NULL, MPI_COMM_WORLD, q, win)
    if (win == MPI_WIN_NULL) call fail('win_allocate')
    call c_f_pointer(q, win_mem, (/ n /))
    win_mem = -1
    call MPI_Win_fence(0, win)
    disp = 0
    call MPI_Put(mem, n, MPI_INTEGER, next, disp, n, MPI_INTEGER, win)
    call MPI_Win_fence(0, win)
    call MPI_F_sync_reg(win_mem)
    if (any(win_mem /= (/ (prev * 10 + i, i = 1, n) /))) call fail('put')
    got = 0
    disp = 1
    call MPI_Get(got, n - 1, MPI_INTEGER, prev, disp, n - 1, MPI_INTEGER, win)
    call MPI_Win_fence(0, win)
    if (any(got(1:n - 1) /= (/ (mod(prev + size - 1, size) * 10 + i, i = 2, n) /))) call fail('get')
    call MPI_Win_free(win)
    if (win /= MPI_WIN_NULL) call fail('win_free')
    call MPI_Free_mem(mem)
    ! a shared window on the node: rank 0's block seen by all
    call MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, node)
    call MPI_Comm_rank(node, srank)
    call MPI_Win_allocate_shared(bytes, 4, MPI_INFO_NULL, node, q, swin)
    call c_f_pointer(q, shared, (/ n /))
    call MPI_Win_fence(0, swin)
    shared = srank
    call MPI_Win_fence(0, swin)
    call MPI_Win_shared_query(swin, 0, qsize, disp_unit, q)
    call c_f_pointer(q, first, (/ n /))
    if (qsize /= bytes .or. disp_unit /= 4 .or. any(first /= 0)) call fail('shared_query')
    call MPI_Win_fence(0, swin)
    call MPI_Win_free(swin)
    call MPI_Comm_free(node)
    ! a buffer for MPI_Bsend, given back as an address
    call MPI_Buffer_attach(bsend_buf, 4 * 1024)
    call MPI_Bsend(rank, 1, MPI_INTEGER, next, 1, MPI_COMM_WORLD)
    call MPI_Recv(i, 1, MPI_INTEGER, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    if (i /= prev) call fail('bsend')
    call MPI_Buffer_detach(p, bsize)
    if (bsize /= 4 * 1024 .or. .not. c_associated(p, c_loc(bsend_buf))) call fail('buffer_detach')
    call MPI_Barrier(MPI_COMM_WORLD)
    if (rank == 0) print '(A,I0,A)', 'f08 rma on ', size, ' ok'
    call MPI_Finalize()
contains
    subroutine fail(what)
        character(len=*), intent(in) :: what
        print *, 'FAIL rank', rank, ': ', what
        call MPI_Abort(MPI_COMM_WORLD, 1)
    end subroutine
end program f08_rma
