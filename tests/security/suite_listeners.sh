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
    # nobody reads mpiexec's stderr (tided's log goes there too) while the
    # flood makes tided log 1000 lines at -v: tided and mpiexec go on
    # serving, and the log comes out whole once it is read
    tcase listen.tided.log-stalled -t 120 -out "log-stall ok" -- \
        sh "$S/tests/security/log_stalled.sh" "$MPIEXEC" "$LS_H" "$TB/dpm_spawn" "$LS_P" "$B/tests/log-stall"
    # another user cannot even hold a connection open
    if [ "$(id -u)" = 0 ]; then
        tcase listen.tided.other-uid -t 60 -out "probe ok" -noout "$LS_BAD" -- \
            $MPIEXEC -n 1 sh "$LS_P" "$LS_H" "$TB/dpm_spawn" uid
    else
        tskip listen.tided.other-uid "needs root to run a client as another user"
    fi
fi

# ---- tide-nameserver: silent TLS connections ----
LS_NS="$B/bin/tide-nameserver"
LS_TMP="$B/tests/listen-tmp"
LS_ID="ls$$"
ls_rss() { awk '/^VmRSS:/ {print $2}' /proc/$1/status; }
ls_nfds() { ls /proc/$1/fd | wc -l; }
# start a TLS server (extra options: $@); sets ls_pid, ls_port
ls_ns_start() {
    rm -f "$LS_TMP/ns.uri"
    timeout -k 2 30 "$LS_NS" --uri-file "$LS_TMP/ns.uri" --listen 127.0.0.1 --log-file "$LS_TMP/ns.log" -v "$@" || return 1
    ls_pid=$(sed -n 's/^pid=//p' "$LS_TMP/ns.uri")
    ls_port=$(sed -n '1s/^tide-ns:\/\/127.0.0.1:\([0-9]*\)\/.*/\1/p' "$LS_TMP/ns.uri")
    [ -n "$ls_pid" ] && [ -n "$ls_port" ]
}
ls_ns_stop() { kill "$ls_pid" 2>/dev/null; }
# a real job publishes and looks up a name through the server: it must not
# fall back to job-local names (which it would say on stderr)
ls_ns_job() {
    timeout -k 2 60 $MPIEXEC --nameserver "@$LS_TMP/ns.uri" -n 2 $TB/names_couple pair "$1" \
        > "$LS_TMP/job.out" 2> "$LS_TMP/job.err"
    rc=$?
    cat "$LS_TMP/job.out" "$LS_TMP/job.err"
    [ $rc -eq 0 ] && grep -q "pair found" "$LS_TMP/job.out" && ! grep -qi "name serv" "$LS_TMP/job.err"
}
# 1000 silent connections held while a job uses the server; then the
# connections go and the server's memory must come back near its baseline
ls_ns_flood() {
    ls_ns_start || return 1
    ls_ns_job "warm-$LS_ID" || { ls_ns_stop; return 1; }
    base=$(ls_rss $ls_pid); fbase=$(ls_nfds $ls_pid)
    line=$("$LS_H" hold "tcp4://127.0.0.1:$ls_port" 1000 60 $$) || { ls_ns_stop; return 1; }
    echo "$line"
    holder=${line##* pid }
    during=$(ls_rss $ls_pid); fduring=$(ls_nfds $ls_pid)
    ok=0
    ls_ns_job "flood-$LS_ID" && ok=1
    trims=$(grep -c "memory given back" "$LS_TMP/ns.log")
    kill "$holder"
    # bounded wait for the server to see them go and give their memory back
    i=0
    while [ $i -lt 100 ] && { [ "$(ls_nfds $ls_pid)" -gt $((fbase + 2)) ] ||
                               [ "$(grep -c "memory given back" "$LS_TMP/ns.log")" -le "$trims" ]; }; do
        sleep 0.1; i=$((i + 1))
    done
    after=$(ls_rss $ls_pid); fafter=$(ls_nfds $ls_pid)
    echo "nameserver RSS: $base kB before, $during kB with 1000 silent connections, $after kB after"
    echo "nameserver fds: $fbase before, $fduring during, $fafter after"
    ls_ns_stop
    [ $ok = 1 ] || { echo "the job could not use the name server during the flood"; return 1; }
    [ "$fduring" -le $((fbase + 64 + 8)) ] || { echo "unauthenticated connections not capped"; return 1; }
    # the sanitizer allocator keeps freed memory in quarantine: no RSS check there
    [ -n "$ASAN_OPTIONS" ] || [ "$after" -le $((base + base / 3 + 1024)) ] || { echo "memory not given back"; return 1; }
}
# a silent connection is dropped after auth_timeout (from the parameter,
# or from --auth-timeout)
ls_ns_deadline() {
    ls_ns_start "$@" || return 1
    line=$("$LS_H" probe "tcp4://127.0.0.1:$ls_port" silent 6000)
    echo "$line"
    ls_ns_stop
    case $line in "closed after "*) ms=${line#closed after }; ms=${ms%% *} ;; *) return 1 ;; esac
    [ $ms -ge 800 ] && [ $ms -le 2500 ]
}
ls_ns_deadline_env() { ( export TIDE_AUTH_TIMEOUT=1; ls_ns_deadline ); }
# the launcher says so when it falls back to job-local names, at the
# default verbosity: here the server is stopped, so it never answers
ls_ns_fallback() {
    ls_ns_start || return 1
    kill -STOP "$ls_pid"
    # a stopped server accepts nothing: the job times out and falls back
    timeout -k 2 60 $MPIEXEC --nameserver "@$LS_TMP/ns.uri" --param nameserver_timeout_ms=500 -n 2 \
        $TB/names_couple pair "fallback-$LS_ID" > "$LS_TMP/fb.out" 2> "$LS_TMP/fb.err"
    rc=$?
    kill -CONT "$ls_pid"; ls_ns_stop
    cat "$LS_TMP/fb.out" "$LS_TMP/fb.err"
    [ $rc -eq 0 ] && grep -q "pair found" "$LS_TMP/fb.out" && grep -q "names .*within this mpiexec" "$LS_TMP/fb.err"
}
if [ -n "$LS_H" ] && [ -x "$LS_NS" ]; then
    rm -rf "$LS_TMP"; mkdir -p "$LS_TMP"; chmod 700 "$LS_TMP"
    tcheck listen.ns.flood ls_ns_flood
    tcheck listen.ns.deadline ls_ns_deadline_env
    tcheck listen.ns.deadline-option ls_ns_deadline --auth-timeout 1
    tcheck listen.ns.fallback-said ls_ns_fallback
fi
