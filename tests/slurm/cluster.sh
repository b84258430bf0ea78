# cluster.sh: a private one-node Slurm cluster for the tests (sourced).
#
#   slurm_setup      starts munged, slurmctld and slurmd from Debian's
#                    munge and slurm-wlm, each with its own files under
#                    $SLURM_T_DIR, and waits until the node is idle.
#                    Returns 0 when the cluster is up, 2 when it cannot run
#                    here (not root, packages missing; the reason is in
#                    $SLURM_T_REASON), 1 when it failed to start.
#   slurm_teardown   cancels the jobs, stops the daemons and removes the
#                    files. Safe to call at any time, also with nothing up.
#
# Commands that use the cluster need SLURM_CONF=$SLURM_T_CONF in their own
# environment (e.g. `env SLURM_CONF="$SLURM_T_CONF" srun ...`); nothing is
# exported globally. The directory is a fixed function of the build tree,
# so that a setup after a killed run finds and stops what that run left.
# The controller and the node are addressed as 127.0.0.1: all the
# cluster's traffic stays on this machine's loopback.

SLURM_T_REASON=""
slurm_t_init() {
    if [ -z "${SLURM_T_DIR:-}" ]; then
        slurm_t_key=$(printf '%s' "${B:-$(pwd)}" | cksum | cut -d' ' -f1)
        SLURM_T_DIR="${TMPDIR:-/tmp}/tide-slurm-$slurm_t_key"
    fi
    SLURM_T_CONF="$SLURM_T_DIR/slurm.conf"
    SLURM_T_MUNGE="$SLURM_T_DIR/munge"
    SLURM_T_NODE=$(hostname -s)
    SLURM_T_CPUS=${SLURM_T_CPUS:-8}
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

slurm_t_node_idle() {
    st=$(SLURM_CONF="$SLURM_T_CONF" sinfo -h -N -n "$SLURM_T_NODE" -o %t 2>/dev/null)
    [ "$st" = idle ]
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
    ss -Hxlp 2>/dev/null | grep -F "$SLURM_T_DIR/spool/" | \
        sed -n 's/.*pid=\([0-9][0-9]*\).*/\1/p' | sort -u
}

slurm_teardown() {
    slurm_t_init
    [ -d "$SLURM_T_DIR" ] || return 0
    if [ -f "$SLURM_T_CONF" ] && slurm_t_alive "$SLURM_T_DIR/slurmctld.pid"; then
        SLURM_CONF="$SLURM_T_CONF" scancel --quiet --full --signal=KILL -u root 2>/dev/null
        SLURM_CONF="$SLURM_T_CONF" scancel --quiet -u root 2>/dev/null
        slurm_t_wait 15 slurm_t_queue_empty
    fi
    slurm_t_stop "$SLURM_T_DIR/slurmd.pid"
    slurm_t_stop "$SLURM_T_DIR/slurmctld.pid"
    # steps that outlived their slurmd, with their tasks
    for sp in $(slurm_t_step_pids); do
        kill -9 $(slurm_t_tree "$sp") 2>/dev/null
    done
    slurm_t_stop "$SLURM_T_MUNGE/munged.pid"
    rm -rf "$SLURM_T_DIR"
}

# slurm_t_write_conf CTLD_PORT SLURMD_PORT
slurm_t_write_conf() {
    d=$SLURM_T_DIR
    cat > "$SLURM_T_CONF" <<EOF
# generated by tests/slurm/cluster.sh: a private one-node cluster
ClusterName=tidetest
SlurmctldHost=$SLURM_T_NODE(127.0.0.1)
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
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
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
NodeName=$SLURM_T_NODE NodeAddr=127.0.0.1 CPUs=$SLURM_T_CPUS RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=$SLURM_T_NODE Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
EOF
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
    slurm_t_init
    SLURM_T_REASON=""
    slurm_t_can_run || return 2
    # already up (a second call): nothing to do
    if [ -f "$SLURM_T_CONF" ] && slurm_t_alive "$SLURM_T_MUNGE/munged.pid" && \
       slurm_t_alive "$SLURM_T_DIR/slurmctld.pid" && slurm_t_alive "$SLURM_T_DIR/slurmd.pid" && \
       slurm_t_ping && slurm_t_node_idle; then
        return 0
    fi
    # whatever a killed run left
    slurm_teardown
    mkdir -p "$SLURM_T_DIR/state" "$SLURM_T_DIR/spool" "$SLURM_T_DIR/tmp" || return 1
    chmod 0755 "$SLURM_T_DIR"
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
    if ! slurmd -f "$SLURM_T_CONF" > "$SLURM_T_DIR/slurmd.out" 2>&1 || \
       ! slurm_t_wait 30 slurm_t_node_idle; then
        SLURM_T_REASON="slurmd did not bring node $SLURM_T_NODE to idle: $(tail -n 3 "$SLURM_T_DIR/slurmd.log" 2>/dev/null | tr '\n' ' ')"
        slurm_teardown
        return 1
    fi
    return 0
}
