# suite_bind.sh: binding ranks to cpus (the bind_to policies, the default
# and its fallback when ranks outnumber cores, spawned jobs), the reports
# of report_bindings, and the launcher variables of each rank's environment
# (OMPI_COMM_WORLD_*, PMI_*, MPI_LOCAL*). Expectations come from the
# machine: its cores (hwloc-calc, else nproc) and its allowed cpus.

BD_OUT="$T_LOGDIR/bind"
mkdir -p "$BD_OUT"
bd_ncores=$(hwloc-calc -N core all 2>/dev/null || nproc)
bd_allowed=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)

# bd_field FILE LINE-REGEX FIELD: the values of FIELD= on matching lines
bd_field() {
    grep -E "$2" "$1" | tr ' ' '\n' | sed -n "s/^$3=//p"
}

# bd_bound_apart ARGS...: every rank bound to cpus of its own, none the
# whole machine, and as many ranks as lines
bd_bound_apart() {
    n=$1; shift
    $MPIEXEC "$@" > "$BD_OUT/apart.out" || return 1
    cat "$BD_OUT/apart.out"
    [ "$(grep -c '^bind ' "$BD_OUT/apart.out")" -eq "$n" ] || return 1
    cpus=$(bd_field "$BD_OUT/apart.out" '^bind ' cpus)
    [ "$(echo "$cpus" | sort -u | wc -l)" -eq "$n" ] || { echo "cpus not distinct"; return 1; }
    for c in $cpus; do
        [ "$c" != "$bd_allowed" ] || { echo "a rank is not bound"; return 1; }
        case "$c" in *,*|*-*) echo "more than one core: $c"; return 1 ;; esac
    done
}

# bd_unbound N ARGS...: every one of N ranks has every allowed cpu
bd_unbound() {
    n=$1; shift
    $MPIEXEC "$@" > "$BD_OUT/unbound.out" || return 1
    [ "$(grep -c '^bind ' "$BD_OUT/unbound.out")" -eq "$n" ] || return 1
    for c in $(bd_field "$BD_OUT/unbound.out" '^bind ' cpus); do
        [ "$c" = "$bd_allowed" ] || { echo "bound to $c, allowed $bd_allowed"; return 1; }
    done
}

# bd_report N ARGS...: a report line for each of N ranks, naming the cpus
# the rank itself sees
bd_report() {
    n=$1; shift
    $MPIEXEC --param report_bindings=1 "$@" > "$BD_OUT/report.out" 2> "$BD_OUT/report.err" || return 1
    cat "$BD_OUT/report.err"
    r=0
    while [ $r -lt "$n" ]; do
        cpus=$(bd_field "$BD_OUT/report.out" "^bind rank=$r " cpus)
        # bound to the cpus it has, or (when it has them all) not bound
        grep -Eq "^mpiexec: \[[^]:]+:[0-9]+\] rank $r bound to (core|cores|hwthread|hwthreads|package|NUMA node) [0-9,-]+, cpus $cpus: (\[[B./]+\])+$" \
            "$BD_OUT/report.err" ||
            { [ "$cpus" = "$bd_allowed" ] &&
              grep -Eq "^mpiexec: \[[^]:]+:[0-9]+\] rank $r is not bound$" "$BD_OUT/report.err"; } ||
            { echo "no report of cpus $cpus for rank $r"; return 1; }
        r=$((r + 1))
    done
    [ "$(grep -c 'rank [0-9]* \(bound\|is not\)' "$BD_OUT/report.err")" -eq "$n" ]
}

