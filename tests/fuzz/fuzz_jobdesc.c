/*
 * fuzz_jobdesc.c: libFuzzer target for the job description decoder
 * (common/jobdesc.c), which tided runs on every TIDE_CTL_LAUNCH payload.
 * The input is the payload. A description that decodes must be internally
 * consistent (every index the daemon uses in range) and must encode back
 * to exactly the input.
 */
/* sources: common/jobdesc.c common/wire.c common/argv.c */
#include "jobdesc.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct tide_rbuf r;
    tide_wire_reader(&r, data, size);
    struct tide_job job;
    char err[256];
    if (tide_job_decode(&r, &job, err, sizeof err) != 0) {
        if (!memchr(err, '\0', sizeof err))
            abort();
        return 0;
    }
    /* what tided relies on */
    if (job.nprocs <= 0 || job.napps <= 0 || job.nnodes <= 0 || !job.nspace || !job.params)
        abort();
    for (int k = 0; k < job.nprocs; k++)
        if (job.rank_node[k] < 0 || job.rank_node[k] >= job.nnodes)
            abort();
    for (int n = 0; n < job.nnodes; n++)
        if (!job.hosts[n])
            abort();
    for (int a = 0; a < job.napps; a++)
        if (!job.apps[a].exe || !job.apps[a].argv || !job.apps[a].argv[0] || !job.apps[a].env)
            abort();
    for (int k = 0; k < job.nprocs && k < 1000; k++) {
        int a = tide_job_app_of(&job, k);
        if (a < 0 || a >= job.napps)
            abort();
    }
    /* encoding it again gives the input back */
    struct tide_wbuf w;
    tide_wire_begin(&w, 2);
    tide_job_encode(&job, &w);
    if (tide_wire_finish(&w) == 0 &&
        (w.len - TIDE_WIRE_HEADER != size || memcmp(w.data + TIDE_WIRE_HEADER, data, size) != 0))
        abort();
    tide_wire_free(&w);
    tide_job_free(&job);
    return 0;
}
