/*
 * spawn.c: MPI_Comm_spawn, MPI_Comm_spawn_multiple and MPI_Comm_get_parent.
 * The root asks the runtime to start the children (PMIx_Spawn: tided and
 * mpiexec map and launch them and answer once they have been exec'd),
 * passing each child a one-time token. The children, in MPI_Init, connect
 * back to the root with that token (bridge.c), so parents and children
 * build their intercommunicator exactly as connect/accept does.
 * Reserved info keys: host, wdir, path, soft, file (a file of further
 * "key value" lines), arch (accepted, this machine's architecture only),
 * enable_recovery ("true"/"false": the children's job in recovery mode or
 * not, whatever mpiexec's default; docs/FAULTS.md), mpi_initial_errhandler
 * (MPI 4.0: the children's initial error handler, mpi_errors_are_fatal,
 * mpi_errors_abort or mpi_errors_return; by default the parents' job's).
 */
#include "runtime/api.h"
#include "argv.h"
#include "client.h"
#include "comm/comm.h"
#include "comm/endpoints.h"
#include "comm/exchange.h"
#include "dpm/dpm.h"
#include "errhname.h"
#include "params.h"
#include "runtime/info.h"
#include "runtime/proc.h"
#include "transport/card.h"

#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static struct tide_comm *parent_comm;

struct tide_comm *tide_dpm_parent(void)
{
    return parent_comm;
}

void tide_dpm_clear_parent(struct tide_comm *c)
{
    if (parent_comm == c)
        parent_comm = NULL;
}

struct app_keys {
    char *host, *wdir, *path, *soft, *recovery, *errhandler;
};

static void keys_free(struct app_keys *k)
{
    free(k->host);
    free(k->wdir);
    free(k->path);
    free(k->soft);
    free(k->recovery);
    free(k->errhandler);
}

static void set_key(struct app_keys *k, const char *key, const char *val)
{
    char **slot = strcmp(key, "host") == 0 ? &k->host
                  : strcmp(key, "wdir") == 0 ? &k->wdir
                  : strcmp(key, "path") == 0 ? &k->path
                  : strcmp(key, "soft") == 0 ? &k->soft
                  : strcmp(key, "enable_recovery") == 0 ? &k->recovery
                  : strcmp(key, "mpi_initial_errhandler") == 0 ? &k->errhandler
                                                               : NULL;
    if (slot) {
        free(*slot);
        *slot = strdup(val);
    }
}

