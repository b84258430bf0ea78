/*
 * cmdline.c: parsing mpiexec's command line. Options accept the Open MPI
 * and MPICH spellings users type (-n/-np/-c, -x, -env/-genv, -wdir/-wd,
 * --tag-output, ...), in --opt=value form too. Per-app options apply to
 * their own app context of an MPMD line; the rest are global.
 */
#include "cmdline.h"
#include "argv.h"
#include "errhname.h"
#include "jobmap.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mpiexec_usage(FILE *f)
{
    fputs("Usage: mpiexec [options] program [args] [: [options] program [args] ...]\n"
          "\n"
          "Per application context:\n"
          "  -n, -np, -c N            number of processes (default: one per slot of the\n"
          "                           allocation, or N per node with ppr / -ppn)\n"
          "  --env NAME=VALUE         set NAME for these processes (also -env NAME VALUE)\n"
          "  --wdir DIR               working directory (also -wdir, -wd)\n"
          "\n"
          "Global:\n"
          "  -x NAME[=VALUE]          export NAME (with VALUE, or its current value) to all\n"
          "  -genv NAME VALUE         same as -x NAME=VALUE\n"
          "  --tag-output             prefix each output line with [rank]\n"
          "  --timeout SECONDS        end the job after SECONDS (exit status 124; also\n"
          "                           from the environment variable MPIEXEC_TIMEOUT)\n"
          "  --oversubscribe          allow more processes than slots (the default on this\n"
          "                           node alone; refused with --host, --hostfile, Slurm)\n"
          "  --no-oversubscribe       refuse to run more processes than slots\n"
          "  --universe-size N        value of MPI_UNIVERSE_SIZE (default: the slots)\n"
          "  --nameserver URI|@FILE   share published names through tide-nameserver\n"
          "  --enable-recovery        recovery mode: a rank that fails (killed, nonzero exit,\n"
          "                           exit without MPI_Finalize) or a lost node daemon does\n"
          "                           not end the job; every surviving rank gets a PMIx event\n"
          "                           per failed rank (also --with-ft ulfm, the parameter\n"
          "                           enable_recovery, and MPI_Comm_spawn's info key\n"
          "                           enable_recovery for one spawned job)\n"
          "  --disable-recovery       a failed rank ends the job (the default)\n"
          "  --initial-errhandler NAME\n"
          "                           MPI 4.0's initial error handler: what a failing\n"
          "                           MPI_Init does and the handler MPI_COMM_WORLD and\n"
          "                           MPI_COMM_SELF start with: mpi_errors_are_fatal\n"
          "                           (default), mpi_errors_abort or mpi_errors_return\n"
          "\n"
          "Allocation and mapping:\n"
          "  --host, -H, -hosts LIST  hosts to run on: h1:4,h2:4 (4 slots each) or h1,h1,h2\n"
          "                           (one slot per mention)\n"
          "  --hostfile, --machinefile, -f FILE\n"
          "                           one host a line: 'host', 'host slots=N [max_slots=M]'\n"
          "                           or 'host:N'; '#' starts a comment; a host without a\n"
          "                           count gets the cores of this machine; with --host,\n"
          "                           the hosts of the list (which must be in the file)\n"
          "                           Without either, a Slurm allocation (SLURM_JOB_NODELIST,\n"
          "                           SLURM_TASKS_PER_NODE) is used, else this node alone.\n"
          "  --map-by POLICY          slot (fill each host in turn; default), node (round-\n"
          "                           robin over hosts), core, socket (as slot between\n"
          "                           hosts), ppr:N:node, ppr:N:socket; modifiers :PE=n\n"
          "                           (cpus per rank), :OVERSUBSCRIBE, :NOOVERSUBSCRIBE\n"
          "  --rank-by slot|node      number ranks host by host, or round-robin over hosts\n"
          "  -ppn, --npernode N       N processes per host (same as --map-by ppr:N:node)\n"
          "  --cpus-per-rank N        cores per rank (also --cpus-per-proc; each takes N slots)\n"
          "  --bind-to core|socket|numa|hwthread|none\n"
          "                           what each rank is bound to\n"
          "  --report-bindings        print each rank's binding\n"
          "  --display-map            print the hosts and their ranks before launching\n"
          "  --launch-agent CMD       command that starts tided on other hosts (default ssh,\n"
          "                           srun inside Slurm; also -launcher-exec, -bootstrap-exec)\n"
          "  -launcher ssh|rsh|slurm|fork\n"
          "                           Hydra's choice of launcher (ssh and rsh set the agent)\n"
          "\n"
          "Accepted and ignored (a notice on stderr): --mca A B, --gmca A B,\n"
          "--allow-run-as-root, --prefix DIR.\n"
          "\n"
          "Other:\n"
          "  --stdin none|0           where mpiexec's stdin goes (default rank 0)\n"
          "  --param NAME=VALUE       set a runtime parameter (see --show-params)\n"
          "  --show-params            list every parameter, its value and its origin\n"
          "  -v, --verbose            log what the runtime does (repeat for more)\n"
          "  --version                print the version\n"
          "  -h, --help               this text\n"
          "\n"
          "Signals: SIGINT, SIGTERM and SIGHUP end the job (the ranks get SIGTERM, then\n"
          "SIGKILL; a second one kills at once), also while it is being launched.\n"
          "SIGUSR1 and SIGUSR2 are forwarded to every rank and the job goes on (batch\n"
          "systems send them ahead of a time limit); tided ignores them.\n"
          "\n"
          "Limits checked before launching (the job is refused, status 2): at most\n"
          "max_ranks_per_core ranks per core (default 64, also with --oversubscribe;\n"
          "--param max_ranks_per_core=0 lifts it), the slots with --no-oversubscribe,\n"
          "the user's process limit (ulimit -u), open files (ulimit -n: about 4 per\n"
          "rank; a soft limit below the hard one is raised), and the free space where\n"
          "session directories go (--param tmpdir=DIR) for shared-memory rings.\n",
          f);
}

