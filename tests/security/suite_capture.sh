# suite_capture.sh: what a network observer between hosts sees (see
# docs/SECURITY.md, "Encryption"). Hosts are network namespaces on a
# bridge (tests/multinode/hosts.sh); tcpdump records their links while a
# job runs over them, and the capture must hold nothing of:
#   - the universe secret's PMIx key "tide.usecret" (the fence data that
#     carries the secret travels on the daemons' links),
#   - the job's namespace name "tide.<host>." (in nearly every control
#     message),
#   - with encrypt=1, the payload a program sends between ranks.
# With encrypt=0 that payload is found (the capture does see the job).
# Needs root, ip netns and tcpdump; skipped otherwise.

CAP_CASES="sec.capture.control sec.capture.ranks.plain sec.capture.ranks.encrypted"
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
            tcheck sec.capture.control cap_control
            tcheck sec.capture.ranks.plain cap_ranks_plain
            tcheck sec.capture.ranks.encrypted cap_ranks_encrypted
            mn_teardown
        fi
    fi
fi
