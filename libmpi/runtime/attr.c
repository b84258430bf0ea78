/*
 * attr.c: keyvals and attributes for communicators, datatypes and
 * windows, the predefined copy/delete callbacks, and the MPI_Comm_/
 * MPI_Type_/MPI_Win_ attribute functions with their deprecated forms.
 */
#include "runtime/api.h"
#include "runtime/attr.h"
#include "comm/comm.h"
#include "ft/ft.h"
#include "mpi-ext.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct keyval {
    int handle;
    int kind;
    void (*copy_fn)(void);
    void (*delete_fn)(void);
    void *extra;
    int refcount; /* 1 for the handle + 1 per attribute using it */
    int predefined;
    int freed; /* MPI_*_free_keyval was called; the handle lives while attributes use it */
};

int (*tide_win_predefined_attr)(int win, int keyval, void *value_out, int *flag);

/* predefined attribute values (their addresses are the attribute values) */
static int attr_tag_ub = 0x7fffffff;
static int attr_host = MPI_PROC_NULL;
static int attr_io = MPI_ANY_SOURCE;
static int attr_wtime_is_global = 0;
static int attr_universe_size;
static int attr_appnum;
static int attr_lastusedcode = MPI_ERR_LASTCODE;
static int attr_ft; /* MPIX_FT: recovery mode */
static struct keyval predefined_kv[TIDE_BUILTIN_KEYVAL_COUNT];

static const char *kind_name(int kind)
{
    return kind == TIDE_ATTR_COMM ? "communicator" : kind == TIDE_ATTR_TYPE ? "datatype" : "window";
}

static struct keyval *kv_get(int keyval)
{
    if (TIDE_HANDLE_KIND(keyval) != TIDE_KIND_KEYVAL)
        return NULL;
    unsigned idx = TIDE_HANDLE_INDEX(keyval);
    if (idx > 0 && idx < TIDE_BUILTIN_KEYVAL_COUNT)
        return &predefined_kv[idx];
    return tide_handle_get(TIDE_KIND_KEYVAL, keyval);
}

static void kv_release(struct keyval *kv)
{
    if (kv->predefined)
        return;
    if (--kv->refcount == 0) {
        tide_handle_release(kv->handle);
        free(kv);
    }
}

/* ---- the predefined callbacks ---- */
int MPI_COMM_NULL_COPY_FN(MPI_Comm c, int k, void *e, void *in, void *out, int *flag)
{
    (void)c; (void)k; (void)e; (void)in; (void)out;
    *flag = 0;
    return MPI_SUCCESS;
}
int MPI_COMM_DUP_FN(MPI_Comm c, int k, void *e, void *in, void *out, int *flag)
{
    (void)c; (void)k; (void)e;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}
int MPI_COMM_NULL_DELETE_FN(MPI_Comm c, int k, void *v, void *e)
{
    (void)c; (void)k; (void)v; (void)e;
    return MPI_SUCCESS;
}
int MPI_TYPE_NULL_COPY_FN(MPI_Datatype t, int k, void *e, void *in, void *out, int *flag)
{
    return MPI_COMM_NULL_COPY_FN(t, k, e, in, out, flag);
}
int MPI_TYPE_DUP_FN(MPI_Datatype t, int k, void *e, void *in, void *out, int *flag)
{
    return MPI_COMM_DUP_FN(t, k, e, in, out, flag);
}
int MPI_TYPE_NULL_DELETE_FN(MPI_Datatype t, int k, void *v, void *e)
{
    return MPI_COMM_NULL_DELETE_FN(t, k, v, e);
}
int MPI_WIN_NULL_COPY_FN(MPI_Win w, int k, void *e, void *in, void *out, int *flag)
{
    return MPI_COMM_NULL_COPY_FN(w, k, e, in, out, flag);
}
int MPI_WIN_DUP_FN(MPI_Win w, int k, void *e, void *in, void *out, int *flag)
{
    return MPI_COMM_DUP_FN(w, k, e, in, out, flag);
}
int MPI_WIN_NULL_DELETE_FN(MPI_Win w, int k, void *v, void *e)
{
    return MPI_COMM_NULL_DELETE_FN(w, k, v, e);
}
int MPI_NULL_COPY_FN(MPI_Comm c, int k, void *e, void *in, void *out, int *flag)
{
    return MPI_COMM_NULL_COPY_FN(c, k, e, in, out, flag);
}
int MPI_DUP_FN(MPI_Comm c, int k, void *e, void *in, void *out, int *flag)
{
    return MPI_COMM_DUP_FN(c, k, e, in, out, flag);
}
int MPI_NULL_DELETE_FN(MPI_Comm c, int k, void *v, void *e)
{
    return MPI_COMM_NULL_DELETE_FN(c, k, v, e);
}

