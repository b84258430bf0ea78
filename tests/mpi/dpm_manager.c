/*
 * dpm_manager.c: the standard's manager-worker example (MPI-2.2 example
 * 10.1): one manager spawns MPI_UNIVERSE_SIZE-1 workers; the workers
 * check that their parent group has exactly one process; the manager
 * hands out work items and collects results over the intercommunicator.
 */
#include "testutil.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent == MPI_COMM_NULL) {
        int world_size, *universe_size_p, flag;
        MPI_Comm_size(MPI_COMM_WORLD, &world_size);
        CHECK(world_size == 1, "top heavy manager: run it with -n 1");
        MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &universe_size_p, &flag);
        CHECK(flag, "this MPI does not support MPI_UNIVERSE_SIZE");
        int universe_size = *universe_size_p;
        CHECK(universe_size > 1, "no room to start workers (universe size %d)", universe_size);
        MPI_Comm everyone;
        CHECK_OK(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, universe_size - 1, MPI_INFO_NULL, 0, MPI_COMM_SELF,
                                &everyone, MPI_ERRCODES_IGNORE));
        int nworkers;
        MPI_Comm_remote_size(everyone, &nworkers);
        CHECK(nworkers == universe_size - 1, "%d workers", nworkers);
        long total = 0;
        int items = 100, next = 0, active = 0;
        for (int w = 0; w < nworkers; w++) {
            int item = next < items ? next++ : -1;
            CHECK_OK(MPI_Send(&item, 1, MPI_INT, w, 0, everyone));
            active += item >= 0;
        }
        while (active > 0) {
            long r;
            MPI_Status st;
            CHECK_OK(MPI_Recv(&r, 1, MPI_LONG, MPI_ANY_SOURCE, 1, everyone, &st));
            total += r;
            int item = next < items ? next++ : -1;
            active -= item < 0;
            CHECK_OK(MPI_Send(&item, 1, MPI_INT, st.MPI_SOURCE, 0, everyone));
        }
        CHECK(total == 328350, "sum of squares %ld", total);
        printf("manager: %d workers, result %ld\n", nworkers, total);
        MPI_Comm_disconnect(&everyone);
    } else {
        int size;
        MPI_Comm_remote_size(parent, &size);
        CHECK(size == 1, "something's wrong with the parent");
        for (;;) {
            int item;
            CHECK_OK(MPI_Recv(&item, 1, MPI_INT, 0, 0, parent, MPI_STATUS_IGNORE));
            if (item < 0)
                break;
            long r = (long)item * item;
            CHECK_OK(MPI_Send(&r, 1, MPI_LONG, 0, 1, parent));
        }
        MPI_Comm_disconnect(&parent);
    }
    MPI_Finalize();
    return 0;
}
