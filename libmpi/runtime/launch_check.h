/*
 * launch_check.h: refusing to run as one of several unrelated singletons
 * when a launcher started many copies of the program without a PMIx
 * server (srun without --mpi=pmix).
 */
#ifndef TIDE_LAUNCH_CHECK_H
#define TIDE_LAUNCH_CHECK_H

#include <stddef.h>

/* Called when there is no PMIx server. Returns 0 when a singleton is
 * right; -1 when the environment says this process is one task of a
 * Slurm step of several, with msg telling what to do instead. */
int tide_launch_check_singleton(char *msg, size_t msglen);

#endif
