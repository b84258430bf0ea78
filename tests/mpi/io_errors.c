/*
 * io_errors.c: the I/O error classes (MPI-2.2 13.7, 13.8) under the default
 * file error handler MPI_ERRORS_RETURN, each from a situation that really
 * causes it: MPI_ERR_FILE (MPI_FILE_NULL), MPI_ERR_NO_SUCH_FILE,
 * MPI_ERR_BAD_FILE (a path through a regular file, a name too long),
 * MPI_ERR_ACCESS (no permission: as root, with the effective user id of
 * "nobody" for the moment of the open), MPI_ERR_AMODE, MPI_ERR_READ_ONLY,
 * MPI_ERR_FILE_EXISTS, MPI_ERR_NO_SPACE (/dev/full), MPI_ERR_IO (a read
 * the operating system fails: /proc/self/mem at address 0; a write cut
 * short by RLIMIT_FSIZE), MPI_ERR_UNSUPPORTED_DATAREP, MPI_ERR_DUP_DATAREP,
 * MPI_ERR_CONVERSION (a conversion function that fails),
 * MPI_ERR_UNSUPPORTED_OPERATION (explicit offsets on a sequential file).
 * For each the class and that MPI_Error_string names the failing call.
 * Not reached here: MPI_ERR_FILE_IN_USE (Linux lets open files be deleted,
 * and the standard says "may"), MPI_ERR_QUOTA (no quota set up), and
 * MPI_ERR_READ_ONLY from a read-only file system (none to use).
 */
#define _GNU_SOURCE
#include "io_testutil.h"
#include <errno.h>
#include <pwd.h>
#include <signal.h>
#include <sys/resource.h>

static int rank, size;
static char dir[IO_PATH_MAX];

/* rc is an error of class cls (or of one of two classes) and its message
 * names the function */
static void check_error(int rc, int cls1, int cls2, const char *function, const char *what)
{
    CHECK(rc != MPI_SUCCESS, "%s: %s succeeded", what, function);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == cls1 || cls == cls2, "%s: %s gave error class %d, expected %d or %d", what, function, cls, cls1,
          cls2);
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    CHECK_OK(MPI_Error_string(rc, msg, &len));
    CHECK(len > 0 && (int)strlen(msg) == len, "%s: error string of length %d", what, len);
#ifdef MPICH_VERSION
    (void)function; /* MPICH's messages name the internal routine that failed */
#else
    CHECK(strcasestr(msg, function) != NULL, "%s: the message does not name %s: %s", what, function, msg);
#endif
}

#define EXPECT(call, cls, what) check_error((call), (cls), (cls), function_of(#call), (what))
#define EXPECT2(call, c1, c2, what) check_error((call), (c1), (c2), function_of(#call), (what))

/* "MPI_File_open(...)" -> "MPI_File_open" */
static const char *function_of(const char *call)
{
    static char name[64];
    size_t n = strcspn(call, "(");
    if (n >= sizeof name)
        n = sizeof name - 1;
    memcpy(name, call, n);
    name[n] = '\0';
    return name;
}

static int failing_conversion(void *userbuf, MPI_Datatype datatype, int count, void *filebuf, MPI_Offset position,
                              void *extra)
{
    (void)userbuf, (void)datatype, (void)count, (void)filebuf, (void)position, (void)extra;
    return MPI_ERR_OTHER;
}

static int int_extent(MPI_Datatype datatype, MPI_Aint *extent, void *extra)
{
    (void)extra;
    MPI_Aint lb;
    return MPI_Type_get_extent(datatype, &lb, extent);
}

/* MPI_ERR_ACCESS: a file nobody but its owner may open, and a directory
 * nobody may create files in. Root passes every permission check, so
 * then the opens run with the effective user id of "nobody". */
