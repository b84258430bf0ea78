! f_endpoints.f90: MPI Endpoints from `use mpi` with OpenMP (use mpi_ext):
! each process makes 2 endpoints; every endpoint checks its rank, a ring
! and an allreduce.
! build-flags: -fopenmp
program f_endpoints
    use mpi
    use mpi_ext
    use omp_lib
    implicit none
    integer, parameter :: nep = 2
    integer :: ep(nep)
    integer :: provided, wrank, wsize, ierr, errs, r, n, got, s, t, me
    call MPI_Init_thread(MPI_THREAD_MULTIPLE, provided, ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, wrank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, wsize, ierr)
    call MPIX_Comm_create_endpoints(MPI_COMM_WORLD, nep, MPI_INFO_NULL, ep, ierr)
    if (ierr /= MPI_SUCCESS) stop 'MPIX_Comm_create_endpoints failed'
    errs = 0
    !$omp parallel num_threads(nep) private(r, n, got, s, t, me, ierr) reduction(+:errs)
    t = omp_get_thread_num()
    me = ep(t + 1)
    call MPI_Comm_rank(me, r, ierr)
    call MPI_Comm_size(me, n, ierr)
    if (r /= wrank * nep + t .or. n /= wsize * nep) errs = errs + 1
    call MPI_Sendrecv(r, 1, MPI_INTEGER, mod(r + 1, n), 0, got, 1, MPI_INTEGER, mod(r + n - 1, n), 0, &
                      me, MPI_STATUS_IGNORE, ierr)
    if (got /= mod(r + n - 1, n)) errs = errs + 1
    call MPI_Allreduce(r, s, 1, MPI_INTEGER, MPI_SUM, me, ierr)
    if (s /= n * (n - 1) / 2) errs = errs + 1
    call MPI_Comm_free(me, ierr)
    !$omp end parallel
    call MPI_Allreduce(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (wrank == 0) then
        if (errs == 0) then
            print '(a,i0,a)', 'f_endpoints: ok on ', wsize * nep, ' endpoints'
        else
            print '(a,i0,a)', 'f_endpoints: ', errs, ' errors'
        end if
    end if
    call MPI_Finalize(ierr)
    if (errs /= 0) stop 1
end program
