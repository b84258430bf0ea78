#!/bin/sh
# files_race.sh: another user of a remote host takes the session
# directory name before the job's daemon makes it. The launch agent runs
# the daemon "on another host": in a mount namespace of its own where a
# private tmpfs (mode 1777, like /dev/shm) covers the tmpdir, and before
# starting it creates there, as user nobody, the directory the daemon
# would use (the name in its argv, or else mpiexec's session directory
# name), mode 0777, with its nodeN entry a symlink to a directory of the
# job's user holding a canary file.
# Expected: the job runs in a fresh private directory of its own, the
# canary directory gets nothing and loses nothing, and the daemon's argv
# (read from /proc by the rank: its parent is the daemon) names no
# directory. Exit 0 if so, 77 if it cannot be set up here, else 1.
[ "$(id -u)" -eq 0 ] && id nobody > /dev/null 2>&1 && command -v setpriv > /dev/null &&
    command -v unshare > /dev/null || { echo "needs root, nobody, setpriv and unshare"; exit 77; }
unshare -m sh -c 'mount -t tmpfs none /mnt' 2> /dev/null || { echo "cannot mount a tmpfs here"; exit 77; }
w=$(mktemp -d "${TMPDIR:-/tmp}/tide-files-race.XXXXXX") || exit 1
trap 'rm -rf "$w"' EXIT
chmod 711 "$w" # the attacker reaches base (its own tmpfs), not the canary
mkdir -m 700 "$w/base" "$w/canary"
echo precious > "$w/canary/precious"
fail() { echo "FAILED: $*"; exit 1; }

cat > "$w/agent" << EOF
#!/bin/sh
shift # the host
exec unshare -m sh -c '
    base=\$1; canary=\$2; shift 2
    dir=; node=; prev=
    for a in "\$@"; do
        [ "\$prev" = --session-dir ] && dir=\$a
        [ "\$prev" = --node ] && node=\$a
        prev=\$a
    done
    [ -n "\$dir" ] || dir=\$(ls -d "\$base"/tide-*-run-* | head -n 1)
    [ -n "\$dir" ] || { echo "agent: no name to take" >&2; exit 1; }
    mount -t tmpfs -o mode=1777 tide-race "\$base" || exit 1
    setpriv --reuid=nobody --regid=$(id -g nobody) --clear-groups \\
        sh -c "mkdir -m 777 \$dir && ln -s \$canary \$dir/node\$node" || exit 1
    echo "agent: nobody made \$dir with node\$node -> \$canary" >&2
    exec "\$@"' race "$w/base" "$w/canary" "\$@"
EOF
chmod +x "$w/agent"

timeout -k 5 60 "$MPIEXEC" --param tmpdir="$w/base" --launch-agent "$w/agent" --host tide-race.invalid:1 \
    --param if_include=lo -n 1 sh -c \
    'printf "argv: "; tr "\0" " " < /proc/$PPID/cmdline; echo
     echo "jobdir: $TIDE_JOB_DIR"
     echo "session: $(stat -c "%U %a" "$TIDE_JOB_DIR/../..")"
     echo data > "$TIDE_JOB_DIR/rankfile"' > "$w/out" 2> "$w/err"
rc=$?
cat "$w/out" "$w/err"
echo "job exit status $rc"
# the canary lost nothing and got nothing
[ "$(cat "$w/canary/precious" 2> /dev/null)" = precious ] || fail "the canary file was removed"
[ "$(ls -A "$w/canary")" = precious ] || fail "the job's files went into the canary directory: $(ls -A "$w/canary")"
# no directory in the daemon's argv
grep -q '^argv: .*tided' "$w/out" || fail "no argv of the daemon seen"
! grep -q '^argv: .*\(--session-dir\|tide-[0-9]*-\)' "$w/out" || fail "the daemon's argv names its directory"
# the job ran, in a private directory of its own (or was refused, clearly)
if [ $rc -eq 0 ]; then
    grep -q '^session: root 700$' "$w/out" || fail "the job's session directory is not a private one of its user"
    echo "canary kept; the job used a fresh private directory not named in argv"
else
    grep -q "refusing\|not a private directory" "$w/err" || fail "the job failed without saying why"
    echo "canary kept; the job refused the directory"
fi
