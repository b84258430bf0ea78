/*
 * errhandler.c: error handlers: creating, setting, getting, freeing and
 * calling them on communicators (windows and files have their own files
 * for set/get once those objects exist), the deprecated MPI-1 forms, and
 * what MPI_ERRORS_ARE_FATAL does.
 */
#include "runtime/api.h"
#include "ft/ft.h"
#include "runtime/errhandler.h"
#include "errhname.h"
#include "runtime/abort.h"
#include "runtime/runtime.h"
#include "comm/comm.h"
#include "params.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static struct tide_errhandler eh_fatal = {MPI_ERRORS_ARE_FATAL, TIDE_EH_ANY, 1, NULL};
static struct tide_errhandler eh_return = {MPI_ERRORS_RETURN, TIDE_EH_ANY, 1, NULL};
MPI_Errhandler tide_file_default_errhandler = MPI_ERRORS_RETURN;

void tide_errhandler_init(void)
{
    tide_handle_set(TIDE_KIND_ERRHANDLER, TIDE_HANDLE_INDEX(MPI_ERRORS_ARE_FATAL), &eh_fatal);
    tide_handle_set(TIDE_KIND_ERRHANDLER, TIDE_HANDLE_INDEX(MPI_ERRORS_RETURN), &eh_return);
    tide_handle_reserve(TIDE_KIND_ERRHANDLER, 3);
    tide_file_default_errhandler = MPI_ERRORS_RETURN;
}

struct tide_errhandler *tide_errhandler_get(MPI_Errhandler h)
{
    if (h == MPI_ERRORS_ARE_FATAL)
        return &eh_fatal;
    if (h == MPI_ERRORS_RETURN)
        return &eh_return;
    return tide_handle_get(TIDE_KIND_ERRHANDLER, h);
}

void tide_errhandler_retain(MPI_Errhandler h)
{
    struct tide_errhandler *e = tide_errhandler_get(h);
    if (e && e != &eh_fatal && e != &eh_return)
        e->refcount++;
}

void tide_errhandler_release(MPI_Errhandler h)
{
    struct tide_errhandler *e = tide_errhandler_get(h);
    if (!e || e == &eh_fatal || e == &eh_return)
        return;
    if (--e->refcount == 0) {
        tide_handle_release(e->handle);
        free(e);
    }
}

MPI_Errhandler tide_initial_errhandler(void)
{
    const char *v = tide_config_get("initial_errhandler");
    enum tide_errh_kind k = tide_errh_parse(v);
    if (k == TIDE_ERRH_INVALID) {
        /* mpiexec refuses a bad name; a process started otherwise (a
         * singleton, srun) says it once and keeps the default */
        static bool said;
        if (!said)
            fprintf(stderr,
                    "tide: parameter initial_errhandler (from %s): \"%.64s\" is not " TIDE_ERRH_CHOICES
                    ": using mpi_errors_are_fatal\n",
                    tide_config_origin("initial_errhandler"), v);
        said = true;
    }
    /* mpi_errors_abort (MPI 4.0's MPI_ERRORS_ABORT, which this MPI 3.1
     * library has no handle for) ends the job as mpi_errors_are_fatal
     * does: Tide's MPI_Abort on any communicator ends the whole job */
    return k == TIDE_ERRH_RETURN ? MPI_ERRORS_RETURN : MPI_ERRORS_ARE_FATAL;
}

void tide_fatal_error(const char *where, int code)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len;
    if (tide_error_message(code, msg, &len) != 0)
        snprintf(msg, sizeof msg, "error code %d", code);
    char line[MPI_MAX_ERROR_STRING + 256];
    snprintf(line, sizeof line, "MPI_ERRORS_ARE_FATAL on %s: %s", where, msg);
    int cls = tide_error_class_of(code);
    tide_abort_job(cls > 0 && cls < 256 ? cls : 1, line);
}

typedef void comm_eh_fn(MPI_Comm *, int *, ...);

int tide_errhandler_invoke(MPI_Errhandler eh, int kind, int obj, const char *objname, int code)
{
    tide_ft_error_progress(code);
    struct tide_errhandler *e = tide_errhandler_get(eh);
    if (!e || e == &eh_fatal) {
        char where[MPI_MAX_OBJECT_NAME + 64];
        snprintf(where, sizeof where, "%s", objname);
        tide_fatal_error(where, code);
    }
    if (e == &eh_return)
        return code;
    (void)kind;
    int h = obj, c = code;
    ((comm_eh_fn *)e->fn)(&h, &c);
    return code;
}

int tide_raise_comm(struct tide_comm *comm, int code)
{
    if (code == MPI_SUCCESS)
        return code;
    if (!comm)
        comm = tide_is_active() ? tide_comm_world : NULL;
    if (!comm) {
        /* outside the world model (before MPI_Init, after MPI_Finalize,
         * or with sessions only): say it and return */
        char msg[MPI_MAX_ERROR_STRING];
        int len;
        if (tide_error_message(code, msg, &len) == 0)
            fprintf(stderr, "MPI error (%s): %s\n",
                    tide_runtime_users() > 0 ? "no MPI_COMM_WORLD to raise it on" : "MPI not initialised", msg);
        return code;
    }
    char where[MPI_MAX_OBJECT_NAME + 32];
    snprintf(where, sizeof where, "%s", comm->name[0] ? comm->name : "a communicator");
    return tide_errhandler_invoke(comm->errhandler, TIDE_EH_COMM, comm->handle, where, code);
}

