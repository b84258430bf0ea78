/*
 * mpit.c: the tool information interface's life (MPI_T_init_thread,
 * MPI_T_finalize: counted, usable before MPI_Init and after
 * MPI_Finalize), its lock, string copies, and enumerations
 * (MPI_T_enum_get_info, MPI_T_enum_get_item).
 */
#include "runtime/api.h"
#include "tools/mpit.h"

#include <pthread.h>
#include <string.h>

static pthread_mutex_t mpit_lock = PTHREAD_MUTEX_INITIALIZER;
static int mpit_users; /* MPI_T_init_thread calls not yet finalized */

static const struct tide_mpit_enum_item bool_items[] = {{0, "off"}, {1, "on"}};
struct tide_mpit_enum tide_mpit_enum_bool = {"tide_on_off", 2, bool_items};

int tide_mpit_enter(void)
{
    pthread_mutex_lock(&mpit_lock);
    if (mpit_users > 0)
        return MPI_SUCCESS;
    pthread_mutex_unlock(&mpit_lock);
    return MPI_T_ERR_NOT_INITIALIZED;
}

void tide_mpit_leave(void)
{
    pthread_mutex_unlock(&mpit_lock);
}

void tide_mpit_copy_string(const char *s, char *buf, int *len)
{
    if (!len)
        return;
    int need = (int)strlen(s) + 1;
    if (*len <= 0 || !buf) {
        *len = need;
        return;
    }
    int n = need < *len ? need : *len;
    memcpy(buf, s, (size_t)(n - 1));
    buf[n - 1] = '\0';
    *len = n;
}

int PMPI_T_init_thread(int required, int *provided)
{
    if (required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE)
        return MPI_T_ERR_INVALID;
    pthread_mutex_lock(&mpit_lock);
    mpit_users++;
    pthread_mutex_unlock(&mpit_lock);
    /* every call is serialised by the lock */
    if (provided)
        *provided = required;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_T_init_thread)

int PMPI_T_finalize(void)
{
    int rc = tide_mpit_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (--mpit_users == 0) {
        tide_mpit_pvar_free_all();
        tide_mpit_cvar_free_all();
    }
    tide_mpit_leave();
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_T_finalize)

int PMPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name, int *name_len)
{
    int rc = tide_mpit_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (enumtype != &tide_mpit_enum_bool) {
        rc = MPI_T_ERR_INVALID_HANDLE;
    } else {
        if (num)
            *num = enumtype->nitems;
        tide_mpit_copy_string(enumtype->name, name, name_len);
    }
    tide_mpit_leave();
    return rc;
}
TIDE_ALIAS(MPI_T_enum_get_info)

int PMPI_T_enum_get_item(MPI_T_enum enumtype, int index, int *value, char *name, int *name_len)
{
    int rc = tide_mpit_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (enumtype != &tide_mpit_enum_bool) {
        rc = MPI_T_ERR_INVALID_HANDLE;
    } else if (index < 0 || index >= enumtype->nitems) {
        rc = MPI_T_ERR_INVALID_ITEM;
    } else {
        if (value)
            *value = enumtype->items[index].value;
        tide_mpit_copy_string(enumtype->items[index].name, name, name_len);
    }
    tide_mpit_leave();
    return rc;
}
TIDE_ALIAS(MPI_T_enum_get_item)
