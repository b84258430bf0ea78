# suite_rank_auth.sh: the ranks' TCP listener against a client that holds
# a port name (tests/security/rank_hostile.c) and a target job
# (tests/mpi/rank_auth_target.c), with rank-to-rank traffic forced onto TCP.

RA_TMP="$B/tests/rank-auth-tmp"
rm -rf "$RA_TMP"
mkdir -p "$RA_TMP"
RA_HOSTILE=$(tbuild rank_hostile "$S/tests/security/rank_hostile.c" "$S/libmpi/transport/tcp_auth.c" \
    "$S/common/ctlcrypt.c" -I"$S/libmpi" -I"$S/common" -lcrypto) || RA_HOSTILE=""

# ra_run NAME "VICTIM-EXTRA" HOSTILE-ARGS... : start the victim job, wait
# for its port name, run the hostile client, let the victim finish, and
# require both to succeed. With VICTIM-EXTRA "accept", a second job
# connects to the port over TCP afterwards.
ra_run() {
    ra_name=$1; ra_extra=$2; shift 2
    pf="$RA_TMP/$ra_name.port"; go="$RA_TMP/$ra_name.go"
    rm -f "$pf" "$go"
    $MPIEXEC --timeout 90 --param transports=self,tcp ${RA_PARAMS:-} -n 2 $TB/rank_auth_target victim "$pf" "$go" \
        $ra_extra > "$RA_TMP/$ra_name.victim" 2>&1 &
    vpid=$!
    i=0
    while [ ! -s "$pf" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
    [ -s "$pf" ] || { echo "no port file"; cat "$RA_TMP/$ra_name.victim"; kill $vpid; return 1; }
    ok=0
    if [ $# -gt 0 ]; then
        timeout 60 "$RA_HOSTILE" "$1" "$pf" ${2:-} || ok=1
    fi
    touch "$go"
    if [ "$ra_extra" = accept ]; then
        $MPIEXEC --timeout 60 --param transports=self,tcp -n 3 $TB/rank_auth_target client "$pf" || ok=1
    fi
    if [ "$ra_extra" = forge ]; then
        $MPIEXEC --timeout 60 --param transports=self,tcp --param test_forge_envelope=1 -n 1 \
            $TB/rank_auth_target client "$pf" forge > "$RA_TMP/$ra_name.client" 2>&1 || ok=1
        cat "$RA_TMP/$ra_name.client"
        grep -q "test_forge_envelope: sent" "$RA_TMP/$ra_name.client" || ok=1
    fi
    wait $vpid || ok=1
    cat "$RA_TMP/$ra_name.victim"
    grep -q "victim: clean" "$RA_TMP/$ra_name.victim" || ok=1
    [ "$ra_extra" != accept ] || grep -q "victim: accepted and ran collectives" "$RA_TMP/$ra_name.victim" || ok=1
    [ "$ra_extra" != forge ] || grep -q "victim: no forged message taken" "$RA_TMP/$ra_name.victim" || ok=1
    return $ok
}

if [ -n "$RA_HOSTILE" ]; then
    # a port name does not let anyone pass for a rank of the job
    tcheck rank_auth.impersonate ra_run impersonate "" impersonate 1
    # it lets a process of another job in, for connect/accept only; a real
    # MPI job then connects through the same port
    tcheck rank_auth.port-peer ra_run port-peer accept port-peer
    # a silent peer is dropped after auth_timeout; the job goes on
    ra_silent() { RA_PARAMS="--param auth_timeout=1" ra_run silent "" silent 6; }
    tcheck rank_auth.silent ra_silent
    # 1000 connections held open: the rank's descriptors stay bounded
    tcheck rank_auth.flood ra_run flood "" flood 1000
    # garbage, absurd lengths, a wrong proof: closed at once; a proper
    # peer still gets in
    tcheck rank_auth.garbage ra_run garbage "" garbage
    # ... and at -v the victim says so, plainly (whatever else happens)
    ra_garbage_said() {
        RA_PARAMS="-v" ra_run garbage-said "" garbage
        grep -q "TCP connection dropped: the peer sent a malformed message" "$RA_TMP/garbage-said.victim"
    }
    tcheck rank_auth.garbage-said ra_garbage_said
    # a one-node job listens on 127.0.0.1 only
    tcheck rank_auth.listen-loopback ra_run listen "" listen-check
    # port peers nobody has accepted yet: big frames, many connections
    # that leave messages behind, many at once holding a little; the
    # rank's memory stays bounded, the offenders are dropped (and said so
    # at -v), and a real MPI_Comm_connect/accept works afterwards
    ra_memflood() {
        # a sanitized rank keeps freed memory in quarantine: keep that small
        # so that what is measured is what the rank holds
        [ -z "$T_SANITIZED" ] || export ASAN_OPTIONS="$ASAN_OPTIONS:quarantine_size_mb=1:thread_local_quarantine_size_kb=64"
        RA_PARAMS="--param verbose=1" ra_run memflood accept memflood 24 || return 1
        grep -q "TCP: dropped a port peer" "$RA_TMP/memflood.victim" || { echo "no log line of a dropped port peer"; return 1; }
    }
    tcheck rank_auth.port-memflood ra_memflood
    # connect/accept between two jobs over TCP, collectives on the result
    tcheck rank_auth.two-jobs-tcp ra_run two-jobs accept
    # a process of another job, connected through MPI_Comm_connect, sends
    # a message on MPI_COMM_WORLD's context as rank 1 of the job it
    # connected to: the message is dropped, rank 1's real one is received
    tcheck rank_auth.forged-envelope ra_run forged-envelope forge
fi

# an ordinary job over TCP (parents and spawned children, which connect
# and disconnect) ends without a word about its connections at -v; an
# orderly close is said only at -vv, and plainly
tcase rank_auth.teardown-quiet -t 90 -out "parent: 2 children spawned and answered" \
    -noout "TCP connection|malformed" -- sh -c "TIDE_TRANSPORTS=self,tcp $MPIEXEC -v -n 2 $TB/dpm_spawn 2 2>&1"
tcase rank_auth.teardown-said -t 90 -out "TCP connection closed by the peer" -noout "malformed" -- \
    sh -c "TIDE_TRANSPORTS=self,tcp $MPIEXEC -v -v -n 2 $TB/dpm_spawn 2 2>&1"
