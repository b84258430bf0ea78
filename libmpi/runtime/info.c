/*
 * info.c: info objects (MPI-2.2 chapter 9): MPI_Info_create, set, get,
 * get_valuelen, get_nkeys, get_nthkey, delete, dup, free; the predefined
 * MPI_INFO_ENV (MPI-3: how this process was started, as far as known);
 * and the internal interface of info.h for the parts that read hints.
 *
 * Keys are kept in the order they were first set (setting a key again
 * replaces its value in place). Keys are 1..MPI_MAX_INFO_KEY characters,
 * values at most MPI_MAX_INFO_VAL characters; both are case sensitive.
 */
#include "runtime/api.h"
#include "runtime/info.h"
#include "runtime/runtime.h"
#include "errhname.h"
#include "params.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/utsname.h>
#include <unistd.h>

static bool info_initialized;
static struct tide_info env_info = {.handle = MPI_INFO_ENV, .predefined = true};
static bool env_built;
static int env_built_state = -1; /* whether the runtime was up when it was built */
static char start_wdir[4096];

int tide_info_init(void)
{
    if (info_initialized)
        return 0;
    tide_handle_set(TIDE_KIND_INFO, TIDE_HANDLE_INDEX(MPI_INFO_ENV), &env_info);
    tide_handle_reserve(TIDE_KIND_INFO, TIDE_HANDLE_INDEX(MPI_INFO_ENV) + 1);
    if (!getcwd(start_wdir, sizeof start_wdir))
        start_wdir[0] = '\0';
    info_initialized = true;
    return 0;
}

static void clear_entries(struct tide_info *info)
{
    for (int i = 0; i < info->nkeys; i++) {
        free(info->ents[i].key);
        free(info->ents[i].value);
    }
    free(info->ents);
    info->ents = NULL;
    info->nkeys = info->cap = 0;
}

void tide_info_finalize(void)
{
    clear_entries(&env_info);
    env_built = false;
    env_built_state = -1;
}

/* ---- entries ---- */

static int find(const struct tide_info *info, const char *key)
{
    for (int i = 0; i < info->nkeys; i++)
        if (strcmp(info->ents[i].key, key) == 0)
            return i;
    return -1;
}

/* MPI_SUCCESS or MPI_ERR_NO_MEM */
static int put(struct tide_info *info, const char *key, const char *value)
{
    int i = find(info, key);
    char *v = strdup(value);
    if (!v)
        return MPI_ERR_NO_MEM;
    if (i >= 0) {
        free(info->ents[i].value);
        info->ents[i].value = v;
        return MPI_SUCCESS;
    }
    if (info->nkeys == info->cap) {
        int cap = info->cap ? info->cap * 2 : 8;
        struct tide_info_entry *e = realloc(info->ents, (size_t)cap * sizeof *e);
        if (!e) {
            free(v);
            return MPI_ERR_NO_MEM;
        }
        info->ents = e;
        info->cap = cap;
    }
    char *k = strdup(key);
    if (!k) {
        free(v);
        return MPI_ERR_NO_MEM;
    }
    info->ents[info->nkeys].key = k;
    info->ents[info->nkeys].value = v;
    info->nkeys++;
    return MPI_SUCCESS;
}

static void remove_at(struct tide_info *info, int i)
{
    free(info->ents[i].key);
    free(info->ents[i].value);
    memmove(&info->ents[i], &info->ents[i + 1], (size_t)(info->nkeys - i - 1) * sizeof info->ents[0]);
    info->nkeys--;
}

/* ---- MPI_INFO_ENV ---- */

static const char *thread_level_name(int level)
{
    switch (level) {
    case MPI_THREAD_FUNNELED:
        return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED:
        return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE:
        return "MPI_THREAD_MULTIPLE";
    default:
        return "MPI_THREAD_SINGLE";
    }
}

