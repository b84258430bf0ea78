# suite_multinode.sh: MPI jobs over several hosts, each host a network
# namespace of this machine (tests/multinode/hosts.sh), started through a
# launch agent: tests/multinode/ns-agent (ip netns exec), and a real ssh to
# an sshd in every namespace. Needs root and ip netns; skipped otherwise.
# Three hosts, two ranks each unless said. Ranks of different hosts talk
# TCP over the bridge: every job gets --param if_include=<the bridge /24>.

MN_EXTRA=""
MN_CASES="multinode.infra multinode.infra.teardown multinode.ns.hello multinode.ns.ring multinode.ns.coll multinode.ns.spawn
multinode.ns.event multinode.tree.event
multinode.ns.ports multinode.ns.abort multinode.ns.tided-killed multinode.ns.no-daemon multinode.ns.no-link multinode.ns.mpiexec-killed multinode.ssh.hello multinode.ssh.ring
multinode.ssh.coll multinode.ssh.abort multinode.ssh.tided-killed multinode.tree.hello multinode.tree.coll
multinode.tree.spawn multinode.tree.ports multinode.tree.abort multinode.tree.tided-killed multinode.tree.no-daemon
multinode.tree.mpiexec-killed
multinode.tree.ssh.hello
multinode.tree.listen-if"

# does the filter select any case of this suite?
mn_selected() {
    [ -z "$T_FILTER" ] && return 0
    for c in $MN_CASES; do
        echo "$c" | grep -Eq "$T_FILTER" && return 0
    done
    return 1
}

# mn_job OUT ERR SECONDS CMD...: run a job under a timeout
mn_job() {
    mj_out=$1; mj_err=$2; mj_t=$3; shift 3
    timeout -k 5 "$mj_t" "$@" > "$mj_out" 2> "$mj_err" < /dev/null
}

# mn_netns HOST: the "net:[inode]" a process of HOST sees
mn_netns() { ip netns exec "$(mn_ns_of "$1")" readlink /proc/self/ns/net; }

# mn_root_left: the job's processes left in the root namespace: ranks of
# the test program, ssh clients of the ssh agent
mn_root_left() {
    pgrep -af "$MN_PROG" | grep -v pgrep
    pgrep -af "ssh -F $MN_DIR/ssh_config" | grep -v pgrep
}

# mn_left: the processes left in the namespaces (sshds excepted) or in the
# root namespace, waiting a little for daemons on their way out; prints
# them, fails when any
mn_left() {
    ml_i=0
    while [ -n "$(mn_pids_except_sshd; mn_root_left)" ] && [ $ml_i -lt 100 ]; do
        sleep 0.05
        ml_i=$((ml_i + 1))
    done
    ml=$(mn_pids_except_sshd; mn_root_left)
    [ -z "$ml" ] && return 0
    echo "left running:"
    echo "$ml"
    return 1
}

# mn_reap: kill what a failed case left in the namespaces (sshds kept), so
# the next case starts clean
mn_reap() {
    for mr_p in $(mn_pids_except_sshd | awk '{print $2}') $(mn_root_left | awk '{print $1}'); do
        kill -KILL "$mr_p" 2>/dev/null
    done
}

# mn_check NAME FUNCTION ARGS...: a case made of a shell function (which
# runs its jobs under timeouts); leftovers are reaped after it
mn_check() {
    mc_name=$1; shift
    if [ -n "$T_FILTER" ] && ! echo "$mc_name" | grep -Eq "$T_FILTER"; then
        return 0
    fi
    MN_LOG="$T_LOGDIR/$mc_name"
    tcheck "$mc_name" "$@"
    mn_reap
}

