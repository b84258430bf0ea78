# suite_ns.sh: tide-nameserver and its client library (common/nsclient.c),
# driven by tests/ns/ns_client (a scriptable client) and tests/ns/ns_raw (a
# hostile one): publish/lookup/unpublish and every error, lookups that wait,
# thousands of names, restarts with and without --persist, garbage and
# truncated frames while a good client keeps working, ownership by
# credential (another client claiming the same owner is refused, also
# after a --persist restart), a version-1 client refused, wrong secrets and
# certificates, the per-user default service started on demand (racing
# clients, one server) and exiting when idle, and nothing left behind.
# Synchronisation is on events (files appearing, the server's status),
# never on fixed sleeps.

NS_BIN="$B/bin/tide-nameserver"
NS_CL="$B/tests/ns/ns_client"
NS_RAW="$B/tests/ns/ns_raw"
NS_TMP="$B/tests/ns-tmp"
# commands inside check functions run under this timeout too
NS_T="timeout -k 2 30"

ns_wanted() { [ -z "$T_FILTER" ] || echo "$T_FILTER" | grep -q 'ns'; }

# poll (50 ms) until a file exists; 1 after $2 seconds
ns_wait_file() {
    n=0
    while [ ! -e "$1" ]; do
        n=$((n + 1))
        [ $n -gt $(($2 * 20)) ] && return 1
        sleep 0.05
    done
    return 0
}

# poll until a process is gone
ns_wait_gone() {
    n=0
    while kill -0 "$1" 2>/dev/null; do
        n=$((n + 1))
        [ $n -gt $(($2 * 20)) ] && return 1
        sleep 0.05
    done
    return 0
}

ns_pid() { sed -n 's/^pid=//p' "$1" 2>/dev/null; }

# start a daemonized TLS server: NAME [options]; it returns once the URI file is in place
ns_start() {
    nm=$1; shift
    $NS_T "$NS_BIN" --uri-file "$NS_TMP/$nm.uri" --listen 127.0.0.1 --log-file "$NS_TMP/$nm.log" -v "$@"
}

ns_stop() {
    p=$(ns_pid "$NS_TMP/$1.uri")
    [ -n "$p" ] || return 0
    kill "$p" 2>/dev/null
    ns_wait_gone "$p" 10
}

ns_our_servers() { pgrep -f "^$NS_BIN" 2>/dev/null | wc -l; }

if ns_wanted; then
    if [ ! -x "$NS_CL" ] || [ ! -x "$NS_RAW" ] || [ "$S/tests/ns/ns_client.c" -nt "$NS_CL" ] || \
       [ "$S/tests/ns/ns_raw.c" -nt "$NS_RAW" ]; then
        make -C "$B" -s tests/ns/ns_client tests/ns/ns_raw > "$T_LOGDIR/ns.build.log" 2>&1
    fi
fi

if ! ns_wanted; then
    :
elif [ ! -x "$NS_BIN" ] || [ ! -x "$NS_CL" ] || [ ! -x "$NS_RAW" ]; then
    tskip ns.all "tide-nameserver or the test helpers are not built (make check-programs)"
else

rm -rf "$NS_TMP"
mkdir -p "$NS_TMP"
chmod 700 "$NS_TMP"
NS_U="$NS_TMP/main.uri"

# ---- a TLS server and the basic operations ----
tcheck ns.start ns_start main
ns_check_urifile() {
    [ "$(stat -c %a "$NS_U")" = 600 ] || { echo "mode $(stat -c %a "$NS_U")"; return 1; }
    head -1 "$NS_U" | grep -Eq '^tide-ns://127\.0\.0\.1:[0-9]+/#sha256=[0-9a-f]{64}$' || return 1
    grep -Eq '^secret=[0-9a-f]{64}$' "$NS_U" || return 1
    kill -0 "$(ns_pid "$NS_U")"
}
tcheck ns.urifile ns_check_urifile

