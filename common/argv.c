/*
 * argv.c: NULL-terminated string arrays, used for argv and environments.
 * Allocation failure is fatal (these are control-path, not data-path).
 */
#include "argv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *argv_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n);
    if (!q) {
        fputs("tide: out of memory\n", stderr);
        abort();
    }
    return q;
}

static char *argv_xstrdup(const char *s)
{
    char *d = strdup(s);
    if (!d) {
        fputs("tide: out of memory\n", stderr);
        abort();
    }
    return d;
}

size_t tide_argv_count(char *const *argv)
{
    size_t n = 0;
    while (argv && argv[n])
        n++;
    return n;
}

void tide_argv_append(char ***argv, const char *s)
{
    size_t n = tide_argv_count(*argv);
    *argv = argv_xrealloc(*argv, (n + 2) * sizeof(char *));
    (*argv)[n] = argv_xstrdup(s);
    (*argv)[n + 1] = NULL;
}

char **tide_argv_copy(char *const *argv)
{
    size_t n = tide_argv_count(argv);
    char **c = argv_xrealloc(NULL, (n + 1) * sizeof(char *));
    for (size_t i = 0; i < n; i++)
        c[i] = argv_xstrdup(argv[i]);
    c[n] = NULL;
    return c;
}

void tide_argv_free(char **argv)
{
    if (!argv)
        return;
    for (size_t i = 0; argv[i]; i++)
        free(argv[i]);
    free(argv);
}

char **tide_argv_split(const char *s, char sep)
{
    char **out = argv_xrealloc(NULL, sizeof(char *));
    out[0] = NULL;
    if (!s)
        return out;
    const char *p = s;
    for (;;) {
        const char *e = strchr(p, sep);
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len > 0) {
            char *tok = argv_xrealloc(NULL, len + 1);
            memcpy(tok, p, len);
            tok[len] = '\0';
            size_t n = tide_argv_count(out);
            out = argv_xrealloc(out, (n + 2) * sizeof(char *));
            out[n] = tok;
            out[n + 1] = NULL;
        }
        if (!e)
            break;
        p = e + 1;
    }
    return out;
}

char *tide_argv_join(char *const *argv, char sep)
{
    size_t total = 1;
    for (size_t i = 0; argv && argv[i]; i++)
        total += strlen(argv[i]) + 1;
    char *s = argv_xrealloc(NULL, total);
    size_t pos = 0;
    for (size_t i = 0; argv && argv[i]; i++) {
        if (i > 0)
            s[pos++] = sep;
        size_t l = strlen(argv[i]);
        memcpy(s + pos, argv[i], l);
        pos += l;
    }
    s[pos] = '\0';
    return s;
}

static long env_find(char *const *env, const char *name)
{
    size_t nl = strlen(name);
    for (size_t i = 0; env && env[i]; i++)
        if (strncmp(env[i], name, nl) == 0 && env[i][nl] == '=')
            return (long)i;
    return -1;
}

void tide_env_set(char ***env, const char *name, const char *value)
{
    size_t len = strlen(name) + strlen(value) + 2;
    char *kv = argv_xrealloc(NULL, len);
    snprintf(kv, len, "%s=%s", name, value);
    long i = env_find(*env, name);
    if (i >= 0) {
        free((*env)[i]);
        (*env)[i] = kv;
        return;
    }
    size_t n = tide_argv_count(*env);
    *env = argv_xrealloc(*env, (n + 2) * sizeof(char *));
    (*env)[n] = kv;
    (*env)[n + 1] = NULL;
}

const char *tide_env_get(char *const *env, const char *name)
{
    long i = env_find(env, name);
    return i >= 0 ? strchr(env[i], '=') + 1 : NULL;
}

void tide_env_unset(char ***env, const char *name)
{
    long i = env_find(*env, name);
    if (i < 0)
        return;
    free((*env)[i]);
    size_t n = tide_argv_count(*env);
    memmove(&(*env)[i], &(*env)[i + 1], (n - (size_t)i) * sizeof(char *));
}
