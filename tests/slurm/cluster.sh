# cluster.sh: a private Slurm cluster for the tests, of one node or of
# several in namespaces (sourced).
#
#   slurm_setup [N]  starts munged, slurmctld and slurmd from Debian's
#                    munge and slurm-wlm, each with its own files under
#                    $SLURM_T_DIR, and waits until the nodes are idle.
#                    N (default 1) > 1: N nodes n1..nN, each slurmd in a
#                    network namespace of its own (bridged, addresses in a
#                    private /24 of this machine) and a mount namespace
#                    where the spool and TmpFS directories are its own; a
#                    setup with another N first stops the cluster there is.
#                    Returns 0 when the cluster is up, 2 when it cannot run
#                    here (not root, packages missing, no namespaces for
#                    N > 1; the reason is in $SLURM_T_REASON), 1 when it
#                    failed to start.
#   slurm_teardown   cancels the jobs, stops the daemons and removes the
#                    files. Safe to call at any time, also with nothing up.
#
# Commands that use the cluster need SLURM_CONF=$SLURM_T_CONF in their own
# environment (e.g. `env SLURM_CONF="$SLURM_T_CONF" srun ...`); nothing is
# exported globally. The directory is a fixed function of the build tree,
# so that a setup after a killed run finds and stops what that run left.
# One node: the controller and the node are addressed as 127.0.0.1. Several:
# as addresses of a bridge and of namespaces made here. Either way all the
# cluster's traffic stays on this machine.

SLURM_T_REASON=""
slurm_t_init() {
    if [ -z "${SLURM_T_DIR:-}" ]; then
        slurm_t_key=$(printf '%s' "${B:-$(pwd)}" | cksum | cut -d' ' -f1)
        SLURM_T_DIR="${TMPDIR:-/tmp}/tide-slurm-$slurm_t_key"
    fi
    SLURM_T_CONF="$SLURM_T_DIR/slurm.conf"
    SLURM_T_MUNGE="$SLURM_T_DIR/munge"
    SLURM_T_HOST=$(hostname -s)
    SLURM_T_CPUS=${SLURM_T_CPUS:-8}
    # names of the namespaces and links of a multi-node cluster (at most
    # 15 characters for a link)
    SLURM_T_K=$(($(printf '%s' "$SLURM_T_DIR" | cksum | cut -d' ' -f1) % 100000))
    SLURM_T_NODES=1
    [ -s "$SLURM_T_DIR/nodes" ] && SLURM_T_NODES=$(cat "$SLURM_T_DIR/nodes")
    slurm_t_names
}

# slurm_t_names: SLURM_T_NODE, the node list (hostname, or n1,...,nN)
slurm_t_names() {
    if [ "$SLURM_T_NODES" -le 1 ]; then
        SLURM_T_NODE=$SLURM_T_HOST
    else
        SLURM_T_NODE=$(i=1; while [ $i -le "$SLURM_T_NODES" ]; do printf 'n%d' $i;
                       [ $i -lt "$SLURM_T_NODES" ] && printf ','; i=$((i + 1)); done)
    fi
}

# slurm_t_can_run: 0 when this machine can host the cluster
slurm_t_can_run() {
    if [ "$(id -u)" -ne 0 ]; then
        SLURM_T_REASON="needs root (slurmd runs jobs as any user)"
        return 1
    fi
    for c in munged mungekey slurmctld slurmd slurmstepd srun salloc sbatch sinfo \
             scontrol scancel squeue runuser ss; do
        if ! command -v "$c" > /dev/null 2>&1; then
            SLURM_T_REASON="$c is missing (sh tools/deps.sh installs slurm-wlm and munge)"
            return 1
        fi
    done
    if ! id munge > /dev/null 2>&1; then
        SLURM_T_REASON="no user munge (the munge package makes it)"
        return 1
    fi
    return 0
}

# slurm_t_free_port BASE: the first port from BASE up that nothing on this
# machine listens on (TCP)
slurm_t_free_port() {
    p=$1
    while [ "$p" -lt 65000 ]; do
        if ! ss -Htln "sport = :$p" 2>/dev/null | grep -q .; then
            echo "$p"
            return 0
        fi
        p=$((p + 1))
    done
    return 1
}

# slurm_t_alive PIDFILE: 0 when the process of that pid file is running
slurm_t_alive() {
    [ -s "$1" ] || return 1
    slurm_t_pid_alive "$(cat "$1")"
}