# ---- the infrastructure itself: namespaces, agents, ssh
mn_infra() {
    set -- $MN_HOSTS
    # every host reaches every other one and the root namespace's address
    for a in "$@"; do
        for b in "$@" "$MN_ROOT_IP"; do
            [ "$a" = "$b" ] && continue
            ip netns exec "$(mn_ns_of "$a")" ping -c 1 -W 5 "$b" > /dev/null ||
                { echo "$a cannot reach $b"; return 1; }
        done
    done
    # the agent runs in the host's namespace, under the host's name, keeps
    # stdin and the exit status
    for h in "$@"; do
        got=$(timeout 30 "$MN_AGENT" "$h" readlink /proc/self/ns/net)
        [ "$got" = "$(mn_netns "$h")" ] || { echo "ns-agent $h ran in $got"; return 1; }
        got=$(timeout 30 "$MN_AGENT" "$h" hostname)
        [ "$got" = "$(mn_name_of "$h")" ] || { echo "ns-agent $h: host name $got"; return 1; }
    done
    got=$(echo hi | "$MN_AGENT" "$1" cat)
    [ "$got" = hi ] || { echo "ns-agent: stdin gave '$got'"; return 1; }
    timeout 30 "$MN_AGENT" "$2" 'exit 7'
    [ $? -eq 7 ] || { echo "ns-agent: exit status not kept"; return 1; }
    got=$("$MN_AGENT" "$(mn_name_of "$3")" 'echo "a  b"')
    [ "$got" = "a  b" ] || { echo "ns-agent: a host name as HOST, or the command line, went wrong: $got"; return 1; }
    if [ -n "$MN_SSH_AGENT" ]; then
        for h in "$@"; do
            got=$(timeout 30 "$MN_SSH_AGENT" "$h" readlink /proc/self/ns/net)
            [ "$got" = "$(mn_netns "$h")" ] || { echo "ssh $h ran in '$got'"; return 1; }
            got=$(timeout 30 "$MN_SSH_AGENT" "$h" hostname)
            [ "$got" = "$(mn_name_of "$h")" ] || { echo "ssh $h: host name $got"; return 1; }
        done
        got=$(echo hi | timeout 30 "$MN_SSH_AGENT" "$2" cat)
        [ "$got" = hi ] || { echo "ssh: stdin gave '$got'"; return 1; }
    fi
    mn_left
}

# ---- MPI jobs through agent $1 ($MN_AGENT or $MN_SSH_AGENT)
mn_hello() {
    set -- $MN_HOSTS
    mn_job "$MN_LOG.job.out" "$MN_LOG.job.err" 60 $MPIEXEC $MN_EXTRA --launch-agent "$MN_CUR_AGENT" \
        --host "$1:2,$2:2,$3:2" -n 6 --param if_include="$MN_NET" $MN_PROG hello || {
        echo "mpiexec failed ($?)"; cat "$MN_LOG.job.err"; return 1; }
    cat "$MN_LOG.job.out"
    grep -q "hello from 6 ranks on 3 namespaces" "$MN_LOG.job.out" || return 1
    for r in 0 1 2 3 4 5; do
        grep -q "^mn_prog: rank $r of 6 netns" "$MN_LOG.job.out" || { echo "no line of rank $r"; return 1; }
    done
    # two ranks on each host, under the host's name (the shared-memory
    # transport pairs ranks by host name: the same name on two hosts would
    # hide the TCP path between them)
    for h in "$@"; do
        n=$(grep -cF "netns $(mn_netns "$h") host $(mn_name_of "$h")" "$MN_LOG.job.out")
        [ "$n" -eq 2 ] || { echo "$n ranks on $h"; return 1; }
    done
    mn_left
}

