! f_comm.f90: MPI_Comm_split into even and odd ranks, MPI_Comm_set_name
! and MPI_Comm_get_name (Fortran strings both ways), MPI_Comm_free. mpif.h.
program f_comm
    implicit none
    include 'mpif.h'
    integer :: ierr, rank, size, sub, subrank, subsize, rlen
    character(len=MPI_MAX_OBJECT_NAME) :: name
    character(len=10) :: mine
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
    call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), -rank, sub, ierr)
    call MPI_Comm_rank(sub, subrank, ierr)
    call MPI_Comm_size(sub, subsize, ierr)
    if (subsize /= (size + 1 - mod(rank, 2)) / 2 .or. subrank /= subsize - 1 - rank / 2) then
        print *, 'FAIL split', rank, subrank, subsize
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
    write (mine, '(A,I0)') 'half', mod(rank, 2)
    call MPI_Comm_set_name(sub, mine, ierr)
    name = 'xxxxxxxx'
    call MPI_Comm_get_name(sub, name, rlen, ierr)
    if (name /= mine .or. rlen /= len_trim(mine)) then
        print *, 'FAIL name "', trim(name), '" ', rlen
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
    call MPI_Comm_get_name(MPI_COMM_WORLD, name, rlen, ierr)
    call MPI_Comm_free(sub, ierr)
    if (sub /= MPI_COMM_NULL) then
        print *, 'FAIL comm_free did not null the handle'
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
    if (rank == 0) print '(A,A,A,A)', 'split ok: ', trim(mine), ' world ', trim(name)
    call MPI_Finalize(ierr)
end program f_comm