int tide_raise(int code)
{
    return tide_raise_comm(NULL, code);
}

/* ---- creation ---- */

static int create_eh(int kind, void (*fn)(void), MPI_Errhandler *out, const char *name)
{
    if (!fn)
        return TIDE_ERR(MPI_ERR_ARG, "%s: the handler function must not be NULL", name);
    if (!out)
        return TIDE_ERR(MPI_ERR_ARG, "%s: errhandler must not be NULL", name);
    struct tide_errhandler *e = calloc(1, sizeof *e);
    if (!e)
        return TIDE_ERR(MPI_ERR_NO_MEM, "%s: out of memory", name);
    tide_handles_reserve_predefined(); /* also before the runtime is up (sessions) */
    e->kind = kind;
    e->fn = fn;
    e->refcount = 1;
    e->handle = tide_handle_alloc(TIDE_KIND_ERRHANDLER, e);
    *out = e->handle;
    return MPI_SUCCESS;
}

int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn, MPI_Errhandler *errhandler)
{
    TIDE_API_ENTER();
    return create_eh(TIDE_EH_COMM, (void (*)(void))fn, errhandler, "MPI_Comm_create_errhandler");
}
TIDE_ALIAS(MPI_Comm_create_errhandler)

int PMPI_Errhandler_create(MPI_Handler_function *fn, MPI_Errhandler *errhandler)
{
    TIDE_API_ENTER();
    return create_eh(TIDE_EH_COMM, (void (*)(void))fn, errhandler, "MPI_Errhandler_create");
}
TIDE_ALIAS(MPI_Errhandler_create)

int PMPI_Win_create_errhandler(MPI_Win_errhandler_function *fn, MPI_Errhandler *errhandler)
{
    TIDE_API_ENTER();
    return create_eh(TIDE_EH_WIN, (void (*)(void))fn, errhandler, "MPI_Win_create_errhandler");
}
TIDE_ALIAS(MPI_Win_create_errhandler)

int PMPI_File_create_errhandler(MPI_File_errhandler_function *fn, MPI_Errhandler *errhandler)
{
    TIDE_API_ENTER();
    return create_eh(TIDE_EH_FILE, (void (*)(void))fn, errhandler, "MPI_File_create_errhandler");
}
TIDE_ALIAS(MPI_File_create_errhandler)

int PMPI_Session_create_errhandler(MPI_Session_errhandler_function *fn, MPI_Errhandler *errhandler)
{
    TIDE_API_ENTER();
    return create_eh(TIDE_EH_SESSION, (void (*)(void))fn, errhandler, "MPI_Session_create_errhandler");
}
TIDE_ALIAS(MPI_Session_create_errhandler)

int PMPI_Errhandler_free(MPI_Errhandler *errhandler)
{
    TIDE_API_ENTER();
    if (!errhandler)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Errhandler_free: errhandler must not be NULL");
    struct tide_errhandler *e = tide_errhandler_get(*errhandler);
    if (!e)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Errhandler_free: invalid error handler (argument errhandler)");
    tide_errhandler_release(*errhandler);
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Errhandler_free)

/* ---- communicators ---- */

static int comm_set_eh(const char *fn, MPI_Comm comm, MPI_Errhandler errhandler)
{
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "%s: invalid communicator (argument comm)", fn);
    struct tide_errhandler *e = tide_errhandler_get(errhandler);
    if (!e)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: invalid error handler (argument errhandler)", fn);
    if (e->kind != TIDE_EH_ANY && e->kind != TIDE_EH_COMM)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: the error handler was not made for communicators", fn);
    tide_errhandler_retain(errhandler);
    tide_errhandler_release(c->errhandler);
    c->errhandler = errhandler;
    return MPI_SUCCESS;
}

int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    TIDE_API_ENTER();
    return comm_set_eh("MPI_Comm_set_errhandler", comm, errhandler);
}
TIDE_ALIAS(MPI_Comm_set_errhandler)

int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler)
{
    TIDE_API_ENTER();
    return comm_set_eh("MPI_Errhandler_set", comm, errhandler);
}
TIDE_ALIAS(MPI_Errhandler_set)

static int comm_get_eh(const char *fn, MPI_Comm comm, MPI_Errhandler *errhandler)
{
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "%s: invalid communicator (argument comm)", fn);
    if (!errhandler)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: errhandler must not be NULL", fn);
    tide_errhandler_retain(c->errhandler);
    *errhandler = c->errhandler;
    return MPI_SUCCESS;
}

int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    TIDE_API_ENTER();
    return comm_get_eh("MPI_Comm_get_errhandler", comm, errhandler);
}
TIDE_ALIAS(MPI_Comm_get_errhandler)

int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    TIDE_API_ENTER();
    return comm_get_eh("MPI_Errhandler_get", comm, errhandler);
}
TIDE_ALIAS(MPI_Errhandler_get)

int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    TIDE_API_ENTER();
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "MPI_Comm_call_errhandler: invalid communicator (argument comm)");
    tide_raise_comm(c, errorcode);
    /* the call itself succeeded if the handler returned */
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Comm_call_errhandler)

