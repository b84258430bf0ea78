/*
 * session.c: the sessions model (MPI-4.0 chapter 11): MPI_Session_init
 * and MPI_Session_finalize (each session holds the runtime, runtime.h, so
 * a program may use sessions without MPI_Init, beside it, and one after
 * another), the process sets (mpi://WORLD and mpi://SELF: the job's ranks
 * as PMIx gave them, and this process), the hints in use, and the
 * sessions' error handlers. Groups of process sets are made in
 * comm/group_ops.c, communicators from groups in comm/comm_from_group.c.
 */
#include "runtime/api.h"
#include "runtime/errhandler.h"
#include "runtime/info.h"
#include "runtime/runtime.h"
#include "runtime/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const psets[] = {TIDE_PSET_WORLD, TIDE_PSET_SELF};
#define NPSETS ((int)(sizeof psets / sizeof psets[0]))

struct tide_session *tide_session_get(MPI_Session h)
{
    struct tide_session *s = tide_handle_get(TIDE_KIND_SESSION, h);
    return (s && s->handle == h) ? s : NULL;
}

int tide_raise_session(struct tide_session *s, int code)
{
    if (code == MPI_SUCCESS)
        return code;
    if (!s)
        return tide_raise(code);
    return tide_errhandler_invoke(s->errhandler, TIDE_EH_SESSION, s->handle, "a session", code);
}

#define SESSION_ERR(s, cls, ...) tide_raise_session((s), tide_err((cls), __VA_ARGS__))

static struct tide_session *get_session(MPI_Session h, const char *fn, int *rc)
{
    struct tide_session *s = tide_session_get(h);
    if (!s)
        *rc = TIDE_ERR(MPI_ERR_SESSION, "%s: invalid session%s (argument session)", fn,
                       h == MPI_SESSION_NULL ? " MPI_SESSION_NULL" : "");
    return s;
}

static const char *const level_names[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED",
                                          "MPI_THREAD_MULTIPLE"};

/* The level named by a "thread_level" hint; -1 when it names none. */
static int parse_level(const char *v)
{
    for (int i = 0; i < 4; i++)
        if (strcasecmp(v, level_names[i]) == 0)
            return i;
    return -1;
}

/* Which process set a name is (its index), or -1. Names are compared
 * without regard to case, as the standard's examples spell them both ways. */
int tide_pset_index(const char *name)
{
    for (int i = 0; name && i < NPSETS; i++)
        if (strcasecmp(name, psets[i]) == 0)
            return i;
    return -1;
}

int PMPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
    /* no TIDE_API_ENTER: the thread level may change here (as in MPI_Init);
     * the lock is taken around the runtime's start below */
    static const char fn[] = "MPI_Session_init";
    if (!session)
        return TIDE_ERR(MPI_ERR_ARG, "%s: session must not be NULL", fn);
    struct tide_info *hints = tide_info_get(info);
    if (info != MPI_INFO_NULL && !hints)
        return TIDE_ERR(MPI_ERR_INFO, "%s: invalid info object (argument info)", fn);
    struct tide_errhandler *e = tide_errhandler_get(errhandler);
    if (!e)
        return TIDE_ERR(MPI_ERR_ARG, "%s: invalid error handler (argument errhandler)", fn);
    if (e->kind != TIDE_EH_ANY && e->kind != TIDE_EH_SESSION)
        return TIDE_ERR(MPI_ERR_ARG, "%s: the error handler was not made for sessions (argument errhandler)", fn);
    int level = MPI_THREAD_SINGLE;
    const char *lv = tide_info_lookup(hints, "thread_level");
    if (lv && (level = parse_level(lv)) < 0)
        return TIDE_ERR(MPI_ERR_INFO_VALUE,
                        "%s: thread_level \"%.64s\" is not MPI_THREAD_SINGLE, _FUNNELED, _SERIALIZED or _MULTIPLE "
                        "(argument info)",
                        fn, lv);
    struct tide_session *s = calloc(1, sizeof *s);
    if (!s)
        return TIDE_ERR(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    s->info = MPI_INFO_NULL;
    if (tide_info_dup_internal(hints, &s->info) != MPI_SUCCESS) {
        free(s);
        return TIDE_ERR(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    }
    /* under MPI_THREAD_MULTIPLE of a runtime already up, other threads
     * may be in the library */
    bool locked = tide_thread_multiple;
    if (locked)
        tide_lock_acquire();
    int rc = tide_runtime_acquire(level, fn);
    if (locked)
        tide_lock_release();
    if (rc != MPI_SUCCESS) {
        tide_info_free_internal(&s->info);
        free(s);
        return tide_raise(rc);
    }
    s->thread_level = level;
    s->handle = tide_handle_alloc(TIDE_KIND_SESSION, s);
    if (s->handle == MPI_SESSION_NULL) {
        tide_runtime_release(fn);
        tide_info_free_internal(&s->info);
        free(s);
        return TIDE_ERR(MPI_ERR_NO_MEM, "%s: out of session handles", fn);
    }
    /* the hints in use: the level provided */
    tide_info_set_internal(tide_info_get(s->info), "thread_level", level_names[tide.thread_level]);
    tide_errhandler_retain(errhandler);
    s->errhandler = errhandler;
    *session = s->handle;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Session_init)

int PMPI_Session_finalize(MPI_Session *session)
{
    /* the lock as in MPI_Session_init */
    static const char fn[] = "MPI_Session_finalize";
    if (!session)
        return TIDE_ERR(MPI_ERR_ARG, "%s: session must not be NULL", fn);
    int rc;
    struct tide_session *s = get_session(*session, fn, &rc);
    if (!s)
        return rc;
    bool locked = tide_thread_multiple;
    if (locked)
        tide_lock_acquire();
    rc = tide_runtime_release(fn);
    if (locked)
        tide_lock_release();
    if (rc != MPI_SUCCESS)
        return tide_raise_session(s, rc);
    tide_handle_release(s->handle);
    tide_info_free_internal(&s->info);
    tide_errhandler_release(s->errhandler);
    free(s);
    *session = MPI_SESSION_NULL;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Session_finalize)

int PMPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int *npset_names)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Session_get_num_psets";
    int rc;
    struct tide_session *s = get_session(session, fn, &rc);
    if (!s)
        return rc;
    if (info != MPI_INFO_NULL && !tide_info_get(info))
        return SESSION_ERR(s, MPI_ERR_INFO, "%s: invalid info object (argument info)", fn);
    if (!npset_names)
        return SESSION_ERR(s, MPI_ERR_ARG, "%s: npset_names must not be NULL", fn);
    *npset_names = NPSETS;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Session_get_num_psets)

int PMPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *pset_len, char *pset_name)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Session_get_nth_pset";
    int rc;
    struct tide_session *s = get_session(session, fn, &rc);
    if (!s)
        return rc;
    if (info != MPI_INFO_NULL && !tide_info_get(info))
        return SESSION_ERR(s, MPI_ERR_INFO, "%s: invalid info object (argument info)", fn);
    if (n < 0 || n >= NPSETS)
        return SESSION_ERR(s, MPI_ERR_ARG, "%s: n is %d, the session has %d process sets (argument n)", fn, n,
                           NPSETS);
    if (!pset_len)
        return SESSION_ERR(s, MPI_ERR_ARG, "%s: pset_len must not be NULL", fn);
    if (*pset_len < 0)
        return SESSION_ERR(s, MPI_ERR_ARG, "%s: negative *pset_len %d (argument pset_len)", fn, *pset_len);
    if (*pset_len > 0 && !pset_name)
        return SESSION_ERR(s, MPI_ERR_ARG, "%s: pset_name must not be NULL when *pset_len is %d", fn, *pset_len);
    /* *pset_len 0 asks the length (NUL included); otherwise at most
     * *pset_len - 1 characters and the NUL */
    size_t len = strlen(psets[n]);
    if (*pset_len > 0) {
        size_t c = len < (size_t)*pset_len - 1 ? len : (size_t)*pset_len - 1;
        memcpy(pset_name, psets[n], c);
        pset_name[c] = '\0';
    }
    *pset_len = (int)len + 1;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Session_get_nth_pset)

