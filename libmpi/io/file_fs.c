/*
 * file_fs.c: the file-system layer under MPI-IO: whole transfers with
 * pread/pwrite (short transfers and EINTR retried, the end of the file
 * seen on reads), byte-range locks with fcntl, and errno turned into the
 * standard's error classes. File-system-specific behaviour (Lustre or
 * GPFS striping hints) would be added here.
 */
#include "runtime/api.h"
#include "io/io.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

int tide_fs_error(int err, const char *fn, const char *what)
{
    int cls;
    switch (err) {
    case ENOENT:
        cls = MPI_ERR_NO_SUCH_FILE;
        break;
    case EACCES:
    case EPERM:
        cls = MPI_ERR_ACCESS;
        break;
    case EEXIST:
        cls = MPI_ERR_FILE_EXISTS;
        break;
    case ENOSPC:
    case EFBIG:
        cls = MPI_ERR_NO_SPACE;
        break;
    case EDQUOT:
        cls = MPI_ERR_QUOTA;
        break;
    case EROFS:
        cls = MPI_ERR_READ_ONLY;
        break;
    case EISDIR:
    case ENOTDIR:
    case ENAMETOOLONG:
    case ELOOP:
    case EINVAL:
        cls = MPI_ERR_BAD_FILE;
        break;
    case EBUSY:
    case ETXTBSY:
        cls = MPI_ERR_FILE_IN_USE;
        break;
    default:
        cls = MPI_ERR_IO;
        break;
    }
    return tide_err(cls, "%s: %s: %s", fn, what, strerror(err));
}

int tide_fs_pread(int fd, void *buf, size_t len, MPI_Offset off, size_t *got, const char *fn)
{
    size_t done = 0;
    while (done < len) {
        ssize_t n = pread(fd, (char *)buf + done, len - done, (off_t)(off + (MPI_Offset)done));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            *got = done;
            return tide_fs_error(errno, fn, "read failed");
        }
        if (n == 0)
            break; /* end of file */
        done += (size_t)n;
    }
    if (done < len)
        memset((char *)buf + done, 0, len - done);
    *got = done;
    return MPI_SUCCESS;
}

int tide_fs_pwrite(int fd, const void *buf, size_t len, MPI_Offset off, const char *fn)
{
    size_t done = 0;
    while (done < len) {
        ssize_t n = pwrite(fd, (const char *)buf + done, len - done, (off_t)(off + (MPI_Offset)done));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return tide_fs_error(errno, fn, "write failed");
        }
        if (n == 0)
            return tide_fs_error(ENOSPC, fn, "write made no progress");
        done += (size_t)n;
    }
    return MPI_SUCCESS;
}

static int range_lock(int fd, short type, MPI_Offset off, MPI_Offset len)
{
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = type;
    fl.l_whence = SEEK_SET;
    fl.l_start = (off_t)off;
    fl.l_len = (off_t)len;
    for (;;) {
        if (fcntl(fd, type == F_UNLCK ? F_SETLK : F_SETLKW, &fl) == 0)
            return 0;
        if (errno != EINTR)
            return -1;
    }
}

int tide_fs_lock(int fd, MPI_Offset off, MPI_Offset len, bool write)
{
    /* a file system without locks (ENOLCK, EOPNOTSUPP) leaves the access
     * unlocked rather than failed: what other implementations do too */
    if (range_lock(fd, write ? F_WRLCK : F_RDLCK, off, len) != 0 && errno != ENOLCK && errno != EOPNOTSUPP &&
        errno != EBADF)
        return -1;
    return 0;
}

void tide_fs_unlock(int fd, MPI_Offset off, MPI_Offset len)
{
    (void)range_lock(fd, F_UNLCK, off, len);
}