# hello along a chain of daemons (radix 1): each daemon of the chain
# links the next, and mpiexec links only the first
mn_tree_chain() {
    mn_hello || return 1
    for want in "tided.0\[[0-9]*\]: in the tree of daemons: parent -1, 1 children" \
                "tided.1\[[0-9]*\]: in the tree of daemons: parent 0, 1 children" \
                "tided.2\[[0-9]*\]: in the tree of daemons: parent 1, 0 children" \
                "tided.0\[[0-9]*\]: node 1 linked below us" "tided.1\[[0-9]*\]: node 2 linked below us"; do
        grep -q "$want" "$MN_LOG.job.err" || { echo "no line '$want' in the daemons' log"; return 1; }
    done
    # each daemon starts the next through the launch agent, not mpiexec
    grep -q "tided.0\[[0-9]*\]: started tided for node 1 " "$MN_LOG.job.err" &&
        grep -q "tided.1\[[0-9]*\]: started tided for node 2 " "$MN_LOG.job.err" ||
        { echo "the daemons did not start their children"; return 1; }
    n=$(grep -c "mpiexec\[[0-9]*\]: started tided for node" "$MN_LOG.job.err")
    [ "$n" -eq 1 ] || { echo "mpiexec started $n daemons itself, expected 1"; return 1; }
    n=$(grep -c "mpiexec\[[0-9]*\]: tided of node [0-9]* (.*) linked" "$MN_LOG.job.err")
    [ "$n" -eq 1 ] || { echo "mpiexec linked $n daemons itself, expected 1"; return 1; }
    # fences gather up the chain: the middle daemon sends its part and the
    # last one's together, mpiexec gets one part covering all three nodes,
    # and the release comes back down to the last daemon
    grep -q "tided.1\[[0-9]*\]: fence .*: sent up .* of 2 nodes" "$MN_LOG.job.err" ||
        { echo "the middle daemon did not gather its child's fence part"; return 1; }
    grep -q "mpiexec\[[0-9]*\]: fence .*: 3 of 3 daemons" "$MN_LOG.job.err" || { echo "no complete fence"; return 1; }
    ! grep -q "mpiexec\[[0-9]*\]: fence .*: [12] of 3 daemons" "$MN_LOG.job.err" ||
        { echo "mpiexec got fence parts one node at a time"; return 1; }
    grep -q "tided.2\[[0-9]*\]: fence .* released" "$MN_LOG.job.err" || { echo "no release at the chain's end"; return 1; }
}

mn_simple() {
    mode=$1; expect=$2
    set -- $MN_HOSTS
    mn_job "$MN_LOG.job.out" "$MN_LOG.job.err" 90 $MPIEXEC $MN_EXTRA --launch-agent "$MN_CUR_AGENT" \
        --host "$1:2,$2:2,$3:2" -n 6 --param if_include="$MN_NET" $MN_PROG "$mode" || {
        echo "mpiexec failed ($?)"; cat "$MN_LOG.job.err"; return 1; }
    cat "$MN_LOG.job.out"
    grep -q "$expect" "$MN_LOG.job.out" || return 1
    mn_left
}

# PMIx events raised by a rank reach every rank of every host once
# (mn_event.c, built against libpmix as well)
mn_event() {
    set -- $MN_HOSTS
    [ -n "$MN_EVENT" ] || { echo "mn_event did not build"; return 1; }
    mn_job "$MN_LOG.job.out" "$MN_LOG.job.err" 90 $MPIEXEC $MN_EXTRA --launch-agent "$MN_CUR_AGENT" \
        --host "$1:2,$2:2,$3:2" -n 6 --param if_include="$MN_NET" "$MN_EVENT" || {
        echo "mpiexec failed ($?)"; cat "$MN_LOG.job.err"; return 1; }
    cat "$MN_LOG.job.out"
    grep -q "mn_event: ok on 6 ranks" "$MN_LOG.job.out" || return 1
    mn_left
}

# ranks on the first host, children on the third (info key "host")
mn_spawn() {
    set -- $MN_HOSTS
    mn_job "$MN_LOG.job.out" "$MN_LOG.job.err" 90 $MPIEXEC $MN_EXTRA --launch-agent "$MN_CUR_AGENT" \
        --host "$1:2,$2:2,$3:2" -n 2 --param if_include="$MN_NET" $MN_PROG spawn "$3" "$(mn_netns "$3")" || {
        echo "mpiexec failed ($?)"; cat "$MN_LOG.job.err"; return 1; }
    cat "$MN_LOG.job.out"
    grep -q "2 children on host $3" "$MN_LOG.job.out" || return 1
    mn_left
}