# slurm_t_pid_alive PID: running (a zombie is not)
slurm_t_pid_alive() {
    kill -0 "$1" 2>/dev/null || return 1
    ! grep -q '^[0-9]* (.*) [ZX] ' "/proc/$1/stat" 2>/dev/null
}

# slurm_t_tree PID: PID and all its descendants
slurm_t_tree() {
    echo "$1"
    for c in $(ps -e -o pid=,ppid= | awk -v p="$1" '$2 == p { print $1 }'); do
        slurm_t_tree "$c"
    done
}

# slurm_t_stop PIDFILE: TERM the process of that pid file, wait for it to
# go (KILL after 10 s)
slurm_t_stop() {
    slurm_t_alive "$1" || return 0
    pid=$(cat "$1")
    kill "$pid" 2>/dev/null
    i=0
    while slurm_t_pid_alive "$pid"; do
        i=$((i + 1))
        if [ $i -eq 100 ]; then kill -9 "$pid" 2>/dev/null; fi
        if [ $i -gt 150 ]; then return 1; fi
        sleep 0.1
    done
    return 0
}

# slurm_t_wait DEADLINE_S COMMAND...: poll COMMAND until it succeeds or the
# deadline passes
slurm_t_wait() {
    n=$(($1 * 10)); shift
    while [ "$n" -gt 0 ]; do
        "$@" > /dev/null 2>&1 && return 0
        sleep 0.1
        n=$((n - 1))
    done
    return 1
}

# every node idle
slurm_t_node_idle() {
    st=$(SLURM_CONF="$SLURM_T_CONF" sinfo -h -N -n "$SLURM_T_NODE" -o %t 2>/dev/null)
    [ -n "$st" ] && [ "$(printf '%s\n' "$st" | grep -cx idle)" -eq "$SLURM_T_NODES" ] && \
        ! printf '%s\n' "$st" | grep -qvx idle
}

slurm_t_queue_empty() {
    [ -z "$(SLURM_CONF="$SLURM_T_CONF" squeue -h -o %i 2>/dev/null)" ]
}

slurm_t_ping() {
    SLURM_CONF="$SLURM_T_CONF" scontrol ping 2>/dev/null | grep -q 'is UP'
}

# slurm_t_step_pids: pids of the slurmstepd processes of this cluster, found
# by the step sockets they listen on in our spool directory
slurm_t_step_pids() {
    [ -d "$SLURM_T_DIR/spool" ] || return 0
    {
        ss -Hxlp 2>/dev/null
        # Unix sockets are seen from their network namespace only
        for ns in $(slurm_t_netns_list); do
            nsenter --net="/run/netns/$ns" ss -Hxlp 2>/dev/null
        done
    } | grep -F "$SLURM_T_DIR/spool/" | sed -n 's/.*pid=\([0-9][0-9]*\).*/\1/p' | sort -u
}

# ---- the namespaces of a multi-node cluster ----

slurm_t_netns_list() {
    ip netns list 2>/dev/null | awk '{print $1}' | grep -x "tide-sl-$SLURM_T_K-[0-9]*"
}

# slurm_t_subnet: a 10.77.X prefix no interface or route here uses yet
slurm_t_subnet() {
    x=$((SLURM_T_K % 200 + 20))
    n=0
    while [ $n -lt 200 ]; do
        if ! ip -o -4 addr show 2>/dev/null | grep -q " 10\.77\.$x\." && \
           ! ip -4 route show 2>/dev/null | grep -q "^10\.77\.$x\."; then
            echo "10.77.$x"
            return 0
        fi
        x=$((x % 250 + 1))
        n=$((n + 1))
    done
    return 1
}

# slurm_t_net_up N: bridge tsbK at PREFIX.1, namespace tide-sl-K-i with
# PREFIX.(10+i) for each node i
slurm_t_net_up() {
    br="tsb$SLURM_T_K"
    ip link add "$br" type bridge || return 1
    ip addr add "$SLURM_T_NET.1/24" dev "$br" && ip link set "$br" up || return 1
    i=1
    while [ $i -le "$1" ]; do
        ns="tide-sl-$SLURM_T_K-$i"
        v="tsv${SLURM_T_K}n$i"
        ip netns add "$ns" || return 1
        ip link add "$v" type veth peer name eth0 netns "$ns" || return 1
        ip link set "$v" master "$br" && ip link set "$v" up || return 1
        ip -n "$ns" addr add "$SLURM_T_NET.$((10 + i))/24" dev eth0 || return 1
        ip -n "$ns" link set eth0 up && ip -n "$ns" link set lo up || return 1
        i=$((i + 1))
    done
}

