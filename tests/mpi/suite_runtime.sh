# suite_runtime.sh: the runtime foundation: mpiexec options, MPMD, env and
# wdir, exit codes and signals, MPI_Abort, timeouts, stdin, output
# integrity, no orphans and no leftover files, singletons, bad input.

RT_TMP="$B/tests/rt-tmp"
rm -rf "$RT_TMP"
mkdir -p "$RT_TMP"
# session directories of these tests go here, so leftovers can be seen
export TIDE_TMPDIR="$RT_TMP"

rt_no_leftovers() {
    # no session directory remains and no rank of the given program runs
    prog=$1
    i=0
    while [ $i -lt 50 ]; do
        left=$(ls -A "$RT_TMP" 2>/dev/null)
        procs=$(pgrep -f "$prog" 2>/dev/null)
        tdd=$(pgrep -f "tided.*$RT_TMP" 2>/dev/null)
        [ -z "$left$procs$tdd" ] && return 0
        sleep 0.1
        i=$((i + 1))
    done
    echo "leftover files: $left; processes: $procs $tdd"
    return 1
}

for n in 1 2 4 16; do
    tcase rt.ranks.$n -t 60 -out "rank $((n - 1)) of $n" -- $MPIEXEC -n $n $TB/rt_env $n
done
tcase rt.singleton -- $TB/rt_env 1
tcase rt.mpmd -out "rank 4 of 5" -- $MPIEXEC -n 2 $TB/rt_env 5 0 : -n 3 $TB/rt_env 5 1
tcase rt.mpirun-alias -- "$B/bin/mpirun" -np 2 $TB/rt_env 2
tcase rt.env-x -- $MPIEXEC -n 2 -x TIDE_TEST_VAR=hello $TB/rt_behave env TIDE_TEST_VAR hello
TIDE_TEST_PASS=passed; export TIDE_TEST_PASS
tcase rt.env-x-inherit -- $MPIEXEC -n 2 -x TIDE_TEST_PASS $TB/rt_behave env TIDE_TEST_PASS passed
tcase rt.env-env -- $MPIEXEC -n 1 --env "A_B=c d" $TB/rt_behave env A_B "c d"
tcase rt.env-mpmd -- $MPIEXEC -n 1 -env K one $TB/rt_behave env K one : -n 1 -env K two $TB/rt_behave env K two
mkdir -p "$B/tests/rt-wdir"
tcase rt.wdir -- $MPIEXEC -n 2 --wdir "$B/tests/rt-wdir" $TB/rt_behave cwd "$B/tests/rt-wdir"
tcase rt.exit-code -rc 7 -err "rank 1 .* exited with status 7" -- $MPIEXEC -n 3 $TB/rt_behave exit 1 7
tcase rt.exit-code-nonmpi -rc 3 -- $MPIEXEC -n 2 sh -c 'exit 3'
tcase rt.signal -t 30 -rc 139 -err "rank 2 \(pid [0-9]+\) on host .* killed by signal 11" -- env ASAN_OPTIONS=handle_segv=0 \
    $MPIEXEC -n 4 $TB/rt_behave signal 2 11
tcheck rt.signal.cleanup rt_no_leftovers "$TB/rt_behave"
tcase rt.abort -t 30 -rc 5 -err "rank 1 on host .*MPI_Abort\(MPI_COMM_WORLD, 5\)" -- $MPIEXEC -n 3 $TB/rt_behave abort 1 5
tcheck rt.abort.cleanup rt_no_leftovers "$TB/rt_behave"
tcase rt.fatal-error -t 30 -rc any -err "MPI_ERRORS_ARE_FATAL.*MPI_Comm_size" -- $MPIEXEC -n 2 $TB/rt_behave fatal
tcase rt.no-finalize -t 30 -rc 1 -err "rank 0 .*without calling MPI_Finalize" -- $MPIEXEC -n 2 $TB/rt_behave nofinalize 0
tcase rt.timeout -t 30 -rc 124 -err "timed out after 2 seconds" -- $MPIEXEC -n 3 --timeout 2 $TB/rt_behave hang
tcheck rt.timeout.cleanup rt_no_leftovers "$TB/rt_behave"
tcase rt.stdin -out "^tide stdin line 2$" -- sh -c "printf 'tide stdin line 1\ntide stdin line 2\n' | $MPIEXEC -n 3 $TB/rt_behave stdin"
tcase rt.stdin-none -- sh -c "echo data | $MPIEXEC -n 1 --stdin none $TB/rt_behave stdin"
tcase rt.stdin-file -out "^#!/bin/sh" -- sh -c "$MPIEXEC -n 2 $TB/rt_behave stdin < $S/tests/run-all.sh"

