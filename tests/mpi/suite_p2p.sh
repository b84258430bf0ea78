# suite_p2p.sh: point-to-point messaging, on every transport on its own.

p2p_all() {
    tag=$1
    shift
    tcase p2p.$tag.modes.2 -t 120 -- "$@" $MPIEXEC -n 2 $TB/p2p_modes
    tcase p2p.$tag.modes.3 -t 180 -- "$@" $MPIEXEC -n 3 $TB/p2p_modes
    tcase p2p.$tag.order -t 120 -- "$@" $MPIEXEC -n 4 $TB/p2p_order
    tcase p2p.$tag.sync -- "$@" $MPIEXEC -n 2 $TB/p2p_sync
    tcase p2p.$tag.cancel -- "$@" $MPIEXEC -n 2 $TB/p2p_cancel
    tcase p2p.$tag.bsend-cancel -- "$@" $MPIEXEC -n 2 $TB/p2p_bsend_cancel
    tcase p2p.$tag.persistent -t 120 -- "$@" $MPIEXEC -n 2 $TB/p2p_persistent
    tcase p2p.$tag.bsend-size -- "$@" $MPIEXEC -n 2 $TB/p2p_bsend_size
    tcase p2p.$tag.completion -- "$@" $MPIEXEC -n 3 $TB/p2p_completion
    tcase p2p.$tag.errors -- "$@" $MPIEXEC -n 3 $TB/p2p_errors
    tcase p2p.$tag.probe -- "$@" $MPIEXEC -n 3 $TB/p2p_probe
    tcase p2p.$tag.status-error -- "$@" $MPIEXEC -n 2 $TB/p2p_status_error
    tcase p2p.$tag.short -out "p2p_short: ok" -- "$@" $MPIEXEC -n 2 $TB/p2p_short
    tcase p2p.$tag.sendrecv -- "$@" $MPIEXEC -n 4 $TB/p2p_sendrecv
    tcase p2p.$tag.isendrecv.4 -t 120 -out "p2p_isendrecv: ok" -- "$@" $MPIEXEC -n 4 $TB/p2p_isendrecv
    tcase p2p.$tag.flood -t 180 -- "$@" $MPIEXEC -n 16 $TB/p2p_flood
    tcase p2p.$tag.window.2 -t 120 -- "$@" $MPIEXEC -n 2 $TB/p2p_window
    tcase p2p.$tag.window.4 -t 120 -- "$@" $MPIEXEC -n 4 $TB/p2p_window
    tcase p2p.$tag.large-count -t 120 -out "p2p_large_count: ok" -- "$@" TIDE_TEST_NO_BIG=1 \
        $MPIEXEC -n 2 $TB/p2p_large_count
}

