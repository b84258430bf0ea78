/*
 * mpit_cvar.c: control variables of the tool information interface.
 * Each is one of Tide's runtime parameters (common/params.def, with its
 * description from there) as the runtime reads it into tide.tuning
 * (tide_tuning_read): while the runtime is up, the value it runs with;
 * before MPI_Init or after MPI_Finalize, what the parameters say now.
 * Most are used only as the runtime comes up, so they cannot be written
 * (MPI_T_ERR_CVAR_SET_NEVER); tide_verbose, consulted whenever a
 * diagnostic may be due, can be while the runtime is up (before
 * MPI_Init or after MPI_Finalize: MPI_T_ERR_CVAR_SET_NOT_NOW, as the
 * runtime reads it afresh when it comes up).
 */
#include "runtime/api.h"
#include "runtime/runtime.h"
#include "tools/mpit.h"
#include "params.h"

#include <stdlib.h>
#include <string.h>

enum cvar_kind { KIND_SIZE, KIND_INT, KIND_BOOL, KIND_LONG, KIND_STRING };

struct cvar {
    const char *name;  /* the parameter's name; the variable's is tide_NAME */
    enum cvar_kind kind;
    size_t offset;     /* of its field in struct tide_tuning */
    size_t size;       /* of a KIND_STRING field */
    int verbosity;
    const char *category;
    bool writable;     /* while the runtime is up (KIND_INT only) */
};

#define FIELD(f) offsetof(struct tide_tuning, f), sizeof(((struct tide_tuning *)0)->f)
static const struct cvar cvars[] = {
    {"verbose", KIND_INT, FIELD(verbose), MPI_T_VERBOSITY_USER_BASIC, "runtime", true},
    {"transports", KIND_STRING, FIELD(transports), MPI_T_VERBOSITY_USER_BASIC, "transport", false},
    {"shm_eager_limit", KIND_SIZE, FIELD(shm_eager_limit), MPI_T_VERBOSITY_TUNER_BASIC, "transport", false},
    {"shm_eager_limit_coll", KIND_SIZE, FIELD(shm_eager_limit_coll), MPI_T_VERBOSITY_TUNER_DETAIL, "transport", false},
    {"shm_ring_size", KIND_SIZE, FIELD(shm_ring_size), MPI_T_VERBOSITY_TUNER_BASIC, "transport", false},
    {"shm_eager_limit_oversub", KIND_SIZE, FIELD(shm_eager_limit_oversub), MPI_T_VERBOSITY_TUNER_DETAIL,
     "transport", false},
    {"shm_ring_size_oversub", KIND_SIZE, FIELD(shm_ring_size_oversub), MPI_T_VERBOSITY_TUNER_DETAIL, "transport", false},
    {"shm_pipeline_chunk", KIND_SIZE, FIELD(shm_pipeline_chunk), MPI_T_VERBOSITY_TUNER_DETAIL, "transport", false},
    {"shm_cma", KIND_BOOL, FIELD(shm_cma), MPI_T_VERBOSITY_TUNER_BASIC, "transport", false},
    {"tcp_eager_limit", KIND_SIZE, FIELD(tcp_eager_limit), MPI_T_VERBOSITY_TUNER_BASIC, "transport", false},
    {"tcp_if", KIND_STRING, FIELD(tcp_if), MPI_T_VERBOSITY_USER_DETAIL, "transport", false},
    {"self_eager_limit", KIND_SIZE, FIELD(self_eager_limit), MPI_T_VERBOSITY_TUNER_DETAIL, "transport", false},
    {"spin_count", KIND_INT, FIELD(spin_count), MPI_T_VERBOSITY_TUNER_BASIC, "runtime", false},
    {"spin_count_oversub", KIND_INT, FIELD(spin_count_oversub), MPI_T_VERBOSITY_TUNER_DETAIL, "runtime", false},
    {"block_after_us", KIND_LONG, FIELD(block_after_us), MPI_T_VERBOSITY_TUNER_DETAIL, "runtime", false},
    {"pmix_timeout", KIND_INT, FIELD(pmix_timeout), MPI_T_VERBOSITY_USER_DETAIL, "runtime", false},
    {"modex_collect", KIND_BOOL, FIELD(modex_collect), MPI_T_VERBOSITY_TUNER_DETAIL, "runtime", false},
};
#define NCVARS ((int)(sizeof cvars / sizeof cvars[0]))

