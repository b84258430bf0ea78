/*
 * file_open.c: file handles (MPI-2.2 13.2): MPI_File_open and
 * MPI_File_close, MPI_File_delete, sizes (MPI_File_set_size,
 * MPI_File_preallocate, MPI_File_get_size), MPI_File_get_group,
 * MPI_File_get_amode, MPI_File_sync and the atomicity mode.
 *
 * Opening is collective: rank 0 creates the file when asked (so that
 * MPI_MODE_EXCL has one winner), the others open it after, and every
 * process returns the same error class if any of them failed. Each file
 * gets a private duplicate of the communicator for its own collectives.
 */
#include "runtime/api.h"
#include "runtime/errhandler.h"
#include "runtime/info.h"
#include "comm/comm.h"
#include "comm/endpoints.h"
#include "comm/comm_create.h"
#include "datatype/datatype.h"
#include "io/io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct tide_file *tide_file_get(MPI_File h)
{
    return tide_handle_get(TIDE_KIND_FILE, h);
}

int tide_io_barrier(struct tide_file *f)
{
    return PMPI_Barrier(f->comm_h);
}

/* the same error class on every process: that of the lowest rank that
 * failed (0 if none); a process that failed with it keeps its message */
static int agree(struct tide_file *f, struct tide_comm *c, int rc, const char *fn)
{
    MPI_Comm h = f ? f->comm_h : c->handle;
    int n = f ? f->size : c->size;
    int mine = rc ? (f ? f->rank : c->rank) : n, first = n;
    int e = PMPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, h);
    if (e)
        return e;
    if (first == n)
        return MPI_SUCCESS;
    int cls = rc ? tide_error_class_of(rc) : 0;
    if ((e = PMPI_Bcast(&cls, 1, MPI_INT, first, h)))
        return e;
    if (rc && tide_error_class_of(rc) == cls)
        return rc;
    return tide_err(cls, "%s: process %d of the group failed (%s)", fn, first, tide_error_class_string(cls));
}

/* ROMIO-style file system prefixes ("ufs:name") name the file after the colon */
static const char *strip_prefix(const char *name)
{
    static const char *const prefixes[] = {"ufs:", "nfs:", "lustre:", "gpfs:", "posix:", "tide:"};
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++) {
        size_t n = strlen(prefixes[i]);
        if (!strncmp(name, prefixes[i], n))
            return name + n;
    }
    return name;
}

static int check_amode(int amode, const char *fn)
{
    int rw = !!(amode & MPI_MODE_RDONLY) + !!(amode & MPI_MODE_WRONLY) + !!(amode & MPI_MODE_RDWR);
    int known = MPI_MODE_CREATE | MPI_MODE_RDONLY | MPI_MODE_WRONLY | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE |
                MPI_MODE_UNIQUE_OPEN | MPI_MODE_EXCL | MPI_MODE_APPEND | MPI_MODE_SEQUENTIAL;
    if (amode & ~known)
        return tide_err(MPI_ERR_AMODE, "%s: amode %d has bits no MPI_MODE_ constant names (argument amode)", fn,
                        amode);
    if (rw != 1)
        return tide_err(MPI_ERR_AMODE,
                        "%s: amode must have exactly one of MPI_MODE_RDONLY, MPI_MODE_WRONLY and MPI_MODE_RDWR", fn);
    if ((amode & MPI_MODE_RDONLY) && (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL)))
        return tide_err(MPI_ERR_AMODE, "%s: MPI_MODE_RDONLY cannot go with MPI_MODE_CREATE or MPI_MODE_EXCL", fn);
    if ((amode & MPI_MODE_RDWR) && (amode & MPI_MODE_SEQUENTIAL))
        return tide_err(MPI_ERR_AMODE, "%s: MPI_MODE_RDWR cannot go with MPI_MODE_SEQUENTIAL", fn);
    return MPI_SUCCESS;
}

/* open(2) of the file: writers open it for reading too when they may
 * (data sieving reads before it writes), falling back to write only */
