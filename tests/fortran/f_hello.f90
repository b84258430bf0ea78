! f_hello.f90: MPI_Init, rank, size and processor name through mpif.h;
! MPI_Pcontrol (no ierror argument in Fortran).
program f_hello
    implicit none
    include 'mpif.h'
    integer :: ierr, rank, size, namelen
    character(len=MPI_MAX_PROCESSOR_NAME) :: name
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
    call MPI_Pcontrol(1)
    name = 'unset'
    call MPI_Get_processor_name(name, namelen, ierr)
    if (ierr /= MPI_SUCCESS .or. namelen < 1 .or. len_trim(name) /= namelen) then
        print *, 'FAIL processor name ', trim(name), namelen
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
    print '(A,I0,A,I0,A,A)', 'hello rank ', rank, ' of ', size, ' on ', name(1:namelen)
    call MPI_Finalize(ierr)
end program f_hello
