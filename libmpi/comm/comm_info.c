/*
 * comm_info.c: hints on communicators (MPI-3 section 6.4.4):
 * MPI_Comm_set_info and MPI_Comm_get_info. A communicator keeps its own
 * copy of the hints it was given (comm->info, see runtime/info.h):
 * MPI_Comm_dup passes them on, MPI_Comm_dup_with_info replaces them,
 * MPI_Comm_set_info sets the keys it names (others stay). Every hint
 * given is kept and returned; the one Tide acts on is tide_coll_tuning
 * (overrides of the collectives' algorithm table, coll/select.c).
 */
#include "runtime/api.h"
#include "runtime/info.h"
#include "comm/comm.h"

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
    if (in->nkeys == 0)
        return MPI_SUCCESS;
    struct tide_info *mine = tide_info_get(c->info);
    if (!mine) {
        int cls = tide_info_dup_internal(in, &c->info);
        if (cls != MPI_SUCCESS)
            return TIDE_ERR_COMM(c, cls, "%s: out of memory for the hints", fn);
        return MPI_SUCCESS;
    }
    for (int i = 0; i < in->nkeys; i++) {
        int cls = tide_info_set_internal(mine, tide_info_nth_key(in, i), tide_info_nth_value(in, i));
        if (cls != MPI_SUCCESS)
            return TIDE_ERR_COMM(c, cls, "%s: cannot keep hint '%s' (argument info)", fn, tide_info_nth_key(in, i));
    }
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
