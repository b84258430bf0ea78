#!/bin/sh
# tided_probe.sh HOSTILE SPAWNER CASE: run as rank 0 of a one-rank job
# (mpiexec -n 1 sh tided_probe.sh ...), so its parent is its tided and its
# environment holds tided's PMIx address. Attacks tided's PMIx listener
# with the hostile client HOSTILE (tests/security/hostile_pmix.c), then
# times a spawn of 2 children by SPAWNER (tests/mpi/dpm_spawn) and
# prints "spawn took MS ms" plus one verdict line per check:
#   idle   one silent connection held for 30 s during the spawn
#   flood  1000 silent connections held during the spawn; tided's
#          descriptors stay bounded and come back down after
#   silent / partial / garbage / absurd / huge   one such probe (prints
#          the hostile client's "closed after MS ms"), then the spawn
#   uid    a silent connection of user nobody must be closed at once
# A probe passes ("probe ok") when closed within PROBE_MIN_MS..PROBE_MAX_MS.
H=$1; SPAWNER=$2; CASE=$3
URI=${PMIX_SERVER_URI41:-${PMIX_SERVER_URI4:-$PMIX_SERVER_URI3}}
TIDED=$PPID
[ -n "$URI" ] || { echo "no PMIx server URI in the rank's environment"; exit 1; }
[ "$(cat /proc/$TIDED/comm)" = tided ] || { echo "parent $TIDED is not tided"; exit 1; }
nfds() { ls /proc/$TIDED/fd | wc -l; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
spawn_timed() {
    t0=$(now_ms)
    "$SPAWNER" 2 || { echo "spawn failed"; exit 1; }
    ms=$(( $(now_ms) - t0 ))
    echo "spawn took $ms ms"
    if [ $ms -lt "${TIDE_PROBE_SPAWN_MAX_MS:-10000}" ]; then echo "spawn ok"; else echo "spawn STALLED"; fi
}
# probe_timed CMD...: the probe's line, then "probe ok" when the server
# closed it within [PROBE_MIN_MS, PROBE_MAX_MS] (defaults 0 and 1000)
probe_timed() {
    line=$("$@") || { echo "hostile client failed"; exit 1; }
    echo "$line"
    case $line in
    "closed after "*)
        ms=${line#closed after }; ms=${ms%% *}
        if [ $ms -ge "${PROBE_MIN_MS:-0}" ] && [ $ms -le "${PROBE_MAX_MS:-1000}" ]; then
            echo "probe ok"
        else
            echo "probe BAD: closed after $ms ms, expected ${PROBE_MIN_MS:-0}-${PROBE_MAX_MS:-1000} ms"
        fi ;;
    *) echo "probe BAD: $line" ;;
    esac
}
holder=""
cleanup() { [ -n "$holder" ] && kill "$holder" 2>/dev/null; }
trap cleanup EXIT
case $CASE in
idle|flood)
    n=1; [ $CASE = flood ] && n=1000
    before=$(nfds)
    line=$("$H" hold "$URI" $n 30 $$) || { echo "hostile client failed"; exit 1; }
    echo "$line"
    holder=${line##* pid }
    during=$(nfds)
    echo "tided fds: $before before, $during while $n connections are held"
    if [ $CASE = flood ]; then
        max=$(( before + ${TIDE_AUTH_MAX_PENDING:-64} + 16 ))
        if [ "$during" -le $max ]; then echo "fds bounded"; else echo "fds UNBOUNDED"; fi
    fi
    spawn_timed
    kill "$holder"; holder=""
    # tided's descriptors come back down (bounded wait)
    i=0
    while [ $i -lt 100 ] && [ "$(nfds)" -gt $(( before + 4 )) ]; do sleep 0.1; i=$((i + 1)); done
    after=$(nfds)
    echo "tided fds after: $after"
    if [ "$after" -le $(( before + 4 )) ]; then echo "fds back down"; else echo "fds STILL UP"; fi
    ;;
uid)
    probe_timed "$H" --as-uid 65534 probe "$URI" silent 5000
    spawn_timed
    ;;
*)
    probe_timed "$H" probe "$URI" "$CASE" "${TIDE_PROBE_WAIT_MS:-8000}"
    spawn_timed
    ;;
esac
