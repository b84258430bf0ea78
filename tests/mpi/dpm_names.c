/*
 * dpm_names.c: MPI_Publish_name / MPI_Lookup_name / MPI_Unpublish_name in
 * one job and in a job it spawned, and their errors: unknown name
 * (MPI_ERR_NAME), publishing twice (MPI_ERR_NAME), unpublishing what was
 * not published or what another process published (MPI_ERR_SERVICE).
 */
#include "testutil.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    char port[MPI_MAX_PORT_NAME];
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (parent != MPI_COMM_NULL) {
        /* the child sees its parent's name */
        CHECK_OK(MPI_Lookup_name("tide-test-parent", MPI_INFO_NULL, port));
        CHECK(strcmp(port, "parent-port") == 0, "child lookup '%s'", port);
        CHECK_ERR(MPI_Unpublish_name("tide-test-parent", MPI_INFO_NULL, "parent-port"), MPI_ERR_SERVICE);
        CHECK_OK(MPI_Send(NULL, 0, MPI_CHAR, 0, 0, parent));
        MPI_Comm_disconnect(&parent);
        MPI_Finalize();
        return 0;
    }
    char svc[64];
    snprintf(svc, sizeof svc, "tide-test-service-%d", rank);
    CHECK_ERR(MPI_Lookup_name(svc, MPI_INFO_NULL, port), MPI_ERR_NAME);
    CHECK_OK(MPI_Publish_name(svc, MPI_INFO_NULL, "some-port"));
    CHECK_ERR(MPI_Publish_name(svc, MPI_INFO_NULL, "other-port"), MPI_ERR_NAME);
    CHECK_OK(MPI_Lookup_name(svc, MPI_INFO_NULL, port));
    CHECK(strcmp(port, "some-port") == 0, "lookup gave '%s'", port);
    /* everyone sees everyone's names (after the publisher says so) */
    int peer = (rank + 1) % size;
    CHECK_OK(MPI_Sendrecv(NULL, 0, MPI_CHAR, peer, 0, NULL, 0, MPI_CHAR, (rank + size - 1) % size, 0,
                          MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    char other[64];
    snprintf(other, sizeof other, "tide-test-service-%d", (rank + size - 1) % size);
    CHECK_OK(MPI_Lookup_name(other, MPI_INFO_NULL, port));
    if (size > 1)
        CHECK_ERR(MPI_Unpublish_name(other, MPI_INFO_NULL, port), MPI_ERR_SERVICE);
    CHECK_ERR(MPI_Unpublish_name("tide-never-published", MPI_INFO_NULL, "x"), MPI_ERR_SERVICE);
    /* the next rank has looked our name up before we take it away */
    CHECK_OK(MPI_Sendrecv(NULL, 0, MPI_CHAR, (rank + size - 1) % size, 1, NULL, 0, MPI_CHAR, peer, 1,
                          MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Unpublish_name(svc, MPI_INFO_NULL, "some-port"));
    CHECK_ERR(MPI_Unpublish_name(svc, MPI_INFO_NULL, "some-port"), MPI_ERR_SERVICE);
    /* bad arguments */
    char longname[2000];
    memset(longname, 'n', sizeof longname);
    longname[sizeof longname - 1] = '\0';
    CHECK_ERR(MPI_Publish_name(longname, MPI_INFO_NULL, "p"), MPI_ERR_ARG);
    CHECK_ERR(MPI_Publish_name("s", MPI_INFO_NULL, longname), MPI_ERR_ARG);
    CHECK_ERR(MPI_Publish_name(NULL, MPI_INFO_NULL, "p"), MPI_ERR_ARG);
    /* a spawned job sees the names of its parents */
    if (rank == 0)
        CHECK_OK(MPI_Publish_name("tide-test-parent", MPI_INFO_NULL, "parent-port"));
    MPI_Comm child;
    CHECK_OK(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &child, MPI_ERRCODES_IGNORE));
    if (rank == 0) {
        CHECK_OK(MPI_Recv(NULL, 0, MPI_CHAR, 0, 0, child, MPI_STATUS_IGNORE));
        CHECK_OK(MPI_Unpublish_name("tide-test-parent", MPI_INFO_NULL, "parent-port"));
    }
    MPI_Comm_disconnect(&child);
    MPI_Finalize();
    return 0;
}
