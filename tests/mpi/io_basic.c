/*
 * io_basic.c: file manipulation (MPI-2.2 13.2, 13.6.1, 13.7): open and close
 * with every access mode (CREATE, EXCL, RDONLY, RDWR, WRONLY, SEQUENTIAL,
 * DELETE_ON_CLOSE, UNIQUE_OPEN, APPEND) and the errors of invalid ones,
 * get_amode, get_group, get_size/set_size/preallocate, sync, MPI_File_delete,
 * get/set_atomicity, file hints (get_info/set_info), the error handlers of
 * files and of MPI_FILE_NULL, and the Fortran handle conversion.
 */
#include "io_testutil.h"

static int handler_calls;
static int handler_last_code;

static void count_file_errors(MPI_File *fh, int *code, ...)
{
    (void)fh;
    handler_calls++;
    handler_last_code = *code;
}

/* The handler in force on fh is the expected one. */
static void check_errhandler_is(MPI_File fh, MPI_Errhandler expected, const char *what)
{
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    CHECK_OK(MPI_File_get_errhandler(fh, &eh));
    CHECK(eh == expected, "error handler of %s is not the expected one", what);
    /* the returned reference is not freed: some implementations hand out
     * the handle without counting a reference for it */
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char dir[IO_PATH_MAX], path[IO_PATH_MAX], missing[IO_PATH_MAX], own[IO_PATH_MAX];
    io_make_scratch_dir(MPI_COMM_WORLD, "io_basic", dir);
    io_path(dir, "shared.dat", path);
    io_path(dir, "missing.dat", missing);
    char own_name[64];
    snprintf(own_name, sizeof own_name, "rank%d.dat", rank);
    io_path(dir, own_name, own);

    /* the default handler for files is MPI_ERRORS_RETURN (13.7) */
    check_errhandler_is(MPI_FILE_NULL, MPI_ERRORS_RETURN, "MPI_FILE_NULL");

    /* create, amode, group */
    MPI_File fh = MPI_FILE_NULL;
    int amode_in = MPI_MODE_CREATE | MPI_MODE_RDWR;
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, amode_in, MPI_INFO_NULL, &fh));
    CHECK(fh != MPI_FILE_NULL, "open returned MPI_FILE_NULL");
    check_errhandler_is(fh, MPI_ERRORS_RETURN, "a new file");
    int amode = -1;
    CHECK_OK(MPI_File_get_amode(fh, &amode));
    CHECK(amode == amode_in, "get_amode gave %d, expected %d", amode, amode_in);
    MPI_Group fgroup, wgroup;
    CHECK_OK(MPI_File_get_group(fh, &fgroup));
    MPI_Comm_group(MPI_COMM_WORLD, &wgroup);
    int cmp = MPI_UNEQUAL;
    MPI_Group_compare(fgroup, wgroup, &cmp);
    CHECK(cmp == MPI_IDENT, "file group compares %d to MPI_COMM_WORLD's", cmp);
    MPI_Group_free(&fgroup);
    MPI_Group_free(&wgroup);

    /* sizes: a new file is empty; set_size grows and truncates;
     * preallocate never shrinks. Size changes are writes (13.6.9): seen by
     * all after sync, barrier, sync, and read by all before the next. */
    MPI_Offset fsize = -1;
    CHECK_OK(MPI_File_get_size(fh, &fsize));
    CHECK(fsize == 0, "new file has size %lld", (long long)fsize);
    MPI_Barrier(MPI_COMM_WORLD);
    struct {
        int preallocate;
        MPI_Offset arg, expected;
    } steps[] = {{0, 1000, 1000}, {0, 100, 100}, {1, 4096, 4096}, {1, 10, 4096}, {0, 0, 0}};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        if (steps[i].preallocate)
            CHECK_OK(MPI_File_preallocate(fh, steps[i].arg));
        else
            CHECK_OK(MPI_File_set_size(fh, steps[i].arg));
        CHECK_OK(MPI_File_sync(fh));
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK_OK(MPI_File_sync(fh));
        CHECK_OK(MPI_File_get_size(fh, &fsize));
        CHECK(fsize == steps[i].expected, "after %s(%lld) the size is %lld, expected %lld",
              steps[i].preallocate ? "preallocate" : "set_size", (long long)steps[i].arg, (long long)fsize,
              (long long)steps[i].expected);
        MPI_Barrier(MPI_COMM_WORLD);
    }

    /* each rank writes its rank at offset 4*rank, sync, everybody reads all */
    int val = 1000 + rank;
    MPI_Status st;
    CHECK_OK(MPI_File_write_at(fh, (MPI_Offset)rank * 4, &val, 1, MPI_INT, &st));
    CHECK_OK(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_OK(MPI_File_sync(fh));
    for (int r = 0; r < size; r++) {
        int got = -1;
        CHECK_OK(MPI_File_read_at(fh, (MPI_Offset)r * 4, &got, 1, MPI_INT, &st));
        CHECK(got == 1000 + r, "read %d at slot %d, expected %d", got, r, 1000 + r);
    }
    CHECK_OK(MPI_File_get_size(fh, &fsize));
    CHECK(fsize == 4 * size, "size after writes is %lld", (long long)fsize);

    /* atomicity: off by default, switchable */
    int atom = -1;
    CHECK_OK(MPI_File_get_atomicity(fh, &atom));
    CHECK(atom == 0, "atomic mode on by default");
    CHECK_OK(MPI_File_set_atomicity(fh, 1));
    CHECK_OK(MPI_File_get_atomicity(fh, &atom));
    CHECK(atom != 0, "set_atomicity(true) did not stick");
    CHECK_OK(MPI_File_write_at(fh, (MPI_Offset)rank * 4, &val, 1, MPI_INT, &st));
    CHECK_OK(MPI_File_set_atomicity(fh, 0));
    CHECK_OK(MPI_File_get_atomicity(fh, &atom));
    CHECK(atom == 0, "set_atomicity(false) did not stick");

    /* hints: the implementation reports the ones it uses; set_info takes
     * new ones (which it may ignore) */
    MPI_Info used = MPI_INFO_NULL;
    CHECK_OK(MPI_File_get_info(fh, &used));
    CHECK(used != MPI_INFO_NULL, "get_info gave MPI_INFO_NULL");
    int nkeys = 0;
    MPI_Info_get_nkeys(used, &nkeys);
    CHECK(nkeys > 0, "get_info reports no hints at all");
    MPI_Info_free(&used);
    MPI_Info hints;
    MPI_Info_create(&hints);
    MPI_Info_set(hints, "cb_buffer_size", "1048576");
    MPI_Info_set(hints, "access_style", "read_mostly");
    CHECK_OK(MPI_File_set_info(fh, hints));
    MPI_Info_free(&hints);
    CHECK_OK(MPI_File_get_info(fh, &used));
    MPI_Info_free(&used);

    /* Fortran handle round trip */
    MPI_Fint f = MPI_File_c2f(fh);
    CHECK(MPI_File_f2c(f) == fh, "MPI_File_f2c(MPI_File_c2f(fh)) is another handle");
    CHECK(MPI_File_f2c(MPI_File_c2f(MPI_FILE_NULL)) == MPI_FILE_NULL, "MPI_FILE_NULL does not round trip");

    /* error handlers on a file: a user handler sees errors raised on the
     * file, including by call_errhandler */
    MPI_Errhandler mine;
    CHECK_OK(MPI_File_create_errhandler(count_file_errors, &mine));
    CHECK_OK(MPI_File_set_errhandler(fh, mine));
    check_errhandler_is(fh, mine, "the file after set_errhandler");
    handler_calls = 0;
    CHECK_OK(MPI_File_call_errhandler(fh, MPI_ERR_IO));
    CHECK(handler_calls == 1 && handler_last_code == MPI_ERR_IO,
          "call_errhandler: handler called %d times with code %d", handler_calls, handler_last_code);
    /* a failing call on the file: seek to a negative position */
    handler_calls = 0;
    int rc = MPI_File_seek(fh, -10, MPI_SEEK_SET);
    CHECK(rc != MPI_SUCCESS, "seek to -10 succeeded");
    CHECK(handler_calls == 1, "failing seek called the file's handler %d times", handler_calls);
    CHECK_OK(MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_File_close(&fh));
    CHECK(fh == MPI_FILE_NULL, "close did not set the handle to MPI_FILE_NULL");

    /* the handler of MPI_FILE_NULL is used by open failures and inherited
     * by files opened afterwards */
    CHECK_OK(MPI_File_set_errhandler(MPI_FILE_NULL, mine));
    check_errhandler_is(MPI_FILE_NULL, mine, "MPI_FILE_NULL after set_errhandler");
    handler_calls = 0;
    rc = MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    CHECK(rc != MPI_SUCCESS, "opening a missing file succeeded");
    CHECK(handler_calls == 1, "failed open called MPI_FILE_NULL's handler %d times", handler_calls);
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    check_errhandler_is(fh, mine, "a file opened after MPI_FILE_NULL's handler changed");
    CHECK_OK(MPI_File_close(&fh));
    CHECK_OK(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN));
    MPI_Errhandler_free(&mine);

    /* modes that are invalid by themselves (13.2.1) */
    CHECK_ERR(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_RDONLY, MPI_INFO_NULL, &fh), MPI_ERR_AMODE);
    CHECK_ERR(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh), MPI_ERR_AMODE);
    CHECK_ERR(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_CREATE, MPI_INFO_NULL, &fh), MPI_ERR_AMODE);
    CHECK_ERR(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_EXCL, MPI_INFO_NULL, &fh), MPI_ERR_AMODE);
    CHECK_ERR(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL, MPI_INFO_NULL, &fh), MPI_ERR_AMODE);
    CHECK_ERR(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE, MPI_INFO_NULL, &fh), MPI_ERR_AMODE);
    CHECK(fh == MPI_FILE_NULL, "a failed open changed the handle");

    /* EXCL on an existing file */
    CHECK_ERR(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_RDWR, MPI_INFO_NULL, &fh),
              MPI_ERR_FILE_EXISTS);
    /* missing file without CREATE */
    CHECK_ERR(MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDWR, MPI_INFO_NULL, &fh), MPI_ERR_NO_SUCH_FILE);
    CHECK(!io_exists(missing), "a failed open without CREATE made the file");

    /* read only: reads work, writes fail */
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    int got = -1;
    CHECK_OK(MPI_File_read_at(fh, 0, &got, 1, MPI_INT, &st));
    CHECK(got == 1000, "read-only open reads %d", got);
    rc = MPI_File_write_at(fh, 0, &val, 1, MPI_INT, &st);
    int cls = -1;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_READ_ONLY || cls == MPI_ERR_ACCESS, "write to a read-only file gave class %d", cls);
    CHECK_OK(MPI_File_close(&fh));

    /* write only: writes work */
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY, MPI_INFO_NULL, &fh));
    CHECK_OK(MPI_File_write_at(fh, (MPI_Offset)rank * 4, &val, 1, MPI_INT, &st));
    CHECK_OK(MPI_File_close(&fh));

    /* sequential: shared pointer only; explicit offsets are erroneous */
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_SEQUENTIAL, MPI_INFO_NULL, &fh));
    rc = MPI_File_read_at(fh, 0, &got, 1, MPI_INT, &st);
    CHECK(rc != MPI_SUCCESS, "read_at on a file opened with MPI_MODE_SEQUENTIAL succeeded");
    CHECK_OK(MPI_File_read_ordered(fh, &got, 1, MPI_INT, &st));
    CHECK(got == 1000 + rank, "read_ordered on a sequential file read %d", got);
    CHECK_OK(MPI_File_close(&fh));

    /* append: both file pointers start at the end (13.2.1) */
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_APPEND, MPI_INFO_NULL, &fh));
    MPI_Offset pos = -1;
    CHECK_OK(MPI_File_get_position(fh, &pos));
    CHECK(pos == 4 * size, "append: individual pointer starts at %lld, expected %d", (long long)pos, 4 * size);
    CHECK_OK(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == 4 * size, "append: shared pointer starts at %lld, expected %d", (long long)pos, 4 * size);
    MPI_Barrier(MPI_COMM_WORLD); /* everybody read the shared pointer before it moves */
    CHECK_OK(MPI_File_write_ordered(fh, &val, 1, MPI_INT, &st));
    /* the others' writes are visible after sync, barrier, sync (13.6.10) */
    CHECK_OK(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_OK(MPI_File_sync(fh));
    CHECK_OK(MPI_File_get_size(fh, &fsize));
    CHECK(fsize == 8 * size, "append: size after write_ordered is %lld", (long long)fsize);
    CHECK_OK(MPI_File_read_at(fh, 4 * size + 4 * rank, &got, 1, MPI_INT, &st));
    CHECK(got == val, "append: appended record %d", got);
    CHECK_OK(MPI_File_close(&fh));

    /* unique open: plain use */
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_UNIQUE_OPEN, MPI_INFO_NULL, &fh));
    CHECK_OK(MPI_File_read_at(fh, 4 * rank, &got, 1, MPI_INT, &st));
    CHECK(got == val, "unique open: read %d", got);
    CHECK_OK(MPI_File_close(&fh));

    /* a file outlives the communicator it was opened with */
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    CHECK_OK(MPI_File_open(dup, path, MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    MPI_Comm_free(&dup);
    CHECK_OK(MPI_File_write_at_all(fh, 4 * rank, &val, 1, MPI_INT, &st));
    CHECK_OK(MPI_File_read_at_all(fh, 4 * rank, &got, 1, MPI_INT, &st));
    CHECK(got == val, "after freeing the communicator: read %d", got);
    CHECK_OK(MPI_File_get_group(fh, &fgroup));
    int gsize = -1;
    MPI_Group_size(fgroup, &gsize);
    CHECK(gsize == size, "group of a file whose communicator is freed has %d members", gsize);
    MPI_Group_free(&fgroup);
    CHECK_OK(MPI_File_close(&fh));

    /* offsets past 4 GiB (a sparse file): 64-bit offsets all the way */
    {
        MPI_File big;
        char bigname[IO_PATH_MAX], bn[64];
        snprintf(bn, sizeof bn, "big%d.dat", rank);
        io_path(dir, bn, bigname);
        CHECK_OK(MPI_File_open(MPI_COMM_SELF, bigname, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                               MPI_INFO_NULL, &big));
        const MPI_Offset far = (MPI_Offset)5 << 30;
        int four[4] = {11, 22, 33, 44 + rank}, back4[4] = {0};
        CHECK_OK(MPI_File_write_at(big, far, four, 4, MPI_INT, &st));
        CHECK_OK(MPI_File_get_size(big, &fsize));
        CHECK(fsize == far + 16, "after a write at 5 GiB the size is %lld", (long long)fsize);
        CHECK_OK(MPI_File_read_at(big, far, back4, 4, MPI_INT, &st));
        CHECK(memcmp(four, back4, sizeof four) == 0, "read back at 5 GiB: %d %d %d %d", back4[0], back4[1], back4[2],
              back4[3]);
        /* the same through a view whose displacement is past 4 GiB, in
         * etype units past 2^31 */
        CHECK_OK(MPI_File_set_view(big, far - 8, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
        CHECK_OK(MPI_File_read_at(big, 2, back4, 1, MPI_INT, &st));
        CHECK(back4[0] == 11, "view at 5 GiB - 8: element 2 is %d", back4[0]);
        CHECK_OK(MPI_File_set_view(big, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
        CHECK_OK(MPI_File_seek(big, far / 4 + 3, MPI_SEEK_SET));
        MPI_Offset bpos;
        CHECK_OK(MPI_File_get_position(big, &bpos));
        CHECK(bpos == far / 4 + 3, "position %lld after a seek past 2^31 ints", (long long)bpos);
        CHECK_OK(MPI_File_read(big, back4, 1, MPI_INT, &st));
        CHECK(back4[0] == 44 + rank, "read after a seek past 2^31 ints: %d", back4[0]);
        CHECK_OK(MPI_File_get_byte_offset(big, bpos, &bpos));
        CHECK(bpos == far + 12, "byte offset %lld, expected %lld", (long long)bpos, (long long)(far + 12));
        CHECK_OK(MPI_File_close(&big));
    }

    /* per-rank files on MPI_COMM_SELF; delete on close */
    CHECK_OK(MPI_File_open(MPI_COMM_SELF, own, MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_DELETE_ON_CLOSE,
                           MPI_INFO_NULL, &fh));
    CHECK(io_exists(own), "file opened with CREATE does not exist");
    CHECK_OK(MPI_File_write(fh, &val, 1, MPI_INT, &st));
    CHECK_OK(MPI_File_close(&fh));
    CHECK(!io_exists(own), "file opened with DELETE_ON_CLOSE survives its close");

    /* MPI_File_delete: of a closed file, then of a missing one */
    CHECK_OK(MPI_File_open(MPI_COMM_SELF, own, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh));
    CHECK_OK(MPI_File_close(&fh));
    CHECK_OK(MPI_File_delete(own, MPI_INFO_NULL));
    CHECK(!io_exists(own), "MPI_File_delete left the file");
    CHECK_ERR(MPI_File_delete(own, MPI_INFO_NULL), MPI_ERR_NO_SUCH_FILE);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        CHECK_OK(MPI_File_delete(path, MPI_INFO_NULL));
    io_remove_scratch_dir(MPI_COMM_WORLD, dir);
    if (rank == 0)
        printf("io_basic: ok\n");
    MPI_Finalize();
    return 0;
}
