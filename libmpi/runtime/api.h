/*
 * api.h: what every file that defines MPI functions includes.
 *
 * Conventions (see docs/INTERNALS.md):
 *  - Each function is defined as PMPI_x and MPI_x is a weak alias:
 *        int PMPI_Comm_size(MPI_Comm comm, int *size) { ... }
 *        TIDE_ALIAS(MPI_Comm_size)
 *  - Each starts with TIDE_API_ENTER(), which takes the library lock when
 *    the thread level is MPI_THREAD_MULTIPLE (released automatically on
 *    return; blocking waits release it while they wait).
 *  - Arguments are checked first; a bad argument is reported through the
 *    error handler of the object the call was made on, with the standard
 *    class and a message naming the function and argument (errors.h).
 *  - Internal code calls internal functions (tide_*), not MPI_/PMPI_.
 */
#ifndef TIDE_API_H
#define TIDE_API_H

#include "mpi.h"
#include "runtime/errors.h"
#include "runtime/handles.h"
#include "runtime/lock.h"
#include "runtime/state.h"

#define TIDE_ALIAS(name) \
    extern __typeof__(P##name) name __attribute__((weak, alias("P" #name)));

#endif
