/*
 * runtime.c: bringing the runtime up for its first user and down after
 * its last (runtime.h). Up: read the runtime parameters, learn who we are
 * from PMIx (or become a singleton), bring up the datatype, operation and
 * messaging layers, exchange business cards, and build the internal
 * MPI_COMM_WORLD and MPI_COMM_SELF. Down: delete the attributes left on
 * MPI_COMM_SELF, deliver pending buffered sends, meet every rank in a
 * fence so no peer is still reading our memory, shut the layers down in
 * reverse order, so a later user starts afresh (PMIx, joined once, is
 * left at exit; a later start publishes its new business card under a
 * key of its own incarnation).
 */
#include "runtime/api.h"
#include "runtime/attr.h"
#include "runtime/abort.h"
#include "runtime/errhandler.h"
#include "runtime/jobdir.h"
#include "runtime/launch_check.h"
#include "runtime/modules.h"
#include "runtime/proc.h"
#include "runtime/runtime.h"
#include "runtime/stdout_mode.h"
#include "pt2pt/fastpath.h"
#include "pt2pt/lean.h"
#include "comm/comm.h"
#include "pt2pt/progress.h"
#include "client.h"
#include "params.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool finalize_told; /* the daemon's finalize pipe has had its 'F' */
/* PMIx is joined once and left at exit: the PMIx server (libpmix 4.2.2)
 * fails a fence across nodes of a client that left and joined again */
static bool pmix_joined;
static struct tide_pmix_self pmix_self;

static int users;

/* At exit. A process that ends with the runtime still up (no
 * MPI_Finalize) does not say goodbye to PMIx: its server is to see it
 * vanish and report it. */
static void leave_pmix(void)
{
    if (pmix_joined && users == 0)
        tide_pmix_finalize();
    pmix_joined = false;
    free(pmix_self.local_peers);
    pmix_self.local_peers = NULL;
}

int tide_runtime_users(void)
{
    return users;
}

static size_t param_size(const char *name, size_t dflt)
{
    long long v = tide_config_int(name);
    return v > 0 ? (size_t)v : dflt;
}

void tide_tuning_read(struct tide_tuning *t)
{
    t->shm_eager_limit = param_size("shm_eager_limit", 16384);
    t->shm_eager_limit_coll = param_size("shm_eager_limit_coll", 16384);
    t->shm_ring_size = param_size("shm_ring_size", 262144);
    t->shm_eager_limit_oversub = param_size("shm_eager_limit_oversub", 16384);
    t->shm_ring_size_oversub = param_size("shm_ring_size_oversub", 524288);
    t->shm_pipeline_chunk = param_size("shm_pipeline_chunk", 65536);
    t->tcp_eager_limit = param_size("tcp_eager_limit", 32768);
    t->self_eager_limit = param_size("self_eager_limit", 1 << 20);
    t->shm_cma = tide_config_int("shm_cma") != 0;
    t->spin_count = (int)tide_config_int("spin_count");
    t->spin_count_oversub = (int)tide_config_int("spin_count_oversub");
    t->block_after_us = tide_config_int("block_after_us");
    t->pmix_timeout = (int)tide_config_int("pmix_timeout");
    if (t->pmix_timeout <= 0)
        t->pmix_timeout = 30;
    t->modex_collect = tide_config_int("modex_collect") != 0;
    snprintf(t->transports, sizeof t->transports, "%s", tide_config_get("transports"));
    snprintf(t->tcp_if, sizeof t->tcp_if, "%s", tide_config_get("tcp_if"));
    t->verbose = (int)tide_config_int("verbose");
}

static int identify(const char *fn, char *err, size_t errlen)
{
    if (tide_pmix_available()) {
        if (!pmix_joined) {
            if (tide_pmix_init(&pmix_self, err, errlen) != 0)
                return -1;
            pmix_joined = true;
            atexit(leave_pmix);
        }
        struct tide_pmix_self self = pmix_self;
        self.local_peers = malloc((self.local_size ? self.local_size : 1) * sizeof(uint32_t));
        if (!self.local_peers) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        memcpy(self.local_peers, pmix_self.local_peers, self.local_size * sizeof(uint32_t));
        tide.have_pmix = true;
        snprintf(tide.nspace, sizeof tide.nspace, "%s", self.nspace);
        tide.rank = self.rank;
        tide.size = self.job_size;
        tide.universe_size = self.universe_size;
        tide.appnum = self.appnum;
        tide.local_rank = self.local_rank;
        tide.local_size = self.local_size;
        tide.local_peers = self.local_peers;
        tide.spawned = self.spawned != 0;
        snprintf(tide.parent_nspace, sizeof tide.parent_nspace, "%s", self.parent_nspace);
        tide.parent_rank = self.parent_rank;
        if (self.hostname[0])
            snprintf(tide.hostname, sizeof tide.hostname, "%s", self.hostname);
    } else {
        /* no server: a singleton, unless a launcher started several */
        char why[256];
        if (tide_launch_check_singleton(why, sizeof why) != 0) {
            char line[320];
            snprintf(line, sizeof line, "%s: %s", fn, why);
            tide_abort_job(1, line);
        }
        char host[128] = "localhost";
        gethostname(host, sizeof host - 1);
        snprintf(tide.nspace, sizeof tide.nspace, "singleton.%s.%d", host, (int)getpid());
        tide.rank = 0;
        tide.size = 1;
        tide.universe_size = 1;
        tide.appnum = 0;
        tide.local_rank = 0;
        tide.local_size = 1;
        tide.local_peers = calloc(1, sizeof(uint32_t));
    }
    if (!tide.hostname[0])
        gethostname(tide.hostname, sizeof tide.hostname - 1);
    const char *over = getenv("TIDE_OVERSUBSCRIBED");
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    tide.oversubscribed = (over && strcmp(over, "1") == 0) ||
                          (ncpu > 0 && (long)tide.local_size > ncpu);
    tide_jobdir_pick(tide.have_pmix ? pmix_self.nsdir : NULL);
    tide.me = tide_proc_get(tide.nspace, tide.rank);
    if (!tide.me) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    tide.me->local = true;
    tide.me->locality_known = true;
    for (uint32_t i = 0; i < tide.local_size && tide.local_peers; i++) {
        struct tide_proc *p = tide_proc_get(tide.nspace, tide.local_peers[i]);
        if (p) {
            p->local = true;
            p->locality_known = true;
        }
    }
    return 0;
}

