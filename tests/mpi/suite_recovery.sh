# suite_recovery.sh: recovery mode (docs/FAULTS.md): a rank that fails, or
# a lost node daemon, leaves the job running; every surviving rank, of
# every job, gets one PMIx event (PMIX_ERR_PROC_TERM_WO_SYNC) per failed
# rank; mpiexec says so, and ends with the survivors' status and a summary
# line. Without recovery mode a failure still ends the job.
# The programs (recovery_*.c) call libpmix themselves: built here with
# pmix's flags (the plain build of the MPI tests makes stubs of them).

REC_TMP="$B/tests/rec-tmp"
REC_BIN="$B/tests/recovery-bin"
rm -rf "$REC_TMP"
mkdir -p "$REC_TMP" "$REC_BIN"

# rec_build NAME: $REC_BIN/NAME from tests/mpi/NAME.c, with libpmix
rec_build() {
    rb_src="$S/tests/mpi/$1.c"
    rb_out="$REC_BIN/$1"
    if [ ! -x "$rb_out" ] || [ "$rb_src" -nt "$rb_out" ] || [ "$S/tests/mpi/recovery_events.h" -nt "$rb_out" ] ||
       [ "$B/lib/.libs/libmpi.so" -nt "$rb_out" ]; then
        "$B/bin/mpicc" -O1 -g -Wall -Wextra -Werror -o "$rb_out" "$rb_src" $(pkg-config --cflags --libs pmix) \
            -lpthread > "$T_LOGDIR/build.$1.log" 2>&1 ||
            { tfail "build.$1" "does not compile: $(head -c 600 "$T_LOGDIR/build.$1.log")"; return 1; }
    fi
    return 0
}

# no session directory and no process of the recovery programs left
rec_no_leftovers() {
    i=0
    while [ $i -lt 50 ]; do
        left=$(ls -A "$REC_TMP" 2>/dev/null)
        procs=$(pgrep -f "$REC_BIN/" 2>/dev/null)
        tdd=$(pgrep -f "tided.*$REC_TMP" 2>/dev/null)
        [ -z "$left$procs$tdd" ] && return 0
        sleep 0.1
        i=$((i + 1))
    done
    echo "leftover files: $left; processes: $procs $tdd"
    return 1
}

RMPIEXEC="env TIDE_TMPDIR=$REC_TMP $MPIEXEC"
RK="$REC_BIN/recovery_kill"
GOES_ON="rank 2 \(pid [0-9]+\) on host .* was killed by signal 9 \(Killed\); the job goes on \(recovery mode\)"
SUMMARY="mpiexec: 1 rank failed and the job went on \(recovery mode\): rank 2$"

