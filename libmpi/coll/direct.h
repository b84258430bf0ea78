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

struct tide_comm;
struct tide_cv;
struct tide_datatype;
struct tide_op;

/* May a blocking collective on c run without a schedule at all? */
bool tide_direct_allowed(const struct tide_comm *c);
bool tide_direct_barrier_ok(int alg);
int tide_direct_barrier(const struct tide_cv *v, int alg);
bool tide_direct_bcast_ok(int alg);
int tide_direct_bcast(const struct tide_cv *v, void *buf, size_t count, struct tide_datatype *dt, int root,
                      int alg);
bool tide_direct_allreduce_ok(int alg, size_t count, const struct tide_datatype *dt);
int tide_direct_allreduce(const struct tide_cv *v, const void *sbuf, void *rbuf, size_t count,
                          struct tide_datatype *dt, struct tide_op *op);
bool tide_direct_allgather_ok(int alg);
int tide_direct_allgather(const struct tide_cv *v, const void *sbuf, size_t scount, struct tide_datatype *sdt,
                          void *rbuf, size_t rcount, struct tide_datatype *rdt, int alg);
bool tide_direct_alltoall_ok(int alg, const void *sbuf);
int tide_direct_alltoall(const struct tide_cv *v, const void *sbuf, size_t scount, struct tide_datatype *sdt,
                         void *rbuf, size_t rcount, struct tide_datatype *rdt);

#endif
