/*
 * names.c: MPI_Publish_name, MPI_Unpublish_name, MPI_Lookup_name, through
 * PMIx to the daemon and mpiexec (and from there to the name service).
 * An unknown name is MPI_ERR_NAME; publishing a name that exists is
 * MPI_ERR_NAME too; unpublishing a name that is not there, or that another
 * process published, is MPI_ERR_SERVICE.
 *
 * Names are shared with separately started jobs through the name service.
 * MPI_Lookup_name takes the info key "tide_lookup_wait": how many seconds
 * to wait for the name to be published ("forever" or -1: no limit), so a
 * job can be started before the one it looks for.
 */
#include "runtime/api.h"
#include "runtime/info.h"
#include "client.h"

#include <stdlib.h>
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
    const char *fn = "MPI_Lookup_name";
    int rc = check_service(fn, service_name);
    if (!rc && !port_name)
        rc = tide_err(MPI_ERR_ARG, "%s: port_name must not be NULL", fn);
    int wait_s = 0;
    const char *w = rc ? NULL : tide_info_lookup(tide_info_get(info), "tide_lookup_wait");
    if (w) {
        char *end;
        long v = strtol(w, &end, 10);
        if (strcmp(w, "forever") == 0 || strcmp(w, "true") == 0)
            wait_s = -1;
        else if (end != w && *end == '\0' && v >= -1 && v <= 1000000)
            wait_s = v == -1 ? -1 : (int)v;
        else
            rc = tide_err(MPI_ERR_INFO_VALUE,
                          "%s: info key tide_lookup_wait must be a number of seconds or \"forever\", not '%s'", fn,
                          w);
    }
    if (!rc && !tide.have_pmix)
        rc = no_runtime(fn);
    if (rc)
        return tide_raise(rc);
    switch (tide_pmix_lookup(service_name, port_name, MPI_MAX_PORT_NAME, wait_s)) {
    case TIDE_PMIX_NAME_OK: return MPI_SUCCESS;
    case TIDE_PMIX_NAME_NOT_FOUND:
        return TIDE_ERR(MPI_ERR_NAME, "%s: no port is published as '%s' (argument service_name)", fn, service_name);
    default: return TIDE_ERR(MPI_ERR_NAME, "%s: the name service cannot be reached", fn);
    }
}
TIDE_ALIAS(MPI_Lookup_name)
