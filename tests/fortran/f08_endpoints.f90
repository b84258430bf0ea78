! f08_endpoints.f90: MPI Endpoints from Fortran with OpenMP (use mpi_f08,
! use mpi_ext_f08): each process makes 3 endpoints, thread t drives
! handle t+1; every endpoint checks its rank, a ring, an allreduce and a
! bcast from rank 4, as the endpoints design note's examples.
! build-flags: -fopenmp
program f08_endpoints
    use mpi_f08
    use mpi_ext_f08
    use omp_lib
    implicit none
    integer, parameter :: nep = 3
    type(MPI_Comm) :: ep(nep)
    integer :: provided, wrank, wsize, ierr, errs
    call MPI_Init_thread(MPI_THREAD_MULTIPLE, provided)
    if (provided /= MPI_THREAD_MULTIPLE) stop 'no MPI_THREAD_MULTIPLE'
    call MPI_Comm_rank(MPI_COMM_WORLD, wrank)
    call MPI_Comm_size(MPI_COMM_WORLD, wsize)
    call MPIX_Comm_create_endpoints(MPI_COMM_WORLD, nep, MPI_INFO_NULL, ep, ierr)
    if (ierr /= MPI_SUCCESS) stop 'MPIX_Comm_create_endpoints failed'
    errs = 0
    !$omp parallel num_threads(nep) reduction(+:errs)
    block
        type(MPI_Comm) :: me
        integer :: r, n, got, s, b, t
        t = omp_get_thread_num()
        me = ep(t + 1)
        call MPI_Comm_rank(me, r)
        call MPI_Comm_size(me, n)
        if (r /= wrank * nep + t .or. n /= wsize * nep) errs = errs + 1
        call MPI_Sendrecv(r, 1, MPI_INTEGER, mod(r + 1, n), 0, got, 1, MPI_INTEGER, mod(r + n - 1, n), 0, &
                          me, MPI_STATUS_IGNORE)
        if (got /= mod(r + n - 1, n)) errs = errs + 1
        call MPI_Allreduce(r, s, 1, MPI_INTEGER, MPI_SUM, me)
        if (s /= n * (n - 1) / 2) errs = errs + 1
        b = -1
        if (r == min(4, n - 1)) b = 42
        call MPI_Bcast(b, 1, MPI_INTEGER, min(4, n - 1), me)
        if (b /= 42) errs = errs + 1
        call MPI_Comm_free(me)
    end block
    !$omp end parallel
    call MPI_Allreduce(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    if (wrank == 0) then
        if (errs == 0) then
            print '(a,i0,a)', 'f08_endpoints: ok on ', wsize * nep, ' endpoints'
        else
            print '(a,i0,a)', 'f08_endpoints: ', errs, ' errors'
        end if
    end if
    call MPI_Finalize()
    if (errs /= 0) stop 1
end program