tcase ns.publish-lookup -out "port: tcp://a:1" -- "$NS_CL" --uri "@$NS_U" \
    publish svc-a tcp://a:1 job1 lookup svc-a 0 tcp://a:1 \
    lookup svc-none =not_found \
    publish svc-a tcp://b:2 job2 =duplicate publish svc-a tcp://a:1 job1 =duplicate \
    unpublish svc-a job2 =not_owner unpublish svc-none job1 =not_found \
    unpublish svc-a job1 lookup svc-a =not_found unpublish svc-a job1 =not_found
tcase ns.error-messages -out "already published" -out "another owner" -- "$NS_CL" --uri "@$NS_U" \
    publish m-1 p o publish m-1 p o =duplicate unpublish m-1 other =not_owner unpublish m-1 o
tcase ns.unpublish-owner -out "removed: 3" -- "$NS_CL" --uri "@$NS_U" \
    publish j-1 p job7 publish j-2 p job7/0 publish j-3 p job7/1 publish j-4 p job70 \
    unpublish-owner job7 3 lookup j-1 =not_found lookup j-2 =not_found lookup j-4 0 p \
    unpublish-owner job70 1 unpublish-owner nobody 0
tcase ns.limits-client -out "MPI_MAX_INFO_VAL" -- "$NS_CL" --uri "@$NS_U" \
    long-service 1024 =too_long long-service 5000 =too_long long-port 1024 =too_long \
    long-service 1023 long-port 1023 publish "" p o =bad_request lookup "" =bad_request \
    unpublish-owner xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx 0
tcase ns.limits-server -out "oversized frame: connection closed" -- "$NS_RAW" --uri "@$NS_U" limits
tcase ns.ping-status -out "server: names=[0-9]+ connections=1 .*mode=tls" -- "$NS_CL" --uri "@$NS_U" ping status

# ---- lookups that wait ----
ns_wait_case() {
    rm -f "$NS_TMP/waiter.done"
    $NS_T "$NS_CL" --uri "@$NS_U" lookup late-name 20000 late-port touch "$NS_TMP/waiter.done" > "$NS_TMP/waiter.out" 2>&1 &
    wpid=$!
    # the lookup is parked at the server when its status counts a waiter
    n=0
    until $NS_T "$NS_CL" --uri "@$NS_U" status | grep -q "waiters=[1-9]"; do
        n=$((n + 1)); [ $n -gt 200 ] && { echo "lookup never waited"; kill $wpid; return 1; }
        sleep 0.05
    done
    [ ! -e "$NS_TMP/waiter.done" ] || { echo "answered before the publish"; return 1; }
    $NS_T "$NS_CL" --uri "@$NS_U" publish late-name late-port joblate unpublish late-name joblate || return 1
    wait $wpid || { cat "$NS_TMP/waiter.out"; return 1; }
    grep -q "port: late-port" "$NS_TMP/waiter.out"
}
tcheck ns.lookup-wait ns_wait_case
tcase ns.lookup-wait-expires -t 20 -out "before the wait ended" -- "$NS_CL" --uri "@$NS_U" lookup never-name 300 =not_found

# ---- thousands of names ----
tcase ns.2000-names -t 60 -out "check-many 2000 bulk: 0 failures" -- "$NS_CL" --uri "@$NS_U" \
    many 2000 bulk jobbulk check-many 2000 bulk status
tcase ns.2000-names-held -out "names=(20[0-9][0-9])" -- "$NS_CL" --uri "@$NS_U" status