/* command and argv from the caller's arguments (MPI_Info_create_env) */
static void env_from_args(struct tide_info *info, int argc, char **argv)
{
    if (argc < 1 || !argv[0])
        return;
    if (strlen(argv[0]) <= MPI_MAX_INFO_VAL)
        put(info, "command", argv[0]);
    char args[MPI_MAX_INFO_VAL + 1];
    size_t alen = 0;
    for (int i = 1; i < argc && argv[i]; i++) {
        size_t l = strlen(argv[i]);
        if (alen + (alen ? 1 : 0) + l > MPI_MAX_INFO_VAL)
            return; /* does not fit a value: left out */
        if (alen)
            args[alen++] = ' ';
        memcpy(args + alen, argv[i], l);
        alen += l;
    }
    args[alen] = '\0';
    if (alen > 0)
        put(info, "argv", args);
}

/* command and argv from the kernel's copy of this process's arguments */
static void env_command_line(struct tide_info *info)
{
    FILE *f = fopen("/proc/self/cmdline", "r");
    if (!f)
        return;
    char buf[MPI_MAX_INFO_VAL * 4];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    if (n == 0)
        return;
    buf[n] = '\0';
    char *argv[MPI_MAX_INFO_VAL * 2];
    int argc = 0;
    for (size_t p = 0; p < n && argc < (int)(sizeof argv / sizeof argv[0]); p += strlen(buf + p) + 1)
        argv[argc++] = buf + p;
    env_from_args(info, argc, argv);
}

/* Is there a thread level to tell (MPI_Init or a session holds the runtime)? */
static bool runtime_up(void)
{
    return tide_runtime_users() > 0 || tide_is_active();
}

/* The environment's keys (MPI-4.0 section 11.2.2 lists them); the
 * arguments from argv when argc >= 0, else from the kernel. Before the
 * runtime is up, maxprocs comes from the launcher's TIDE_JOB_SIZE (1
 * for a process started without one) and thread_level is MPI_Init's. */
static void fill_env(struct tide_info *info, int argc, char **argv)
{
    if (argc >= 0 && argv)
        env_from_args(info, argc, argv);
    else
        env_command_line(info);
    char num[32];
    if (tide.size > 0) {
        snprintf(num, sizeof num, "%u", (unsigned)tide.size);
        put(info, "maxprocs", num);
    } else {
        const char *js = getenv("TIDE_JOB_SIZE");
        put(info, "maxprocs", js && atoi(js) > 0 ? js : "1");
    }
    char host[MPI_MAX_PROCESSOR_NAME] = "";
    if (tide.hostname[0])
        snprintf(host, sizeof host, "%s", tide.hostname);
    else
        gethostname(host, sizeof host - 1);
    if (host[0])
        put(info, "host", host);
    struct utsname u;
    if (uname(&u) == 0 && u.machine[0])
        put(info, "arch", u.machine);
    if (start_wdir[0])
        put(info, "wdir", start_wdir);
    /* the level the runtime holds, or, before MPI_Init and after
     * MPI_Finalize, the one MPI_Init gives (so the key is there and
     * agrees at every stage of a program that calls MPI_Init) */
    put(info, "thread_level", thread_level_name(runtime_up() ? tide.thread_level : MPI_THREAD_SINGLE));
    /* MPI 4.0: the initial error handler, as the standard spells it (a
     * name this library does not know stands for its default) */
    enum tide_errh_kind eh = tide_errh_parse(tide_config_get("initial_errhandler"));
    put(info, "mpi_initial_errhandler", tide_errh_name(eh == TIDE_ERRH_INVALID ? TIDE_ERRH_ARE_FATAL : eh));
}

static void build_env(void)
{
    int state = runtime_up();
    if (env_built && env_built_state == state)
        return;
    clear_entries(&env_info);
    fill_env(&env_info, -1, NULL);
    env_built = true;
    env_built_state = state;
}

/* ---- internal interface ---- */

