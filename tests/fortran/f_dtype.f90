! f_dtype.f90: a column of a Fortran matrix as MPI_Type_vector, committed,
! sent and received; MPI_Type_size and MPI_Type_free. `use mpi`.
program f_dtype
    use mpi
    implicit none
    integer :: ierr, rank, size, vec, tsize, i, j
    double precision :: a(4, 5), col(5)
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
    ! row 2 of a 4x5 column-major matrix: 5 elements, stride 4
    call MPI_Type_vector(5, 1, 4, MPI_DOUBLE_PRECISION, vec, ierr)
    call MPI_Type_commit(vec, ierr)
    call MPI_Type_size(vec, tsize, ierr)
    if (tsize /= 40) then
        print *, 'FAIL type size', tsize
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
    if (rank == 0) then
        do j = 1, 5
            do i = 1, 4
                a(i, j) = 10 * i + j
            end do
        end do
        call MPI_Send(a(2, 1), 1, vec, size - 1, 0, MPI_COMM_WORLD, ierr)
    end if
    if (rank == size - 1) then
        call MPI_Recv(col, 5, MPI_DOUBLE_PRECISION, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
        do j = 1, 5
            if (col(j) /= 20 + j) then
                print *, 'FAIL vector element', j, col(j)
                call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
            end if
        end do
        print '(A,5F5.0)', 'vector received', col
    end if
    call MPI_Type_free(vec, ierr)
    if (vec /= MPI_DATATYPE_NULL) then
        print *, 'FAIL type_free'
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
    call MPI_Finalize(ierr)
end program f_dtype
