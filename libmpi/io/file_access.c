/*
 * file_access.c: the data access calls of MPI-2.2 13.4 (and MPI-3's
 * nonblocking collective ones): explicit offsets, the individual file
 * pointer and the shared file pointer, each blocking or nonblocking,
 * independent or collective, and the split collectives (_begin/_end);
 * MPI_File_seek(_shared) and MPI_File_get_position(_shared).
 *
 * Independent calls go to tide_io_independent (the nonblocking ones do
 * their I/O when started and return a complete request); collective ones
 * to tide_io_collective, blocking, or started as a nonblocking
 * collective (the split collectives' _begin starts one, _end waits).
 */
#include "runtime/api.h"
#include "datatype/datatype.h"
#include "io/io.h"

#include <errno.h>
#include <sys/stat.h>

enum where { AT_EXPLICIT, AT_INDIVIDUAL, AT_SHARED };

static int no_sequential(struct tide_file *f, const char *fn)
{
    if (f->amode & MPI_MODE_SEQUENTIAL)
        return TIDE_ERR_FILE(f, MPI_ERR_UNSUPPORTED_OPERATION,
                             "%s: the file was opened MPI_MODE_SEQUENTIAL: only the shared file pointer may be used",
                             fn);
    return MPI_SUCCESS;
}

static int check_offset(struct tide_file *f, MPI_Offset offset, const char *fn)
{
    if (offset < 0)
        return TIDE_ERR_FILE(f, MPI_ERR_ARG, "%s: negative offset %lld (argument offset)", fn, offset);
    return MPI_SUCCESS;
}

/* etypes of the view that count elements of dt hold */
static MPI_Offset etypes_of(const struct tide_file *f, const struct tide_datatype *dt, MPI_Count count)
{
    return (MPI_Offset)(dt->size / f->etype->size) * count;
}

/* ---- independent ---- */

static int independent(MPI_File fh, enum where w, MPI_Offset offset, bool write, void *buf, int count,
                       MPI_Datatype datatype, MPI_Status *status, MPI_Request *request, const char *fn)
{
    TIDE_API_ENTER();
    FILE_OR_FAIL(fn, fh, f);
    int rc;
    if (w != AT_SHARED && (rc = no_sequential(f, fn)))
        return rc;
    if (w == AT_EXPLICIT && (rc = check_offset(f, offset, fn)))
        return rc;
    struct tide_datatype *dt;
    if ((rc = tide_io_check_access(f, write, count, datatype, &dt, fn)))
        return rc;
    MPI_Offset pos = offset;
    if (w == AT_INDIVIDUAL) {
        pos = f->pos;
    } else if (w == AT_SHARED) {
        if ((rc = tide_io_shared_fetch_add(f, etypes_of(f, dt, count), &pos)))
            return tide_raise_file(f, rc);
    }
    if (request) {
        rc = tide_io_start_async(f, write, pos, buf, count, dt, request, fn);
        if (w == AT_INDIVIDUAL && rc == MPI_SUCCESS)
            f->pos += etypes_of(f, dt, count);
        return rc ? tide_raise_file(f, rc) : MPI_SUCCESS;
    }
    MPI_Status st;
    MPI_Count done = 0;
    rc = tide_io_independent(f, write, pos, buf, count, datatype, &st, &done, fn);
    if (w == AT_INDIVIDUAL)
        f->pos += done;
    if (rc)
        return rc;
    if (status != MPI_STATUS_IGNORE)
        *status = st;
    return MPI_SUCCESS;
}

