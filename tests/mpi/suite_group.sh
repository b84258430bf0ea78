# suite_group.sh: the group algebra on MPI_COMM_WORLD's group, the
# communicator inquiries (compare, test_inter, remote_size/group errors)
# and communicator names, at 1 and 4 ranks. No messages are exchanged.
tcase group.world.1 -out "group_world: ok on 1 ranks" -- $MPIEXEC -n 1 $TB/group_world
tcase group.world.2 -out "group_world: ok on 2 ranks" -- $MPIEXEC -n 2 $TB/group_world
tcase group.world.4 -out "group_world: ok on 4 ranks" -- $MPIEXEC -n 4 $TB/group_world
tcase group.world.singleton -out "group_world: ok on 1 ranks" -- $TB/group_world
tcase group.world.sim-nodes -out "group_world: ok on 5 ranks" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 5 $TB/group_world
tcase group.comm-names.1 -out "comm_names: ok" -- $MPIEXEC -n 1 $TB/comm_names
tcase group.comm-names.4 -out "comm_names: ok" -- $MPIEXEC -n 4 $TB/comm_names
