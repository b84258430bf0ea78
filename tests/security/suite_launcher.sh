# suite_launcher.sh: what mpiexec refuses before launching (limits), how a
# launch in progress ends on SIGTERM, forwarding of SIGUSR1/SIGUSR2, and
# the removal of session directories left by killed jobs.
# Sourced by run-all.sh ($MPIEXEC, $TB, $S, $B set).

L_CORES=$(getconf _NPROCESSORS_ONLN 2> /dev/null || nproc)
L_HELLO="$B/examples/hello"

# -- item 8: limits checked before launching --
tcase sec.launcher.huge-n -t 5 -rc 2 -err 'max_ranks_per_core=64' -- \
    $MPIEXEC -n 100000 true
L_LIMIT="sh $S/tests/security/launcher_limit.sh"
# the ranks-per-core cap holds even with --oversubscribe; 16 ranks are fine;
# --no-oversubscribe makes the slots the limit
tcase sec.launcher.ranks-per-core -t 20 -out 'within the limit: ran' -- \
    $L_LIMIT "on .*which has $L_CORES cores.*max_ranks_per_core=64" \
    "$MPIEXEC --oversubscribe -n $((L_CORES * 64 + 1)) true" \
    "$MPIEXEC --oversubscribe -n 16 $L_HELLO | grep -q 'rank 15 of 16' &&
     $MPIEXEC --no-oversubscribe -n $((L_CORES + 1)) true 2>&1 | grep -q 'slots are free.*--oversubscribe'"
tcase sec.launcher.ranks-per-core-param -t 20 -out 'within the limit: ran' -- \
    $L_LIMIT 'max_ranks_per_core=2 allows' \
    "$MPIEXEC --oversubscribe --param max_ranks_per_core=2 -n $((L_CORES * 2 + 1)) true" \
    "$MPIEXEC --oversubscribe --param max_ranks_per_core=2 -n $((L_CORES * 2)) $L_HELLO"
# open files: refused when the hard limit is too low; a higher limit runs,
# and a low soft limit under a high hard one is raised
tcase sec.launcher.fd-limit -t 20 -out 'within the limit: ran' -- \
    $L_LIMIT 'need about 96 open files.*RLIMIT_NOFILE.*is 60' \
    "ulimit -n 60 && exec $MPIEXEC -n 8 $L_HELLO" \
    "(ulimit -n 256 && exec $MPIEXEC -n 8 $L_HELLO) &&
     (ulimit -Sn 40 && ulimit -Hn 4096 && exec $MPIEXEC -n 16 $L_HELLO)"
# processes: RLIMIT_NPROC binds users other than root, so run as nobody
if [ "$(id -u)" -eq 0 ] && command -v setpriv > /dev/null && command -v prlimit > /dev/null &&
   id nobody > /dev/null 2>&1 &&
   setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups test -x "$MPIEXEC"; then
    L_NOBODY="setpriv --reuid=nobody --regid=$(id -g nobody) --clear-groups prlimit --nproc=40:40 --"
    tcase sec.launcher.nproc-limit -t 20 -out 'within the limit: ran' -- \
        $L_LIMIT 'limit on processes of this user \(RLIMIT_NPROC, ulimit -u: 40' \
        "$L_NOBODY $MPIEXEC -n 30 $L_HELLO" "$L_NOBODY $MPIEXEC -n 4 $L_HELLO"
else
    tskip sec.launcher.nproc-limit "needs root, setpriv, prlimit and the user nobody"
fi
# shared-memory space of the session directory's file system
if [ -z "$T_FILTER" ] || echo sec.launcher.shm-space | grep -Eq "$T_FILTER"; then
    timeout -k 5 20 sh "$S/tests/security/launcher_shmspace.sh" 4 256 4 "$L_HELLO" \
        > "$T_LOGDIR/sec.launcher.shm-space.out" 2> "$T_LOGDIR/sec.launcher.shm-space.err"
    case $? in
    0) tpass sec.launcher.shm-space ;;
    77) tskip sec.launcher.shm-space "cannot mount a tmpfs here" ;;
    *) tfail sec.launcher.shm-space "see $T_LOGDIR/sec.launcher.shm-space.*" ;;
    esac
fi
tcase sec.launcher.shm-space-message -t 10 -rc 2 \
    -err 'shared-memory segments of 16 processes may need .* free: use another directory' -- \
    $MPIEXEC --param shm_ring_size_oversub=1073741824 --param shm_ring_size=1073741824 -n 16 $L_HELLO

# a launch in progress ends promptly on SIGTERM
# (2000 ranks: the old launch took far longer than the 5 s of grace)
tcase sec.launcher.sigterm-launch -t 20 -out 'ranks left: 0' -- \
    sh "$S/tests/security/launcher_sigterm.sh" 2000 2000 TERM
tcase sec.launcher.sigint-launch -t 20 -out 'ranks left: 0' -- \
    sh "$S/tests/security/launcher_sigterm.sh" 2000 2000 INT

# -- item 10: SIGUSR1/SIGUSR2 forwarded to the ranks, tided survives them --
tcase sec.launcher.sigusr1 -t 20 -out '4 of 4 ranks got SIGUSR1 exactly once' -- \
    sh "$S/tests/security/launcher_sigusr.sh" usr1 4
tcase sec.launcher.sigusr2 -t 20 -out '2 of 2 ranks got SIGUSR2 exactly once' -- \
    sh "$S/tests/security/launcher_sigusr.sh" usr2 2

# -- item 9: session directories of dead jobs --
tcase sec.launcher.stale-sessions -t 20 -out 'stale directories removed, the others kept' -- \
    sh "$S/tests/security/launcher_stale.sh"