# a server job on the first host, a client job on the second: the port
# name goes through a file
mn_ports() {
    set -- $MN_HOSTS
    pf="$MN_DIR/port.$$"
    rm -f "$pf"
    timeout -k 5 90 $MPIEXEC $MN_EXTRA --launch-agent "$MN_CUR_AGENT" --host "$1:2" -n 2 --param if_include="$MN_NET" \
        "$TB/dpm_server" server "$pf" 0 1 > "$MN_LOG.server.out" 2>&1 < /dev/null &
    spid=$!
    i=0
    while [ ! -s "$pf" ] && [ $i -lt 1200 ] && kill -0 $spid 2>/dev/null; do sleep 0.05; i=$((i + 1)); done
    [ -s "$pf" ] || { echo "no port file"; cat "$MN_LOG.server.out"; kill $spid 2>/dev/null; wait $spid; return 1; }
    mn_job "$MN_LOG.client.out" "$MN_LOG.client.err" 60 $MPIEXEC $MN_EXTRA --launch-agent "$MN_CUR_AGENT" \
        --host "$2:2" -n 2 --param if_include="$MN_NET" "$TB/dpm_server" client "$pf" 0 || {
        echo "client failed"; cat "$MN_LOG.client.out" "$MN_LOG.client.err"; kill $spid 2>/dev/null; wait $spid; return 1; }
    wait $spid || { echo "server failed"; cat "$MN_LOG.server.out"; return 1; }
    cat "$MN_LOG.server.out"
    grep -q "served 1 clients" "$MN_LOG.server.out" || return 1
    mn_left
}

# rank 4, on the third host, calls MPI_Abort(MPI_COMM_WORLD, 5)
mn_abort() {
    set -- $MN_HOSTS
    mn_job "$MN_LOG.job.out" "$MN_LOG.job.err" 60 $MPIEXEC $MN_EXTRA --launch-agent "$MN_CUR_AGENT" \
        --host "$1:2,$2:2,$3:2" -n 6 --param if_include="$MN_NET" $MN_PROG abort 4 5
    rc=$?
    cat "$MN_LOG.job.err"
    [ $rc -eq 5 ] || { echo "exit status $rc, expected 5"; return 1; }
    grep -Eq "rank 4 on host .*MPI_Abort" "$MN_LOG.job.err" || return 1
    mn_left
}

# mn_wait_ready JPID: wait (60 s at most) until the job in the background
# (pid JPID, output in $MN_LOG.job.out) says "mn_hang: ready"; 0, or 1
# after ending the job and saying why
mn_wait_ready() {
    i=0
    while ! grep -q "mn_hang: ready" "$MN_LOG.job.out" 2>/dev/null && [ $i -lt 1200 ] && kill -0 $1 2>/dev/null; do
        sleep 0.05
        i=$((i + 1))
    done
    grep -q "mn_hang: ready" "$MN_LOG.job.out" && return 0
    echo "job not ready"
    cat "$MN_LOG.job.err"
    kill $1 2>/dev/null
    wait $1
    return 1
}

# the tided of the second host is killed (SIGKILL) while the job runs: the
# job ends with an error naming that host, and nothing is left anywhere
mn_tided_killed() {
    set -- $MN_HOSTS
    timeout -k 5 90 $MPIEXEC $MN_EXTRA --launch-agent "$MN_CUR_AGENT" --host "$1:2,$2:2,$3:2" -n 6 \
        --param if_include="$MN_NET" $MN_PROG hang > "$MN_LOG.job.out" 2> "$MN_LOG.job.err" < /dev/null &
    jpid=$!
    mn_wait_ready $jpid || return 1
    victim=$(mn_pids | awk -v ns="$(mn_ns_of "$2")" -v d="${MN_DAEMON:-tided}" '$1 == ns && $3 == d { print $2; exit }')
    [ -n "$victim" ] || { echo "no tided in $(mn_ns_of "$2")"; mn_pids; kill $jpid; wait $jpid; return 1; }
    # the job's control secret is in no daemon's argv, no rank's environment
    for p in $(mn_pids_except_sshd | awk '{print $2}'); do
        if tr '\0' '\n' < /proc/$p/cmdline 2>/dev/null | grep -qi secret ||
           tr '\0' '\n' < /proc/$p/environ 2>/dev/null | grep -qi secret; then
            echo "process $p shows a secret in its argv or environment"
            kill $jpid; wait $jpid; return 1
        fi
    done
    # the victim's own session directory (its owner record names its pid)
    vdir=$(grep -l "^tide-owner-2 $victim " /dev/shm/tide-"$(id -u)"-node-*/owner /tmp/tide-"$(id -u)"-node-*/owner \
           2>/dev/null | head -n 1)
    vdir=${vdir%/owner}
    [ -n "$vdir" ] || { echo "no session directory of tided $victim"; kill $jpid; wait $jpid; return 1; }
    kill -KILL "$victim"
    wait $jpid
    rc=$?
    cat "$MN_LOG.job.err"
    [ $rc -ne 0 ] && [ $rc -ne 124 ] || { echo "mpiexec exit status $rc"; return 1; }
    grep -Eq "$2|$(mn_name_of "$2")" "$MN_LOG.job.err" || { echo "the host is not named"; return 1; }
    # nothing left: neither ranks nor daemons, nor mpiexec's agents
    mn_left || return 1
    # the next daemon on that host removes what the killed one left
    timeout -k 5 60 $MPIEXEC $MN_EXTRA --launch-agent "$MN_CUR_AGENT" --host "$2:1" -n 1 \
        --param if_include="$MN_NET" $MN_PROG hello > "$MN_LOG.next.out" 2>&1 < /dev/null ||
        { echo "the next job on $2 failed"; cat "$MN_LOG.next.out"; return 1; }
    [ ! -e "$vdir" ] || { echo "$vdir of the killed tided is still there after the next job on its host"; return 1; }
    mn_left
}

