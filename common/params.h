/*
 * params.h: Tide's runtime parameters (the table is params.def).
 *
 * Resolution, lowest to highest: built-in default, the config file
 * (TIDE_CONF or the path given to tide_config_load), TIDE_<NAME> environment
 * variables, and explicit tide_config_set (mpiexec --param).
 */
#ifndef TIDE_PARAMS_H
#define TIDE_PARAMS_H

#include <stdio.h>

enum tide_param_source {
    TIDE_SRC_DEFAULT,
    TIDE_SRC_FILE,
    TIDE_SRC_ENV,
    TIDE_SRC_CMDLINE,
};

/* Load defaults, then the file (path may be NULL: TIDE_CONF or none), then
 * the environment. Returns 0, or -1 with a message in err for a malformed
 * file. Unknown names in the file are reported in err but do not fail. */
int tide_config_load(const char *path, char *err, size_t errlen);
/* Parse one "name = value" text buffer as a config file would be. */
int tide_config_parse_text(const char *text, const char *origin, char *err, size_t errlen);
/* Set a parameter from the command line. -1 if the name is unknown. */
int tide_config_set(const char *name, const char *value, enum tide_param_source src);
const char *tide_config_get(const char *name);
long long tide_config_int(const char *name);
int tide_config_known(const char *name);
enum tide_param_source tide_config_source(const char *name);
const char *tide_config_origin(const char *name);
/* Print every parameter, its value and where the value came from. */
void tide_config_show(FILE *out);
/* Append TIDE_<NAME>=value for every non-default parameter to env. */
void tide_config_export(char ***env);
/* Parse a size such as 64k, 4M, 1g. -1 on error. */
long long tide_parse_size(const char *s);
void tide_config_reset(void);

#endif