static void test_access(void)
{
    char locked[IO_PATH_MAX], closed_dir[IO_PATH_MAX], inside[IO_PATH_MAX], name[64];
    snprintf(name, sizeof name, "locked.%d", rank);
    io_path(dir, name, locked);
    snprintf(name, sizeof name, "closed.%d", rank);
    io_path(dir, name, closed_dir);
    io_path(closed_dir, "new.dat", inside);
    FILE *f = fopen(locked, "w");
    CHECK(f != NULL, "cannot make %s", locked);
    fclose(f);
    CHECK(chmod(locked, 0) == 0, "chmod %s", locked);
    CHECK(mkdir(closed_dir, 0555) == 0, "mkdir %s", closed_dir);
    uid_t was = geteuid();
    int switched = 0;
    if (was == 0) {
        struct passwd *nobody = getpwnam("nobody");
        if (nobody == NULL || chmod(dir, 0777) != 0 || seteuid(nobody->pw_uid) != 0) {
            if (rank == 0)
                printf("io_errors: MPI_ERR_ACCESS not tested (running as root without user nobody)\n");
            unlink(locked);
            rmdir(closed_dir);
            return;
        }
        switched = 1;
    }
    MPI_File fh = MPI_FILE_NULL;
    int rc1 = MPI_File_open(MPI_COMM_SELF, locked, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    int rc2 = MPI_File_open(MPI_COMM_SELF, inside, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    if (switched)
        CHECK(seteuid(was) == 0, "cannot return to user id %d", (int)was);
    check_error(rc1, MPI_ERR_ACCESS, MPI_ERR_ACCESS, "MPI_File_open", "a file without permissions");
    check_error(rc2, MPI_ERR_ACCESS, MPI_ERR_ACCESS, "MPI_File_open", "creating in a read-only directory");
    CHECK(fh == MPI_FILE_NULL, "a failed open returned a file");
    unlink(locked);
    rmdir(closed_dir);
}

/* MPI_ERR_NO_SPACE: writes to /dev/full fail with ENOSPC. */
#ifdef MPICH_VERSION
#define NO_SPACE_TOO MPI_ERR_IO /* MPICH 4.0 reports ENOSPC as MPI_ERR_IO */
#else
#define NO_SPACE_TOO MPI_ERR_NO_SPACE
#endif
static void test_no_space(void)
{
    MPI_File fh;
    int rc = MPI_File_open(MPI_COMM_SELF, "/dev/full", MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    if (rc != MPI_SUCCESS) {
        char msg[MPI_MAX_ERROR_STRING];
        int len;
        MPI_Error_string(rc, msg, &len);
        CHECK(0, "cannot open /dev/full: %s", msg);
    }
    char buf[4096];
    memset(buf, 'x', sizeof buf);
    MPI_Status st;
    EXPECT2(MPI_File_write(fh, buf, sizeof buf, MPI_CHAR, &st), MPI_ERR_NO_SPACE, NO_SPACE_TOO, "a write to /dev/full");
    EXPECT2(MPI_File_write_at(fh, 0, buf, 1, MPI_CHAR, &st), MPI_ERR_NO_SPACE, NO_SPACE_TOO, "a write to /dev/full");
#ifndef MPICH_VERSION /* MPICH 4.0 waits forever for this one */
    MPI_Request req;
    int rc2 = MPI_File_iwrite_at(fh, 0, buf, 10, MPI_CHAR, &req);
    if (rc2 == MPI_SUCCESS)
        rc2 = MPI_Wait(&req, &st);
    int cls = -1;
    if (rc2 != MPI_SUCCESS)
        MPI_Error_class(rc2 == MPI_ERR_IN_STATUS ? st.MPI_ERROR : rc2, &cls);
    CHECK(cls == MPI_ERR_NO_SPACE || cls == NO_SPACE_TOO, "a nonblocking write to /dev/full gave class %d", cls);
#endif
    CHECK_OK(MPI_File_close(&fh));
}

/* A write cut short: the process may not make files longer than 4 KiB,
 * and writes 8 KiB. The part written does not hide the failure. */
static void test_partial_write(void)
{
    char path[IO_PATH_MAX], name[64];
    snprintf(name, sizeof name, "short.%d", rank);
    io_path(dir, name, path);
    MPI_File fh;
    CHECK_OK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_DELETE_ON_CLOSE,
                           MPI_INFO_NULL, &fh));
    static char buf[8192];
    memset(buf, 'y', sizeof buf);
    struct rlimit old, small;
    CHECK(getrlimit(RLIMIT_FSIZE, &old) == 0, "getrlimit");
    small = old;
    small.rlim_cur = 4096;
    void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
    CHECK(setrlimit(RLIMIT_FSIZE, &small) == 0, "setrlimit");
    MPI_Status st;
    int rc = MPI_File_write_at(fh, 0, buf, sizeof buf, MPI_CHAR, &st);
    CHECK(setrlimit(RLIMIT_FSIZE, &old) == 0, "setrlimit back");
    signal(SIGXFSZ, was);
    check_error(rc, MPI_ERR_IO, MPI_ERR_NO_SPACE, "MPI_File_write_at", "a write past RLIMIT_FSIZE");
    CHECK_OK(MPI_File_close(&fh));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    io_make_scratch_dir(MPI_COMM_WORLD, "io_errors", dir);
    char path[IO_PATH_MAX], missing[IO_PATH_MAX];
    io_path(dir, "file.dat", path);
    io_path(dir, "missing.dat", missing);
    MPI_File fh = MPI_FILE_NULL;
    MPI_Status st;
    MPI_Offset off;
    int val = rank;
    int rc;

    /* MPI_ERR_FILE: no file */
    EXPECT(MPI_File_get_size(MPI_FILE_NULL, &off), MPI_ERR_FILE, "MPI_FILE_NULL");
    EXPECT(MPI_File_write(MPI_FILE_NULL, &val, 1, MPI_INT, &st), MPI_ERR_FILE, "MPI_FILE_NULL");
    EXPECT(MPI_File_close(&fh), MPI_ERR_FILE, "MPI_FILE_NULL");

    /* MPI_ERR_NO_SUCH_FILE */
    EXPECT(MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh), MPI_ERR_NO_SUCH_FILE,
           "opening a missing file");
    EXPECT(MPI_File_delete(missing, MPI_INFO_NULL), MPI_ERR_NO_SUCH_FILE, "deleting a missing file");
    char in_missing_dir[IO_PATH_MAX];
    io_path(missing, "x", in_missing_dir);
    EXPECT(MPI_File_open(MPI_COMM_WORLD, in_missing_dir, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh),
           MPI_ERR_NO_SUCH_FILE, "creating in a missing directory");

    /* MPI_ERR_BAD_FILE (or no such file): a path through a regular file,
     * a name longer than the system allows */
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    CHECK_OK(MPI_File_close(&fh));
    char through[IO_PATH_MAX];
    io_path(path, "x", through);
    EXPECT2(MPI_File_open(MPI_COMM_WORLD, through, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh),
            MPI_ERR_BAD_FILE, MPI_ERR_NO_SUCH_FILE, "a path through a regular file");
    char longname[400], toolong[IO_PATH_MAX];
    memset(longname, 'n', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    io_path(dir, longname, toolong);
    EXPECT(MPI_File_open(MPI_COMM_WORLD, toolong, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh),
           MPI_ERR_BAD_FILE, "a name too long");

    /* MPI_ERR_AMODE */
    EXPECT(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_RDWR, MPI_INFO_NULL, &fh), MPI_ERR_AMODE,
           "RDONLY|RDWR");
    EXPECT(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh), MPI_ERR_AMODE,
           "RDWR|WRONLY");
    EXPECT(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_CREATE, MPI_INFO_NULL, &fh), MPI_ERR_AMODE,
           "RDONLY|CREATE");
    EXPECT(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL, MPI_INFO_NULL, &fh),
           MPI_ERR_AMODE, "RDWR|SEQUENTIAL");
    EXPECT(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_APPEND, MPI_INFO_NULL, &fh), MPI_ERR_AMODE,
           "no access mode");

    /* MPI_ERR_FILE_EXISTS */
    EXPECT(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh),
           MPI_ERR_FILE_EXISTS, "EXCL on an existing file");

    /* MPI_ERR_READ_ONLY (MPI_ERR_ACCESS allowed too): writes and size
     * changes on a file opened read-only */
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    EXPECT2(MPI_File_write_at(fh, rank, &val, 1, MPI_INT, &st), MPI_ERR_READ_ONLY, MPI_ERR_ACCESS,
            "writing a read-only file");
