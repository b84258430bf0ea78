#!/bin/sh
# launcher_stale.sh: session directories of jobs whose processes are dead
# are removed by the next mpiexec of the same user; the others are kept.
# First a real job is killed (kill -9 of mpiexec and tided together) and
# must leave its directory; then directories are made by hand: dead owner
# (pid gone), reused pid (start time differs), live owner, live daemon
# under a dead mpiexec, no owner record, another user's, and (with a
# tmpdir shared by hosts) dead-looking records of another boot or host,
# or of the old format without a host, which must be kept.
base=$(mktemp -d "${TMPDIR:-/tmp}/tide-stale.XXXXXX") || exit 1
trap 'rm -rf "$base"' EXIT
uid=$(id -u)
fail() { echo "FAILED: $*"; ls -la "$base"; exit 1; }
starttime() { sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f20; }
ns=$(readlink /proc/self/ns/pid)
boot=$(cat /proc/sys/kernel/random/boot_id)
host=$(hostname)
# owner DIR PID STARTTIME [BOOT_ID [HOST]]: the record a process writes
owner() { printf 'tide-owner-2 %s %s %s %s %s\n' "$2" "$3" "$ns" "${4:-$boot}" "${5:-$host}" > "$1/owner"; }

# a killed job
mkfifo "$base/fifo"
"$MPIEXEC" --param tmpdir="$base" -n 2 "$TB/rt_sigforward" usr1 > "$base/fifo" 2>&1 &
pid=$!
exec 3< "$base/fifo"
while read -r line <&3; do [ "$line" = ready ] && break; done
tided=$(pgrep -P "$pid" -x tided)
kill -KILL "$pid" $tided
wait "$pid" 2> /dev/null
exec 3<&-
killed=$(ls -d "$base/tide-$uid-run-"* 2> /dev/null)
[ -n "$killed" ] || fail "the killed job left no directory (nothing to test)"
echo "left by the killed job: $(find "$killed" -type f | wc -l) files, $(du -sk "$killed" | cut -f1) KiB"

me=$$
mystart=$(starttime $me)
gone=$(sh -c 'echo $$')
mk() { (umask 077 && mkdir -p "$base/tide-$uid-run-$1/node0/job0"); echo "$base/tide-$uid-run-$1"; }
d=$(mk dead); owner "$d" "$gone" 12345
for i in 0 1 2 3; do truncate -s 64M "$d/node0/job0/shm-$i-1"; done
d=$(mk reused); owner "$d" "$me" $((mystart + 1))
d=$(mk live); owner "$d" "$me" "$mystart"
d=$(mk livedaemon); owner "$d" "$gone" 12345; owner "$d/node0" "$me" "$mystart"
d=$(mk noowner)
# another host sharing this tmpdir: its pids mean nothing here
d=$(mk otherboot); owner "$d" "$gone" 12345 0f0f0f0f-0000-4000-8000-000000000000
d=$(mk otherhost); owner "$d" "$gone" 12345 "$boot" other-host.invalid
d=$(mk oldformat); printf '%s %s %s\n' "$gone" 12345 "$ns" > "$d/owner"
# the live daemon of another host under a dead mpiexec of this one
d=$(mk remotedaemon); owner "$d" "$gone" 12345; owner "$d/node0" "$gone" 12345 0f0f0f0f-0000-4000-8000-000000000000
if [ "$uid" -eq 0 ] && id nobody > /dev/null 2>&1; then
    other=$(id -u nobody)
    d="$base/tide-$other-run-other"; mkdir -m 700 -p "$d"; owner "$d" "$gone" 12345; chown -R nobody "$d"
    d="$base/tide-$uid-run-otherowned"; mkdir -m 700 -p "$d"; owner "$d" "$gone" 12345; chown -R nobody "$d"
fi

"$MPIEXEC" --param tmpdir="$base" -n 1 true || fail "mpiexec failed"
[ ! -e "$killed" ] || fail "the killed job's directory is still there"
for x in dead reused; do [ ! -e "$base/tide-$uid-run-$x" ] || fail "$x was kept"; done
for x in live livedaemon noowner otherboot otherhost oldformat remotedaemon; do [ -d "$base/tide-$uid-run-$x" ] || fail "$x was removed"; done
if [ "$uid" -eq 0 ] && id nobody > /dev/null 2>&1; then
    [ -d "$base/tide-$(id -u nobody)-run-other" ] || fail "another user's directory was removed"
    [ -d "$base/tide-$uid-run-otherowned" ] || fail "a directory owned by another user was removed"
fi
echo "stale directories removed, the others kept"
