/*
 * ft_attr.c: the predefined attribute MPIX_FT (mpi-ext.h), as Open MPI 5
 * has it: MPI_Comm_get_attr(MPI_COMM_WORLD, MPIX_FT, &val, &flag) sets
 * flag, *val is 1 in recovery mode and 0 otherwise. It is a keyval, not a
 * flag macro, yet `#if MPIX_FT` (what codes tested before) still holds.
 * Prints "ft_attr: flag F value V" from rank 0.
 */
#include "testutil.h"

#include <mpi-ext.h>

#if !MPIX_FT
#error "#if MPIX_FT does not hold"
#endif

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int *val = NULL, flag = 0;
    CHECK_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPIX_FT, &val, &flag));
    CHECK(flag && val, "MPIX_FT is not set on MPI_COMM_WORLD");
    /* a predefined attribute: it cannot be set or deleted */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK_ERR(MPI_Comm_set_attr(MPI_COMM_WORLD, MPIX_FT, NULL), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Comm_delete_attr(MPI_COMM_WORLD, MPIX_FT), MPI_ERR_KEYVAL);
    /* a communicator keyval, not a window's */
    MPI_Win win;
    CHECK_OK(MPI_Win_create(NULL, 0, 1, MPI_INFO_NULL, MPI_COMM_SELF, &win));
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    int wflag = 0;
    void *wval;
    CHECK_ERR(MPI_Win_get_attr(win, MPIX_FT, &wval, &wflag), MPI_ERR_KEYVAL);
    MPI_Win_free(&win);
    if (rank == 0)
        printf("ft_attr: flag %d value %d\n", flag, *val);
    MPI_Finalize();
    return 0;
}
