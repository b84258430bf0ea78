# suite_leaks.sh: nothing grows with the number of MPI_Comm_spawn +
# MPI_Comm_disconnect cycles, in the spawning rank, in tided and in
# mpiexec (resident memory per cycle between cycles 100 and 500, open
# descriptors). The limits are what libpmix 4.2.2 itself keeps per
# spawned namespace, measured (2.2-2.6 kB in a rank, 6.9-7.2 kB in the
# tided that ran the child, at a load average of 20 on 2 cores: see
# docs/SECURITY.md), plus about 1 kB; without the fixes a cycle cost a
# rank 40 kB. Sanitizer builds check descriptors only (their allocator
# holds freed memory in quarantine), over fewer cycles.
if [ -n "$LSAN_OPTIONS" ]; then
    LEAK_ARGS="150 50 100000 100000"
else
    LEAK_ARGS="500 100 3.5 8"
fi
tcase leaks.spawn-disconnect-cycles -t 240 -out "^flat" -- \
    $MPIEXEC -n 1 $TB/dpm_spawn_cycles $LEAK_ARGS
# children on the other simulated node: two daemons take part
tcase leaks.spawn-disconnect-cycles.sim-nodes -t 240 -out "^flat" -- \
    env TIDE_SIM_NODES=2 $MPIEXEC -n 1 $TB/dpm_spawn_cycles $LEAK_ARGS