/* The reserved keys of one command's info (and of its "file"). */
static int read_keys(MPI_Info info, struct app_keys *k, const char *fn)
{
    memset(k, 0, sizeof *k);
    if (info == MPI_INFO_NULL)
        return MPI_SUCCESS;
    struct tide_info *i = tide_info_get(info);
    if (!i)
        return tide_err(MPI_ERR_INFO, "%s: invalid info object", fn);
    const char *file = tide_info_lookup(i, "file");
    if (file) {
        FILE *f = fopen(file, "r");
        if (!f)
            return tide_err(MPI_ERR_SPAWN, "%s: cannot read the info file '%s' (info key file)", fn, file);
        char line[2048];
        while (fgets(line, sizeof line, f)) {
            char key[64], val[1900];
            if (sscanf(line, " %63s %1899[^\n]", key, val) == 2 && key[0] != '#')
                set_key(k, key, val);
        }
        fclose(f);
    }
    const char *hostfile = tide_info_lookup(i, "hostfile");
    if (hostfile && !tide_info_lookup(i, "host")) {
        /* the hosts of a hostfile (first word of each line, any ":N" or
         * slots=N dropped) become the host list */
        FILE *f = fopen(hostfile, "r");
        if (!f) {
            keys_free(k);
            return tide_err(MPI_ERR_SPAWN, "%s: cannot read the hostfile '%s' (info key hostfile)", fn, hostfile);
        }
        char line[1024], list[4096] = "";
        size_t len = 0;
        while (fgets(line, sizeof line, f)) {
            char name[256];
            if (sscanf(line, " %255[^ \t\n#:]", name) != 1)
                continue;
            int n = snprintf(list + len, sizeof list - len, "%s%s", len ? "," : "", name);
            if (n > 0 && len + (size_t)n < sizeof list)
                len += (size_t)n;
        }
        fclose(f);
        if (len == 0) {
            keys_free(k);
            return tide_err(MPI_ERR_SPAWN, "%s: the hostfile '%s' names no host (info key hostfile)", fn, hostfile);
        }
        set_key(k, "host", list);
    }
    static const char *const names[] = {"host", "wdir", "path", "soft", "enable_recovery",
                                        "mpi_initial_errhandler"};
    for (size_t n = 0; n < sizeof names / sizeof names[0]; n++) {
        const char *v = tide_info_lookup(i, names[n]);
        if (v)
            set_key(k, names[n], v);
    }
    if (k->errhandler) {
        enum tide_errh_kind eh = tide_errh_parse(k->errhandler);
        if (eh == TIDE_ERRH_INVALID || !*k->errhandler) {
            int rc = tide_err(MPI_ERR_INFO_VALUE, "%s: '%.64s' is not " TIDE_ERRH_CHOICES
                                                  " (info key mpi_initial_errhandler)",
                              fn, k->errhandler);
            keys_free(k);
            return rc;
        }
        free(k->errhandler);
        k->errhandler = strdup(tide_errh_name(eh));
    }
    const char *arch = tide_info_lookup(i, "arch");
    if (arch && strcmp(arch, "x86_64") != 0 && strcmp(arch, "amd64") != 0 && strcmp(arch, "*") != 0) {
#if defined(__x86_64__)
        keys_free(k);
        return tide_err(MPI_ERR_SPAWN, "%s: architecture '%s' is not available (info key arch)", fn, arch);
#endif
    }
    return MPI_SUCCESS;
}

static void hex(const uint8_t *b, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
}

/* ---- spawning from a singleton ----
 * A process started without mpiexec has no runtime to ask. It starts an
 * mpiexec of its own for the children (a universe of their own, found
 * next to this library) and gives them a port of its own to connect back
 * to, so parents and children meet exactly as in connect/accept. */

static pid_t *singleton_runs;
static int nsingleton_runs;

static int find_mpiexec(char *out, size_t len)
{
    const char *env = getenv("TIDE_MPIEXEC");
    if (env && access(env, X_OK) == 0) {
        snprintf(out, len, "%s", env);
        return 0;
    }
    Dl_info di;
    if (dladdr((void *)find_mpiexec, &di) && di.dli_fname) {
        char lib[PATH_MAX];
        if (realpath(di.dli_fname, lib)) {
            char *dir = dirname(lib);
            const char *rel[] = {"../bin/mpiexec", "../../bin/mpiexec"};
            for (int i = 0; i < 2; i++) {
                snprintf(out, len, "%s/%s", dir, rel[i]);
                if (access(out, X_OK) == 0)
                    return 0;
            }
        }
    }
    return -1;
}

