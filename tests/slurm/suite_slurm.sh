# suite_slurm.sh: Tide under Slurm (sourced by run-all.sh). The cases
# slurm.env-* need no cluster: they fake the variables srun gives its
# tasks. The others run on the private cluster of cluster.sh (root,
# slurm-wlm and munge needed: sh tools/deps.sh): one node for most, then
# two nodes in namespaces for slurm.multi.*; stopped at the end. They
# skip, with the reason, when the cluster cannot start.
. "$S/tests/slurm/cluster.sh"

sl_wanted() {
    [ -z "$T_FILTER" ] || echo "$1" | grep -Eq "$T_FILTER"
}

# the test program, built with the build tree's mpicc like a user's
sl_prog="$B/tests/bin/slurm_ring"
sl_ok=1
mkdir -p "$B/tests/bin"
if [ ! -x "$sl_prog" ] || [ "$S/tests/slurm/slurm_ring.c" -nt "$sl_prog" ] || \
   [ "$B/lib/.libs/libmpi.so" -nt "$sl_prog" ]; then
    if ! "$B/bin/mpicc" -O1 -g -Wall -Wextra -Werror -o "$sl_prog" "$S/tests/slurm/slurm_ring.c" \
         > "$T_LOGDIR/build.slurm_ring.log" 2>&1; then
        tfail build.slurm_ring "does not compile: $(head -c 600 "$T_LOGDIR/build.slurm_ring.log")"
        sl_ok=0
    fi
fi
sl_expect="$S/tests/slurm/expect_ranks.sh"
sl_msg='started by srun with 2 tasks but without a PMIx server: use srun --mpi=pmix, or mpiexec'

if [ $sl_ok -eq 1 ]; then
    # ---- without a cluster: what srun without --mpi=pmix gives its tasks ----
    tcase slurm.env-step-refused -t 30 -rc 1 -err "^MPI_Init: this program was $sl_msg" -noout 'hello from' -- \
        env -u PMIX_NAMESPACE -u PMIX_RANK SLURM_STEP_NUM_TASKS=2 SLURM_PROCID=0 SLURM_STEP_ID=0 \
        SLURM_NTASKS=2 "$sl_prog"
    # an older Slurm: no SLURM_STEP_NUM_TASKS, the step id and SLURM_NTASKS
    tcase slurm.env-step-old -t 30 -rc 1 -err "$sl_msg" -- \
        env -u PMIX_NAMESPACE -u PMIX_RANK -u SLURM_STEP_NUM_TASKS SLURM_STEP_ID=0 SLURM_PROCID=1 \
        SLURM_NTASKS=2 "$sl_prog"
    tcase slurm.env-step-single -t 30 -out '^hello from rank 0 of 1 ' -noout 'PMIx server' -- \
        env -u PMIX_NAMESPACE -u PMIX_RANK SLURM_STEP_NUM_TASKS=1 SLURM_PROCID=0 SLURM_STEP_ID=0 \
        SLURM_NTASKS=1 "$sl_prog"
    # a batch script has SLURM_NTASKS and SLURM_PROCID but is no step of
    # several tasks: a program started from it straight is a singleton
    tcase slurm.env-batch-single -t 30 -out '^ring ok across 1 ranks' -- \
        env -u PMIX_NAMESPACE -u PMIX_RANK -u SLURM_STEP_NUM_TASKS -u SLURM_STEP_ID SLURM_NTASKS=4 \
        SLURM_PROCID=0 SLURM_JOB_ID=1 "$sl_prog"
fi

# ---- on the cluster ----
sl_cases="slurm.infra slurm.srun-pmix slurm.srun-pmix-8 slurm.srun-pmix-own-dir slurm.srun-pmix-spawn slurm.srun-pmix-abort slurm.srun-no-pmix
slurm.srun-single slurm.salloc slurm.salloc-over slurm.salloc-over-ok slurm.sbatch"
sl_any=""
for c in $sl_cases; do
    sl_wanted "$c" && sl_any=1
