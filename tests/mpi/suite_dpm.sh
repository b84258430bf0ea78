# suite_dpm.sh: dynamic processes: spawn, ports, connect/accept (also
# between two mpiexec invocations), names, join, disconnect.

DPM_TMP="$B/tests/dpm-tmp"
rm -rf "$DPM_TMP"
mkdir -p "$DPM_TMP"

tcase dpm.spawn.1 -t 60 -out "1 children" -- $MPIEXEC -n 1 $TB/dpm_spawn 1
tcase dpm.spawn.4 -t 60 -out "4 children" -- $MPIEXEC -n 2 $TB/dpm_spawn 4 1
tcase dpm.spawn.16 -t 120 -out "16 children" -- $MPIEXEC -n 1 $TB/dpm_spawn 16
tcase dpm.spawn.sim-nodes -t 60 -out "3 children" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 2 $TB/dpm_spawn 3
tcase dpm.sizes -t 60 -out "dpm_sizes: 22 sizes to and from 4 children" -- $MPIEXEC -n 1 $TB/dpm_sizes 4
tcase dpm.sizes.no-cma -t 60 -out "dpm_sizes: 22 sizes" -- env TIDE_SHM_CMA=0 $MPIEXEC -n 1 $TB/dpm_sizes 4
# a parent with small rings (children outnumbering the cores use large ones)
tcase dpm.sizes.small-rings -t 60 -out "dpm_sizes: 22 sizes" -- env TIDE_SHM_RING_SIZE=16384 $MPIEXEC -n 2 $TB/dpm_sizes 3
tcase dpm.spawn-multiple -t 60 -- $MPIEXEC -n 2 $TB/dpm_spawn_multiple "$DPM_TMP"
tcase dpm.spawn-errors -t 60 -err "mpiexec: a spawn request was refused: cannot run .*No such file" -- $MPIEXEC -n 2 $TB/dpm_spawn_errors
tcase dpm.nested -t 60 -out "result 20" -- $MPIEXEC -n 1 $TB/dpm_nested
tcase dpm.spawn-finish -t 90 -out "dpm_spawn_finish: 45 rounds" -- $MPIEXEC -n 1 $TB/dpm_spawn_finish 45
spawn_rounds=500
[ -n "$T_SANITIZED" ] && spawn_rounds=100
tcase dpm.spawn-loop -t 300 -out "$spawn_rounds spawn/disconnect rounds" -- $MPIEXEC -n 1 $TB/dpm_spawn_loop $spawn_rounds
tcase dpm.ports -t 60 -- $MPIEXEC -n 3 $TB/dpm_ports
tcase dpm.names -t 60 -- $MPIEXEC -n 3 $TB/dpm_names
tcase dpm.join -t 60 -- $MPIEXEC -n 2 $TB/dpm_join
tcase dpm.child-crash -t 60 -rc 139 -err "killed by signal 11" -- env ASAN_OPTIONS=handle_segv=0 $MPIEXEC -n 1 $TB/dpm_crash

# the standard's client/server example, between two mpiexec jobs
dpm_two_jobs() {
    pf="$DPM_TMP/port.$$"
    rm -f "$pf"
    $MPIEXEC --timeout 60 -n 3 $TB/dpm_server server "$pf" 1 2 > "$DPM_TMP/server.out" 2>&1 &
    spid=$!
    i=0
    while [ ! -s "$pf" ] && [ $i -lt 300 ]; do sleep 0.05; i=$((i + 1)); done
    [ -s "$pf" ] || { echo "no port file"; kill $spid; return 1; }
    $MPIEXEC --timeout 60 -n 4 $TB/dpm_server client "$pf" 2 || { kill $spid; return 1; }
    $MPIEXEC --timeout 60 -n 2 $TB/dpm_server client "$pf" 0 || { kill $spid; return 1; }
    wait $spid || return 1
    grep -q "served 2 clients" "$DPM_TMP/server.out"
}
tcheck dpm.connect-two-jobs dpm_two_jobs

# collectives on the intercommunicators of spawn, of connect/accept in one
# job, and of connect/accept between two mpiexec jobs
tcase dpm.coll.spawn -t 60 -out "dpm_coll: ok .3.2." -- $MPIEXEC -n 3 $TB/dpm_coll spawn 2
# the merged communicator of parents and children is one node's: its
# collectives go through the shared region, across the two jobs
tcase dpm.coll.spawn-region -t 60 -out "dpm_coll: ok .3.2." -err "alltoallv on 5 ranks.*: get" \
    -noout "cannot all read" -- env TIDE_VERBOSE=3 $MPIEXEC -n 3 $TB/dpm_coll spawn 2
tcase dpm.coll.spawn-tcp -t 60 -out "dpm_coll: ok .2.3." -- env TIDE_TRANSPORTS=tcp,self $MPIEXEC -n 2 $TB/dpm_coll spawn 3
tcase dpm.coll.ports -t 60 -out "dpm_coll: ok .2.3." -- $MPIEXEC -n 5 $TB/dpm_coll ports
dpm_coll_two_jobs() {
    pf="$DPM_TMP/collport.$$"
    rm -f "$pf"
    $MPIEXEC --timeout 60 -n 2 $TB/dpm_coll server "$pf" > "$DPM_TMP/collserver.out" 2>&1 &
    spid=$!
    i=0
    while [ ! -s "$pf" ] && [ $i -lt 300 ]; do sleep 0.05; i=$((i + 1)); done
    [ -s "$pf" ] || { echo "no port file"; kill $spid; return 1; }
    $MPIEXEC --timeout 60 -n 3 $TB/dpm_coll client "$pf" || { kill $spid; return 1; }
    wait $spid || { cat "$DPM_TMP/collserver.out"; return 1; }
    grep -q "dpm_coll: ok (2+3)" "$DPM_TMP/collserver.out"
}
tcheck dpm.coll.two-jobs dpm_coll_two_jobs
tcase dpm.manager-worker -t 60 -out "5 workers, result 328350" -- $MPIEXEC -n 1 --universe-size 6 $TB/dpm_manager
tcase dpm.singleton-spawn -t 60 -out "2 children" -- $TB/dpm_spawn 2
tcase dpm.hostile-listeners -t 120 -out "survived" -- env TIDE_TRANSPORTS=tcp,self $MPIEXEC -n 2 $TB/rt_hostile
