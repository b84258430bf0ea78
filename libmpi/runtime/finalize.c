/*
 * finalize.c: MPI_Finalize. First the attributes on MPI_COMM_SELF are
 * deleted (their callbacks run, as the standard asks), then pending
 * buffered sends are delivered, every rank meets in a fence so no peer is
 * still reading our memory, and the layers shut down in reverse order.
 */
#include "runtime/api.h"
#include "runtime/attr.h"
#include "runtime/modules.h"
#include "runtime/proc.h"
#include "comm/comm.h"
#include "pt2pt/progress.h"
#include "client.h"

#include <stdlib.h>
#include <unistd.h>

struct fence_wait {
    volatile bool done;
    bool ok;
};

static void fence_done(int ok, void *arg)
{
    struct fence_wait *fw = arg;
    fw->ok = ok != 0;
    __atomic_store_n(&fw->done, true, __ATOMIC_RELEASE);
    tide_progress_wake();
}

int PMPI_Finalize(void)
{
    TIDE_API_ENTER();
    if (!tide.initialized)
        return tide_err(MPI_ERR_OTHER, "MPI_Finalize: MPI is not initialised");
    if (tide.finalized)
        return tide_err(MPI_ERR_OTHER, "MPI_Finalize: MPI is already finalised");
    int rc = tide_attr_delete_all(TIDE_ATTR_COMM, MPI_COMM_SELF, &tide_comm_self->attrs);
    if (rc != MPI_SUCCESS)
        return tide_raise_comm(tide_comm_self, rc);
    tide_modules_quiesce();
    if (tide.have_pmix) {
        /* keep serving peers while the others arrive: one may still need
         * us to accept its connection or answer its protocol messages */
        struct fence_wait fw = {false, false};
        if (tide_pmix_fence_nb(0, fence_done, &fw) == 0)
            tide_progress_wait_flag(&fw.done);
        else
            tide_pmix_fence(0);
    }
    tide_modules_finalize();
    tide_comm_finalize_predefined();
    tide.finalized = 1;
    /* tell the daemon this rank finalised (it reports ranks that exit
     * without MPI_Finalize) */
    const char *ffd = getenv("TIDE_FINALIZE_FD");
    if (ffd) {
        int fd = atoi(ffd);
        if (fd > 2 && write(fd, "F", 1) == 1)
            close(fd);
    }
    if (tide.have_pmix)
        tide_pmix_finalize();
    free(tide.local_peers);
    tide.local_peers = NULL;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Finalize)