static int open_fd(const char *path, int amode, bool create, int *fd, bool *readable, const char *fn)
{
    int flags = O_CLOEXEC;
    if (create && (amode & MPI_MODE_CREATE))
        flags |= O_CREAT | ((amode & MPI_MODE_EXCL) ? O_EXCL : 0);
    int acc = (amode & MPI_MODE_RDONLY) ? O_RDONLY : O_RDWR;
    *fd = open(path, flags | acc, 0666);
    *readable = true;
    if (*fd < 0 && (amode & MPI_MODE_WRONLY) && (errno == EACCES || errno == EPERM)) {
        *fd = open(path, flags | O_WRONLY, 0666);
        *readable = false;
    }
    if (*fd < 0)
        return tide_fs_error(errno, fn, path);
    struct stat st;
    if (fstat(*fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        close(*fd);
        *fd = -1;
        return tide_err(MPI_ERR_BAD_FILE, "%s: %s is a directory", fn, path);
    }
    return MPI_SUCCESS;
}

static void file_free(struct tide_file *f)
{
    if (f->fd >= 0)
        close(f->fd);
    tide_io_view_free(f);
    if (f->info != MPI_INFO_NULL)
        tide_info_free_internal(&f->info);
    if (f->handle != MPI_FILE_NULL)
        tide_handle_release(f->handle);
    tide_errhandler_release(f->errhandler);
    if (f->comm)
        tide_comm_release(f->comm);
    free(f->hints.cb_config_list);
    free(f->filename);
    free(f);
}

int PMPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_File_open";
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return tide_raise_file(NULL, tide_err(MPI_ERR_COMM, "%s: invalid communicator (argument comm)", fn));
    if (c->is_inter)
        return tide_raise_file(NULL, tide_err(MPI_ERR_COMM, "%s: comm must be an intracommunicator", fn));
    if (!fh)
        return tide_raise_file(NULL, tide_err(MPI_ERR_ARG, "%s: fh must not be NULL", fn));
    *fh = MPI_FILE_NULL;
    if (!filename)
        return tide_raise_file(NULL, tide_err(MPI_ERR_ARG, "%s: filename must not be NULL", fn));
    if (info != MPI_INFO_NULL && !tide_info_get(info))
        return tide_raise_file(NULL, tide_err(MPI_ERR_INFO, "%s: invalid info object (argument info)", fn));
    int rc = check_amode(amode, fn);
    if (rc)
        return tide_raise_file(NULL, rc);

    struct tide_file *f = calloc(1, sizeof *f);
    const char *path = strip_prefix(filename);
    if (f) {
        f->fd = -1;
        f->handle = MPI_FILE_NULL;
        f->info = MPI_INFO_NULL;
        f->shared_win = MPI_WIN_NULL;
        f->split_req = MPI_REQUEST_NULL;
        f->errhandler = tide_file_default_errhandler;
        tide_errhandler_retain(f->errhandler);
        f->filename = strdup(filename);
    }
    /* every process takes part in the duplicate, even one out of memory
     * (on an endpoints communicator, one of endpoints: each a rank of the
     * file with a descriptor of its own) */
    struct tide_comm *fc = NULL;
    rc = c->ep ? tide_ep_split(c, 0, 0, &fc) : tide_comm_dup_plain(c, true, &fc);
    if (rc) {
        if (f)
            file_free(f);
        return tide_raise_file(NULL, rc);
    }
    tide_errhandler_retain(MPI_ERRORS_RETURN);
    tide_errhandler_release(fc->errhandler);
    fc->errhandler = MPI_ERRORS_RETURN;
    if (!f || !f->filename) {
        rc = tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    } else {
        f->comm = fc;
        f->comm_h = fc->handle;
        f->rank = fc->rank;
        f->size = fc->size;
        fc = NULL;
        tide_io_hints_default(&f->hints, f->size);
        tide_io_hints_apply(&f->hints, f->size, info);
        if (tide_io_keep_info(f, info) != MPI_SUCCESS)
            rc = tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
        tide_io_view_default(f);
    }
    struct tide_comm *gc = f && f->comm ? f->comm : fc;
    /* rank 0 creates, then the others open what it made (or take its
     * error: every process returns the same class) */
    int first_class = 0;
    if (gc->rank == 0) {
        if (rc == MPI_SUCCESS)
            rc = open_fd(path, amode, true, &f->fd, &f->fd_readable, fn);
        first_class = rc ? tide_error_class_of(rc) : 0;
    }
    int e = PMPI_Bcast(&first_class, 1, MPI_INT, 0, gc->handle);
    if (e && !rc)
        rc = e;
    if (gc->rank != 0 && rc == MPI_SUCCESS) {
        if (first_class)
            rc = tide_err(first_class, "%s: process 0 could not open %s (%s)", fn, path,
                          tide_error_class_string(first_class));
        else
            rc = open_fd(path, amode, false, &f->fd, &f->fd_readable, fn);
    }
    rc = agree(f && f->comm ? f : NULL, gc, rc, fn);
    if (rc == MPI_SUCCESS) {
        f->amode = amode;
        f->handle = tide_handle_alloc(TIDE_KIND_FILE, f);
        if (f->handle == MPI_FILE_NULL)
            rc = tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
        if (amode & MPI_MODE_APPEND) {
            struct stat st;
            if (fstat(f->fd, &st) == 0)
                f->pos = st.st_size;
        }
        int r2 = tide_io_shared_open(f);
        if (!rc)
            rc = r2;
        rc = agree(f, NULL, rc, fn);
    }
    if (rc) {
        if (fc)
            tide_comm_release(fc);
        if (f) {
            if (f->shared_win != MPI_WIN_NULL)
                tide_io_shared_close(f);
            file_free(f);
        }
        return tide_raise_file(NULL, rc);
    }
    *fh = f->handle;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_File_open)

