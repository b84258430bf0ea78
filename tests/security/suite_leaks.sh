# suite_leaks.sh: nothing grows with the number of MPI_Comm_spawn +
# MPI_Comm_disconnect cycles, in the spawning rank, in tided and in
# mpiexec (resident memory per cycle between cycles 100 and 500, open
# descriptors). The limits leave room for what libpmix 4.2.2 itself keeps
# per spawned namespace (about 2 kB in a rank, 3-6 kB in a tided: see
# docs/SECURITY.md); without the fixes a cycle cost a rank 40 kB and a
# tided 13 kB. Sanitizer builds check descriptors only (their allocator
# holds freed memory in quarantine), over fewer cycles.
if [ -n "$LSAN_OPTIONS" ]; then
    LEAK_ARGS="150 50 100000 100000"
else
    LEAK_ARGS="500 100 6 9"
fi
tcase leaks.spawn-disconnect-cycles -t 240 -out "^flat" -- \
    $MPIEXEC -n 1 $TB/dpm_spawn_cycles $LEAK_ARGS
# children on the other simulated node: two daemons take part
tcase leaks.spawn-disconnect-cycles.sim-nodes -t 240 -out "^flat" -- \
    env TIDE_SIM_NODES=2 $MPIEXEC -n 1 $TB/dpm_spawn_cycles $LEAK_ARGS
