# suite_rma.sh: one-sided communication (MPI-3.1 chapter 11): windows,
# fence, post/start/complete/wait, locks, atomics, dynamic and shared
# windows, derived datatypes and error classes, at 1 to 8 ranks (and 16
# for the counters), over TCP only and across simulated nodes.

for p in basic fence pscw lock atomics dynamic shared dtype errors; do
    for n in 1 2 4 8; do
        tcase rma.$p.$n -t 120 -out "rma_$p: ok" -- $MPIEXEC -n $n $TB/rma_$p
    done
done
# accumulates of one origin applied in order, whether they arrive whole or
# by rendezvous (a small eager limit makes the larger ones go that way)
tcase rma.order.4 -t 120 -out "rma_order: ok" -- $MPIEXEC -n 4 $TB/rma_order
tcase rma.order.small-eager -t 120 -out "rma_order: ok" -- $MPIEXEC --param shm_eager_limit=256 -n 4 $TB/rma_order
tcase rma.order.tcp-small-eager -t 120 -out "rma_order: ok" -- env TIDE_TRANSPORTS=tcp,self \
    $MPIEXEC --param tcp_eager_limit=256 -n 3 $TB/rma_order
# atomics on memory the processes share (done by the origin, with CPU
# atomics or under the target's lock)
for n in 2 4 8 16; do
    tcase rma.atomics-shared.$n -t 120 -out "rma_atomics: ok" -- $MPIEXEC -n $n $TB/rma_atomics allocate
done
# post/start/complete/wait with the notices as flags in shared memory
for n in 2 4 8; do
    tcase rma.pscw-shared.$n -t 120 -out "rma_pscw: ok" -- $MPIEXEC -n $n $TB/rma_pscw allocate
done
tcase rma.pscw-shared.nodes -t 120 -out "rma_pscw: ok" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 4 $TB/rma_pscw allocate
tcase rma.lock.16 -t 120 -out "rma_lock: ok" -- $MPIEXEC -n 16 $TB/rma_lock
tcase rma.atomics.16 -t 120 -out "rma_atomics: ok" -- $MPIEXEC -n 16 $TB/rma_atomics
tcase rma.singleton -t 60 -out "rma_basic: ok" -- $TB/rma_basic

for p in fence pscw lock atomics dynamic dtype errors; do
    tcase rma.tcp.$p -t 120 -out "rma_$p: ok" -- env TIDE_TRANSPORTS=tcp,self $MPIEXEC -n 4 $TB/rma_$p
done
for p in fence lock atomics shared; do
    tcase rma.nodes.$p -t 120 -out "rma_$p: ok" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 4 $TB/rma_$p
done
# passive target while the target computes outside MPI: shared memory by
# itself, private memory (and TCP) with the progress thread
tcase rma.progress.shm -t 60 -out "rma_progress: ok" -- $MPIEXEC -n 4 $TB/rma_progress
tcase rma.progress.thread -t 60 -out "rma_progress: ok" -- env TIDE_RMA_SHM=0 TIDE_RMA_PROGRESS_THREAD=1 \
    $MPIEXEC -n 4 $TB/rma_progress
tcase rma.progress.thread-tcp -t 60 -out "rma_progress: ok" -- env TIDE_TRANSPORTS=tcp,self TIDE_RMA_PROGRESS_THREAD=1 \
    $MPIEXEC -n 3 $TB/rma_progress
# conflicting accesses within an epoch: MPI_ERR_RMA_CONFLICT with rma_check=1
tcase rma.conflict.check -t 60 -out "rma_conflict: ok \(checked\)" -- $MPIEXEC --param rma_check=1 -n 3 $TB/rma_conflict check
tcase rma.conflict.check-messages -t 60 -out "rma_conflict: ok \(checked\)" -- env TIDE_RMA_SHM=0 TIDE_RMA_CHECK=1 $MPIEXEC -n 2 $TB/rma_conflict check
tcase rma.conflict.off -t 60 -out "rma_conflict: ok \(unchecked\)" -- $MPIEXEC -n 2 $TB/rma_conflict off
# operations on the calling process itself complete when the call returns
for n in 1 3; do
    tcase rma.self-now.$n -t 120 -out "rma_self_now: ok" -- $MPIEXEC -n $n $TB/rma_self_now
done
tcase rma.self-now.tcp -t 120 -out "rma_self_now: ok" -- env TIDE_TRANSPORTS=tcp,self $MPIEXEC -n 2 $TB/rma_self_now
# a singleton has no session directory: a shared window of one process is
# memory of its own
tcase rma.shared.singleton -t 60 -out "rma_shared: ok" -- $TB/rma_shared
