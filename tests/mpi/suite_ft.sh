# suite_ft.sh: process failures reported to the application and the job
# going on (mpiexec --enable-recovery; mpi-ext.h: MPIX_Comm_revoke,
# agree, shrink, failure acknowledgement). Ranks kill themselves
# (SIGKILL) at chosen points; the survivors must see the failure where
# the standard's ULFM text says, never hang, and finish a computation on
# the shrunk communicator with the right answer.

FT="$MPIEXEC --enable-recovery"

# point-to-point: a pending receive, sends, wildcard receives and their
# acknowledgement, barrier, agree, shrink, revoke (ft_pt2pt.c)
tcase ft.pt2pt.4 -t 60 -out "ft_pt2pt: ok .3 survivors" -err "rank 3 .* killed by signal 9" -- $FT -n 4 $TB/ft_pt2pt
tcase ft.pt2pt.8 -t 60 -out "ft_pt2pt: ok .7 survivors" -- $FT -n 8 $TB/ft_pt2pt
tcase ft.pt2pt.tcp -t 60 -out "ft_pt2pt: ok .5 survivors" -- env TIDE_TRANSPORTS=tcp,self $FT -n 6 $TB/ft_pt2pt
tcase ft.pt2pt.sim-nodes -t 60 -out "ft_pt2pt: ok .5 survivors" -- env TIDE_SIM_NODES=3 $FT -n 6 $TB/ft_pt2pt
# the same switch by parameter and by Open MPI's spelling
tcase ft.pt2pt.param -t 60 -out "ft_pt2pt: ok" -- env TIDE_ENABLE_RECOVERY=1 $MPIEXEC -n 4 $TB/ft_pt2pt
tcase ft.pt2pt.with-ft -t 60 -out "ft_pt2pt: ok" -- $MPIEXEC --with-ft ulfm -n 4 $TB/ft_pt2pt
# without recovery mode a death still ends the job, fast
tcase ft.pt2pt.no-recovery -t 60 -rc 137 -err "rank 3 .* killed by signal 9" -- $MPIEXEC -n 4 $TB/ft_pt2pt

# the predefined attribute MPIX_FT: 1 in recovery mode, 0 otherwise
tcase ft.attr.recovery -t 30 -out "ft_attr: flag 1 value 1" -- $FT -n 2 $TB/ft_attr
tcase ft.attr.no-recovery -t 30 -out "ft_attr: flag 1 value 0" -- $MPIEXEC -n 2 $TB/ft_attr

# a revocation reaches every survivor though all they call is a barrier
# that fails at once (it still reads the others' notices), and pending
# requests on the revoked communicator end with MPIX_ERR_REVOKED; on one
# core, where the revoking rank and the readers take turns, too
tcase ft.revoke.spread -t 60 -out "ft_revoke_spread: ok .3 survivors" -- $FT -n 4 $TB/ft_revoke_spread
tcase ft.revoke.spread.one-core -t 60 -out "ft_revoke_spread: ok .5 survivors" -- taskset -c 0 $FT -n 6 $TB/ft_revoke_spread
for m in waitall testall waitsome waitany; do
    tcase ft.revoke.spread.$m -t 60 -out "ft_revoke_spread: ok .3 survivors" -- taskset -c 0 $FT -n 4 $TB/ft_revoke_spread $m
done
# a large send queued behind a full ring when its communicator is revoked
# ends with the revocation (it used to wait for an answer for ever); the
# receiver, whose only call is MPIX_Comm_is_revoked, learns of it
tcase ft.revoke.queued -t 60 -out "ft_revoke_queued: ok" -- $FT -n 2 $TB/ft_revoke_queued
# a revocation whose notice comes before the revoked communicator is made
# here (the revoker finished MPI_Comm_dup first) revokes its
# point-to-point side here too: operations on it end, never wait for ever
tcase ft.revoke.early -t 90 -out "ft_revoke_early: ok .40 rounds" -- $FT -n 4 $TB/ft_revoke_early
tcase ft.revoke.early.one-core -t 90 -out "ft_revoke_early: ok .40 rounds" -- taskset -c 0 $FT -n 6 $TB/ft_revoke_early
tcase ft.revoke.spread.tcp -t 60 -out "ft_revoke_spread: ok .4 survivors" -- env TIDE_TRANSPORTS=tcp,self $FT -n 5 $TB/ft_revoke_spread

# a death during each collective: the root (0) and another rank (2)
for c in barrier bcast reduce allreduce gather allgather allgatherv scatter alltoall scan exscan \
         reduce_scatter_block ibarrier iallreduce; do
    tcase ft.coll.$c.root -t 60 -out "ft_coll: $c ok, 1 rounds, 4 survivors" -- $FT -n 5 $TB/ft_coll $c 0
    tcase ft.coll.$c.other -t 60 -out "ft_coll: $c ok, 1 rounds, 4 survivors" -- $FT -n 5 $TB/ft_coll $c 2
done
# every collective in turn, one more death in each, at 16 ranks
tcase ft.coll.all.16 -t 120 -out "ft_coll: all ok, 14 rounds, 2 survivors" -- $FT -n 16 $TB/ft_coll all 5
tcase ft.coll.all.sim-nodes -t 120 -out "ft_coll: all ok, 14 rounds, 2 survivors" -- \
    env TIDE_SIM_NODES=3 $FT -n 16 $TB/ft_coll all 3