# ---- a hostile client while a good one works ----
ns_hostile_case() {
    rm -f "$NS_TMP/good.ready" "$NS_TMP/good.go"
    $NS_T "$NS_CL" --uri "@$NS_U" publish good-1 gp1 jobgood publish good-2 gp2 jobgood touch "$NS_TMP/good.ready" \
        hold-until "$NS_TMP/good.go" lookup good-1 0 gp1 publish good-3 gp3 jobgood lookup good-3 0 gp3 \
        check-many 2000 bulk unpublish-owner jobgood 3 > "$NS_TMP/good.out" 2>&1 &
    gpid=$!
    ns_wait_file "$NS_TMP/good.ready" 10 || return 1
    rc=0
    $NS_T "$NS_RAW" --uri "@$NS_U" --seed 1 garbage 100 || rc=1
    $NS_T "$NS_RAW" --uri "@$NS_U" --seed 2 plain-garbage 50 || rc=1
    $NS_T "$NS_RAW" --uri "@$NS_U" --seed 3 fuzz 150 || rc=1
    $NS_T "$NS_RAW" --uri "@$NS_U" --seed 4 truncated 100 || rc=1
    $NS_T "$NS_RAW" --uri "@$NS_U" noauth || rc=1
    $NS_T "$NS_RAW" --uri "@$NS_U" wrong-secret || rc=1
    # meanwhile other clients are served
    $NS_T "$NS_CL" --uri "@$NS_U" lookup good-2 0 gp2 check-many 2000 bulk || rc=1
    touch "$NS_TMP/good.go"
    wait $gpid || { cat "$NS_TMP/good.out"; rc=1; }
    grep -q "check-many 2000 bulk: 0 failures" "$NS_TMP/good.out" || rc=1
    # each abuse was logged, and the server is the same process
    grep -q "closing connection from" "$NS_TMP/main.log" || { echo "no log line"; rc=1; }
    grep -q "wrong secret" "$NS_TMP/main.log" || rc=1
    kill -0 "$(ns_pid "$NS_U")" || rc=1
    return $rc
}
tcheck ns.hostile ns_hostile_case
tcase ns.after-hostile -out "names=20[0-9][0-9]" -- "$NS_CL" --uri "@$NS_U" lookup good-1 =not_found status

# ---- ownership: the credential, never the owner string ----
tcase ns.credentials -out "unpublish set with the credential: 1 removed" -- "$NS_RAW" --uri "@$NS_U" credentials
tcase ns.old-version -out "protocol version 1 not supported: this name server speaks version 2" -- \
    "$NS_RAW" --uri "@$NS_U" old-version
tcase ns.wrong-cred -out "credential does not match" -- "$NS_CL" --uri "@$NS_U" \
    publish wc-1 wcp own1 unpublish-cred wc-1 flipped =not_owner \
    unpublish-cred wc-1 0000000000000000000000000000000000000000000000000000000000000000 =not_owner \
    unpublish wc-1 own2 =not_owner lookup wc-1 0 wcp unpublish-cred wc-1 held lookup wc-1 =not_found
ns_other_client() {
    rm -f "$NS_TMP/own.ready" "$NS_TMP/own.go"
    $NS_T "$NS_CL" --uri "@$NS_U" publish own-1 op1 jobown/0 publish own-2 op2 jobown/1 touch "$NS_TMP/own.ready" \
        hold-until "$NS_TMP/own.go" unpublish own-1 jobown/0 unpublish-owner jobown 1 > "$NS_TMP/own.out" 2>&1 &
    opid=$!
    ns_wait_file "$NS_TMP/own.ready" 10 || return 1
    rc=0
    # another client claiming the same owners: refused, and nothing removed
    $NS_T "$NS_CL" --uri "@$NS_U" unpublish own-1 jobown/0 =not_owner publish own-1 evil jobown/0 =duplicate \
        unpublish-owner jobown 0 lookup own-1 0 op1 lookup own-2 0 op2 || rc=1
    touch "$NS_TMP/own.go"
    wait $opid || { cat "$NS_TMP/own.out"; return 1; }
    $NS_T "$NS_CL" --uri "@$NS_U" lookup own-1 =not_found lookup own-2 =not_found || rc=1
    return $rc
}
tcheck ns.other-client ns_other_client

