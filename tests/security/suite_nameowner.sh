# suite_nameowner.sh: who owns a name on a shared tide-nameserver (see
# docs/SECURITY.md, "A shared name server"). Another user holding the
# server's URI and secret, with the victim mpiexec's pid in its own pid
# namespace, claims the victim's owner string and must not be able to drop
# or replace the victim's name; the job's own end still removes it.

NO_CL="$B/tests/ns/ns_client"
if [ "$(id -u)" != 0 ] || ! id nobody > /dev/null 2>&1 || [ ! -x /usr/bin/setpriv ] ||
    [ ! -x /usr/bin/unshare ]; then
    tskip sec.nameowner.spoof "needs root, user nobody, setpriv and unshare"
elif ! setpriv --reuid=nobody --regid=nogroup --clear-groups \
    unshare --user --map-root-user --pid --fork --mount-proc true 2> /dev/null; then
    tskip sec.nameowner.spoof "unprivileged user and pid namespaces are not available here"
elif [ ! -x "$NO_CL" ] || [ ! -x "$B/bin/tide-nameserver" ]; then
    tskip sec.nameowner.spoof "tide-nameserver or tests/ns/ns_client not built (make check-programs)"
else
    tcase sec.nameowner.spoof -t 150 -out "victim's name kept; removed by its own job's end" -- \
        sh "$S/tests/security/ns_owner_spoof.sh" "$B/bin/tide-nameserver" "$NO_CL" "$MPIEXEC" \
        "$TB/names_couple"
fi
