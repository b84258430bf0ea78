/*
 * io_split.c: double buffering with split collective I/O (the pattern of
 * MPI-2.2 13.9.2's example): while one buffer is being written with
 * write_all_begin/_end the program fills the other. Every step writes one
 * block per rank through an interleaving view; the file is checked, then
 * read back the same way (read_all_begin/_end), with explicit offsets
 * (write_at_all_begin, read_at_all_begin) and in rank order
 * (write_ordered_begin, read_ordered_begin). Last, the MPI-3 way: several
 * nonblocking collectives (iwrite_at_all, iread_all) in flight at once.
 */
#include "io_testutil.h"

static int rank, size;
static char dir[IO_PATH_MAX];

#define BLOCK 256 /* ints per rank and step */
#define STEPS 9

static int value(int step, int r, int i)
{
    return step * 1000000 + r * 1000 + i % 1000;
}

/* "compute" the data of one step */
static void compute(int *buf, int step)
{
    for (int i = 0; i < BLOCK; i++)
        buf[i] = value(step, rank, i);
}

static void check_block(const char *what, const int *buf, int step, int r)
{
    for (int i = 0; i < BLOCK; i++)
        CHECK(buf[i] == value(step, r, i), "%s: step %d rank %d element %d is %d, expected %d", what, step, r, i,
              buf[i], value(step, r, i));
}

static void check_count(const char *what, MPI_Status *st, int expected)
{
    int cnt = -1;
    MPI_Get_count(st, MPI_INT, &cnt);
    CHECK(cnt == expected, "%s: count %d, expected %d", what, cnt, expected);
}

/* the whole file, contiguously: step-major, then rank, then element */
static void check_file(const char *what, MPI_File fh)
{
    CHECK_OK(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_OK(MPI_File_sync(fh));
    MPI_Offset fsize;
    CHECK_OK(MPI_File_get_size(fh, &fsize));
    CHECK(fsize == (MPI_Offset)STEPS * size * BLOCK * 4, "%s: file size %lld", what, (long long)fsize);
    int *blockbuf = malloc(sizeof(int) * BLOCK);
    CHECK(blockbuf != NULL, "out of memory");
    MPI_Status st;
    /* each rank checks a different subset of blocks */
    for (int b = rank; b < STEPS * size; b += size) {
        CHECK_OK(MPI_File_read_at(fh, (MPI_Offset)b * BLOCK, blockbuf, BLOCK, MPI_INT, &st));
        check_block(what, blockbuf, b / size, b % size);
    }
    free(blockbuf);
}

static MPI_File open_file(const char *name, MPI_Datatype filetype)
{
    char path[IO_PATH_MAX];
    io_path(dir, name, path);
    MPI_File fh;
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                           MPI_INFO_NULL, &fh));
    if (filetype != MPI_DATATYPE_NULL)
        CHECK_OK(MPI_File_set_view(fh, (MPI_Offset)rank * BLOCK * 4, MPI_INT, filetype, "native", MPI_INFO_NULL));
    else
        CHECK_OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    return fh;
}

/* Restores the contiguous view for check_file. */
static void plain_view(MPI_File fh)
{
    CHECK_OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
}

/* write_all_begin/_end with the individual pointer through the view;
 * read back with read_all_begin/_end. */
