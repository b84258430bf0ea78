# suite_names.sh: names shared between separately started mpiexec jobs,
# through the per-user name service (started on first use) and through a
# tide-nameserver given with --nameserver: coupling two jobs by name (the
# client started first waits for the name), the ownership rules across
# jobs, names going when their job ends, a server restart, lookups that
# wait or expire, --nameserver none, and an unreachable server.
# Synchronisation is on events: lookups that wait, processes ending.

NM_TMP="$B/tests/names-tmp"
rm -rf "$NM_TMP"
mkdir -p "$NM_TMP"
chmod 700 "$NM_TMP"
NM_BIN="$B/bin/tide-nameserver"
NM_CL="$B/tests/ns/ns_client"
NM_T="timeout -k 2 60"
NM_P=$TB/names_couple
# service names unique to this run: other runs may share the service
NM_ID="t$$"

nm_wanted() { [ -z "$T_FILTER" ] || echo "$T_FILTER" | grep -q 'names'; }

# ocean and atmosphere: two clients start before the server they look for
# (arguments: mpiexec options)
nm_couple() {
    svc="ocean-$NM_ID-$#"
    $NM_T $MPIEXEC "$@" -n 2 $NM_P client "$svc" > "$NM_TMP/c1.out" 2>&1 &
    c1=$!
    $NM_T $MPIEXEC "$@" -n 1 $NM_P client "$svc" > "$NM_TMP/c2.out" 2>&1 &
    c2=$!
    $NM_T $MPIEXEC "$@" -n 2 $NM_P serve "$svc" 2 > "$NM_TMP/s.out" 2>&1
    src=$?
    wait $c1; r1=$?
    wait $c2; r2=$?
    cat "$NM_TMP/s.out" "$NM_TMP/c1.out" "$NM_TMP/c2.out"
    [ $src -eq 0 ] && [ $r1 -eq 0 ] && [ $r2 -eq 0 ] || return 1
    grep -q "served 2 clients" "$NM_TMP/s.out"
}

# a job's name belongs to it; it goes when the job ends
nm_rules() {
    x="held-$NM_ID-$1"; d="done-$NM_ID-$1"; shift
    $NM_T $MPIEXEC "$@" -n 1 $NM_P hold "$x" "$d" > "$NM_TMP/hold.out" 2>&1 &
    h=$!
    $NM_T $MPIEXEC "$@" -n 1 $NM_P rules "$x" "$d" || { kill $h; return 1; }
    wait $h || { cat "$NM_TMP/hold.out"; return 1; }
    $NM_T $MPIEXEC "$@" -n 1 $NM_P missing "$x" "$d"
}

# --nameserver none: names stay within the job's mpiexec
nm_none() {
    x="private-$NM_ID"; d="release-$NM_ID"
    $NM_T $MPIEXEC -n 1 $NM_P hold "$x" "$d" > "$NM_TMP/hold-none.out" 2>&1 &
    h=$!
    # the held name is visible to a normal job...
    $NM_T $MPIEXEC -n 1 $NM_P lookup "$x" > /dev/null || { kill $h; return 1; }
    # ...but not to one that keeps to itself
    $NM_T $MPIEXEC --nameserver none -n 1 $NM_P missing "$x" || { kill $h; return 1; }
    $NM_T $MPIEXEC -n 1 $NM_P publish "$d" || { kill $h; return 1; }
    wait $h
}

nm_start_server() {
    $NM_T "$NM_BIN" --uri-file "$NM_TMP/srv.uri" --listen 127.0.0.1 --log-file "$NM_TMP/srv.log"
}
nm_server_pid() { sed -n 's/^pid=//p' "$NM_TMP/srv.uri" 2>/dev/null; }
nm_wait_gone() {
    n=0
    while kill -0 "$1" 2>/dev/null; do
        n=$((n + 1)); [ $n -gt 200 ] && return 1
        sleep 0.05
    done
}

