/*
 * io_datarep.c: data representations (MPI-2.2 13.5): "external32" (ints,
 * shorts and doubles written through an external32 view are big-endian
 * IEEE in the file; read back through the view they are the values again;
 * get_type_extent in external32 sizes), "internal", user representations
 * made with MPI_Register_datarep (conversion callbacks called and data
 * round-tripping, also through a view with holes and collectively;
 * MPI_CONVERSION_FN_NULL), a name registered twice (MPI_ERR_DUP_DATAREP)
 * and an unknown name in set_view (MPI_ERR_UNSUPPORTED_DATAREP).
 */
#include "io_testutil.h"

static int rank, size;
static char dir[IO_PATH_MAX];

/* counters of one user representation's callbacks */
struct datarep_calls {
    int reads;
    int writes;
    int extents;
};

/* "tide_plus1": ints are stored as value+1 (native byte order) */
static int plus1_read(void *userbuf, MPI_Datatype datatype, int count, void *filebuf, MPI_Offset position,
                      void *extra)
{
    struct datarep_calls *calls = extra;
    calls->reads++;
    if (datatype != MPI_INT)
        return MPI_ERR_TYPE;
    int *user = (int *)userbuf + position;
    const int *file = filebuf;
    for (int i = 0; i < count; i++)
        user[i] = file[i] - 1;
    return MPI_SUCCESS;
}

static int plus1_write(void *userbuf, MPI_Datatype datatype, int count, void *filebuf, MPI_Offset position,
                       void *extra)
{
    struct datarep_calls *calls = extra;
    calls->writes++;
    if (datatype != MPI_INT)
        return MPI_ERR_TYPE;
    const int *user = (const int *)userbuf + position;
    int *file = filebuf;
    for (int i = 0; i < count; i++)
        file[i] = user[i] + 1;
    return MPI_SUCCESS;
}

static int native_extent(MPI_Datatype datatype, MPI_Aint *extent, void *extra)
{
    struct datarep_calls *calls = extra;
    calls->extents++;
    MPI_Aint lb;
    return MPI_Type_get_extent(datatype, &lb, extent);
}

static MPI_File open_own(const char *name)
{
    char path[IO_PATH_MAX], fname[64];
    snprintf(fname, sizeof fname, "%s.%d", name, rank);
    io_path(dir, fname, path);
    MPI_File fh;
    CHECK_OK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                           MPI_INFO_NULL, &fh));
    return fh;
}

static void read_raw(MPI_File fh, MPI_Offset off, void *buf, int n)
{
    MPI_Status st;
    CHECK_OK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    CHECK_OK(MPI_File_read_at(fh, off, buf, n, MPI_BYTE, &st));
    int cnt;
    MPI_Get_count(&st, MPI_BYTE, &cnt);
    CHECK(cnt == n, "raw read got %d bytes of %d", cnt, n);
}

