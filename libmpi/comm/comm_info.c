/*
 * comm_info.c: hints on communicators (MPI-3 section 6.4.4):
 * MPI_Comm_set_info and MPI_Comm_get_info. A communicator keeps its own
 * copy of the hints it was given (comm->info, see runtime/info.h):
 * MPI_Comm_dup passes them on, MPI_Comm_dup_with_info replaces them,
 * MPI_Comm_set_info sets the keys it names (others stay). Only the keys
 * Tide knows are kept and returned (MPI-4.0 7.4.4: a hint the
 * implementation does not know is ignored, and MPI_Comm_get_info returns
 * the hints in use): tide_coll_tuning (overrides of the collectives'
 * algorithm table, coll/select.c), which Tide acts on, and the standard's
 * assertions mpi_assert_*, which it accepts and reports (they allow
 * optimisations; Tide makes none of them yet).
 */
#include "runtime/api.h"
#include "runtime/info.h"
#include "comm/comm.h"

#include <string.h>

static const char *const known_hints[] = {
    "tide_coll_tuning",        "mpi_assert_no_any_tag",       "mpi_assert_no_any_source",
    "mpi_assert_exact_length", "mpi_assert_allow_overtaking", NULL,
};

bool tide_comm_hint_known(const char *key)
{
    for (int i = 0; known_hints[i]; i++)
        if (strcmp(key, known_hints[i]) == 0)
            return true;
    return false;
}

int tide_comm_hints_take(MPI_Info *h, const struct tide_info *src)
{
    for (int i = 0; src && i < src->nkeys; i++) {
        const char *key = tide_info_nth_key(src, i);
        if (!tide_comm_hint_known(key))
            continue;
        if (*h == MPI_INFO_NULL) {
            int cls = tide_info_dup_internal(NULL, h);
            if (cls != MPI_SUCCESS)
                return cls;
        }
        int cls = tide_info_set_internal(tide_info_get(*h), key, tide_info_nth_value(src, i));
        if (cls != MPI_SUCCESS)
            return cls;
    }
    return MPI_SUCCESS;
}

int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Comm_set_info";
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "%s: invalid communicator%s (argument comm)", fn,
                        comm == MPI_COMM_NULL ? " MPI_COMM_NULL" : "");
    struct tide_info *in = tide_info_get(info);
    if (!in)
        return TIDE_ERR_COMM(c, MPI_ERR_INFO, "%s: invalid info object%s (argument info)", fn,
                             info == MPI_INFO_NULL ? " MPI_INFO_NULL" : "");
    int cls = tide_comm_hints_take(&c->info, in);
    if (cls != MPI_SUCCESS)
        return TIDE_ERR_COMM(c, cls, "%s: cannot keep the hints (argument info)", fn);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Comm_set_info)

int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Comm_get_info";
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "%s: invalid communicator%s (argument comm)", fn,
                        comm == MPI_COMM_NULL ? " MPI_COMM_NULL" : "");
    if (!info_used)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: info_used must not be NULL", fn);
    /* a new object the caller frees, holding the hints in use */
    int cls = tide_info_dup_internal(tide_info_get(c->info), info_used);
    if (cls != MPI_SUCCESS)
        return TIDE_ERR_COMM(c, cls, "%s: out of memory for a new info object", fn);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Comm_get_info)
