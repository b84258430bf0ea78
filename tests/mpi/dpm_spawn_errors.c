/*
 * dpm_spawn_errors.c: spawning a missing executable fails with
 * MPI_ERR_SPAWN (errcodes set, no hang, the parent keeps running);
 * bad arguments give the right classes.
 */
#include "testutil.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm inter = MPI_COMM_WORLD;
    int errs[3] = {-1, -1, -1};
    int rc = MPI_Comm_spawn("/no/such/program-tide", MPI_ARGV_NULL, 3, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, errs);
    int cls;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_SPAWN, "spawn of a missing program: class %d", cls);
    CHECK(inter == MPI_COMM_NULL, "intercomm not null");
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    /* every rank's errcodes are set, not only the root's */
    for (int i = 0; i < 3; i++)
        CHECK(errs[i] == MPI_ERR_SPAWN, "errcode %d is %d", i, errs[i]);
    CHECK_ERR(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, MPI_INFO_NULL, 99, MPI_COMM_WORLD, &inter, errs), MPI_ERR_ROOT);
    CHECK_ERR(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_NULL, &inter, errs), MPI_ERR_COMM);
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "host", "no-such-host.invalid");
    CHECK_ERR(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, info, 0, MPI_COMM_WORLD, &inter, errs), MPI_ERR_SPAWN);
    MPI_Info_free(&info);
    /* the job still works */
    int v = rank, w = -1, size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_OK(MPI_Sendrecv(&v, 1, MPI_INT, (rank + 1) % size, 0, &w, 1, MPI_INT, (rank + size - 1) % size, 0,
                          MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(w == (rank + size - 1) % size, "messages after a failed spawn");
    MPI_Finalize();
    return 0;
}
