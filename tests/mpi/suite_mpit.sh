# suite_mpit.sh: the tool information interface (MPI_T): before MPI_Init
# and after MPI_Finalize, every variable and category, enumerations,
# sessions and handles, the message counters (eager and rendezvous, over
# shared memory and TCP, a singleton) and every error class.
tcase mpit.basic.2 -t 60 -out "mpit_basic: ok" -- env TIDE_SHM_EAGER_LIMIT=8192 $MPIEXEC -n 2 $TB/mpit_basic tide 8192
tcase mpit.basic.3 -t 60 -out "mpit_basic: ok" -- $MPIEXEC -n 3 $TB/mpit_basic tide 16384
tcase mpit.basic.1 -t 60 -out "mpit_basic: ok" -- env TIDE_SHM_EAGER_LIMIT=2k $MPIEXEC -n 1 $TB/mpit_basic tide 2048
tcase mpit.basic.singleton -t 60 -out "mpit_basic: ok" -- env TIDE_SHM_EAGER_LIMIT=1234 $TB/mpit_basic tide 1234
tcase mpit.basic.param -t 60 -out "mpit_basic: ok" -- $MPIEXEC --param shm_eager_limit=5000 -n 2 $TB/mpit_basic tide 5000
tcase mpit.basic.rendezvous -t 60 -out "mpit_basic: ok" -- $MPIEXEC -n 2 $TB/mpit_basic tide 16384 100000
tcase mpit.basic.tcp -t 60 -out "mpit_basic: ok" -- env TIDE_TRANSPORTS=self,tcp $MPIEXEC -n 2 $TB/mpit_basic tide 16384 10
tcase mpit.basic.tcp-rendezvous -t 60 -out "mpit_basic: ok" -- env TIDE_TRANSPORTS=self,tcp $MPIEXEC -n 2 $TB/mpit_basic tide 16384 100000
tcase mpit.basic.multiple -t 60 -out "mpit_basic: ok" -- $MPIEXEC -n 2 $TB/mpit_basic tide 16384 1000 multiple
