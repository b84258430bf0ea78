# hosts.sh: several "hosts" on one machine for the multi-host tests: one
# network namespace per host, joined by a bridge in the root namespace.
# Sourced (POSIX sh). Functions:
#   mn_setup N      make N namespaces tide-mn-<pid>-1..N, each with a veth
#                   into the bridge; exports MN_DIR (state: the host map
#                   read by ns-agent), MN_HOSTS (the namespaces' addresses,
#                   space separated), MN_ROOT_IP (the bridge's address, in
#                   the root namespace, where mpiexec runs), MN_NET (the
#                   /24 in CIDR form), MN_AGENT (the ns-agent script).
#                   Returns 0, MN_SKIP (77) when namespaces cannot be made
#                   here (the reason is in MN_SKIP_REASON), 1 on a failure.
#   mn_start_sshd   an sshd on port 22 in every namespace, with generated
#                   keys; writes $MN_DIR/ssh_config and the launch agent
#                   $MN_DIR/ssh-agent (ssh -F $MN_DIR/ssh_config).
#   mn_ns_of HOST   the namespace of HOST (an address or name of the map).
#   mn_name_of HOST its host name (mn1...: ns-agent and the sshds give
#                   every host a UTS namespace of its own with that name).
#   mn_pids         the processes left in any of the namespaces.
#   mn_teardown     kill what runs in the namespaces (sshds included),
#                   remove namespaces, veths, bridge and MN_DIR. Safe to
#                   call twice; installed as an EXIT/INT/TERM trap.
# Preconditions: root (CAP_SYS_ADMIN, CAP_NET_ADMIN), iproute2, unshare
# (util-linux), a writable /run (ip netns keeps its bind mounts in
# /run/netns) and /proc; ip netns exec mounts a fresh sysfs for the
# namespace (mount sysfs on /sys if that fails). In a chroot:
#   mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t tmpfs tmpfs /run
# Names carry the pid of the shell that made them: parallel runs never
# clash, and mn_setup removes what runs that died left behind.

MN_SKIP=77
# the directory of this library (ns-agent lives there): set MN_HERE before
# sourcing, else $S/tests/multinode when S is the source tree
MN_HERE=${MN_HERE:-${S:+$S/tests/multinode}}
MN_HERE=${MN_HERE:-$(cd "$(dirname "$0")" 2>/dev/null && pwd)}

# _mn_cleanup_prefix PID: remove every namespace, veth and bridge of run PID
_mn_cleanup_prefix() {
    _p=$1
    for _ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep -E "^tide-mn-$_p-[0-9]+\$"); do
        _mn_kill_ns "$_ns"
        ip netns del "$_ns" 2>/dev/null
    done
    for _l in $(ip -o link show 2>/dev/null | awk -F': ' '{print $2}' | sed 's/@.*//' |
                grep -E "^tmn${_p}h[0-9]+\$"); do
        ip link del "$_l" 2>/dev/null
    done
    ip link del "tmnb$_p" 2>/dev/null
    return 0
}

# _mn_kill_ns NS: end every process in NS (TERM, then KILL for the stubborn)
_mn_kill_ns() {
    _pids=$(ip netns pids "$1" 2>/dev/null)
    [ -n "$_pids" ] || return 0
    kill -TERM $_pids 2>/dev/null
    _i=0
    while [ $_i -lt 50 ]; do
        _pids=$(ip netns pids "$1" 2>/dev/null)
        [ -n "$_pids" ] || return 0
        sleep 0.05
        _i=$((_i + 1))
    done
    kill -KILL $_pids 2>/dev/null
    _i=0
    while [ -n "$(ip netns pids "$1" 2>/dev/null)" ] && [ $_i -lt 100 ]; do
        sleep 0.02
        _i=$((_i + 1))
    done
    return 0
}

# _mn_stale: remove the leftovers of runs whose shell is gone
_mn_stale() {
    for _p in $(ip netns list 2>/dev/null | awk '{print $1}' | sed -n 's/^tide-mn-\([0-9]*\)-[0-9]*$/\1/p' | sort -u) \
              $(ip -o link show 2>/dev/null | awk -F': ' '{print $2}' | sed -n 's/^tmnb\([0-9]*\)$/\1/p'); do
        [ "$_p" = "$$" ] && continue
        kill -0 "$_p" 2>/dev/null && continue
        _mn_cleanup_prefix "$_p"
    done
}

# _mn_net_free A.B.C: no address or route of this machine in A.B.C.0/24
_mn_net_free() {
    ip -4 -o addr show 2>/dev/null | grep -q " inet $1\." && return 1
    ip -4 route show 2>/dev/null | awk '{print $1}' | grep -q "^$1\." && return 1
    return 0
}

