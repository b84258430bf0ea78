/*
 * state.h: the library's global state: whether MPI is initialised, the
 * thread level, who this process is, and the tuning values read once at
 * MPI_Init from the runtime parameters (common/params.def).
 */
#ifndef TIDE_STATE_H
#define TIDE_STATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mpi.h"

struct tide_proc;
struct tide_comm;

struct tide_tuning {
    size_t shm_eager_limit;
    size_t shm_eager_limit_coll;
    size_t shm_ring_size;
    size_t shm_eager_limit_oversub;
    size_t shm_ring_size_oversub;
    size_t shm_pipeline_chunk;
    size_t tcp_eager_limit;
    size_t self_eager_limit;
    bool shm_cma;
    int spin_count;
    int spin_count_oversub;
    long block_after_us;
    int pmix_timeout;
    bool modex_collect;
    char transports[64];
    char tcp_if[64];
    int verbose;
};

struct tide_state {
    int initialized;
    int finalized;
    int thread_level;
    pthread_t main_thread;
    bool have_pmix;          /* false: a singleton started without mpiexec */
    bool oversubscribed;     /* more ranks than cores here: yield, do not spin */
    char nspace[256];        /* our PMIx namespace ("singleton.<pid>" alone) */
    uint32_t rank;           /* our rank in MPI_COMM_WORLD */
    uint32_t size;           /* size of MPI_COMM_WORLD */
    uint32_t universe_size;
    uint32_t appnum;
    uint32_t local_rank, local_size;
    uint32_t *local_peers;   /* world ranks on this node */
    bool spawned;
    char parent_nspace[256];
    uint32_t parent_rank;
    char hostname[MPI_MAX_PROCESSOR_NAME];
    char session_dir[4096];  /* per-job directory for shared-memory files */
    struct tide_proc *me;
    uint32_t incarnation;    /* how many times the runtime went down before (runtime.c) */
    struct tide_tuning tuning;
};

extern struct tide_state tide;

/* True between MPI_Init and MPI_Finalize (the world model; sessions may
 * hold the runtime up outside it, runtime.h). */
static inline bool tide_is_active(void)
{
    return tide.initialized && !tide.finalized;
}

#endif