#ifndef MPICH_VERSION /* MPICH 4.0 fails it with MPI_ERR_IO */
    EXPECT2(MPI_File_write_shared(fh, &val, 1, MPI_INT, &st), MPI_ERR_READ_ONLY, MPI_ERR_ACCESS,
            "writing a read-only file");
#endif
    EXPECT2(MPI_File_write_all(fh, &val, 1, MPI_INT, &st), MPI_ERR_READ_ONLY, MPI_ERR_ACCESS,
            "writing a read-only file collectively");
    EXPECT2(MPI_File_set_size(fh, 100), MPI_ERR_READ_ONLY, MPI_ERR_ACCESS, "resizing a read-only file");
    CHECK_OK(MPI_File_close(&fh));
    /* and reads of a write-only file */
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY, MPI_INFO_NULL, &fh));
    EXPECT2(MPI_File_read_at(fh, 0, &val, 1, MPI_INT, &st), MPI_ERR_ACCESS, MPI_ERR_AMODE, "reading a write-only file");
    CHECK_OK(MPI_File_close(&fh));

    /* MPI_ERR_UNSUPPORTED_OPERATION: explicit offsets and seeks on a file
     * opened for sequential access */
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_SEQUENTIAL, MPI_INFO_NULL, &fh));
    EXPECT(MPI_File_read_at(fh, 0, &val, 1, MPI_INT, &st), MPI_ERR_UNSUPPORTED_OPERATION, "read_at, sequential");
    EXPECT(MPI_File_seek(fh, 0, MPI_SEEK_SET), MPI_ERR_UNSUPPORTED_OPERATION, "seek, sequential");
    CHECK_OK(MPI_File_close(&fh));

    /* MPI_ERR_UNSUPPORTED_DATAREP, MPI_ERR_DUP_DATAREP, MPI_ERR_CONVERSION */
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    /* a filetype that is not made of etypes (12 bytes of doubles) */
    MPI_Datatype three_ints;
    MPI_Type_contiguous(3, MPI_INT, &three_ints);
    MPI_Type_commit(&three_ints);
    rc = MPI_File_set_view(fh, 0, MPI_DOUBLE, three_ints, "native", MPI_INFO_NULL);
    CHECK(rc != MPI_SUCCESS, "set_view accepted a filetype of 12 bytes for an etype of 8");
    MPI_Type_free(&three_ints);
    EXPECT(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "tide_no_such_rep", MPI_INFO_NULL), MPI_ERR_UNSUPPORTED_DATAREP,
           "an unknown data representation");
    rc = MPI_Register_datarep("tide_failing", failing_conversion, failing_conversion, int_extent, NULL);
    int conversions = rc == MPI_SUCCESS;
