/*
 * params.c: the parameter table (params.def), config-file parser,
 * environment overrides and --show-params listing.
 */
#include "params.h"
#include "argv.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct param {
    const char *name;
    const char *def;
    const char *help;
    char *value;
    enum tide_param_source src;
    char origin[256];
};

static struct param params[] = {
#define TIDE_PARAM(n, d, h) {#n, d, h, NULL, TIDE_SRC_DEFAULT, ""},
#include "params.def"
#undef TIDE_PARAM
};
#define NPARAMS (sizeof params / sizeof params[0])

static struct param *find(const char *name)
{
    for (size_t i = 0; i < NPARAMS; i++)
        if (strcmp(params[i].name, name) == 0)
            return &params[i];
    return NULL;
}

static void assign(struct param *p, const char *v, enum tide_param_source src, const char *origin)
{
    free(p->value);
    p->value = strdup(v);
    p->src = src;
    snprintf(p->origin, sizeof p->origin, "%s", origin ? origin : "");
}

void tide_config_reset(void)
{
    for (size_t i = 0; i < NPARAMS; i++) {
        free(params[i].value);
        params[i].value = NULL;
        params[i].src = TIDE_SRC_DEFAULT;
        params[i].origin[0] = '\0';
    }
}

int tide_config_known(const char *name)
{
    return find(name) != NULL;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return s;
}

int tide_config_parse_text(const char *text, const char *origin, char *err, size_t errlen)
{
    char *copy = strdup(text ? text : "");
    if (!copy)
        return -1;
    int rc = 0, lineno = 0;
    if (err && errlen)
        err[0] = '\0';
    char *line = copy;
    while (line) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        lineno++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *l = trim(line);
        if (*l) {
            char *eq = strchr(l, '=');
            if (!eq) {
                if (err)
                    snprintf(err, errlen, "%s:%d: expected 'name = value'", origin, lineno);
                rc = -1;
                break;
            }
            *eq = '\0';
            char *name = trim(l), *value = trim(eq + 1);
            for (char *c = name; *c; c++)
                *c = (char)tolower((unsigned char)*c);
            struct param *p = find(name);
            if (!p) {
                if (err && !err[0])
                    snprintf(err, errlen, "%s:%d: unknown parameter '%s' (ignored)", origin, lineno, name);
            } else {
                char where[256];
                snprintf(where, sizeof where, "%s:%d", origin, lineno);
                assign(p, value, TIDE_SRC_FILE, where);
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    free(copy);
    return rc;
}

static int load_file(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0; /* a missing config file means defaults */
    char *buf = NULL;
    size_t cap = 0, len = 0;
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (len + n + 1 > cap) {
            cap = (len + n + 1) * 2;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return -1;
            }
            buf = nb;
        }
        memcpy(buf + len, chunk, n);
        len += n;
    }
    fclose(f);
    if (!buf)
        return 0;
    buf[len] = '\0';
    int rc = tide_config_parse_text(buf, path, err, errlen);
    free(buf);
    return rc;
}

int tide_config_load(const char *path, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    const char *envpath = getenv("TIDE_CONF");
    if (envpath && *envpath)
        path = envpath;
    int rc = 0;
    if (path && *path)
        rc = load_file(path, err, errlen);
    for (size_t i = 0; i < NPARAMS; i++) {
        char var[128];
        snprintf(var, sizeof var, "TIDE_");
        size_t k = 5;
        for (const char *c = params[i].name; *c && k < sizeof var - 1; c++)
            var[k++] = (char)toupper((unsigned char)*c);
        var[k] = '\0';
        const char *v = getenv(var);
        if (v && params[i].src != TIDE_SRC_CMDLINE)
            assign(&params[i], v, TIDE_SRC_ENV, var);
    }
    return rc;
}

int tide_config_set(const char *name, const char *value, enum tide_param_source src)
{
    struct param *p = find(name);
    if (!p)
        return -1;
    assign(p, value, src, src == TIDE_SRC_CMDLINE ? "--param" : "");
    return 0;
}

const char *tide_config_get(const char *name)
{
    struct param *p = find(name);
    if (!p)
        return "";
    return p->value ? p->value : p->def;
}

long long tide_parse_size(const char *s)
{
    if (!s || !*s)
        return -1;
    errno = 0;
    char *end;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s)
        return -1;
    switch (tolower((unsigned char)*end)) {
    case '\0': break;
    case 'k': v *= 1024; end++; break;
    case 'm': v *= 1024 * 1024; end++; break;
    case 'g': v *= 1024LL * 1024 * 1024; end++; break;
    default: return -1;
    }
    if (*end == 'b' || *end == 'B')
        end++;
    return *end ? -1 : v;
}

long long tide_config_int(const char *name)
{
    const char *v = tide_config_get(name);
    if (strcmp(v, "yes") == 0 || strcmp(v, "true") == 0 || strcmp(v, "on") == 0)
        return 1;
    if (strcmp(v, "no") == 0 || strcmp(v, "false") == 0 || strcmp(v, "off") == 0)
        return 0;
    long long n = tide_parse_size(v);
    if (n < 0 && v[0] == '-')
        n = strtoll(v, NULL, 10);
    return n;
}

enum tide_param_source tide_config_source(const char *name)
{
    struct param *p = find(name);
    return p ? p->src : TIDE_SRC_DEFAULT;
}

const char *tide_config_origin(const char *name)
{
    struct param *p = find(name);
    return p ? p->origin : "";
}

void tide_config_show(FILE *out)
{
    static const char *srcname[] = {"default", "file", "environment", "command line"};
    for (size_t i = 0; i < NPARAMS; i++) {
        const struct param *p = &params[i];
        const char *v = p->value ? p->value : p->def;
        fprintf(out, "%-20s = %-16s (%s%s%s)\n    %s\n", p->name, *v ? v : "\"\"", srcname[p->src],
                p->origin[0] ? ": " : "", p->origin, p->help);
    }
}

void tide_config_export(char ***env)
{
    for (size_t i = 0; i < NPARAMS; i++) {
        if (params[i].src == TIDE_SRC_DEFAULT)
            continue;
        char var[128];
        size_t k = 0;
        k += (size_t)snprintf(var, sizeof var, "TIDE_");
        for (const char *c = params[i].name; *c && k < sizeof var - 1; c++)
            var[k++] = (char)toupper((unsigned char)*c);
        var[k] = '\0';
        tide_env_set(env, var, params[i].value);
    }
}