# the job's names are taken back from the server when the job ends
nm_server_cleanup() {
    x="srv-held-$NM_ID"; d="srv-done-$NM_ID"
    $NM_T $MPIEXEC --nameserver "@$NM_TMP/srv.uri" -n 1 $NM_P hold "$x" "$d" > "$NM_TMP/hold-srv.out" 2>&1 &
    h=$!
    $NM_T "$NM_CL" --uri "@$NM_TMP/srv.uri" lookup "$x" 30000 > /dev/null || { kill $h; return 1; }
    # the releasing name is published, and later removed, by one client:
    # only the client holding its credential can remove it
    rm -f "$NM_TMP/job-ended"
    $NM_T "$NM_CL" --uri "@$NM_TMP/srv.uri" publish "$d" p tester hold-until "$NM_TMP/job-ended" \
        unpublish "$d" tester > "$NM_TMP/release.out" 2>&1 &
    r=$!
    wait $h || { touch "$NM_TMP/job-ended"; wait $r; return 1; }
    touch "$NM_TMP/job-ended"
    wait $r || { cat "$NM_TMP/release.out"; return 1; }
    $NM_T "$NM_CL" --uri "@$NM_TMP/srv.uri" lookup "$x" =not_found lookup "$d" =not_found
}

# the server restarts (new port, new secret) while a job holds a name:
# mpiexec publishes it again, so a job started afterwards finds it
nm_server_restart() {
    x="survivor-$NM_ID"; d="survivor-done-$NM_ID"
    $NM_T $MPIEXEC --nameserver "@$NM_TMP/srv.uri" -n 1 $NM_P hold "$x" "$d" > "$NM_TMP/hold-rs.out" 2>&1 &
    h=$!
    $NM_T "$NM_CL" --uri "@$NM_TMP/srv.uri" lookup "$x" 30000 > /dev/null || { kill $h; return 1; }
    old=$(nm_server_pid)
    kill -9 "$old"
    nm_wait_gone "$old" || return 1
    nm_start_server || return 1
    $NM_T $MPIEXEC --nameserver "@$NM_TMP/srv.uri" -n 1 $NM_P lookup "$x" > "$NM_TMP/rs-lookup.out" 2>&1 ||
        { cat "$NM_TMP/rs-lookup.out"; kill $h; return 1; }
    $NM_T $MPIEXEC --nameserver "@$NM_TMP/srv.uri" -n 1 $NM_P publish "$d" || { kill $h; return 1; }
    wait $h
}

if ! nm_wanted; then
    :
elif [ ! -x "$NM_BIN" ] || [ ! -x "$NM_CL" ]; then
    tskip names.all "tide-nameserver or tests/ns/ns_client is not built (make check-programs)"
else
    tcheck names.couple-two-jobs nm_couple
    tcheck names.couple-tcp nm_couple -x TIDE_TRANSPORTS=tcp,self
    tcheck names.rules-across-jobs nm_rules a
    tcheck names.none nm_none
    tcase names.pair-in-job -out "pair found" -- $MPIEXEC -n 2 $NM_P pair "pair-$NM_ID"
    tcase names.pair-in-job-none -out "pair found" -- $MPIEXEC --nameserver none -n 2 $NM_P pair "pair-$NM_ID"
    tcase names.wait-expires -t 30 -out "wait expired" -- $MPIEXEC -n 1 $NM_P wait-expires "nobody-$NM_ID"
    tcase names.unreachable-server -out "pair found" -err "name serv" -- \
        $MPIEXEC --nameserver "tide-ns+unix://$NM_TMP/no-such.sock" -n 2 $NM_P pair "lonely-$NM_ID"
    tcheck names.server-start nm_start_server
    tcheck names.server-couple nm_couple --nameserver "@$NM_TMP/srv.uri"
    tcheck names.server-rules nm_rules b --nameserver "@$NM_TMP/srv.uri"
    tcheck names.server-job-end nm_server_cleanup
    tcheck names.server-restart nm_server_restart
    nm_stop() { p=$(nm_server_pid); kill "$p" && nm_wait_gone "$p"; }
    tcheck names.server-stop nm_stop
    # whatever failed above, no server of this suite outlives it
    pkill -f "uri-file $NM_TMP/srv.uri" 2>/dev/null
fi
