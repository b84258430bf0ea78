/*
 * env.c: environmental inquiries: version, library version, processor
 * name, clocks, MPI_Alloc_mem/MPI_Free_mem, MPI_Pcontrol, and the
 * address arithmetic of MPI-3.1 (MPI_Aint_add/diff).
 */
#include "config.h"
#include "runtime/api.h"
#include "transport/transport.h"
#include "client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int PMPI_Get_version(int *version, int *subversion)
{
    if (!version || !subversion)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Get_version: version and subversion must not be NULL");
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Get_version)

int PMPI_Get_library_version(char *version, int *resultlen)
{
    if (!version || !resultlen)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Get_library_version: version and resultlen must not be NULL");
    /* the version, then what this library was built with and what it
     * can use: transports, the PMIx library, the compiler, the options */
    int n = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING, "Tide MPI %s (MPI %d.%d); transports %s; PMIx %s; ",
                     TIDE_VERSION_STRING, MPI_VERSION, MPI_SUBVERSION, tide_transports_names(),
                     tide_pmix_version());
    if (n > 0 && n < MPI_MAX_LIBRARY_VERSION_STRING)
        snprintf(version + n, (size_t)(MPI_MAX_LIBRARY_VERSION_STRING - n), "built with %s %s, %s",
#ifdef __clang__
                 "clang",
#else
                 "gcc",
#endif
                 __VERSION__, TIDE_BUILD_CONFIG);
    *resultlen = (int)strlen(version);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Get_library_version)

int PMPI_Get_processor_name(char *name, int *resultlen)
{
    TIDE_API_ENTER();
    if (!name || !resultlen)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Get_processor_name: name and resultlen must not be NULL");
    char host[MPI_MAX_PROCESSOR_NAME];
    if (tide.hostname[0])
        snprintf(host, sizeof host, "%s", tide.hostname);
    else if (gethostname(host, sizeof host - 1) != 0)
        snprintf(host, sizeof host, "localhost");
    host[MPI_MAX_PROCESSOR_NAME - 1] = '\0';
    snprintf(name, MPI_MAX_PROCESSOR_NAME, "%s", host);
    *resultlen = (int)strlen(name);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Get_processor_name)

double PMPI_Wtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
TIDE_ALIAS(MPI_Wtime)

double PMPI_Wtick(void)
{
    struct timespec ts;
    if (clock_getres(CLOCK_MONOTONIC, &ts) != 0 || (ts.tv_sec == 0 && ts.tv_nsec == 0))
        return 1e-9;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
TIDE_ALIAS(MPI_Wtick)

int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
    TIDE_API_ENTER();
    (void)info;
    if (size < 0)
        return TIDE_ERR(MPI_ERR_SIZE, "MPI_Alloc_mem: negative size %ld (argument size)", (long)size);
    if (!baseptr)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Alloc_mem: baseptr must not be NULL");
    void *p = NULL;
    if (posix_memalign(&p, 64, size ? (size_t)size : 1) != 0)
        return TIDE_ERR(MPI_ERR_NO_MEM, "MPI_Alloc_mem: cannot allocate %ld bytes", (long)size);
    *(void **)baseptr = p;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Alloc_mem)

int PMPI_Free_mem(void *base)
{
    TIDE_API_ENTER();
    free(base);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Free_mem)

int PMPI_Pcontrol(const int level, ...)
{
    (void)level;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Pcontrol)

MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp)
{
    return (MPI_Aint)((char *)base + disp);
}
TIDE_ALIAS(MPI_Aint_add)

MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2)
{
    return (MPI_Aint)((char *)addr1 - (char *)addr2);
}
TIDE_ALIAS(MPI_Aint_diff)