if rec_build recovery_kill; then
    # rank 2 kills itself: the others are told, and the job ends well
    for how in "--enable-recovery" "--with-ft ulfm" "--with-ft=ulfm" "--param enable_recovery=1"; do
        opt=$(echo "$how" | sed 's/^--//; s/ /-/g; s/=/_/g')
        tcase rec.kill.$opt -t 60 -out "recovery_kill: rank 3 ok \(1 events\)" -err "$GOES_ON" -- \
            $RMPIEXEC $how -n 4 $RK kill 2 137
        tcheck rec.kill.$opt.summary grep -Eq "$SUMMARY" "$T_LOGDIR/rec.kill.$opt.err"
    done
    tcase rec.kill.env -t 60 -out "recovery_kill: rank 0 ok \(1 events\)" -err "$SUMMARY" -- \
        env TIDE_ENABLE_RECOVERY=1 $RMPIEXEC -n 4 $RK kill 2 137
    tcheck rec.kill.cleanup rec_no_leftovers
    # without recovery mode (also when the option undoes the parameter) the
    # job ends as it always did
    tcase rec.none.kill -t 60 -rc 137 -err "rank 2 \(pid [0-9]+\) on host .* was killed by signal 9 \(Killed\)$" \
        -noout "recovery mode" -- $RMPIEXEC -n 4 $RK kill 2 137
    tcase rec.none.disabled -t 60 -rc 137 -err "rank 2 \(pid [0-9]+\) on host .* was killed by signal 9 \(Killed\)$" \
        -noout "recovery mode" -- env TIDE_ENABLE_RECOVERY=1 $RMPIEXEC --disable-recovery -n 4 $RK kill 2 137
    tcase rec.none.exit -t 60 -rc 3 -err "rank 1 .* exited with status 3$" -- $RMPIEXEC -n 3 $RK exit 1 3
    tcheck rec.none.cleanup rec_no_leftovers
    # a rank that exits(3), or exits without MPI_Finalize: the exit code
    # travels with the event
    tcase rec.exit -t 60 -out "recovery_kill: rank 0 ok \(1 events\)" \
        -err "rank 3 \(pid [0-9]+\) on host .* exited with status 3; the job goes on" -- \
        $RMPIEXEC --enable-recovery -n 4 $RK exit 3 3
    tcase rec.no-finalize -t 60 -out "recovery_kill: rank 2 ok \(1 events\)" \
        -err "rank 1 \(pid [0-9]+\) on host .* exited without calling MPI_Finalize; the job goes on" -- \
        $RMPIEXEC --enable-recovery -n 4 $RK nofinalize 1 0
    # three ranks of eight die at once: each survivor hears of each once
    tcase rec.many -t 90 -out "recovery_kill: rank 7 ok \(3 events\)" \
        -err "mpiexec: 3 ranks failed and the job went on \(recovery mode\): rank [146], rank [146], rank [146]$" -- \
        $RMPIEXEC --enable-recovery -n 8 $RK kill 1,4,6 137
    tcheck rec.many.all-survivors sh -c "[ \$(grep -c 'ok (3 events)' '$T_LOGDIR/rec.many.out') -eq 5 ]"
    # across simulated nodes; node 2 loses every rank it had, so fences
    # (MPI_Finalize's) must not wait for it
    tcase rec.sim-nodes -t 90 -out "recovery_kill: rank 4 ok \(2 events\)" -err "2 ranks failed" -- \
        env TIDE_SIM_NODES=3 $RMPIEXEC --enable-recovery --map-by node -n 6 $RK kill 2,5 137
    tcheck rec.sim-nodes.cleanup rec_no_leftovers
fi

# what still ends a job in recovery mode: MPI_Abort, --timeout; and a run
# in which no rank outlived the failures does not report success
tcase rec.abort -t 60 -rc 5 -err "rank 1 on host .*MPI_Abort\(MPI_COMM_WORLD, 5\)" -noout "recovery mode" -- \
    $RMPIEXEC --enable-recovery -n 3 $TB/rt_behave abort 1 5
tcase rec.timeout -t 60 -rc 124 -err "timed out after 2 seconds" -- \
    $RMPIEXEC --enable-recovery --timeout 2 -n 3 $TB/rt_behave hang
tcase rec.all-failed -t 60 -rc 3 -err "2 ranks failed and the job went on \(recovery mode\): rank [01], rank [01]$" -- \
    $RMPIEXEC --enable-recovery -n 2 sh -c 'exit 3'
tcheck rec.ends.cleanup rec_no_leftovers

if rec_build recovery_spawn; then
    # children spawned in recovery mode by a parent that is not: the parent
    # and the other children hear of child 1
    tcase rec.spawn -t 90 -out "recovery_spawn: ok" \
        -err "rank 1 of spawned job 1 \(pid [0-9]+\) on host .* was killed by signal 9 \(Killed\); the job goes on" -- \
        $RMPIEXEC -n 1 "$REC_BIN/recovery_spawn" true
    tcheck rec.spawn.summary grep -Eq "1 rank failed and the job went on \(recovery mode\): rank 1 of spawned job 1$" \
        "$T_LOGDIR/rec.spawn.err"
    # the other way: mpiexec in recovery mode, the spawned job not
    tcase rec.spawn.not -t 90 -rc 137 -err "rank 1 of spawned job 1 \(pid [0-9]+\) on host .* was killed by signal 9 \(Killed\)$" \
        -noout "recovery_spawn: ok|the job goes on" -- $RMPIEXEC --enable-recovery -n 1 "$REC_BIN/recovery_spawn" false
    # a value that is not true or false: the spawn is refused, saying why
    tcase rec.spawn.bad-value -t 60 -rc any -err "invalid 'enable_recovery' value 'maybe'" -noout "recovery_spawn: ok" -- \
        $RMPIEXEC -n 1 "$REC_BIN/recovery_spawn" maybe
    tcheck rec.spawn.cleanup rec_no_leftovers
