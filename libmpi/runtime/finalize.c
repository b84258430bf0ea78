/*
 * finalize.c: MPI_Finalize: the end of the world model. The runtime
 * (runtime.c) goes down with it unless a session still uses it.
 */
#include "runtime/api.h"
#include "runtime/runtime.h"
#include "comm/comm.h"

int PMPI_Finalize(void)
{
    TIDE_API_ENTER();
    if (!tide.initialized)
        return tide_err(MPI_ERR_OTHER, "MPI_Finalize: MPI is not initialised");
    if (tide.finalized)
        return tide_err(MPI_ERR_OTHER, "MPI_Finalize: MPI is already finalised");
    int rc = tide_runtime_release("MPI_Finalize");
    if (rc != MPI_SUCCESS)
        return tide_raise_comm(tide_comm_self, rc);
    tide.finalized = 1;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Finalize)
