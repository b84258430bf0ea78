/*
 * comm_names.c: communicator names: the predefined MPI_COMM_WORLD and
 * MPI_COMM_SELF, renaming, truncation to MPI_MAX_OBJECT_NAME - 1
 * characters, and bad arguments through MPI_ERRORS_RETURN.
 */
#include "testutil.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    CHECK_OK(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len));
    CHECK(strcmp(name, "MPI_COMM_WORLD") == 0 && len == 14, "WORLD is '%s' (%d)", name, len);
    CHECK_OK(MPI_Comm_get_name(MPI_COMM_SELF, name, &len));
    CHECK(strcmp(name, "MPI_COMM_SELF") == 0 && len == 13, "SELF is '%s' (%d)", name, len);
    char mine[64];
    snprintf(mine, sizeof mine, "world seen by rank %d", rank);
    CHECK_OK(MPI_Comm_set_name(MPI_COMM_WORLD, mine));
    CHECK_OK(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len));
    CHECK(strcmp(name, mine) == 0 && len == (int)strlen(mine), "renamed to '%s'", name);
    char longname[400];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    CHECK_OK(MPI_Comm_set_name(MPI_COMM_SELF, longname));
    CHECK_OK(MPI_Comm_get_name(MPI_COMM_SELF, name, &len));
    CHECK(len == MPI_MAX_OBJECT_NAME - 1 && strlen(name) == (size_t)len, "truncated to %d", len);
    /* an error on WORLD names it by its new name */
    int rc = MPI_Comm_remote_size(MPI_COMM_WORLD, &len), cls;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_COMM, "remote size of an intracommunicator: class %d", cls);
    char s[MPI_MAX_ERROR_STRING];
    MPI_Error_string(rc, s, &len);
    CHECK(strstr(s, "MPI_Comm_remote_size") && strstr(s, mine), "message '%s'", s);
    CHECK_ERR(MPI_Comm_set_name(MPI_COMM_NULL, "x"), MPI_ERR_COMM);
    CHECK_ERR(MPI_Comm_get_name(MPI_COMM_NULL, name, &len), MPI_ERR_COMM);
    CHECK_ERR(MPI_Comm_set_name(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Comm_get_name(MPI_COMM_WORLD, NULL, &len), MPI_ERR_ARG);
    rc = MPI_Comm_get_name(MPI_COMM_WORLD, name, NULL);
    MPI_Error_string(rc, s, &len);
    CHECK(strstr(s, "MPI_Comm_get_name") != NULL, "message '%s'", s);
    CHECK_OK(MPI_Comm_set_name(MPI_COMM_WORLD, "MPI_COMM_WORLD"));
    if (rank == 0)
        printf("comm_names: ok\n");
    MPI_Finalize();
    return 0;
}
