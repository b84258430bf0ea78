/*
 * errhname.h: the names MPI 4.0 gives the initial error handler
 * (mpi_initial_errhandler: the mpiexec option, the MPI_Comm_spawn info
 * key, the key of MPI_INFO_ENV), shared by mpiexec, which refuses a bad
 * one before anything starts, and libmpi.
 */
#ifndef TIDE_ERRHNAME_H
#define TIDE_ERRHNAME_H

enum tide_errh_kind {
    TIDE_ERRH_INVALID = -1,
    TIDE_ERRH_ARE_FATAL = 0,
    TIDE_ERRH_ABORT,
    TIDE_ERRH_RETURN,
};

/* The handler a name stands for: mpi_errors_are_fatal, mpi_errors_abort
 * or mpi_errors_return, in any case, with or without the "mpi_" prefix.
 * NULL or empty is the default, mpi_errors_are_fatal. */
enum tide_errh_kind tide_errh_parse(const char *name);

/* The standard's spelling of a kind ("mpi_errors_return"...). */
const char *tide_errh_name(enum tide_errh_kind kind);

/* What a bad value is told: the names that are accepted. */
#define TIDE_ERRH_CHOICES "mpi_errors_are_fatal, mpi_errors_abort or mpi_errors_return"

#endif
