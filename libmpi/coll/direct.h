/*
 * direct.h: blocking collectives run straight over point-to-point, for
 * the algorithms that are a plain sequence of sends and receives
 * (direct.c). Callers pick the algorithm as for a schedule (the same on
 * every rank), ask whether it has a direct form, and if so run it with a
 * fresh view (tide_cv_comm) instead of building a schedule.
 */
#ifndef TIDE_COLL_DIRECT_H
#define TIDE_COLL_DIRECT_H

#include <stdbool.h>
#include <stddef.h>

struct tide_cv;
struct tide_datatype;

bool tide_direct_barrier_ok(int alg);
int tide_direct_barrier(const struct tide_cv *v, int alg);
bool tide_direct_bcast_ok(int alg);
int tide_direct_bcast(const struct tide_cv *v, void *buf, size_t count, struct tide_datatype *dt, int root,
                      int alg);

#endif