# bd_env ARGS...: the launcher variables of every rank agree with the job
# (lines "bind rank=R size=S ... NAME=VALUE"), node rank = local rank
bd_env() {
    $MPIEXEC "$@" > "$BD_OUT/env.out" || return 1
    cat "$BD_OUT/env.out"
    nl=$(grep -c '^bind ' "$BD_OUT/env.out")
    grep '^bind ' "$BD_OUT/env.out" | while read -r line; do
        v() { echo "$line" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
        r=$(v rank); s=$(v size)
        [ "$(v OMPI_COMM_WORLD_RANK)" = "$r" ] && [ "$(v PMI_RANK)" = "$r" ] && [ "$(v PMIX_RANK)" = "$r" ] &&
        [ "$(v OMPI_COMM_WORLD_SIZE)" = "$s" ] && [ "$(v PMI_SIZE)" = "$s" ] &&
        [ "$(v OMPI_COMM_WORLD_LOCAL_RANK)" = "$r" ] && [ "$(v MPI_LOCALRANKID)" = "$r" ] &&
        [ "$(v OMPI_COMM_WORLD_NODE_RANK)" = "$r" ] &&
        [ "$(v OMPI_COMM_WORLD_LOCAL_SIZE)" = "$nl" ] && [ "$(v MPI_LOCALNRANKS)" = "$nl" ] &&
        [ "$(v OMPI_UNIVERSE_SIZE)" -ge "$s" ] || { echo "wrong: $line"; exit 1; }
    done
}

# bd_spawn POLICY: a parent of one rank and its child of one rank; both
# bound and apart when the node has two cores; the child's variables
# describe its own world, its node rank counts the parent
bd_spawn() {
    $MPIEXEC --param bind_to="$1" --param report_bindings=1 -n 1 $TB/bind_check spawn 1 \
        > "$BD_OUT/spawn.out" 2> "$BD_OUT/spawn.err" || return 1
    cat "$BD_OUT/spawn.out" "$BD_OUT/spawn.err"
    p=$(bd_field "$BD_OUT/spawn.out" '^bind rank=0 ' cpus)
    c=$(bd_field "$BD_OUT/spawn.out" '^bind child rank=0 ' cpus)
    [ -n "$p" ] && [ -n "$c" ] && [ "$p" != "$c" ] && [ "$c" != "$bd_allowed" ] || { echo "parent $p child $c"; return 1; }
    grep -q '^bind child rank=0 size=1 .* OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=1 OMPI_COMM_WORLD_LOCAL_RANK=0 OMPI_COMM_WORLD_LOCAL_SIZE=1 OMPI_COMM_WORLD_NODE_RANK=1 ' \
        "$BD_OUT/spawn.out" || { echo "child variables"; return 1; }
    grep -Eq "^mpiexec: \[[^]]+\] rank 0 of job 1 bound to core [0-9]+, cpus $c:" "$BD_OUT/spawn.err"
}

if [ "$bd_ncores" -ge 2 ]; then
    tcheck bind.core.2 bd_bound_apart 2 --param bind_to=core -n 2 $TB/bind_check
    tcheck bind.default.fits bd_bound_apart 2 -n 2 $TB/bind_check
    tcheck bind.hwthread.2 bd_bound_apart 2 --param bind_to=hwthread -n 2 $TB/bind_check
    tcheck bind.report.core bd_report 2 --param bind_to=core -n 2 $TB/bind_check
    tcheck bind.spawn.default bd_spawn ""
    tcheck bind.spawn.core bd_spawn core
else
    tskip bind.core.2 "needs 2 cores, the machine has $bd_ncores"
    tskip bind.spawn "needs 2 cores, the machine has $bd_ncores"
fi
tcheck bind.none bd_unbound 2 --param bind_to=none -n 2 $TB/bind_check
tcheck bind.socket bd_report 2 --param bind_to=socket -n 2 $TB/bind_check
tcheck bind.numa bd_report 2 --param bind_to=numa -n 2 $TB/bind_check
if [ "$bd_ncores" -lt 16 ]; then
    tcheck bind.default.oversubscribed bd_unbound 16 -n 16 $TB/bind_check
    tcheck bind.report.unbound bd_report 16 -n 16 $TB/bind_check
else
    tskip bind.default.oversubscribed "the machine has 16 cores or more"
fi
# explicit core binding of more ranks than cores: allowed, with a warning
tcase bind.core.shared -t 60 -err "warning: $((bd_ncores + 1)) ranks x 1 core each on .*, which has $bd_ncores: ranks share them" -- \
    $MPIEXEC --param bind_to=core -n $((bd_ncores + 1)) $TB/bind_check
tcase bind.cpus-per-rank -t 60 -out "^bind rank=0 .*ncpus=$bd_ncores " -- \
    $MPIEXEC --param bind_to=core --cpus-per-rank $bd_ncores -n 1 $TB/bind_check
# simulated nodes share this machine: no default binding there
tcheck bind.sim-nodes bd_unbound 2 --param sim_nodes=2 -n 2 $TB/bind_check
# reports of every node's ranks reach mpiexec
tcheck bind.report.sim-nodes bd_report 6 --param sim_nodes=3 --param bind_to=core -n 6 $TB/bind_check
tcheck bind.env.3 bd_env -n 3 $TB/bind_check
tcheck bind.env.mpmd bd_env -n 1 $TB/bind_check : -n 2 $TB/bind_check
tcase bind.bad-policy -rc 2 -err "bind" -- $MPIEXEC --param bind_to=bogus -n 1 $TB/bind_check
