#!/bin/sh
# ns_owner_spoof.sh NAMESERVER NS_CLIENT MPIEXEC NAMES_COUPLE: another user of
# a shared tide-nameserver, given its URI and secret, tries to take over a
# running job's published name by claiming the job's owner string.
#
# The victim is a real job (mpiexec, names_couple hold) holding a name
# through a TLS tide-nameserver run by us. The attacker runs as nobody in
# its own user and pid namespace, with ns_last_pid set so that its process
# gets the victim mpiexec's pid, and claims the owner string mpiexec would
# give it ("tide.HOST.PID.JOB/RANK"): it drops the job's names as a job's
# end would, unpublishes the name, and publishes its own port under it.
# The victim's name must still lead to the victim's port; the job's own
# end must still remove it. Prints "victim's name kept" when all holds.
ns_bin=$1 cl=$2 mpiexec=$3 prog=$4
T="timeout -k 2 30"
base=$(mktemp -d "${TMPDIR:-/tmp}/tide-nsspoof.XXXXXX") || exit 1
chmod 711 "$base"
vjob= nspid=
cleanup() {
    [ -n "$vjob" ] && kill "$vjob" 2> /dev/null
    [ -n "$nspid" ] && kill "$nspid" 2> /dev/null
    rm -rf "$base"
}
trap cleanup EXIT
fail() {
    echo "FAILED: $*"
    for f in victim.out attack.out ns.log; do
        [ -f "$base/$f" ] && { echo "---- $f"; tail -n 20 "$base/$f"; }
    done
    exit 1
}

$T "$ns_bin" --uri-file "$base/ns.uri" --listen 127.0.0.1 --log-file "$base/ns.log" -vv ||
    fail "the name server did not start"
nspid=$(sed -n 's/^pid=//p' "$base/ns.uri")
svc="ocean-$$" done="ocean-done-$$"

# the victim: a job that holds its name until "$done" is published
timeout -k 2 90 "$mpiexec" --nameserver "@$base/ns.uri" -n 1 "$prog" hold "$svc" "$done" \
    > "$base/victim.out" 2>&1 &
vjob=$!
$T "$cl" --uri "@$base/ns.uri" lookup "$svc" 20000 > "$base/before.out" ||
    fail "the victim's name never appeared"
vport=$(sed -n 's/^port: //p' "$base/before.out")
# the owner string the server was told (its log says who published)
owner=$(sed -n "s/.*publish '$svc' by \([^ ]*\) from .*/\1/p" "$base/ns.log" | head -n 1)
nsp=${owner%/*}           # tide.HOST.PID.JOB
job=${nsp##*.}
rest=${nsp%.*}            # tide.HOST.PID
vpid=${rest##*.}
host=${rest#tide.}
host=${host%.*}
case "$vpid" in '' | *[!0-9]*) fail "cannot read the victim's owner from the log ('$owner')" ;; esac
echo "victim: owner $owner (mpiexec pid $vpid), port $vport"

# the attacker: nobody, given the URI and the secret
att="$base/att"
mkdir "$att"
cp "$base/ns.uri" "$att/ns.uri"
cat > "$att/attack.sh" << 'EOF'
# pid 1 of the attacker's pid namespace: the next process gets the victim's pid
vpid=$1
echo $((vpid - 1)) > /proc/sys/kernel/ns_last_pid || { echo "cannot write ns_last_pid"; exit 3; }
sh -c '
    vpid=$1 cl=$2 uri=$3 svc=$4 host=$5 job=$6
    [ "$$" = "$vpid" ] || { echo "attacker got pid $$, not $vpid"; exit 3; }
    ns="tide.$host.$$.$job"
    echo "attacker: uid $(id -u) here, pid $$, claims owner $ns/0"
    exec "$cl" --uri "@$uri" unpublish-owner "$ns" =any \
        unpublish "$svc" "$ns/0" =any publish "$svc" attacker-port "$ns/0" =any \
        lookup "$svc" 0 =any
' attacker "$@"
EOF
chown -R nobody "$att"
chmod 700 "$att"
chmod 600 "$att/ns.uri"
$T setpriv --reuid=nobody --regid=nogroup --clear-groups \
    unshare --user --map-root-user --pid --fork --mount-proc \
    sh "$att/attack.sh" "$vpid" "$cl" "$att/ns.uri" "$svc" "$host" "$job" > "$base/attack.out" 2>&1
arc=$?
cat "$base/attack.out"
[ $arc -eq 3 ] && fail "the attack could not be set up"
grep -q "claims owner $owner" "$base/attack.out" || fail "the attacker did not get the victim's pid"

# the victim's clients must still find the victim
$T "$cl" --uri "@$base/ns.uri" lookup "$svc" 0 > "$base/after.out" 2>&1
cat "$base/after.out"
grep -qx "port: $vport" "$base/after.out" || fail "the victim's name no longer leads to the victim"
kill -0 "$vjob" 2> /dev/null || fail "the victim's job ended early"
grep -q "^removed: 0" "$base/attack.out" || fail "the attacker removed names of the job"
grep -q "^unpublish $svc: not_owner" "$base/attack.out" || fail "the attacker's unpublish was not refused"
grep -q "^publish $svc: duplicate" "$base/attack.out" || fail "the attacker's publish was not refused"

# the job's own end still removes its name
$T "$cl" --uri "@$base/ns.uri" publish "$done" go releaser > /dev/null || fail "cannot release the victim"
wait "$vjob" || fail "the victim's job failed"
vjob=
$T "$cl" --uri "@$base/ns.uri" lookup "$svc" =not_found > /dev/null ||
    fail "the victim's name outlived its job"
grep -q "refused to unpublish '$svc'" "$base/ns.log" || fail "the server did not log the refusal"
echo "victim's name kept; removed by its own job's end"