static void test_external32(void)
{
    MPI_File fh = open_own("ext32");
    MPI_Status st;
    int ints[3] = {1, 0x01020304, -2 - rank};
    double dbls[2] = {1.5, -2.25};
    short shorts[2] = {0x0102, -1};
    CHECK_OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "external32", MPI_INFO_NULL));
    char rep[MPI_MAX_DATAREP_STRING];
    MPI_Offset disp;
    MPI_Datatype et, ft;
    CHECK_OK(MPI_File_get_view(fh, &disp, &et, &ft, rep));
    CHECK(strcmp(rep, "external32") == 0, "get_view datarep '%s'", rep);
    MPI_Aint ext;
    CHECK_OK(MPI_File_get_type_extent(fh, MPI_INT, &ext));
    CHECK(ext == 4, "external32 extent of MPI_INT %ld", (long)ext);
    CHECK_OK(MPI_File_get_type_extent(fh, MPI_DOUBLE, &ext));
    CHECK(ext == 8, "external32 extent of MPI_DOUBLE %ld", (long)ext);
    CHECK_OK(MPI_File_get_type_extent(fh, MPI_SHORT, &ext));
    CHECK(ext == 2, "external32 extent of MPI_SHORT %ld", (long)ext);
    CHECK_OK(MPI_File_get_type_extent(fh, MPI_CHAR, &ext));
    CHECK(ext == 1, "external32 extent of MPI_CHAR %ld", (long)ext);
    CHECK_OK(MPI_File_write(fh, ints, 3, MPI_INT, &st));
    CHECK_OK(MPI_File_set_view(fh, 12, MPI_DOUBLE, MPI_DOUBLE, "external32", MPI_INFO_NULL));
    CHECK_OK(MPI_File_write(fh, dbls, 2, MPI_DOUBLE, &st));
    CHECK_OK(MPI_File_set_view(fh, 28, MPI_SHORT, MPI_SHORT, "external32", MPI_INFO_NULL));
    CHECK_OK(MPI_File_write(fh, shorts, 2, MPI_SHORT, &st));
    MPI_Offset fsize;
    CHECK_OK(MPI_File_get_size(fh, &fsize));
    CHECK(fsize == 32, "external32 file has %lld bytes, expected 32", (long long)fsize);

    unsigned char raw[32];
    read_raw(fh, 0, raw, 32);
    unsigned int m = (unsigned int)(-2 - rank);
    const unsigned char want[32] = {0, 0, 0, 1, 1, 2, 3, 4, (unsigned char)(m >> 24), (unsigned char)(m >> 16),
                                    (unsigned char)(m >> 8), (unsigned char)m,
                                    0x3f, 0xf8, 0, 0, 0, 0, 0, 0, 0xc0, 0x02, 0, 0, 0, 0, 0, 0,
                                    0x01, 0x02, 0xff, 0xff};
    for (int i = 0; i < 32; i++)
        CHECK(raw[i] == want[i], "external32 byte %d is 0x%02x, expected 0x%02x", i, raw[i], want[i]);

    /* and the same bytes as MPI_Pack_external makes them */
    unsigned char packed[12];
    MPI_Aint ppos = 0;
    MPI_Pack_external("external32", ints, 3, MPI_INT, packed, sizeof packed, &ppos);
    CHECK(ppos == 12 && memcmp(packed, raw, 12) == 0, "external32 file bytes differ from MPI_Pack_external's");

    /* read back through external32 views */
    int ib[3] = {0};
    double db[2] = {0};
    short sb[2] = {0};
    CHECK_OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "external32", MPI_INFO_NULL));
    CHECK_OK(MPI_File_read(fh, ib, 3, MPI_INT, &st));
    CHECK(ib[0] == ints[0] && ib[1] == ints[1] && ib[2] == ints[2], "external32 ints read back as %d %d %d", ib[0],
          ib[1], ib[2]);
    CHECK_OK(MPI_File_set_view(fh, 12, MPI_DOUBLE, MPI_DOUBLE, "external32", MPI_INFO_NULL));
    CHECK_OK(MPI_File_read(fh, db, 2, MPI_DOUBLE, &st));
    CHECK(db[0] == dbls[0] && db[1] == dbls[1], "external32 doubles read back as %g %g", db[0], db[1]);
    CHECK_OK(MPI_File_set_view(fh, 28, MPI_SHORT, MPI_SHORT, "external32", MPI_INFO_NULL));
    CHECK_OK(MPI_File_read_at(fh, 0, sb, 2, MPI_SHORT, &st));
    CHECK(sb[0] == shorts[0] && sb[1] == shorts[1], "external32 shorts read back as %d %d", sb[0], sb[1]);
    CHECK_OK(MPI_File_close(&fh));
}

/* external32 through an interleaved view, written collectively */
static void test_external32_collective(void)
{
    enum { PER = 64 };
    char path[IO_PATH_MAX];
    io_path(dir, "ext32_all.dat", path);
    MPI_File fh;
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                           MPI_INFO_NULL, &fh));
    MPI_Datatype filetype;
    MPI_Type_create_resized(MPI_INT, 0, (MPI_Aint)size * 4, &filetype);
    MPI_Type_commit(&filetype);
    CHECK_OK(MPI_File_set_view(fh, (MPI_Offset)rank * 4, MPI_INT, filetype, "external32", MPI_INFO_NULL));
    int vals[PER];
    for (int i = 0; i < PER; i++)
        vals[i] = (int)((unsigned)(i * size + rank) * 0x01010101u);
    MPI_Status st;
    CHECK_OK(MPI_File_write_all(fh, vals, PER, MPI_INT, &st));
    CHECK_OK(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_OK(MPI_File_sync(fh));
    CHECK_OK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    unsigned char *raw = malloc((size_t)PER * size * 4);
    CHECK(raw != NULL, "out of memory");
    CHECK_OK(MPI_File_read_at_all(fh, 0, raw, PER * size * 4, MPI_BYTE, &st));
    for (int k = 0; k < PER * size; k++) {
        unsigned int v = (unsigned int)k * 0x01010101u;
        unsigned char *p = raw + 4 * k;
        CHECK(p[0] == (unsigned char)(v >> 24) && p[1] == (unsigned char)(v >> 16) &&
                  p[2] == (unsigned char)(v >> 8) && p[3] == (unsigned char)v,
              "external32 collective: int %d is not big-endian %u", k, v);
    }
    free(raw);
    /* the neighbour's ints through its view */
    int other = (rank + 1) % size;
    CHECK_OK(MPI_File_set_view(fh, (MPI_Offset)other * 4, MPI_INT, filetype, "external32", MPI_INFO_NULL));
    int back[PER];
    CHECK_OK(MPI_File_read_all(fh, back, PER, MPI_INT, &st));
    for (int i = 0; i < PER; i++)
        CHECK(back[i] == (int)((unsigned)(i * size + other) * 0x01010101u), "external32 collective read: element %d is %d", i,
              back[i]);
    CHECK_OK(MPI_File_close(&fh));
    MPI_Type_free(&filetype);
}