int PMPI_Session_get_pset_info(MPI_Session session, const char *pset_name, MPI_Info *info)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Session_get_pset_info";
    int rc;
    struct tide_session *s = get_session(session, fn, &rc);
    if (!s)
        return rc;
    if (!pset_name)
        return SESSION_ERR(s, MPI_ERR_ARG, "%s: pset_name must not be NULL", fn);
    if (!info)
        return SESSION_ERR(s, MPI_ERR_ARG, "%s: info must not be NULL", fn);
    int k = tide_pset_index(pset_name);
    if (k < 0)
        return SESSION_ERR(s, MPI_ERR_ARG, "%s: no process set \"%.128s\" (argument pset_name; %s or %s)", fn,
                           pset_name, TIDE_PSET_WORLD, TIDE_PSET_SELF);
    MPI_Info out;
    if (tide_info_dup_internal(NULL, &out) != MPI_SUCCESS)
        return SESSION_ERR(s, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    char num[32];
    snprintf(num, sizeof num, "%u", k == 0 ? (unsigned)tide.size : 1u);
    if (tide_info_set_internal(tide_info_get(out), "mpi_size", num) != MPI_SUCCESS) {
        tide_info_free_internal(&out);
        return SESSION_ERR(s, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    }
    *info = out;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Session_get_pset_info)

int PMPI_Session_get_info(MPI_Session session, MPI_Info *info_used)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Session_get_info";
    int rc;
    struct tide_session *s = get_session(session, fn, &rc);
    if (!s)
        return rc;
    if (!info_used)
        return SESSION_ERR(s, MPI_ERR_ARG, "%s: info_used must not be NULL", fn);
    /* a new object the caller frees */
    if (tide_info_dup_internal(tide_info_get(s->info), info_used) != MPI_SUCCESS)
        return SESSION_ERR(s, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Session_get_info)

int PMPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Session_set_errhandler";
    int rc;
    struct tide_session *s = get_session(session, fn, &rc);
    if (!s)
        return rc;
    struct tide_errhandler *e = tide_errhandler_get(errhandler);
    if (!e)
        return SESSION_ERR(s, MPI_ERR_ARG, "%s: invalid error handler (argument errhandler)", fn);
    if (e->kind != TIDE_EH_ANY && e->kind != TIDE_EH_SESSION)
        return SESSION_ERR(s, MPI_ERR_ARG, "%s: the error handler was not made for sessions (argument errhandler)",
                           fn);
    tide_errhandler_retain(errhandler);
    tide_errhandler_release(s->errhandler);
    s->errhandler = errhandler;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Session_set_errhandler)

int PMPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Session_get_errhandler";
    int rc;
    struct tide_session *s = get_session(session, fn, &rc);
    if (!s)
        return rc;
    if (!errhandler)
        return SESSION_ERR(s, MPI_ERR_ARG, "%s: errhandler must not be NULL", fn);
    tide_errhandler_retain(s->errhandler);
    *errhandler = s->errhandler;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Session_get_errhandler)

int PMPI_Session_call_errhandler(MPI_Session session, int errorcode)
{
    TIDE_API_ENTER();
    int rc;
    struct tide_session *s = get_session(session, "MPI_Session_call_errhandler", &rc);
    if (!s)
        return rc;
    tide_raise_session(s, errorcode);
    /* the call itself succeeded if the handler returned */
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Session_call_errhandler)
