/*
 * initial_errh.c: MPI 4.0's initial error handler (mpi_initial_errhandler).
 * Usage:
 *   initial_errh check NAME   MPI_INFO_ENV's mpi_initial_errhandler is NAME,
 *                             MPI_COMM_WORLD and MPI_COMM_SELF start with
 *                             its handler; with mpi_errors_return an error
 *                             on either returns, otherwise an error on
 *                             MPI_COMM_SELF ends the job (prints "survived"
 *                             if it does not)
 *   initial_errh spawn NAME   spawns 2 children with the info key
 *                             mpi_initial_errhandler NAME; they check as
 *                             above (without raising errors) and tell rank 0
 *   initial_errh badkey       the info key with a bad value: MPI_ERR_INFO_VALUE
 */
#include "testutil.h"

#include <strings.h>

static MPI_Errhandler handler_of(const char *name)
{
    return strcasecmp(name, "mpi_errors_return") == 0 ? MPI_ERRORS_RETURN : MPI_ERRORS_ARE_FATAL;
}

/* 1 when the environment and the predefined communicators agree with NAME */
static int agrees(const char *name, char *why, size_t len)
{
    char v[MPI_MAX_INFO_VAL + 1] = "";
    int flag = 0;
    MPI_Info_get(MPI_INFO_ENV, "mpi_initial_errhandler", MPI_MAX_INFO_VAL, v, &flag);
    if (!flag || strcmp(v, name) != 0) {
        snprintf(why, len, "MPI_INFO_ENV mpi_initial_errhandler is '%s' (%s), expected '%s'", v,
                 flag ? "set" : "not set", name);
        return 0;
    }
    MPI_Errhandler w, s;
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &w);
    MPI_Comm_get_errhandler(MPI_COMM_SELF, &s);
    if (w != handler_of(name) || s != handler_of(name)) {
        snprintf(why, len, "the handlers of MPI_COMM_WORLD/MPI_COMM_SELF are not %s's", name);
        return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: initial_errh check|spawn|child NAME | badkey\n");
        return 2;
    }
    MPI_Init(&argc, &argv);
    int rank, dummy = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char why[512] = "";
    if (strcmp(argv[1], "check") == 0 && argc > 2) {
        CHECK(agrees(argv[2], why, sizeof why), "%s", why);
        if (handler_of(argv[2]) == MPI_ERRORS_RETURN) {
            CHECK_ERR(MPI_Send(&dummy, 1, MPI_INT, 99, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
            CHECK_ERR(MPI_Send(&dummy, 1, MPI_INT, 5, 0, MPI_COMM_SELF), MPI_ERR_RANK);
            MPI_Barrier(MPI_COMM_WORLD);
            if (rank == 0)
                printf("initial_errh: ok %s\n", argv[2]);
        } else {
            MPI_Barrier(MPI_COMM_WORLD);
            if (rank == 0) {
                MPI_Send(&dummy, 1, MPI_INT, 5, 0, MPI_COMM_SELF); /* ends the job */
                printf("initial_errh: survived %s\n", argv[2]);
            }
        }
    } else if (strcmp(argv[1], "spawn") == 0 && argc > 2) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MPI_Info info;
        MPI_Info_create(&info);
        MPI_Info_set(info, "mpi_initial_errhandler", argv[2]);
        char *cargv[] = {"child", argv[2], NULL};
        MPI_Comm inter;
        CHECK_OK(MPI_Comm_spawn(argv[0], cargv, 2, info, 0, MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE));
        MPI_Info_free(&info);
        if (rank == 0) {
            for (int c = 0; c < 2; c++) {
                char msg[600];
                MPI_Status st;
                CHECK_OK(MPI_Recv(msg, sizeof msg, MPI_CHAR, c, 0, inter, &st));
                CHECK(strcmp(msg, "ok") == 0, "child %d: %s", c, msg);
            }
            printf("initial_errh: children ok %s\n", argv[2]);
        }
        MPI_Comm_disconnect(&inter);
    } else if (strcmp(argv[1], "child") == 0 && argc > 2) {
        MPI_Comm parent;
        MPI_Comm_get_parent(&parent);
        CHECK(parent != MPI_COMM_NULL, "no parent");
        char msg[600] = "ok";
        if (!agrees(argv[2], why, sizeof why))
            snprintf(msg, sizeof msg, "%s", why);
        MPI_Send(msg, (int)strlen(msg) + 1, MPI_CHAR, 0, 0, parent);
        MPI_Comm_disconnect(&parent);
    } else if (strcmp(argv[1], "badkey") == 0) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MPI_Info info;
        MPI_Info_create(&info);
        MPI_Info_set(info, "mpi_initial_errhandler", "mpi_errors_ignore");
        MPI_Comm inter;
        int rc = MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, info, 0, MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE);
        MPI_Info_free(&info);
        int cls = -1;
        MPI_Error_class(rc, &cls);
        /* the root read the info: its class says why; the others learn it failed */
        CHECK(rank == 0 ? cls == MPI_ERR_INFO_VALUE : rc != MPI_SUCCESS,
              "spawn with a bad mpi_initial_errhandler: class %d", cls);
        CHECK(inter == MPI_COMM_NULL, "intercomm not null");
        if (rank == 0) {
            char s[MPI_MAX_ERROR_STRING];
            int len;
            MPI_Error_string(rc, s, &len);
            printf("initial_errh: refused: %s\n", s);
        }
    } else {
        fprintf(stderr, "initial_errh: unknown mode %s\n", argv[1]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Finalize();
    return 0;
}
