# suite_ep.sh: MPI Endpoints (MPIX_Comm_create_endpoints): messages,
# collectives, derived communicators, intercommunicators, topologies and
# errors on endpoints communicators, at 1 to 4 processes with several endpoints each (the
# same number, uneven numbers, some processes with none), over TCP only,
# and oversubscribed (4 processes x 4 endpoints on the test machine).

# point-to-point: RULE is T endpoints each, "uneven" (1 + rank % 3) or
# "zero" (odd ranks none, even ranks 2)
tcase ep.p2p.1x1 -t 30 -out "ep_p2p: ok" -- $MPIEXEC -n 1 $TB/ep_p2p 1
tcase ep.p2p.1x3 -t 30 -out "ep_p2p: ok" -- $MPIEXEC -n 1 $TB/ep_p2p 3
tcase ep.p2p.2x2 -t 30 -out "ep_p2p: ok" -- $MPIEXEC -n 2 $TB/ep_p2p 2
tcase ep.p2p.3-uneven -t 40 -out "ep_p2p: ok" -- $MPIEXEC -n 3 $TB/ep_p2p uneven
tcase ep.p2p.4-zero -t 40 -out "ep_p2p: ok" -- $MPIEXEC -n 4 $TB/ep_p2p zero
tcase ep.p2p.4x4 -t 60 -out "ep_p2p: ok" -- $MPIEXEC -n 4 $TB/ep_p2p 4
tcase ep.p2p.tcp.2x3 -t 40 -out "ep_p2p: ok" -- env TIDE_TRANSPORTS=self,tcp $MPIEXEC -n 2 $TB/ep_p2p 3
tcase ep.p2p.tcp.3-uneven -t 40 -out "ep_p2p: ok" -- env TIDE_TRANSPORTS=self,tcp $MPIEXEC -n 3 $TB/ep_p2p uneven

# every collective at 2 processes x T endpoints, T = 1 .. 4
for t in 1 2 3 4; do
    tcase ep.coll.2x$t -t 40 -out "ep_coll: ok" -- $MPIEXEC -n 2 $TB/ep_coll $t
done
tcase ep.coll.1x3 -t 30 -out "ep_coll: ok" -- $MPIEXEC -n 1 $TB/ep_coll 3
tcase ep.coll.3x2 -t 40 -out "ep_coll: ok" -- $MPIEXEC -n 3 $TB/ep_coll 2
tcase ep.coll.4x4 -t 60 -out "ep_coll: ok" -- $MPIEXEC -n 4 $TB/ep_coll 4 1
tcase ep.coll.tcp.2x3 -t 40 -out "ep_coll: ok" -- env TIDE_TRANSPORTS=self,tcp $MPIEXEC -n 2 $TB/ep_coll 3

# derived communicators, attributes, names, error handlers, nested endpoints
tcase ep.comm.1x3 -t 30 -out "ep_comm: ok" -- $MPIEXEC -n 1 $TB/ep_comm 3
tcase ep.comm.2x2 -t 30 -out "ep_comm: ok" -- $MPIEXEC -n 2 $TB/ep_comm 2
tcase ep.comm.3-uneven -t 40 -out "ep_comm: ok" -- $MPIEXEC -n 3 $TB/ep_comm uneven
tcase ep.comm.4-zero -t 40 -out "ep_comm: ok" -- $MPIEXEC -n 4 $TB/ep_comm zero
tcase ep.comm.4x4 -t 60 -out "ep_comm: ok" -- $MPIEXEC -n 4 $TB/ep_comm 4
tcase ep.comm.tcp.2x3 -t 40 -out "ep_comm: ok" -- env TIDE_TRANSPORTS=self,tcp $MPIEXEC -n 2 $TB/ep_comm 3
tcase ep.comm.nodes.3-uneven -t 40 -out "ep_comm: ok" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 3 $TB/ep_comm uneven

# OpenMP threads: the examples at 4 processes x 3 threads (12 ranks)
tcase ep.omp.4x3 -t 40 -out "ep_omp: ok" -- $MPIEXEC -n 4 $TB/ep_omp 3
tcase ep.omp.2x4 -t 30 -out "ep_omp: ok" -- $MPIEXEC -n 2 $TB/ep_omp 4
tcase ep.omp.tcp.4x3 -t 40 -out "ep_omp: ok" -- env TIDE_TRANSPORTS=self,tcp $MPIEXEC -n 4 $TB/ep_omp 3