p2p_all default env
p2p_all tcp env TIDE_TRANSPORTS=tcp,self
p2p_all nocma env TIDE_SHM_CMA=0
p2p_all nodes env TIDE_SIM_NODES=2
# the calls' ordinary paths, which the short path (pt2pt/lean.c) leaves
# to messages it does not take: every small message through them here
for t in modes.2:p2p_modes order:p2p_order cancel:p2p_cancel completion:p2p_completion \
    status-error:p2p_status_error short:p2p_short probe:p2p_probe; do
    n=3
    case $t in modes.2* | cancel* | status-error* | short*) n=2 ;; order*) n=4 ;; esac
    tcase p2p.ordinary.${t%%:*} -t 120 -- env TIDE_LEAN_PATH=0 $MPIEXEC -n $n $TB/${t#*:}
done
# a message of 2^31 + 5 MPI_CHAR: 2 GiB on each rank, about 5 s of CPU
# on each (TIDE_TEST_NO_BIG set in the environment leaves it out)
tcase p2p.large-count.big -t 300 -out "p2p_large_count: ok" -- $MPIEXEC -n 2 $TB/p2p_large_count
tcase p2p.isendrecv.16 -t 180 -out "p2p_isendrecv: ok" -- $MPIEXEC -n 16 $TB/p2p_isendrecv
tcase p2p.isendrecv.2 -t 120 -out "p2p_isendrecv: ok" -- $MPIEXEC -n 2 $TB/p2p_isendrecv
tcase p2p.singleton-isendrecv -out "p2p_isendrecv: ok" -- $TB/p2p_isendrecv
tcase p2p.singleton -- $TB/p2p_cancel
tcase p2p.singleton-bsend -- $TB/p2p_bsend_cancel
# matched probes from several threads of each process: a message goes to
# its one handle exactly once; the second case has the waiting threads
# fall asleep at once, where a thread that sleeps finds its message
# delivered by another one
tcase p2p.mprobe-threads -t 120 -out "p2p_mprobe_threads: ok" -- $MPIEXEC -n 2 $TB/p2p_mprobe_threads 1500 1
tcase p2p.mprobe-threads.sleepy -t 60 -out "p2p_mprobe_threads: ok" -- env TIDE_SPIN_COUNT=1 TIDE_BLOCK_AFTER_US=1 $MPIEXEC -n 2 $TB/p2p_mprobe_threads 300 0
# MPI_THREAD_MULTIPLE: collectives on distinct communicators, wildcard
# receives and matched probes, communicator creation and one-sided
# operations from several threads of each process at once
tcase p2p.threads.2x4 -t 90 -out "thread_multiple: ok on 2 ranks x 4 threads" -- $MPIEXEC -n 2 $TB/thread_multiple 4
tcase p2p.threads.3x8 -t 90 -out "thread_multiple: ok on 3 ranks x 8 threads" -- $MPIEXEC -n 3 $TB/thread_multiple 8
tcase p2p.threads.tcp -t 90 -out "thread_multiple: ok on 3 ranks x 4 threads" -- env TIDE_TRANSPORTS=self,tcp $MPIEXEC -n 3 $TB/thread_multiple 4
tcase p2p.threads.nodes -t 90 -out "thread_multiple: ok on 4 ranks x 3 threads" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 4 $TB/thread_multiple 3
# many threads sending and receiving at once on one communicator, eager and
# rendezvous, synchronous and standard, wildcards, every completion call
tcase p2p.threads.fastpath.2x4 -t 90 -out "thread_fastpath: ok on 2 ranks x 4 threads, 300 rounds" -- $MPIEXEC -n 2 $TB/thread_fastpath 4
tcase p2p.threads.fastpath.1x8 -t 90 -out "thread_fastpath: ok on 1 ranks x 8 threads, 300 rounds" -- $MPIEXEC -n 1 $TB/thread_fastpath 8
tcase p2p.threads.fastpath.3x3 -t 90 -out "thread_fastpath: ok on 3 ranks x 3 threads, 300 rounds" -- $MPIEXEC -n 3 $TB/thread_fastpath 3
tcase p2p.threads.fastpath.oversub -t 120 -out "thread_fastpath: ok on 4 ranks x 4 threads, 100 rounds" -- $MPIEXEC -n 4 $TB/thread_fastpath 4 100
tcase p2p.threads.fastpath.nodes -t 90 -out "thread_fastpath: ok on 4 ranks x 2 threads, 100 rounds" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 4 $TB/thread_fastpath 2 100
tcase p2p.threads.fastpath.tcp -t 90 -out "thread_fastpath: ok on 3 ranks x 4 threads, 200 rounds" -- env TIDE_TRANSPORTS=self,tcp $MPIEXEC -n 3 $TB/thread_fastpath 4 200
# every wait falls asleep in the exclusive engine at once, while other
# threads read the connections under the shared lock
tcase p2p.threads.fastpath.tcp.sleepy -t 90 -out "thread_fastpath: ok on 3 ranks x 4 threads, 200 rounds" -- env TIDE_SPIN_COUNT=1 TIDE_BLOCK_AFTER_US=1 TIDE_TRANSPORTS=self,tcp $MPIEXEC -n 3 $TB/thread_fastpath 4 200
tcase p2p.threads.fastpath.off -t 90 -out "thread_fastpath: ok on 2 ranks x 4 threads, 100 rounds" -- env TIDE_THREAD_FASTPATH=0 $MPIEXEC -n 2 $TB/thread_fastpath 4 100

# Waiting ranks on a core that other processes keep busy (30 busy loops on
# CPU 0 with the job, a load far above the cores): a rank that waits by
# yielding is put behind every loop at each yield and the rounds crawl
# (40 to 90 ms each); one that sleeps until woken takes 2 to 16 ms
# (wait_loaded.c, under_load.sh)
tcase p2p.wait.loaded -t 60 -out "wait_loaded: 2000 rounds on 4 ranks" -- \
    sh "$S/tests/mpi/under_load.sh" 30 $MPIEXEC -n 4 --bind-to none $TB/wait_loaded 2000