static int singleton_spawn(const struct tide_spawn_app *apps, int count, const char *tok, const char *fn)
{
    char mpiexec[PATH_MAX];
    if (find_mpiexec(mpiexec, sizeof mpiexec) != 0)
        return tide_err(MPI_ERR_SPAWN, "%s: cannot find Tide's mpiexec to start the processes (set TIDE_MPIEXEC)",
                        fn);
    struct tide_port p;
    memset(&p, 0, sizeof p);
    snprintf(p.nspace, sizeof p.nspace, "%s", tide.nspace);
    p.rank = tide.rank;
    snprintf(p.card, sizeof p.card, "%s", tide_card_text());
    if (tide_port_unhex(tok, strlen(tok), p.token, TIDE_PORT_TOKEN_LEN) != 0)
        return tide_err(MPI_ERR_SPAWN, "%s: internal error (port token)", fn);
    char port[MPI_MAX_PORT_NAME];
    if (tide_port_format(&p, port, sizeof port) != 0)
        return tide_err(MPI_ERR_SPAWN, "%s: internal error (port name)", fn);
    char **argv = NULL;
    tide_argv_append(&argv, mpiexec);
    char kv[MPI_MAX_PORT_NAME + 64];
    snprintf(kv, sizeof kv, "TIDE_SPAWN_PORT=%s", port);
    tide_argv_append(&argv, "-x");
    tide_argv_append(&argv, kv);
    for (int i = 0; i < count; i++) {
        if (i)
            tide_argv_append(&argv, ":");
        char n[16];
        snprintf(n, sizeof n, "%d", apps[i].maxprocs);
        tide_argv_append(&argv, "-n");
        tide_argv_append(&argv, n);
        if (apps[i].wdir) {
            tide_argv_append(&argv, "--wdir");
            tide_argv_append(&argv, apps[i].wdir);
        }
        for (size_t k = 0; apps[i].env && apps[i].env[k]; k++)
            if (strncmp(apps[i].env[k], "TIDE_INITIAL_ERRHANDLER=", 24) == 0) {
                tide_argv_append(&argv, "--env");
                tide_argv_append(&argv, apps[i].env[k]);
            }
        for (size_t k = 0; apps[i].argv[k]; k++)
            tide_argv_append(&argv, apps[i].argv[k]);
    }
    pid_t pid = fork();
    if (pid < 0) {
        tide_argv_free(argv);
        return tide_err(MPI_ERR_SPAWN, "%s: fork failed", fn);
    }
    if (pid == 0) {
        execv(mpiexec, argv);
        _exit(127);
    }
    tide_argv_free(argv);
    pid_t *nr = realloc(singleton_runs, (size_t)(nsingleton_runs + 1) * sizeof *nr);
    if (nr) {
        singleton_runs = nr;
        singleton_runs[nsingleton_runs++] = pid;
    }
    return MPI_SUCCESS;
}

/* MPI_Finalize of a singleton: its children's mpiexecs end with them. */
void tide_dpm_wait_singleton_runs(void)
{
    for (int i = 0; i < nsingleton_runs; i++)
        waitpid(singleton_runs[i], NULL, 0);
    free(singleton_runs);
    singleton_runs = NULL;
    nsingleton_runs = 0;
}

/* Root only: start the children. Returns MPI_SUCCESS or an error code. */
static int root_spawn(int count, char *cmds[], char **argvs[], const int maxprocs[], const MPI_Info infos[],
                      const uint8_t token[TIDE_PORT_TOKEN_LEN], const char *fn)
{
    struct tide_spawn_app *apps = calloc((size_t)count, sizeof *apps);
    struct app_keys *keys = calloc((size_t)count, sizeof *keys);
    char **envs[64];
    int rc = MPI_SUCCESS;
    if (!apps || !keys || count > 64) {
        free(apps);
        free(keys);
        return tide_err(MPI_ERR_SPAWN, "%s: too many commands", fn);
    }
    char tok[2 * TIDE_PORT_TOKEN_LEN + 1], parent[300];
    hex(token, TIDE_PORT_TOKEN_LEN, tok);
    snprintf(parent, sizeof parent, "%s:%u", tide.nspace, tide.rank);
    int made = 0;
    for (int i = 0; i < count && rc == MPI_SUCCESS; i++) {
        if (!cmds[i] || !*cmds[i]) {
            rc = tide_err(MPI_ERR_SPAWN, "%s: empty command %d", fn, i);
            break;
        }
        if (maxprocs[i] < 0) {
            rc = tide_err(MPI_ERR_ARG, "%s: negative maxprocs %d for command %d", fn, maxprocs[i], i);
            break;
        }
        rc = read_keys(infos ? infos[i] : MPI_INFO_NULL, &keys[i], fn);
        if (rc)
            break;
        char **argv = NULL;
        tide_argv_append(&argv, cmds[i]);
        for (size_t k = 0; argvs && argvs[i] && argvs[i][k]; k++)
            tide_argv_append(&argv, argvs[i][k]);
        envs[i] = NULL;
        tide_env_set(&envs[i], "TIDE_SPAWN_TOKEN", tok);
        tide_env_set(&envs[i], "TIDE_SPAWN_PARENT", parent);
        if (keys[i].errhandler) /* the children's parameter initial_errhandler */
            tide_env_set(&envs[i], "TIDE_INITIAL_ERRHANDLER", keys[i].errhandler);
        apps[i].cmd = cmds[i];
        apps[i].argv = argv;
        apps[i].env = envs[i];
        apps[i].maxprocs = maxprocs[i];
        apps[i].wdir = keys[i].wdir;
        apps[i].host = keys[i].host;
        apps[i].path = keys[i].path;
        apps[i].soft = keys[i].soft;
        apps[i].recovery = keys[i].recovery;
        made = i + 1;
    }
    int total = 0;
    for (int i = 0; i < made; i++)
        total += apps[i].maxprocs;
    if (rc == MPI_SUCCESS && total == 0)
        rc = tide_err(MPI_ERR_SPAWN, "%s: maxprocs is 0: nothing to spawn", fn);
    if (rc == MPI_SUCCESS && !tide.have_pmix) {
        rc = singleton_spawn(apps, count, tok, fn);
    } else if (rc == MPI_SUCCESS) {
        char ns[256];
        int sp = tide_pmix_spawn(apps, count, ns, sizeof ns);
        if (sp == 0)
            tide_dpm_expect_nspace(ns); /* the wait for them ends if one of them fails */
        if (sp == TIDE_PMIX_SPAWN_UNSUPPORTED)
            rc = tide_err(MPI_ERR_SPAWN,
                          "%s: this job's PMIx server cannot start processes (a job started by srun "
                          "--mpi=pmix): start the job with mpiexec to use MPI_Comm_spawn",
                          fn);
        else if (sp != 0)
            rc = tide_err(MPI_ERR_SPAWN,
                          "%s: the runtime could not start the processes (missing or unusable "
                          "executable, bad info keys, or not enough slots: see mpiexec's message)",
                          fn);
    }
    for (int i = 0; i < made; i++) {
        tide_argv_free(apps[i].argv);
        tide_argv_free(envs[i]);
        keys_free(&keys[i]);
    }
    free(apps);
    free(keys);
    return rc;
}

