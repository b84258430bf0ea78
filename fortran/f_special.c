/*
 * f_special.c: the Fortran bindings gen-bindings.py cannot generate:
 * MPI_Init (no argc/argv in Fortran), MPI_Wtime/Wtick (functions returning
 * DOUBLE PRECISION), MPI_Pcontrol (C varargs), MPI_Comm_spawn (argv is a
 * blank-terminated CHARACTER array), MPI_Comm_spawn_multiple (arrays of
 * commands and of argv arrays), MPI_Info_create_env (the process's own
 * command line), MPI_Op_create and errhandler creation
 * (Fortran procedures as callbacks), MPI_Comm_get_attr (the attribute
 * as an INTEGER(KIND=MPI_ADDRESS_KIND) value), MPI_F_sync_reg, and the
 * `use mpi` forms of MPI_Status_f2f08 and MPI_Status_f082f (names the
 * generator keeps for the C conversion functions).
 */
#include <stdlib.h>
#include <string.h>
#include "f_support.h"

ALIAS2(mpi_init, MPI_Fint *ierr)
void mpi_init_(MPI_Fint *ierr)
{
    *ierr = MPI_Init(NULL, NULL);
}

ALIAS2(mpi_init_thread, MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr)
void mpi_init_thread_(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr)
{
    *ierr = MPI_Init_thread(NULL, NULL, *required, provided);
}

TIDE_F_WEAK_NAMES(double, mpi_wtime, void)
double mpi_wtime_(void)
{
    return MPI_Wtime();
}

TIDE_F_WEAK_NAMES(double, mpi_wtick, void)
double mpi_wtick_(void)
{
    return MPI_Wtick();
}

/* MPI_F_SYNC_REG(BUF): does nothing; being external, the compiler must
 * assume BUF read and written here, so it keeps no copy of it in a
 * register across the call (MPI-3 17.1.17). */
ALIAS2(mpi_f_sync_reg, void *buf)
void mpi_f_sync_reg_(void *buf)
{
    (void)buf;
}

/* MPI_STATUS_F2F08(F_STATUS, F08_STATUS, IERROR) and
 * MPI_STATUS_F082F(F08_STATUS, F_STATUS, IERROR) of `use mpi`
 * (MPI-3.1 17.2.5): TYPE(MPI_Status) is MPI_F08_status. */
ALIAS2(mpi_status_f2f08, MPI_Fint *f_status, MPI_F08_status *f08_status, MPI_Fint *ierr)
void mpi_status_f2f08_(MPI_Fint *f_status, MPI_F08_status *f08_status, MPI_Fint *ierr)
{
    int rc = MPI_Status_f2f08(f_status, f08_status);
    if (ierr)
        *ierr = rc;
}

ALIAS2(mpi_status_f082f, MPI_F08_status *f08_status, MPI_Fint *f_status, MPI_Fint *ierr)
void mpi_status_f082f_(MPI_F08_status *f08_status, MPI_Fint *f_status, MPI_Fint *ierr)
{
    int rc = MPI_Status_f082f(f08_status, f_status);
    if (ierr)
        *ierr = rc;
}

/* MPI_PCONTROL(LEVEL): no IERROR in Fortran (MPI-3.1 14.2.4) */
ALIAS2(mpi_pcontrol, MPI_Fint *level)
void mpi_pcontrol_(MPI_Fint *level)
{
    MPI_Pcontrol(*level);
}

/* argv: entries of argv_len characters each, stride entries apart (1 for
 * a CHARACTER array, COUNT for a column of MPI_Comm_spawn_multiple's
 * ARRAY_OF_ARGV(COUNT, *)), ended by a blank entry. */
static char **f_argv(const char *argv, size_t argv_len, size_t stride)
{
    size_t n = 0;
    for (;;) {
        char *s = tide_f_cstr(argv + n * stride * argv_len, argv_len);
        int end = !s || !*s;
        free(s);
        if (end)
            break;
        n++;
    }
    char **v = calloc(n + 1, sizeof *v);
    for (size_t i = 0; v && i < n; i++)
        v[i] = tide_f_cstr(argv + i * stride * argv_len, argv_len);
    return v;
}