static void individual_pointer(MPI_Datatype filetype)
{
    static int buffers[2][BLOCK];
    MPI_File fh = open_file("split_all.dat", filetype);
    MPI_Status st;
    for (int step = 0; step < STEPS; step++) {
        int *cur = buffers[step % 2];
        compute(cur, step); /* the other buffer may still be in flight */
        if (step > 0) {
            CHECK_OK(MPI_File_write_all_end(fh, buffers[(step - 1) % 2], &st));
            check_count("write_all_end", &st, BLOCK);
        }
        CHECK_OK(MPI_File_write_all_begin(fh, cur, BLOCK, MPI_INT));
    }
    CHECK_OK(MPI_File_write_all_end(fh, buffers[(STEPS - 1) % 2], &st));
    check_count("last write_all_end", &st, BLOCK);
    MPI_Offset pos;
    CHECK_OK(MPI_File_get_position(fh, &pos));
    CHECK(pos == STEPS * BLOCK, "individual pointer at %lld after the writes", (long long)pos);
    plain_view(fh);
    check_file("write_all_begin", fh);

    /* read back, double buffered: check one while the next arrives */
    CHECK_OK(MPI_File_set_view(fh, (MPI_Offset)rank * BLOCK * 4, MPI_INT, filetype, "native", MPI_INFO_NULL));
    memset(buffers, 0xff, sizeof buffers);
    CHECK_OK(MPI_File_read_all_begin(fh, buffers[0], BLOCK, MPI_INT));
    for (int step = 0; step < STEPS; step++) {
        CHECK_OK(MPI_File_read_all_end(fh, buffers[step % 2], &st));
        check_count("read_all_end", &st, BLOCK);
        if (step + 1 < STEPS)
            CHECK_OK(MPI_File_read_all_begin(fh, buffers[(step + 1) % 2], BLOCK, MPI_INT));
        check_block("read_all_begin", buffers[step % 2], step, rank);
        memset(buffers[step % 2], 0xff, sizeof buffers[0]);
    }
    CHECK_OK(MPI_File_close(&fh));
}

/* The same with explicit offsets (a contiguous view). */
static void explicit_offsets(void)
{
    static int buffers[2][BLOCK];
    MPI_File fh = open_file("split_at.dat", MPI_DATATYPE_NULL);
    MPI_Status st;
    for (int step = 0; step < STEPS; step++) {
        int *cur = buffers[step % 2];
        compute(cur, step);
        if (step > 0) {
            CHECK_OK(MPI_File_write_at_all_end(fh, buffers[(step - 1) % 2], &st));
            check_count("write_at_all_end", &st, BLOCK);
        }
        MPI_Offset off = ((MPI_Offset)step * size + rank) * BLOCK;
        CHECK_OK(MPI_File_write_at_all_begin(fh, off, cur, BLOCK, MPI_INT));
    }
    CHECK_OK(MPI_File_write_at_all_end(fh, buffers[(STEPS - 1) % 2], &st));
    check_count("last write_at_all_end", &st, BLOCK);
    MPI_Offset pos;
    CHECK_OK(MPI_File_get_position(fh, &pos));
    CHECK(pos == 0, "explicit offsets moved the individual pointer to %lld", (long long)pos);
    check_file("write_at_all_begin", fh);

    /* read the blocks of the rank to the left, in reverse step order */
    int left = (rank + size - 1) % size;
    memset(buffers, 0xff, sizeof buffers);
    for (int j = 0; j <= STEPS; j++) {
        if (j > 0) {
            int step = STEPS - j;
            CHECK_OK(MPI_File_read_at_all_end(fh, buffers[step % 2], &st));
            check_count("read_at_all_end", &st, BLOCK);
            check_block("read_at_all_begin", buffers[step % 2], step, left);
        }
        if (j < STEPS) {
            int step = STEPS - 1 - j;
            MPI_Offset off = ((MPI_Offset)step * size + left) * BLOCK;
            CHECK_OK(MPI_File_read_at_all_begin(fh, off, buffers[step % 2], BLOCK, MPI_INT));
        }
    }
    CHECK_OK(MPI_File_close(&fh));
}

/* write_ordered_begin/_end: every step the ranks' blocks follow in rank
 * order, so the file has the same layout. */
