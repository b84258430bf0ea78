/*
 * names.c: MPI_Publish_name, MPI_Unpublish_name, MPI_Lookup_name, through
 * PMIx to the daemon and mpiexec (and from there to the name service).
 * An unknown name is MPI_ERR_NAME; publishing a name that exists is
 * MPI_ERR_NAME too; unpublishing a name that is not there, or that another
 * process published, is MPI_ERR_SERVICE.
 */
#include "runtime/api.h"
#include "client.h"

#include <string.h>

#define SERVICE_MAX 511 /* PMIx keys are at most 511 characters */

static int check_service(const char *fn, const char *service)
{
    if (!service)
        return tide_err(MPI_ERR_ARG, "%s: service_name must not be NULL", fn);
    size_t n = strnlen(service, MPI_MAX_INFO_VAL + 1);
    if (n == 0)
        return tide_err(MPI_ERR_ARG, "%s: empty service_name", fn);
    if (n > SERVICE_MAX)
        return tide_err(MPI_ERR_ARG, "%s: service_name is longer than %d characters", fn, SERVICE_MAX);
    return MPI_SUCCESS;
}

static int check_port(const char *fn, const char *port)
{
    if (!port)
        return tide_err(MPI_ERR_ARG, "%s: port_name must not be NULL", fn);
    size_t n = strnlen(port, MPI_MAX_PORT_NAME + 1);
    if (n == 0 || n >= MPI_MAX_PORT_NAME)
        return tide_err(MPI_ERR_ARG, "%s: port_name must be 1 to %d characters", fn, MPI_MAX_PORT_NAME - 1);
    return MPI_SUCCESS;
}

static int no_runtime(const char *fn)
{
    return tide_err(MPI_ERR_SERVICE, "%s: this process was not started by mpiexec: there is no name service", fn);
}

int PMPI_Publish_name(const char *service_name, MPI_Info info, const char *port_name)
{
    TIDE_API_ENTER();
    (void)info;
    const char *fn = "MPI_Publish_name";
    int rc = check_service(fn, service_name);
    if (!rc)
        rc = check_port(fn, port_name);
    if (!rc && !tide.have_pmix)
        rc = no_runtime(fn);
    if (rc)
        return tide_raise(rc);
    switch (tide_pmix_publish(service_name, port_name)) {
    case TIDE_PMIX_NAME_OK: return MPI_SUCCESS;
    case TIDE_PMIX_NAME_DUPLICATE:
        return TIDE_ERR(MPI_ERR_NAME, "%s: '%s' is already published", fn, service_name);
    default: return TIDE_ERR(MPI_ERR_SERVICE, "%s: the name service refused or cannot be reached", fn);
    }
}
TIDE_ALIAS(MPI_Publish_name)

int PMPI_Unpublish_name(const char *service_name, MPI_Info info, const char *port_name)
{
    TIDE_API_ENTER();
    (void)info;
    const char *fn = "MPI_Unpublish_name";
    int rc = check_service(fn, service_name);
    if (!rc)
        rc = check_port(fn, port_name);
    if (!rc && !tide.have_pmix)
        rc = no_runtime(fn);
    if (rc)
        return tide_raise(rc);
    switch (tide_pmix_unpublish(service_name)) {
    case TIDE_PMIX_NAME_OK: return MPI_SUCCESS;
    case TIDE_PMIX_NAME_NOT_FOUND:
        return TIDE_ERR(MPI_ERR_SERVICE, "%s: '%s' is not published (argument service_name)", fn, service_name);
    case TIDE_PMIX_NAME_NOT_OWNER:
        return TIDE_ERR(MPI_ERR_SERVICE, "%s: '%s' was published by another process", fn, service_name);
    default: return TIDE_ERR(MPI_ERR_SERVICE, "%s: the name service refused or cannot be reached", fn);
    }
}
TIDE_ALIAS(MPI_Unpublish_name)

int PMPI_Lookup_name(const char *service_name, MPI_Info info, char *port_name)
{
    TIDE_API_ENTER();
    (void)info;
    const char *fn = "MPI_Lookup_name";
    int rc = check_service(fn, service_name);
    if (!rc && !port_name)
        rc = tide_err(MPI_ERR_ARG, "%s: port_name must not be NULL", fn);
    if (!rc && !tide.have_pmix)
        rc = no_runtime(fn);
    if (rc)
        return tide_raise(rc);
    switch (tide_pmix_lookup(service_name, port_name, MPI_MAX_PORT_NAME)) {
    case TIDE_PMIX_NAME_OK: return MPI_SUCCESS;
    case TIDE_PMIX_NAME_NOT_FOUND:
        return TIDE_ERR(MPI_ERR_NAME, "%s: no port is published as '%s' (argument service_name)", fn, service_name);
    default: return TIDE_ERR(MPI_ERR_NAME, "%s: the name service cannot be reached", fn);
    }
}
TIDE_ALIAS(MPI_Lookup_name)
