! f_dtype.f90: a column of a Fortran matrix as MPI_Type_vector, committed,
! sent and received; MPI_Type_size and MPI_Type_free; MPI_Sizeof on
! scalars and arrays of several types and kinds; MPI_Type_create_f90_real
! used in a reduction. `use mpi`.
program f_dtype
    use mpi
    implicit none
    integer :: ierr, rank, size, vec, tsize, i, j
    integer(kind=2) :: short(3)
    complex(kind=8) :: z
    logical :: flag
    integer :: f90real
    real(kind=selected_real_kind(12)) :: x(2), y(2)
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
    call MPI_Sizeof(a, tsize, ierr)
    i = tsize
    call MPI_Sizeof(short, tsize, ierr)
    i = i * 100 + tsize
    call MPI_Sizeof(z, tsize, ierr)
    i = i * 100 + tsize
    call MPI_Sizeof(flag, tsize, ierr)
    i = i * 100 + tsize
    if (i /= 8021604) then
        print *, 'FAIL MPI_Sizeof', i
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
    call MPI_Type_create_f90_real(12, MPI_UNDEFINED, f90real, ierr)
    x = rank + 1.5d0
    call MPI_Allreduce(x, y, 2, f90real, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (ierr /= MPI_SUCCESS .or. abs(y(2) - (size * 1.5d0 + size * (size - 1) / 2)) > 1d-9) then
        print *, 'FAIL f90 real reduction', y
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
    call MPI_Finalize(ierr)
end program f_dtype
