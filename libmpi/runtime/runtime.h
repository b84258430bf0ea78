/*
 * runtime.h: the runtime's users. MPI_Init (the world model) and every
 * MPI_Session_init (the sessions model) each hold one reference: the
 * first brings the runtime up (parameters, PMIx, the layers, the
 * business-card exchange, the internal MPI_COMM_WORLD and MPI_COMM_SELF),
 * the last one's release takes it down again (delivery of what is
 * pending, a fence with the other processes, the layers in reverse).
 * It can be brought up again after that (a session after another).
 */
#ifndef TIDE_RUNTIME_H
#define TIDE_RUNTIME_H

/* Take a reference, bringing the runtime up if it is down. required is
 * the thread level asked (the runtime provides the highest asked by any
 * user). fn names the calling function in errors. MPI_SUCCESS or an
 * error code (not raised). */
int tide_runtime_acquire(int required, const char *fn);
/* Drop a reference; the last takes the runtime down. MPI_SUCCESS or an
 * error code. */
int tide_runtime_release(const char *fn);
/* How many users the runtime has now (0: down). */
int tide_runtime_users(void);
struct tide_tuning;
/* Fill t from the runtime parameters as they are now (tide_config_*):
 * what bringing the runtime up puts in tide.tuning. */
void tide_tuning_read(struct tide_tuning *t);

#endif
