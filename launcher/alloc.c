/*
 * alloc.c: the allocation of a job (hosts and their slots) from --host,
 * --hostfile, a Slurm allocation or this node alone, the parsers of those
 * formats, and recognising names that mean this machine.
 */
#include "alloc.h"
#include "argv.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <ifaddrs.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include <hwloc.h>

/* at most this many nodes from one Slurm node list (a typo such as
 * n[1-99999999] must not eat the memory) */
#define MAX_NODES 65536

static void alloc_init(struct tide_alloc *a, enum tide_alloc_source src)
{
    memset(a, 0, sizeof *a);
    a->source = src;
    a->hosts = calloc(1, sizeof(char *));
    a->slots_given = true;
}

void tide_alloc_free(struct tide_alloc *a)
{
    tide_argv_free(a->hosts);
    free(a->slots);
    free(a->max_slots);
    free(a->local);
    memset(a, 0, sizeof *a);
}

int tide_alloc_slots(const struct tide_alloc *a)
{
    long t = 0;
    for (int n = 0; n < a->nnodes; n++)
        t += a->slots[n];
    return t > INT_MAX ? INT_MAX : (int)t;
}

/* Add slots to host (a new entry at the end unless it is already listed). */
/* max_slots: 0 for no limit (a host listed twice adds both, and has a
 * limit only if both entries had one) */
static int add_host_max(struct tide_alloc *a, const char *name, int slots, int max_slots)
{
    for (int n = 0; n < a->nnodes; n++)
        if (strcmp(a->hosts[n], name) == 0) {
            long s = (long)a->slots[n] + slots;
            a->slots[n] = s > INT_MAX ? INT_MAX : (int)s;
            long m = (long)a->max_slots[n] + max_slots;
            a->max_slots[n] = a->max_slots[n] > 0 && max_slots > 0 ? (m > INT_MAX ? INT_MAX : (int)m) : 0;
            return 0;
        }
    if (a->nnodes >= MAX_NODES)
        return -1;
    int *sl = realloc(a->slots, (size_t)(a->nnodes + 1) * sizeof *sl);
    if (!sl)
        return -1;
    a->slots = sl;
    int *ml = realloc(a->max_slots, (size_t)(a->nnodes + 1) * sizeof *ml);
    if (!ml)
        return -1;
    a->max_slots = ml;
    a->slots[a->nnodes] = slots;
    a->max_slots[a->nnodes] = max_slots;
    a->nnodes++;
    tide_argv_append(&a->hosts, name);
    return 0;
}

static int add_host(struct tide_alloc *a, const char *name, int slots)
{
    return add_host_max(a, name, slots, 0);
}

static void fill_local(struct tide_alloc *a)
{
    free(a->local);
    a->local = calloc((size_t)a->nnodes + 1, sizeof(bool));
    for (int n = 0; n < a->nnodes; n++)
        a->local[n] = tide_alloc_is_local_host(a->hosts[n]);
}

/* A positive count, the whole string. */
static int parse_pos(const char *s, int *out)
{
    if (!s || !isdigit((unsigned char)*s))
        return -1;
    errno = 0;
    char *end;
    long v = strtol(s, &end, 10);
    if (errno || *end || v <= 0 || v > INT_MAX)
        return -1;
    *out = (int)v;
    return 0;
}

static bool valid_hostname(const char *h)
{
    if (!*h)
        return false;
    for (const char *p = h; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == '-' || *p == '.' || *p == '_' || *p == ':' ||
              *p == '%'))
            return false;
    return true;
}

/* "host" or "host:N". slots is 0 when no count is given. */
static int split_host_count(char *item, int *slots)
{
    *slots = 0;
    char *colon = strrchr(item, ':');
    /* an IPv6 address has several colons: only a final ":digits" after a
     * name without other colons is a count */
    if (colon && strchr(item, ':') == colon) {
        if (parse_pos(colon + 1, slots) != 0)
            return -1;
        *colon = '\0';
    }
    return 0;
}