static void free_argv(char **v)
{
    for (size_t i = 0; v && v[i]; i++)
        free(v[i]);
    free(v);
}

ALIAS2(mpi_comm_spawn, char *command, char *argv, MPI_Fint *maxprocs, MPI_Fint *info,
       MPI_Fint *root, MPI_Fint *comm, MPI_Fint *intercomm, MPI_Fint *errcodes, MPI_Fint *ierr,
       size_t command_len, size_t argv_len)
void mpi_comm_spawn_(char *command, char *argv, MPI_Fint *maxprocs, MPI_Fint *info,
                     MPI_Fint *root, MPI_Fint *comm, MPI_Fint *intercomm, MPI_Fint *errcodes,
                     MPI_Fint *ierr, size_t command_len, size_t argv_len)
{
    char *c_command = tide_f_cstr(command, command_len);
    char **c_argv = argv == tide_f_argv_null_ ? MPI_ARGV_NULL : f_argv(argv, argv_len, 1);
    MPI_Comm c_inter = MPI_COMM_NULL;
    int rc = MPI_Comm_spawn(c_command, c_argv, *maxprocs, MPI_Info_f2c(*info), *root,
                            MPI_Comm_f2c(*comm), &c_inter, tide_f_errcodes(errcodes));
    *intercomm = MPI_Comm_c2f(c_inter);
    free_argv(c_argv);
    free(c_command);
    if (ierr)
        *ierr = rc;
}

/* ARRAY_OF_COMMANDS(COUNT) and ARRAY_OF_ARGV(COUNT, *): the argv of
 * command i is row i, ended by a blank entry; or MPI_ARGVS_NULL. */
ALIAS2(mpi_comm_spawn_multiple, MPI_Fint *count, char *commands, char *argvs, MPI_Fint *maxprocs,
       MPI_Fint *infos, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *intercomm, MPI_Fint *errcodes,
       MPI_Fint *ierr, size_t commands_len, size_t argvs_len)
void mpi_comm_spawn_multiple_(MPI_Fint *count, char *commands, char *argvs, MPI_Fint *maxprocs,
                              MPI_Fint *infos, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *intercomm,
                              MPI_Fint *errcodes, MPI_Fint *ierr, size_t commands_len, size_t argvs_len)
{
    size_t n = *count > 0 ? (size_t)*count : 0;
    char **c_commands = calloc(n + 1, sizeof *c_commands);
    char ***c_argvs = argvs == tide_f_argvs_null_ ? MPI_ARGVS_NULL : calloc(n + 1, sizeof *c_argvs);
    MPI_Comm c_inter = MPI_COMM_NULL;
    int rc = MPI_ERR_NO_MEM;
    if (c_commands && (c_argvs || argvs == tide_f_argvs_null_)) {
        for (size_t i = 0; i < n; i++) {
            c_commands[i] = tide_f_cstr(commands + i * commands_len, commands_len);
            if (c_argvs)
                c_argvs[i] = f_argv(argvs + i * argvs_len, argvs_len, n);
        }
        rc = MPI_Comm_spawn_multiple(*count, c_commands, c_argvs, maxprocs, (MPI_Info *)infos, *root,
                                     MPI_Comm_f2c(*comm), &c_inter, tide_f_errcodes(errcodes));
    }
    *intercomm = MPI_Comm_c2f(c_inter);
    for (size_t i = 0; i < n; i++) {
        if (c_commands)
            free(c_commands[i]);
        if (c_argvs)
            free_argv(c_argvs[i]);
    }
    free(c_commands);
    free(c_argvs);
    if (ierr)
        *ierr = rc;
}

/* MPI_INFO_CREATE_ENV(INFO, IERROR): Fortran has no argc and argv: the
 * process's own command line (what C's MPI_Info_create_env(0, NULL) takes) */
ALIAS2(mpi_info_create_env, MPI_Fint *info, MPI_Fint *ierr)
void mpi_info_create_env_(MPI_Fint *info, MPI_Fint *ierr)
{
    MPI_Info c_info = MPI_INFO_NULL;
    int rc = MPI_Info_create_env(0, NULL, &c_info);
    *info = MPI_Info_c2f(c_info);
    if (ierr)
        *ierr = rc;
}

