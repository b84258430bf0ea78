/*
 * connect.c: MPI_Comm_accept and MPI_Comm_connect. The root of each side
 * does the talking (bridge.c); everyone in the communicator takes part in
 * building the intercommunicator. Timeouts come from the info key
 * "timeout" (seconds) or the connect_timeout / accept_timeout parameters.
 */
#include "runtime/api.h"
#include "pt2pt/sender_check.h"
#include "comm/comm.h"
#include "dpm/dpm.h"
#include "params.h"
#include "runtime/info.h"

#include <stdlib.h>
#include <string.h>

static double timeout_of(MPI_Info info, const char *param)
{
    struct tide_info *i = info != MPI_INFO_NULL ? tide_info_get(info) : NULL;
    const char *v = i ? tide_info_lookup(i, "timeout") : NULL;
    if (v)
        return atof(v);
    return (double)tide_config_int(param);
}

static int check(const char *fn, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *newcomm, struct tide_comm **cp)
{
    struct tide_comm *c = tide_comm_get(comm);
    *cp = c;
    if (!c)
        return tide_err(MPI_ERR_COMM, "%s: invalid communicator (argument comm)", fn);
    if (c->is_inter)
        return tide_err(MPI_ERR_COMM, "%s: comm must be an intracommunicator", fn);
    if (c->ep)
        return tide_err(MPI_ERR_COMM, "%s: not supported on an endpoints communicator (argument comm; see "
                                      "docs/ENDPOINTS.md)", fn);
    if (root < 0 || root >= c->size)
        return tide_err(MPI_ERR_ROOT, "%s: invalid root %d (argument root; comm has %d ranks)", fn, root, c->size);
    if (!newcomm)
        return tide_err(MPI_ERR_ARG, "%s: newcomm must not be NULL", fn);
    if (info != MPI_INFO_NULL && !tide_info_get(info))
        return tide_err(MPI_ERR_INFO, "%s: invalid info (argument info)", fn);
    return MPI_SUCCESS;
}

int PMPI_Comm_accept(const char *port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *newcomm)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Comm_accept";
    struct tide_comm *c;
    int rc = check(fn, info, root, comm, newcomm, &c);
    if (rc)
        return tide_raise_comm(c, rc);
    int pre = MPI_SUCCESS;
    struct tide_port p;
    memset(&p, 0, sizeof p);
    if (c->rank == root) {
        if (tide_port_parse(port_name, &p) != 0)
            pre = tide_err(MPI_ERR_PORT, "%s: '%.60s' is not a port name (argument port_name)", fn,
                           port_name ? port_name : "(null)");
        else if (!tide_port_is_open(p.token))
            pre = tide_err(MPI_ERR_PORT, "%s: the port is not open in this process (argument port_name)", fn);
    }
    struct tide_comm *ic = NULL;
    rc = tide_dpm_accept(p.token, root, c, timeout_of(info, "accept_timeout"), pre, &ic, fn);
    if (rc)
        return tide_raise_comm(c, rc);
    *newcomm = ic->handle;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Comm_accept)

int PMPI_Comm_connect(const char *port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *newcomm)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Comm_connect";
    struct tide_comm *c;
    int rc = check(fn, info, root, comm, newcomm, &c);
    if (rc)
        return tide_raise_comm(c, rc);
    struct tide_port p;
    memset(&p, 0, sizeof p);
    int bad = 0;
    if (c->rank == root && tide_port_parse(port_name, &p) != 0)
        bad = 1;
    struct tide_comm *ic = NULL;
    if (bad) {
        /* tell the group, so nobody waits for a connection that cannot come */
        uint8_t none[TIDE_PORT_TOKEN_LEN] = {0};
        int pre = tide_err(MPI_ERR_PORT, "%s: '%.60s' is not a port name (argument port_name)", fn,
                           port_name ? port_name : "(null)");
        rc = tide_dpm_accept(none, root, c, 0, pre, &ic, fn);
        return tide_raise_comm(c, rc ? rc : pre);
    }
    rc = tide_dpm_connect(&p, root, c, timeout_of(info, "connect_timeout"), &ic, fn);
    if (rc)
        return tide_raise_comm(c, rc);
    tide_test_forge_envelope(ic);
    *newcomm = ic->handle;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Comm_connect)
