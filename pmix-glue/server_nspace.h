/*
 * server_nspace.h: what the daemon tells its PMIx server about a job: the
 * job-, app-, node- and process-level keys clients expect (see
 * ../shared/PMIX-NOTES.md, "What to register").
 */
#ifndef TIDE_SERVER_NSPACE_H
#define TIDE_SERVER_NSPACE_H

#include <pmix_server.h>
#include "jobdesc.h"

/* Build the info array for PMIx_server_register_nspace for the given job as
 * seen from node `node`. The caller frees with PMIX_INFO_FREE(info, ninfo).
 * nlocal receives the number of the job's ranks on that node. */
int tide_nspace_info(const struct tide_job *job, int node, pmix_info_t **info, size_t *ninfo,
                     int *nlocal);
/* Local rank of `rank` on its node (its index among the job's ranks there). */
int tide_nspace_local_rank(const struct tide_job *job, int rank);

#endif
