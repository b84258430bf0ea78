# suite_comm.sh: communicators, intercommunicators, caching, error
# handling and topologies (libmpi/comm): dup/free and context ids
# (10,000 cycles, 20,000 live communicators, idup), split/create/
# create_group/split_type, concurrent creation on disjoint groups and
# threads, intercommunicators (create, point-to-point, dup/create/split,
# merge), attribute callbacks, error classes and handlers, Cartesian and
# graph topologies; on shared memory, over TCP, and across simulated nodes.
tcase comm.dup.1 -out "comm_dup: ok on 1 ranks" -- $MPIEXEC -n 1 $TB/comm_dup
tcase comm.dup.4 -t 90 -out "comm_dup: ok on 4 ranks" -- $MPIEXEC -n 4 $TB/comm_dup
tcase comm.dup.7 -t 90 -out "comm_dup: ok on 7 ranks" -- $MPIEXEC -n 7 $TB/comm_dup
tcase comm.dup.singleton -out "comm_dup: ok on 1 ranks" -- $TB/comm_dup
tcase comm.dup.nodes -t 90 -out "comm_dup: ok on 4 ranks" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 4 $TB/comm_dup 12345
tcase comm.dup.tcp -t 90 -out "comm_dup: ok on 3 ranks" -- env TIDE_TRANSPORTS=tcp,self $MPIEXEC -n 3 $TB/comm_dup 1245
tcase comm.split.1 -out "comm_split: ok on 1 ranks" -- $MPIEXEC -n 1 $TB/comm_split
tcase comm.split.6 -out "comm_split: ok on 6 ranks" -- $MPIEXEC -n 6 $TB/comm_split
tcase comm.split.nodes -out "split_type: 2 node\(s\), 3 rank\(s\) on mine" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 5 $TB/comm_split
tcase comm.concurrent.6 -t 90 -out "comm_concurrent: ok on 6 ranks \(threads: yes\)" -- $MPIEXEC -n 6 $TB/comm_concurrent
tcase comm.concurrent.7 -t 90 -out "comm_concurrent: ok on 7 ranks" -- $MPIEXEC -n 7 $TB/comm_concurrent
tcase comm.concurrent.nodes -t 90 -out "comm_concurrent: ok on 5 ranks" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 5 $TB/comm_concurrent
tcase comm.inter.2 -out "comm_inter: ok on 2 ranks" -- $MPIEXEC -n 2 $TB/comm_inter
tcase comm.inter.5 -out "comm_inter: ok on 5 ranks" -- $MPIEXEC -n 5 $TB/comm_inter
tcase comm.inter.8 -t 90 -out "comm_inter: ok on 8 ranks" -- $MPIEXEC -n 8 $TB/comm_inter
tcase comm.inter.tcp -t 90 -out "comm_inter: ok on 4 ranks" -- env TIDE_TRANSPORTS=tcp,self $MPIEXEC -n 4 $TB/comm_inter
tcase comm.inter.nodes -t 90 -out "comm_inter: ok on 5 ranks" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 5 $TB/comm_inter
tcase comm.attr.1 -out "self attribute deleted at MPI_Finalize" -- $MPIEXEC -n 1 $TB/comm_attr
tcase comm.attr.4 -out "comm_attr: ok on 4 ranks" -- $MPIEXEC -n 4 $TB/comm_attr
tcase comm.errors.1 -out "comm_errors: ok on 1 ranks" -- $MPIEXEC -n 1 $TB/comm_errors
tcase comm.errors.3 -out "comm_errors: ok on 3 ranks" -- $MPIEXEC -n 3 $TB/comm_errors
tcase topo.cart.1 -out "topo_cart: ok on 1 ranks" -- $MPIEXEC -n 1 $TB/topo_cart
tcase topo.cart.6 -out "topo_cart: ok on 6 ranks" -- $MPIEXEC -n 6 $TB/topo_cart
tcase topo.cart.nodes -out "topo_cart: ok on 6 ranks" -- env TIDE_SIM_NODES=3 $MPIEXEC -n 6 $TB/topo_cart
tcase topo.graph.1 -out "topo_graph: ok on 1 ranks" -- $MPIEXEC -n 1 $TB/topo_graph
tcase topo.graph.4 -out "topo_graph: ok on 4 ranks" -- $MPIEXEC -n 4 $TB/topo_graph
tcase topo.graph.7 -out "topo_graph: ok on 7 ranks" -- $MPIEXEC -n 7 $TB/topo_graph
tcase comm.idup-info.1 -t 30 -out "comm_idup_info: ok on 1 ranks" -- $MPIEXEC -n 1 $TB/comm_idup_info
tcase comm.idup-info.4 -t 60 -out "comm_idup_info: ok on 4 ranks" -- $MPIEXEC -n 4 $TB/comm_idup_info
tcase comm.idup-info.nodes -t 60 -out "comm_idup_info: ok on 3 ranks" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 3 $TB/comm_idup_info
tcase comm.split-hw.1 -t 30 -out "comm_split_hw: ok on 1 ranks" -- $MPIEXEC -n 1 $TB/comm_split_hw
tcase comm.split-hw.4 -t 60 -out "comm_split_hw: ok on 4 ranks" -- $MPIEXEC -n 4 $TB/comm_split_hw
tcase comm.split-hw.bound -t 60 -out "comm_split_hw: ok on 4 ranks \(bound\)" -- $MPIEXEC -n 4 $TB/comm_split_hw bind
tcase comm.split-hw.nodes -t 60 -out "unguided: mpi_shared_memory, 2 of 4 ranks" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 4 $TB/comm_split_hw bind
tcase comm.split-hw.singleton -t 30 -out "comm_split_hw: ok on 1 ranks" -- $TB/comm_split_hw