int tide_alloc_parse_hostlist(const char *list, int default_slots, struct tide_alloc *out, char *err,
                              size_t errlen)
{
    (void)default_slots; /* a host named without a count has one slot per mention */
    alloc_init(out, TIDE_ALLOC_HOSTS);
    if (!list || !*list) {
        snprintf(err, errlen, "--host: empty host list");
        goto fail;
    }
    size_t ll = strlen(list);
    if (list[0] == ',' || list[ll - 1] == ',' || strstr(list, ",,")) {
        snprintf(err, errlen, "--host '%s': empty host name", list);
        goto fail;
    }
    char **items = tide_argv_split(list, ',');
    for (size_t i = 0; items[i]; i++) {
        char *item = items[i];
        int slots;
        if (!*item) {
            snprintf(err, errlen, "--host '%s': empty host name", list);
            tide_argv_free(items);
            goto fail;
        }
        if (split_host_count(item, &slots) != 0) {
            snprintf(err, errlen, "--host '%s': bad slot count in '%s' (expected HOST or HOST:N, N >= 1)",
                     list, items[i]);
            tide_argv_free(items);
            goto fail;
        }
        if (!valid_hostname(item)) {
            snprintf(err, errlen, "--host '%s': bad host name '%s'", list, item);
            tide_argv_free(items);
            goto fail;
        }
        if (add_host(out, item, slots > 0 ? slots : 1) != 0) {
            snprintf(err, errlen, "--host: too many hosts");
            tide_argv_free(items);
            goto fail;
        }
    }
    tide_argv_free(items);
    fill_local(out);
    return 0;
fail:
    tide_alloc_free(out);
    return -1;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

int tide_alloc_parse_hostfile(const char *path, int default_slots, struct tide_alloc *out, char *err,
                              size_t errlen)
{
    alloc_init(out, TIDE_ALLOC_HOSTFILE);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "hostfile %s: %s", path, strerror(errno));
        goto fail;
    }
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0;
    while (getline(&line, &cap, f) >= 0) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *s = trim(line);
        if (!*s)
            continue;
        char *save = NULL;
        char *host = strtok_r(s, " \t\r\n", &save);
        int slots = 0, max_slots = 0;
        if (split_host_count(host, &slots) != 0) {
            snprintf(err, errlen, "hostfile %s line %d: bad slot count in '%s' (expected HOST:N, N >= 1)",
                     path, lineno, host);
            goto fail_line;
        }
        if (!valid_hostname(host)) {
            snprintf(err, errlen, "hostfile %s line %d: bad host name '%s'", path, lineno, host);
            goto fail_line;
        }
        for (char *tok; (tok = strtok_r(NULL, " \t\r\n", &save));) {
            char *eq = strchr(tok, '=');
            if (!eq) {
                snprintf(err, errlen,
                         "hostfile %s line %d: unexpected '%s' (expected slots=N or max_slots=N)", path,
                         lineno, tok);
                goto fail_line;
            }
            *eq = '\0';
            const char *key = tok, *val = eq + 1;
            int v;
            bool is_slots = strcmp(key, "slots") == 0 || strcmp(key, "count") == 0 ||
                            strcmp(key, "cpu") == 0;
            bool is_max = strcmp(key, "max_slots") == 0 || strcmp(key, "max-slots") == 0;
            if (!is_slots && !is_max) {
                snprintf(err, errlen,
                         "hostfile %s line %d: unknown keyword '%s' (expected slots=N or max_slots=N)",
                         path, lineno, key);
                goto fail_line;
            }
            if (parse_pos(val, &v) != 0) {
                snprintf(err, errlen, "hostfile %s line %d: %s='%s' is not a positive number", path,
                         lineno, key, val);
                goto fail_line;
            }
            if (is_slots) {
                if (slots > 0) {
                    snprintf(err, errlen, "hostfile %s line %d: the slots of %s are given twice", path,
                             lineno, host);
                    goto fail_line;
                }
                slots = v;
            } else {
                max_slots = v;
            }
        }
        if (max_slots > 0 && slots > max_slots) {
            snprintf(err, errlen, "hostfile %s line %d: slots=%d is more than max_slots=%d", path,
                     lineno, slots, max_slots);
            goto fail_line;
        }
        if (slots == 0) {
            out->slots_given = false;
            slots = default_slots > 0 ? default_slots : 1;
            /* only max_slots: no more than that */
            if (max_slots > 0 && slots > max_slots)
                slots = max_slots;
        }
        if (add_host_max(out, host, slots, max_slots) != 0) {
            snprintf(err, errlen, "hostfile %s line %d: too many hosts", path, lineno);
            goto fail_line;
        }
    }
    free(line);
    fclose(f);
    if (out->nnodes == 0) {
        snprintf(err, errlen, "hostfile %s: no hosts in it", path);
        goto fail;
    }
    fill_local(out);
    return 0;
