/*
 * init.c: MPI_Init and MPI_Init_thread (the world model: they take the
 * runtime, runtime.c, which a session may already have brought up).
 * Also MPI_Initialized, MPI_Query_thread and MPI_Is_thread_main.
 */
#include "runtime/api.h"
#include "runtime/attr.h"
#include "runtime/errhandler.h"
#include "runtime/runtime.h"
#include "runtime/proc.h"
#include "comm/comm.h"
#include "client.h"
#include "params.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct tide_state tide;

static bool recovery_job(void)
{
    const char *mode = getenv("TIDE_ENABLE_RECOVERY"); /* set by mpiexec */
    return mode && strcmp(mode, "1") == 0;
}

/* A spawned process of a job in recovery mode whose MPI_Init failed
 * (its parents gave up the spawn, or died): an abort would end the whole
 * run, the parents' job with it, though they go on without these
 * children. It ends only itself, saying why; mpiexec takes that as a
 * failure of this rank, and the parents' job goes on. */
static void end_this_process(const char *fn, int code)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len;
    if (tide_error_message(code, msg, &len) != 0)
        snprintf(msg, sizeof msg, "error code %d", code);
    fprintf(stderr, "MPI_ERRORS_ARE_FATAL on %s: %s\n", fn, msg);
    fflush(stderr);
    int cls = tide_error_class_of(code);
    _exit(cls > 0 && cls < 256 ? cls : 1);
}

static int init_common(int required, int *provided, const char *fn)
{
    if (tide.initialized) {
        fprintf(stderr, "%s: MPI is already initialised\n", fn);
        return tide_err(MPI_ERR_OTHER, "%s: MPI is already initialised", fn);
    }
    int rc = tide_runtime_acquire(required, fn);
    if (rc != MPI_SUCCESS) {
        /* a process that could not join its job (PMIx unreachable, a
         * spawned job cut off from its parents) must not go on as if it
         * were a job of its own: the initial error handler decides, and
         * by default it ends the process with the reason */
        if (tide_initial_errhandler() != MPI_ERRORS_RETURN) {
            if (tide.spawned && recovery_job())
                end_this_process(fn, rc);
            tide_fatal_error(fn, rc);
        }
        return rc;
    }
    if (provided)
        *provided = tide.thread_level;
    tide.initialized = 1;
    return MPI_SUCCESS;
}

int PMPI_Init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    int rc = init_common(MPI_THREAD_SINGLE, NULL, "MPI_Init");
    return rc;
}
TIDE_ALIAS(MPI_Init)

int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    (void)argc;
    (void)argv;
    if (!provided)
        return tide_err(MPI_ERR_ARG, "MPI_Init_thread: provided must not be NULL");
    return init_common(required, provided, "MPI_Init_thread");
}
TIDE_ALIAS(MPI_Init_thread)

int PMPI_Initialized(int *flag)
{
    if (!flag)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Initialized: flag must not be NULL");
    *flag = tide.initialized;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Initialized)

int PMPI_Finalized(int *flag)
{
    if (!flag)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Finalized: flag must not be NULL");
    *flag = tide.finalized;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Finalized)

int PMPI_Query_thread(int *provided)
{
    TIDE_API_ENTER();
    if (!provided)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Query_thread: provided must not be NULL");
    *provided = tide.thread_level;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Query_thread)

int PMPI_Is_thread_main(int *flag)
{
    TIDE_API_ENTER();
    if (!flag)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Is_thread_main: flag must not be NULL");
    *flag = pthread_equal(pthread_self(), tide.main_thread) != 0;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Is_thread_main)
