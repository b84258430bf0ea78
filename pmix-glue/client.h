/*
 * client.h: libmpi's use of PMIx as a client. Hides libpmix types from
 * the rest of libmpi; every lookup has a timeout so nothing waits forever.
 */
#ifndef TIDE_PMIX_CLIENT_H
#define TIDE_PMIX_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#define TIDE_NSPACE_MAX 256

struct tide_pmix_self {
    char nspace[TIDE_NSPACE_MAX];
    uint32_t rank;
    uint32_t job_size;
    uint32_t universe_size;
    uint32_t appnum;
    uint32_t local_rank;
    uint32_t local_size;
    uint32_t node_id;
    int spawned;
    char parent_nspace[TIDE_NSPACE_MAX];
    uint32_t parent_rank;
    char hostname[256];
    char nsdir[4096];      /* the server's per-job directory (PMIX_NSDIR), or "" */
    uint32_t *local_peers; /* ranks of this job on this node (local_size) */
};

/* True if this process was started by a PMIx server (mpiexec/tided). */
int tide_pmix_available(void);
/* The PMIx library's version string ("4.2.2"), for the library version. */
const char *tide_pmix_version(void);
int tide_pmix_init(struct tide_pmix_self *self, char *err, size_t errlen);
int tide_pmix_finalize(void);
/* Publish a blob under key for every peer (PMIX_GLOBAL), then commit. */
int tide_pmix_put(const char *key, const void *data, size_t len);
int tide_pmix_commit(void);
/* Fence over the whole of our namespace. */
int tide_pmix_fence(int collect);
/* Start a fence of the whole job; done(ok, arg) runs on the PMIx thread
 * when it completes (ok: 1 success, 0 failure). Returns -1 if it could not
 * start (done is not called then). */
int tide_pmix_fence_nb(int collect, void (*done)(int ok, void *arg), void *arg);
/* Fetch a peer's blob. timeout in seconds. *data is malloc'd. */
int tide_pmix_get(const char *nspace, uint32_t rank, const char *key, void **data, size_t *len,
                  int timeout);
/* Fetch key of n peers at once (the requests travel together, so the
 * wait is about one round trip, not n): data[i] malloc'd and lens[i], or
 * data[i] NULL where that fetch failed. */
void tide_pmix_get_many(const char *const *nspaces, const uint32_t *ranks, const char *const *keys, int n,
                        void **data, size_t *lens, int timeout);
/* Fetch a peer's uint32 job/proc-level value (rank UINT32_MAX: wildcard). */
int tide_pmix_get_u32(const char *nspace, uint32_t rank, const char *key, uint32_t *value,
                      int timeout);
int tide_pmix_get_string(const char *nspace, uint32_t rank, const char *key, char *out, size_t outlen,
                         int timeout);
void tide_pmix_abort(int code, const char *msg);
/* Register a callback for failure events about other processes. */
typedef void (*tide_pmix_failure_fn)(const char *nspace, uint32_t rank, int exit_code);
int tide_pmix_on_failure(tide_pmix_failure_fn fn);

#define TIDE_PMIX_WILDCARD UINT32_MAX



/* ---- dynamic processes ---- */
struct tide_spawn_app {
    const char *cmd;
    char **argv;      /* argv[0] included */
    char **env;       /* NAME=VALUE for the children */
    int maxprocs;
    const char *wdir, *host, *path, *soft;
    const char *recovery; /* the enable_recovery info key ("true"/"false"), NULL: not given */
};
/* PMIx_Spawn; on success nspace gets the new job's namespace. Returns 0,
 * TIDE_PMIX_SPAWN_UNSUPPORTED when the server does not start processes
 * (Slurm's, under srun --mpi=pmix), -1 on any other failure. */
#define TIDE_PMIX_SPAWN_UNSUPPORTED (-2)
int tide_pmix_spawn(const struct tide_spawn_app *apps, int napps, char *nspace, size_t len);

enum tide_pmix_name_status {
    TIDE_PMIX_NAME_OK = 0,
    TIDE_PMIX_NAME_NOT_FOUND,
    TIDE_PMIX_NAME_DUPLICATE,
    TIDE_PMIX_NAME_NOT_OWNER,
    TIDE_PMIX_NAME_ERROR,
};
int tide_pmix_publish(const char *service, const char *port);
/* wait_s: 0 answer at once; >0 wait up to that many seconds for the name
 * to be published; <0 wait without limit */
int tide_pmix_lookup(const char *service, char *port, size_t len, int wait_s);
int tide_pmix_unpublish(const char *service);

#endif
