/*
 * jobdir.h: the directory the ranks of a job on one node share for their
 * shared-memory files (tide.session_dir), under Tide's daemon or under
 * another PMIx server (srun --mpi=pmix).
 */
#ifndef TIDE_JOBDIR_H
#define TIDE_JOBDIR_H

/* Set tide.session_dir (tide.nspace, tide.local_size and tide.have_pmix
 * known): Tide's daemon's TIDE_JOB_DIR; else, for a job of another PMIx
 * server with more than one rank here, that server's per-job directory
 * (server_nsdir, PMIX_NSDIR, may be NULL or empty) when it is a private
 * directory of ours, else a directory made under the session base
 * (/dev/shm, $TMPDIR or /tmp) named after the namespace. Left empty when
 * none can be had: no shared memory then. */
void tide_jobdir_pick(const char *server_nsdir);

/* After the closing fence: remove the directory tide_jobdir_pick made, if
 * nothing is left in it (the last rank of the node to leave removes it). */
void tide_jobdir_release(void);

#endif
