/*
 * status_f08.c: the statuses of `use mpi_f08` seen from C (MPI-3.1
 * 17.2.5): MPI_F08_status, MPI_Status_c2f08/f082c and f2f08/f082f keep
 * every field (MPI_Get_count agrees after a round trip), and giving
 * MPI_F08_STATUS_IGNORE or MPI_F08_STATUSES_IGNORE is an error
 * (MPI_ERR_ARG with MPI_ERRORS_RETURN).
 */
#include "testutil.h"

static int error_class(int code)
{
    int cls = code;
    MPI_Error_class(code, &cls);
    return cls;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, buf[4] = {1, 2, 3, 4}, count;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Status st, back;
    MPI_Sendrecv_replace(buf, 3, MPI_INT, rank, 5, rank, 5, MPI_COMM_WORLD, &st);
    CHECK(sizeof(MPI_F08_status) == sizeof(MPI_Status), "MPI_F08_status has %zu bytes", sizeof(MPI_F08_status));

    MPI_F08_status f08;
    CHECK(MPI_Status_c2f08(&st, &f08) == MPI_SUCCESS, "c2f08");
    CHECK(f08.MPI_SOURCE == rank && f08.MPI_TAG == 5 && f08.MPI_ERROR == st.MPI_ERROR,
          "c2f08 fields %d %d %d", f08.MPI_SOURCE, f08.MPI_TAG, f08.MPI_ERROR);
    memset(&back, 0xff, sizeof back);
    CHECK(MPI_Status_f082c(&f08, &back) == MPI_SUCCESS, "f082c");
    MPI_Get_count(&back, MPI_INT, &count);
    CHECK(count == 3 && back.MPI_SOURCE == rank && back.MPI_TAG == 5, "f082c: count %d", count);

    MPI_Fint fst[sizeof(MPI_Status) / sizeof(MPI_Fint)];
    MPI_F08_status f08b;
    CHECK(MPI_Status_f082f(&f08, fst) == MPI_SUCCESS, "f082f");
    CHECK(fst[0] == rank && fst[1] == 5, "f082f fields %d %d", (int)fst[0], (int)fst[1]);
    CHECK(MPI_Status_f2f08(fst, &f08b) == MPI_SUCCESS, "f2f08");
    CHECK(memcmp(&f08b, &f08, sizeof f08) == 0, "f2f08 changed the status");
    CHECK(MPI_Status_f2c(fst, &back) == MPI_SUCCESS, "f2c");
    MPI_Get_count(&back, MPI_INT, &count);
    CHECK(count == 3, "count after f2f08/f082f/f2c %d", count);

    CHECK(MPI_F08_STATUS_IGNORE && MPI_F08_STATUSES_IGNORE &&
          MPI_F08_STATUS_IGNORE != MPI_F08_STATUSES_IGNORE, "the IGNORE pointers");
    CHECK(error_class(MPI_Status_f082c(MPI_F08_STATUS_IGNORE, &back)) == MPI_ERR_ARG, "f082c of IGNORE");
    CHECK(error_class(MPI_Status_c2f08(&st, MPI_F08_STATUSES_IGNORE)) == MPI_ERR_ARG, "c2f08 into IGNORE");
    CHECK(error_class(MPI_Status_f082f(MPI_F08_STATUS_IGNORE, fst)) == MPI_ERR_ARG, "f082f of IGNORE");
    CHECK(error_class(MPI_Status_f2f08(fst, NULL)) == MPI_ERR_ARG, "f2f08 into NULL");
    CHECK(error_class(MPI_Status_c2f08(MPI_STATUS_IGNORE, &f08)) == MPI_ERR_ARG, "c2f08 of MPI_STATUS_IGNORE");

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("status_f08: ok on %d ranks\n", size);
    MPI_Finalize();
    return 0;
}
