/*
 * io_shared.c: the shared file pointer (MPI-2.2 13.4.4): a log that every
 * rank appends records to with write_shared/iwrite_shared (afterwards the
 * file holds every record exactly once, none lost or overlapping, each
 * rank's in the order it wrote them); the records consumed again with
 * read_shared until the end of the file (each read by exactly one rank);
 * write_ordered/read_ordered in rank order; the collective seek_shared and
 * get_position_shared; the shared pointer counting etypes of the view and
 * staying apart from the individual pointers; separate shared pointers for
 * files opened by disjoint groups.
 */
#include "io_testutil.h"

static int rank, size;
static char dir[IO_PATH_MAX];

#define RECORDS 40 /* per rank */

struct record {
    int rank;
    int seq;
    char text[24];
};

static void fill_record(struct record *rec, int r, int seq)
{
    memset(rec, 0, sizeof *rec);
    rec->rank = r;
    rec->seq = seq;
    snprintf(rec->text, sizeof rec->text, "log %d/%d", r, seq);
}

static int record_ok(const struct record *rec)
{
    struct record want;
    if (rec->rank < 0 || rec->rank >= size || rec->seq < 0 || rec->seq >= RECORDS)
        return 0;
    fill_record(&want, rec->rank, rec->seq);
    return memcmp(rec, &want, sizeof want) == 0;
}

static void make_visible(MPI_File fh, MPI_Comm comm)
{
    CHECK_OK(MPI_File_sync(fh));
    MPI_Barrier(comm);
    CHECK_OK(MPI_File_sync(fh));
}

static void test_log(MPI_Datatype rectype)
{
    char path[IO_PATH_MAX];
    io_path(dir, "log.dat", path);
    MPI_File fh;
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                           MPI_INFO_NULL, &fh));
    /* positions count whole records */
    CHECK_OK(MPI_File_set_view(fh, 0, rectype, rectype, "native", MPI_INFO_NULL));

    /* append: blocking and nonblocking in turn */
    struct record rec;
    MPI_Status st;
    for (int s = 0; s < RECORDS; s++) {
        fill_record(&rec, rank, s);
        if (s % 3 == 2) {
            MPI_Request req;
            CHECK_OK(MPI_File_iwrite_shared(fh, &rec, 1, rectype, &req));
            CHECK_OK(MPI_Wait(&req, &st));
        } else {
            CHECK_OK(MPI_File_write_shared(fh, &rec, 1, rectype, &st));
        }
        int cnt;
        MPI_Get_count(&st, rectype, &cnt);
        CHECK(cnt == 1, "write_shared of record %d: count %d", s, cnt);
    }
    /* the individual pointer did not move */
    MPI_Offset pos;
    CHECK_OK(MPI_File_get_position(fh, &pos));
    CHECK(pos == 0, "write_shared moved the individual pointer to %lld", (long long)pos);
    make_visible(fh, MPI_COMM_WORLD);
    CHECK_OK(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == (MPI_Offset)RECORDS * size, "shared pointer at %lld after the log, expected %d", (long long)pos,
          RECORDS * size);
    /* a collective shared-pointer call need not wait for the others: all
     * have read the pointer before anyone moves it */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Offset fsize;
    CHECK_OK(MPI_File_get_size(fh, &fsize));
    CHECK(fsize == (MPI_Offset)sizeof(struct record) * RECORDS * size, "log file has %lld bytes, expected %zu",
          (long long)fsize, sizeof(struct record) * RECORDS * size);

    /* every rank checks the whole log */
    int total = RECORDS * size;
    struct record *all = malloc(sizeof(struct record) * (size_t)total);
    int *next_seq = calloc((size_t)size, sizeof(int));
    CHECK(all != NULL && next_seq != NULL, "out of memory");
    CHECK_OK(MPI_File_read_at(fh, 0, all, total, rectype, &st));
    for (int i = 0; i < total; i++) {
        CHECK(record_ok(&all[i]), "log record %d is damaged (rank %d seq %d)", i, all[i].rank, all[i].seq);
        /* each rank's records appear in the order it wrote them, so
         * each one appears once and none is missing */
        CHECK(all[i].seq == next_seq[all[i].rank], "log record %d: rank %d seq %d, expected seq %d", i, all[i].rank,
              all[i].seq, next_seq[all[i].rank]);
        next_seq[all[i].rank]++;
    }
    for (int r = 0; r < size; r++)
        CHECK(next_seq[r] == RECORDS, "log holds %d records of rank %d", next_seq[r], r);

    /* consume the log with read_shared: every record read by one rank */
    CHECK_OK(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
    int *mine = calloc((size_t)total, sizeof(int)); /* record index -> read here */
    CHECK(mine != NULL, "out of memory");
    int nread = 0;
    for (;;) {
        int cnt;
        if (nread % 2 == 0) {
            CHECK_OK(MPI_File_read_shared(fh, &rec, 1, rectype, &st));
        } else {
            MPI_Request req;
            CHECK_OK(MPI_File_iread_shared(fh, &rec, 1, rectype, &req));
            CHECK_OK(MPI_Wait(&req, &st));
        }
        MPI_Get_count(&st, rectype, &cnt);
        if (cnt == 0)
            break;
        CHECK(cnt == 1, "read_shared count %d", cnt);
        CHECK(record_ok(&rec), "read_shared returned a damaged record");
        int idx = -1;
        for (int i = 0; i < total; i++)
            if (all[i].rank == rec.rank && all[i].seq == rec.seq)
                idx = i;
        CHECK(idx >= 0 && !mine[idx], "record %d/%d read twice", rec.rank, rec.seq);
        mine[idx] = 1;
        nread++;
    }
    int *sum = malloc(sizeof(int) * (size_t)total);
    CHECK(sum != NULL, "out of memory");
    MPI_Allreduce(mine, sum, total, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < total; i++)
        CHECK(sum[i] == 1, "record %d (rank %d seq %d) read by %d ranks", i, all[i].rank, all[i].seq, sum[i]);
    free(sum);
    free(mine);
    free(next_seq);
    free(all);
    CHECK_OK(MPI_File_close(&fh));
}