slurm_t_net_down() {
    for ns in $(slurm_t_netns_list); do
        ip netns del "$ns" 2>/dev/null
    done
    ip link del "tsb$SLURM_T_K" 2>/dev/null
    return 0
}

# slurm_t_start_slurmd_ns I: slurmd of node nI in its namespaces: network
# tide-sl-K-I, and a mount namespace where $SLURM_T_DIR/spool and /tmp are
# nI's own (Slurm's PMIx plugin finds its peers' sockets and makes its step
# directories at paths that must differ from node to node)
slurm_t_start_slurmd_ns() {
    nd="$SLURM_T_DIR/nodes.d/n$1"
    mkdir -p "$nd/spool" "$nd/tmp" || return 1
    nsenter --net="/run/netns/tide-sl-$SLURM_T_K-$1" unshare -m --propagation private sh -c '
        mount --bind "$1/spool" "$2/spool" && mount --bind "$1/tmp" "$2/tmp" &&
        exec slurmd -N "n$3" -f "$4"' sh "$nd" "$SLURM_T_DIR" "$1" "$SLURM_T_CONF" \
        > "$SLURM_T_DIR/slurmd-n$1.out" 2>&1
}

slurm_teardown() {
    slurm_t_init
    if [ ! -d "$SLURM_T_DIR" ]; then
        slurm_t_net_down
        return 0
    fi
    if [ -f "$SLURM_T_CONF" ] && slurm_t_alive "$SLURM_T_DIR/slurmctld.pid"; then
        SLURM_CONF="$SLURM_T_CONF" scancel --quiet --full --signal=KILL -u root 2>/dev/null
        SLURM_CONF="$SLURM_T_CONF" scancel --quiet -u root 2>/dev/null
        slurm_t_wait 15 slurm_t_queue_empty
    fi
    for pf in "$SLURM_T_DIR"/slurmd.pid "$SLURM_T_DIR"/slurmd-n*.pid; do
        slurm_t_stop "$pf"
    done
    slurm_t_stop "$SLURM_T_DIR/slurmctld.pid"
    # steps that outlived their slurmd, with their tasks
    for sp in $(slurm_t_step_pids); do
        kill -9 $(slurm_t_tree "$sp") 2>/dev/null
    done
    slurm_t_stop "$SLURM_T_MUNGE/munged.pid"
    slurm_t_net_down
    rm -rf "$SLURM_T_DIR"
}

# slurm_t_write_conf CTLD_PORT SLURMD_PORT
slurm_t_write_conf() {
    d=$SLURM_T_DIR
    ctl_addr=127.0.0.1
    sd_pid="$d/slurmd.pid"
    sd_log="$d/slurmd.log"
    if [ "$SLURM_T_NODES" -gt 1 ]; then
        ctl_addr="$SLURM_T_NET.1"
        sd_pid="$d/slurmd-%n.pid"
        sd_log="$d/slurmd-%n.log"
    fi
    cat > "$SLURM_T_CONF" <<EOF
# generated by tests/slurm/cluster.sh: a private cluster of $SLURM_T_NODES node(s)
ClusterName=tidetest
SlurmctldHost=$SLURM_T_HOST($ctl_addr)
SlurmctldPort=$1
SlurmdPort=$2
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SLURM_T_MUNGE/munge.socket
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$sd_pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$sd_log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
InactiveLimit=0
KillWait=2
MinJobAge=2
MessageTimeout=10
SlurmctldTimeout=30
SlurmdTimeout=60
TmpFS=$d/tmp
PartitionName=debug Nodes=$SLURM_T_NODE Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
EOF
    if [ "$SLURM_T_NODES" -le 1 ]; then
        echo "NodeName=$SLURM_T_NODE NodeAddr=127.0.0.1 CPUs=$SLURM_T_CPUS RealMemory=1000 State=UNKNOWN" \
            >> "$SLURM_T_CONF"
    else
        i=1
        while [ $i -le "$SLURM_T_NODES" ]; do
            echo "NodeName=n$i NodeAddr=$SLURM_T_NET.$((10 + i)) NodeHostname=$SLURM_T_HOST CPUs=$SLURM_T_CPUS RealMemory=1000 State=UNKNOWN"
            i=$((i + 1))
        done >> "$SLURM_T_CONF"
    fi
}

