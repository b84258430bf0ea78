/*
 * win_attr.c: what a window carries besides its memory: attributes (the
 * predefined MPI_WIN_BASE, SIZE, DISP_UNIT, CREATE_FLAVOR, MODEL and the
 * user's keyvals), its name, its error handler (and raising errors on
 * it), and its info hints.
 */
#include "runtime/api.h"
#include "rma/win.h"

#include "runtime/attr.h"
#include "runtime/errhandler.h"
#include "runtime/info.h"

#include <stdio.h>
#include <string.h>

static int unified_model = MPI_WIN_UNIFIED;

int tide_win_predefined(int win, int keyval, void *value_out, int *flag)
{
    struct tide_win *w = tide_handle_get(TIDE_KIND_WIN, win);
    *flag = 0;
    if (!w)
        return MPI_SUCCESS;
    void *v = NULL;
    if (keyval == MPI_WIN_BASE)
        v = w->base;
    else if (keyval == MPI_WIN_SIZE)
        v = &w->win_size;
    else if (keyval == MPI_WIN_DISP_UNIT)
        v = &w->disp_unit;
    else if (keyval == MPI_WIN_CREATE_FLAVOR)
        v = &w->flavor;
    else if (keyval == MPI_WIN_MODEL)
        v = &unified_model;
    else
        return MPI_SUCCESS;
    *(void **)value_out = v;
    *flag = 1;
    return MPI_SUCCESS;
}

int tide_raise_win(struct tide_win *w, int code)
{
    if (code == MPI_SUCCESS)
        return code;
    if (!w)
        return tide_raise(code);
    char where[MPI_MAX_OBJECT_NAME + 32];
    snprintf(where, sizeof where, "%s", w->name[0] ? w->name : "a window");
    return tide_errhandler_invoke(w->errhandler, TIDE_EH_WIN, w->handle, where, code);
}

int PMPI_Win_set_attr(MPI_Win win, int keyval, void *value)
{
    TIDE_API_ENTER();
    WIN_OR_FAIL("MPI_Win_set_attr", win, w);
    int rc = tide_attr_set(TIDE_ATTR_WIN, win, &w->attrs, keyval, value, "MPI_Win_set_attr");
    return rc ? tide_raise_win(w, rc) : MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Win_set_attr)

int PMPI_Win_get_attr(MPI_Win win, int keyval, void *value, int *flag)
{
    TIDE_API_ENTER();
    WIN_OR_FAIL("MPI_Win_get_attr", win, w);
    if (!value || !flag)
        return TIDE_ERR_WIN(w, MPI_ERR_ARG, "MPI_Win_get_attr: attribute_val and flag must not be NULL");
    int rc = tide_attr_get(TIDE_ATTR_WIN, win, w->attrs, keyval, value, flag, "MPI_Win_get_attr");
    return rc ? tide_raise_win(w, rc) : MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Win_get_attr)

int PMPI_Win_delete_attr(MPI_Win win, int keyval)
{
    TIDE_API_ENTER();
    WIN_OR_FAIL("MPI_Win_delete_attr", win, w);
    int rc = tide_attr_delete(TIDE_ATTR_WIN, win, &w->attrs, keyval, "MPI_Win_delete_attr");
    return rc ? tide_raise_win(w, rc) : MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Win_delete_attr)

int PMPI_Win_set_name(MPI_Win win, const char *win_name)
{
    TIDE_API_ENTER();
    WIN_OR_FAIL("MPI_Win_set_name", win, w);
    if (!win_name)
        return TIDE_ERR_WIN(w, MPI_ERR_ARG, "MPI_Win_set_name: win_name must not be NULL");
    /* longer names are truncated to MPI_MAX_OBJECT_NAME - 1 characters */
    snprintf(w->name, sizeof w->name, "%s", win_name);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Win_set_name)

int PMPI_Win_get_name(MPI_Win win, char *win_name, int *resultlen)
{
    TIDE_API_ENTER();
    WIN_OR_FAIL("MPI_Win_get_name", win, w);
    if (!win_name || !resultlen)
        return TIDE_ERR_WIN(w, MPI_ERR_ARG, "MPI_Win_get_name: win_name and resultlen must not be NULL");
    size_t n = strlen(w->name);
    memcpy(win_name, w->name, n + 1);
    *resultlen = (int)n;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Win_get_name)