mn_setup() {
    _n=${1:-3}
    MN_SKIP_REASON=""
    if [ "$(id -u)" -ne 0 ]; then
        MN_SKIP_REASON="not root: network namespaces need CAP_SYS_ADMIN and CAP_NET_ADMIN"
        return $MN_SKIP
    fi
    if ! command -v ip >/dev/null 2>&1; then
        MN_SKIP_REASON="no ip command (iproute2)"
        return $MN_SKIP
    fi
    [ -n "$MN_DIR" ] && mn_teardown
    _mn_stale
    MN_PID=$$
    # can this machine make a namespace and run in it?
    if ! ip netns add "tide-mn-$MN_PID-0" 2>/dev/null; then
        MN_SKIP_REASON="ip netns add fails (is /run writable? see tests/multinode/hosts.sh)"
        return $MN_SKIP
    fi
    if ! ip netns exec "tide-mn-$MN_PID-0" true 2>/dev/null; then
        ip netns del "tide-mn-$MN_PID-0" 2>/dev/null
        MN_SKIP_REASON="ip netns exec fails (are /proc and /sys mounted? see tests/multinode/hosts.sh)"
        return $MN_SKIP
    fi
    ip netns del "tide-mn-$MN_PID-0"
    if ! ip link add "tmnb$MN_PID" type bridge 2>/dev/null; then
        MN_SKIP_REASON="cannot make a bridge (no bridge support in the kernel?)"
        return $MN_SKIP
    fi
    # a free private /24: 10.213.Y.0, Y from the pid, moved on while taken
    _y=$((MN_PID % 250 + 1))
    _k=0
    while ! _mn_net_free "10.213.$_y"; do
        _y=$((_y % 250 + 1))
        _k=$((_k + 1))
        if [ $_k -ge 250 ]; then
            ip link del "tmnb$MN_PID"
            echo "mn_setup: no free /24 in 10.213.0.0/16" >&2
            return 1
        fi
    done
    MN_NET="10.213.$_y.0/24"
    MN_ROOT_IP="10.213.$_y.1"
    MN_DIR=$(mktemp -d "/tmp/tide-mn-$MN_PID.XXXXXX") || { ip link del "tmnb$MN_PID"; return 1; }
    export MN_DIR MN_NET MN_ROOT_IP MN_PID
    trap 'mn_teardown' EXIT
    trap 'mn_teardown; exit 130' INT
    trap 'mn_teardown; exit 143' TERM
    _br="tmnb$MN_PID"
    ip addr add "$MN_ROOT_IP/24" dev "$_br" || { mn_teardown; return 1; }
    ip link set "$_br" up || { mn_teardown; return 1; }
    # bridged frames must not go through the host's iptables (a DROP policy
    # on FORWARD would cut the namespaces from each other)
    ip link set "$_br" type bridge nf_call_iptables 0 2>/dev/null
    MN_HOSTS=""
    : > "$MN_DIR/hosts"
    _i=1
    while [ $_i -le "$_n" ]; do
        _ns="tide-mn-$MN_PID-$_i"
        _ip="10.213.$_y.$((_i + 1))"
        _h="tmn${MN_PID}h$_i"
        _c="tmn${MN_PID}c$_i"
        if ! { ip netns add "$_ns" &&
               ip link add "$_h" type veth peer name "$_c" &&
               ip link set "$_c" netns "$_ns" &&
               ip link set "$_h" master "$_br" &&
               ip link set "$_h" up &&
               ip -n "$_ns" link set "$_c" name eth0 &&
               ip -n "$_ns" addr add "$_ip/24" dev eth0 &&
               ip -n "$_ns" link set eth0 up &&
               ip -n "$_ns" link set lo up &&
               ip -n "$_ns" route add default via "$MN_ROOT_IP"; }; then
            echo "mn_setup: cannot make host $_i ($_ns)" >&2
            mn_teardown
            return 1
        fi
        # map: address, namespace, short name
        echo "$_ip $_ns mn$_i" >> "$MN_DIR/hosts"
        MN_HOSTS="${MN_HOSTS:+$MN_HOSTS }$_ip"
        _i=$((_i + 1))
    done
    MN_AGENT="$MN_HERE/ns-agent"
    export MN_HOSTS MN_AGENT
    return 0
}

# mn_ns_of HOST: the namespace of an address or short name of the map
mn_ns_of() {
    awk -v h="$1" '$1 == h || $2 == h || $3 == h { print $2; exit }' "$MN_DIR/hosts"
}

# mn_name_of HOST: the host name (mn1, mn2...) of an address or name
mn_name_of() {
    awk -v h="$1" '$1 == h || $2 == h || $3 == h { print $3; exit }' "$MN_DIR/hosts"
}

