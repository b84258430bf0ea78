# suite_coll.sh: collective operations. coll_ops checks every operation
# against a locally computed reference at every size from 1 to 17 ranks
# (oversubscribed on small machines; MPI_COMM_WORLD and the two halves of a
# split), the full matrix (more counts and roots, every algorithm forced on
# MPI_COMM_WORLD) at a few sizes, 1 Mi elements, and across simulated nodes
# (node-aware algorithms, TCP between nodes), over TCP only and without
# single-copy transfers, and with process-wide coll_tuning overrides.
# Then every (op, type) pair, intercommunicators, bad input, coll_check,
# nonblocking semantics, neighbourhood collectives, persistent collectives
# and reproducibility.

n=1
while [ $n -le 17 ]; do
    tcase coll.ops.$n -t 120 -out "coll_ops: ok" -- $MPIEXEC -n $n $TB/coll_ops
    n=$((n + 1))
done
for n in 4 7 16 17; do
    tcase coll.ops.full.$n -t 180 -out "coll_ops: ok" -- $MPIEXEC -n $n $TB/coll_ops full
done
tcase coll.ops.big.4 -t 180 -out "coll_ops: ok" -- $MPIEXEC -n 4 $TB/coll_ops big
tcase coll.ops.big.17 -t 240 -out "coll_ops: ok" -- $MPIEXEC -n 17 $TB/coll_ops big
# exchanges with more peers than a rank keeps sends in flight, in blocks
# that go by rendezvous (a rank waiting for its first sends must not keep
# the others from posting their receives)
tcase coll.ops.big.alltoall.20 -t 120 -out "coll_ops: ok" -- $MPIEXEC -n 20 $TB/coll_ops big only=alltoall
tcase coll.ops.big.allgather-direct.20 -t 120 -out "coll_ops: ok" -- env TIDE_COLL_TUNING=allgather=direct \
    $MPIEXEC -n 20 $TB/coll_ops big only=allgather
tcase coll.ops.nodes.4 -t 180 -out "coll_ops: ok" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 4 $TB/coll_ops full
tcase coll.ops.nodes.7 -t 180 -out "coll_ops: ok" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 7 $TB/coll_ops full
tcase coll.ops.nodes3.11 -t 180 -out "coll_ops: ok" -- env TIDE_SIM_NODES=3 $MPIEXEC -n 11 $TB/coll_ops
tcase coll.ops.nodes.big.6 -t 240 -out "coll_ops: ok" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 6 $TB/coll_ops big
tcase coll.ops.tcp.5 -t 180 -out "coll_ops: ok" -- env TIDE_TRANSPORTS=tcp,self $MPIEXEC -n 5 $TB/coll_ops full
tcase coll.ops.nocma.6 -t 180 -out "coll_ops: ok" -- env TIDE_SHM_CMA=0 $MPIEXEC -n 6 $TB/coll_ops full
tcase coll.ops.nocma.big.3 -t 180 -out "coll_ops: ok" -- env TIDE_SHM_CMA=0 $MPIEXEC -n 3 $TB/coll_ops big
tcase coll.ops.tuning.6 -t 180 -out "coll_ops: ok" -- env \
    TIDE_COLL_TUNING="allreduce=ring@64,allreduce=rabenseifner@1k-2k,bcast=scatter_rd/4-8,alltoall=bruck,allgather=rd,reduce=linear/1-6,scan=linear,barrier=tree" \
    $MPIEXEC -n 6 $TB/coll_ops
tcase coll.ops.tuning.bad -out "coll_ops: ok" -err "coll_tuning: unknown algorithm" -- env \
    TIDE_COLL_TUNING="allreduce=fastest,bcast=binomial" $MPIEXEC -n 3 $TB/coll_ops only=bcast
tcase coll.ops.singleton -out "coll_ops: ok" -- $TB/coll_ops

for n in 1 4 17; do
    tcase coll.types.$n -t 120 -out "coll_types: ok" -- $MPIEXEC -n $n $TB/coll_types
done
tcase coll.types.nodes.5 -t 120 -out "coll_types: ok" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 5 $TB/coll_types

for n in 2 3 4 5 8 17; do
    tcase coll.inter.$n -t 120 -out "coll_inter: ok" -- $MPIEXEC -n $n $TB/coll_inter
done
tcase coll.inter.nodes.7 -t 120 -out "coll_inter: ok" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 7 $TB/coll_inter

for n in 1 2 5 17; do
    tcase coll.errors.$n -t 60 -out "coll_errors: ok" -- $MPIEXEC -n $n $TB/coll_errors
    tcase coll.check.$n -t 60 -out "coll_errors: ok" -- env TIDE_COLL_CHECK=1 $MPIEXEC -n $n $TB/coll_errors check
done
# a call one rank refuses (its local argument check) leaves nobody waiting:
# every family and form, the root or another rank refusing, short and
# 1 MiB blocks (rendezvous, the shared region's long paths), and without
# the shared region (messages only)
for n in 2 3 4 8; do
    tcase coll.refused.$n -t 120 -out "coll_refused: ok" -- $MPIEXEC -n $n $TB/coll_refused
    tcase coll.refused.big.$n -t 240 -out "coll_refused: ok" -- $MPIEXEC -n $n $TB/coll_refused big
