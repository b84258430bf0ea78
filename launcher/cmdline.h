/*
 * cmdline.h: mpiexec's command line: global options and the app contexts
 * of an MPMD line (`-n 2 ./a : -n 3 ./b`).
 */
#ifndef TIDE_CMDLINE_H
#define TIDE_CMDLINE_H

#include <stdbool.h>
#include <stdio.h>
#include "jobdesc.h"

enum stdin_target { STDIN_RANK0, STDIN_NONE };

struct mpiexec_opts {
    struct tide_app *apps; /* exe is the name as given; resolved later; np 0 = not given
                            * (one rank per slot of the allocation) */
    int napps;
    char **global_env;     /* NAME=VALUE from -x / -genv, for every app */
    char **params;         /* NAME=VALUE from --param */
    bool tag_output;
    int timeout;           /* seconds, 0 = none */
    int oversubscribe;     /* -1 unset, 0 no, 1 yes */
    int recovery;          /* --enable-recovery / --with-ft ulfm: -1 unset, 0 no, 1 yes */
    int verbose;
    bool show_params;
    bool version;
    bool help;
    int universe_size;     /* 0 = from slots */
    char *nameserver;
    char *hosts;           /* --host list */
    char *hostfile;
    char *map_by;          /* --map-by slot|node|core|socket|ppr:N:node|ppr:N:socket (NULL: slot) */
    char *rank_by;         /* --rank-by slot|node|core|socket (NULL: as mapped) */
    int npernode;          /* -ppn / --npernode, 0 = unset */
    char *bind_to;         /* --bind-to core|socket|numa|hwthread|none (NULL: default) */
    bool report_bindings;
    int cpus_per_rank;     /* --cpus-per-rank, 0 = unset */
    char *launch_agent;    /* --launch-agent CMD (NULL: the launch_agent parameter) */
    bool display_map;      /* --display-map: print the hosts and their ranks before launching */
    char **notices;        /* options accepted and ignored, one line each (also printed on stderr) */
    enum stdin_target stdin_target;
};

/* Parse argv (argv[0] is the program). Returns 0, or -1 with a one-line
 * message in err. `getenv_fn` reads the caller's environment (for -x VAR). */
int mpiexec_parse(int argc, char *const argv[], struct mpiexec_opts *o, char *err, size_t errlen,
                  const char *(*getenv_fn)(const char *));
void mpiexec_opts_free(struct mpiexec_opts *o);
void mpiexec_usage(FILE *f);

#endif