static int parse_count(const char *s, int *out)
{
    if (!s || !*s)
        return -1;
    errno = 0;
    char *end;
    long v = strtol(s, &end, 10);
    if (errno || *end || v > INT_MAX || v < INT_MIN)
        return -1;
    *out = (int)v;
    return 0;
}

static bool is(const char *a, const char *name)
{
    return strcmp(a, name) == 0;
}

/* Match "-opt", "--opt" and "--opt=value". Sets *inline_val for the last. */
static bool opt_match(const char *arg, const char *name, const char **inline_val)
{
    *inline_val = NULL;
    const char *a = arg;
    if (a[0] != '-')
        return false;
    a++;
    if (a[0] == '-')
        a++;
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0)
        return false;
    if (a[n] == '\0')
        return true;
    if (a[n] == '=' && arg[1] == '-') {
        *inline_val = a + n + 1;
        return true;
    }
    return false;
}

static void notice(struct mpiexec_opts *o, const char *fmt, const char *a, const char *b, const char *why)
{
    char line[1024];
    snprintf(line, sizeof line, fmt, a, b ? b : "", why);
    tide_argv_append(&o->notices, line);
    fprintf(stderr, "mpiexec: %s\n", line);
}

static bool valid_bind(const char *v)
{
    static const char *const names[] = {"none", "core", "socket", "package", "numa", "hwthread", "cpu"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(v, names[i]) == 0)
            return true;
    return false;
}

#define ERR(...)                                  \
    do {                                          \
        snprintf(err, errlen, __VA_ARGS__);       \
        goto fail;                                \
    } while (0)

static struct tide_app *new_app(struct mpiexec_opts *o)
{
    struct tide_app *apps = realloc(o->apps, (size_t)(o->napps + 1) * sizeof *apps);
    if (!apps)
        return NULL;
    o->apps = apps;
    struct tide_app *a = &apps[o->napps++];
    memset(a, 0, sizeof *a);
    a->np = -1;
    a->env = calloc(1, sizeof(char *));
    return a;
}

static int add_env(char ***env, const char *spec, const char *(*getenv_fn)(const char *), char *err,
                   size_t errlen, const char *opt)
{
    const char *eq = strchr(spec, '=');
    if (eq == spec || !*spec) {
        snprintf(err, errlen, "%s: expected NAME or NAME=VALUE, got '%s'", opt, spec);
        return -1;
    }
    if (eq) {
        char *name = strndup(spec, (size_t)(eq - spec));
        tide_env_set(env, name, eq + 1);
        free(name);
        return 0;
    }
    const char *v = getenv_fn ? getenv_fn(spec) : NULL;
    if (!v) {
        snprintf(err, errlen, "%s %s: %s is not set in mpiexec's environment", opt, spec, spec);
        return -1;
    }
    tide_env_set(env, spec, v);
    return 0;
}

