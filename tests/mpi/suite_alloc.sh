# suite_alloc.sh: mpiexec's allocation (--host, --hostfile, a Slurm
# allocation from its environment variables), -n from the slots, refused
# oversubscription on a given allocation, mapping and ranking options, and
# Open MPI options accepted and ignored. Several local names (localhost,
# 127.0.0.2) are several nodes, each with its own tided on this machine.

AL_TMP="$B/tests/alloc-tmp"
rm -rf "$AL_TMP"
mkdir -p "$AL_TMP"
# outside any real Slurm job the tests run in
AL="env -u SLURM_JOB_ID -u SLURM_JOBID -u SLURM_JOB_NODELIST -u SLURM_NODELIST -u SLURM_TASKS_PER_NODE -u SLURM_JOB_CPUS_PER_NODE"
AL_HOST=$(hostname)

tcase alloc.host -t 60 -out "rank 2 of 3 universe 3 on localhost" -- \
    $AL $MPIEXEC --host localhost:3 -n 3 $TB/alloc_where
tcase alloc.host-repeat -t 60 -out "rank 1 of 2 universe 2 on localhost" -noout "rank 2 of" -- \
    $AL $MPIEXEC -H localhost,localhost $TB/alloc_where
printf '# one host\nlocalhost slots=2   # two slots\n\n' > "$AL_TMP/hosts"
tcase alloc.hostfile -t 60 -out "rank 1 of 2 universe 2 on localhost" -noout "rank 2 of" -- \
    $AL $MPIEXEC --hostfile "$AL_TMP/hosts" $TB/alloc_where
tcase alloc.machinefile-n -t 60 -out "rank 0 of 1 universe 2" -- \
    $AL $MPIEXEC --machinefile "$AL_TMP/hosts" -n 1 $TB/alloc_where
tcase alloc.no-n -t 60 -out "rank 1 of 2 universe 2 on localhost" -noout "rank 2 of" -- \
    $AL $MPIEXEC --host localhost:2 $TB/alloc_where
tcase alloc.mpmd-rest -t 60 -out "rank 2 of 3 universe 3" -- \
    $AL $MPIEXEC --host localhost:3 -n 1 $TB/alloc_where : $TB/alloc_where
tcase alloc.slurm -t 60 -out "rank 2 of 3 universe 3 on $AL_HOST" -noout "rank 3 of" -- \
    env SLURM_JOB_ID=1 SLURM_JOB_NODELIST="$AL_HOST" SLURM_TASKS_PER_NODE=3 $MPIEXEC $TB/alloc_where
tcase alloc.slurm-bad-tasks -t 30 -rc 2 -err "SLURM_TASKS_PER_NODE=2\(x2\): .*describes more than the 1 node of the node list" -- \
    env SLURM_JOB_ID=1 SLURM_JOB_NODELIST="$AL_HOST" SLURM_TASKS_PER_NODE="2(x2)" $MPIEXEC $TB/alloc_where
tcase alloc.slurm-host-wins -t 60 -out "rank 0 of 1 universe 1 on localhost" -- \
    env SLURM_JOB_ID=1 SLURM_JOB_NODELIST="bogus[1-" $MPIEXEC --host localhost $TB/alloc_where
tcase alloc.oversub-refused -t 30 -rc 2 -err "3 processes requested but only 2 slots are free \(allow it with --oversubscribe\)" -- \
    $AL $MPIEXEC --host localhost:2 -n 3 $TB/alloc_where
tcase alloc.oversub-allowed -t 60 -out "rank 2 of 3 universe 3" -- \
    $AL $MPIEXEC --host localhost:2 -n 3 --oversubscribe $TB/alloc_where
tcase alloc.oversub-modifier -t 60 -out "rank 2 of 3 universe 3" -- \
    $AL $MPIEXEC --host localhost:2 -n 3 --map-by slot:OVERSUBSCRIBE $TB/alloc_where
printf 'localhost slots=2 max_slots=3\n' > "$AL_TMP/hosts-max"
tcase alloc.max-slots-ok -t 60 -out "rank 2 of 3 universe" -- \
    $AL $MPIEXEC --hostfile "$AL_TMP/hosts-max" -n 3 --oversubscribe $TB/alloc_where
tcase alloc.max-slots-refused -t 30 -rc 2 -err "4 processes requested but the max_slots of the hosts allow only 3" -- \
    $AL $MPIEXEC --hostfile "$AL_TMP/hosts-max" -n 4 --oversubscribe $TB/alloc_where
