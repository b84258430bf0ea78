# suite_capture.sh: what a network observer between hosts sees (see
# docs/SECURITY.md, "Encryption"). Hosts are network namespaces on a
# bridge (tests/multinode/hosts.sh); tcpdump records their links while a
# job runs over them, and the capture must hold nothing of:
#   - the universe secret's PMIx key "tide.usecret" (the fence data that
#     carries the secret travels on the daemons' links),
#   - the job's namespace name "tide.<host>." (in nearly every control
#     message),
#   - with encrypt=1, the payload a program sends between ranks,
#   - whatever encrypt says, the LINK keys and port tokens of
#     connect/accept, spawn and join (sec.capture.dpm.*: the programs
#     print them with the testing aid test_print_keys).
# With encrypt=0 that payload is found (the capture does see the job).
# Needs root, ip netns and tcpdump; skipped otherwise.

CAP_CASES="sec.capture.control sec.capture.ranks.plain sec.capture.ranks.encrypted sec.capture.dpm.connect
sec.capture.dpm.spawn sec.capture.dpm.join"
cap_selected() {
    [ -z "$T_FILTER" ] && return 0
    for c in $CAP_CASES; do
        echo "$c" | grep -Eq "$T_FILTER" && return 0
    done
    return 1
}

# cap_start FILE: record the hosts' links (the root namespace's end of
# every host's veth: what goes between hosts and to mpiexec passes there;
# the bridge itself sees only what goes to or from its own address) into
# FILE.<interface>, one tcpdump each (in immediate mode: packets still in
# the kernel's buffer when tcpdump stops would be lost); returns once
# every one listens
cap_start() {
    rm -f "$1".*
    cap_pids=""
    cap_ifs=$(ip -o link show | awk -F': ' '{print $2}' | sed 's/@.*//' | grep -E "^tmn${MN_PID}h[0-9]+\$")
    [ -n "$cap_ifs" ] || { echo "no veth of the hosts"; return 1; }
    for ifc in $cap_ifs; do
        timeout -k 2 300 tcpdump -i "$ifc" --immediate-mode -U -s 0 -n -w "$1.$ifc" tcp > "$1.$ifc.log" 2>&1 &
        cap_pids="$cap_pids $!"
    done
    for ifc in $cap_ifs; do
        i=0
        while ! grep -q "listening on" "$1.$ifc.log" 2>/dev/null && [ $i -lt 200 ]; do
            sleep 0.05
            i=$((i + 1))
        done
        grep -q "listening on" "$1.$ifc.log" || { echo "tcpdump did not start:"; cat "$1.$ifc.log"; return 1; }
    done
}

# cap_stop FILE: stop recording; prints how many packets were kept
cap_stop() {
    kill -INT $cap_pids 2>/dev/null
    wait $cap_pids 2>/dev/null
    for ifc in $cap_ifs; do
        echo "$ifc: $(grep "packets captured" "$1.$ifc.log")"
    done
}

# cap_has FILE STRING: the capture holds STRING (as raw bytes)
cap_has() {
    for ifc in $cap_ifs; do
        LC_ALL=C grep -aqF -- "$2" "$1.$ifc" && return 0
    done
    return 1
}

# cap_has_bytes FILE HEX: the capture holds the bytes HEX (lowercase hex
# digits) as they are. A key split between two packets would be missed:
# every key crosses more than once, in messages of different sizes, when
# it crosses in clear.
cap_has_bytes() {
    for ifc in $cap_ifs; do
        [ -s "$1.$ifc.hex" ] || od -An -v -tx1 "$1.$ifc" | tr -d ' \n' > "$1.$ifc.hex"
        grep -qF -- "$2" "$1.$ifc.hex" && return 0
    done
    return 1
}