#ifdef MPICH_VERSION
    /* MPICH 4.0 has no user conversion functions */
#else
    CHECK_OK(rc);
#endif
    if (conversions) {
        EXPECT(MPI_Register_datarep("tide_failing", failing_conversion, failing_conversion, int_extent, NULL),
               MPI_ERR_DUP_DATAREP, "registering a name twice");
        /* something to read first */
        CHECK_OK(MPI_File_write_at_all(fh, rank * 4, &val, 4, MPI_BYTE, &st));
        CHECK_OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "tide_failing", MPI_INFO_NULL));
        EXPECT(MPI_File_write_at(fh, rank, &val, 1, MPI_INT, &st), MPI_ERR_CONVERSION, "a failing conversion");
        EXPECT(MPI_File_read_at(fh, 0, &val, 1, MPI_INT, &st), MPI_ERR_CONVERSION, "a failing conversion");
        EXPECT(MPI_File_write_at_all(fh, rank, &val, 1, MPI_INT, &st), MPI_ERR_CONVERSION,
               "a failing conversion, collectively");
    }
    CHECK_OK(MPI_File_close(&fh));

    /* MPI_ERR_IO: reading the unmapped first page of the own memory */
    rc = MPI_File_open(MPI_COMM_SELF, "/proc/self/mem", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    if (rc == MPI_SUCCESS) {
        char b[16];
        EXPECT(MPI_File_read_at(fh, 0, b, sizeof b, MPI_CHAR, &st), MPI_ERR_IO, "reading /proc/self/mem at 0");
        CHECK_OK(MPI_File_close(&fh));
    } else if (rank == 0) {
        printf("io_errors: /proc/self/mem cannot be opened, MPI_ERR_IO by reading it not tested\n");
    }

    test_no_space();
    test_partial_write();
    test_access();

    /* a collective access that one process refuses (a bad datatype there):
     * that process gets MPI_ERR_TYPE and nobody waits for it forever (an
     * erroneous program: MPICH 4.0 hangs in it, Tide promises not to) */
#ifndef MPICH_VERSION
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    rc = MPI_File_write_at_all(fh, rank * 4, &val, 1, rank == 0 ? MPI_DATATYPE_NULL : MPI_INT, &st);
    if (rank == 0)
        check_error(rc, MPI_ERR_TYPE, MPI_ERR_TYPE, "MPI_File_write_at_all", "a null datatype");
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_OK(MPI_File_close(&fh));
#endif

    /* the errors above left nothing broken: a plain write and read work */
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
    val = 4242 + rank;
    CHECK_OK(MPI_File_write_at_all(fh, rank * 4, &val, 1, MPI_INT, &st));
    int back = -1;
    CHECK_OK(MPI_File_read_at_all(fh, rank * 4, &back, 1, MPI_INT, &st));
    CHECK(back == val, "after the errors: read %d, expected %d", back, val);
    CHECK_OK(MPI_File_close(&fh));

    io_remove_scratch_dir(MPI_COMM_WORLD, dir);
    if (rank == 0)
        printf("io_errors: ok\n");
    MPI_Finalize();
    return 0;
}