rt_lines_intact() {
    $MPIEXEC -n 4 $TB/rt_behave lines 3000 > "$T_LOGDIR/rt.lines.raw" || return 1
    total=$(wc -l < "$T_LOGDIR/rt.lines.raw")
    good=$(grep -cE '^BEGIN rank=[0-3] line=[0-9]+ [a-z]+ END$' "$T_LOGDIR/rt.lines.raw")
    echo "lines $total, intact $good"
    [ "$total" -eq 12000 ] && [ "$good" -eq 12000 ]
}
tcheck rt.output-lines-intact rt_lines_intact
tcase rt.tag-output -out "^\[3\] rank 3 of 4" -- $MPIEXEC -n 4 --tag-output $TB/rt_env 4

# A line printed without fflush just before the rank dies reaches
# mpiexec: ranks' stdout, a pipe, is line-buffered (stdout_line_buffered),
# or a pseudo-terminal (stdout_pty; by default when mpiexec's stdout is a
# terminal, here made one by script(1)) (print_then_die.c)
tcase rt.output.last-line.kill -t 60 -rc 137 -out "^print_then_die: rank 1's last words$" -- \
    $MPIEXEC -n 2 $TB/print_then_die kill
tcase rt.output.last-line.abort -t 60 -rc 9 -out "^print_then_die: rank 2's last words$" -- \
    $MPIEXEC -n 3 $TB/print_then_die abort
rt_before_init() {
    $MPIEXEC -n 3 $TB/print_then_die early > "$T_LOGDIR/rt.output.before-init.raw"
    n=$(grep -c '^print_then_die: before MPI_Init$' "$T_LOGDIR/rt.output.before-init.raw")
    echo "lines printed before MPI_Init: $n of 3"
    [ "$n" -eq 3 ]
}
tcheck rt.output.last-line.before-init rt_before_init
tcase rt.output.last-line.pty -t 60 -rc 137 -out "^print_then_die: rank 1's last words$" -- \
    $MPIEXEC -n 2 --param stdout_pty=1 --param stdout_line_buffered=0 $TB/print_then_die kill
tcase rt.output.fully-buffered -t 60 -rc 137 -noout "last words" -- \
    $MPIEXEC -n 2 --param stdout_line_buffered=0 $TB/print_then_die kill
tcase rt.output.pipe -t 60 -out "rank 1 stdout is not a terminal" -noout "is a terminal" -- \
    $MPIEXEC -n 2 $TB/print_then_die tty
if command -v script > /dev/null 2>&1; then
    tcase rt.output.pty-auto -t 60 -out "rank 1 stdout is a terminal" -noout "is not a terminal" -- \
        script -qefc "$MPIEXEC -n 2 $TB/print_then_die tty" /dev/null
    tcase rt.output.pty-auto.kill -t 60 -rc 137 -out "^print_then_die: rank 1's last words" -- \
        script -qefc "$MPIEXEC -n 2 --param stdout_line_buffered=0 $TB/print_then_die kill" /dev/null
    tcase rt.output.pty-off -t 60 -out "rank 1 stdout is not a terminal" -- \
        script -qefc "$MPIEXEC -n 2 --param stdout_pty=0 $TB/print_then_die tty" /dev/null
else
    tskip rt.output.pty-auto "script(1) is not installed"