done
if [ -n "$sl_any" ] && [ $sl_ok -eq 1 ]; then
    slurm_setup
    sl_rc=$?
    if [ $sl_rc -ne 0 ]; then
        for c in $sl_cases; do
            sl_wanted "$c" && tskip "$c" "no Slurm cluster: $SLURM_T_REASON"
        done
    else
        sl_env="SLURM_CONF=$SLURM_T_CONF"
        sl_work="$B/tests/slurm-work"
        rm -rf "$sl_work"
        mkdir -p "$sl_work"
        cd "$sl_work" || exit 1

        tcase slurm.infra -t 60 -out "^2$" -- \
            sh -c 'env "$1" srun -n 2 hostname | grep -c "^$2\$"' sh "$sl_env" "$(hostname -s)"

        # srun --mpi=pmix: slurmstepd is the PMIx server; no mpiexec, no tided
        tcase slurm.srun-pmix -t 90 -- \
            "$sl_expect" 3 3 env "$sl_env" srun --mpi=pmix -n 3 "$sl_prog"
        # more ranks than the machine's cores (the node says 8 CPUs)
        tcase slurm.srun-pmix-8 -t 120 -- \
            "$sl_expect" 8 8 env "$sl_env" srun --mpi=pmix -n 8 "$sl_prog"
        # no private per-job directory from the server: libmpi makes one for
        # its shared memory, and the last rank to leave removes it
        tcase slurm.srun-pmix-own-dir -t 90 -- \
            sh -c '"$1" 2 2 env "$2" srun --mpi=pmix -n 2 "$3" "$4" "$5" || exit 1
                   for d in /dev/shm "${TMPDIR:-/tmp}"; do
                       ls -d "$d"/tide-$(id -u)-job-slurm.pmix.* 2>/dev/null && exit 1
                   done
                   exit 0' sh "$sl_expect" "$sl_env" "$S/tests/slurm/nsdir_open.sh" "$SLURM_T_DIR/tmp" "$sl_prog"
        tcase slurm.srun-pmix-spawn -t 90 \
            -out 'spawn failed: class MPI_ERR_SPAWN: .*cannot start processes.*srun --mpi=pmix' -- \
            "$sl_expect" 2 2 env "$sl_env" srun --mpi=pmix -n 2 "$sl_prog" spawn

        # MPI_Abort ends the step (PMIx_Abort to slurmstepd), srun exits
        # with its code
        tcase slurm.srun-pmix-abort -t 60 -rc 7 -noout 'ring ok' -- \
            env "$sl_env" srun --mpi=pmix -n 3 "$sl_prog" abort

        # srun without a PMIx server: refused, not 2 singletons
        tcase slurm.srun-no-pmix -t 60 -err "$sl_msg" -noout 'hello from' -- \
            sh -c 'env "$1" srun -n 2 "$2"; [ $? -ne 0 ]' sh "$sl_env" "$sl_prog"
        tcase slurm.srun-single -t 60 -out '^ring ok across 1 ranks' -- \
            env "$sl_env" srun -n 1 "$sl_prog"

        # mpiexec in an allocation: -n defaults to the allocation's slots,
        # MPI_UNIVERSE_SIZE is their number, more ranks need --oversubscribe
        tcase slurm.salloc -t 90 -- \
            "$sl_expect" 3 3 env "$sl_env" salloc -n 3 "$MPIEXEC" "$sl_prog"
        tcase slurm.salloc-over -t 90 -err 'oversubscribe' -noout 'hello from' -- \
            sh -c 'env "$1" salloc -n 2 "$2" -n 3 "$3"; [ $? -ne 0 ]' sh "$sl_env" "$MPIEXEC" "$sl_prog"
        tcase slurm.salloc-over-ok -t 90 -- \
            "$sl_expect" 3 - env "$sl_env" salloc -n 2 "$MPIEXEC" --oversubscribe -n 3 "$sl_prog"

        # a batch job running mpiexec; sbatch --wait returns when it ends
        cat > "$sl_work/job.sh" <<EOF
#!/bin/sh
exec "$MPIEXEC" "$sl_prog"
EOF
        chmod +x "$sl_work/job.sh"
        tcase slurm.sbatch -t 120 -- \
            "$sl_expect" 3 3 sh -c 'env "$1" sbatch --wait -Q -n 3 -o "$2/job.out" -e "$2/job.err" "$2/job.sh" &&
                cat "$2/job.out"' sh "$sl_env" "$sl_work"

        cd "$S" || exit 1
    fi
fi

# ---- two nodes, each slurmd in network and mount namespaces of its own ----
sl_multi_wanted() {
    sl_wanted slurm.multi.srun-pmix || sl_wanted slurm.multi.mpiexec
}
if sl_multi_wanted && [ $sl_ok -eq 1 ]; then
    slurm_setup 2
    sl_rc=$?
    if [ $sl_rc -ne 0 ]; then
        tskip slurm.multi.srun-pmix "no two-node Slurm cluster: $SLURM_T_REASON"
        tskip slurm.multi.mpiexec "no two-node Slurm cluster: $SLURM_T_REASON"
    else
        # mpiexec on the submitting host (in no node), a tided started by
        # srun on each node of the allocation, linked back over the bridge
        tcase slurm.multi.mpiexec -t 120 -out ' on n1$' -- \
            sh -c 'out=$("$1" 4 4 env "$2" salloc -Q -N 2 -n 4 "$3" --param if_include="$4.0/24" "$5"); rc=$?
                   printf "%s\n" "$out"
                   [ $rc -eq 0 ] && printf "%s\n" "$out" | grep -q " on n2\$"' \
            sh "$sl_expect" "SLURM_CONF=$SLURM_T_CONF" "$MPIEXEC" "$SLURM_T_NET" "$sl_prog"
        # ranks on two nodes: libmpi's TCP between the namespaces' addresses,
        # the PMIx fence between the two slurmstepd
        tcase slurm.multi.srun-pmix -t 90 -out ' on n1$' -- \
            sh -c 'out=$("$1" 4 4 env "$2" srun --mpi=pmix -N 2 --ntasks-per-node=2 "$3"); rc=$?
                   printf "%s\n" "$out"
                   [ $rc -eq 0 ] && printf "%s\n" "$out" | grep -q " on n2\$"' \
            sh "$sl_expect" "SLURM_CONF=$SLURM_T_CONF" "$sl_prog"
    fi
fi
if [ -n "$sl_any" ] || sl_multi_wanted; then
    slurm_teardown
fi
