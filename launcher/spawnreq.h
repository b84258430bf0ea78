/*
 * spawnreq.h: decoding of a TIDE_CTL_SPAWN request (what a daemon forwards
 * for MPI_Comm_spawn[_multiple]) and of its "soft" info values, kept apart
 * from the placement in spawn.c so it can be tested and fuzzed alone.
 */
#ifndef TIDE_SPAWNREQ_H
#define TIDE_SPAWNREQ_H

#include <stdint.h>

#include "mpiexec.h"

#define TIDE_SPAWN_MAX_APPS 1024

struct spawn_request {
    uint32_t reqid;
    char *parent_nspace;
    uint32_t parent_rank;
    uint32_t napps;
    struct job_app_spec *specs; /* napps; exe, argv, env, wdir, path are heap copies */
    char **hosts;               /* napps: the "host" info value (NULL: none) */
    char **softs;               /* napps: the "soft" info value (NULL: none) */
    char **recoveries;          /* napps: the "enable_recovery" info value (NULL: none) */
    int total;                  /* processes asked for, summed over the apps */
};

/* Decode a request. 0, or -1 with a message in err (req->reqid is then
 * still set when the payload had one, so the refusal can be answered).
 * Either way spawn_request_free releases it. */
int spawn_request_decode(struct tide_rbuf *r, struct spawn_request *req, char *err, size_t errlen);
void spawn_request_free(struct spawn_request *req);

/* The largest count in a soft specification ("a:b:c,d,e:f": ranges with
 * optional strides) that is at most limit; -1 if none or malformed. */
int spawn_soft_choose(const char *spec, int limit);

/* The spawned job's recovery mode from the apps' "enable_recovery" values:
 * 1 or 0 when some app gives "true" or "false" (all that give one must
 * agree), -1 when none does (mpiexec's setting then), -2 with a message
 * in err when a value is not true/false or two disagree. */
int spawn_recovery_choose(const struct spawn_request *req, char *err, size_t errlen);

#endif