# errors: invalid arguments, what endpoints communicators refuse; the
# thread levels below MPI_THREAD_MULTIPLE allow one endpoint per process
tcase ep.errors.1x3 -t 30 -out "ep_errors: ok" -noout "check failed" -- $MPIEXEC -n 1 $TB/ep_errors multiple 3
tcase ep.errors.2x2 -t 30 -out "ep_errors: ok" -noout "check failed" -- $MPIEXEC -n 2 $TB/ep_errors multiple 2
tcase ep.errors.4x4 -t 40 -out "ep_errors: ok" -noout "check failed" -- $MPIEXEC -n 4 $TB/ep_errors multiple 4
tcase ep.errors.single -t 30 -out "ep_errors: ok" -- $MPIEXEC -n 3 $TB/ep_errors single
tcase ep.errors.single.1 -t 30 -out "ep_errors: ok" -- $MPIEXEC -n 1 $TB/ep_errors single
tcase ep.errors.serialized -t 30 -out "ep_errors: ok" -- $MPIEXEC -n 2 $TB/ep_errors serialized

# making and freeing: parents of every kind, two at once, many rounds
tcase ep.create.1x3 -t 30 -out "ep_create: ok" -- $MPIEXEC -n 1 $TB/ep_create 3
tcase ep.create.2x2 -t 30 -out "ep_create: ok" -- $MPIEXEC -n 2 $TB/ep_create 2 200
tcase ep.create.3x3 -t 40 -out "ep_create: ok" -- $MPIEXEC -n 3 $TB/ep_create 3
tcase ep.create.4x4 -t 60 -out "ep_create: ok" -- $MPIEXEC -n 4 $TB/ep_create 4 20
tcase ep.create.tcp.2x3 -t 40 -out "ep_create: ok" -- env TIDE_TRANSPORTS=self,tcp $MPIEXEC -n 2 $TB/ep_create 3

# simulated nodes (hierarchical collectives, split_type per node)
tcase ep.coll.nodes.4x2 -t 40 -out "ep_coll: ok" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 4 $TB/ep_coll 2
tcase ep.coll.nodes.3x3 -t 40 -out "ep_coll: ok" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 3 $TB/ep_coll 3
tcase ep.p2p.nodes.4-uneven -t 40 -out "ep_p2p: ok" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 4 $TB/ep_p2p uneven
tcase ep.create.nodes.4x2 -t 40 -out "ep_create: ok" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 4 $TB/ep_create 2

# every waiting endpoint falls asleep at once: the endpoints of a
# process must wake each other
sleepy="env TIDE_SPIN_COUNT=1 TIDE_BLOCK_AFTER_US=1"
tcase ep.p2p.sleepy.3-uneven -t 40 -out "ep_p2p: ok" -- $sleepy $MPIEXEC -n 3 $TB/ep_p2p uneven
tcase ep.coll.sleepy.2x3 -t 40 -out "ep_coll: ok" -- $sleepy $MPIEXEC -n 2 $TB/ep_coll 3
tcase ep.comm.sleepy.3-uneven -t 40 -out "ep_comm: ok" -- $sleepy $MPIEXEC -n 3 $TB/ep_comm uneven
tcase ep.omp.sleepy.4x3 -t 40 -out "ep_omp: ok" -- $sleepy $MPIEXEC -n 4 $TB/ep_omp 3
tcase ep.create.sleepy.2x3 -t 40 -out "ep_create: ok" -- $sleepy $MPIEXEC -n 2 $TB/ep_create 3

# the processes' endpoints interleaved in rank order, and large messages
tcase ep.coll.interleave.3x3 -t 40 -out "ep_coll: ok" -- $MPIEXEC -n 3 $TB/ep_coll 3 1 interleave
tcase ep.coll.interleave.nodes.4x2 -t 40 -out "ep_coll: ok" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 4 $TB/ep_coll 2 1 interleave
tcase ep.coll.large.2x3 -t 40 -out "ep_coll: ok" -- $MPIEXEC -n 2 $TB/ep_coll 3 1 large
tcase ep.coll.large.1x3 -t 40 -out "ep_coll: ok" -- $MPIEXEC -n 1 $TB/ep_coll 3 1 large
tcase ep.coll.large.tcp.3x2 -t 40 -out "ep_coll: ok" -- env TIDE_TRANSPORTS=self,tcp $MPIEXEC -n 3 $TB/ep_coll 2 1 interleave large
tcase ep.coll.large.nocma.2x2 -t 40 -out "ep_coll: ok" -- env TIDE_SHM_CMA=0 $MPIEXEC -n 2 $TB/ep_coll 2 1 large