struct tide_info *tide_info_get(MPI_Info h)
{
    if (h == MPI_INFO_ENV) {
        tide_info_init();
        build_env();
        return &env_info;
    }
    if (TIDE_HANDLE_KIND(h) != TIDE_KIND_INFO || h != TIDE_HANDLE(TIDE_KIND_INFO, TIDE_HANDLE_INDEX(h)))
        return NULL;
    struct tide_info *info = tide_handle_get(TIDE_KIND_INFO, h);
    return (info && info->handle == h) ? info : NULL;
}

const char *tide_info_lookup(const struct tide_info *info, const char *key)
{
    if (!info || !key)
        return NULL;
    int i = find(info, key);
    return i >= 0 ? info->ents[i].value : NULL;
}

bool tide_info_lookup_bool(const struct tide_info *info, const char *key, bool dflt)
{
    const char *v = tide_info_lookup(info, key);
    if (!v)
        return dflt;
    if (strcasecmp(v, "true") == 0 || strcasecmp(v, "yes") == 0 || strcmp(v, "1") == 0)
        return true;
    if (strcasecmp(v, "false") == 0 || strcasecmp(v, "no") == 0 || strcmp(v, "0") == 0)
        return false;
    return dflt;
}

const char *tide_info_nth_key(const struct tide_info *info, int n)
{
    return (info && n >= 0 && n < info->nkeys) ? info->ents[n].key : NULL;
}

const char *tide_info_nth_value(const struct tide_info *info, int n)
{
    return (info && n >= 0 && n < info->nkeys) ? info->ents[n].value : NULL;
}

static struct tide_info *info_new(void)
{
    tide_info_init();
    struct tide_info *info = calloc(1, sizeof *info);
    if (!info)
        return NULL;
    info->handle = tide_handle_alloc(TIDE_KIND_INFO, info);
    if (info->handle == MPI_INFO_NULL) {
        free(info);
        return NULL;
    }
    return info;
}

static void info_destroy(struct tide_info *info)
{
    clear_entries(info);
    tide_handle_release(info->handle);
    free(info);
}

int tide_info_dup_internal(const struct tide_info *src, MPI_Info *newinfo)
{
    struct tide_info *info = info_new();
    if (!info)
        return MPI_ERR_NO_MEM;
    for (int i = 0; src && i < src->nkeys; i++)
        if (put(info, src->ents[i].key, src->ents[i].value) != MPI_SUCCESS) {
            info_destroy(info);
            return MPI_ERR_NO_MEM;
        }
    *newinfo = info->handle;
    return MPI_SUCCESS;
}

int tide_info_set_internal(struct tide_info *info, const char *key, const char *value)
{
    if (!key || !key[0] || strlen(key) > MPI_MAX_INFO_KEY)
        return MPI_ERR_INFO_KEY;
    if (!value || strlen(value) > MPI_MAX_INFO_VAL)
        return MPI_ERR_INFO_VALUE;
    if (!info || info->predefined)
        return MPI_ERR_INFO;
    return put(info, key, value);
}

void tide_info_free_internal(MPI_Info *h)
{
    if (!h)
        return;
    struct tide_info *info = tide_info_get(*h);
    if (info && !info->predefined)
        info_destroy(info);
    *h = MPI_INFO_NULL;
}

/* ---- argument checks ---- */

static int check_info(MPI_Info h, struct tide_info **out, const char *fn)
{
    *out = tide_info_get(h);
    if (*out)
        return MPI_SUCCESS;
    if (h == MPI_INFO_NULL)
        return TIDE_ERR(MPI_ERR_INFO, "%s: MPI_INFO_NULL is not an info object (argument info)", fn);
    return TIDE_ERR(MPI_ERR_INFO, "%s: invalid info object (argument info)", fn);
}

static int check_key(const char *key, const char *fn)
{
    if (!key)
        return TIDE_ERR(MPI_ERR_ARG, "%s: key must not be NULL", fn);
    size_t len = strlen(key);
    if (len == 0)
        return TIDE_ERR(MPI_ERR_INFO_KEY, "%s: the key is empty (argument key)", fn);
    if (len > MPI_MAX_INFO_KEY)
        return TIDE_ERR(MPI_ERR_INFO_KEY,
                        "%s: the key has %zu characters, more than MPI_MAX_INFO_KEY (%d) (argument key)",
                        fn, len, MPI_MAX_INFO_KEY);
    return MPI_SUCCESS;
}

