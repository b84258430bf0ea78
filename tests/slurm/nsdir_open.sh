#!/bin/sh
# nsdir_open.sh TMPFS PROGRAM [ARGS...]: run as a task of srun --mpi=pmix,
# opens the per-step PMIx directories Slurm made under TMPFS to other
# users (0755), then runs PROGRAM. libmpi does not keep its shared-memory
# files in a directory others can read: it makes its own instead, which
# is what the test of that fallback needs.
tmpfs=$1; shift
for d in "$tmpfs"/spmix_appdir_*; do
    [ -d "$d" ] && chmod 0755 "$d"
done
exec "$@"