static void ordered(void)
{
    static int buffers[2][BLOCK];
    MPI_File fh = open_file("split_ordered.dat", MPI_DATATYPE_NULL);
    MPI_Status st;
    for (int step = 0; step < STEPS; step++) {
        int *cur = buffers[step % 2];
        compute(cur, step);
        if (step > 0) {
            CHECK_OK(MPI_File_write_ordered_end(fh, buffers[(step - 1) % 2], &st));
            check_count("write_ordered_end", &st, BLOCK);
        }
        CHECK_OK(MPI_File_write_ordered_begin(fh, cur, BLOCK, MPI_INT));
    }
    CHECK_OK(MPI_File_write_ordered_end(fh, buffers[(STEPS - 1) % 2], &st));
    check_count("last write_ordered_end", &st, BLOCK);
    check_file("write_ordered_begin", fh);
    MPI_Offset pos;
    CHECK_OK(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == (MPI_Offset)STEPS * size * BLOCK, "shared pointer at %lld after the ordered writes",
          (long long)pos);
    MPI_Barrier(MPI_COMM_WORLD); /* all read the pointer before it moves */

    CHECK_OK(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
    memset(buffers, 0xff, sizeof buffers);
    CHECK_OK(MPI_File_read_ordered_begin(fh, buffers[0], BLOCK, MPI_INT));
    for (int step = 0; step < STEPS; step++) {
        CHECK_OK(MPI_File_read_ordered_end(fh, buffers[step % 2], &st));
        check_count("read_ordered_end", &st, BLOCK);
        if (step + 1 < STEPS)
            CHECK_OK(MPI_File_read_ordered_begin(fh, buffers[(step + 1) % 2], BLOCK, MPI_INT));
        check_block("read_ordered_begin", buffers[step % 2], step, rank);
        memset(buffers[step % 2], 0xff, sizeof buffers[0]);
    }
    CHECK_OK(MPI_File_close(&fh));
}

/* MPI-3 nonblocking collectives: all steps' writes in flight together,
 * then all reads (through the view, in order of the individual pointer). */
static void nonblocking_collectives(MPI_Datatype filetype)
{
    static int data[STEPS][BLOCK], back[STEPS][BLOCK];
    MPI_Request reqs[STEPS];
    MPI_Status sts[STEPS];
    MPI_File fh = open_file("nbc.dat", MPI_DATATYPE_NULL);
    for (int step = 0; step < STEPS; step++) {
        compute(data[step], step);
        MPI_Offset off = ((MPI_Offset)step * size + rank) * BLOCK;
        CHECK_OK(MPI_File_iwrite_at_all(fh, off, data[step], BLOCK, MPI_INT, &reqs[step]));
    }
    /* other collectives on the communicator meanwhile */
    int one = 1, sum = 0;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum == size, "allreduce during nonblocking collective writes: %d", sum);
    MPI_Barrier(MPI_COMM_WORLD);
    /* completed by polling: MPI_Testall must make progress by itself */
    int all_done = 0;
    while (!all_done)
        CHECK_OK(MPI_Testall(STEPS, reqs, &all_done, sts));
    for (int step = 0; step < STEPS; step++)
        check_count("iwrite_at_all", &sts[step], BLOCK);
    check_file("iwrite_at_all", fh);
    CHECK_OK(MPI_File_set_view(fh, (MPI_Offset)rank * BLOCK * 4, MPI_INT, filetype, "native", MPI_INFO_NULL));
    memset(back, 0xff, sizeof back);
    for (int step = 0; step < STEPS; step++)
        CHECK_OK(MPI_File_iread_all(fh, back[step], BLOCK, MPI_INT, &reqs[step]));
    MPI_Barrier(MPI_COMM_WORLD);
    /* complete them in reverse */
    for (int step = STEPS - 1; step >= 0; step--) {
        CHECK_OK(MPI_Wait(&reqs[step], &sts[step]));
        check_count("iread_all", &sts[step], BLOCK);
        check_block("iread_all", back[step], step, rank);
    }
    CHECK_OK(MPI_File_close(&fh));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    io_make_scratch_dir(MPI_COMM_WORLD, "io_split", dir);
    /* the view: one block per rank in turn */
    MPI_Datatype filetype, block;
    MPI_Type_contiguous(BLOCK, MPI_INT, &block);
    MPI_Type_create_resized(block, 0, (MPI_Aint)size * BLOCK * 4, &filetype);
    MPI_Type_commit(&filetype);
    MPI_Type_free(&block);

    individual_pointer(filetype);
    explicit_offsets();
    ordered();
    nonblocking_collectives(filetype);

    MPI_Type_free(&filetype);
    io_remove_scratch_dir(MPI_COMM_WORLD, dir);
    if (rank == 0)
        printf("io_split: ok\n");
    MPI_Finalize();
    return 0;
}
