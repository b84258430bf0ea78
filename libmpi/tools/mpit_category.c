/*
 * mpit_category.c: the categories of the tool information interface:
 * "tide" holds one category per layer ("runtime", "transport",
 * "pt2pt"), and each layer's category the control and performance
 * variables that name it (mpit_cvar.c, mpit_pvar.c). The set of
 * variables is fixed, so the stamp of MPI_T_category_changed never
 * changes.
 */
#include "runtime/api.h"
#include "tools/mpit.h"

#include <string.h>

struct category {
    const char *name;
    const char *desc;
    bool holds_layers; /* the top category: its subcategories are the others */
};

static const struct category categories[] = {
    {"tide", "Tide MPI: every category below", true},
    {"runtime", "the runtime: diagnostics, waiting for progress, joining the job", false},
    {"transport", "how messages travel: transports and their limits", false},
    {"pt2pt", "point-to-point messages this process sent and received", false},
};
#define NCATEGORIES ((int)(sizeof categories / sizeof categories[0]))

static int find(const char *name)
{
    for (int i = 0; i < NCATEGORIES; i++)
        if (strcmp(categories[i].name, name) == 0)
            return i;
    return -1;
}

/* The members of category c: its control variables (kind 'c'),
 * performance variables ('p') or subcategories ('s'), at most len of
 * them into indices (may be NULL with len 0); returns how many there are. */
static int members(int c, char kind, int len, int *indices)
{
    int n = 0;
    const char *name = categories[c].name;
    if (kind == 's') {
        if (categories[c].holds_layers)
            for (int i = 0; i < NCATEGORIES; i++)
                if (!categories[i].holds_layers) {
                    if (n < len)
                        indices[n] = i;
                    n++;
                }
        return n;
    }
    int count = kind == 'c' ? tide_mpit_cvar_count() : tide_mpit_pvar_count();
    for (int i = 0; i < count; i++) {
        const char *of = kind == 'c' ? tide_mpit_cvar_category(i) : tide_mpit_pvar_category(i);
        if (strcmp(of, name) == 0) {
            if (n < len)
                indices[n] = i;
            n++;
        }
    }
    return n;
}

int PMPI_T_category_get_num(int *num_cat)
{
    int rc = tide_mpit_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!num_cat)
        rc = MPI_T_ERR_INVALID;
    else
        *num_cat = NCATEGORIES;
    tide_mpit_leave();
    return rc;
}
TIDE_ALIAS(MPI_T_category_get_num)

int PMPI_T_category_get_info(int cat_index, char *name, int *name_len, char *desc, int *desc_len, int *num_cvars,
                             int *num_pvars, int *num_categories)
{
    int rc = tide_mpit_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (cat_index < 0 || cat_index >= NCATEGORIES) {
        rc = MPI_T_ERR_INVALID_INDEX;
    } else {
        tide_mpit_copy_string(categories[cat_index].name, name, name_len);
        tide_mpit_copy_string(categories[cat_index].desc, desc, desc_len);
        if (num_cvars)
            *num_cvars = members(cat_index, 'c', 0, NULL);
        if (num_pvars)
            *num_pvars = members(cat_index, 'p', 0, NULL);
        if (num_categories)
            *num_categories = members(cat_index, 's', 0, NULL);
    }
    tide_mpit_leave();
    return rc;
}
TIDE_ALIAS(MPI_T_category_get_info)

int PMPI_T_category_get_index(const char *name, int *cat_index)
{
    int rc = tide_mpit_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!name || !cat_index) {
        rc = MPI_T_ERR_INVALID;
    } else {
        int i = find(name);
        if (i < 0)
            rc = MPI_T_ERR_INVALID_NAME;
        else
            *cat_index = i;
    }
    tide_mpit_leave();
    return rc;
}
TIDE_ALIAS(MPI_T_category_get_index)

static int get_members(int cat_index, char kind, int len, int indices[])
{
    int rc = tide_mpit_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (cat_index < 0 || cat_index >= NCATEGORIES)
        rc = MPI_T_ERR_INVALID_INDEX;
    else if (len < 0 || (len > 0 && !indices))
        rc = MPI_T_ERR_INVALID;
    else
        members(cat_index, kind, len, indices);
    tide_mpit_leave();
    return rc;
}

int PMPI_T_category_get_cvars(int cat_index, int len, int indices[])
{
    return get_members(cat_index, 'c', len, indices);
}
TIDE_ALIAS(MPI_T_category_get_cvars)

int PMPI_T_category_get_pvars(int cat_index, int len, int indices[])
{
    return get_members(cat_index, 'p', len, indices);
}
TIDE_ALIAS(MPI_T_category_get_pvars)

int PMPI_T_category_get_categories(int cat_index, int len, int indices[])
{
    return get_members(cat_index, 's', len, indices);
}
TIDE_ALIAS(MPI_T_category_get_categories)

int PMPI_T_category_changed(int *stamp)
{
    int rc = tide_mpit_enter();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!stamp)
        rc = MPI_T_ERR_INVALID;
    else
        *stamp = 1; /* the variables and categories are fixed */
    tide_mpit_leave();
    return rc;
}
TIDE_ALIAS(MPI_T_category_changed)