# a host whose launch agent fails: the error names the host and the agent's
# status, and the daemons already started on the other hosts are gone.
# mn_no_daemon HOSTS N [ARGS...]: HOSTS with nohost.invalid among them
mn_no_daemon() {
    nd_hosts=$1; nd_n=$2; shift 2
    mn_job "$MN_LOG.job.out" "$MN_LOG.job.err" 60 $MPIEXEC "$@" --launch-agent "$MN_CUR_AGENT" \
        --host "$nd_hosts" -n "$nd_n" --param if_include="$MN_NET" $MN_PROG hello
    rc=$?
    cat "$MN_LOG.job.err"
    [ $rc -ne 0 ] && [ $rc -ne 124 ] || { echo "exit status $rc"; return 1; }
    grep -q "cannot start the node daemon on nohost.invalid: the launch agent .* exited with status" \
        "$MN_LOG.job.err" || return 1
    mn_left
}

# a daemon that never links back (its agent hangs): the launch fails after
# daemon_timeout, naming the host, and the agent is stopped
mn_no_link() {
    set -- $MN_HOSTS
    printf '#!/bin/sh\nexec sleep 57\n' > "$MN_LOG.agent"
    chmod +x "$MN_LOG.agent"
    mn_job "$MN_LOG.job.out" "$MN_LOG.job.err" 60 $MPIEXEC --launch-agent "$MN_LOG.agent" \
        --host "$1:2" -n 2 --param daemon_timeout=2 --param if_include="$MN_NET" $MN_PROG hello
    rc=$?
    cat "$MN_LOG.job.err"
    [ $rc -eq 1 ] || { echo "exit status $rc, expected 1"; return 1; }
    grep -q "node daemon on $1 did not connect back to mpiexec .* within 2 s" "$MN_LOG.job.err" || return 1
    i=0
    while pgrep -f "sleep 57" > /dev/null && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
    ! pgrep -af "sleep 57" || { echo "the launch agent is left running"; return 1; }
}

# mpiexec itself killed (SIGKILL) while the job runs: the daemons of the
# other hosts lose their link and end their ranks; nothing is left
mn_mpiexec_killed() {
    set -- $MN_HOSTS
    $MPIEXEC $MN_EXTRA --launch-agent "$MN_CUR_AGENT" --host "$1:2,$2:2" -n 4 \
        --param if_include="$MN_NET" $MN_PROG hang > "$MN_LOG.job.out" 2> "$MN_LOG.job.err" < /dev/null &
    jpid=$!
    mn_wait_ready $jpid || return 1
    kill -KILL $jpid
    wait $jpid
    mn_left
}

# mn_descendants PID: PID and every process below it
mn_descendants() {
    echo "$1"
    for md_c in $(pgrep -P "$1"); do
        mn_descendants "$md_c"
    done
}