int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
    TIDE_API_ENTER();
    WIN_OR_FAIL("MPI_Win_set_errhandler", win, w);
    struct tide_errhandler *e = tide_errhandler_get(errhandler);
    if (!e)
        return TIDE_ERR_WIN(w, MPI_ERR_ARG, "MPI_Win_set_errhandler: invalid error handler (argument errhandler)");
    if (e->kind != TIDE_EH_ANY && e->kind != TIDE_EH_WIN)
        return TIDE_ERR_WIN(w, MPI_ERR_ARG, "MPI_Win_set_errhandler: the error handler was not made for windows");
    tide_errhandler_retain(errhandler);
    tide_errhandler_release(w->errhandler);
    w->errhandler = errhandler;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Win_set_errhandler)

int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
{
    TIDE_API_ENTER();
    WIN_OR_FAIL("MPI_Win_get_errhandler", win, w);
    if (!errhandler)
        return TIDE_ERR_WIN(w, MPI_ERR_ARG, "MPI_Win_get_errhandler: errhandler must not be NULL");
    tide_errhandler_retain(w->errhandler);
    *errhandler = w->errhandler;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Win_get_errhandler)

int PMPI_Win_call_errhandler(MPI_Win win, int errorcode)
{
    TIDE_API_ENTER();
    WIN_OR_FAIL("MPI_Win_call_errhandler", win, w);
    tide_raise_win(w, errorcode);
    /* the call itself succeeded if the handler returned */
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Win_call_errhandler)

/* The hints a window knows; the others are dropped (MPI_Win_get_info
 * returns the hints in use). */
static const char *const known_hints[] = {
    "no_locks", "accumulate_ordering", "accumulate_ops", "same_size", "same_disp_unit",
    "alloc_shared_noncontig", "mpi_accumulate_granularity",
};

int tide_win_info_take(struct tide_win *w, MPI_Info info)
{
    const struct tide_info *in = tide_info_get(info);
    for (int i = 0; in && i < in->nkeys; i++) {
        const char *key = tide_info_nth_key(in, i);
        bool known = false;
        for (size_t k = 0; k < sizeof known_hints / sizeof known_hints[0]; k++)
            known = known || strcmp(key, known_hints[k]) == 0;
        if (!known)
            continue;
        if (w->info == MPI_INFO_NULL && tide_info_dup_internal(NULL, &w->info) != MPI_SUCCESS)
            return MPI_ERR_NO_MEM;
        if (tide_info_set_internal(tide_info_get(w->info), key, tide_info_nth_value(in, i)) != MPI_SUCCESS)
            return MPI_ERR_NO_MEM;
    }
    w->no_locks = tide_info_lookup_bool(tide_info_get(w->info), "no_locks", false);
    return MPI_SUCCESS;
}

int PMPI_Win_set_info(MPI_Win win, MPI_Info info)
{
    TIDE_API_ENTER();
    WIN_OR_FAIL("MPI_Win_set_info", win, w);
    if (!tide_info_get(info))
        return TIDE_ERR_WIN(w, MPI_ERR_INFO, "MPI_Win_set_info: invalid info object%s (argument info)",
                            info == MPI_INFO_NULL ? " MPI_INFO_NULL" : "");
    if (tide_win_info_take(w, info) != MPI_SUCCESS)
        return TIDE_ERR_WIN(w, MPI_ERR_NO_MEM, "MPI_Win_set_info: out of memory");
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Win_set_info)

int PMPI_Win_get_info(MPI_Win win, MPI_Info *info_used)
{
    TIDE_API_ENTER();
    WIN_OR_FAIL("MPI_Win_get_info", win, w);
    if (!info_used)
        return TIDE_ERR_WIN(w, MPI_ERR_ARG, "MPI_Win_get_info: info_used must not be NULL");
    int cls = tide_info_dup_internal(tide_info_get(w->info), info_used);
    if (cls != MPI_SUCCESS)
        return TIDE_ERR_WIN(w, cls, "MPI_Win_get_info: out of memory for a new info object");
    struct tide_info *out = tide_info_get(*info_used);
    /* the defaults of the hints in use, as the standard lists them */
    if (!tide_info_lookup(out, "no_locks"))
        tide_info_set_internal(out, "no_locks", "false");
    if (!tide_info_lookup(out, "accumulate_ordering"))
        tide_info_set_internal(out, "accumulate_ordering", "rar,raw,war,waw");
    if (!tide_info_lookup(out, "accumulate_ops"))
        tide_info_set_internal(out, "accumulate_ops", "same_op_no_op");
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Win_get_info)