fail_line:
    free(line);
    fclose(f);
fail:
    tide_alloc_free(out);
    return -1;
}

/* --- Slurm's compressed node lists ---------------------------------------- */

struct names {
    char **v;
    int n;
};

/* Expand one item (no top-level commas): literal text and [ranges] groups,
 * every combination of the groups in order. */
static int expand_item(const char *prefix, const char *rest, const char *whole, struct names *out,
                       char *err, size_t errlen)
{
    const char *open = strchr(rest, '[');
    const char *close_stray = strchr(rest, ']');
    if (!open) {
        if (close_stray) {
            snprintf(err, errlen, "'%s': ']' without '['", whole);
            return -1;
        }
        size_t len = strlen(prefix) + strlen(rest);
        if (len == 0) {
            snprintf(err, errlen, "'%s': empty node name", whole);
            return -1;
        }
        if (out->n >= MAX_NODES) {
            snprintf(err, errlen, "'%s': more than %d nodes", whole, MAX_NODES);
            return -1;
        }
        char *name = malloc(len + 1);
        snprintf(name, len + 1, "%s%s", prefix, rest);
        tide_argv_append(&out->v, name);
        free(name);
        out->n++;
        return 0;
    }
    if (close_stray && close_stray < open) {
        snprintf(err, errlen, "'%s': ']' without '['", whole);
        return -1;
    }
    const char *close = strchr(open, ']');
    if (!close) {
        snprintf(err, errlen, "'%s': '[' without ']'", whole);
        return -1;
    }
    size_t plen = strlen(prefix) + (size_t)(open - rest);
    char *lit = malloc(plen + 1);
    snprintf(lit, plen + 1, "%s%.*s", prefix, (int)(open - rest), rest);
    char *inside = strndup(open + 1, (size_t)(close - open - 1));
    int rc = 0;
    if (!*inside) {
        snprintf(err, errlen, "'%s': empty brackets", whole);
        rc = -1;
    }
    char **ranges = rc == 0 ? tide_argv_split(inside, ',') : NULL;
    for (size_t i = 0; rc == 0 && ranges[i]; i++) {
        const char *r = ranges[i];
        const char *dash = strchr(r, '-');
        char lo_s[32], hi_s[32];
        size_t lo_len = dash ? (size_t)(dash - r) : strlen(r);
        const char *hi_p = dash ? dash + 1 : r;
        if (lo_len == 0 || lo_len >= sizeof lo_s || strlen(hi_p) == 0 || strlen(hi_p) >= sizeof hi_s) {
            snprintf(err, errlen, "'%s': bad range '%s'", whole, r);
            rc = -1;
            break;
        }
        memcpy(lo_s, r, lo_len);
        lo_s[lo_len] = '\0';
        snprintf(hi_s, sizeof hi_s, "%s", hi_p);
        bool digits = true;
        for (const char *p = lo_s; *p; p++)
            digits = digits && isdigit((unsigned char)*p);
        for (const char *p = hi_s; *p; p++)
            digits = digits && isdigit((unsigned char)*p);
        if (!digits) {
            snprintf(err, errlen, "'%s': bad range '%s' (expected numbers)", whole, r);
            rc = -1;
            break;
        }
        long lo = strtol(lo_s, NULL, 10), hi = strtol(hi_s, NULL, 10);
        if (hi < lo) {
            snprintf(err, errlen, "'%s': range '%s' goes backwards", whole, r);
            rc = -1;
            break;
        }
        if (hi - lo >= MAX_NODES) {
            snprintf(err, errlen, "'%s': more than %d nodes", whole, MAX_NODES);
            rc = -1;
            break;
        }
        /* zero-padded numbers keep the width of the first one */
        int width = lo_s[0] == '0' ? (int)strlen(lo_s) : 0;
        for (long v = lo; rc == 0 && v <= hi; v++) {
            char *p2 = malloc(plen + 40);
            snprintf(p2, plen + 40, "%s%0*ld", lit, width, v);
            rc = expand_item(p2, close + 1, whole, out, err, errlen);
            free(p2);
        }
    }
    tide_argv_free(ranges);
    free(inside);
    free(lit);
    return rc;
}

