# suite_listeners.sh: hostile clients of tided's PMIx listener and of
# tide-nameserver (see docs/SECURITY.md, "Listeners"). tided's cases run
# tests/security/tided_probe.sh as the rank of a one-rank job, so it finds
# its tided (its parent) and tided's PMIx address (its environment).
LS_H=$(tbuild hostile_pmix "$S/tests/security/hostile_pmix.c") || LS_H=""
LS_P="$S/tests/security/tided_probe.sh"
LS_BAD="BAD|STALLED|UNBOUNDED|STILL UP|spawn failed"
if [ -n "$LS_H" ]; then
    # one silent connection held 30 s must not stall a spawn
    tcase listen.tided.idle -t 60 -out "fds back down" -noout "$LS_BAD" -- \
        $MPIEXEC -n 1 sh "$LS_P" "$LS_H" "$TB/dpm_spawn" idle
    # 1000 silent connections: tided keeps at most auth_max_pending of them
    tcase listen.tided.flood -t 90 -out "fds back down" -noout "$LS_BAD" -- \
        $MPIEXEC -n 1 sh "$LS_P" "$LS_H" "$TB/dpm_spawn" flood
    # a silent peer is closed after auth_timeout (1 s here)
    tcase listen.tided.deadline -t 60 -out "probe ok" -noout "$LS_BAD" -- \
        env TIDE_AUTH_TIMEOUT=1 PROBE_MIN_MS=800 PROBE_MAX_MS=2500 \
        $MPIEXEC -n 1 sh "$LS_P" "$LS_H" "$TB/dpm_spawn" silent
    tcase listen.tided.partial -t 60 -out "probe ok" -noout "$LS_BAD" -- \
        env TIDE_AUTH_TIMEOUT=1 PROBE_MIN_MS=800 PROBE_MAX_MS=2500 \
        $MPIEXEC -n 1 sh "$LS_P" "$LS_H" "$TB/dpm_spawn" partial
    # garbage and absurd lengths are dropped at once; tided lives on
    for k in garbage absurd huge; do
        tcase listen.tided.$k -t 60 -out "probe ok" -noout "$LS_BAD" -- \
            $MPIEXEC -n 1 sh "$LS_P" "$LS_H" "$TB/dpm_spawn" $k
    done
    # another user cannot even hold a connection open
    if [ "$(id -u)" = 0 ]; then
        tcase listen.tided.other-uid -t 60 -out "probe ok" -noout "$LS_BAD" -- \
            $MPIEXEC -n 1 sh "$LS_P" "$LS_H" "$TB/dpm_spawn" uid
    else
        tskip listen.tided.other-uid "needs root to run a client as another user"
    fi
fi
