! f_ocean.f90: the ocean of a coupled model, in Fortran, meeting a C
! atmosphere (c_atmosphere.c) started by another mpiexec: it opens a port,
! writes its name to the file given as first argument, accepts, and each
! coupling step sends its sea surface temperatures (rank r to the
! atmosphere's rank mod(r, its size)) and takes back the heat fluxes
! through an intercommunicator allreduce; then both disconnect. `use mpi`.
program f_ocean
    use mpi
    implicit none
    integer, parameter :: ncells = 8, nsteps = 3
    integer :: ierr, rank, size, inter, asize, step, i, u
    character(len=MPI_MAX_PORT_NAME) :: port
    character(len=512) :: pfile
    double precision :: sst(ncells), flux_sum, my_sum, expect
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
    call get_command_argument(1, pfile)
    if (rank == 0) then
        call MPI_Open_port(MPI_INFO_NULL, port, ierr)
        ! written whole, then renamed: the atmosphere never reads half a name
        open (newunit=u, file=trim(pfile)//'.tmp', status='replace', action='write')
        write (u, '(a)') trim(port)
        close (u)
        call rename(trim(pfile)//'.tmp', trim(pfile))
    end if
    call MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, inter, ierr)
    call check(ierr, 'accept')
    call MPI_Comm_remote_size(inter, asize, ierr)
    do step = 1, nsteps
        do i = 1, ncells
            sst(i) = 280d0 + rank + 0.5d0 * i + step
        end do
        call MPI_Send(sst, ncells, MPI_DOUBLE_PRECISION, mod(rank, asize), step, inter, ierr)
        call check(ierr, 'send')
        ! each side gets the sum of the other side's values: the fluxes
        my_sum = sum(sst)
        call MPI_Allreduce(my_sum, flux_sum, 1, MPI_DOUBLE_PRECISION, MPI_SUM, inter, ierr)
        call check(ierr, 'allreduce')
        ! the atmosphere's rank a sends flux a + step * 10 per cell
        expect = 0
        do i = 0, asize - 1
            expect = expect + ncells * (i + step * 10d0)
        end do
        if (abs(flux_sum - expect) > 1d-9) then
            print *, 'FAIL ocean rank', rank, 'step', step, 'flux', flux_sum, 'expected', expect
            call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
        end if
    end do
    call MPI_Comm_disconnect(inter, ierr)
    call check(ierr, 'disconnect')
    if (rank == 0) then
        call MPI_Close_port(port, ierr)
        print '(a,i0,a,i0,a)', 'ocean of ', size, ' coupled with an atmosphere of ', asize, ' ok'
    end if
    call MPI_Finalize(ierr)
contains
    subroutine check(e, what)
        integer, intent(in) :: e
        character(len=*), intent(in) :: what
        character(len=MPI_MAX_ERROR_STRING) :: msg
        integer :: l, e2
        if (e /= MPI_SUCCESS) then
            call MPI_Error_string(e, msg, l, e2)
            print *, 'FAIL ocean ', what, ': ', msg(1:l)
            call MPI_Abort(MPI_COMM_WORLD, 1, e2)
        end if
    end subroutine
end program f_ocean