/* ---- MPI functions ---- */

int PMPI_Info_create(MPI_Info *info)
{
    TIDE_API_ENTER();
    if (!info)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Info_create: info must not be NULL");
    struct tide_info *i = info_new();
    if (!i)
        return TIDE_ERR(MPI_ERR_NO_MEM, "MPI_Info_create: out of memory");
    *info = i->handle;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Info_create)

int PMPI_Info_set(MPI_Info info, const char *key, const char *value)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Info_set";
    struct tide_info *i;
    int rc = check_info(info, &i, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if ((rc = check_key(key, fn)) != MPI_SUCCESS)
        return rc;
    if (!value)
        return TIDE_ERR(MPI_ERR_ARG, "%s: value must not be NULL", fn);
    size_t vlen = strlen(value);
    if (vlen > MPI_MAX_INFO_VAL)
        return TIDE_ERR(MPI_ERR_INFO_VALUE,
                        "%s: the value of key \"%.64s\" has %zu characters, more than MPI_MAX_INFO_VAL "
                        "(%d) (argument value)",
                        fn, key, vlen, MPI_MAX_INFO_VAL);
    if (i->predefined)
        return TIDE_ERR(MPI_ERR_INFO, "%s: MPI_INFO_ENV is predefined and cannot be changed (argument info)",
                        fn);
    if (put(i, key, value) != MPI_SUCCESS)
        return TIDE_ERR(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Info_set)

int PMPI_Info_delete(MPI_Info info, const char *key)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Info_delete";
    struct tide_info *i;
    int rc = check_info(info, &i, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if ((rc = check_key(key, fn)) != MPI_SUCCESS)
        return rc;
    if (i->predefined)
        return TIDE_ERR(MPI_ERR_INFO, "%s: MPI_INFO_ENV is predefined and cannot be changed (argument info)",
                        fn);
    int k = find(i, key);
    if (k < 0)
        return TIDE_ERR(MPI_ERR_INFO_NOKEY, "%s: no key \"%s\" in the info object (argument key)", fn, key);
    remove_at(i, k);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Info_delete)

int PMPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Info_get";
    struct tide_info *i;
    int rc = check_info(info, &i, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if ((rc = check_key(key, fn)) != MPI_SUCCESS)
        return rc;
    if (valuelen < 0)
        return TIDE_ERR(MPI_ERR_ARG, "%s: negative valuelen %d (argument valuelen)", fn, valuelen);
    if (!value)
        return TIDE_ERR(MPI_ERR_ARG, "%s: value must not be NULL", fn);
    if (!flag)
        return TIDE_ERR(MPI_ERR_ARG, "%s: flag must not be NULL", fn);
    int k = find(i, key);
    if (k < 0) {
        *flag = 0;
        return MPI_SUCCESS;
    }
    /* at most valuelen characters, then the terminating NUL */
    const char *v = i->ents[k].value;
    size_t n = strlen(v);
    if (n > (size_t)valuelen)
        n = (size_t)valuelen;
    memcpy(value, v, n);
    value[n] = '\0';
    *flag = 1;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Info_get)

int PMPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Info_get_valuelen";
    struct tide_info *i;
    int rc = check_info(info, &i, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if ((rc = check_key(key, fn)) != MPI_SUCCESS)
        return rc;
    if (!valuelen || !flag)
        return TIDE_ERR(MPI_ERR_ARG, "%s: valuelen and flag must not be NULL", fn);
    int k = find(i, key);
    if (k < 0) {
        *flag = 0;
        return MPI_SUCCESS;
    }
    *valuelen = (int)strlen(i->ents[k].value);
    *flag = 1;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Info_get_valuelen)

int PMPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
    TIDE_API_ENTER();
    struct tide_info *i;
    int rc = check_info(info, &i, "MPI_Info_get_nkeys");
    if (rc != MPI_SUCCESS)
        return rc;
    if (!nkeys)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Info_get_nkeys: nkeys must not be NULL");
    *nkeys = i->nkeys;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Info_get_nkeys)

int PMPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Info_get_nthkey";
    struct tide_info *i;
    int rc = check_info(info, &i, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (n < 0 || n >= i->nkeys)
        return TIDE_ERR(MPI_ERR_ARG, "%s: n is %d, the info object has %d keys (argument n)", fn, n,
                        i->nkeys);
    if (!key)
        return TIDE_ERR(MPI_ERR_ARG, "%s: key must not be NULL", fn);
    strcpy(key, i->ents[n].key); /* at most MPI_MAX_INFO_KEY characters */
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Info_get_nthkey)

int PMPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
    TIDE_API_ENTER();
    struct tide_info *i;
    int rc = check_info(info, &i, "MPI_Info_dup");
    if (rc != MPI_SUCCESS)
        return rc;
    if (!newinfo)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Info_dup: newinfo must not be NULL");
    if (tide_info_dup_internal(i, newinfo) != MPI_SUCCESS)
        return TIDE_ERR(MPI_ERR_NO_MEM, "MPI_Info_dup: out of memory");
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Info_dup)

int PMPI_Info_free(MPI_Info *info)
{
    TIDE_API_ENTER();
    if (!info)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Info_free: info must not be NULL");
    struct tide_info *i;
    int rc = check_info(*info, &i, "MPI_Info_free");
    if (rc != MPI_SUCCESS)
        return rc;
    if (i->predefined)
        return TIDE_ERR(MPI_ERR_INFO, "MPI_Info_free: MPI_INFO_ENV is predefined and cannot be freed (argument info)");
    info_destroy(i);
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Info_free)

int PMPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Info_get_string";
    struct tide_info *i;
    int rc = check_info(info, &i, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if ((rc = check_key(key, fn)) != MPI_SUCCESS)
        return rc;
    if (!buflen)
        return TIDE_ERR(MPI_ERR_ARG, "%s: buflen must not be NULL", fn);
    if (*buflen < 0)
        return TIDE_ERR(MPI_ERR_ARG, "%s: negative *buflen %d (argument buflen)", fn, *buflen);
    if (*buflen > 0 && !value)
        return TIDE_ERR(MPI_ERR_ARG, "%s: value must not be NULL when *buflen is %d", fn, *buflen);
    if (!flag)
        return TIDE_ERR(MPI_ERR_ARG, "%s: flag must not be NULL", fn);
    int k = find(i, key);
    if (k < 0) {
        *flag = 0;
        return MPI_SUCCESS;
    }
    /* at most *buflen - 1 characters and the NUL; *buflen becomes the
     * size the whole value needs, NUL included */
    const char *v = i->ents[k].value;
    size_t n = strlen(v);
    if (*buflen > 0) {
        size_t c = n < (size_t)*buflen - 1 ? n : (size_t)*buflen - 1;
        memcpy(value, v, c);
        value[c] = '\0';
    }
    *buflen = (int)n + 1;
    *flag = 1;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Info_get_string)

int PMPI_Info_create_env(int argc, char *argv[], MPI_Info *info)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Info_create_env";
    if (!info)
        return TIDE_ERR(MPI_ERR_ARG, "%s: info must not be NULL", fn);
    if (argc < 0)
        return TIDE_ERR(MPI_ERR_ARG, "%s: negative argc %d (argument argc)", fn, argc);
    if (argc > 0 && !argv)
        return TIDE_ERR(MPI_ERR_ARG, "%s: argv must not be NULL when argc is %d", fn, argc);
    struct tide_info *i = info_new();
    if (!i)
        return TIDE_ERR(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    /* no arguments given (C allows argc 0, argv NULL): the process's own */
    fill_env(i, argv ? argc : -1, argv);
    *info = i->handle;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Info_create_env)