/* A Fortran user function SUBROUTINE F(INVEC, INOUTVEC, LEN, TYPE) takes
 * its four arguments by reference, as MPI_User_function does in C (an
 * MPI_Datatype is a Fortran INTEGER): it is called directly. */
ALIAS2(mpi_op_create, MPI_User_function *fn, MPI_Fint *commute, MPI_Fint *op, MPI_Fint *ierr)
void mpi_op_create_(MPI_User_function *fn, MPI_Fint *commute, MPI_Fint *op, MPI_Fint *ierr)
{
    MPI_Op c_op = MPI_OP_NULL;
    int rc = MPI_Op_create(fn, *commute != 0, &c_op);
    *op = MPI_Op_c2f(c_op);
    if (ierr)
        *ierr = rc;
}

/* SUBROUTINE H(COMM, ERRCODE): both by reference, as in C. */
ALIAS2(mpi_comm_create_errhandler, MPI_Comm_errhandler_function *fn, MPI_Fint *eh,
       MPI_Fint *ierr)
void mpi_comm_create_errhandler_(MPI_Comm_errhandler_function *fn, MPI_Fint *eh, MPI_Fint *ierr)
{
    MPI_Errhandler c_eh = MPI_ERRHANDLER_NULL;
    int rc = MPI_Comm_create_errhandler(fn, &c_eh);
    *eh = MPI_Errhandler_c2f(c_eh);
    if (ierr)
        *ierr = rc;
}

/* The same for windows, files and sessions: SUBROUTINE H(OBJECT, ERRCODE). */
#define CREATE_ERRHANDLER(lower, Kind)                                                                    \
    ALIAS2(mpi_##lower##_create_errhandler, MPI_##Kind##_errhandler_function *fn, MPI_Fint *eh,           \
           MPI_Fint *ierr)                                                                                 \
    void mpi_##lower##_create_errhandler_(MPI_##Kind##_errhandler_function *fn, MPI_Fint *eh, MPI_Fint *ierr) \
    {                                                                                                      \
        MPI_Errhandler c_eh = MPI_ERRHANDLER_NULL;                                                        \
        int rc = MPI_##Kind##_create_errhandler(fn, &c_eh);                                               \
        *eh = MPI_Errhandler_c2f(c_eh);                                                                   \
        if (ierr)                                                                                          \
            *ierr = rc;                                                                                    \
    }
CREATE_ERRHANDLER(win, Win)
CREATE_ERRHANDLER(file, File)
CREATE_ERRHANDLER(session, Session)

ALIAS2(mpi_errhandler_create, MPI_Comm_errhandler_function *fn, MPI_Fint *eh, MPI_Fint *ierr)
void mpi_errhandler_create_(MPI_Comm_errhandler_function *fn, MPI_Fint *eh, MPI_Fint *ierr)
{
    mpi_comm_create_errhandler_(fn, eh, ierr);
}

/* Predefined attributes are C ints, given by address in C; Fortran gets
 * the value. Other attributes set from C are pointers: their address;
 * those set from Fortran, their value (f_attr.c). */
ALIAS2(mpi_comm_get_attr, MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *value, MPI_Fint *flag,
       MPI_Fint *ierr)
void mpi_comm_get_attr_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *value, MPI_Fint *flag,
                        MPI_Fint *ierr)
{
    void *p = NULL;
    int c_flag = 0;
    int rc = MPI_Comm_get_attr(MPI_Comm_f2c(*comm), *keyval, &p, &c_flag);
    *flag = c_flag != 0;
    if (rc == MPI_SUCCESS && c_flag) {
        int k = *keyval;
        int predefined = k == MPI_TAG_UB || k == MPI_HOST || k == MPI_IO ||
                         k == MPI_WTIME_IS_GLOBAL || k == MPI_UNIVERSE_SIZE ||
                         k == MPI_APPNUM || k == MPI_LASTUSEDCODE;
        *value = predefined ? (MPI_Aint) * (int *)p : tide_f_attr_value(p);
    }
    if (ierr)
        *ierr = rc;
}