# mn_listen_where WANT SS-OUTPUT PIDS...: every TCP socket these processes
# listen on (in SS-OUTPUT, from ss -H -lntp) is on address WANT (tided's
# PMIx listener, for the ranks of its host, on 127.0.0.1); prints them,
# fails when one is elsewhere (0.0.0.0, [::], another address) or when
# none listens at all
mn_listen_where() {
    lw_want=$1; lw_ss=$2; shift 2
    lw_n=0; lw_bad=0
    lw_ifs=$IFS
    for lw_p in "$@"; do
        IFS='
'
        for lw_line in $(printf '%s\n' "$lw_ss" | grep "pid=$lw_p,"); do
            IFS=$lw_ifs
            lw_addr=$(echo "$lw_line" | awk '{print $4}')
            echo "  $lw_addr  $(echo "$lw_line" | grep -o 'users:.*')"
            lw_n=$((lw_n + 1))
            case "${lw_addr%:*} $lw_line" in
            "$lw_want "*) ;;
            "127.0.0.1 "*'(("tided",'*) ;;
            *) lw_bad=$((lw_bad + 1)) ;;
            esac
        done
        IFS=$lw_ifs
    done
    [ $lw_n -gt 0 ] || { echo "  no listening socket"; return 1; }
    [ $lw_bad -eq 0 ] || { echo "  $lw_bad of them not on $lw_want"; return 1; }
}

# with if_include naming the bridge's network, a job whose daemons form a
# chain (each daemon listens for the next) listens only there: mpiexec on
# the bridge's address, the daemons and ranks of each host on the host's
# own, nothing on 0.0.0.0 or [::]
mn_listen_if() {
    set -- $MN_HOSTS
    $MPIEXEC --param tree_radix=1 --launch-agent "$MN_CUR_AGENT" --host "$1:2,$2:2,$3:2" -n 6 \
        --param if_include="$MN_NET" $MN_PROG hang > "$MN_LOG.job.out" 2> "$MN_LOG.job.err" < /dev/null &
    jpid=$!
    mn_wait_ready $jpid || return 1
    li_ok=0
    echo "root namespace (mpiexec and what runs below it), expected $MN_ROOT_IP:"
    # shellcheck disable=SC2046
    mn_listen_where "$MN_ROOT_IP" "$(ss -H -lntp)" $(mn_descendants $jpid) || li_ok=1
    for h in "$@"; do
        ns=$(mn_ns_of "$h")
        echo "$ns (daemon and ranks), expected $h:"
        li_pids=$(for p in $(ip netns pids "$ns"); do [ "$(cat /proc/$p/comm 2>/dev/null)" = sshd ] || echo $p; done)
        # shellcheck disable=SC2086
        mn_listen_where "$h" "$(ip netns exec "$ns" ss -H -lntp)" $li_pids || li_ok=1
    done
    kill -TERM $jpid
    wait $jpid
    [ $li_ok -eq 0 ] || return 1
    mn_left
}