# intercommunicators of endpoints: both groups of endpoints, one of them
# of processes, the peer communicator an endpoints communicator; merged
tcase ep.inter.both.2 -t 30 -out "ep_inter: ok" -- $MPIEXEC -n 2 $TB/ep_inter both 2
tcase ep.inter.both.4 -t 40 -out "ep_inter: ok" -- $MPIEXEC -n 4 $TB/ep_inter both 3
tcase ep.inter.one.3 -t 30 -out "ep_inter: ok" -- $MPIEXEC -n 3 $TB/ep_inter one 3
tcase ep.inter.peer.3 -t 40 -out "ep_inter: ok" -- $MPIEXEC -n 3 $TB/ep_inter peer 2
tcase ep.inter.tcp.both.3 -t 40 -out "ep_inter: ok" -- env TIDE_TRANSPORTS=self,tcp $MPIEXEC -n 3 $TB/ep_inter both 2
# every process with endpoints in both groups (the note allows it)
tcase ep.inter.overlap.1 -t 30 -out "ep_inter: ok" -- $MPIEXEC -n 1 $TB/ep_inter overlap 4
tcase ep.inter.overlap.2 -t 40 -out "ep_inter: ok" -- $MPIEXEC -n 2 $TB/ep_inter overlap 3
tcase ep.inter.overlap.3 -t 60 -out "ep_inter: ok" -- $MPIEXEC -n 3 $TB/ep_inter overlap 4
tcase ep.inter.overlap.tcp.2 -t 40 -out "ep_inter: ok" -- env TIDE_TRANSPORTS=self,tcp $MPIEXEC -n 2 $TB/ep_inter overlap 2
tcase ep.inter.overlap.sleepy.2 -t 40 -out "ep_inter: ok" -- env TIDE_SPIN_COUNT=1 TIDE_BLOCK_AFTER_US=1 $MPIEXEC -n 2 $TB/ep_inter overlap 3

# one-sided communication on endpoints: windows of every kind over an
# endpoints communicator, every synchronization, between endpoints of one
# process and of several
tcase ep.rma.1x3 -t 30 -out "ep_rma: ok" -- $MPIEXEC -n 1 $TB/ep_rma 3
tcase ep.rma.2x2 -t 40 -out "ep_rma: ok" -- $MPIEXEC -n 2 $TB/ep_rma 2
tcase ep.rma.3-uneven -t 40 -out "ep_rma: ok" -- $MPIEXEC -n 3 $TB/ep_rma uneven
tcase ep.rma.4-zero -t 40 -out "ep_rma: ok" -- $MPIEXEC -n 4 $TB/ep_rma zero
tcase ep.rma.4x4 -t 60 -out "ep_rma: ok" -- $MPIEXEC -n 4 $TB/ep_rma 4
tcase ep.rma.tcp.2x3 -t 40 -out "ep_rma: ok" -- env TIDE_TRANSPORTS=self,tcp $MPIEXEC -n 2 $TB/ep_rma 3
tcase ep.rma.nodes.4x2 -t 40 -out "ep_rma: ok" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 4 $TB/ep_rma 2 noshared
tcase ep.rma.sleepy.2x3 -t 40 -out "ep_rma: ok" -- env TIDE_SPIN_COUNT=1 TIDE_BLOCK_AFTER_US=1 $MPIEXEC -n 2 $TB/ep_rma 3
tcase ep.rma.private.2x3 -t 40 -out "ep_rma: ok" -- env TIDE_RMA_SHM=0 $MPIEXEC -n 2 $TB/ep_rma 3

# MPI-IO on endpoints: one file, each endpoint a rank of it (independent,
# collective and shared-pointer accesses)
tcase ep.io.1x3 -t 30 -out "ep_io: ok" -- $MPIEXEC -n 1 $TB/ep_io 3
tcase ep.io.2x2 -t 40 -out "ep_io: ok" -- $MPIEXEC -n 2 $TB/ep_io 2
tcase ep.io.3-uneven -t 40 -out "ep_io: ok" -- $MPIEXEC -n 3 $TB/ep_io uneven
tcase ep.io.4-zero -t 40 -out "ep_io: ok" -- $MPIEXEC -n 4 $TB/ep_io zero
tcase ep.io.4x4 -t 60 -out "ep_io: ok" -- $MPIEXEC -n 4 $TB/ep_io 4
tcase ep.io.tcp.2x3 -t 40 -out "ep_io: ok" -- env TIDE_TRANSPORTS=self,tcp $MPIEXEC -n 2 $TB/ep_io 3
tcase ep.io.nodes.4x2 -t 40 -out "ep_io: ok" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 4 $TB/ep_io 2
tcase ep.io.sleepy.2x3 -t 40 -out "ep_io: ok" -- env TIDE_SPIN_COUNT=1 TIDE_BLOCK_AFTER_US=1 $MPIEXEC -n 2 $TB/ep_io 3

# process topologies and neighborhood collectives on endpoints
tcase ep.topo.1x3 -t 30 -out "ep_topo: ok" -- $MPIEXEC -n 1 $TB/ep_topo 3
tcase ep.topo.2x2 -t 30 -out "ep_topo: ok" -- $MPIEXEC -n 2 $TB/ep_topo 2
tcase ep.topo.3-uneven -t 40 -out "ep_topo: ok" -- $MPIEXEC -n 3 $TB/ep_topo uneven
tcase ep.topo.4x4 -t 40 -out "ep_topo: ok" -- $MPIEXEC -n 4 $TB/ep_topo 4