fi
tcase rt.output.pty-bad -t 30 -rc 2 -err "mpiexec: parameter stdout_pty \(from --param\): 'yes' is not auto, 0 or 1" -- \
    $MPIEXEC -n 1 --param stdout_pty=yes $TB/print_then_die tty

rt_sigint() {
    out="$T_LOGDIR/rt.sigint.run"
    $MPIEXEC --timeout 60 -n 4 $TB/rt_behave hang > "$out" 2>&1 &
    pid=$!
    i=0
    while [ "$(grep -c ready "$out" 2>/dev/null)" -lt 4 ] && [ $i -lt 300 ]; do sleep 0.05; i=$((i + 1)); done
    kill -INT $pid
    wait $pid
    rc=$?
    echo "rc $rc"
    [ $rc -eq 130 ] && rt_no_leftovers "$TB/rt_behave"
}
tcheck rt.sigint rt_sigint

rt_kill9() {
    out="$T_LOGDIR/rt.kill9.run"
    $MPIEXEC --timeout 60 -n 4 $TB/rt_behave hang > "$out" 2>&1 &
    pid=$!
    i=0
    while [ "$(grep -c ready "$out" 2>/dev/null)" -lt 4 ] && [ $i -lt 300 ]; do sleep 0.05; i=$((i + 1)); done
    kill -9 $pid
    wait $pid
    rt_no_leftovers "$TB/rt_behave"
}
tcheck rt.kill9-mpiexec rt_kill9

tcase rt.sim-nodes-fence -out "rank 5 of 6" -- env TIDE_SIM_NODES=3 $MPIEXEC -n 6 $TB/rt_env 6
tcase rt.sim-nodes-nocollect -- env TIDE_SIM_NODES=2 TIDE_MODEX_COLLECT=0 $MPIEXEC -n 4 $TB/rt_env 4
tcase rt.errors -- $MPIEXEC -n 1 $TB/rt_errors
tcase rt.attributes -out "self attribute deleted in MPI_Finalize" -- $MPIEXEC -n 2 $TB/rt_attr
tcase rt.attributes.delete-nested -t 60 -out "rt_attr_delete_nested: ok" -- $MPIEXEC -n 2 $TB/rt_attr_delete_nested
tcase rt.verbose -err "tided.0.*registered namespace" -- $MPIEXEC -n 1 --verbose --verbose $TB/rt_env 1
tcase rt.show-params -out "shm_eager_limit += 1234 +\(command line" -- $MPIEXEC --param shm_eager_limit=1234 --show-params
tcase rt.param-env -out "tcp_eager_limit += 99 +\(environment" -- env TIDE_TCP_EAGER_LIMIT=99 $MPIEXEC --show-params
tcase rt.param-to-ranks -- $MPIEXEC -n 1 --param tcp_eager_limit=4321 $TB/rt_behave env TIDE_TCP_EAGER_LIMIT 4321
tcase rt.version -out "Tide MPI" -- $MPIEXEC --version
tcase rt.help -out "Usage: mpiexec" -- $MPIEXEC --help

# bad input: one clear line, nonzero exit, nothing left running
tcase rt.bad.option -rc 2 -err "unknown option '--frobnicate'" -- $MPIEXEC --frobnicate -n 1 $TB/rt_env
tcase rt.bad.missing-exe -rc 127 -err "cannot find executable 'no-such-program-xyz'" -- $MPIEXEC -n 2 no-such-program-xyz
tcase rt.bad.missing-path -rc 127 -err "cannot run './no/such/prog'" -- $MPIEXEC -n 2 ./no/such/prog
tcase rt.bad.zero -rc 2 -err "at least 1" -- $MPIEXEC -n 0 $TB/rt_env
tcase rt.bad.negative -rc 2 -err "at least 1" -- $MPIEXEC -n -4 $TB/rt_env
tcase rt.bad.param -rc 2 -err "unknown parameter" -- $MPIEXEC --param nosuch=1 -n 1 $TB/rt_env
mkdir -p "$B/tests/rt-ro" && chmod 0555 "$B/tests/rt-ro"
if [ "$(id -u)" -eq 0 ]; then
    # root may write anywhere; a directory that does not exist still fails
    tcase rt.bad.wdir -rc 2 -err "working directory '/no/such/dir'" -- $MPIEXEC -n 1 --wdir /no/such/dir $TB/rt_env
