# suite_files.sh: Tide's directories and files against another local user
# (docs/SECURITY.md, "Files and directories"): the session directory of a
# remote host taken first, clean-up that meets symlinks, the stale-session
# sweep on a tmpdir shared by hosts, and the per-user name service's
# directory squatted. The module's own checks are unit tests
# (tests/unit/test_safefs.c). Sourced by run-all.sh ($MPIEXEC, $TB, $S, $B).

# f_script NAME TIMEOUT SCRIPT [ARGS...]: a case run by a script that
# exits 0 (pass), 77 (cannot be set up here: skip) or else (fail)
f_script() {
    fs_name=$1; fs_tmo=$2; shift 2
    if [ -n "$T_FILTER" ] && ! echo "$fs_name" | grep -Eq "$T_FILTER"; then
        return 0
    fi
    timeout -k 5 "$fs_tmo" sh "$@" > "$T_LOGDIR/$fs_name.out" 2> "$T_LOGDIR/$fs_name.err"
    case $? in
    0) tpass "$fs_name" ;;
    77) tskip "$fs_name" "$(tail -n 1 "$T_LOGDIR/$fs_name.out")" ;;
    *) tfail "$fs_name" "see $T_LOGDIR/$fs_name.*" ;;
    esac
}

# a remote host's session directory made first by nobody, its node entry
# a symlink to a directory of the job's user: the canary survives, the
# daemon's argv names no directory
f_script sec.files.remote-session-race 90 "$S/tests/security/files_race.sh"
# a dead job of another host sharing the tmpdir is kept; this host's goes
f_script sec.files.sweep-other-host 90 "$S/tests/security/files_sweep.sh"
# /tmp/tide-UID made by nobody first: the per-user name service still runs
f_script sec.files.ns-dir-squatted 60 "$S/tests/security/files_nsdir.sh" "$B"

# clean-up meets symlinks inside the session directory (a rank makes them,
# pointing at a canary directory): they go, the canary stays
f_cleanup_links() {
    c=$(mktemp -d "${TMPDIR:-/tmp}/tide-files-canary.XXXXXX") || return 1
    base=$(mktemp -d "${TMPDIR:-/tmp}/tide-files-base.XXXXXX") || return 1
    echo precious > "$c/precious"
    "$MPIEXEC" --param tmpdir="$base" -n 2 sh -c '
        ln -s "$0" "$TIDE_JOB_DIR/link-$PMIX_RANK" &&
        ln -s "$0/precious" "$TIDE_JOB_DIR/file-$PMIX_RANK" &&
        ln -s "$0" "$TIDE_JOB_DIR/../pmix/link-$PMIX_RANK" && echo planted' "$c" || return 1
    ok=1
    [ "$(cat "$c/precious" 2> /dev/null)" = precious ] || { echo "the canary was removed"; ok=0; }
    [ -z "$(ls -A "$base")" ] || { echo "left: $(ls -A "$base")"; ok=0; }
    rm -rf "$c" "$base"
    [ $ok = 1 ] && echo "symlinks removed, canary kept"
}
tcheck sec.files.cleanup-no-follow f_cleanup_links

# a rank's shared-memory segment swapped, before its peer first reaches
# it, for a symlink to a copy of it, or for a second link of such a copy
# (shm.c opens a peer's segment with safefs.h): the peer refuses it,
# writes nothing into the copy, and the two still exchange messages
# (another transport); the unit checks are tests/unit/test_safefs.c
f_shm_swap() {
    d=$(mktemp -d "${TMPDIR:-/tmp}/tide-shm-swap.XXXXXX") || return 1
    "$MPIEXEC" --timeout 60 -n 2 "$TB/shm_swap" "$1" "$d"
    rc=$?
    rm -rf "$d"
    return $rc
}
tcheck sec.files.shm-swap.symlink f_shm_swap symlink
tcheck sec.files.shm-swap.hardlink f_shm_swap hardlink