int tide_slurm_expand_nodelist(const char *list, char ***names, char *err, size_t errlen)
{
    struct names out = {calloc(1, sizeof(char *)), 0};
    *names = NULL;
    if (!list || !*list) {
        snprintf(err, errlen, "empty node list");
        goto fail;
    }
    /* split at commas outside brackets */
    const char *start = list;
    int depth = 0;
    for (const char *p = list;; p++) {
        if (*p == '[')
            depth++;
        else if (*p == ']')
            depth--;
        if (depth < 0) {
            snprintf(err, errlen, "'%s': ']' without '['", list);
            goto fail;
        }
        if (depth > 1) {
            snprintf(err, errlen, "'%s': nested brackets", list);
            goto fail;
        }
        if (*p == '\0' || (*p == ',' && depth == 0)) {
            char *item = strndup(start, (size_t)(p - start));
            int rc = 0;
            if (!*item) {
                snprintf(err, errlen, "'%s': empty node name", list);
                rc = -1;
            } else {
                rc = expand_item("", item, list, &out, err, errlen);
            }
            free(item);
            if (rc != 0)
                goto fail;
            if (*p == '\0')
                break;
            start = p + 1;
        }
    }
    *names = out.v;
    return out.n;
fail:
    tide_argv_free(out.v);
    return -1;
}

int tide_slurm_expand_tasks(const char *spec, int n, int *counts, char *err, size_t errlen)
{
    if (!spec || !*spec) {
        snprintf(err, errlen, "empty value");
        return -1;
    }
    char **items = tide_argv_split(spec, ',');
    int k = 0, rc = 0;
    for (size_t i = 0; items[i]; i++) {
        char *it = items[i];
        int reps = 1, count;
        char *paren = strchr(it, '(');
        if (paren) {
            size_t len = strlen(paren);
            if (len < 4 || paren[1] != 'x' || paren[len - 1] != ')') {
                snprintf(err, errlen, "'%s': bad item '%s' (expected N or N(xM))", spec, it);
                rc = -1;
                break;
            }
            paren[len - 1] = '\0';
            if (parse_pos(paren + 2, &reps) != 0) {
                snprintf(err, errlen, "'%s': bad repeat count in '%s'", spec, items[i]);
                rc = -1;
                break;
            }
            *paren = '\0';
        }
        if (parse_pos(it, &count) != 0) {
            snprintf(err, errlen, "'%s': '%s' is not a positive number", spec, it);
            rc = -1;
            break;
        }
        for (int r = 0; r < reps; r++) {
            if (k >= n) {
                snprintf(err, errlen, "'%s' describes more than the %d node%s of the node list", spec, n,
                         n == 1 ? "" : "s");
                rc = -1;
                break;
            }
            counts[k++] = count;
        }
        if (rc != 0)
            break;
    }
    tide_argv_free(items);
    if (rc == 0 && k != n) {
        snprintf(err, errlen, "'%s' describes %d node%s but the node list has %d", spec, k,
                 k == 1 ? "" : "s", n);
        rc = -1;
    }
    return rc;
}

