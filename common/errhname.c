/*
 * errhname.c: parsing the names of the initial error handler
 * (errhname.h).
 */
#include "errhname.h"

#include <stddef.h>
#include <strings.h>

enum tide_errh_kind tide_errh_parse(const char *name)
{
    if (!name || !*name)
        return TIDE_ERRH_ARE_FATAL;
    if (strncasecmp(name, "mpi_", 4) == 0)
        name += 4;
    if (strcasecmp(name, "errors_are_fatal") == 0)
        return TIDE_ERRH_ARE_FATAL;
    if (strcasecmp(name, "errors_abort") == 0)
        return TIDE_ERRH_ABORT;
    if (strcasecmp(name, "errors_return") == 0)
        return TIDE_ERRH_RETURN;
    return TIDE_ERRH_INVALID;
}

const char *tide_errh_name(enum tide_errh_kind kind)
{
    switch (kind) {
    case TIDE_ERRH_ABORT:
        return "mpi_errors_abort";
    case TIDE_ERRH_RETURN:
        return "mpi_errors_return";
    default:
        return "mpi_errors_are_fatal";
    }
}