# mn_pids: every process in the namespaces, as "NS PID COMM" lines
mn_pids() {
    [ -n "$MN_DIR" ] && [ -f "$MN_DIR/hosts" ] || return 0
    for _ns in $(awk '{print $2}' "$MN_DIR/hosts"); do
        for _p in $(ip netns pids "$_ns" 2>/dev/null); do
            echo "$_ns $_p $(cat /proc/$_p/comm 2>/dev/null)"
        done
    done
}

# mn_pids_except_sshd: what mn_pids lists, sshd listeners left out
mn_pids_except_sshd() {
    mn_pids | awk '$3 != "sshd"'
}

mn_start_sshd() {
    [ -n "$MN_DIR" ] || { echo "mn_start_sshd: no mn_setup" >&2; return 1; }
    _sshd=$(command -v sshd || echo /usr/sbin/sshd)
    if [ ! -x "$_sshd" ] || ! command -v ssh >/dev/null 2>&1 || ! command -v ssh-keygen >/dev/null 2>&1; then
        MN_SKIP_REASON="no sshd/ssh (packages openssh-server openssh-client)"
        return $MN_SKIP
    fi
    _d="$MN_DIR/ssh"
    mkdir -p "$_d" && chmod 700 "$_d"
    # privilege separation directory of Debian's sshd
    mkdir -p /run/sshd
    ssh-keygen -q -t ed25519 -N '' -f "$_d/host_key" || return 1
    ssh-keygen -q -t ed25519 -N '' -f "$_d/id_ed25519" || return 1
    cp "$_d/id_ed25519.pub" "$_d/authorized_keys"
    chmod 600 "$_d/authorized_keys"
    for _ip in $MN_HOSTS; do
        _ns=$(mn_ns_of "$_ip")
        cat > "$_d/sshd_config.$_ip" <<EOF
Port 22
ListenAddress $_ip
HostKey $_d/host_key
AuthorizedKeysFile $_d/authorized_keys
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
UseDNS no
PrintMotd no
PrintLastLog no
PidFile $_d/sshd.$_ip.pid
AcceptEnv TIDE_* LSAN_OPTIONS ASAN_OPTIONS UBSAN_OPTIONS
MaxStartups 100:30:200
MaxSessions 100
EOF
        : > "$_d/sshd.$_ip.log"
        # in the host's own UTS namespace, named as ns-agent names it
        ip netns exec "$_ns" unshare --uts /bin/sh -c 'hostname "$0" && exec "$@"' "$(mn_name_of "$_ip")" \
            "$_sshd" -D -f "$_d/sshd_config.$_ip" -E "$_d/sshd.$_ip.log" &
        echo $! > "$_d/sshd.$_ip.ppid"
    done
    cat > "$MN_DIR/ssh_config" <<EOF
Host *
    User root
    IdentityFile $_d/id_ed25519
    IdentitiesOnly yes
    StrictHostKeyChecking no
    UserKnownHostsFile /dev/null
    BatchMode yes
    LogLevel ERROR
    ConnectTimeout 10
    # a sanitizer build's suppressions reach the daemons as on a cluster
    # whose sshd accepts them (when they are set at all)
    SendEnv LSAN_OPTIONS ASAN_OPTIONS UBSAN_OPTIONS
EOF
    # the launch agent: ssh with this configuration (the host, then the command)
    cat > "$MN_DIR/ssh-agent" <<EOF
#!/bin/sh
# launch agent of the multi-host tests: ssh to a namespace's sshd
exec ssh -F "$MN_DIR/ssh_config" "\$@"
EOF
    chmod +x "$MN_DIR/ssh-agent"
    # ready when every sshd says it listens
    for _ip in $MN_HOSTS; do
        _i=0
        while ! grep -q "Server listening" "$_d/sshd.$_ip.log" 2>/dev/null; do
            if [ $_i -ge 200 ] || ! kill -0 "$(cat "$_d/sshd.$_ip.ppid")" 2>/dev/null; then
                echo "mn_start_sshd: sshd for $_ip did not start:" >&2
                cat "$_d/sshd.$_ip.log" >&2
                return 1
            fi
            sleep 0.05
            _i=$((_i + 1))
        done
    done
    MN_SSH_AGENT="$MN_DIR/ssh-agent"
    export MN_SSH_AGENT
    return 0
}

mn_teardown() {
    trap - EXIT INT TERM
    [ -n "$MN_PID" ] || return 0
    _mn_cleanup_prefix "$MN_PID"
    [ -n "$MN_DIR" ] && case "$MN_DIR" in /tmp/tide-mn-*) rm -rf "$MN_DIR" ;; esac
    MN_DIR=""
    MN_HOSTS=""
    MN_PID=""
    return 0
}
