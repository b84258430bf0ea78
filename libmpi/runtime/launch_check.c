/*
 * launch_check.c: is a process without a PMIx server really alone
 * (launch_check.h)? srun without --mpi=pmix starts N copies of the program
 * with no server to join them: each would become a singleton and the user
 * would get N jobs of one rank each. Slurm tells every task of a step how
 * many tasks the step has: SLURM_STEP_NUM_TASKS, or (older releases)
 * SLURM_NTASKS together with SLURM_STEP_ID. A batch script also has
 * SLURM_NTASKS and SLURM_PROCID, but no step variables: a program started
 * straight from it is a true singleton, and so is srun -n 1.
 */
#include "runtime/launch_check.h"

#include <stdio.h>
#include <stdlib.h>

static long env_count(const char *name)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return -1;
    char *end;
    long n = strtol(v, &end, 10);
    return *end == '\0' && n >= 0 ? n : -1;
}

int tide_launch_check_singleton(char *msg, size_t msglen)
{
    long tasks = env_count("SLURM_STEP_NUM_TASKS");
    if (tasks < 0 && getenv("SLURM_STEP_ID"))
        tasks = env_count("SLURM_NTASKS");
    if (tasks <= 1)
        return 0;
    snprintf(msg, msglen,
             "this program was started by srun with %ld tasks but without a PMIx server: use srun --mpi=pmix, "
             "or mpiexec",
             tasks);
    return -1;
}