# ---- authentication and certificates ----
printf 'not-the-secret-at-all-0123456789\n' > "$NS_TMP/wrong.secret"
chmod 600 "$NS_TMP/wrong.secret"
NS_URI=$(head -1 "$NS_U")
tcase ns.wrong-secret -out "wrong secret" -- "$NS_CL" --uri "$NS_URI" --secret-file "$NS_TMP/wrong.secret" ping =auth
tcase ns.secret-env -- env TIDE_NAMESERVER_SECRET_FILE="$NS_U" "$NS_CL" --uri "$NS_URI" lookup bulk-5 0 port-of-bulk-5
tcase ns.no-secret -rc 3 -out "no secret" -- "$NS_CL" --uri "$NS_URI" ping
NS_LAST=${NS_URI#"${NS_URI%?}"}
if [ "$NS_LAST" = a ]; then NS_BADFP="${NS_URI%?}b"; else NS_BADFP="${NS_URI%?}a"; fi
tcase ns.tls-mismatch -out "does not match the fingerprint" -- "$NS_CL" --uri "$NS_BADFP" --secret-file "$NS_U" ping =tls
tcase ns.bad-uri -rc 3 -out "bad name server URI" -- "$NS_CL" --uri "tide-ns://nowhere" ping
tcase ns.missing-urifile -rc 3 -out "cannot open" -- "$NS_CL" --uri "@$NS_TMP/none.uri" ping
chmod 644 "$NS_TMP/wrong.secret"
tcase ns.public-secret -rc 1 -err "not private" -- "$NS_BIN" --no-daemonize --secret-file "$NS_TMP/wrong.secret"
tcase ns.bad-option -rc 2 -- "$NS_BIN" --no-such-option
tcase ns.bad-combination -rc 2 -err "does not apply" -- "$NS_BIN" --user-default --persist "$NS_TMP/x.db"
tcase ns.help -out "user-default" -- "$NS_BIN" --help

# ---- an unreachable server fails requests within the timeout ----
tcheck ns.dead-start ns_start dead
cp "$NS_TMP/dead.uri" "$NS_TMP/dead-copy.uri"
chmod 600 "$NS_TMP/dead-copy.uri"
tcheck ns.dead-stop ns_stop dead
tcase ns.unreachable -t 10 -out "cannot reach .* within 700 ms" -- "$NS_CL" --uri "@$NS_TMP/dead-copy.uri" --timeout 700 ping =unreachable

# ---- restart without --persist: the clients re-publish ----
ns_restart_case() {
    rc=0
    rm -f "$NS_TMP/hold.ready" "$NS_TMP/hold.go"
    $NS_T "$NS_CL" --uri "@$NS_U" publish keep-1 kp1 jobkeep publish keep-2 kp2 jobkeep many 300 kept jobkeep \
        touch "$NS_TMP/hold.ready" hold-until "$NS_TMP/hold.go" lookup keep-1 0 kp1 \
        unpublish-owner jobkeep 302 > "$NS_TMP/hold.out" 2>&1 &
    hpid=$!
    ns_wait_file "$NS_TMP/hold.ready" 10 || return 1
    old=$(ns_pid "$NS_U")
    kill -9 "$old"
    ns_wait_gone "$old" 5 || return 1
    # a new server: new port, new secret, same URI file
    ns_start main || return 1
    [ "$(ns_pid "$NS_U")" != "$old" ] || return 1
    $NS_T "$NS_CL" --uri "@$NS_U" lookup keep-2 15000 kp2 lookup keep-1 15000 kp1 lookup kept-0 15000 port-of-kept-0 \
        check-many 300 kept || rc=1
    touch "$NS_TMP/hold.go"
    wait $hpid || { cat "$NS_TMP/hold.out"; return 1; }
    # names of clients that are gone are not recovered: the bulk names were lost;
    # the holder re-asserted its names with their credentials, and removed them
    $NS_T "$NS_CL" --uri "@$NS_U" lookup bulk-1 =not_found lookup keep-1 =not_found || return 1
    return $rc
}
tcheck ns.restart-republish ns_restart_case

# ---- restart with --persist keeps every name and the URI ----
tcheck ns.persist-start ns_start pers --persist "$NS_TMP/pers.db"
NS_PU="$NS_TMP/pers.uri"
tcase ns.persist-fill -out "many 500 p: 0 failures" -- "$NS_CL" --uri "@$NS_PU" many 500 p jobp publish solo sp jobq unpublish p-7 jobp
head -1 "$NS_PU" > "$NS_TMP/pers.uri1"
ns_persist_kill() {
    p=$(ns_pid "$NS_PU")
    kill -9 "$p"
    ns_wait_gone "$p" 5 && ns_start pers --persist "$NS_TMP/pers.db" && head -1 "$NS_PU" | cmp - "$NS_TMP/pers.uri1"
}
tcheck ns.persist-sigkill-restart ns_persist_kill
tcase ns.persist-kept -out "port: sp" -- "$NS_CL" --uri "@$NS_PU" \
    lookup solo 0 sp lookup p-7 =not_found lookup p-8 0 port-of-p-8 lookup p-499 0 port-of-p-499
tcase ns.persist-count -out "names=500 " -- "$NS_CL" --uri "@$NS_PU" status
# the literal URI (same port, certificate and secret) still works after a restart
tcase ns.persist-same-uri -- env TIDE_NAMESERVER_SECRET_FILE="$NS_PU" "$NS_CL" --uri "$(cat "$NS_TMP/pers.uri1")" lookup solo 0 sp
# a publisher still owns its name after a --persist restart; nobody else does
ns_persist_owner() {
    rm -f "$NS_TMP/po.ready" "$NS_TMP/po.go"
    $NS_T "$NS_CL" --uri "@$NS_PU" publish po-1 pop1 jobpo/0 touch "$NS_TMP/po.ready" \
        hold-until "$NS_TMP/po.go" unpublish po-1 jobpo/0 lookup po-1 =not_found > "$NS_TMP/po.out" 2>&1 &
    opid=$!
    ns_wait_file "$NS_TMP/po.ready" 10 || return 1
    p=$(ns_pid "$NS_PU")
    kill -9 "$p"
    ns_wait_gone "$p" 5 && ns_start pers --persist "$NS_TMP/pers.db" || return 1
    rc=0
    $NS_T "$NS_CL" --uri "@$NS_PU" unpublish po-1 jobpo/0 =not_owner publish po-1 evil jobpo/0 =duplicate \
        lookup po-1 0 pop1 || rc=1
    touch "$NS_TMP/po.go"
    wait $opid || { cat "$NS_TMP/po.out"; rc=1; }
    grep -q "taken by someone else" "$NS_TMP/po.out" && { cat "$NS_TMP/po.out"; rc=1; }
    return $rc
}
tcheck ns.persist-owner ns_persist_owner
tcheck ns.persist-stop ns_stop pers
cp "$NS_TMP/pers.db" "$NS_TMP/broken.db"
truncate -s 700 "$NS_TMP/broken.db"
tcase ns.persist-damaged -t 10 -rc 1 -err "damaged|truncated" -- "$NS_BIN" --no-daemonize --listen 127.0.0.1 --persist "$NS_TMP/broken.db"

tcheck ns.main-stop ns_stop main

# ---- the per-user default service ----
NS_UD="$NS_TMP/userdir"
mkdir -p "$NS_UD"
chmod 700 "$NS_UD"
ns_race_case() {
    rm -f "$NS_TMP"/race.* "$NS_TMP/race-go"
    for k in 1 2 3 4 5; do
        nx=$((k % 5 + 1))
        env TIDE_NS_DIR="$NS_UD" $NS_T "$NS_CL" --server-prog "$NS_BIN" --idle-exit 1 \
            publish race-$k rp$k jobr$k lookup race-$nx 15000 rp$nx status touch "$NS_TMP/race.ready$k" \
            hold-until "$NS_TMP/race-go" > "$NS_TMP/race.out$k" 2>&1 &
    done
    for k in 1 2 3 4 5; do ns_wait_file "$NS_TMP/race.ready$k" 15 || { cat "$NS_TMP/race.out$k"; return 1; }; done
    pids=$(sed -n 's/.* pid=\([0-9]*\) .*/\1/p' "$NS_TMP"/race.out* | sort -u)
    echo "server pids: $pids; running: $(pgrep -f "^$NS_BIN --user-default" | tr '\n' ' ')"
    [ "$(echo "$pids" | wc -w)" = 1 ] || return 1
    [ "$(pgrep -f "^$NS_BIN --user-default" | wc -l)" = 1 ] || return 1
    [ -S "$NS_UD/ns.sock" ] || return 1
    touch "$NS_TMP/race-go"
    wait
    # no names and no clients: it exits after --idle-exit and removes its files
    ns_wait_gone "$pids" 10 || return 1
    [ -z "$(ls -A "$NS_UD")" ] || { ls -la "$NS_UD"; return 1; }
}
tcheck ns.user-race-one-server ns_race_case
# names go away with the connection that published them
tcase ns.user-conn-names -- env TIDE_NS_DIR="$NS_UD" "$NS_CL" --server-prog "$NS_BIN" --idle-exit 1 \
    publish gone-name gp jobx
tcase ns.user-conn-names-gone -- env TIDE_NS_DIR="$NS_UD" "$NS_CL" --server-prog "$NS_BIN" --idle-exit 1 \
    lookup gone-name =not_found
# found in PATH when not next to the program
tcase ns.user-path -out "mode=user" -- env TIDE_NS_DIR="$NS_UD" PATH="$B/bin:$PATH" "$NS_CL" --idle-exit 1 \
    publish x px o status lookup x 0 px
tcase ns.user-no-autostart -t 20 -out "nothing listens" -- env TIDE_NS_DIR="$NS_TMP/nothere" "$NS_CL" --no-autostart \
    --timeout 500 ping =unreachable
mkdir -p "$NS_TMP/opendir"
chmod 755 "$NS_TMP/opendir"
tcase ns.user-unsafe-dir -out "refusing to use" -- env TIDE_NS_DIR="$NS_TMP/opendir" "$NS_CL" --server-prog "$NS_BIN" \
    --timeout 500 ping =unreachable
ns_user_idle() {
    n=0
    while [ -e "$NS_UD/ns.sock" ] || [ -e "$NS_UD/ns.lock" ]; do
        n=$((n + 1)); [ $n -gt 200 ] && { ls -la "$NS_UD"; return 1; }
        sleep 0.05
    done
}
tcheck ns.user-idle-exit ns_user_idle
# in its default place (here $XDG_RUNTIME_DIR/tide) the directory goes too
ns_default_dir_gone() {
    x="$NS_TMP/xdg"
    rm -rf "$x"; mkdir -p "$x"; chmod 700 "$x"
    env -u TIDE_NS_DIR XDG_RUNTIME_DIR="$x" $NS_T "$NS_CL" --server-prog "$NS_BIN" --idle-exit 1 \
        publish dd-name p o status > "$NS_TMP/dd.out" || return 1
    grep -q "mode=user" "$NS_TMP/dd.out" || { cat "$NS_TMP/dd.out"; return 1; }
    n=0
    while [ -e "$x/tide" ]; do
        n=$((n + 1)); [ $n -gt 200 ] && { ls -la "$x/tide"; return 1; }
        sleep 0.05
    done
    rmdir "$x"
}
tcheck ns.user-default-dir-removed ns_default_dir_gone

# ---- nothing left behind ----
ns_leftovers() {
    n=0
    while [ "$(ns_our_servers)" != 0 ]; do
        n=$((n + 1)); [ $n -gt 100 ] && { pgrep -af "^$NS_BIN"; return 1; }
        sleep 0.05
    done
    # URI files, temporary files, sockets and locks the servers made are gone
    left=$(find "$NS_TMP" \( -name '*.uri' ! -name dead-copy.uri \) -o -name '*.tmp*' -o -type s -o -name ns.lock)
    [ -z "$left" ] || { echo "left: $left"; return 1; }
    left=$(find "$NS_UD" "$NS_TMP/opendir" -mindepth 1)
    [ -z "$left" ] || { echo "left: $left"; return 1; }
}
tcheck ns.no-leftovers ns_leftovers

fi
