/*
 * revoke.c: MPIX_Comm_revoke and MPIX_Comm_is_revoked. A revocation ends
 * every pending operation on the communicator at every member with
 * MPIX_ERR_REVOKED and refuses every later one, but for the calls that
 * repair (agree, shrink, acknowledgement). The revoking process tells
 * every other member with a notice on the collective context
 * (coll/coll_notice.c); each member passes the notice on the first time
 * it sees it, so the revocation reaches every survivor even when the
 * revoking process dies half-way through telling.
 */
#include "runtime/api.h"
#include "comm/endpoints.h"
#include "coll/coll_notice.h"
#include "comm/comm.h"
#include "comm/comm_fault.h"
#include "ft/ft.h"
#include "mpi-ext.h"
#include "pt2pt/progress.h"
#include "pt2pt/protocol.h"

static bool covers_all(void *arg, int tag)
{
    (void)arg;
    (void)tag;
    return true;
}

static int revoked_err(void *arg)
{
    return tide_ft_revoked_error("operation", arg);
}

bool tide_ft_revoked(struct tide_comm *c)
{
    return c->ft && c->ft->revoked;
}

int tide_ft_revoked_error(const char *fn, struct tide_comm *c)
{
    (void)c;
    return tide_err(MPIX_ERR_REVOKED, "%s: the communicator was revoked (MPIX_Comm_revoke)", fn);
}

void tide_ft_revoke_local(struct tide_comm *c, int rank, bool remote)
{
    struct tide_ft_comm *ft = tide_ft_comm_of(c);
    if (!ft || ft->revoked)
        return;
    ft->revoked = true;
    /* its point-to-point context: arrivals are dropped (pt2pt/protocol.c),
     * pending operations end */
    struct tide_comm_fault *f = tide_comm_fault_get(c->context_id);
    if (f)
        f->revoked = true;
    tide_requests_abort_ctx(c->context_id, covers_all, revoked_err, c);
    /* its collectives, and the word to every other member */
    tide_coll_revoke_all(c, MPIX_ERR_REVOKED, rank, remote, true);
}

int PMPIX_Comm_revoke(MPI_Comm comm)
{
    TIDE_API_ENTER();
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "MPIX_Comm_revoke: invalid communicator%s (argument comm)",
                        comm == MPI_COMM_NULL ? " MPI_COMM_NULL" : "");
    int refused = tide_ep_refuse(c, "MPIX_Comm_revoke");
    if (refused)
        return refused;
    tide_ft_revoke_local(c, c->rank, false);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPIX_Comm_revoke)

int PMPIX_Comm_is_revoked(MPI_Comm comm, int *flag)
{
    TIDE_API_ENTER();
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "MPIX_Comm_is_revoked: invalid communicator%s (argument comm)",
                        comm == MPI_COMM_NULL ? " MPI_COMM_NULL" : "");
    if (!flag)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "MPIX_Comm_is_revoked: flag must not be NULL");
    /* the notice of another member may be waiting to be read (also
     * while nothing has failed here yet: the notice makes the first
     * fault state) */
    if (!tide_progress_depth && !tide_lock_held_shared())
        tide_progress();
    *flag = tide_ft_revoked(c);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPIX_Comm_is_revoked)
