#!/bin/sh
# files_sweep.sh: two hosts share a tmpdir (--param tmpdir= on a shared
# file system). Host B is simulated on this machine: a mount and UTS
# namespace where /proc/sys/kernel/random/boot_id reads another boot id
# and the host name is another. A job of host B is killed (kill -9 of
# mpiexec and its daemon) and leaves its session directory: its pids look
# dead from host A, as the pids of a live job of B would (the initial pid
# namespace has the same inode on every host). The next job of host A must
# keep it; the next job of host B must remove it. Needs $MPIEXEC and $TB.
# Exit 0 if so, 77 if it cannot be set up here, else 1.
[ "$(id -u)" -eq 0 ] && command -v unshare > /dev/null || { echo "needs root and unshare"; exit 77; }
w=$(mktemp -d "${TMPDIR:-/tmp}/tide-sweep.XXXXXX") || exit 1
trap '[ -n "$KEEP" ] || rm -rf "$w"' EXIT
mkdir -m 700 "$w/base"
echo 0f0f0f0f-0000-4000-8000-00000000000b > "$w/boot_id"
# host_b CMD...: run CMD on host B (in place of the calling shell: call
# it in a subshell or in the background)
host_b() {
    exec unshare -m -u sh -c 'mount --bind "$0" /proc/sys/kernel/random/boot_id && hostname tide-host-b && exec "$@"' \
        "$w/boot_id" "$@"
}
(host_b true 2> /dev/null) || { echo "cannot simulate another host here"; exit 77; }
fail() { echo "FAILED: $*"; ls -la "$w/base"; exit 1; }

# the job of host B, killed
mkfifo "$w/fifo"
host_b "$MPIEXEC" --param tmpdir="$w/base" -n 2 "$TB/rt_sigforward" usr1 > "$w/fifo" 2>&1 &
pid=$!
exec 3< "$w/fifo"
while read -r line <&3; do echo "host B job: $line"; [ "$line" = ready ] && break; done
tided=$(pgrep -P "$pid" -x tided)
[ -n "$tided" ] || fail "no daemon under mpiexec (pid $pid)"
kill -KILL "$pid" $tided
wait "$pid" 2> /dev/null
exec 3<&-
left=$(ls -d "$w/base"/tide-*-run-* 2> /dev/null)
[ -n "$left" ] || fail "the killed job of host B left no directory (nothing to test)"
echo "host B's job left $left: $(cat "$left/owner")"

"$MPIEXEC" --param tmpdir="$w/base" -n 1 true || fail "mpiexec on host A failed"
[ -d "$left" ] || fail "host A removed the session directory of host B"
echo "host A kept it"
(host_b "$MPIEXEC" --param tmpdir="$w/base" -n 1 true) || fail "mpiexec on host B failed"
[ ! -e "$left" ] || fail "host B did not remove its own dead session directory"
echo "host B removed it: only this host's dead sessions are swept"
