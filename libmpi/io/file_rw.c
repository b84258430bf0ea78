/*
 * file_rw.c: independent access (MPI-2.2 13.4): argument checks every
 * data access call shares, the walk of an access's file segments with
 * one read or write each, or with data sieving when a noncontiguous
 * access is dense enough (read a covering block once and pick the
 * pieces; for writes read, modify and write the block back under a
 * byte-range lock so other processes' bytes in the holes survive), and
 * the statuses and requests the calls return. While write sieving may be
 * on, plain writes lock what they write too (a sieving neighbour's
 * read-modify-write must not take in a write made meanwhile). In atomic
 * mode the access's whole range is locked (shared for reads).
 */
#include "runtime/api.h"
#include "datatype/datatype.h"
#include "pt2pt/request.h"
#include "io/io.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* the stream is mapped this many bytes at a time (bounds the segment list) */
#define STREAM_CHUNK ((size_t)32 << 20)

void tide_io_status(MPI_Status *status, size_t bytes)
{
    if (status == MPI_STATUS_IGNORE || !status)
        return;
    status->MPI_SOURCE = MPI_ANY_SOURCE;
    status->MPI_TAG = MPI_ANY_TAG;
    status->tide_cancelled = 0;
    status->tide_nbytes = (MPI_Count)bytes;
}

int tide_io_done_request(int error, size_t bytes, MPI_Request *request)
{
    if (error)
        return error;
    struct tide_request *r = tide_request_new(TIDE_REQ_OTHER);
    if (!r)
        return tide_err(MPI_ERR_NO_MEM, "out of memory for a request");
    tide_status_empty(&r->status);
    tide_io_status(&r->status, bytes);
    r->error = MPI_SUCCESS;
    tide_request_complete(r);
    *request = r->handle;
    return MPI_SUCCESS;
}

int tide_io_check_access(struct tide_file *f, bool write, MPI_Count count, MPI_Datatype datatype,
                         struct tide_datatype **dt, const char *fn)
{
    if (write && (f->amode & MPI_MODE_RDONLY))
        return TIDE_ERR_FILE(f, MPI_ERR_READ_ONLY, "%s: the file was opened MPI_MODE_RDONLY", fn);
    if (!write && (f->amode & MPI_MODE_WRONLY))
        return TIDE_ERR_FILE(f, MPI_ERR_ACCESS, "%s: the file was opened MPI_MODE_WRONLY", fn);
    *dt = tide_datatype_get(datatype);
    int rc = tide_datatype_check(*dt, datatype, count, fn, "datatype");
    if (rc)
        return tide_raise_file(f, rc);
    if ((*dt)->size % f->etype->size)
        return TIDE_ERR_FILE(f, MPI_ERR_TYPE,
                             "%s: the datatype (%zu bytes of data) is not a whole number of etypes (%zu bytes)", fn,
                             (*dt)->size, f->etype->size);
    return MPI_SUCCESS;
}

/* ---- segment walks ---- */

bool tide_io_writes_lock(const struct tide_file *f)
{
    return f->hints.ds_write != TIDE_IO_DISABLE;
}

/* locked: the caller holds a lock over all of s already */
static int one_by_one(struct tide_file *f, bool write, const struct tide_io_segs *s, char *data, size_t *done,
                      bool locked, const char *fn)
{
    bool lock = write && !locked && tide_io_writes_lock(f);
    for (size_t i = 0; i < s->n; i++) {
        const struct tide_io_seg *g = &s->v[i];
        int rc;
        if (write) {
            if (lock && tide_fs_lock(f->fd, g->off, (MPI_Offset)g->len, true) != 0)
                return tide_fs_error(errno, fn, "cannot lock the range");
            rc = tide_fs_pwrite(f->fd, data, g->len, g->off, fn);
            if (lock)
                tide_fs_unlock(f->fd, g->off, (MPI_Offset)g->len);
            if (rc)
                return rc;
            *done += g->len;
        } else {
            size_t got = 0;
            rc = tide_fs_pread(f->fd, data, g->len, g->off, &got, fn);
            *done += got;
            if (rc || got < g->len)
                return rc;
        }
        data += g->len;
    }
    return MPI_SUCCESS;
}

/* the segments from i on that fit a block of at most max bytes */
static size_t block_end(const struct tide_io_segs *s, size_t i, size_t max)
{
    size_t j = i + 1;
    while (j < s->n && (size_t)(s->v[j].off + (MPI_Offset)s->v[j].len - s->v[i].off) <= max)
        j++;
    return j;
}