int PMPI_File_close(MPI_File *fh)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_File_close";
    if (!fh)
        return tide_raise_file(NULL, tide_err(MPI_ERR_ARG, "%s: fh must not be NULL", fn));
    FILE_OR_FAIL(fn, *fh, f);
    if (f->split_kind)
        return TIDE_ERR_FILE(f, MPI_ERR_OTHER, "%s: a split collective begun on the file was not ended", fn);
    tide_io_async_drain(f);
    /* everybody's accesses are over before the file goes (and before
     * MPI_MODE_DELETE_ON_CLOSE removes it) */
    int rc = tide_io_barrier(f);
    tide_io_shared_close(f);
    if (close(f->fd) != 0 && !rc)
        rc = tide_fs_error(errno, fn, "close failed");
    f->fd = -1;
    if (f->amode & MPI_MODE_DELETE_ON_CLOSE) {
        int e = tide_io_barrier(f);
        if (!rc)
            rc = e;
        if (f->rank == 0 && unlink(strip_prefix(f->filename)) != 0 && errno != ENOENT && !rc)
            rc = tide_fs_error(errno, fn, "cannot delete the file");
    }
    /* the error goes to the file's handler before the file goes */
    if (rc)
        rc = tide_raise_file(f, rc);
    file_free(f);
    *fh = MPI_FILE_NULL;
    return rc;
}
TIDE_ALIAS(MPI_File_close)

int PMPI_File_delete(const char *filename, MPI_Info info)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_File_delete";
    if (!filename)
        return tide_raise_file(NULL, tide_err(MPI_ERR_ARG, "%s: filename must not be NULL", fn));
    if (info != MPI_INFO_NULL && !tide_info_get(info))
        return tide_raise_file(NULL, tide_err(MPI_ERR_INFO, "%s: invalid info object (argument info)", fn));
    const char *path = strip_prefix(filename);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return tide_raise_file(NULL, tide_err(MPI_ERR_BAD_FILE, "%s: %s is a directory", fn, path));
    if (unlink(path) != 0)
        return tide_raise_file(NULL, tide_fs_error(errno, fn, path));
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_File_delete)

static int check_resize(struct tide_file *f, MPI_Offset size, const char *fn)
{
    if (size < 0)
        return TIDE_ERR_FILE(f, MPI_ERR_ARG, "%s: negative size %lld (argument size)", fn, size);
    if (f->amode & MPI_MODE_RDONLY)
        return TIDE_ERR_FILE(f, MPI_ERR_READ_ONLY, "%s: the file was opened MPI_MODE_RDONLY", fn);
    if (f->amode & MPI_MODE_SEQUENTIAL)
        return TIDE_ERR_FILE(f, MPI_ERR_UNSUPPORTED_OPERATION,
                             "%s: not allowed on a file opened MPI_MODE_SEQUENTIAL", fn);
    return MPI_SUCCESS;
}