/* A failure is returned as an error code carrying its reason; MPI_Init
 * hands it to the initial error handler (init.c). */
static int bring_up(const char *fn)
{
    char err[512];
    tide_config_load(NULL, err, sizeof err);
    tide_stdout_line_buffer();
    tide_tuning_read(&tide.tuning);
    tide.main_thread = pthread_self();
    tide_handles_reserve_predefined();
    tide_errhandler_init();
    if (identify(fn, err, sizeof err) != 0)
        return tide_err(MPI_ERR_OTHER, "%s: cannot join the job: %s", fn, err);
    tide_attr_init_predefined();
    if (tide_modules_init(err, sizeof err) != 0)
        return tide_err(MPI_ERR_OTHER, "%s: %s", fn, err);
    if (tide_comm_init_predefined() != 0)
        return tide_err(MPI_ERR_NO_MEM, "%s: cannot create MPI_COMM_WORLD", fn);
    if (tide_modules_wireup(err, sizeof err) != 0)
        return tide_err(MPI_ERR_OTHER, "%s: %s", fn, err);
    return MPI_SUCCESS;
}

int tide_runtime_acquire(int required, const char *fn)
{
    if (required < MPI_THREAD_SINGLE)
        required = MPI_THREAD_SINGLE;
    if (required > MPI_THREAD_MULTIPLE)
        required = MPI_THREAD_MULTIPLE;
    if (users == 0) {
        int rc = bring_up(fn);
        if (rc != MPI_SUCCESS)
            return rc;
        tide.thread_level = required;
    } else if (required > tide.thread_level) {
        tide.thread_level = required;
    }
    tide_thread_multiple = tide.thread_level == MPI_THREAD_MULTIPLE;
    tide_fastpath_on = tide_thread_multiple && tide_config_int("thread_fastpath") != 0;
    tide_lean_update(true);
    users++;
    return MPI_SUCCESS;
}

struct fence_wait {
    volatile bool done;
    bool ok;
};

static void fence_done(int ok, void *arg)
{
    struct fence_wait *fw = arg;
    fw->ok = ok != 0;
    __atomic_store_n(&fw->done, true, __ATOMIC_RELEASE);
    tide_progress_wake();
}

static int tear_down(void)
{
    int rc = tide_attr_delete_all(TIDE_ATTR_COMM, MPI_COMM_SELF, &tide_comm_self->attrs);
    if (rc != MPI_SUCCESS)
        return rc;
    tide_modules_quiesce();
    /* (in recovery mode the runtime's fences go on without failed
     * processes: docs/FAULTS.md) */
    if (tide.have_pmix) {
        /* keep serving peers while the others arrive: one may still need
         * us to accept its connection or answer its protocol messages */
        struct fence_wait fw = {false, false};
        if (tide_pmix_fence_nb(0, fence_done, &fw) == 0)
            tide_progress_wait_flag(&fw.done);
        else
            tide_pmix_fence(0);
    }
    tide_modules_finalize();
    tide_jobdir_release();
    tide_comm_finalize_predefined();
    tide_proc_table_forget_transports();
    /* tell the daemon this rank finalised (it reports ranks that exit
     * without MPI_Finalize); once: the descriptor is closed after it */
    const char *ffd = getenv("TIDE_FINALIZE_FD");
    if (ffd && !finalize_told) {
        int fd = atoi(ffd);
        if (fd > 2 && write(fd, "F", 1) == 1)
            close(fd);
        finalize_told = true;
    }
    tide.have_pmix = false;
    tide.incarnation++;
    free(tide.local_peers);
    tide.local_peers = NULL;
    tide.me = NULL;
    tide.hostname[0] = '\0';
    tide.size = 0;
    return MPI_SUCCESS;
}

int tide_runtime_release(const char *fn)
{
    if (users <= 0)
        return tide_err(MPI_ERR_OTHER, "%s: the runtime is not up", fn);
    if (users > 1) {
        users--;
        return MPI_SUCCESS;
    }
    tide_lean_update(false);
    int rc = tear_down();
    if (rc != MPI_SUCCESS) {
        tide_lean_update(true);
        return rc;
    }
    /* the thread level stays as it was until the next start sets it: the
     * caller may hold the library lock, and releases it by that level */
    users = 0;
    return MPI_SUCCESS;
}
