# suite_io.sh: MPI-IO (MPI-2.2 chapter 13, MPI-3 nonblocking collective
# I/O): open modes and file manipulation, views, every data access routine,
# the shared file pointer, split collectives, data representations and the
# I/O error classes, at 1 to 8 ranks (16 for some), over TCP only and
# across simulated nodes. Files go to a scratch directory under $TMPDIR.

for p in basic views access shared split datarep errors; do
    for n in 1 2 4 8; do
        tcase io.$p.$n -t 120 -out "io_$p: ok" -- $MPIEXEC -n $n $TB/io_$p
    done
done
for p in views access shared split; do
    tcase io.$p.16 -t 120 -out "io_$p: ok" -- $MPIEXEC -n 16 $TB/io_$p
done
# an odd number of ranks: uneven process grids and collective domains
tcase io.views.7 -t 120 -out "io_views: ok" -- $MPIEXEC -n 7 $TB/io_views
tcase io.access.5 -t 120 -out "io_access: ok" -- $MPIEXEC -n 5 $TB/io_access
tcase io.singleton -t 60 -out "io_basic: ok" -- $TB/io_basic

for p in views access shared split datarep; do
    tcase io.tcp.$p -t 120 -out "io_$p: ok" -- env TIDE_TRANSPORTS=tcp,self $MPIEXEC -n 4 $TB/io_$p
done
for p in basic views access shared split datarep errors; do
    tcase io.nodes.$p -t 120 -out "io_$p: ok" -- env TIDE_SIM_NODES=2 $MPIEXEC -n 4 $TB/io_$p
done
tcase io.nodes.shared.8 -t 120 -out "io_shared: ok" -- env TIDE_SIM_NODES=4 $MPIEXEC -n 8 $TB/io_shared
