/*
 * jobdesc.h: the description of one job (its app contexts, the map of ranks
 * to nodes, and its place in the universe), as mpiexec builds it and as it
 * travels to each tided in TIDE_CTL_LAUNCH.
 */
#ifndef TIDE_JOBDESC_H
#define TIDE_JOBDESC_H

#include <stdint.h>
#include "wire.h"

#define TIDE_JOB_MAX_PROCS (1 << 20)

struct tide_app {
    int np;           /* processes of this app context */
    int first_rank;   /* its first rank in the job */
    char *exe;        /* resolved path of the executable */
    char **argv;      /* argv[0] included */
    char **env;       /* NAME=VALUE set for these ranks (from -x / --env) */
    char *wdir;       /* working directory (NULL: inherit) */
};

enum tide_job_flags {
    TIDE_JOB_TAG_OUTPUT = 1u << 0,
    TIDE_JOB_SPAWNED = 1u << 1,
    TIDE_JOB_REPORT_BINDINGS = 1u << 2, /* each daemon prints its ranks' bindings */
    TIDE_JOB_RECOVERY = 1u << 3,        /* recovery mode: a rank's failure does not end the
                                         * run; the survivors get a PMIx event (docs/FAULTS.md) */
    TIDE_JOB_STDOUT_PTY = 1u << 4,      /* ranks' stdout is a pseudo-terminal (parameter stdout_pty) */
};

/* How a daemon binds its ranks (binding.c in the daemon). */
enum tide_bind_policy {
    TIDE_BIND_DEFAULT = 0, /* core when the node's ranks fit its cores, else none */
    TIDE_BIND_NONE = 1,
    TIDE_BIND_CORE = 2,
    TIDE_BIND_SOCKET = 3,
    TIDE_BIND_NUMA = 4,
    TIDE_BIND_HWTHREAD = 5,
};

struct tide_job {
    uint32_t jobid;     /* index of the job within this mpiexec's universe */
    char *nspace;       /* PMIx namespace */
    int nprocs;
    int universe_size;
    uint32_t flags;
    int napps;
    struct tide_app *apps;
    int nnodes;
    char **hosts;       /* hostname of each node */
    int *node_slots;    /* slots of each node */
    int *rank_node;     /* node index of each rank */
    char *parent_nspace; /* spawned jobs: the parent (else NULL) */
    int parent_rank;
    char **params;      /* TIDE_<NAME>=VALUE settings for the ranks */
    int bind_policy;    /* enum tide_bind_policy */
    int cpus_per_rank;  /* cores (or hwthreads) each rank is bound to; 1 if unset */
};

void tide_job_encode(const struct tide_job *job, struct tide_wbuf *w);
/* Decode and validate. Returns 0, or -1 with a reason in err. */
int tide_job_decode(struct tide_rbuf *r, struct tide_job *job, char *err, size_t errlen);
void tide_job_free(struct tide_job *job);
/* The app context a rank belongs to. */
int tide_job_app_of(const struct tide_job *job, int rank);

#endif
