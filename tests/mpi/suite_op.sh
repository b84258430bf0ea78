# suite_op.sh: reduction operations through MPI_Reduce_local (every
# predefined op, user ops, error classes), at 1 and 4 ranks and as a
# singleton. No messages are exchanged.
tcase op.reduce_local.1 -out "op_reduce_local: ok" -- $MPIEXEC -n 1 $TB/op_reduce_local
tcase op.reduce_local.4 -out "op_reduce_local: ok" -- $MPIEXEC -n 4 $TB/op_reduce_local
tcase op.reduce_local.singleton -out "op_reduce_local: ok" -- $TB/op_reduce_local