else
    tcase rt.bad.wdir -rc 2 -err "not writable" -- $MPIEXEC -n 1 --wdir "$B/tests/rt-ro" $TB/rt_env
fi
tcase rt.bad.no-oversubscribe -rc 2 -err "only [0-9]+ slots" -- $MPIEXEC -n 64 --no-oversubscribe $TB/rt_env 64
tcheck rt.bad.cleanup rt_no_leftovers "$TB/rt_env"

unset TIDE_TMPDIR


# mpicc links Tide's libmpi whatever -L the user adds, and a program built
# with Tide's mpi.h refuses another implementation's libmpi
tcase rt.mpicc.own-libmpi -t 60 -out "check-mpicc: ok" -- sh "$S/tests/check-mpicc.sh" "$B" "$S"

# the sessions model
tcase session.only.1 -t 30 -out "session_basic: ok \(only\) on 1 ranks" -- $MPIEXEC -n 1 $TB/session_basic 1 only
tcase session.only.4 -t 60 -out "session_basic: ok \(only\) on 4 ranks" -- $MPIEXEC -n 4 $TB/session_basic 4 only
tcase session.only.singleton -t 30 -out "session_basic: ok \(only\) on 1 ranks" -- $TB/session_basic 1 only
tcase session.only.nodes -t 60 -out "session_basic: ok \(only\) on 4 ranks" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 4 $TB/session_basic 4 only
tcase session.twice.3 -t 60 -out "session_basic: ok \(twice\) on 3 ranks" -- $MPIEXEC -n 3 $TB/session_basic 3 twice
tcase session.twice.tcp -t 60 -out "session_basic: ok \(twice\) on 3 ranks" -- env TIDE_TRANSPORTS=tcp,self $MPIEXEC -n 3 $TB/session_basic 3 twice
tcase session.twice.nodes -t 60 -out "session_basic: ok \(twice\) on 4 ranks" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 4 $TB/session_basic 4 twice
tcase session.twice.singleton -t 30 -out "session_basic: ok \(twice\) on 1 ranks" -- $TB/session_basic 1 twice
tcase session.world.3 -t 60 -out "session_basic: ok \(world\) on 3 ranks" -- $MPIEXEC -n 3 $TB/session_basic 3 world
tcase session.world.nodes -t 60 -out "session_basic: ok \(world\) on 4 ranks" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 4 $TB/session_basic 4 world
tcase session.after.2 -t 60 -out "session_basic: ok \(after\) on 2 ranks" -- $MPIEXEC -n 2 $TB/session_basic 2 after

# MPI 4.0's initial error handler (mpi_initial_errhandler): mpiexec's
# --initial-errhandler, the key of MPI_INFO_ENV, the handler
# MPI_COMM_WORLD and MPI_COMM_SELF start with, MPI_Comm_spawn's info key
# for the children (initial_errh.c); bad names are refused naming where
# they came from
tcase rt.initial-eh.return -t 60 -out "initial_errh: ok mpi_errors_return" -- \
    $MPIEXEC -n 2 --initial-errhandler mpi_errors_return $TB/initial_errh check mpi_errors_return
tcase rt.initial-eh.default -t 60 -rc 6 -err "MPI_ERRORS_ARE_FATAL on MPI_COMM_SELF: MPI_ERR_RANK" \
    -noout "survived" -- $MPIEXEC -n 2 $TB/initial_errh check mpi_errors_are_fatal
tcase rt.initial-eh.abort -t 60 -rc 6 -err "MPI_ERRORS_ARE_FATAL on MPI_COMM_SELF: MPI_ERR_RANK" \
    -noout "survived" -- $MPIEXEC -n 2 --initial-errhandler=MPI_ERRORS_ABORT $TB/initial_errh check mpi_errors_abort
