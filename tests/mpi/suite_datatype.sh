# suite_datatype.sh: datatypes (MPI-2.2 chapter 4). Constructors, pack and
# unpack, external32, envelope/contents, names, attributes and errors need
# no messages (1 rank and singleton); derived types through messages run
# on every transport (shared memory, TCP, simulated nodes).
tcase dt.pack.1 -out "dt_pack: ok" -- $MPIEXEC -n 1 $TB/dt_pack
tcase dt.pack.singleton -out "dt_pack: ok" -- $TB/dt_pack
tcase dt.contents.1 -out "dt_contents: ok" -- $MPIEXEC -n 1 $TB/dt_contents
tcase dt.external32.1 -out "dt_external32: ok" -- $MPIEXEC -n 1 $TB/dt_external32
tcase dt.attr.1 -out "dt_attr: ok" -- $MPIEXEC -n 1 $TB/dt_attr
tcase dt.errors.1 -out "dt_errors: ok" -- $MPIEXEC -n 1 $TB/dt_errors
tcase dt.darray.1 -out "dt_darray: ok" -- $MPIEXEC -n 1 $TB/dt_darray
tcase dt.large-count.1 -t 60 -out "dt_large_count: ok" -- $MPIEXEC -n 1 $TB/dt_large_count
tcase dt.large-count.singleton -t 60 -out "dt_large_count: ok" -- $TB/dt_large_count
tcase dt.bounds.1 -out "dt_bounds: ok" -- $MPIEXEC -n 1 $TB/dt_bounds
tcase dt.bounds.singleton -out "dt_bounds: ok" -- $TB/dt_bounds

dt_msgs() {
    tag=$1
    shift
    tcase dt.$tag.sendrecv.2 -t 120 -out "dt_sendrecv: ok" -- "$@" $MPIEXEC -n 2 $TB/dt_sendrecv
    tcase dt.$tag.bounds.2 -t 120 -out "dt_bounds: ok" -- "$@" $MPIEXEC -n 2 $TB/dt_bounds
    tcase dt.$tag.free_pending -t 120 -out "dt_free_pending: ok" -- "$@" $MPIEXEC -n 2 $TB/dt_free_pending
    tcase dt.$tag.darray.4 -t 120 -out "dt_darray: ok" -- "$@" $MPIEXEC -n 4 $TB/dt_darray
    tcase dt.$tag.darray.6 -t 120 -out "dt_darray: ok" -- "$@" $MPIEXEC -n 6 $TB/dt_darray
}
dt_msgs default env
dt_msgs tcp env TIDE_TRANSPORTS=tcp,self
dt_msgs nocma env TIDE_SHM_CMA=0
dt_msgs nodes env TIDE_SIM_NODES=2
tcase dt.default.sendrecv.3 -t 120 -out "dt_sendrecv: ok" -- $MPIEXEC -n 3 $TB/dt_sendrecv