# cap_no_keys FILE MIN ERRFILES...: the keys the jobs printed
# (test_print_keys, on stderr) are at least MIN and none is in the capture
cap_no_keys() {
    ck_f=$1; ck_min=$2; shift 2
    ck_keys=$(cat "$@" | sed -n 's/.*test_print_keys: .* \([0-9a-f]\{32,\}\)$/\1/p' | sort -u)
    ck_n=$(echo "$ck_keys" | grep -c .)
    [ "$ck_n" -ge "$ck_min" ] || { echo "the jobs printed $ck_n keys, expected at least $ck_min"; return 1; }
    ck_bad=0
    for k in $ck_keys; do
        if cap_has_bytes "$ck_f" "$k"; then
            echo "a key is in the capture in clear: $(cat "$@" | grep -m1 "$k")"
            ck_bad=1
        fi
    done
    [ $ck_bad -eq 0 ] && echo "none of the $ck_n keys is in the capture"
    return $ck_bad
}

# cap_wait_file FILE PID: FILE written (60 s at most) while PID runs
cap_wait_file() {
    i=0
    while [ ! -s "$1" ] && [ $i -lt 1200 ] && kill -0 "$2" 2>/dev/null; do sleep 0.05; i=$((i + 1)); done
    [ -s "$1" ]
}

# cap_clean FILE: none of the job's names or key names is in the capture
cap_clean() {
    bad=0
    for s in "tide.usecret" "tide.$(hostname)."; do
        if cap_has "$1" "$s"; then
            echo "the capture holds '$s' in clear"
            bad=1
        fi
    done
    return $bad
}

# cap_job NAME SECONDS ARGS...: run mpiexec with ARGS through the agent
cap_job() {
    cj=$1; ct=$2; shift 2
    timeout -k 5 "$ct" $MPIEXEC --launch-agent "$MN_AGENT" --param if_include="$MN_NET" "$@" \
        > "$CAP_DIR/$cj.out" 2> "$CAP_DIR/$cj.err" < /dev/null
    rc=$?
    cat "$CAP_DIR/$cj.out"
    [ $rc -eq 0 ] || { echo "mpiexec failed ($rc)"; cat "$CAP_DIR/$cj.err"; return 1; }
}

# the control links only: three hosts in a chain of daemons (mpiexec ->
# host 1 -> host 2 -> host 3, so links between daemons are seen too), one
# rank each, no message between ranks; the fence of MPI_Init carries the
# universe secret across every link
cap_control() {
    set -- $MN_HOSTS
    f="$CAP_DIR/control.pcap"
    cap_start "$f" || return 1
    cap_job control 90 --param tree_radix=1 --host "$1:1,$2:1,$3:1" -n 3 "$CAP_PROG" quiet
    jrc=$?
    cap_stop "$f"
    [ $jrc -eq 0 ] || return 1
    [ "$(grep -c "quiet rank" "$CAP_DIR/control.out")" -eq 3 ] || { echo "not every rank ran"; return 1; }
    for ifc in $cap_ifs; do
        [ -s "$f.$ifc" ] || { echo "nothing captured on $ifc"; return 1; }
    done
    cap_clean "$f"
}

# ranks of two hosts exchange a marker: seen in clear with encrypt=0
cap_ranks_plain() {
    set -- $MN_HOSTS
    f="$CAP_DIR/plain.pcap"
    m="tide-capture-marker-$$-plain"
    cap_start "$f" || return 1
    cap_job plain 90 --host "$1:1,$2:1" -n 2 "$CAP_PROG" marker "$m"
    jrc=$?
    cap_stop "$f"
    [ $jrc -eq 0 ] || return 1
    grep -q "marker ok on 2 ranks" "$CAP_DIR/plain.out" || return 1
    cap_has "$f" "$m" || { echo "the marker is not in the capture: the capture does not see the ranks"; return 1; }
    echo "the marker is in the capture (encrypt=0)"
    cap_has "$f" "tide.usecret" && { echo "the capture holds 'tide.usecret' in clear"; return 1; }
    return 0
}