/* write_ordered in rank order, with different lengths; seek_shared. */
static void test_ordered_and_seek(void)
{
    char path[IO_PATH_MAX];
    io_path(dir, "ordered.dat", path);
    MPI_File fh;
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                           MPI_INFO_NULL, &fh));
    CHECK_OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    /* rank r writes r+1 copies of r: 0 1 1 2 2 2 3 3 3 3 ... */
    int mine[64];
    for (int i = 0; i <= rank; i++)
        mine[i] = rank;
    MPI_Status st;
    CHECK_OK(MPI_File_write_ordered(fh, mine, rank + 1, MPI_INT, &st));
    int total = size * (size + 1) / 2;
    make_visible(fh, MPI_COMM_WORLD);
    MPI_Offset pos;
    CHECK_OK(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == total, "shared pointer %lld after write_ordered, expected %d", (long long)pos, total);
    MPI_Barrier(MPI_COMM_WORLD);
    int *all = malloc(sizeof(int) * (size_t)total);
    CHECK(all != NULL, "out of memory");
    CHECK_OK(MPI_File_read_at(fh, 0, all, total, MPI_INT, &st));
    for (int r = 0, at = 0; r < size; r++)
        for (int i = 0; i <= r; i++, at++)
            CHECK(all[at] == r, "write_ordered: element %d is %d, expected %d", at, all[at], r);
    free(all);
    /* a second round continues where the first ended */
    CHECK_OK(MPI_File_write_ordered(fh, mine, rank + 1, MPI_INT, &st));
    make_visible(fh, MPI_COMM_WORLD);
    CHECK_OK(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == 2 * total, "shared pointer %lld after two write_ordered, expected %d", (long long)pos, 2 * total);
    MPI_Barrier(MPI_COMM_WORLD);

    /* collective seeks */
    CHECK_OK(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
    CHECK_OK(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == 0, "seek_shared 0 SET: at %lld", (long long)pos);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_OK(MPI_File_seek_shared(fh, total, MPI_SEEK_SET));
    CHECK_OK(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == total, "seek_shared %d SET: at %lld", total, (long long)pos);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_OK(MPI_File_seek_shared(fh, -total, MPI_SEEK_CUR));
    CHECK_OK(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == 0, "seek_shared -%d CUR: at %lld", total, (long long)pos);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_OK(MPI_File_seek_shared(fh, -total, MPI_SEEK_END));
    CHECK_OK(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == total, "seek_shared -%d END: at %lld", total, (long long)pos);
    MPI_Barrier(MPI_COMM_WORLD);
    /* read_ordered from there: each rank gets its own run again */
    int back[64];
    for (int i = 0; i < 64; i++)
        back[i] = -1;
    CHECK_OK(MPI_File_read_ordered(fh, back, rank + 1, MPI_INT, &st));
    for (int i = 0; i <= rank; i++)
        CHECK(back[i] == rank, "read_ordered: element %d is %d", i, back[i]);
    CHECK(back[rank + 1] == -1, "read_ordered read too much");
    /* the individual pointer was never used */
    CHECK_OK(MPI_File_get_position(fh, &pos));
    CHECK(pos == 0, "individual pointer moved to %lld by shared accesses", (long long)pos);
    /* and moving it leaves the shared one alone */
    CHECK_OK(MPI_File_seek(fh, 3, MPI_SEEK_SET));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_OK(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == 2 * total, "shared pointer at %lld, expected %d", (long long)pos, 2 * total);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_OK(MPI_File_close(&fh));
}

