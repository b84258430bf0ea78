/*
 * errhandler.h: error handler objects and their invocation.
 */
#ifndef TIDE_ERRHANDLER_H
#define TIDE_ERRHANDLER_H

#include "mpi.h"

enum tide_eh_kind { TIDE_EH_ANY = 0, TIDE_EH_COMM = 1, TIDE_EH_WIN = 2, TIDE_EH_FILE = 3, TIDE_EH_SESSION = 4 };

struct tide_errhandler {
    int handle;
    int kind;
    int refcount;
    void (*fn)(void); /* MPI_Comm_/Win_/File_errhandler_function */
};

struct tide_errhandler *tide_errhandler_get(MPI_Errhandler h);
void tide_errhandler_retain(MPI_Errhandler h);
void tide_errhandler_release(MPI_Errhandler h);
void tide_errhandler_init(void);
/* The default error handler for files (set on MPI_FILE_NULL). */
extern MPI_Errhandler tide_file_default_errhandler;
/* The initial error handler (MPI 4.0 9.3): MPI_ERRORS_ARE_FATAL unless
 * the parameter initial_errhandler (mpi_initial_errhandler) says
 * mpi_errors_return. MPI_Init's failures go to it; MPI_COMM_WORLD and
 * MPI_COMM_SELF start with it. */
MPI_Errhandler tide_initial_errhandler(void);
/* Print the message and end the job (MPI_ERRORS_ARE_FATAL). */
void tide_fatal_error(const char *where, int code) __attribute__((noreturn));
/* Run handler eh for an object of the given kind with handle obj. */
int tide_errhandler_invoke(MPI_Errhandler eh, int kind, int obj, const char *objname, int code);

#endif