slurm_t_start_munge() {
    m=$SLURM_T_MUNGE
    mkdir -p "$m"
    chown munge:munge "$m"
    chmod 0755 "$m"
    mungekey -c -k "$m/munge.key" > /dev/null 2>&1 || return 1
    chown munge:munge "$m/munge.key"
    chmod 0400 "$m/munge.key"
    runuser -u munge -- munged --key-file="$m/munge.key" --socket="$m/munge.socket" \
        --pid-file="$m/munged.pid" --log-file="$m/munged.log" \
        --seed-file="$m/munged.seed" > "$SLURM_T_DIR/munged.out" 2>&1 || return 1
    slurm_t_wait 10 test -S "$m/munge.socket"
}

slurm_setup() {
    want=${1:-1}
    slurm_t_init
    SLURM_T_REASON=""
    slurm_t_can_run || return 2
    if [ "$want" -gt 1 ]; then
        for c in ip nsenter unshare mount; do
            if ! command -v "$c" > /dev/null 2>&1; then
                SLURM_T_REASON="$c is missing (for nodes in namespaces)"
                return 2
            fi
        done
    fi
    # already up with as many nodes (a second call): nothing to do
    if [ "$SLURM_T_NODES" -eq "$want" ] && [ -f "$SLURM_T_CONF" ] && \
       slurm_t_alive "$SLURM_T_MUNGE/munged.pid" && slurm_t_alive "$SLURM_T_DIR/slurmctld.pid" && \
       slurm_t_ping && slurm_t_node_idle; then
        return 0
    fi
    # whatever a killed run left, or a cluster of another size
    slurm_teardown
    SLURM_T_NODES=$want
    slurm_t_names
    if [ "$want" -gt 1 ]; then
        if ! SLURM_T_NET=$(slurm_t_subnet) || ! slurm_t_net_up "$want" > /dev/null 2>&1; then
            SLURM_T_REASON="cannot make the network namespaces of the nodes"
            slurm_t_net_down
            return 2
        fi
    fi
    mkdir -p "$SLURM_T_DIR/state" "$SLURM_T_DIR/spool" "$SLURM_T_DIR/tmp" || return 1
    chmod 0755 "$SLURM_T_DIR"
    echo "$want" > "$SLURM_T_DIR/nodes"
    if ! slurm_t_start_munge; then
        SLURM_T_REASON="munged did not start: $(tail -n 3 "$SLURM_T_MUNGE/munged.log" "$SLURM_T_DIR/munged.out" 2>/dev/null | tr '\n' ' ')"
        slurm_teardown
        return 1
    fi
    # two free ports in a range of its own for each build tree
    base=$((20000 + $(printf '%s' "$SLURM_T_DIR" | cksum | cut -d' ' -f1) % 20000))
    cport=$(slurm_t_free_port "$base") && dport=$(slurm_t_free_port $((cport + 1))) || {
        SLURM_T_REASON="no free port"; slurm_teardown; return 1; }
    slurm_t_write_conf "$cport" "$dport"
    # -c: no state of an earlier run; both fork into the background
    if ! slurmctld -c -f "$SLURM_T_CONF" > "$SLURM_T_DIR/slurmctld.out" 2>&1 || \
       ! slurm_t_wait 20 slurm_t_ping; then
        SLURM_T_REASON="slurmctld did not start: $(tail -n 3 "$SLURM_T_DIR/slurmctld.log" 2>/dev/null | tr '\n' ' ')"
        slurm_teardown
        return 1
    fi
    if [ "$want" -le 1 ]; then
        slurmd -f "$SLURM_T_CONF" > "$SLURM_T_DIR/slurmd.out" 2>&1
    else
        i=1
        while [ $i -le "$want" ]; do
            slurm_t_start_slurmd_ns $i || break
            i=$((i + 1))
        done
    fi
    if ! slurm_t_wait 30 slurm_t_node_idle; then
        SLURM_T_REASON="slurmd did not bring $SLURM_T_NODE to idle: $(tail -q -n 2 "$SLURM_T_DIR"/slurmd*.log "$SLURM_T_DIR"/slurmd*.out 2>/dev/null | tr '\n' ' ')"
        slurm_teardown
        return 1
    fi
    return 0
}