static void test_internal(void)
{
    MPI_File fh = open_own("internal");
    int vals[10], back[10];
    for (int i = 0; i < 10; i++)
        vals[i] = i * 77 - rank;
    MPI_Status st;
    CHECK_OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "internal", MPI_INFO_NULL));
    CHECK_OK(MPI_File_write(fh, vals, 10, MPI_INT, &st));
    CHECK_OK(MPI_File_read_at(fh, 0, back, 10, MPI_INT, &st));
    for (int i = 0; i < 10; i++)
        CHECK(back[i] == vals[i], "internal: element %d reads %d", i, back[i]);
    CHECK_OK(MPI_File_close(&fh));
}

static struct datarep_calls plus1_calls, null_calls;

static void test_unconverted_datarep(void)
{
    enum { NV = 100 };
    int vals[NV], back[NV], raw[NV];
    for (int i = 0; i < NV; i++)
        vals[i] = i * 5 - rank;
    MPI_File fh;
    MPI_Status st;
    /* no conversion functions: the data is stored as in memory */
    CHECK_OK(MPI_Register_datarep("tide_unconverted", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, native_extent,
                                  &null_calls));
    /* the same name again, or a predefined one */
    CHECK_ERR(MPI_Register_datarep("tide_unconverted", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, native_extent,
                                   &null_calls),
              MPI_ERR_DUP_DATAREP);
#ifndef MPICH_VERSION /* MPICH 4.0 lets a user representation take a predefined name */
    CHECK_ERR(MPI_Register_datarep("external32", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, native_extent,
                                   &null_calls),
              MPI_ERR_DUP_DATAREP);
#endif
    fh = open_own("unconverted");
    int rc = MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "tide_unconverted", MPI_INFO_NULL);
#ifdef MPICH_VERSION
    /* MPICH 4.0 registers representations but has views only in its own */
    if (rc != MPI_SUCCESS) {
        CHECK_OK(MPI_File_close(&fh));
        return;
    }
#endif
    CHECK_OK(rc);
    CHECK_OK(MPI_File_write(fh, vals, NV, MPI_INT, &st));
    read_raw(fh, 0, raw, NV * 4);
    for (int i = 0; i < NV; i++)
        CHECK(raw[i] == vals[i], "tide_unconverted: file int %d is %d", i, raw[i]);
    CHECK_OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "tide_unconverted", MPI_INFO_NULL));
    CHECK_OK(MPI_File_read(fh, back, NV, MPI_INT, &st));
    for (int i = 0; i < NV; i++)
        CHECK(back[i] == vals[i], "tide_unconverted: element %d reads %d", i, back[i]);
    CHECK_OK(MPI_File_close(&fh));
    CHECK(null_calls.extents > 0, "tide_unconverted: the extent function was not called");
}