/* the descriptions of params.def */
struct param_doc {
    const char *name, *desc;
};
static const struct param_doc param_docs[] = {
#define TIDE_PARAM(name, dflt, desc) {#name, desc},
#include "params.def"
#undef TIDE_PARAM
};

static const char *describe(const char *name)
{
    for (size_t i = 0; i < sizeof param_docs / sizeof param_docs[0]; i++)
        if (strcmp(param_docs[i].name, name) == 0)
            return param_docs[i].desc;
    return "";
}

struct tide_mpit_cvar_handle {
    int index;
    struct tide_mpit_cvar_handle *next;
};
static struct tide_mpit_cvar_handle *handles; /* every live handle */

static bool handle_live(const struct tide_mpit_cvar_handle *h)
{
    for (const struct tide_mpit_cvar_handle *p = handles; p; p = p->next)
        if (p == h)
            return true;
    return false;
}

void tide_mpit_cvar_free_all(void)
{
    while (handles) {
        struct tide_mpit_cvar_handle *h = handles;
        handles = h->next;
        free(h);
    }
}

int tide_mpit_cvar_count(void)
{
    return NCVARS;
}

static void full_name(const struct cvar *v, char *buf, size_t len)
{
    snprintf(buf, len, "tide_%s", v->name);
}

int tide_mpit_cvar_find(const char *name)
{
    char full[128];
    for (int i = 0; i < NCVARS; i++) {
        full_name(&cvars[i], full, sizeof full);
        if (strcmp(full, name) == 0)
            return i;
    }
    return -1;
}

static MPI_Datatype type_of(const struct cvar *v)
{
    switch (v->kind) {
    case KIND_SIZE:
    case KIND_LONG:
        return MPI_UNSIGNED_LONG;
    case KIND_STRING:
        return MPI_CHAR;
    default:
        return MPI_INT;
    }
}

static int count_of(const struct cvar *v)
{
    return v->kind == KIND_STRING ? (int)v->size : 1;
}

int PMPI_T_cvar_get_num(int *num_cvar)
{
    int rc = tide_mpit_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!num_cvar)
        rc = MPI_T_ERR_INVALID;
    else
        *num_cvar = NCVARS;
    tide_mpit_leave();
    return rc;
}
TIDE_ALIAS(MPI_T_cvar_get_num)

int PMPI_T_cvar_get_info(int cvar_index, char *name, int *name_len, int *verbosity, MPI_Datatype *datatype,
                         MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind, int *scope)
{
    int rc = tide_mpit_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (cvar_index < 0 || cvar_index >= NCVARS) {
        tide_mpit_leave();
        return MPI_T_ERR_INVALID_INDEX;
    }
    const struct cvar *v = &cvars[cvar_index];
    char full[128];
    full_name(v, full, sizeof full);
    tide_mpit_copy_string(full, name, name_len);
    if (verbosity)
        *verbosity = v->verbosity;
    if (datatype)
        *datatype = type_of(v);
    if (enumtype)
        *enumtype = v->kind == KIND_BOOL ? &tide_mpit_enum_bool : MPI_T_ENUM_NULL;
    tide_mpit_copy_string(describe(v->name), desc, desc_len);
    if (bind)
        *bind = MPI_T_BIND_NO_OBJECT;
    if (scope)
        *scope = v->writable ? MPI_T_SCOPE_LOCAL : MPI_T_SCOPE_READONLY;
    tide_mpit_leave();
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_T_cvar_get_info)

int PMPI_T_cvar_get_index(const char *name, int *cvar_index)
{
    int rc = tide_mpit_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!name || !cvar_index) {
        rc = MPI_T_ERR_INVALID;
    } else {
        int i = tide_mpit_cvar_find(name);
        if (i < 0)
            rc = MPI_T_ERR_INVALID_NAME;
        else
            *cvar_index = i;
    }
    tide_mpit_leave();
    return rc;
}
TIDE_ALIAS(MPI_T_cvar_get_index)

int PMPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle, int *count)
{
    (void)obj_handle; /* every variable is bound to no object */
    int rc = tide_mpit_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (cvar_index < 0 || cvar_index >= NCVARS) {
        rc = MPI_T_ERR_INVALID_INDEX;
    } else if (!handle || !count) {
        rc = MPI_T_ERR_INVALID;
    } else {
        struct tide_mpit_cvar_handle *h = malloc(sizeof *h);
        if (!h) {
            rc = MPI_T_ERR_MEMORY;
        } else {
            h->index = cvar_index;
            h->next = handles;
            handles = h;
            *handle = h;
            *count = count_of(&cvars[cvar_index]);
        }
    }
    tide_mpit_leave();
    return rc;
}
TIDE_ALIAS(MPI_T_cvar_handle_alloc)

int PMPI_T_cvar_handle_free(MPI_T_cvar_handle *handle)
{
    int rc = tide_mpit_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!handle || !handle_live(*handle)) {
        rc = MPI_T_ERR_INVALID_HANDLE;
    } else {
        for (struct tide_mpit_cvar_handle **pp = &handles; *pp; pp = &(*pp)->next)
            if (*pp == *handle) {
                *pp = (*handle)->next;
                break;
            }
        free(*handle);
        *handle = MPI_T_CVAR_HANDLE_NULL;
    }
    tide_mpit_leave();
    return rc;
}
TIDE_ALIAS(MPI_T_cvar_handle_free)

int PMPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf)
{
    int rc = tide_mpit_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!handle_live(handle)) {
        tide_mpit_leave();
        return MPI_T_ERR_INVALID_HANDLE;
    }
    if (!buf) {
        tide_mpit_leave();
        return MPI_T_ERR_INVALID;
    }
    /* the value in force: the runtime's while it is up, else the
     * parameters' as the runtime would read them now */
    struct tide_tuning now;
    const struct tide_tuning *t = &tide.tuning;
    if (tide_runtime_users() == 0) {
        char err[256];
        tide_config_load(NULL, err, sizeof err);
        tide_tuning_read(&now);
        t = &now;
    }
    const struct cvar *v = &cvars[handle->index];
    const char *field = (const char *)t + v->offset;
    switch (v->kind) {
    case KIND_SIZE: {
        size_t x;
        memcpy(&x, field, sizeof x);
        *(unsigned long *)buf = (unsigned long)x;
        break;
    }
    case KIND_LONG: {
        long x;
        memcpy(&x, field, sizeof x);
        *(unsigned long *)buf = x > 0 ? (unsigned long)x : 0;
        break;
    }
    case KIND_INT:
        memcpy(buf, field, sizeof(int));
        break;
    case KIND_BOOL: {
        bool x;
        memcpy(&x, field, sizeof x);
        *(int *)buf = x ? 1 : 0;
        break;
    }
    case KIND_STRING:
        memcpy(buf, field, v->size);
        ((char *)buf)[v->size - 1] = '\0';
        break;
    }
    tide_mpit_leave();
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_T_cvar_read)

int PMPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf)
{
    int rc = tide_mpit_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!handle_live(handle)) {
        rc = MPI_T_ERR_INVALID_HANDLE;
    } else if (!cvars[handle->index].writable) {
        rc = MPI_T_ERR_CVAR_SET_NEVER; /* read once, when the runtime comes up */
    } else if (tide_runtime_users() == 0) {
        rc = MPI_T_ERR_CVAR_SET_NOT_NOW; /* coming up, it reads the parameter again */
    } else if (!buf) {
        rc = MPI_T_ERR_INVALID;
    } else {
        TIDE_API_ENTER(); /* other threads may be in the library */
        memcpy((char *)&tide.tuning + cvars[handle->index].offset, buf, sizeof(int));
    }
    tide_mpit_leave();
    return rc;
}
TIDE_ALIAS(MPI_T_cvar_write)

const char *tide_mpit_cvar_category(int index)
{
    return cvars[index].category;
}
