/*
 * argv.h: NULL-terminated string arrays (argv, environment lists).
 * Every array returned is heap-allocated; free it with tide_argv_free.
 */
#ifndef TIDE_ARGV_H
#define TIDE_ARGV_H

#include <stddef.h>

size_t tide_argv_count(char *const *argv);
void tide_argv_append(char ***argv, const char *s);
char **tide_argv_copy(char *const *argv);
void tide_argv_free(char **argv);
char **tide_argv_split(const char *s, char sep);
char *tide_argv_join(char *const *argv, char sep);
/* Set NAME=VALUE in an environment array, replacing an existing NAME. */
void tide_env_set(char ***env, const char *name, const char *value);
const char *tide_env_get(char *const *env, const char *name);
void tide_env_unset(char ***env, const char *name);

#endif