if mn_selected; then
    MN_HERE="$S/tests/multinode"
    . "$MN_HERE/hosts.sh"
    mn_setup 3
    mn_rc=$?
    if [ $mn_rc -ne 0 ]; then
        if [ $mn_rc -eq "$MN_SKIP" ]; then
            tskip multinode "$MN_SKIP_REASON"
        else
            tfail multinode.setup "mn_setup failed"
        fi
    else
        MN_SSH_AGENT=""
        mn_start_sshd
        mn_ssh_rc=$?
        [ $mn_ssh_rc -eq 0 ] || MN_SSH_AGENT=""
        mkdir -p "$B/tests/multinode"
        MN_PROG="$B/tests/multinode/mn_prog"
        if [ ! -x "$MN_PROG" ] || [ "$S/tests/multinode/mn_prog.c" -nt "$MN_PROG" ] ||
           [ "$B/lib/.libs/libmpi.so" -nt "$MN_PROG" ]; then
            "$B/bin/mpicc" -O1 -g -Wall -Wextra -Werror -I"$S/tests/mpi" -o "$MN_PROG" \
                "$S/tests/multinode/mn_prog.c" > "$T_LOGDIR/build.mn_prog.log" 2>&1 ||
                tfail build.mn_prog "does not compile: $(head -c 600 "$T_LOGDIR/build.mn_prog.log")"
        fi
        MN_EVENT="$B/tests/multinode/mn_event"
        if [ ! -x "$MN_EVENT" ] || [ "$S/tests/multinode/mn_event.c" -nt "$MN_EVENT" ] ||
           [ "$B/lib/.libs/libmpi.so" -nt "$MN_EVENT" ]; then
            # shellcheck disable=SC2046
            "$B/bin/mpicc" -O1 -g -Wall -Wextra -Werror -o "$MN_EVENT" "$S/tests/multinode/mn_event.c" \
                $(pkg-config --cflags --libs pmix) > "$T_LOGDIR/build.mn_event.log" 2>&1 || MN_EVENT=""
        fi
        mn_check multinode.infra mn_infra
        MN_CUR_AGENT="$MN_AGENT"
        mn_check multinode.ns.hello mn_hello
        mn_check multinode.ns.ring mn_simple ring "ring ok on 6 ranks"
        mn_check multinode.ns.coll mn_simple coll "collectives ok on 6 ranks"
        mn_check multinode.ns.spawn mn_spawn
        mn_check multinode.ns.event mn_event
        mn_check multinode.ns.ports mn_ports
        mn_check multinode.ns.abort mn_abort
        mn_check multinode.ns.tided-killed mn_tided_killed
        set -- $MN_HOSTS
        mn_check multinode.ns.no-daemon mn_no_daemon "$1:2,nohost.invalid:2" 4
        mn_check multinode.ns.no-link mn_no_link
        mn_check multinode.ns.mpiexec-killed mn_mpiexec_killed
        # the tree of daemons: radix 1 makes a chain (mpiexec, then the
        # first host, whose daemon links the second's, which links the
        # third's); radix 2 hangs the third below the first
        MN_EXTRA="--param tree_radix=1 --param verbose=3"
        mn_check multinode.tree.hello mn_tree_chain
        MN_EXTRA="--param tree_radix=1"
        MN_EXTRA="--param tree_radix=2"
        mn_check multinode.tree.coll mn_simple coll "collectives ok on 6 ranks"
        MN_EXTRA="--param tree_radix=1"
        mn_check multinode.tree.spawn mn_spawn
        mn_check multinode.tree.event mn_event
        mn_check multinode.tree.ports mn_ports
        mn_check multinode.tree.abort mn_abort
        mn_check multinode.tree.tided-killed mn_tided_killed
        # deep in a chain (radix 1): the second host's daemon fails to start
        # the third's, and mpiexec names the third host
        set -- $MN_HOSTS
        mn_check multinode.tree.no-daemon mn_no_daemon "$1:2,$2:2,nohost.invalid:2" 6 --param tree_radix=1
        mn_check multinode.tree.mpiexec-killed mn_mpiexec_killed
        if [ -n "$MN_SSH_AGENT" ]; then
            MN_CUR_AGENT="$MN_SSH_AGENT"
            mn_check multinode.tree.ssh.hello mn_hello
        fi
        MN_EXTRA=""
        MN_CUR_AGENT="$MN_AGENT"
        mn_check multinode.tree.listen-if mn_listen_if
        if [ -n "$MN_SSH_AGENT" ]; then
            MN_CUR_AGENT="$MN_SSH_AGENT"
            mn_check multinode.ssh.hello mn_hello
            mn_check multinode.ssh.ring mn_simple ring "ring ok on 6 ranks"
            mn_check multinode.ssh.coll mn_simple coll "collectives ok on 6 ranks"
            mn_check multinode.ssh.abort mn_abort
            mn_check multinode.ssh.tided-killed mn_tided_killed
        else
            tskip multinode.ssh "no sshd in the namespaces: $MN_SKIP_REASON"
        fi
        mn_gone_pid=$MN_PID mn_gone_dir=$MN_DIR
        mn_teardown
        # nothing of the hosts is left: namespaces, links, state directory
        mn_gone() {
            ip netns list | grep "tide-mn-$mn_gone_pid-" && return 1
            ip -o link show | grep -E " (tmnb$mn_gone_pid|tmn${mn_gone_pid}h[0-9]+)[:@]" && return 1
            [ ! -e "$mn_gone_dir" ]
        }
        tcheck multinode.infra.teardown mn_gone
    fi
fi
