#!/bin/sh
# reference.sh [SRCDIR]: runs suite_multinode.sh with Open MPI in place of
# Tide (mpicc.openmpi, mpirun.openmpi with ns-agent or the ssh agent as
# plm_rsh_agent, orted as the daemon killed), to check the suite's own
# logic and the namespace hosts apart from Tide's launcher. Expected: every
# case passes but multinode.*.abort (Tide's message is matched) and
# multinode.ns.ports (Open MPI needs an ompi-server for it). Needs root.
# Its programs and logs stay in /tmp/tide-mnref.* (printed at the end).
S=$(cd "${1:-$(dirname "$0")/../..}" && pwd) || exit 1
W=$(mktemp -d /tmp/tide-mnref.XXXXXX) || exit 1
mkdir -p "$W/bin" "$W/tb" "$W/logs"
ln -s "$(command -v mpicc.openmpi)" "$W/bin/mpicc" || exit 1
mpicc.openmpi -I"$S/tests/mpi" -o "$W/tb/dpm_server" "$S/tests/mpi/dpm_server.c" || exit 1
# the suite's mpiexec command line, translated for mpirun.openmpi
cat > "$W/mpiexec" <<'SHIM'
#!/bin/sh
while [ $# -gt 0 ]; do
    case "$1" in
    --launch-agent) agent=$2; shift 2 ;;
    --host) host=$2; shift 2 ;;
    -n) n=$2; shift 2 ;;
    --param) net=${2#if_include=}; shift 2 ;;
    *) break ;;
    esac
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
exec mpirun.openmpi --oversubscribe --host "$host" -n "$n" --mca plm_rsh_agent "$agent" \
    --mca oob_tcp_if_include "$net" --mca btl_tcp_if_include "$net" "$@"
SHIM
chmod +x "$W/mpiexec"
B=$W T_LOGDIR=$W/logs
export B S T_LOGDIR
. "$S/tests/lib.sh"
TB=$W/tb MPIEXEC=$W/mpiexec MN_DAEMON=orted
. "$S/tests/multinode/suite_multinode.sh"
echo "$T_PASS passed, $T_FAIL failed, $T_SKIP skipped (logs in $W/logs)"
