/*
 * alloc.h: where a job may run. One function returns the allocation (the
 * host list and the slots of each host) from the first source that has
 * one: --host, --hostfile, a Slurm allocation, else this node alone.
 */
#ifndef TIDE_ALLOC_H
#define TIDE_ALLOC_H

#include <stdbool.h>
#include <stddef.h>

enum tide_alloc_source {
    TIDE_ALLOC_LOCAL = 0,  /* this node alone (slots parameter or cores) */
    TIDE_ALLOC_HOSTS,      /* --host */
    TIDE_ALLOC_HOSTFILE,   /* --hostfile */
    TIDE_ALLOC_SLURM,      /* SLURM_JOB_NODELIST / SLURM_TASKS_PER_NODE */
};

struct tide_alloc {
    enum tide_alloc_source source;
    int nnodes;
    char **hosts;          /* nnodes names, NULL-terminated; hosts[0] is where mpiexec runs
                            * if that host is in the allocation */
    int *slots;            /* slots of each host */
    int *max_slots;        /* a hostfile's max_slots of each host (0: no limit) */
    bool *local;           /* the host is this machine (started by fork, not the agent) */
    bool slots_given;      /* slots came from the source, not from a default */
};

/* Build the allocation. hosts/hostfile are the command-line values (NULL
 * if absent); getenv_fn reads the environment (Slurm's variables). The
 * default slots of a host named without a count is default_slots (the
 * cores of this machine). With both hosts and hostfile, the job runs on
 * the hosts of the list, each of which must be in the file (a host
 * without a count keeps the file's slots). Returns 0, or -1 with a message in err naming
 * the file and line, the host, or the variable at fault. */
int tide_alloc_build(const char *hosts, const char *hostfile, const char *(*getenv_fn)(const char *),
                     int default_slots, struct tide_alloc *out, char *err, size_t errlen);
void tide_alloc_free(struct tide_alloc *a);
/* Total slots. */
int tide_alloc_slots(const struct tide_alloc *a);

/* Parsers, exposed for tests. */
/* "h1:4,h2:4" or "h1,h1,h2" (a repeated host adds a slot each time). */
int tide_alloc_parse_hostlist(const char *list, int default_slots, struct tide_alloc *out, char *err,
                              size_t errlen);
/* A hostfile: "host", "host slots=N [max_slots=M]", "host:N", '#' comments, blank lines. */
int tide_alloc_parse_hostfile(const char *path, int default_slots, struct tide_alloc *out, char *err,
                              size_t errlen);
/* Slurm's compressed node list "n[01-04,07],gpu3" -> names (NULL-terminated, caller frees
 * with tide_argv_free); returns the count or -1. */
int tide_slurm_expand_nodelist(const char *list, char ***names, char *err, size_t errlen);
/* "2(x3),1" -> counts[0..n-1]; returns 0 if it describes exactly n nodes, else -1. */
int tide_slurm_expand_tasks(const char *spec, int n, int *counts, char *err, size_t errlen);
/* Does this name mean the machine we run on (localhost, 127.x, our hostname, one of our addresses)? */
bool tide_alloc_is_local_host(const char *host);
/* Sockets (packages) of this machine, from hwloc; 1 if unknown. */
int tide_alloc_local_sockets(void);

#endif