static const char *env_nonempty(const char *(*getenv_fn)(const char *), const char *a, const char *b,
                                const char **which)
{
    const char *v = getenv_fn(a);
    *which = a;
    if (v && *v)
        return v;
    if (b) {
        v = getenv_fn(b);
        if (v && *v) {
            *which = b;
            return v;
        }
    }
    return NULL;
}

static int alloc_from_slurm(const char *(*getenv_fn)(const char *), int default_slots,
                            struct tide_alloc *out, char *err, size_t errlen)
{
    alloc_init(out, TIDE_ALLOC_SLURM);
    const char *lvar, *tvar;
    const char *list = env_nonempty(getenv_fn, "SLURM_JOB_NODELIST", "SLURM_NODELIST", &lvar);
    if (!list) {
        snprintf(err, errlen, "inside a Slurm job (SLURM_JOB_ID is set) but SLURM_JOB_NODELIST is not");
        goto fail;
    }
    char **names = NULL;
    char e2[512];
    int n = tide_slurm_expand_nodelist(list, &names, e2, sizeof e2);
    if (n < 0) {
        snprintf(err, errlen, "%s=%s: %s", lvar, list, e2);
        goto fail;
    }
    int *counts = calloc((size_t)n, sizeof(int));
    const char *tasks = env_nonempty(getenv_fn, "SLURM_TASKS_PER_NODE", NULL, &tvar);
    if (!tasks)
        tasks = env_nonempty(getenv_fn, "SLURM_JOB_CPUS_PER_NODE", NULL, &tvar);
    if (tasks) {
        if (tide_slurm_expand_tasks(tasks, n, counts, e2, sizeof e2) != 0) {
            snprintf(err, errlen, "%s=%s: %s", tvar, tasks, e2);
            free(counts);
            tide_argv_free(names);
            goto fail;
        }
    } else {
        out->slots_given = false;
        for (int i = 0; i < n; i++)
            counts[i] = default_slots > 0 ? default_slots : 1;
    }
    for (int i = 0; i < n; i++)
        add_host(out, names[i], counts[i]);
    free(counts);
    tide_argv_free(names);
    fill_local(out);
    return 0;
fail:
    tide_alloc_free(out);
    return -1;
}

/* --host with --hostfile: the hosts named by --host, each of which must be
 * in the hostfile; a host named without a count keeps the hostfile's slots. */
static int alloc_host_in_file(const char *hosts, const char *hostfile, int default_slots,
                              struct tide_alloc *out, char *err, size_t errlen)
{
    struct tide_alloc file, list;
    if (tide_alloc_parse_hostfile(hostfile, default_slots, &file, err, errlen) != 0)
        return -1;
    if (tide_alloc_parse_hostlist(hosts, default_slots, &list, err, errlen) != 0) {
        tide_alloc_free(&file);
        return -1;
    }
    alloc_init(out, TIDE_ALLOC_HOSTFILE);
    out->slots_given = file.slots_given;
    char **items = tide_argv_split(hosts, ',');
    int rc = 0;
    for (int n = 0; n < list.nnodes && rc == 0; n++) {
        int f = -1;
        for (int k = 0; k < file.nnodes; k++)
            if (strcmp(file.hosts[k], list.hosts[n]) == 0)
                f = k;
        if (f < 0) {
            snprintf(err, errlen, "--host %s: not in hostfile %s", list.hosts[n], hostfile);
            rc = -1;
            break;
        }
        /* a count given in --host wins; else the hostfile's */
        bool counted = false;
        for (size_t i = 0; items[i]; i++) {
            size_t len = strlen(list.hosts[n]);
            if (strncmp(items[i], list.hosts[n], len) == 0 && items[i][len] == ':')
                counted = true;
        }
        add_host_max(out, list.hosts[n], counted ? list.slots[n] : file.slots[f], file.max_slots[f]);
    }
    tide_argv_free(items);
    tide_alloc_free(&file);
    tide_alloc_free(&list);
    if (rc != 0) {
        tide_alloc_free(out);
        return -1;
    }
    fill_local(out);
    return 0;
}

