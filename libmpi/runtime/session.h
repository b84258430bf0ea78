/*
 * session.h: session objects (MPI-4.0 chapter 11, the sessions model) as
 * the rest of libmpi sees them: each holds a reference on the runtime
 * (runtime.h) from MPI_Session_init to MPI_Session_finalize.
 */
#ifndef TIDE_SESSION_H
#define TIDE_SESSION_H

#include "mpi.h"

struct tide_session {
    int handle;
    int errhandler;   /* MPI_Errhandler */
    int info;         /* MPI_Info: the hints in use (thread_level among them) */
    int thread_level; /* the level asked (the runtime may provide more) */
};

/* NULL unless h is a live session. */
struct tide_session *tide_session_get(MPI_Session h);
/* Run the session's error handler with code (NULL: as an error not tied
 * to an object); returns code if the handler returns. */
int tide_raise_session(struct tide_session *s, int code);

/* The process sets every session offers (MPI-4.0 section 11.3.2). */
#define TIDE_PSET_WORLD "mpi://WORLD"
#define TIDE_PSET_SELF "mpi://SELF"
/* Which process set a name is (0: mpi://WORLD, 1: mpi://SELF), or -1. */
int tide_pset_index(const char *name);

#endif
