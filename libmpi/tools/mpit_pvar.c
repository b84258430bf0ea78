/*
 * mpit_pvar.c: performance variables of the tool information interface,
 * their sessions and handles. The variables are the point-to-point
 * layer's message counters (tide_msg_counters, pt2pt/protocol.h): per
 * handle, messages and bytes sent and received while the handle was
 * started (writable, reset to 0), and the messages sent since the
 * process started (continuous, read-only).
 */
#include "runtime/api.h"
#include "pt2pt/protocol.h"
#include "tools/mpit.h"

#include <stdlib.h>
#include <string.h>

struct pvar {
    const char *name;
    const char *desc;
    size_t offset; /* of its counter in struct tide_msg_counters */
    bool continuous;
};

#define COUNTER(f) offsetof(struct tide_msg_counters, f)
static const struct pvar pvars[] = {
    {"tide_msgs_sent", "messages this process sent (to itself too) while the handle was started", COUNTER(msgs_sent),
     false},
    {"tide_bytes_sent", "bytes of the messages this process sent while the handle was started",
     COUNTER(bytes_sent), false},
    {"tide_msgs_received", "messages this process received while the handle was started", COUNTER(msgs_received),
     false},
    {"tide_bytes_received", "bytes of the messages this process received while the handle was started",
     COUNTER(bytes_received), false},
    {"tide_msgs_sent_total", "messages this process sent since it started (read-only, always counting)",
     COUNTER(msgs_sent), true},
};
#define NPVARS ((int)(sizeof pvars / sizeof pvars[0]))

struct tide_mpit_pvar_handle {
    int index;
    bool started;
    unsigned long long kept;     /* counted before the last start (or write) */
    unsigned long long base;     /* the counter when the handle last started */
    struct tide_mpit_pvar_handle *next;
};

struct tide_mpit_pvar_session {
    struct tide_mpit_pvar_handle *handles;
    struct tide_mpit_pvar_session *next;
};
static struct tide_mpit_pvar_session *sessions; /* every live session */

/* under the library lock: with MPI_THREAD_MULTIPLE, other threads count */
static unsigned long long counter(int index)
{
    TIDE_API_ENTER();
    unsigned long long v;
    struct tide_msg_counters all;
    tide_msg_counters_read(&all);
    memcpy(&v, (const char *)&all + pvars[index].offset, sizeof v);
    return v;
}

static unsigned long long value(const struct tide_mpit_pvar_handle *h)
{
    if (pvars[h->index].continuous)
        return counter(h->index);
    return h->kept + (h->started ? counter(h->index) - h->base : 0);
}

static void set_value(struct tide_mpit_pvar_handle *h, unsigned long long v)
{
    h->kept = v;
    h->base = counter(h->index);
}

static void free_session(struct tide_mpit_pvar_session *s)
{
    while (s->handles) {
        struct tide_mpit_pvar_handle *h = s->handles;
        s->handles = h->next;
        free(h);
    }
    free(s);
}

void tide_mpit_pvar_free_all(void)
{
    while (sessions) {
        struct tide_mpit_pvar_session *s = sessions;
        sessions = s->next;
        free_session(s);
    }
}

int tide_mpit_pvar_count(void)
{
    return NPVARS;
}

int tide_mpit_pvar_find(const char *name)
{
    for (int i = 0; i < NPVARS; i++)
        if (strcmp(pvars[i].name, name) == 0)
            return i;
    return -1;
}

const char *tide_mpit_pvar_category(int index)
{
    (void)index;
    return "pt2pt";
}

static bool session_live(const struct tide_mpit_pvar_session *s)
{
    for (const struct tide_mpit_pvar_session *p = sessions; p; p = p->next)
        if (p == s)
            return true;
    return false;
}

static bool handle_of(const struct tide_mpit_pvar_session *s, const struct tide_mpit_pvar_handle *h)
{
    for (const struct tide_mpit_pvar_handle *p = s->handles; p; p = p->next)
        if (p == h)
            return true;
    return false;
}