fi

if rec_build recovery_node; then
    # the last node's daemon is killed: its ranks are failed, they are gone,
    # and the job ends well on the other nodes
    tcase rec.node-lost -t 90 -out "recovery_node: ok: 2 ranks lost with their node, all gone" \
        -err "lost contact with tided on node 2 .*its ranks \(rank 2, rank 5\) have failed; the job goes on" -- \
        env TIDE_SIM_NODES=3 $RMPIEXEC --enable-recovery --map-by node -n 6 "$REC_BIN/recovery_node"
    tcheck rec.node-lost.summary grep -Eq "2 ranks failed and the job went on \(recovery mode\): rank 2, rank 5$" \
        "$T_LOGDIR/rec.node-lost.err"
    tcheck rec.node-lost.cleanup rec_no_leftovers
fi

# Across hosts, through the tree of daemons (each host a network namespace
# of this machine: tests/multinode/hosts.sh; skipped where they cannot be
# made). tree_radix=1 makes a chain: mpiexec, then the first host's
# daemon, which links the second's, which links the third's; --map-by
# node puts ranks 0,3 on the first, 1,4 on the second, 2,5 on the third.
rec_tree_wanted() { [ -z "$T_FILTER" ] || echo "rec.tree.x" | grep -Eq "$T_FILTER"; }
rec_tree_left() {
    i=0
    while [ -n "$(mn_pids)" ] && [ $i -lt 100 ]; do
        sleep 0.05
        i=$((i + 1))
    done
    [ -z "$(mn_pids)" ] || { echo "left running:"; mn_pids; return 1; }
}
if rec_tree_wanted && [ -x "$RK" ] && [ -x "$REC_BIN/recovery_node" ]; then
    MN_HERE="$S/tests/multinode"
    . "$MN_HERE/hosts.sh"
    mn_setup 3
    rec_mn=$?
    if [ $rec_mn -eq "$MN_SKIP" ]; then
        tskip rec.tree "$MN_SKIP_REASON"
    elif [ $rec_mn -ne 0 ]; then
        tfail rec.tree.setup "mn_setup failed"
    else
        set -- $MN_HOSTS
        RTREE="$MPIEXEC --enable-recovery --param tree_radix=1 --launch-agent $MN_AGENT --host $1:2,$2:2,$3:2 --map-by node -n 6 --param if_include=$MN_NET"
        # every rank of the last daemon of the chain dies (the daemon lives):
        # the fences passing through the middle daemon go on without them
        tcase rec.tree.leaf-ranks -t 90 -out "recovery_kill: rank 4 ok \(2 events\)" -err "2 ranks failed" -- \
            $RTREE $RK kill 2,5 137
        # every rank of the middle daemon dies: it still passes the others'
        # fences on (it keeps the job's description)
        tcase rec.tree.middle-ranks -t 90 -out "recovery_kill: rank 5 ok \(2 events\)" -err "2 ranks failed" -- \
            $RTREE $RK kill 1,4 137
        # the last daemon of the chain is killed: its parent reports it
        tcase rec.tree.node-lost -t 90 -out "recovery_node: ok: 2 ranks lost with their node, all gone" \
            -err "lost contact with tided on node 2 .*its ranks \(rank 2, rank 5\) have failed; the job goes on" -- \
            $RTREE "$REC_BIN/recovery_node"
        tcheck rec.tree.cleanup rec_tree_left
        mn_teardown
    fi
fi