static void test_converting_datarep(void)
{
    int rc = MPI_Register_datarep("tide_plus1", plus1_read, plus1_write, native_extent, &plus1_calls);
#ifdef MPICH_VERSION
    /* MPICH 4.0 refuses representations with conversion functions */
    if (rc != MPI_SUCCESS)
        return;
#endif
    CHECK_OK(rc);
    CHECK_ERR(MPI_Register_datarep("tide_plus1", plus1_read, plus1_write, native_extent, &plus1_calls),
              MPI_ERR_DUP_DATAREP);

    enum { NV = 100 };
    int vals[NV], back[NV], raw[NV];
    for (int i = 0; i < NV; i++)
        vals[i] = i * 3 + rank * 1000;
    MPI_File fh = open_own("plus1");
    MPI_Status st;
    CHECK_OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "tide_plus1", MPI_INFO_NULL));
    char rep[MPI_MAX_DATAREP_STRING];
    MPI_Offset disp;
    MPI_Datatype et, ft;
    CHECK_OK(MPI_File_get_view(fh, &disp, &et, &ft, rep));
    CHECK(strcmp(rep, "tide_plus1") == 0, "get_view datarep '%s'", rep);
    MPI_Aint ext;
    CHECK_OK(MPI_File_get_type_extent(fh, MPI_INT, &ext));
    CHECK(ext == 4, "tide_plus1 extent of MPI_INT %ld", (long)ext);
    CHECK_OK(MPI_File_write(fh, vals, NV, MPI_INT, &st));
    int cnt;
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == NV, "tide_plus1 write count %d", cnt);
    CHECK(plus1_calls.writes > 0, "the write conversion was not called");
    CHECK(plus1_calls.extents > 0, "the extent function was not called");
    read_raw(fh, 0, raw, NV * 4);
    for (int i = 0; i < NV; i++)
        CHECK(raw[i] == vals[i] + 1, "tide_plus1: file int %d is %d, expected %d", i, raw[i], vals[i] + 1);
    CHECK_OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "tide_plus1", MPI_INFO_NULL));
    CHECK_OK(MPI_File_read(fh, back, NV, MPI_INT, &st));
    CHECK(plus1_calls.reads > 0, "the read conversion was not called");
    for (int i = 0; i < NV; i++)
        CHECK(back[i] == vals[i], "tide_plus1: element %d reads back %d, expected %d", i, back[i], vals[i]);

    /* through a view with holes: every other int */
    MPI_Datatype every_other;
    MPI_Type_create_resized(MPI_INT, 0, 8, &every_other);
    MPI_Type_commit(&every_other);
    CHECK_OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    CHECK_OK(MPI_File_set_size(fh, 0));
    CHECK_OK(MPI_File_set_view(fh, 4, MPI_INT, every_other, "tide_plus1", MPI_INFO_NULL));
    CHECK_OK(MPI_File_write(fh, vals, NV / 2, MPI_INT, &st));
    read_raw(fh, 0, raw, NV * 4);
    for (int i = 0; i < NV / 2; i++)
        CHECK(raw[2 * i + 1] == vals[i] + 1, "tide_plus1 with holes: file int %d is %d", 2 * i + 1, raw[2 * i + 1]);
    CHECK_OK(MPI_File_set_view(fh, 4, MPI_INT, every_other, "tide_plus1", MPI_INFO_NULL));
    memset(back, 0, sizeof back);
    CHECK_OK(MPI_File_read(fh, back, NV / 2, MPI_INT, &st));
    for (int i = 0; i < NV / 2; i++)
        CHECK(back[i] == vals[i], "tide_plus1 with holes: element %d reads %d", i, back[i]);
    MPI_Type_free(&every_other);
    CHECK_OK(MPI_File_close(&fh));

    /* collectively, every rank writing its block */
    char path[IO_PATH_MAX];
    io_path(dir, "plus1_all.dat", path);
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                           MPI_INFO_NULL, &fh));
    CHECK_OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "tide_plus1", MPI_INFO_NULL));
    CHECK_OK(MPI_File_write_at_all(fh, (MPI_Offset)rank * NV, vals, NV, MPI_INT, &st));
    CHECK_OK(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_OK(MPI_File_sync(fh));
    int other = (rank + 1) % size;
    CHECK_OK(MPI_File_read_at_all(fh, (MPI_Offset)other * NV, back, NV, MPI_INT, &st));
    for (int i = 0; i < NV; i++)
        CHECK(back[i] == i * 3 + other * 1000, "tide_plus1 collective: element %d reads %d", i, back[i]);
    CHECK_OK(MPI_File_close(&fh));

}

static void test_unsupported(void)
{
    MPI_File fh = open_own("unsupported");
    CHECK_ERR(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "no_such_representation", MPI_INFO_NULL),
              MPI_ERR_UNSUPPORTED_DATAREP);
    /* the old view is still there */
    char rep[MPI_MAX_DATAREP_STRING];
    MPI_Offset disp;
    MPI_Datatype et, ft;
    CHECK_OK(MPI_File_get_view(fh, &disp, &et, &ft, rep));
    CHECK(strcmp(rep, "native") == 0 && disp == 0 && et == MPI_BYTE, "a failed set_view changed the view");
    CHECK_OK(MPI_File_close(&fh));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    io_make_scratch_dir(MPI_COMM_WORLD, "io_datarep", dir);
    test_external32();
    test_external32_collective();
    test_internal();
    test_unconverted_datarep();
    test_converting_datarep();
    test_unsupported();
    io_remove_scratch_dir(MPI_COMM_WORLD, dir);
    if (rank == 0)
        printf("io_datarep: ok\n");
    MPI_Finalize();
    return 0;
}