/* Enter and check the session and (unless all is allowed) the handle. */
static int enter_with(MPI_T_pvar_session session, MPI_T_pvar_handle handle, bool all_allowed)
{
    int rc = tide_mpit_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!session_live(session))
        rc = MPI_T_ERR_INVALID_SESSION;
    else if (handle == MPI_T_PVAR_ALL_HANDLES ? !all_allowed : !handle_of(session, handle))
        rc = MPI_T_ERR_INVALID_HANDLE;
    if (rc != MPI_SUCCESS)
        tide_mpit_leave();
    return rc;
}

int PMPI_T_pvar_get_num(int *num_pvar)
{
    int rc = tide_mpit_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!num_pvar)
        rc = MPI_T_ERR_INVALID;
    else
        *num_pvar = NPVARS;
    tide_mpit_leave();
    return rc;
}
TIDE_ALIAS(MPI_T_pvar_get_num)

int PMPI_T_pvar_get_info(int pvar_index, char *name, int *name_len, int *verbosity, int *var_class,
                         MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind,
                         int *readonly, int *continuous, int *atomic)
{
    int rc = tide_mpit_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (pvar_index < 0 || pvar_index >= NPVARS) {
        tide_mpit_leave();
        return MPI_T_ERR_INVALID_INDEX;
    }
    const struct pvar *v = &pvars[pvar_index];
    tide_mpit_copy_string(v->name, name, name_len);
    if (verbosity)
        *verbosity = MPI_T_VERBOSITY_USER_BASIC;
    if (var_class)
        *var_class = MPI_T_PVAR_CLASS_COUNTER;
    if (datatype)
        *datatype = MPI_UNSIGNED_LONG_LONG;
    if (enumtype)
        *enumtype = MPI_T_ENUM_NULL;
    tide_mpit_copy_string(v->desc, desc, desc_len);
    if (bind)
        *bind = MPI_T_BIND_NO_OBJECT;
    if (readonly)
        *readonly = v->continuous;
    if (continuous)
        *continuous = v->continuous;
    if (atomic)
        *atomic = 0;
    tide_mpit_leave();
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_T_pvar_get_info)

int PMPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index)
{
    int rc = tide_mpit_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!name || !pvar_index) {
        rc = MPI_T_ERR_INVALID;
    } else {
        int i = tide_mpit_pvar_find(name);
        if (i < 0 || var_class != MPI_T_PVAR_CLASS_COUNTER)
            rc = MPI_T_ERR_INVALID_NAME;
        else
            *pvar_index = i;
    }
    tide_mpit_leave();
    return rc;
}
TIDE_ALIAS(MPI_T_pvar_get_index)

int PMPI_T_pvar_session_create(MPI_T_pvar_session *session)
{
    int rc = tide_mpit_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    struct tide_mpit_pvar_session *s = NULL;
    if (!session)
        rc = MPI_T_ERR_INVALID;
    else if (!(s = calloc(1, sizeof *s)))
        rc = MPI_T_ERR_OUT_OF_SESSIONS;
    if (s) {
        s->next = sessions;
        sessions = s;
        *session = s;
    }
    tide_mpit_leave();
    return rc;
}
TIDE_ALIAS(MPI_T_pvar_session_create)

int PMPI_T_pvar_session_free(MPI_T_pvar_session *session)
{
    int rc = tide_mpit_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!session || !session_live(*session)) {
        rc = MPI_T_ERR_INVALID_SESSION;
    } else {
        for (struct tide_mpit_pvar_session **pp = &sessions; *pp; pp = &(*pp)->next)
            if (*pp == *session) {
                *pp = (*session)->next;
                break;
            }
        free_session(*session);
        *session = MPI_T_PVAR_SESSION_NULL;
    }
    tide_mpit_leave();
    return rc;
}
TIDE_ALIAS(MPI_T_pvar_session_free)

int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void *obj_handle, MPI_T_pvar_handle *handle,
                             int *count)
{
    (void)obj_handle; /* every variable is bound to no object */
    int rc = tide_mpit_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!session_live(session)) {
        rc = MPI_T_ERR_INVALID_SESSION;
    } else if (pvar_index < 0 || pvar_index >= NPVARS) {
        rc = MPI_T_ERR_INVALID_INDEX;
    } else if (!handle || !count) {
        rc = MPI_T_ERR_INVALID;
    } else {
        struct tide_mpit_pvar_handle *h = calloc(1, sizeof *h);
        if (!h) {
            rc = MPI_T_ERR_OUT_OF_HANDLES;
        } else {
            h->index = pvar_index;
            /* a continuous variable counts from the start; the others
             * start stopped at 0 */
            h->started = pvars[pvar_index].continuous;
            h->next = session->handles;
            session->handles = h;
            *handle = h;
            *count = 1;
        }
    }
    tide_mpit_leave();
    return rc;
}
TIDE_ALIAS(MPI_T_pvar_handle_alloc)

int PMPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle *handle)
{
    int rc = tide_mpit_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!session_live(session)) {
        rc = MPI_T_ERR_INVALID_SESSION;
    } else if (!handle || !handle_of(session, *handle)) {
        rc = MPI_T_ERR_INVALID_HANDLE;
    } else {
        for (struct tide_mpit_pvar_handle **pp = &session->handles; *pp; pp = &(*pp)->next)
            if (*pp == *handle) {
                *pp = (*handle)->next;
                break;
            }
        free(*handle);
        *handle = MPI_T_PVAR_HANDLE_NULL;
    }
    tide_mpit_leave();
    return rc;
}
TIDE_ALIAS(MPI_T_pvar_handle_free)

static void start_one(struct tide_mpit_pvar_handle *h)
{
    if (!h->started) {
        h->base = counter(h->index);
        h->started = true;
    }
}

static void stop_one(struct tide_mpit_pvar_handle *h)
{
    if (h->started) {
        h->kept += counter(h->index) - h->base;
        h->started = false;
    }
}

/* Start or stop one handle, or every one of the session that can be. */
static int start_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void (*op)(struct tide_mpit_pvar_handle *))
{
    int rc = enter_with(session, handle, true);
    if (rc != MPI_SUCCESS)
        return rc;
    if (handle == MPI_T_PVAR_ALL_HANDLES) {
        for (struct tide_mpit_pvar_handle *h = session->handles; h; h = h->next)
            if (!pvars[h->index].continuous)
                op(h);
    } else if (pvars[handle->index].continuous) {
        rc = MPI_T_ERR_PVAR_NO_STARTSTOP;
    } else {
        op(handle);
    }
    tide_mpit_leave();
    return rc;
}

int PMPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    return start_stop(session, handle, start_one);
}
TIDE_ALIAS(MPI_T_pvar_start)

int PMPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    return start_stop(session, handle, stop_one);
}
TIDE_ALIAS(MPI_T_pvar_stop)

int PMPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    int rc = enter_with(session, handle, false);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!buf)
        rc = MPI_T_ERR_INVALID;
    else
        *(unsigned long long *)buf = value(handle);
    tide_mpit_leave();
    return rc;
}
TIDE_ALIAS(MPI_T_pvar_read)

int PMPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf)
{
    int rc = enter_with(session, handle, false);
    if (rc != MPI_SUCCESS)
        return rc;
    if (pvars[handle->index].continuous)
        rc = MPI_T_ERR_PVAR_NO_WRITE;
    else if (!buf)
        rc = MPI_T_ERR_INVALID;
    else
        set_value(handle, *(const unsigned long long *)buf);
    tide_mpit_leave();
    return rc;
}
TIDE_ALIAS(MPI_T_pvar_write)

int PMPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    int rc = enter_with(session, handle, true);
    if (rc != MPI_SUCCESS)
        return rc;
    if (handle == MPI_T_PVAR_ALL_HANDLES) {
        for (struct tide_mpit_pvar_handle *h = session->handles; h; h = h->next)
            if (!pvars[h->index].continuous)
                set_value(h, 0);
    } else if (pvars[handle->index].continuous) {
        rc = MPI_T_ERR_PVAR_NO_WRITE;
    } else {
        set_value(handle, 0);
    }
    tide_mpit_leave();
    return rc;
}
TIDE_ALIAS(MPI_T_pvar_reset)

int PMPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    int rc = enter_with(session, handle, false);
    if (rc != MPI_SUCCESS)
        return rc;
    if (pvars[handle->index].continuous) {
        rc = MPI_T_ERR_PVAR_NO_WRITE;
    } else if (!buf) {
        rc = MPI_T_ERR_INVALID;
    } else {
        *(unsigned long long *)buf = value(handle);
        set_value(handle, 0);
    }
    tide_mpit_leave();
    return rc;
}
TIDE_ALIAS(MPI_T_pvar_readreset)