tcase rt.initial-eh.singleton -t 30 -out "initial_errh: ok mpi_errors_return" -- \
    env TIDE_INITIAL_ERRHANDLER=mpi_errors_return $TB/initial_errh check mpi_errors_return
tcase rt.initial-eh.bad-option -t 30 -rc 2 \
    -err "mpiexec: --initial-errhandler: 'mpi_errors_ignore' is not mpi_errors_are_fatal, mpi_errors_abort or mpi_errors_return" \
    -- $MPIEXEC -n 2 --initial-errhandler mpi_errors_ignore $TB/initial_errh check x
tcase rt.initial-eh.bad-param -t 30 -rc 2 \
    -err "mpiexec: parameter initial_errhandler \(from TIDE_INITIAL_ERRHANDLER\): 'x' is not mpi_errors_are_fatal" \
    -- env TIDE_INITIAL_ERRHANDLER=x $MPIEXEC -n 2 $TB/initial_errh check x
tcase rt.initial-eh.spawn -t 90 -out "initial_errh: children ok mpi_errors_return" -- \
    $MPIEXEC -n 2 $TB/initial_errh spawn mpi_errors_return
tcase rt.initial-eh.spawn-over-job -t 90 -out "initial_errh: children ok mpi_errors_are_fatal" -- \
    $MPIEXEC -n 2 --initial-errhandler mpi_errors_return $TB/initial_errh spawn mpi_errors_are_fatal
tcase rt.initial-eh.spawn-singleton -t 90 -out "initial_errh: children ok mpi_errors_return" -- \
    $TB/initial_errh spawn mpi_errors_return
tcase rt.initial-eh.spawn-bad -t 60 \
    -out "initial_errh: refused: MPI_ERR_INFO_VALUE: MPI_Comm_spawn: 'mpi_errors_ignore' is not .*\(info key mpi_initial_errhandler\)" \
    -- $MPIEXEC -n 2 $TB/initial_errh badkey

# MPI_Init cannot join its job (its PMIx server is not there): the initial
# error handler decides. By default the process ends with the reason and a
# non-zero status; with initial_errhandler=mpi_errors_return, MPI_Init
# returns the error (init_fails.c)
tcase rt.init.no-pmix -t 30 -rc 16 -err "MPI_ERRORS_ARE_FATAL on MPI_Init: .*cannot join the job: PMIx_Init" \
    -noout "MPI_Init returned" -- env PMIX_NAMESPACE=tide.nowhere.1.0 PMIX_RANK=0 \
    "PMIX_SERVER_URI41=pmix-server.1;tcp4://127.0.0.1:1" "PMIX_SERVER_URI4=pmix-server.1;tcp4://127.0.0.1:1" \
    "PMIX_SERVER_URI3=pmix-server.1;tcp4://127.0.0.1:1" $TB/init_fails join
tcase rt.init.no-pmix.return -t 30 -out "init_fails: MPI_Init returned class 16: .*PMIx_Init" -- \
    env TIDE_INITIAL_ERRHANDLER=mpi_errors_return PMIX_NAMESPACE=tide.nowhere.1.0 PMIX_RANK=0 \
    "PMIX_SERVER_URI41=pmix-server.1;tcp4://127.0.0.1:1" "PMIX_SERVER_URI4=pmix-server.1;tcp4://127.0.0.1:1" \
    "PMIX_SERVER_URI3=pmix-server.1;tcp4://127.0.0.1:1" $TB/init_fails join

# a rank's stdout is buffered by line: the last line of a rank that dies
# gets out (stdout_line_buffered); without it, the C library's full
# buffering of a pipe loses it
tcase rt.stdout-lines -t 60 -out "rank 1 says this and dies" -- $MPIEXEC --enable-recovery -n 2 $TB/rt_stdout_lines
tcase rt.stdout-lines.off -t 60 -out "rank 0 done" -noout "rank 1 says" -- \
    $MPIEXEC --enable-recovery --param stdout_line_buffered=0 -n 2 $TB/rt_stdout_lines