/* Two halves of MPI_COMM_WORLD each log into their own file at once. */
static void test_two_groups(MPI_Datatype rectype)
{
    MPI_Comm half;
    int color = rank % 2;
    MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
    int hsize;
    MPI_Comm_size(half, &hsize);
    char path[IO_PATH_MAX], name[32];
    snprintf(name, sizeof name, "half%d.dat", color);
    io_path(dir, name, path);
    MPI_File fh;
    CHECK_OK(MPI_File_open(half, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL,
                           &fh));
    CHECK_OK(MPI_File_set_view(fh, 0, rectype, rectype, "native", MPI_INFO_NULL));
    struct record rec;
    MPI_Status st;
    for (int s = 0; s < RECORDS; s++) {
        fill_record(&rec, rank, s);
        CHECK_OK(MPI_File_write_shared(fh, &rec, 1, rectype, &st));
    }
    make_visible(fh, half);
    MPI_Offset pos;
    CHECK_OK(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == (MPI_Offset)RECORDS * hsize, "group %d: shared pointer at %lld, expected %d", color, (long long)pos,
          RECORDS * hsize);
    struct record *all = malloc(sizeof(struct record) * RECORDS * (size_t)hsize);
    int *count = calloc((size_t)size, sizeof(int));
    CHECK(all != NULL && count != NULL, "out of memory");
    CHECK_OK(MPI_File_read_at(fh, 0, all, RECORDS * hsize, rectype, &st));
    for (int i = 0; i < RECORDS * hsize; i++) {
        CHECK(record_ok(&all[i]) && all[i].rank % 2 == color, "group %d: record %d is damaged or foreign", color, i);
        CHECK(all[i].seq == count[all[i].rank], "group %d: record %d out of order", color, i);
        count[all[i].rank]++;
    }
    free(count);
    free(all);
    CHECK_OK(MPI_File_close(&fh));
    MPI_Comm_free(&half);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size <= 63, "at most 63 ranks");
    io_make_scratch_dir(MPI_COMM_WORLD, "io_shared", dir);
    MPI_Datatype rectype;
    MPI_Type_contiguous(sizeof(struct record), MPI_BYTE, &rectype);
    MPI_Type_commit(&rectype);
    test_log(rectype);
    test_ordered_and_seek();
    test_two_groups(rectype);
    MPI_Type_free(&rectype);
    io_remove_scratch_dir(MPI_COMM_WORLD, dir);
    if (rank == 0)
        printf("io_shared: ok\n");
    MPI_Finalize();
    return 0;
}
