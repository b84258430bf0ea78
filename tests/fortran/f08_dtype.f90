! f08_dtype.f90: a derived datatype from `use mpi_f08`: a row of a 2-D
! array (MPI_Type_vector, stride = leading dimension) sent as one element
! and received contiguous; MPI_Type_get_extent (MPI_ADDRESS_KIND),
! MPI_Type_size, MPI_Type_free and MPI_DATATYPE_NULL; the same transfer
! with counts of KIND=MPI_COUNT_KIND (the large-count overloads: MPI_Send_c,
! MPI_Recv_c, MPI_Get_count_c, MPI_Type_size_c); MPI_Status_set_elements
! keeping the other fields; MPI_Status_f082f/MPI_Status_f2f08;
! MPI_Get_address with MPI_Aint_diff and MPI_Aint_add.
program f08_dtype
    use mpi_f08
    implicit none
    integer, parameter :: rows = 4, cols = 5
    integer :: rank, size, i, j, tsize
    double precision :: a(rows, cols), row(cols), row3(cols)
    type(MPI_Datatype) :: rowtype
    type(MPI_Status) :: status
    integer(kind=MPI_ADDRESS_KIND) :: lb, extent, addr1, addr2
    integer :: count
    integer(kind=MPI_COUNT_KIND) :: bigcount, bigsize
    integer :: fstatus(MPI_STATUS_SIZE)
    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, size)
    call MPI_Type_vector(cols, 1, rows, MPI_DOUBLE_PRECISION, rowtype)
    call MPI_Type_commit(rowtype)
    call MPI_Type_get_extent(rowtype, lb, extent)
    call MPI_Type_size(rowtype, tsize)
    call MPI_Get_address(a(1, 1), addr1)
    call MPI_Get_address(a(2, 3), addr2)
    if (MPI_Aint_diff(addr2, addr1) /= 8 * (2 * rows + 1) .or. &
        MPI_Aint_add(addr1, MPI_Aint_diff(addr2, addr1)) /= addr2) then
        print *, 'FAIL aint_add/diff', addr1, addr2
        call MPI_Abort(MPI_COMM_WORLD, 1)
    end if
    if (lb /= 0 .or. extent /= 8 * ((cols - 1) * rows + 1) .or. tsize /= 8 * cols) then
        print *, 'FAIL extent', lb, extent, tsize
        call MPI_Abort(MPI_COMM_WORLD, 1)
    end if
    if (rank == 0) then
        do j = 1, cols
            do i = 1, rows
                a(i, j) = 10 * i + j
            end do
        end do
        ! row 2: 21 22 23 24 25
        call MPI_Send(a(2, 1), 1, rowtype, 1, 0, MPI_COMM_WORLD)
        bigcount = 1
        call MPI_Send(a(3, 1), bigcount, rowtype, 1, 9, MPI_COMM_WORLD)
    else if (rank == 1) then
        row = 0
        call MPI_Recv(row, cols, MPI_DOUBLE_PRECISION, 0, 0, MPI_COMM_WORLD, status)
        call MPI_Get_count(status, MPI_DOUBLE_PRECISION, count)
        if (count /= cols) then
            print *, 'FAIL count', count
            call MPI_Abort(MPI_COMM_WORLD, 1)
        end if
        bigcount = cols
        call MPI_Recv(row3, bigcount, MPI_DOUBLE_PRECISION, 0, 9, MPI_COMM_WORLD, status)
        bigcount = -1
        call MPI_Get_count(status, MPI_DOUBLE_PRECISION, bigcount)
        call MPI_Type_size(rowtype, bigsize)
        if (bigcount /= cols .or. bigsize /= 8 * cols .or. any(row3 /= a3())) then
            print *, 'FAIL large count', bigcount, bigsize, row3
            call MPI_Abort(MPI_COMM_WORLD, 1)
        end if
        call MPI_Status_set_elements(status, MPI_DOUBLE_PRECISION, 3)
        call MPI_Get_count(status, MPI_DOUBLE_PRECISION, count)
        call MPI_Status_f082f(status, fstatus)
        status%MPI_TAG = -5
        call MPI_Status_f2f08(fstatus, status)
        if (count /= 3 .or. status%MPI_SOURCE /= 0 .or. status%MPI_TAG /= 9 .or. &
            fstatus(MPI_TAG) /= 9) then
            print *, 'FAIL status_set_elements', count, status%MPI_SOURCE, status%MPI_TAG
            call MPI_Abort(MPI_COMM_WORLD, 1)
        end if
        print '(A,5F6.1)', 'f08 row received', row
    end if
    call MPI_Type_free(rowtype)
    if (rowtype /= MPI_DATATYPE_NULL) then
        print *, 'FAIL type_free'
        call MPI_Abort(MPI_COMM_WORLD, 1)
    end if
    call MPI_Finalize()
contains
    ! row 3 of the array rank 0 sends
    function a3() result(r)
        double precision :: r(cols)
        integer :: k
        r = (/ (30 + k, k = 1, cols) /)
    end function
end program f08_dtype