# and not with encrypt=1
cap_ranks_encrypted() {
    set -- $MN_HOSTS
    f="$CAP_DIR/encrypted.pcap"
    m="tide-capture-marker-$$-sealed"
    cap_start "$f" || return 1
    cap_job encrypted 90 --param encrypt=1 --host "$1:1,$2:1,$3:1" -n 3 "$CAP_PROG" marker "$m"
    jrc=$?
    cap_stop "$f"
    [ $jrc -eq 0 ] || return 1
    grep -q "marker ok on 3 ranks" "$CAP_DIR/encrypted.out" || return 1
    cap_has "$f" "$m" && { echo "the marker is in the capture in clear"; return 1; }
    cap_has "$f" "tide.usecret" && { echo "the capture holds 'tide.usecret' in clear"; return 1; }
    return 0
}

# connect/accept between two jobs on several hosts (each group's member
# list is gathered and broadcast across hosts), encrypt=0: no LINK key, no
# port token in the capture; the marker sent across the intercommunicator
# is (the capture sees the two groups talk)
cap_dpm_connect() {
    set -- $MN_HOSTS
    f="$CAP_DIR/dpm-connect.pcap"
    m="tide-capture-marker-$$-connect"
    pf="$CAP_DIR/dpm-connect.port"
    rm -f "$pf"
    cap_start "$f" || return 1
    timeout -k 5 90 $MPIEXEC --launch-agent "$MN_AGENT" --param if_include="$MN_NET" --param test_print_keys=1 \
        --host "$1:1,$2:1" -n 2 "$CAP_DPM" server "$pf" "$m" \
        > "$CAP_DIR/dpm-server.out" 2> "$CAP_DIR/dpm-server.err" < /dev/null &
    spid=$!
    if ! cap_wait_file "$pf" $spid; then
        echo "no port file"; cat "$CAP_DIR/dpm-server.err"; kill $spid 2>/dev/null; wait $spid; cap_stop "$f"
        return 1
    fi
    cap_job dpm-client 60 --param test_print_keys=1 --host "$3:1,$1:1" -n 2 "$CAP_DPM" client "$pf" "$m"
    jrc=$?
    [ $jrc -eq 0 ] || kill $spid 2>/dev/null
    wait $spid
    src=$?
    cap_stop "$f"
    [ $jrc -eq 0 ] || return 1
    [ $src -eq 0 ] || { echo "the server job failed ($src)"; cat "$CAP_DIR/dpm-server.err"; return 1; }
    grep -q "cap_dpm: accepted" "$CAP_DIR/dpm-server.out" || return 1
    cap_has "$f" "$m" || { echo "the marker is not in the capture: the capture does not see the ranks"; return 1; }
    # 4 LINK keys (one per member) and the port's token
    cap_no_keys "$f" 5 "$CAP_DIR/dpm-server.err" "$CAP_DIR/dpm-client.err"
}

# spawn from ranks of two hosts onto a third, encrypt=0: no LINK key, no
# spawn token in the capture
cap_dpm_spawn() {
    set -- $MN_HOSTS
    f="$CAP_DIR/dpm-spawn.pcap"
    m="tide-capture-marker-$$-spawn"
    cap_start "$f" || return 1
    cap_job dpm-spawn 90 --param test_print_keys=1 --host "$1:1,$2:1,$3:2" -n 2 "$CAP_DPM" spawn "$3" "$m"
    jrc=$?
    cap_stop "$f"
    [ $jrc -eq 0 ] || return 1
    grep -q "cap_dpm: spawned 2 children on $3" "$CAP_DIR/dpm-spawn.out" || return 1
    cap_has "$f" "$m" || { echo "the marker is not in the capture: the capture does not see the ranks"; return 1; }
    cap_no_keys "$f" 5 "$CAP_DIR/dpm-spawn.err"
}