int tide_alloc_build(const char *hosts, const char *hostfile, const char *(*getenv_fn)(const char *),
                     int default_slots, struct tide_alloc *out, char *err, size_t errlen)
{
    if (default_slots <= 0)
        default_slots = 1;
    if (hosts && hostfile)
        return alloc_host_in_file(hosts, hostfile, default_slots, out, err, errlen);
    if (hosts)
        return tide_alloc_parse_hostlist(hosts, default_slots, out, err, errlen);
    if (hostfile)
        return tide_alloc_parse_hostfile(hostfile, default_slots, out, err, errlen);
    const char *jv;
    if (getenv_fn && env_nonempty(getenv_fn, "SLURM_JOB_ID", "SLURM_JOBID", &jv))
        return alloc_from_slurm(getenv_fn, default_slots, out, err, errlen);
    alloc_init(out, TIDE_ALLOC_LOCAL);
    out->slots_given = false;
    char host[256] = "localhost";
    if (gethostname(host, sizeof host - 1) != 0 || !host[0])
        snprintf(host, sizeof host, "localhost");
    host[sizeof host - 1] = '\0';
    add_host(out, host, default_slots);
    out->local = calloc(2, sizeof(bool));
    out->local[0] = true;
    return 0;
}

/* --- is this name us? ---------------------------------------------------- */

static bool same_host_name(const char *a, const char *b)
{
    if (strcasecmp(a, b) == 0)
        return true;
    /* "n01" and "n01.cluster": the short forms, when one is short */
    const char *da = strchr(a, '.'), *db = strchr(b, '.');
    if (da && db)
        return false;
    size_t la = da ? (size_t)(da - a) : strlen(a);
    size_t lb = db ? (size_t)(db - b) : strlen(b);
    return la == lb && strncasecmp(a, b, la) == 0;
}

bool tide_alloc_is_local_host(const char *host)
{
    if (!host || !*host)
        return false;
    if (strcasecmp(host, "localhost") == 0 || strcasecmp(host, "localhost.localdomain") == 0 ||
        strcmp(host, "::1") == 0)
        return true;
    struct in_addr a4;
    if (inet_pton(AF_INET, host, &a4) == 1 && (ntohl(a4.s_addr) >> 24) == 127)
        return true;
    char me[256] = "";
    if (gethostname(me, sizeof me - 1) == 0 && me[0] && !isdigit((unsigned char)host[0]) &&
        same_host_name(host, me))
        return true;
    /* a numeric address of one of our interfaces (names are not looked up:
     * a slow resolver must not stall mpiexec) */
    struct in6_addr a6;
    int fam = inet_pton(AF_INET, host, &a4) == 1 ? AF_INET : inet_pton(AF_INET6, host, &a6) == 1 ? AF_INET6 : 0;
    if (!fam)
        return false;
    struct ifaddrs *ifs;
    if (getifaddrs(&ifs) != 0)
        return false;
    bool found = false;
    for (struct ifaddrs *i = ifs; i && !found; i = i->ifa_next) {
        if (!i->ifa_addr || i->ifa_addr->sa_family != fam)
            continue;
        if (fam == AF_INET)
            found = memcmp(&((struct sockaddr_in *)(void *)i->ifa_addr)->sin_addr, &a4, sizeof a4) == 0;
        else
            found = memcmp(&((struct sockaddr_in6 *)(void *)i->ifa_addr)->sin6_addr, &a6, sizeof a6) == 0;
    }
    freeifaddrs(ifs);
    return found;
}

int tide_alloc_local_sockets(void)
{
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) != 0)
        return 1;
    int n = 1;
    if (hwloc_topology_load(topo) == 0) {
        n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
        if (n <= 0)
            n = 1;
    }
    hwloc_topology_destroy(topo);
    return n;
}
