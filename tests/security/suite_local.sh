# suite_local.sh: what other local processes can do to a rank: its
# shared-memory doorbell (another user floods it) and who may read its
# memory (single-copy transfers refused by the kernel, as under Yama's
# ptrace_scope=1 when ranks are not started by their tided).

if FLOOD=$(tbuild bell_flood "$S/tests/security/bell_flood.c"); then
    if [ "$(id -u)" = 0 ] && id nobody > /dev/null 2>&1 && [ -x /usr/bin/setpriv ]; then
        tcase local.doorbell.other-user -t 60 -out "message delivered after the flood" -out "(no token bytes|the card shows no token)" \
            -err "doorbell: [0-9]+ datagrams from other users dropped" -- \
            env TIDE_VERBOSE=1 $MPIEXEC -n 2 $TB/shm_doorbell "$FLOOD" 2000
    else
        tskip local.doorbell.other-user "needs root, user nobody and setpriv"
    fi
fi

# single-copy transfers refused at first use: every size still arrives,
# through the rings, with no error
tcase local.cma-refused.p2p-modes -t 120 -err "single-copy transfers refused" -- \
    env TIDE_VERBOSE=1 TIDE_TEST_CMA_REFUSED=1 $MPIEXEC -n 3 $TB/p2p_modes
tcase local.cma-refused.p2p-large-count -t 120 -out "p2p_large_count: ok" -- \
    env TIDE_TEST_CMA_REFUSED=1 TIDE_TEST_NO_BIG=1 $MPIEXEC -n 2 $TB/p2p_large_count
tcase local.cma-refused.dpm-sizes -t 120 -out "dpm_sizes: 22 sizes to and from 4 children" \
    -err "single-copy transfers refused" -- env TIDE_VERBOSE=1 TIDE_TEST_CMA_REFUSED=1 $MPIEXEC -n 1 $TB/dpm_sizes 4
tcase local.cma-refused.coll-get -t 120 -out "coll_get: ok" -err "cannot all read" -- \
    env TIDE_VERBOSE=2 TIDE_TEST_CMA_REFUSED=1 $MPIEXEC -n 4 $TB/coll_get
tcase local.cma-refused.coll-ops -t 180 -out "coll_ops: ok" -- \
    env TIDE_TEST_CMA_REFUSED=1 $MPIEXEC -n 3 $TB/coll_ops big
