/*
 * ep_io.c: MPI-IO on an endpoints communicator, one thread per endpoint,
 * each endpoint a rank of the file. One file opened collectively by every
 * endpoint; checked: MPI_File_get_group (MPI_IDENT to the communicator's
 * group); independent MPI_File_write_at of each rank's block and
 * MPI_File_read_at of the next rank's after MPI_File_sync and a barrier;
 * under a view of MPI_INT, collective MPI_File_write_at_all and
 * MPI_File_read_at_all (the previous rank's block); the shared file
 * pointer: MPI_File_write_shared of one record per rank (each rank's
 * record exactly once) and MPI_File_write_ordered (in rank order); then
 * MPI_File_close (the file is deleted on close).
 * Usage: ep_io RULE (T endpoints per process, "uneven", or "zero")
 */
#include "ep_testutil.h"

#include <unistd.h>

#define NMAX 64
#define B 64 /* ints per rank's block */

static char path[256];

static void *endpoint_main(void *p)
{
    struct ep_thread_arg *a = p;
    int me, n;
    ep_expect(a->comm, a->rank, a->size, &me, &n);
    CHECK(n <= NMAX, "too many endpoints");
    MPI_File fh;
    CHECK_OK(MPI_File_open(a->comm, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL,
                           &fh));
    MPI_Group fg, cg;
    int cmp = -1;
    CHECK_OK(MPI_File_get_group(fh, &fg));
    CHECK_OK(MPI_Comm_group(a->comm, &cg));
    CHECK_OK(MPI_Group_compare(fg, cg, &cmp));
    CHECK(cmp == MPI_IDENT, "the file's group compares %d to the communicator's", cmp);
    CHECK_OK(MPI_Group_free(&fg));
    CHECK_OK(MPI_Group_free(&cg));

    /* independent: each rank's block, read back by the previous rank */
    int buf[B], in[B];
    for (int i = 0; i < B; i++)
        buf[i] = me * 1000 + i;
    CHECK_OK(MPI_File_write_at(fh, (MPI_Offset)me * B * (int)sizeof(int), buf, B, MPI_INT, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_File_sync(fh));
    CHECK_OK(MPI_Barrier(a->comm));
    CHECK_OK(MPI_File_sync(fh));
    int next = (me + 1) % n, prev = (me + n - 1) % n;
    CHECK_OK(MPI_File_read_at(fh, (MPI_Offset)next * B * (int)sizeof(int), in, B, MPI_INT, MPI_STATUS_IGNORE));
    for (int i = 0; i < B; i++)
        CHECK(in[i] == next * 1000 + i, "rank %d read %d at %d of rank %d's block", me, in[i], i, next);

    /* collective, under a view of ints after the first region */
    MPI_Offset region = (MPI_Offset)n * B * (MPI_Offset)sizeof(int);
    CHECK_OK(MPI_File_set_view(fh, region, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    for (int i = 0; i < B; i++)
        buf[i] = 7000000 + me * 1000 + i;
    CHECK_OK(MPI_File_write_at_all(fh, (MPI_Offset)me * B, buf, B, MPI_INT, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_File_sync(fh));
    CHECK_OK(MPI_Barrier(a->comm));
    CHECK_OK(MPI_File_sync(fh));
    CHECK_OK(MPI_File_read_at_all(fh, (MPI_Offset)prev * B, in, B, MPI_INT, MPI_STATUS_IGNORE));
    for (int i = 0; i < B; i++)
        CHECK(in[i] == 7000000 + prev * 1000 + i, "rank %d read %d at %d of rank %d's collective block", me, in[i],
              i, prev);

    /* the shared file pointer: one record each, in any order */
    CHECK_OK(MPI_File_set_view(fh, 2 * region, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    CHECK_OK(MPI_File_write_shared(fh, &me, 1, MPI_INT, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_File_sync(fh));
    CHECK_OK(MPI_Barrier(a->comm));
    CHECK_OK(MPI_File_sync(fh));
    int all[NMAX], seen[NMAX] = {0};
    CHECK_OK(MPI_File_read_at(fh, 0, all, n, MPI_INT, MPI_STATUS_IGNORE));
    for (int i = 0; i < n; i++) {
        CHECK(all[i] >= 0 && all[i] < n && !seen[all[i]], "shared pointer: record %d is %d", i, all[i]);
        seen[all[i]] = 1;
    }
    /* and in rank order */
    CHECK_OK(MPI_File_set_view(fh, 2 * region + (MPI_Offset)n * (MPI_Offset)sizeof(int), MPI_INT, MPI_INT, "native",
                               MPI_INFO_NULL));
    int rec = 100 + me;
    CHECK_OK(MPI_File_write_ordered(fh, &rec, 1, MPI_INT, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_File_sync(fh));
    CHECK_OK(MPI_Barrier(a->comm));
    CHECK_OK(MPI_File_sync(fh));
    CHECK_OK(MPI_File_read_at(fh, 0, all, n, MPI_INT, MPI_STATUS_IGNORE));
    for (int i = 0; i < n; i++)
        CHECK(all[i] == 100 + i, "ordered: record %d is %d", i, all[i]);
    CHECK_OK(MPI_File_close(&fh));
    CHECK_OK(MPI_Comm_free(&a->comm));
    return NULL;
}

int main(int argc, char **argv)
{
    int wrank, wsize;
    ep_init(&argc, &argv, &wrank, &wsize);
    const char *rule = argc > 1 ? argv[1] : "2";
    if (wrank == 0)
        snprintf(path, sizeof path, "/tmp/ep_io.%d", (int)getpid());
    CHECK_OK(MPI_Bcast(path, sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD));
    ep_run_threads("ep_io", rule, wrank, wsize, endpoint_main);
    MPI_Finalize();
    return 0;
}
