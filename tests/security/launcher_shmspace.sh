#!/bin/sh
# launcher_shmspace.sh SMALL_MB BIG_MB NRANKS PROGRAM: with the session
# directory on a tmpfs of SMALL_MB, a job of NRANKS ranks is refused before
# it starts, naming the shared-memory space; on one of BIG_MB it runs.
# Needs to mount a tmpfs (root); exits 77 when it cannot.
small=$1 big=$2 n=$3 prog=$4
mnt=$(mktemp -d "${TMPDIR:-/tmp}/tide-shmspace.XXXXXX") || exit 1
trap 'umount "$mnt" 2> /dev/null; rmdir "$mnt"' EXIT
mount -t tmpfs -o size="${small}m",mode=1777 tmpfs "$mnt" 2> /dev/null || exit 77
"$MPIEXEC" --param tmpdir="$mnt" -n "$n" "$prog"
rc=$?
echo "small tmpfs: status $rc"
[ "$rc" -eq 2 ] || exit 1
umount "$mnt"
mount -t tmpfs -o size="${big}m",mode=1777 tmpfs "$mnt" || exit 1
"$MPIEXEC" --param tmpdir="$mnt" -n "$n" "$prog" || { echo "refused on the big tmpfs"; exit 1; }
echo "big tmpfs: ran"