/* rank 0 changes the size; everyone returns its result */
static int resize(struct tide_file *f, MPI_Offset size, bool grow_only, const char *fn)
{
    int rc = MPI_SUCCESS;
    if (f->rank == 0) {
        struct stat st;
        if (fstat(f->fd, &st) != 0) {
            rc = tide_fs_error(errno, fn, "cannot read the size");
        } else if (grow_only) {
            if (size > st.st_size) {
                int e = posix_fallocate(f->fd, 0, (off_t)size);
                if (e == EOPNOTSUPP || e == EINVAL)
                    e = ftruncate(f->fd, (off_t)size) ? errno : 0;
                if (e)
                    rc = tide_fs_error(e, fn, "cannot allocate the space");
            }
        } else if (ftruncate(f->fd, (off_t)size) != 0) {
            rc = tide_fs_error(errno, fn, "cannot change the size");
        }
    }
    int cls = rc ? tide_error_class_of(rc) : 0;
    int e = PMPI_Bcast(&cls, 1, MPI_INT, 0, f->comm_h);
    if (e)
        return e;
    if (cls && !rc)
        rc = tide_err(cls, "%s: process 0 could not change the size (%s)", fn, tide_error_class_string(cls));
    return rc;
}

int PMPI_File_set_size(MPI_File fh, MPI_Offset size)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_File_set_size";
    FILE_OR_FAIL(fn, fh, f);
    int rc = check_resize(f, size, fn);
    if (rc)
        return rc;
    rc = resize(f, size, false, fn);
    return rc ? tide_raise_file(f, rc) : MPI_SUCCESS;
}
TIDE_ALIAS(MPI_File_set_size)

int PMPI_File_preallocate(MPI_File fh, MPI_Offset size)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_File_preallocate";
    FILE_OR_FAIL(fn, fh, f);
    int rc = check_resize(f, size, fn);
    if (rc)
        return rc;
    rc = resize(f, size, true, fn);
    return rc ? tide_raise_file(f, rc) : MPI_SUCCESS;
}
TIDE_ALIAS(MPI_File_preallocate)

int PMPI_File_get_size(MPI_File fh, MPI_Offset *size)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_File_get_size";
    FILE_OR_FAIL(fn, fh, f);
    if (!size)
        return TIDE_ERR_FILE(f, MPI_ERR_ARG, "%s: size must not be NULL", fn);
    struct stat st;
    if (fstat(f->fd, &st) != 0)
        return tide_raise_file(f, tide_fs_error(errno, fn, "cannot read the size"));
    *size = st.st_size;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_File_get_size)

int PMPI_File_get_group(MPI_File fh, MPI_Group *group)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_File_get_group";
    FILE_OR_FAIL(fn, fh, f);
    if (!group)
        return TIDE_ERR_FILE(f, MPI_ERR_ARG, "%s: group must not be NULL", fn);
    int rc = PMPI_Comm_group(f->comm_h, group);
    return rc ? tide_raise_file(f, rc) : MPI_SUCCESS;
}
TIDE_ALIAS(MPI_File_get_group)

int PMPI_File_get_amode(MPI_File fh, int *amode)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_File_get_amode";
    FILE_OR_FAIL(fn, fh, f);
    if (!amode)
        return TIDE_ERR_FILE(f, MPI_ERR_ARG, "%s: amode must not be NULL", fn);
    *amode = f->amode;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_File_get_amode)

int PMPI_File_sync(MPI_File fh)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_File_sync";
    FILE_OR_FAIL(fn, fh, f);
    if (f->split_kind)
        return TIDE_ERR_FILE(f, MPI_ERR_OTHER, "%s: a split collective is in progress on the file", fn);
    int rc = MPI_SUCCESS;
    if (!(f->amode & MPI_MODE_RDONLY) && fsync(f->fd) != 0 && errno != EINVAL && errno != EROFS)
        rc = tide_fs_error(errno, fn, "fsync failed");
    rc = agree(f, NULL, rc, fn);
    return rc ? tide_raise_file(f, rc) : MPI_SUCCESS;
}
TIDE_ALIAS(MPI_File_sync)

int PMPI_File_set_atomicity(MPI_File fh, int flag)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_File_set_atomicity";
    FILE_OR_FAIL(fn, fh, f);
    /* collective: every access made before it is complete everywhere */
    int rc = tide_io_barrier(f);
    if (rc)
        return tide_raise_file(f, rc);
    f->atomic = flag != 0;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_File_set_atomicity)

int PMPI_File_get_atomicity(MPI_File fh, int *flag)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_File_get_atomicity";
    FILE_OR_FAIL(fn, fh, f);
    if (!flag)
        return TIDE_ERR_FILE(f, MPI_ERR_ARG, "%s: flag must not be NULL", fn);
    *flag = f->atomic;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_File_get_atomicity)

void tide_io_finalize(void)
{
    tide_io_async_finalize();
    tide_datarep_finalize();
}