typedef int copy_fn_t(int, int, void *, void *, void *, int *);
typedef int delete_fn_t(int, int, void *, void *);

/* ---- keyvals ---- */

int tide_keyval_create(int kind, void (*copy_fn)(void), void (*delete_fn)(void), void *extra,
                       int *keyval, const char *fn)
{
    if (!keyval)
        return tide_err(MPI_ERR_ARG, "%s: the keyval argument must not be NULL", fn);
    struct keyval *kv = calloc(1, sizeof *kv);
    if (!kv)
        return tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    kv->kind = kind;
    kv->copy_fn = copy_fn;
    kv->delete_fn = delete_fn;
    kv->extra = extra;
    kv->refcount = 1;
    kv->handle = tide_handle_alloc(TIDE_KIND_KEYVAL, kv);
    if (kv->handle == MPI_KEYVAL_INVALID) {
        free(kv);
        return tide_err(MPI_ERR_NO_MEM, "%s: too many keyvals", fn);
    }
    *keyval = kv->handle;
    return MPI_SUCCESS;
}

int tide_keyval_free(int kind, int *keyval, const char *fn)
{
    if (!keyval)
        return tide_err(MPI_ERR_ARG, "%s: the keyval argument must not be NULL", fn);
    struct keyval *kv = kv_get(*keyval);
    if (!kv)
        return tide_err(MPI_ERR_KEYVAL, "%s: %d is not a valid keyval (argument keyval)", fn, *keyval);
    if (kv->kind != kind)
        return tide_err(MPI_ERR_KEYVAL, "%s: keyval %d belongs to a %s, not a %s", fn, *keyval,
                        kind_name(kv->kind), kind_name(kind));
    if (kv->predefined)
        return tide_err(MPI_ERR_KEYVAL, "%s: a predefined keyval cannot be freed", fn);
    if (kv->freed) {
        /* freed before but still alive (attributes use it): Open MPI and
         * MPICH let another copy of the handle be freed too (a delete
         * callback freeing the keyval it is called with is a common
         * pattern), so this does nothing more */
        *keyval = MPI_KEYVAL_INVALID;
        return MPI_SUCCESS;
    }
    /* The handle stays allocated (and is not reused) until the last
     * attribute using the keyval is deleted: MPI-2.2 section 6.7.2 has
     * the program delete those attributes with the freed keyval. */
    kv->freed = 1;
    kv_release(kv);
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

/* A freed keyval still in use is accepted only where allow_freed says so
 * (deleting the attributes that keep it alive). */
static int check_kv(int kind, int keyval, bool allow_freed, struct keyval **out, const char *fn)
{
    struct keyval *kv = kv_get(keyval);
    if (!kv || (kv->freed && !allow_freed))
        return tide_err(MPI_ERR_KEYVAL, "%s: %d is not a valid keyval (argument keyval)", fn, keyval);
    if (kv->kind != kind)
        return tide_err(MPI_ERR_KEYVAL, "%s: keyval %d belongs to a %s, not a %s", fn, keyval,
                        kind_name(kv->kind), kind_name(kind));
    *out = kv;
    return MPI_SUCCESS;
}

static struct tide_attr *find_attr(struct tide_attr_list *list, struct keyval *kv)
{
    for (struct tide_attr *a = list ? list->head : NULL; a; a = a->next)
        if (a->kv == kv)
            return a;
    return NULL;
}

static int run_delete(struct keyval *kv, int obj, void *value)
{
    if (!kv->delete_fn)
        return MPI_SUCCESS;
    return ((delete_fn_t *)kv->delete_fn)(obj, kv->handle, value, kv->extra);
}

int tide_attr_set(int kind, int obj, struct tide_attr_list **list, int keyval, void *value,
                  const char *fn)
{
    struct keyval *kv;
    int rc = check_kv(kind, keyval, false, &kv, fn);
    if (rc)
        return rc;
    if (kv->predefined)
        return tide_err(MPI_ERR_KEYVAL, "%s: predefined attributes cannot be set", fn);
    if (!*list) {
        *list = calloc(1, sizeof **list);
        if (!*list)
            return tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    }
    struct tide_attr *old = find_attr(*list, kv);
    if (old) {
        rc = run_delete(kv, obj, old->value);
        if (rc != MPI_SUCCESS)
            return rc;
        /* the callback may have deleted attributes of this object */
        if ((old = find_attr(*list, kv))) {
            old->value = value;
            return MPI_SUCCESS;
        }
    }
    struct tide_attr *a = malloc(sizeof *a);
    if (!a)
        return tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    a->keyval = keyval;
    a->kv = kv;
    a->value = value;
    a->next = (*list)->head;
    (*list)->head = a;
    kv->refcount++;
    return MPI_SUCCESS;
}

static int predefined_get(int kind, int obj, int keyval, void *value_out, int *flag)
{
    if (kind == TIDE_ATTR_WIN) {
        if (tide_win_predefined_attr)
            return tide_win_predefined_attr(obj, keyval, value_out, flag);
        *flag = 0;
        return MPI_SUCCESS;
    }
    int *p = NULL;
    if (obj == MPI_COMM_WORLD) {
        switch (keyval) {
        case MPI_TAG_UB: p = &attr_tag_ub; break;
        case MPI_HOST: p = &attr_host; break;
        case MPI_IO: p = &attr_io; break;
        case MPI_WTIME_IS_GLOBAL: p = &attr_wtime_is_global; break;
        case MPI_UNIVERSE_SIZE: p = &attr_universe_size; break;
        case MPI_APPNUM: p = &attr_appnum; break;
        case MPI_LASTUSEDCODE: p = &attr_lastusedcode; break;
        case MPIX_FT:
            attr_ft = tide_ft_recovery() ? 1 : 0;
            p = &attr_ft;
            break;
        default: break;
        }
    }
    *flag = p != NULL;
    if (p)
        *(void **)value_out = p;
    return MPI_SUCCESS;
}

int tide_attr_get(int kind, int obj, struct tide_attr_list *list, int keyval, void *value_out,
                  int *flag, const char *fn)
{
    if (!value_out || !flag)
        return tide_err(MPI_ERR_ARG, "%s: attribute_val and flag must not be NULL", fn);
    struct keyval *kv;
    int rc = check_kv(kind, keyval, false, &kv, fn);
    if (rc)
        return rc;
    if (kv->predefined)
        return predefined_get(kind, obj, keyval, value_out, flag);
    *flag = 0;
    for (struct tide_attr *a = list ? list->head : NULL; a; a = a->next)
        if (a->kv == kv) {
            *(void **)value_out = a->value;
            *flag = 1;
            break;
        }
    return MPI_SUCCESS;
}

int tide_attr_delete(int kind, int obj, struct tide_attr_list **list, int keyval, const char *fn)
{
    struct keyval *kv;
    int rc = check_kv(kind, keyval, true, &kv, fn);
    if (rc)
        return rc;
    if (kv->predefined)
        return tide_err(MPI_ERR_KEYVAL, "%s: predefined attributes cannot be deleted", fn);
    struct tide_attr *a = find_attr(*list, kv);
    if (!a)
        return tide_err(MPI_ERR_KEYVAL, "%s: no attribute is set for keyval %d on this object", fn, keyval);
    rc = run_delete(kv, obj, a->value);
    if (rc != MPI_SUCCESS)
        return rc;
    /* The callback may have deleted other attributes of this object (the
     * list changed under us): unlink the entry wherever it now is. */
    for (struct tide_attr **pp = &(*list)->head; *pp; pp = &(*pp)->next)
        if (*pp == a) {
            *pp = a->next;
            free(a);
            kv_release(kv);
            break;
        }
    return MPI_SUCCESS;
}

int tide_attr_copy_all(int kind, int oldobj, struct tide_attr_list *src, struct tide_attr_list **dst)
{
    (void)kind;
    if (!src || !src->head)
        return MPI_SUCCESS;
    /* copy oldest first so the new list keeps the same order */
    int n = 0;
    for (struct tide_attr *a = src->head; a; a = a->next)
        n++;
    struct tide_attr **v = malloc((size_t)n * sizeof *v);
    if (!v)
        return tide_err(MPI_ERR_NO_MEM, "attribute copy: out of memory");
    int i = n;
    for (struct tide_attr *a = src->head; a; a = a->next)
        v[--i] = a;
    int rc = MPI_SUCCESS;
    for (i = 0; i < n; i++) {
        struct keyval *k = v[i]->kv;
        if (!k->copy_fn)
            continue;
        void *out = NULL;
        int flag = 0;
        rc = ((copy_fn_t *)k->copy_fn)(oldobj, v[i]->keyval, k->extra, v[i]->value, &out, &flag);
        if (rc != MPI_SUCCESS)
            break;
        if (!flag)
            continue;
        if (!*dst && !(*dst = calloc(1, sizeof **dst))) {
            rc = tide_err(MPI_ERR_NO_MEM, "attribute copy: out of memory");
            break;
        }
        struct tide_attr *na = malloc(sizeof *na);
        if (!na) {
            rc = tide_err(MPI_ERR_NO_MEM, "attribute copy: out of memory");
            break;
        }
        na->keyval = v[i]->keyval;
        na->kv = k;
        na->value = out;
        na->next = (*dst)->head;
        (*dst)->head = na;
        k->refcount++;
    }
    free(v);
    return rc;
}

int tide_attr_delete_all(int kind, int obj, struct tide_attr_list **list)
{
    (void)kind;
    if (!*list)
        return MPI_SUCCESS;
    int rc = MPI_SUCCESS;
    while ((*list)->head) {
        struct tide_attr *a = (*list)->head;
        struct keyval *kv = a->kv;
        int r = run_delete(kv, obj, a->value);
        if (r != MPI_SUCCESS && rc == MPI_SUCCESS)
            rc = r;
        /* the callback may have changed the list: unlink a where it is */
        for (struct tide_attr **pp = &(*list)->head; *pp; pp = &(*pp)->next)
            if (*pp == a) {
                *pp = a->next;
                break;
            }
        free(a);
        kv_release(kv);
    }
    free(*list);
    *list = NULL;
    return rc;
}

void tide_attr_init_predefined(void)
{
    for (int i = 1; i < TIDE_BUILTIN_KEYVAL_COUNT; i++) {
        predefined_kv[i].handle = TIDE_HANDLE(TIDE_KIND_KEYVAL, i);
        predefined_kv[i].kind = i >= (int)TIDE_HANDLE_INDEX(MPI_WIN_BASE) && i <= (int)TIDE_HANDLE_INDEX(MPI_WIN_MODEL)
                                    ? TIDE_ATTR_WIN
                                    : TIDE_ATTR_COMM;
        predefined_kv[i].predefined = 1;
        predefined_kv[i].refcount = 1;
    }
    tide_handle_reserve(TIDE_KIND_KEYVAL, TIDE_BUILTIN_KEYVAL_COUNT);
    attr_universe_size = (int)tide.universe_size;
    attr_appnum = (int)tide.appnum;
    attr_host = MPI_PROC_NULL;
    attr_io = MPI_ANY_SOURCE;
}

void tide_attr_update_lastusedcode(int value)
{
    attr_lastusedcode = value;
}

void tide_attr_finalize(void) {}