static int sieve(struct tide_file *f, bool write, const struct tide_io_segs *s, char *data, size_t *done,
                 bool locked, const char *fn)
{
    size_t max = write ? f->hints.ind_wr_buffer_size : f->hints.ind_rd_buffer_size;
    char *blk = NULL;
    size_t blkcap = 0;
    int rc = MPI_SUCCESS;
    for (size_t i = 0; i < s->n && rc == MPI_SUCCESS;) {
        size_t j = block_end(s, i, max);
        MPI_Offset start = s->v[i].off;
        size_t span = (size_t)(s->v[j - 1].off + (MPI_Offset)s->v[j - 1].len - start);
        if (j == i + 1) {
            /* one segment (larger than the block, or alone): as it is */
            struct tide_io_segs one = {(struct tide_io_seg *)&s->v[i], 1, 1};
            size_t before = *done;
            rc = one_by_one(f, write, &one, data, done, locked, fn);
            if (!write && *done - before < s->v[i].len)
                break;
            data += s->v[i].len;
            i = j;
            continue;
        }
        if (span > blkcap) {
            free(blk);
            blkcap = span;
            if (!(blk = malloc(blkcap))) {
                rc = tide_err(MPI_ERR_NO_MEM, "%s: out of memory for the data sieving buffer", fn);
                break;
            }
        }
        bool lock = write && !locked;
        if (lock && tide_fs_lock(f->fd, start, (MPI_Offset)span, true) != 0) {
            rc = tide_fs_error(errno, fn, "cannot lock the range");
            break;
        }
        size_t got = 0;
        rc = tide_fs_pread(f->fd, blk, span, start, &got, fn);
        if (rc == MPI_SUCCESS) {
            bool short_read = false;
            for (size_t k = i; k < j; k++) {
                size_t at = (size_t)(s->v[k].off - start), len = s->v[k].len;
                if (write) {
                    memcpy(blk + at, data, len);
                } else {
                    size_t have = at >= got ? 0 : (got - at < len ? got - at : len);
                    memcpy(data, blk + at, len);
                    *done += have;
                    if (have < len) {
                        short_read = true;
                        break;
                    }
                }
                data += len;
            }
            if (write) {
                rc = tide_fs_pwrite(f->fd, blk, span, start, fn);
                if (rc == MPI_SUCCESS)
                    for (size_t k = i; k < j; k++)
                        *done += s->v[k].len;
            }
            if (short_read) {
                if (lock)
                    tide_fs_unlock(f->fd, start, (MPI_Offset)span);
                break;
            }
        }
        if (lock)
            tide_fs_unlock(f->fd, start, (MPI_Offset)span);
        i = j;
    }
    free(blk);
    return rc;
}

/* data sieving pays when the data are a good part of the range they span */
static bool use_sieve(const struct tide_file *f, bool write, const struct tide_io_segs *s, size_t bytes)
{
    int ds = write ? f->hints.ds_write : f->hints.ds_read;
    if (ds == TIDE_IO_DISABLE || s->n < 2)
        return false;
    if (write && !f->fd_readable)
        return false;
    if (ds == TIDE_IO_ENABLE)
        return true;
    size_t span = (size_t)(s->v[s->n - 1].off + (MPI_Offset)s->v[s->n - 1].len - s->v[0].off);
    return bytes / s->n < (64u << 10) && span <= 4 * bytes;
}

int tide_io_rw(struct tide_file *f, bool write, MPI_Offset sb, struct tide_io_mem *m, size_t *done, const char *fn)
{
    *done = 0;
    int rc = MPI_SUCCESS;
    for (size_t at = 0; at < m->len && rc == MPI_SUCCESS;) {
        size_t n = m->len - at < STREAM_CHUNK ? m->len - at : STREAM_CHUNK;
        struct tide_io_segs s = {0};
        rc = tide_io_view_segments(f, sb + (MPI_Offset)at, n, &s);
        if (rc)
            break;
        MPI_Offset lo = s.v[0].off, hi = s.v[s.n - 1].off + (MPI_Offset)s.v[s.n - 1].len;
        if (f->atomic && tide_fs_lock(f->fd, lo, hi - lo, write) != 0) {
            rc = tide_fs_error(errno, fn, "cannot lock the range");
            tide_io_segs_free(&s);
            break;
        }
        size_t before = *done;
        if (use_sieve(f, write, &s, n))
            rc = sieve(f, write, &s, (char *)m->data + at, done, f->atomic, fn);
        else
            rc = one_by_one(f, write, &s, (char *)m->data + at, done, f->atomic, fn);
        if (f->atomic)
            tide_fs_unlock(f->fd, lo, hi - lo);
        tide_io_segs_free(&s);
        if (!write && *done - before < n)
            break; /* the end of the file */
        at += n;
    }
    return rc;
}

int tide_io_independent(struct tide_file *f, bool write, MPI_Offset pos_etypes, void *buf, MPI_Count count,
                        MPI_Datatype datatype, MPI_Status *status, MPI_Count *etypes_done, const char *fn)
{
    struct tide_datatype *dt;
    int rc = tide_io_check_access(f, write, count, datatype, &dt, fn);
    if (rc)
        return rc;
    struct tide_io_mem m;
    size_t done = 0;
    rc = tide_io_mem_start(f, write, buf, count, dt, pos_etypes, &m, fn);
    if (rc == MPI_SUCCESS && m.len)
        rc = tide_io_rw(f, write, pos_etypes * (MPI_Offset)f->esize, &m, &done, fn);
    if (rc == MPI_SUCCESS && !write)
        rc = tide_io_mem_finish(f, &m, done, fn);
    if (rc == MPI_SUCCESS)
        tide_io_status(status, tide_io_mem_user_bytes(&m, done));
    tide_io_mem_free(&m);
    if (etypes_done)
        *etypes_done = (MPI_Count)(done / f->esize);
    return rc ? tide_raise_file(f, rc) : MPI_SUCCESS;
}