# MPI_Comm_join of two jobs on two hosts over a socket the program makes,
# encrypt=0: neither LINK key is in the capture
cap_dpm_join() {
    set -- $MN_HOSTS
    f="$CAP_DIR/dpm-join.pcap"
    m="tide-capture-marker-$$-join"
    pf="$CAP_DIR/dpm-join.port"
    rm -f "$pf"
    cap_start "$f" || return 1
    timeout -k 5 90 $MPIEXEC --launch-agent "$MN_AGENT" --param if_include="$MN_NET" --param test_print_keys=1 \
        --host "$1:1" -n 1 "$CAP_DPM" join-server "$1" "$pf" "$m" \
        > "$CAP_DIR/dpm-join-server.out" 2> "$CAP_DIR/dpm-join-server.err" < /dev/null &
    spid=$!
    if ! cap_wait_file "$pf" $spid; then
        echo "no port file"; cat "$CAP_DIR/dpm-join-server.err"; kill $spid 2>/dev/null; wait $spid; cap_stop "$f"
        return 1
    fi
    cap_job dpm-join-client 60 --param test_print_keys=1 --host "$3:1" -n 1 "$CAP_DPM" join-client "$1" "$pf" "$m"
    jrc=$?
    [ $jrc -eq 0 ] || kill $spid 2>/dev/null
    wait $spid
    src=$?
    cap_stop "$f"
    [ $jrc -eq 0 ] || return 1
    [ $src -eq 0 ] || { echo "the server job failed ($src)"; cat "$CAP_DIR/dpm-join-server.err"; return 1; }
    grep -q "cap_dpm: joined" "$CAP_DIR/dpm-join-server.out" || return 1
    cap_has "$f" "$m" || { echo "the marker is not in the capture: the capture does not see the ranks"; return 1; }
    cap_no_keys "$f" 2 "$CAP_DIR/dpm-join-server.err" "$CAP_DIR/dpm-join-client.err"
}

if cap_selected; then
    if [ "$(id -u)" -ne 0 ]; then
        tskip sec.capture "needs root (network namespaces, tcpdump)"
    elif ! command -v tcpdump > /dev/null 2>&1; then
        tskip sec.capture "no tcpdump (tools/deps.sh installs it)"
    else
        MN_HERE="$S/tests/multinode"
        . "$MN_HERE/hosts.sh"
        mn_setup 3
        cap_rc=$?
        if [ $cap_rc -ne 0 ]; then
            if [ $cap_rc -eq "$MN_SKIP" ]; then
                tskip sec.capture "$MN_SKIP_REASON"
            else
                tfail sec.capture.setup "mn_setup failed"
            fi
        else
            CAP_DIR="$T_LOGDIR/capture"
            mkdir -p "$CAP_DIR" "$B/tests/multinode"
            CAP_PROG="$B/tests/multinode/mn_prog"
            if [ ! -x "$CAP_PROG" ] || [ "$S/tests/multinode/mn_prog.c" -nt "$CAP_PROG" ] ||
               [ "$B/lib/.libs/libmpi.so" -nt "$CAP_PROG" ]; then
                "$B/bin/mpicc" -O1 -g -Wall -Wextra -Werror -I"$S/tests/mpi" -o "$CAP_PROG" \
                    "$S/tests/multinode/mn_prog.c" > "$T_LOGDIR/build.mn_prog.log" 2>&1 ||
                    tfail build.mn_prog "does not compile: $(head -c 600 "$T_LOGDIR/build.mn_prog.log")"
            fi
            CAP_DPM="$B/tests/security/cap_dpm"
            mkdir -p "$B/tests/security"
            if [ ! -x "$CAP_DPM" ] || [ "$S/tests/security/cap_dpm.c" -nt "$CAP_DPM" ] ||
               [ "$B/lib/.libs/libmpi.so" -nt "$CAP_DPM" ]; then
                "$B/bin/mpicc" -O1 -g -Wall -Wextra -Werror -I"$S/tests/mpi" -o "$CAP_DPM" \
                    "$S/tests/security/cap_dpm.c" > "$T_LOGDIR/build.cap_dpm.log" 2>&1 ||
                    tfail build.cap_dpm "does not compile: $(head -c 600 "$T_LOGDIR/build.cap_dpm.log")"
            fi
            tcheck sec.capture.control cap_control
            tcheck sec.capture.ranks.plain cap_ranks_plain
            tcheck sec.capture.ranks.encrypted cap_ranks_encrypted
            tcheck sec.capture.dpm.connect cap_dpm_connect
            tcheck sec.capture.dpm.spawn cap_dpm_spawn
            tcheck sec.capture.dpm.join cap_dpm_join
            mn_teardown
        fi
    fi
fi