int mpiexec_parse(int argc, char *const argv[], struct mpiexec_opts *o, char *err, size_t errlen,
                  const char *(*getenv_fn)(const char *))
{
    memset(o, 0, sizeof *o);
    o->oversubscribe = -1;
    o->recovery = -1;
    o->global_env = calloc(1, sizeof(char *));
    o->params = calloc(1, sizeof(char *));
    o->notices = calloc(1, sizeof(char *));
    int pe = 0; /* cpus per rank from --map-by ...:PE=n */
    struct tide_app *cur = new_app(o);
    int i = 1;
    while (i < argc) {
        const char *a = argv[i];
        const char *v;
        if (is(a, ":")) {
            if (!cur->argv)
                ERR("':' must follow a program (app context %d has none)", o->napps);
            cur = new_app(o);
            i++;
            continue;
        }
        if (cur->argv) {
            /* program arguments run until ':' */
            tide_argv_append(&cur->argv, a);
            i++;
            continue;
        }
        if (a[0] != '-' || is(a, "-")) {
            cur->exe = strdup(a);
            tide_argv_append(&cur->argv, a);
            i++;
            continue;
        }
#define NEED_VAL(optname)                                                  \
    do {                                                                   \
        if (!v) {                                                          \
            if (i + 1 >= argc)                                             \
                ERR("option %s needs a value", optname);                   \
            v = argv[++i];                                                 \
        }                                                                  \
    } while (0)
        if (opt_match(a, "n", &v) || opt_match(a, "np", &v) || opt_match(a, "c", &v)) {
            NEED_VAL(a);
            int n;
            if (parse_count(v, &n) != 0)
                ERR("%s: '%s' is not a number", a, v);
            if (n <= 0)
                ERR("%s %d: the number of processes must be at least 1", a, n);
            cur->np = n;
        } else if (opt_match(a, "x", &v)) {
            NEED_VAL(a);
            if (add_env(&o->global_env, v, getenv_fn, err, errlen, "-x") != 0)
                goto fail;
        } else if (is(a, "-genv") || is(a, "-env")) {
            if (i + 2 >= argc)
                ERR("%s needs NAME and VALUE", a);
            char ***target = is(a, "-genv") ? &o->global_env : &cur->env;
            if (!*argv[i + 1] || strchr(argv[i + 1], '='))
                ERR("%s: bad variable name '%s'", a, argv[i + 1]);
            tide_env_set(target, argv[i + 1], argv[i + 2]);
            i += 2;
        } else if (opt_match(a, "env", &v)) {
            NEED_VAL(a);
            if (add_env(&cur->env, v, getenv_fn, err, errlen, "--env") != 0)
                goto fail;
        } else if (opt_match(a, "wdir", &v) || opt_match(a, "wd", &v)) {
            NEED_VAL(a);
            if (!*v)
                ERR("%s: empty directory", a);
            free(cur->wdir);
            cur->wdir = strdup(v);
        } else if (opt_match(a, "tag-output", &v) || is(a, "-prepend-rank") || is(a, "-l")) {
            o->tag_output = true;
        } else if (opt_match(a, "timeout", &v)) {
            NEED_VAL(a);
            int t;
            if (parse_count(v, &t) != 0 || t <= 0)
                ERR("--timeout: '%s' is not a positive number of seconds", v);
            o->timeout = t;
        } else if (opt_match(a, "oversubscribe", &v)) {
            o->oversubscribe = 1;
        } else if (opt_match(a, "no-oversubscribe", &v) || opt_match(a, "nooversubscribe", &v)) {
            o->oversubscribe = 0;
        } else if (opt_match(a, "enable-recovery", &v)) {
            o->recovery = 1;
        } else if (opt_match(a, "disable-recovery", &v)) {
            o->recovery = 0;
        } else if (opt_match(a, "with-ft", &v)) {
            /* Open MPI 5's spelling: "ulfm" (or its synonym "mpi") turns
             * recovery mode on */
            NEED_VAL(a);
            if (is(v, "ulfm") || is(v, "mpi"))
                o->recovery = 1;
            else if (is(v, "no") || is(v, "none") || is(v, "false"))
                o->recovery = 0;
            else
                ERR("%s: '%s' is not ulfm, mpi or none", a, v);
        } else if (opt_match(a, "universe-size", &v)) {
            NEED_VAL(a);
            int u;
            if (parse_count(v, &u) != 0 || u <= 0)
                ERR("--universe-size: '%s' is not a positive number", v);
            o->universe_size = u;
        } else if (opt_match(a, "nameserver", &v)) {
            NEED_VAL(a);
            free(o->nameserver);
            o->nameserver = strdup(v);
        } else if (opt_match(a, "host", &v) || is(a, "-H") || opt_match(a, "hosts", &v)) {
            NEED_VAL(a);
            free(o->hosts);
            o->hosts = strdup(v);
        } else if (opt_match(a, "hostfile", &v) || opt_match(a, "machinefile", &v) || is(a, "-f")) {
            NEED_VAL(a);
            free(o->hostfile);
            o->hostfile = strdup(v);
        } else if (opt_match(a, "map-by", &v)) {
            NEED_VAL(a);
            struct jobmap_mapby m;
            if (jobmap_parse_map_by(v, &m, err, errlen) != 0)
                goto fail;
            if (m.pe > 0)
                pe = m.pe;
            if (m.oversubscribe >= 0)
                o->oversubscribe = m.oversubscribe;
            free(o->map_by);
            o->map_by = strdup(v);
        } else if (opt_match(a, "rank-by", &v)) {
            NEED_VAL(a);
            enum jobmap_rank r;
            if (jobmap_parse_rank_by(v, &r, err, errlen) != 0)
                goto fail;
            free(o->rank_by);
            o->rank_by = strdup(v);
        } else if (opt_match(a, "ppn", &v) || opt_match(a, "npernode", &v)) {
            NEED_VAL(a);
            int n;
            if (parse_count(v, &n) != 0 || n <= 0)
                ERR("%s: '%s' is not a positive number of processes per node", a, v);
            o->npernode = n;
        } else if (opt_match(a, "bind-to", &v)) {
            NEED_VAL(a);
            if (!valid_bind(v))
                ERR("%s: '%s' is not core, socket, numa, hwthread or none", a, v);
            free(o->bind_to);
            o->bind_to = strdup(v);
        } else if (opt_match(a, "report-bindings", &v)) {
            o->report_bindings = true;
        } else if (opt_match(a, "display-map", &v)) {
            o->display_map = true;
        } else if (opt_match(a, "cpus-per-rank", &v) || opt_match(a, "cpus-per-proc", &v)) {
            NEED_VAL(a);
            int n;
            if (parse_count(v, &n) != 0 || n <= 0)
                ERR("%s: '%s' is not a positive number of cpus", a, v);
            o->cpus_per_rank = n;
        } else if (opt_match(a, "launch-agent", &v) || opt_match(a, "launcher-exec", &v) ||
                   opt_match(a, "bootstrap-exec", &v)) {
            NEED_VAL(a);
            if (!*v)
                ERR("%s: empty command", a);
            free(o->launch_agent);
            o->launch_agent = strdup(v);
        } else if (opt_match(a, "launcher", &v) || opt_match(a, "bootstrap", &v)) {
            NEED_VAL(a);
            if (is(v, "ssh") || is(v, "rsh")) {
                free(o->launch_agent);
                o->launch_agent = strdup(v);
            } else if (is(v, "slurm") || is(v, "fork") || is(v, "manual")) {
                notice(o, "ignoring %s %s (%s)", a, v,
                       is(v, "slurm") ? "Tide starts its daemons with srun inside a Slurm allocation by itself"
                                      : "Tide forks the daemon of this host by itself");
            } else {
                ERR("%s: '%s' is not ssh, rsh, slurm or fork", a, v);
            }
        } else if (opt_match(a, "mca", &v) || opt_match(a, "gmca", &v)) {
            if (i + 2 >= argc)
                ERR("%s needs a NAME and a VALUE", a);
            char both[512];
            snprintf(both, sizeof both, "%s %s", argv[i + 1], argv[i + 2]);
            notice(o, "ignoring %s %s (%s)", a, both, "not used by Tide");
            i += 2;
        } else if (opt_match(a, "allow-run-as-root", &v)) {
            notice(o, "ignoring %s%s (%s)", a, NULL, "not needed by Tide");
        } else if (opt_match(a, "prefix", &v)) {
            NEED_VAL(a);
            notice(o, "ignoring %s %s (%s)", a, v, "Tide finds tided next to mpiexec");
        } else if (opt_match(a, "stdin", &v)) {
            NEED_VAL(a);
            if (is(v, "none"))
                o->stdin_target = STDIN_NONE;
            else if (is(v, "0") || is(v, "rank0"))
                o->stdin_target = STDIN_RANK0;
            else
                ERR("--stdin: '%s' is not 'none' or '0'", v);
        } else if (opt_match(a, "initial-errhandler", &v) || opt_match(a, "initial_errhandler", &v)) {
            /* MPI 4.0's mpiexec key mpi_initial_errhandler (Open MPI's
             * spelling): the ranks' parameter initial_errhandler */
            NEED_VAL(a);
            enum tide_errh_kind k = tide_errh_parse(v);
            if (k == TIDE_ERRH_INVALID || !*v)
                ERR("%s: '%s' is not %s", a, v, TIDE_ERRH_CHOICES);
            char kv[64];
            snprintf(kv, sizeof kv, "initial_errhandler=%s", tide_errh_name(k));
            tide_argv_append(&o->params, kv);
        } else if (opt_match(a, "param", &v)) {
            NEED_VAL(a);
            const char *eq = strchr(v, '=');
            if (!eq || eq == v)
                ERR("--param: expected NAME=VALUE, got '%s'", v);
            tide_argv_append(&o->params, v);
        } else if (opt_match(a, "show-params", &v)) {
            o->show_params = true;
        } else if (is(a, "-v") || opt_match(a, "verbose", &v)) {
            o->verbose++;
        } else if (opt_match(a, "version", &v) || is(a, "-V")) {
            o->version = true;
        } else if (is(a, "-h") || opt_match(a, "help", &v)) {
            o->help = true;
        } else {
            ERR("unknown option '%s' (mpiexec --help lists the options)", a);
        }
        i++;
    }
    if (o->timeout == 0 && getenv_fn) {
        /* as with Open MPI's and MPICH's launchers, MPIEXEC_TIMEOUT
         * stands in for --timeout (empty or 0: no limit) */
        const char *t = getenv_fn("MPIEXEC_TIMEOUT");
        int secs = 0;
        if (t && *t && (parse_count(t, &secs) != 0 || secs < 0))
            ERR("MPIEXEC_TIMEOUT: '%s' is not a number of seconds", t);
        o->timeout = secs;
    }
    if (o->help || o->version || o->show_params) {
        if (!cur->argv) { /* a trailing empty context is fine here */
            tide_argv_free(cur->env);
            free(cur->wdir);
            o->napps--;
        }
        return 0;
    }
    if (!cur->argv)
        ERR(o->napps == 1 ? "no program given (mpiexec --help for usage)"
                          : "':' must be followed by a program");
    if (pe > 0) {
        if (o->cpus_per_rank > 0 && o->cpus_per_rank != pe)
            ERR("--map-by ...:PE=%d and --cpus-per-rank %d disagree", pe, o->cpus_per_rank);
        o->cpus_per_rank = pe;
    }
    if (o->npernode > 0 && o->map_by)
        ERR("-ppn/--npernode %d and --map-by %s cannot be combined (-ppn N is --map-by ppr:N:node)",
            o->npernode, o->map_by);
    for (int k = 0; k < o->napps; k++)
        if (o->apps[k].np < 0)
            o->apps[k].np = 0; /* not given: from the allocation */
    return 0;
fail:
    return -1;
}

void mpiexec_opts_free(struct mpiexec_opts *o)
{
    for (int k = 0; o->apps && k < o->napps; k++) {
        free(o->apps[k].exe);
        tide_argv_free(o->apps[k].argv);
        tide_argv_free(o->apps[k].env);
        free(o->apps[k].wdir);
    }
    free(o->apps);
    tide_argv_free(o->global_env);
    tide_argv_free(o->params);
    free(o->nameserver);
    free(o->hosts);
    free(o->hostfile);
    free(o->map_by);
    free(o->rank_by);
    free(o->bind_to);
    free(o->launch_agent);
    tide_argv_free(o->notices);
    memset(o, 0, sizeof *o);
}