static int spawn_common(const char *fn, int count, char *cmds[], char **argvs[], const int maxprocs[],
                        const MPI_Info infos[], int root, MPI_Comm comm, MPI_Comm *intercomm, int errcodes[])
{
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "%s: invalid communicator (argument comm)", fn);
    if (c->is_inter)
        return TIDE_ERR_COMM(c, MPI_ERR_COMM, "%s: comm must be an intracommunicator", fn);
    int refused = tide_ep_refuse(c, fn);
    if (refused)
        return refused;
    if (root < 0 || root >= c->size)
        return TIDE_ERR_COMM(c, MPI_ERR_ROOT, "%s: invalid root %d (argument root)", fn, root);
    if (!intercomm)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: intercomm must not be NULL", fn);
    uint8_t token[TIDE_PORT_TOKEN_LEN] = {0};
    int pre = MPI_SUCCESS, requested = 0;
    if (c->rank == root) {
        if (count <= 0 || !cmds || !maxprocs) {
            pre = tide_err(MPI_ERR_ARG, "%s: invalid count or arrays of commands/maxprocs", fn);
        } else {
            for (int i = 0; i < count; i++)
                requested += maxprocs[i] > 0 ? maxprocs[i] : 0;
            tide_port_open_internal(token);
            pre = root_spawn(count, cmds, argvs, maxprocs, infos, token, fn);
        }
    }
    /* everyone learns how many were asked for (for the error codes) */
    int64_t req64 = requested;
    tide_exchange_bcast(c, &req64, sizeof req64, root);
    struct tide_comm *ic = NULL;
    double timeout = (double)tide_config_int("connect_timeout");
    int rc = tide_dpm_accept(token, root, c, timeout, pre, &ic, fn);
    if (c->rank == root) {
        tide_port_close_token(token);
        tide_dpm_expect_nspace(NULL);
    }
    int nchildren = ic ? ic->remote_size : 0;
    /* every rank's errcodes: bindings read them after the collective call
     * on all ranks, so every rank gets the root's outcome */
    if (errcodes != MPI_ERRCODES_IGNORE)
        for (int i = 0; i < (int)req64; i++)
            errcodes[i] = (rc == MPI_SUCCESS && i < nchildren) ? MPI_SUCCESS : MPI_ERR_SPAWN;
    if (rc) {
        *intercomm = MPI_COMM_NULL;
        return tide_raise_comm(c, rc);
    }
    *intercomm = ic->handle;
    return MPI_SUCCESS;
}

int PMPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root, MPI_Comm comm,
                    MPI_Comm *intercomm, int array_of_errcodes[])
{
    TIDE_API_ENTER();
    char *cmds[1] = {(char *)command};
    char **argvs[1] = {argv};
    int mp[1] = {maxprocs};
    MPI_Info infos[1] = {info};
    return spawn_common("MPI_Comm_spawn", 1, cmds, argvs, mp, infos, root, comm, intercomm, array_of_errcodes);
}
TIDE_ALIAS(MPI_Comm_spawn)

int PMPI_Comm_spawn_multiple(int count, char *array_of_commands[], char **array_of_argv[],
                             const int array_of_maxprocs[], const MPI_Info array_of_info[], int root, MPI_Comm comm,
                             MPI_Comm *intercomm, int array_of_errcodes[])
{
    TIDE_API_ENTER();
    return spawn_common("MPI_Comm_spawn_multiple", count, array_of_commands, array_of_argv, array_of_maxprocs,
                        array_of_info, root, comm, intercomm, array_of_errcodes);
}
TIDE_ALIAS(MPI_Comm_spawn_multiple)

int PMPI_Comm_get_parent(MPI_Comm *parent)
{
    TIDE_API_ENTER();
    if (!parent)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Comm_get_parent: parent must not be NULL");
    *parent = parent_comm && !parent_comm->freed ? parent_comm->handle : MPI_COMM_NULL;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Comm_get_parent)

/* In MPI_Init of a spawned job: join the parents. */
int tide_dpm_init_child(void)
{
    const char *sport = getenv("TIDE_SPAWN_PORT");
    if (sport) { /* started for a singleton: its port is in the environment */
        struct tide_port sp;
        if (tide_port_parse(sport, &sp) != 0)
            return tide_err(MPI_ERR_SPAWN, "MPI_Init: malformed TIDE_SPAWN_PORT");
        struct tide_comm *ic = NULL;
        int rc = tide_dpm_connect(&sp, 0, tide_comm_world, (double)tide_config_int("connect_timeout"), &ic,
                                  "MPI_Init (connecting to the parent process)");
        if (rc)
            return rc;
        snprintf(ic->name, sizeof ic->name, "MPI_COMM_PARENT");
        parent_comm = ic;
        unsetenv("TIDE_SPAWN_PORT");
        return MPI_SUCCESS;
    }
    const char *tok = getenv("TIDE_SPAWN_TOKEN");
    if (!tide.spawned || !tok)
        return MPI_SUCCESS;
    struct tide_port p;
    memset(&p, 0, sizeof p);
    snprintf(p.nspace, sizeof p.nspace, "%s", tide.parent_nspace);
    p.rank = tide.parent_rank;
    if (tide_port_unhex(tok, strlen(tok), p.token, TIDE_PORT_TOKEN_LEN) != 0)
        return tide_err(MPI_ERR_SPAWN, "MPI_Init: malformed spawn token");
    struct tide_proc *pp = tide_proc_get(p.nspace, p.rank);
    struct tide_card card;
    if (tide.rank == 0 && (!pp || tide_card_of(pp, &card) != 0))
        return tide_err(MPI_ERR_SPAWN, "MPI_Init: cannot find the parent process %s:%u", p.nspace, p.rank);
    if (pp && pp->card)
        snprintf(p.card, sizeof p.card, "%s", (const char *)pp->card);
    struct tide_comm *ic = NULL;
    int rc = tide_dpm_connect(&p, 0, tide_comm_world, (double)tide_config_int("connect_timeout"), &ic,
                              "MPI_Init (connecting to the parent job)");
    if (rc)
        return rc;
    snprintf(ic->name, sizeof ic->name, "MPI_COMM_PARENT");
    parent_comm = ic;
    return MPI_SUCCESS;
}
