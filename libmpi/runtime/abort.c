/*
 * abort.c: MPI_Abort, and the job-ending path shared with
 * MPI_ERRORS_ARE_FATAL: tell the runtime (PMIx_Abort, which makes
 * mpiexec end every rank and exit with the code), then exit.
 */
#include "runtime/api.h"
#include "runtime/abort.h"
#include "comm/comm.h"
#include "client.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

void tide_abort_job(int exit_code, const char *message)
{
    static int aborting;
    if (!aborting) {
        aborting = 1;
        if (tide.have_pmix) {
            tide_pmix_abort(exit_code, message);
        } else {
            fprintf(stderr, "%s\n", message);
        }
    }
    _exit(exit_code & 0xff ? exit_code & 0xff : 1);
}

int PMPI_Abort(MPI_Comm comm, int errorcode)
{
    TIDE_API_ENTER();
    struct tide_comm *c = tide_comm_get(comm);
    char msg[512];
    snprintf(msg, sizeof msg, "MPI_Abort(%s, %d) called by rank %u",
             c ? (c->name[0] ? c->name : "a communicator") : "an invalid communicator", errorcode,
             tide.rank);
    tide_abort_job(errorcode, msg);
}
TIDE_ALIAS(MPI_Abort)