#define INDEPENDENT(name, w, write, cbuf)                                                                 \
    int PMPI_##name(MPI_File fh, cbuf *buf, int count, MPI_Datatype datatype, MPI_Status *status)        \
    {                                                                                                     \
        return independent(fh, w, 0, write, (void *)buf, count, datatype, status, NULL, "MPI_" #name);  \
    }
#define INDEPENDENT_AT(name, write, cbuf)                                                                   \
    int PMPI_##name(MPI_File fh, MPI_Offset offset, cbuf *buf, int count, MPI_Datatype datatype,           \
                    MPI_Status *status)                                                                     \
    {                                                                                                       \
        return independent(fh, AT_EXPLICIT, offset, write, (void *)buf, count, datatype, status, NULL,     \
                           "MPI_" #name);                                                                   \
    }
#define INDEPENDENT_I(name, w, write, cbuf)                                                               \
    int PMPI_##name(MPI_File fh, cbuf *buf, int count, MPI_Datatype datatype, MPI_Request *request)     \
    {                                                                                                     \
        if (!request)                                                                                     \
            return tide_raise_file(tide_file_get(fh),                                                     \
                                   tide_err(MPI_ERR_ARG, "MPI_" #name ": request must not be NULL"));     \
        return independent(fh, w, 0, write, (void *)buf, count, datatype, MPI_STATUS_IGNORE, request,   \
                           "MPI_" #name);                                                                 \
    }
#define INDEPENDENT_IAT(name, write, cbuf)                                                                  \
    int PMPI_##name(MPI_File fh, MPI_Offset offset, cbuf *buf, int count, MPI_Datatype datatype,           \
                    MPI_Request *request)                                                                   \
    {                                                                                                       \
        if (!request)                                                                                       \
            return tide_raise_file(tide_file_get(fh),                                                       \
                                   tide_err(MPI_ERR_ARG, "MPI_" #name ": request must not be NULL"));       \
        return independent(fh, AT_EXPLICIT, offset, write, (void *)buf, count, datatype, MPI_STATUS_IGNORE, \
                           request, "MPI_" #name);                                                          \
    }

INDEPENDENT_AT(File_read_at, false, void)
TIDE_ALIAS(MPI_File_read_at)
INDEPENDENT_AT(File_write_at, true, const void)
TIDE_ALIAS(MPI_File_write_at)
INDEPENDENT(File_read, AT_INDIVIDUAL, false, void)
TIDE_ALIAS(MPI_File_read)
INDEPENDENT(File_write, AT_INDIVIDUAL, true, const void)
TIDE_ALIAS(MPI_File_write)
INDEPENDENT(File_read_shared, AT_SHARED, false, void)
TIDE_ALIAS(MPI_File_read_shared)
INDEPENDENT(File_write_shared, AT_SHARED, true, const void)
TIDE_ALIAS(MPI_File_write_shared)
INDEPENDENT_IAT(File_iread_at, false, void)
TIDE_ALIAS(MPI_File_iread_at)
INDEPENDENT_IAT(File_iwrite_at, true, const void)
TIDE_ALIAS(MPI_File_iwrite_at)
INDEPENDENT_I(File_iread, AT_INDIVIDUAL, false, void)
TIDE_ALIAS(MPI_File_iread)
INDEPENDENT_I(File_iwrite, AT_INDIVIDUAL, true, const void)
TIDE_ALIAS(MPI_File_iwrite)
INDEPENDENT_I(File_iread_shared, AT_SHARED, false, void)
TIDE_ALIAS(MPI_File_iread_shared)
INDEPENDENT_I(File_iwrite_shared, AT_SHARED, true, const void)
TIDE_ALIAS(MPI_File_iwrite_shared)

/* ---- collective ---- */

/* where the ordered calls start: the shared pointer, moved past all of
 * the group's data, plus what the lower ranks take */
static int ordered_start(struct tide_file *f, MPI_Offset mine, MPI_Offset *pos)
{
    MPI_Offset before = 0, total = 0, base = 0;
    int rc = PMPI_Exscan(&mine, &before, 1, MPI_OFFSET, MPI_SUM, f->comm_h);
    if (!rc)
        rc = PMPI_Allreduce(&mine, &total, 1, MPI_OFFSET, MPI_SUM, f->comm_h);
    if (f->rank == 0) {
        before = 0;
        if (!rc)
            rc = tide_io_shared_fetch_add(f, total, &base);
    }
    int e = PMPI_Bcast(&base, 1, MPI_OFFSET, 0, f->comm_h);
    if (!rc)
        rc = e;
    *pos = base + before;
    return rc;
}

/* A process whose own checks refused a collective call still takes part,
 * with no data and its error, so that the others are not left waiting:
 * every process then returns an error. The refusal was already raised
 * here; a nonblocking part is left to finish by itself. */
static int take_part_refused(struct tide_file *f, bool write, bool nonblocking, int rc, const char *fn)
{
    MPI_Request req = MPI_REQUEST_NULL;
    f->coll_refused = rc;
    tide_io_collective(f, write, 0, NULL, 0, tide_datatype_get(MPI_BYTE), nonblocking ? &req : NULL, NULL, fn);
    f->coll_refused = MPI_SUCCESS;
    if (req != MPI_REQUEST_NULL)
        PMPI_Request_free(&req);
    return rc;
}

/* a collective access; split: the kind of _begin (request kept on f);
 * nonblocking: request is where the handle goes (checked here) */
static int collective(MPI_File fh, enum where w, MPI_Offset offset, bool write, void *buf, int count,
                      MPI_Datatype datatype, MPI_Status *status, bool nonblocking, MPI_Request *request, int split,
                      const char *fn)
{
    TIDE_API_ENTER();
    FILE_OR_FAIL(fn, fh, f);
    int rc = MPI_SUCCESS;
    struct tide_datatype *dt = NULL;
    nonblocking = nonblocking || split;
    if (w != AT_SHARED)
        rc = no_sequential(f, fn);
    if (!rc && w == AT_EXPLICIT)
        rc = check_offset(f, offset, fn);
    if (!rc && !split && nonblocking && !request)
        rc = TIDE_ERR_FILE(f, MPI_ERR_ARG, "%s: request must not be NULL", fn);
    if (!rc && f->split_kind)
        rc = TIDE_ERR_FILE(f, MPI_ERR_OTHER, "%s: a split collective is active on the file (end it first)", fn);
    if (!rc)
        rc = tide_io_check_access(f, write, count, datatype, &dt, fn);
    MPI_Offset pos = offset;
    if (w == AT_INDIVIDUAL) {
        pos = f->pos;
    } else if (w == AT_SHARED) {
        int e = ordered_start(f, rc ? 0 : etypes_of(f, dt, count), &pos);
        if (!rc && e)
            rc = tide_raise_file(f, e);
    }
    if (rc)
        return take_part_refused(f, write, nonblocking, rc, fn);
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Status st;
    rc = tide_io_collective(f, write, pos * (MPI_Offset)f->esize, buf, count, dt, nonblocking ? &req : NULL, &st,
                            fn);
    if (w == AT_INDIVIDUAL)
        f->pos += nonblocking || rc ? etypes_of(f, dt, count) : (MPI_Offset)(st.tide_nbytes / (MPI_Count)f->etype->size);
    if (rc)
        return tide_raise_file(f, rc);
    if (split) {
        f->split_kind = split;
        f->split_buf = buf;
        f->split_req = req;
    } else if (nonblocking) {
        *request = req;
    } else if (status != MPI_STATUS_IGNORE) {
        *status = st;
    }
    return MPI_SUCCESS;
}

#define COLLECTIVE(name, w, write, cbuf)                                                                   \
    int PMPI_##name(MPI_File fh, cbuf *buf, int count, MPI_Datatype datatype, MPI_Status *status)         \
    {                                                                                                      \
        return collective(fh, w, 0, write, (void *)buf, count, datatype, status, false, NULL, 0,           \
                          "MPI_" #name);                                                                   \
    }
#define COLLECTIVE_I(name, write, cbuf)                                                                    \
    int PMPI_##name(MPI_File fh, cbuf *buf, int count, MPI_Datatype datatype, MPI_Request *request)      \
    {                                                                                                      \
        return collective(fh, AT_INDIVIDUAL, 0, write, (void *)buf, count, datatype, MPI_STATUS_IGNORE,   \
                          true, request, 0, "MPI_" #name);                                                       \
    }
#define COLLECTIVE_AT(name, write, cbuf)                                                                     \
    int PMPI_##name(MPI_File fh, MPI_Offset offset, cbuf *buf, int count, MPI_Datatype datatype,            \
                    MPI_Status *status)                                                                      \
    {                                                                                                        \
        return collective(fh, AT_EXPLICIT, offset, write, (void *)buf, count, datatype, status, false, NULL, 0, \
                          "MPI_" #name);                                                                     \
    }
#define COLLECTIVE_IAT(name, write, cbuf)                                                                    \
    int PMPI_##name(MPI_File fh, MPI_Offset offset, cbuf *buf, int count, MPI_Datatype datatype,            \
                    MPI_Request *request)                                                                    \
    {                                                                                                        \
        return collective(fh, AT_EXPLICIT, offset, write, (void *)buf, count, datatype, MPI_STATUS_IGNORE,  \
                          true, request, 0, "MPI_" #name);                                                         \
    }

COLLECTIVE_AT(File_read_at_all, false, void)
TIDE_ALIAS(MPI_File_read_at_all)
COLLECTIVE_AT(File_write_at_all, true, const void)
TIDE_ALIAS(MPI_File_write_at_all)
COLLECTIVE(File_read_all, AT_INDIVIDUAL, false, void)
TIDE_ALIAS(MPI_File_read_all)
COLLECTIVE(File_write_all, AT_INDIVIDUAL, true, const void)
TIDE_ALIAS(MPI_File_write_all)
COLLECTIVE(File_read_ordered, AT_SHARED, false, void)
TIDE_ALIAS(MPI_File_read_ordered)
COLLECTIVE(File_write_ordered, AT_SHARED, true, const void)
TIDE_ALIAS(MPI_File_write_ordered)
COLLECTIVE_I(File_iread_all, false, void)
TIDE_ALIAS(MPI_File_iread_all)
COLLECTIVE_I(File_iwrite_all, true, const void)
TIDE_ALIAS(MPI_File_iwrite_all)
COLLECTIVE_IAT(File_iread_at_all, false, void)
TIDE_ALIAS(MPI_File_iread_at_all)
COLLECTIVE_IAT(File_iwrite_at_all, true, const void)
TIDE_ALIAS(MPI_File_iwrite_at_all)

/* ---- split collectives ---- */

#define BEGIN(name, w, kind, write, cbuf)                                                                  \
    int PMPI_##name(MPI_File fh, cbuf *buf, int count, MPI_Datatype datatype)                            \
    {                                                                                                      \
        return collective(fh, w, 0, write, (void *)buf, count, datatype, MPI_STATUS_IGNORE, true, NULL, kind, \
                          "MPI_" #name);                                                                   \
    }
#define BEGIN_AT(name, kind, write, cbuf)                                                                  \
    int PMPI_##name(MPI_File fh, MPI_Offset offset, cbuf *buf, int count, MPI_Datatype datatype)         \
    {                                                                                                      \
        return collective(fh, AT_EXPLICIT, offset, write, (void *)buf, count, datatype, MPI_STATUS_IGNORE, \
                          true, NULL, kind, "MPI_" #name);                                                       \
    }

static const char *const split_names[] = {"", "MPI_File_read_all_begin", "MPI_File_write_all_begin",
                                          "MPI_File_read_at_all_begin", "MPI_File_write_at_all_begin",
                                          "MPI_File_read_ordered_begin", "MPI_File_write_ordered_begin"};

static int split_end(MPI_File fh, int kind, const void *buf, MPI_Status *status, const char *fn)
{
    TIDE_API_ENTER();
    FILE_OR_FAIL(fn, fh, f);
    if (f->split_kind != kind)
        return TIDE_ERR_FILE(f, MPI_ERR_OTHER, "%s: no %s is active on the file%s%s", fn, split_names[kind],
                             f->split_kind ? "; the active one is " : "",
                             f->split_kind ? split_names[f->split_kind] : "");
    if (buf != f->split_buf)
        return TIDE_ERR_FILE(f, MPI_ERR_BUFFER, "%s: buf is not the buffer %s was given", fn, split_names[kind]);
    f->split_kind = 0;
    f->split_buf = NULL;
    int rc = PMPI_Wait(&f->split_req, status);
    return rc ? tide_raise_file(f, rc) : MPI_SUCCESS;
}

#define END(name, kind, cbuf)                                                                              \
    int PMPI_##name(MPI_File fh, cbuf *buf, MPI_Status *status)                                           \
    {                                                                                                      \
        return split_end(fh, kind, buf, status, "MPI_" #name);                                             \
    }

BEGIN(File_read_all_begin, AT_INDIVIDUAL, TIDE_SPLIT_READ_ALL, false, void)
TIDE_ALIAS(MPI_File_read_all_begin)
BEGIN(File_write_all_begin, AT_INDIVIDUAL, TIDE_SPLIT_WRITE_ALL, true, const void)
TIDE_ALIAS(MPI_File_write_all_begin)
BEGIN_AT(File_read_at_all_begin, TIDE_SPLIT_READ_AT_ALL, false, void)
TIDE_ALIAS(MPI_File_read_at_all_begin)
BEGIN_AT(File_write_at_all_begin, TIDE_SPLIT_WRITE_AT_ALL, true, const void)
TIDE_ALIAS(MPI_File_write_at_all_begin)
BEGIN(File_read_ordered_begin, AT_SHARED, TIDE_SPLIT_READ_ORDERED, false, void)
TIDE_ALIAS(MPI_File_read_ordered_begin)
BEGIN(File_write_ordered_begin, AT_SHARED, TIDE_SPLIT_WRITE_ORDERED, true, const void)
TIDE_ALIAS(MPI_File_write_ordered_begin)
END(File_read_all_end, TIDE_SPLIT_READ_ALL, void)
TIDE_ALIAS(MPI_File_read_all_end)
END(File_write_all_end, TIDE_SPLIT_WRITE_ALL, const void)
TIDE_ALIAS(MPI_File_write_all_end)
END(File_read_at_all_end, TIDE_SPLIT_READ_AT_ALL, void)
TIDE_ALIAS(MPI_File_read_at_all_end)
END(File_write_at_all_end, TIDE_SPLIT_WRITE_AT_ALL, const void)
TIDE_ALIAS(MPI_File_write_at_all_end)
END(File_read_ordered_end, TIDE_SPLIT_READ_ORDERED, void)
TIDE_ALIAS(MPI_File_read_ordered_end)
END(File_write_ordered_end, TIDE_SPLIT_WRITE_ORDERED, const void)
TIDE_ALIAS(MPI_File_write_ordered_end)

/* ---- positions ---- */

/* the view's position (etypes) of the end of the file: the first etype
 * whose data lie at or past it */
static int end_position(struct tide_file *f, MPI_Offset *pos, const char *fn)
{
    struct stat st;
    if (fstat(f->fd, &st) != 0)
        return tide_fs_error(errno, fn, "cannot read the size");
    MPI_Offset eof = st.st_size, start = f->disp + f->filetype->true_lb;
    if (eof <= start || f->fsize == 0 || f->fextent <= 0) {
        *pos = 0;
        return MPI_SUCCESS;
    }
    /* whole tiles before the end, then the bytes of the last tile below it */
    MPI_Offset tiles = (eof - f->disp) / f->fextent;
    MPI_Offset sb = tiles * (MPI_Offset)f->fsize;
    struct tide_io_segs s = {0};
    int rc = tide_io_view_segments(f, sb, f->fsize, &s);
    for (size_t i = 0; rc == MPI_SUCCESS && i < s.n && s.v[i].off < eof; i++)
        sb += s.v[i].off + (MPI_Offset)s.v[i].len <= eof ? (MPI_Offset)s.v[i].len : eof - s.v[i].off;
    tide_io_segs_free(&s);
    *pos = (sb + (MPI_Offset)f->esize - 1) / (MPI_Offset)f->esize;
    return rc;
}

static int new_position(struct tide_file *f, MPI_Offset cur, MPI_Offset offset, int whence, MPI_Offset *out,
                        const char *fn)
{
    MPI_Offset base = 0;
    switch (whence) {
    case MPI_SEEK_SET:
        base = 0;
        break;
    case MPI_SEEK_CUR:
        base = cur;
        break;
    case MPI_SEEK_END: {
        int rc = end_position(f, &base, fn);
        if (rc)
            return rc;
        break;
    }
    default:
        return tide_err(MPI_ERR_ARG, "%s: whence must be MPI_SEEK_SET, MPI_SEEK_CUR or MPI_SEEK_END", fn);
    }
    if (base + offset < 0)
        return tide_err(MPI_ERR_ARG, "%s: the new position (%lld) would be before the start of the view", fn,
                        base + offset);
    *out = base + offset;
    return MPI_SUCCESS;
}

int PMPI_File_seek(MPI_File fh, MPI_Offset offset, int whence)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_File_seek";
    FILE_OR_FAIL(fn, fh, f);
    int rc = no_sequential(f, fn);
    if (rc)
        return rc;
    MPI_Offset pos;
    rc = new_position(f, f->pos, offset, whence, &pos, fn);
    if (rc)
        return tide_raise_file(f, rc);
    f->pos = pos;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_File_seek)

int PMPI_File_get_position(MPI_File fh, MPI_Offset *offset)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_File_get_position";
    FILE_OR_FAIL(fn, fh, f);
    int rc = no_sequential(f, fn);
    if (rc)
        return rc;
    if (!offset)
        return TIDE_ERR_FILE(f, MPI_ERR_ARG, "%s: offset must not be NULL", fn);
    *offset = f->pos;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_File_get_position)

int PMPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_File_seek_shared";
    FILE_OR_FAIL(fn, fh, f);
    /* collective: every process gives the same offset and whence */
    MPI_Offset mine[2] = {offset, whence}, root[2] = {offset, whence};
    int rc = PMPI_Bcast(root, 2, MPI_OFFSET, 0, f->comm_h);
    int bad = rc == MPI_SUCCESS && (root[0] != mine[0] || root[1] != mine[1]), anybad = 0;
    if (rc == MPI_SUCCESS)
        rc = PMPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, f->comm_h);
    if (rc)
        return tide_raise_file(f, rc);
    if (anybad)
        return TIDE_ERR_FILE(f, MPI_ERR_NOT_SAME, "%s: the processes gave different offsets or whence values", fn);
    if (f->rank == 0) {
        MPI_Offset cur = 0, pos = 0;
        rc = tide_io_shared_fetch_add(f, 0, &cur);
        if (!rc)
            rc = new_position(f, cur, offset, whence, &pos, fn);
        if (!rc)
            rc = tide_io_shared_set(f, pos);
    }
    int cls = rc ? tide_error_class_of(rc) : 0;
    int e = PMPI_Bcast(&cls, 1, MPI_INT, 0, f->comm_h);
    if (!rc && e)
        rc = e;
    if (!rc && cls)
        rc = tide_err(cls, "%s: the new position is not valid (%s)", fn, tide_error_class_string(cls));
    return rc ? tide_raise_file(f, rc) : MPI_SUCCESS;
}
TIDE_ALIAS(MPI_File_seek_shared)

int PMPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_File_get_position_shared";
    FILE_OR_FAIL(fn, fh, f);
    if (!offset)
        return TIDE_ERR_FILE(f, MPI_ERR_ARG, "%s: offset must not be NULL", fn);
    int rc = tide_io_shared_fetch_add(f, 0, offset);
    return rc ? tide_raise_file(f, rc) : MPI_SUCCESS;
}
TIDE_ALIAS(MPI_File_get_position_shared)