done
tcase coll.refused.noshm.4 -t 120 -out "coll_refused: ok" -- env TIDE_COLL_SHM=0 $MPIEXEC -n 4 $TB/coll_refused
tcase coll.refused.nodes.5 -t 120 -out "coll_refused: ok" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 5 $TB/coll_refused
tcase coll.check.ops.5 -t 120 -out "coll_ops: ok" -- env TIDE_COLL_CHECK=1 $MPIEXEC -n 5 $TB/coll_ops
tcase coll.check.inter.4 -t 120 -out "coll_inter: ok" -- env TIDE_COLL_CHECK=1 $MPIEXEC -n 4 $TB/coll_inter

# the shared region of one-node communicators (algorithm shm), and its
# refusal: by one rank's setting, under coll_check, across nodes
for n in 1 2 5 8 17; do
    tcase coll.shm.$n -t 120 -out "coll_shm: ok" -- $MPIEXEC -n $n $TB/coll_shm
done
tcase coll.shm.refused-by-one.5 -t 120 -out "coll_shm: ok" -- \
    $MPIEXEC -n 2 $TB/coll_shm quick : -n 1 --env TIDE_COLL_SHM=0 $TB/coll_shm quick : -n 2 $TB/coll_shm quick
tcase coll.shm.check.4 -t 120 -out "coll_shm: ok" -- env TIDE_COLL_CHECK=1 $MPIEXEC -n 4 $TB/coll_shm quick
tcase coll.shm.nodes.5 -t 120 -out "coll_shm: ok" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 5 $TB/coll_shm quick

# bcast, allgather and alltoall reading straight from the others' buffers
# (algorithm get): chosen (said at verbose 3) and not refused; refused by
# one rank's setting (then by all alike); across nodes
for n in 2 5 8 17; do
    tcase coll.get.$n -t 120 -out "coll_get: ok" -err "alltoall on $n ranks.*: get" -noout "cannot all read" -- \
        env TIDE_VERBOSE=3 $MPIEXEC -n $n $TB/coll_get
done
tcase coll.get.refused-by-one.5 -t 120 -out "coll_get: ok" -err "cannot all read" -- env TIDE_VERBOSE=2 \
    $MPIEXEC -n 2 $TB/coll_get : -n 1 --env TIDE_SHM_CMA=0 $TB/coll_get : -n 2 $TB/coll_get
tcase coll.get.nodes.5 -t 120 -out "coll_get: ok" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 5 $TB/coll_get

for n in 1 3 17; do
    tcase coll.nbc.$n -t 60 -out "coll_nbc: ok" -- $MPIEXEC -n $n $TB/coll_nbc
done

for n in 1 2 3 4 6 9 17; do
    tcase coll.neighbor.$n -t 60 -out "coll_neighbor: ok" -- $MPIEXEC -n $n $TB/coll_neighbor
done

# persistent collectives (the MPI-4 _init calls): each started several
# times, Startall across communicators, intercommunicators, bad input
for n in 1 2 3 4 16; do
    tcase coll.persistent.$n -t 120 -out "coll_persistent: ok" -- $MPIEXEC -n $n $TB/coll_persistent
done
tcase coll.persistent.check.5 -t 120 -out "coll_persistent: ok" -- env TIDE_COLL_CHECK=1 \
    $MPIEXEC -n 5 $TB/coll_persistent
tcase coll.persistent.nodes.5 -t 120 -out "coll_persistent: ok" -- env TIDE_SIM_NODES=2 \
    $MPIEXEC -n 5 $TB/coll_persistent

# reproducible: the same hashes twice in a row
coll_repro_twice() {
    $MPIEXEC -n $1 $TB/coll_repro > "$T_LOGDIR/coll.repro.$1.a" || return 1
    $MPIEXEC -n $1 $TB/coll_repro > "$T_LOGDIR/coll.repro.$1.b" || return 1
    [ -s "$T_LOGDIR/coll.repro.$1.a" ] && cmp "$T_LOGDIR/coll.repro.$1.a" "$T_LOGDIR/coll.repro.$1.b"
}
tcheck coll.repro.7 coll_repro_twice 7
tcheck coll.repro.16 coll_repro_twice 16

# the large-count (_c) forms against their int twins, and displacements
# beyond 2^31 on sparse buffers (TIDE_TEST_NO_BIG leaves those out)
for n in 1 2 5; do
    tcase coll.large-count.$n -t 120 -out "coll_large_count: ok" -- $MPIEXEC -n $n $TB/coll_large_count
done
tcase coll.large-count.nodes.4 -t 120 -out "coll_large_count: ok" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 4 \
    $TB/coll_large_count
tcase coll.large-count.tcp.3 -t 120 -out "coll_large_count: ok" -- env TIDE_TRANSPORTS=tcp,self $MPIEXEC -n 3 \
    $TB/coll_large_count
# sendbuf == recvbuf is an error only where bytes overlap: empty buffers
# and blocks side by side may share an address
for n in 1 3 8; do
    tcase coll.alias.$n -t 60 -out "coll_alias: ok" -- $MPIEXEC -n $n $TB/coll_alias
done
# the shared regions of collectives are capped per process
tcase coll.regions.cap -t 60 -out "coll_regions: ok on 3 ranks \(cap 8\)" -- $MPIEXEC --param coll_shm_regions=8 -n 3 $TB/coll_regions 8
tcase coll.regions.default -t 60 -out "coll_regions: ok on 4 ranks \(cap 64\)" -- $MPIEXEC -n 4 $TB/coll_regions 64
tcase coll.regions.none -t 60 -out "coll_regions: ok on 2 ranks \(cap 0\)" -- $MPIEXEC --param coll_shm_regions=0 -n 2 $TB/coll_regions 0