# chaos: random deaths over many iterations; nothing hangs, survivors agree
for seed in 1 2 3; do
    tcase ft.chaos.$seed -t 120 -out "ft_chaos: 300 iterations, 8 kills, 4 survivors" -- $FT -n 12 $TB/ft_chaos 300 8 $seed
done
tcase ft.chaos.tcp -t 120 -out "ft_chaos: 200 iterations, 5 kills, 3 survivors" -- \
    env TIDE_TRANSPORTS=tcp,self $FT -n 8 $TB/ft_chaos 200 5 11
tcase ft.chaos.sim-nodes -t 120 -out "ft_chaos: 200 iterations, 6 kills, 4 survivors" -- \
    env TIDE_SIM_NODES=3 $FT -n 10 $TB/ft_chaos 200 6 5

# spawned children: a death across the intercommunicator, and a shrink
# of the intercommunicator by parents and children together
tcase ft.spawn.1 -t 60 -out "ft_spawn: 3 children, child 1 failed, 2 shrunk" -- $FT -n 2 $TB/ft_spawn 3 1 run
# a child that dies before MPI_Init: its job cannot start; the spawn fails
# at the parents (MPI_ERR_SPAWN), which go on
tcase ft.spawn.init -t 60 -out "ft_spawn: init death reported .class 50, code of child 1: 50" \
    -err "died before it started" -- $FT -n 2 $TB/ft_spawn 3 1 init
# the parent rank dies before its child's MPI_Init joins it: the child
# must not go on as a job of its own (it would spawn again, thinking it is
# a parent): MPI_Init ends it, saying why; with the initial error handler
# mpi_errors_return, MPI_Init returns the error instead
tcase ft.spawn.orphan -t 60 -rc any -err "MPI_ERRORS_ARE_FATAL on MPI_Init: " -noout "child went on" -- \
    $FT -n 2 $TB/init_fails orphan
tcase ft.spawn.orphan.return -t 60 -rc any -out "init_fails: MPI_Init returned class" -- \
    $FT --param initial_errhandler=mpi_errors_return -n 2 $TB/init_fails orphan
# a spawn over a communicator holding a failed parent fails; the children
# it launched end by themselves (their MPI_Init fails), and the parents'
# job goes on (children wait for their parents pmix_timeout, connect_timeout)
tcase ft.spawn.refused -t 60 -out "ft_spawn_refused: spawn failed, 2 survivors go on" \
    -err "of spawned job .* exited with status" -noout "called MPI_Abort" -- $FT --param pmix_timeout=5 --param connect_timeout=5 -n 3 $TB/ft_spawn_refused
tcase ft.spawn.leader -t 60 -out "ft_spawn: 3 children, child 0 failed, 2 shrunk" -- $FT -n 1 $TB/ft_spawn 3 0 run

# a server with 5 client jobs (each its own mpiexec, no recovery mode), 2
# of which die mid-session: the server serves the other 3 to the end
FT_TMP=$(mktemp -d)
ft_server_clients() {
    pf="$FT_TMP/port.$1"
    rm -f "$pf"
    env $2 $MPIEXEC --timeout 60 -n 1 $TB/ft_server server "$pf" 5 2 > "$FT_TMP/server.out" 2>&1 &
    spid=$!
    i=0
    while [ ! -s "$pf" ] && [ $i -lt 300 ]; do sleep 0.05; i=$((i + 1)); done
    [ -s "$pf" ] || { echo "no port file"; kill $spid; return 1; }
    cpids=""
    for k in 0 1 2 3 4; do
        die=0
        [ $k = 1 ] || [ $k = 3 ] && die=1
        env $2 $MPIEXEC --timeout 60 -n 1 $TB/ft_server client "$pf" $k $die > "$FT_TMP/client.$k" 2>&1 &
        cpids="$cpids $!"
    done
    wait $spid || { cat "$FT_TMP/server.out"; return 1; }
    for p in $cpids; do wait $p; done
    grep -q "ft_server: served 3 clients, 2 failed" "$FT_TMP/server.out" &&
        grep -q "killed by signal 9" "$FT_TMP/client.1" && grep -q "killed by signal 9" "$FT_TMP/client.3"
}
tcheck ft.server.shm ft_server_clients shm X=1
tcheck ft.server.tcp ft_server_clients tcp TIDE_TRANSPORTS=tcp,self
rm -rf "$FT_TMP"

# a node daemon dies with its ranks: the other nodes' ranks shrink and go on
tcase ft.node-lost -t 60 -out "ft_node: node .* lost, 6 of 9 ranks go on" -- env TIDE_SIM_NODES=3 $FT -n 9 $TB/ft_node

# one-sided: passive target, PSCW and fence meeting a dead target, then a
# window of the shrunk communicator
tcase ft.rma -t 60 -out "ft_rma: ok .3 survivors" -- $FT -n 4 $TB/ft_rma
tcase ft.rma.sim-nodes -t 60 -out "ft_rma: ok .3 survivors" -- env TIDE_SIM_NODES=4 $FT -n 4 $TB/ft_rma

# MPI-IO: a collective write and the close meet the dead; the file is
# written again on the shrunk communicator
FTIO_TMP=$(mktemp -d)
tcase ft.io -t 60 -out "ft_io: ok .3 survivors" -- $FT -n 4 $TB/ft_io "$FTIO_TMP"
tcase ft.io.sim-nodes -t 60 -out "ft_io: ok .3 survivors" -- env TIDE_SIM_NODES=4 $FT -n 4 $TB/ft_io "$FTIO_TMP"
rm -rf "$FTIO_TMP"
