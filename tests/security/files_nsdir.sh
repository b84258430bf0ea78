#!/bin/sh
# files_nsdir.sh B: another user creates /tmp/tide-UID (and a
# world-writable XDG_RUNTIME_DIR is offered) before the user's first
# per-user name service starts. The service must still start, in a place
# only the user can make ($HOME/.tide/ns-HOST here), and work.
# Runs in a mount namespace with a private /tmp, so the machine's own
# /tmp/tide-UID is never touched. Exit 0 if so, 77 if it cannot be set
# up here, else 1.
B=$1
[ "$(id -u)" -eq 0 ] && id nobody > /dev/null 2>&1 && command -v setpriv > /dev/null &&
    command -v unshare > /dev/null || { echo "needs root, nobody, setpriv and unshare"; exit 77; }
unshare -m sh -c 'mount -t tmpfs none /mnt' 2> /dev/null || { echo "cannot mount a tmpfs here"; exit 77; }
home=$(mktemp -d /var/tmp/tide-nsdir-home.XXXXXX) || exit 1
side=$(mktemp -d /var/tmp/tide-nsdir-tmp.XXXXXX) || exit 1
trap 'rm -rf "$home"; rmdir "$side"' EXIT
unshare -m sh -c '
    B=$1; home=$2; side=$3; uid=$(id -u)
    # a build tree under /tmp stays reachable under the private /tmp
    mount --bind /tmp "$side" || exit 1
    mount -t tmpfs -o mode=1777 tide-nsdir /tmp || exit 1
    case $B in
    /tmp/*) mkdir -p "$B" && mount --bind "$side${B#/tmp}" "$B" || exit 1 ;;
    esac
    nobody="setpriv --reuid=nobody --regid=$(id -g nobody) --clear-groups"
    # the squatter: the old default place, and a runtime dir that is not ours
    $nobody mkdir -m 777 "/tmp/tide-$uid" || exit 1
    $nobody mkdir -m 777 /tmp/xdg || exit 1
    echo "nobody made /tmp/tide-$uid and /tmp/xdg (mode 0777)"
    env -u TIDE_NS_DIR HOME="$home" XDG_RUNTIME_DIR=/tmp/xdg timeout -k 2 30 "$B/tests/ns/ns_client" \
        --server-prog "$B/bin/tide-nameserver" --idle-exit 1 --timeout 5000 \
        publish squat-name port-1 owner-1 lookup squat-name 0 port-1 status > /tmp/out 2>&1
    rc=$?
    cat /tmp/out
    [ $rc -eq 0 ] || { echo "FAILED: the name service did not work (exit status $rc)"; exit 1; }
    grep -q "mode=user" /tmp/out || { echo "FAILED: not the per-user service"; exit 1; }
    for d in "/tmp/tide-$uid" /tmp/xdg; do
        [ -z "$(ls -A "$d")" ] || { echo "FAILED: files in the squatted $d"; exit 1; }
    done
    [ -d "$home/.tide" ] || { echo "FAILED: no $home/.tide"; exit 1; }
    echo "the per-user name service ran in $home/.tide; the squatted directories were left alone"
    # the server exits after --idle-exit and removes its directory
    n=0
    while [ -e "$home/.tide/ns-$(hostname | cut -d. -f1)" ] && [ $n -lt 200 ]; do sleep 0.05; n=$((n + 1)); done
' nsdir "$B" "$home" "$side"