printf 'localhost slots=2\nother slots=x\n' > "$AL_TMP/bad"
tcase alloc.hostfile-bad-line -t 30 -rc 2 -err "hostfile .*/bad line 2: slots='x' is not a positive number" -- \
    $AL $MPIEXEC --hostfile "$AL_TMP/bad" $TB/alloc_where
tcase alloc.hostfile-missing -t 30 -rc 2 -err "hostfile .*/missing: No such file or directory" -- \
    $AL $MPIEXEC --hostfile "$AL_TMP/missing" $TB/alloc_where
printf '# nothing\n' > "$AL_TMP/empty"
tcase alloc.hostfile-empty -t 30 -rc 2 -err "hostfile .*/empty: no hosts" -- \
    $AL $MPIEXEC --hostfile "$AL_TMP/empty" $TB/alloc_where
tcase alloc.mca-ignored -t 60 -err "ignoring --mca btl self \(not used by Tide\)" -out "rank 1 of 2" -- \
    $AL $MPIEXEC --mca btl self -n 2 $TB/alloc_where
tcase alloc.map-by-node -t 60 -out "node 1 127\.0\.0\.2 \(2 slots\): ranks 1 3$" -- \
    $AL $MPIEXEC --host localhost:2,127.0.0.2:2 --map-by node --display-map -n 4 $TB/alloc_where
tcase alloc.map-by-node-where -t 60 -out "rank 3 of 4 universe 4 on 127\.0\.0\.2" -- \
    $AL $MPIEXEC --host localhost:2,127.0.0.2:2 --map-by node -n 4 $TB/alloc_where
tcase alloc.map-by-slot -t 60 -out "node 0 localhost \(2 slots\): ranks 0 1$" -- \
    $AL $MPIEXEC --host localhost:2,127.0.0.2:2 --display-map -n 4 $TB/alloc_where
tcase alloc.rank-by-node -t 60 -out "node 0 localhost \(2 slots\): ranks 0 2$" -- \
    $AL $MPIEXEC --host localhost:2,127.0.0.2:2 --rank-by node --display-map -n 4 $TB/alloc_where
tcase alloc.ppn -t 60 -out "node 1 127\.0\.0\.2 \(4 slots\): ranks 1$" -noout "rank 2 of" -- \
    $AL $MPIEXEC --host localhost:4,127.0.0.2:4 -ppn 1 --display-map $TB/alloc_where
tcase alloc.ppr-too-few -t 30 -rc 2 -err "5 processes requested but 2 per node on 2 nodes place at most 4" -- \
    $AL $MPIEXEC --host localhost:4,127.0.0.2:4 --map-by ppr:2:node -n 5 $TB/alloc_where
tcase alloc.cpus-per-rank -t 30 -rc 2 -err "3 processes of 2 cpus each need 6 slots" -- \
    $AL $MPIEXEC --host localhost:4 --cpus-per-rank 2 --bind-to none -n 3 $TB/alloc_where
tcase alloc.pe-no-n -t 60 -out "rank 1 of 2 universe 4" -noout "rank 2 of" -- \
    $AL $MPIEXEC --host localhost:4 --map-by slot:PE=2 --bind-to none $TB/alloc_where
tcase alloc.universe-size -t 60 -out "rank 0 of 1 universe 9" -- \
    $AL $MPIEXEC --host localhost:2 --universe-size 9 -n 1 $TB/alloc_where
tcase alloc.bad-map-by -t 30 -rc 2 -err "--map-by 'diagonal': unknown policy" -- \
    $AL $MPIEXEC --map-by diagonal $TB/alloc_where
tcase alloc.mpmd-two-without-n -t 30 -rc 2 -err "programs 1 and 2 have no -n" -- \
    $AL $MPIEXEC --host localhost:2 $TB/alloc_where : $TB/alloc_where
tcase alloc.host-in-hostfile -t 60 -out "rank 1 of 2 universe 2 on localhost" -noout "rank 2 of" -- \
    $AL $MPIEXEC --host localhost --hostfile "$AL_TMP/hosts" $TB/alloc_where
tcase alloc.host-not-in-hostfile -t 30 -rc 2 -err "--host 127\.0\.0\.3: not in hostfile" -- \
    $AL $MPIEXEC --host 127.0.0.3 --hostfile "$AL_TMP/hosts" $TB/alloc_where
tcase alloc.ppr-socket -t 60 -out "node 0 localhost \(64 slots\): ranks 0" -- \
    $AL $MPIEXEC --host localhost:64 --map-by ppr:1:socket --bind-to none --display-map $TB/alloc_where
tcase alloc.bad-host-count -t 30 -rc 2 -err "--host 'localhost:0': bad slot count" -- \
    $AL $MPIEXEC --host localhost:0 $TB/alloc_where
